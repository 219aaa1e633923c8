"""Finding sheets: markers in any turn of the photo, grouped into sheets (two on a 2-up page), sized."""

from __future__ import annotations

import pytest

from tests.scan.conftest import NEEDS_SCAN, sheet

cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.builders.pad import pad_items
from printgen.builders.scoresheet import build_sheet
from printgen.printing.imposition import impose, plan_grid
from printgen.printing.paper import paper_size
from printgen.scan.locate import find_markers, group_sheets
from tests.scan.photos import photo, printed


@pytest.mark.parametrize("turn", [0, 33, 90, 180, 251])
def test_one_sheet_is_found_whatever_its_turn(turn: float) -> None:
    layout = sheet("qwixx-bonus-b")
    image = photo(printed(build_sheet(layout), 6), turn=turn, keystone=0.2)
    groups = group_sheets(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
    assert len(groups) == 1 and sorted(groups[0].markers) == [0, 1, 2, 3]
    width, height = groups[0].size_estimate()
    assert abs(width - layout.width) < 0.025 * layout.width and abs(height - layout.height) < 0.025 * layout.height


@pytest.mark.parametrize("per_page", [2, 4])
def test_every_sheet_of_a_page_is_found_with_its_own_markers(per_page: int) -> None:
    layout = sheet("qwixx-standard")
    items = list(pad_items(layout, per_page, seed=1))
    grid = plan_grid(paper_size("a4"), layout.width, layout.height, per_page)
    (page,) = list(impose(items, grid))
    image = photo(printed(page, 6), turn=12, width=2600, fill=0.8)
    groups = group_sheets(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
    assert len(groups) == per_page
    for group in groups:
        assert len(group.markers) == 4
        _, error = group.homography(layout.width, layout.height)
        assert error < 0.05, "all four markers come from one sheet"


def test_three_markers_still_make_a_sheet() -> None:
    layout = sheet("qwixx-standard")
    picture = printed(build_sheet(layout), 6)
    picture[-(12 * 6):, -(12 * 6):] = 255  # the bottom-right marker torn off
    groups = group_sheets(find_markers(cv2.cvtColor(photo(picture, turn=8), cv2.COLOR_BGR2GRAY)))
    assert len(groups) == 1 and sorted(groups[0].markers) == [0, 1, 3]


def test_a_photo_without_a_sheet_has_no_markers() -> None:
    import numpy as np

    noise = np.random.default_rng(1).integers(0, 255, (900, 1200, 3), dtype=np.uint8)
    assert group_sheets(find_markers(cv2.cvtColor(noise, cv2.COLOR_BGR2GRAY))) == []


def test_a_sheet_seen_steeply_from_close_is_found() -> None:
    """Photographed 40 degrees from above at arm's length, the near markers look four times the far ones."""
    import numpy as np

    layout = sheet("qwixx-bonus-b")
    picture = printed(build_sheet(layout), 6)
    h, w = picture.shape[:2]
    angle, distance, focal = np.radians(40), 0.7 * h, 1.1 * h  # camera 0.7 sheet heights from its middle
    flat = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    x, y = flat[:, 0] - w / 2, flat[:, 1] - h / 2
    depth = distance + y * np.sin(angle)
    seen = np.stack([focal * x / depth, focal * y * np.cos(angle) / depth], axis=1) + [1500, 1000]
    image = cv2.warpPerspective(picture, cv2.getPerspectiveTransform(flat, seen.astype(np.float32)), (3000, 2000),
                                flags=cv2.INTER_AREA, borderValue=(70, 90, 60))
    markers = find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    sides = [m.side for m in markers]
    assert len(markers) == 4 and max(sides) > 3.5 * min(sides)
    groups = group_sheets(markers)
    assert len(groups) == 1 and sorted(groups[0].markers) == [0, 1, 2, 3]
    width, height = groups[0].size_estimate()
    assert abs(width - layout.width) < 0.025 * layout.width and abs(height - layout.height) < 0.025 * layout.height


def test_markers_of_a_sheet_too_bent_for_one_plane_are_not_split_into_pairs() -> None:
    """Two markers make a sheet only when no other marker lines up with them: four that fit no flat sheet are
    one curled sheet to report, not two half sheets to read."""

    from printgen.scan.locate import Marker

    layout = sheet("qwixx-bonus-b")
    image = photo(printed(build_sheet(layout), 6), turn=10)
    markers = find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert len(group_sheets(markers)) == 1
    grown = {0: 1.4, 2: 0.7}  # a curl lifts one corner towards the camera and tips another away
    bent = [Marker(m.index, (m.corners - m.centre) * grown.get(m.index, 1.0) + m.centre) for m in markers]
    assert group_sheets(bent) == []
    two = [m for m in markers if m.index in (2, 3)]
    assert [sorted(g.markers) for g in group_sheets(two)] == [[2, 3]]


def test_a_marker_turned_against_the_other_three_is_left_out_where_the_three_fit() -> None:
    """Four markers that fit one flat sheet only loosely (within WHOLE_FIT, as a curled sheet's do) are not one
    sheet when three of them fit well and the fourth is turned against them (22 degrees, FOREIGN_TURN 12): it is
    another sheet's, lying where this one's is hidden (found by an adversarial check: it made sheets read from
    three markers unreadable or misread)."""
    import numpy as np

    from printgen.scan.locate import Marker, SheetMarkers
    from printgen.scan.thresholds import GROUP_FIT, WHOLE_FIT

    image = photo(printed(build_sheet(sheet("qwixx-standard")), 6), turn=10)
    markers = find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    turn = np.radians(22)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    foreign = [m if m.index != 2 else Marker(2, (m.corners - m.centre) @ rotation.T + m.centre) for m in markers]
    four = SheetMarkers({m.index: m for m in foreign})
    assert GROUP_FIT < four.homography(*four.size_estimate())[1] <= WHOLE_FIT
    assert [sorted(g.markers) for g in group_sheets(foreign)] == [[0, 1, 3]]


def test_a_lifted_corners_marker_moved_and_magnified_but_not_turned_stays_with_the_other_three() -> None:
    """A corner lifted towards the camera shows its marker larger and further out than the other three's flat sheet
    puts it, so the four fit only loosely while the three fit well; but it is not turned against them, as another
    sheet's marker would be: the four are one sheet, and the warp lays the corner flat."""
    import numpy as np

    from printgen.scan.locate import Marker, SheetMarkers
    from printgen.scan.thresholds import GROUP_FIT, WHOLE_FIT

    image = photo(printed(build_sheet(sheet("qwixx-standard")), 6), turn=10)
    markers = find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    middle = np.mean([m.centre for m in markers], axis=0)

    def lifted(m: Marker) -> Marker:
        if m.index != 2:
            return m
        away = (m.centre - middle) / np.linalg.norm(m.centre - middle)
        return Marker(2, (m.corners - m.centre) * 1.4 + m.centre + away * 0.5 * m.side)

    moved = [lifted(m) for m in markers]
    four = SheetMarkers({m.index: m for m in moved})
    three = SheetMarkers({m.index: m for m in moved if m.index != 2})
    assert GROUP_FIT < four.homography(*four.size_estimate())[1] <= WHOLE_FIT
    assert three.homography(*three.size_estimate())[1] <= GROUP_FIT
    assert [sorted(g.markers) for g in group_sheets(moved)] == [[0, 1, 2, 3]]


def test_markers_smeared_by_motion_blur_are_found_in_a_coarser_copy() -> None:
    """A hand that moves while the picture is taken smears each marker over several of its cells: the photo's
    usual copy finds none, a copy a few times smaller (where the smear is short) finds all four."""
    import numpy as np

    from printgen.scan.locate import _detect
    from printgen.scan.thresholds import CLAHE_CLIP, CLAHE_TILES, DETECT_SIZE

    picture = photo(printed(build_sheet(sheet("qwixx-standard")), 6), turn=7, width=3200, fill=0.5, jpeg=95)
    smear = np.zeros((20, 20), np.float32)
    cv2.line(smear, (0, 10), (19, 7), 1.0, 1)  # 20 px, a little off level
    blurred = cv2.filter2D(picture, -1, smear / smear.sum())
    grain = np.random.default_rng(1).normal(0, 6, blurred.shape)
    gray = cv2.cvtColor(np.clip(blurred + grain, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
    usual = cv2.resize(gray, None, fx=DETECT_SIZE / 3200, fy=DETECT_SIZE / 3200, interpolation=cv2.INTER_AREA)
    evened = cv2.createCLAHE(clipLimit=CLAHE_CLIP, tileGridSize=(CLAHE_TILES, CLAHE_TILES)).apply(usual)
    assert _detect(usual) == [] and _detect(evened) == []  # the first two looks
    groups = group_sheets(find_markers(gray))
    assert len(groups) == 1 and sorted(groups[0].markers) == [0, 1, 2, 3]


def test_two_markers_of_a_tilted_sheet_measure_it_in_their_own_widths() -> None:
    """Seen at a slant, a sheet looks shorter one way and so do its markers: two markers' distance counts in the
    markers' widths along it, not in their (shortened) sizes."""
    import numpy as np

    from printgen.scan.thresholds import PAIR_SPAN

    layout = sheet("qwixx-standard")
    picture = printed(build_sheet(layout), 6)
    picture = cv2.resize(picture, None, fx=1.0, fy=0.75, interpolation=cv2.INTER_AREA)  # tilted back about 40°
    picture[picture.shape[0] // 2:] = 255  # the bottom half (its two markers) out of the picture
    image = photo(picture, turn=20)
    (pair,) = group_sheets(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
    width, height = pair.size_estimate()
    assert sorted(pair.markers) == [0, 1] and np.isnan(height)
    assert abs(width / layout.width - 1) < PAIR_SPAN / 2


def test_near_markers_with_their_sheets_far_ones_beyond_the_size_ratio_are_no_pair() -> None:
    """Near markers more than MARKER_SIDE_RATIO times the far ones: the far ones are too small to make up the
    sheet with them, but they still say that the near two are not a sheet of their own."""
    import numpy as np

    from printgen.scan.locate import Marker
    from printgen.scan.thresholds import MARKER_SIDE_RATIO

    markers = find_markers(cv2.cvtColor(photo(printed(build_sheet(sheet("qwixx-bonus-b")), 6), turn=5),
                                        cv2.COLOR_BGR2GRAY))
    far = 1 / (MARKER_SIDE_RATIO + 1)  # the bottom markers shrunk about their middles
    shrunk = [Marker(m.index, (m.corners - m.centre) * far + m.centre) if m.index in (2, 3) else m for m in markers]
    assert len(shrunk) == 4 and max(m.side for m in shrunk) > MARKER_SIDE_RATIO * min(m.side for m in shrunk)
    assert np.all([len(g.markers) != 2 for g in group_sheets(shrunk)])


def test_a_pair_that_fits_no_sheet_leaves_its_marker_to_the_pair_that_does() -> None:
    """A stray marker 0 nearer than the sheet's own (a QR code's corner taken for one) would pair first; a pair
    whose distance fits no known sheet is passed over, and the sheet's own diagonal pair is found."""
    from printgen.scan.locate import Marker

    layout = sheet("qwixx-bonus-b")
    markers = find_markers(cv2.cvtColor(photo(printed(build_sheet(layout), 6), turn=5), cv2.COLOR_BGR2GRAY))
    by_corner = {m.index: m for m in markers}
    first, third = by_corner[0], by_corner[2]
    stray = Marker(0, (first.corners - first.centre) * 0.6 + (first.centre + third.centre) / 2)
    seen = [first, third, stray]

    def fits(pair: object) -> bool:
        width, height = pair.size_estimate()  # type: ignore[attr-defined]
        return abs(width / layout.width - 1) + abs(height / layout.height - 1) < 0.08

    assert [id(g.markers[0]) for g in group_sheets(seen)] == [id(stray)]  # the nearest pair first
    (pair,) = group_sheets(seen, pair_fits=fits)
    assert pair.markers[0] is first and pair.markers[2] is third


def _table_with(copy: str, turn: float = 0.0) -> tuple[object, object, object]:
    """A grey table 1400 x 900 px with a printed sheet at its left and, at its right, `copy`: the same sheet
    blurred and dimmed ("blurred"), nothing ("none") or a white card as large ("card"); all turned by `turn`
    degrees about the picture's middle. With it the sheet as the reader gives it (its homography from mm to
    pixels, its width and height) and the copy so."""
    import numpy as np

    layout = sheet("qwixx-standard")
    one = cv2.cvtColor(printed(build_sheet(layout), 3), cv2.COLOR_BGR2GRAY)
    h, w = one.shape
    table = np.full((900, 1400), 90, np.uint8)
    table[150:150 + h, 60:60 + w] = one
    right = table[150:150 + h, 120 + w:120 + 2 * w]  # 60 px (20 mm) apart
    if copy == "blurred":
        right[:] = np.clip((cv2.GaussianBlur(one, (0, 0), 5).astype(np.float32) - 128) * 0.6 + 120, 0, 255)
    elif copy == "card":
        right[:] = 245
    rotation = np.vstack([cv2.getRotationMatrix2D((700, 450), turn, 1.0), [0, 0, 1]])
    table = cv2.warpAffine(table, rotation[:2], (1400, 900), borderMode=cv2.BORDER_REPLICATE)
    scale = w / layout.width
    at = [rotation @ np.array([[scale, 0, x], [0, scale, 150], [0, 0, 1]]) for x in (60, 120 + w)]
    return table, *((to_photo, layout.width, layout.height) for to_photo in at)


@pytest.mark.parametrize("turn", [0, 20])
@pytest.mark.parametrize("copy, found", [("blurred", True), ("none", False), ("card", False)])
def test_a_sheet_whose_markers_were_all_missed_is_found_by_its_look(copy: str, found: bool, turn: float) -> None:
    """Beside a sheet read, a blurred, dim copy of it is another sheet, straight or turned (the page turned in
    the photo: it is looked for in the sheet's own plane); an empty table or a white card as large is not (only
    the print inside the sheet is compared, not its outline, which a turned sheet's box would hold)."""
    from printgen.scan.locate import look_alike_beside

    table, read, beside = _table_with(copy, turn)
    assert look_alike_beside(table, [read]) is found
    assert not look_alike_beside(table, [read, beside])  # both read


def test_a_flat_or_impossible_sheet_finds_nothing() -> None:
    """A sheet said to lie over a flat part of the picture (which would match everywhere) or whose homography is not
    finite is skipped."""
    import numpy as np

    from printgen.scan.locate import look_alike_beside

    table, _, _ = _table_with("none")
    bare = np.array([[0.3, 0, 900], [0, 0.3, 20], [0, 0, 1]])  # 150 x 90 mm on the bare table at its top right
    assert not look_alike_beside(table, [(bare, 150.0, 90.0)])
    assert not look_alike_beside(table, [(np.full((3, 3), np.nan), 150.0, 90.0)])
