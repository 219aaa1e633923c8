"""Reading photos end to end, on the CI sample of photo-like pictures of simulated games (every score-sheet
layout, shuffled sheets, a whole 2-up page), and on photos that cannot be read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.scan.conftest import NEEDS_SCAN, SHEETS, sheet

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.builders.geometry import sheet_geometry
from printgen.kinds.score_sheets import ScoreSheetLayout
from printgen.scan.locate import SheetMarkers, find_markers
from printgen.scan.reader import Result, SheetReading, Unreadable
from printgen.scan.thresholds import GROUP_FIT, WHOLE_FIT
from tests.conftest import made_once
from tests.scan.simulator.synthetic import Truth, sample
from tests.scan.simulator.tally import Tally

CI_SAMPLE = [(name, seed) for number, name in enumerate(SHEETS) for seed in (2 * number, 2 * number + 1)]
"""Two pictures of every layout (layout, seed); shuffled sheets where the layout has them."""
TWO_UP = 5
"""The seed of the CI sample's one 2-up page."""


@dataclass(frozen=True)
class CiPicture:
    """A picture of the CI sample: its JPEG file, the truth of each sheet in it and the sheets read from it."""

    jpeg: bytes
    truths: list[Truth]
    results: list[Result]

    def image(self) -> np.ndarray:
        """The picture (BGR), as it was read."""
        return cv2.imdecode(np.frombuffer(self.jpeg, np.uint8), cv2.IMREAD_COLOR)


CiReading = Callable[[str, int], CiPicture]
"""A picture of the CI sample (layout, seed) in, the picture made and read out."""


@pytest.fixture(scope="module")
def ci_reading(request: pytest.FixtureRequest, reader: object) -> CiReading:
    """The CI sample's pictures, each made and read once a run (`made_once`): its own test, the sample's totals
    and the tests that change a picture share it, and the workers share the pictures between them."""
    kept: dict[int, CiPicture] = {}

    def read(name: str, seed: int) -> CiPicture:
        def make() -> tuple[bytes, list[Truth], list[Result]]:
            picture = sample([sheet(name)], 1500 + seed, two_up=seed == TWO_UP, widest=2000, shuffle=True)
            return picture.jpeg, picture.truths, reader.read_image(picture.image, name)  # type: ignore[attr-defined]

        if seed not in kept:
            kept[seed] = CiPicture(*made_once(request, f"ci-sample-{seed}", make))
        return kept[seed]

    return read


def first_of(layout: str) -> tuple[str, int]:
    """The CI sample's first picture of `layout` (layout, seed)."""
    return next(picture for picture in CI_SAMPLE if picture[0] == layout)


@pytest.mark.parametrize("name, seed", CI_SAMPLE)
def test_each_ci_picture_is_read_and_any_wrong_sheet_flagged(ci_reading: CiReading, name: str, seed: int) -> None:
    picture = ci_reading(name, seed)
    tally = Tally()
    tally.add(f"{name} {seed}", picture.truths, picture.results)
    assert tally.unreadable == 0, tally.failures
    assert tally.wrong_flagged == tally.sheets - tally.sheets_right, tally.failures


def test_the_ci_sample_is_read_at_the_targets(ci_reading: CiReading) -> None:
    tally = Tally()
    for name, seed in reversed(CI_SAMPLE):  # the other way round from the pictures' own tests, which another
        picture = ci_reading(name, seed)  # worker may be running meanwhile
        tally.add(f"{name} {seed}", picture.truths, picture.results)
    assert tally.sheets == 2 * len(SHEETS) + 1
    assert tally.unreadable == 0, tally.failures
    assert tally.fields_right / tally.fields >= 0.995, tally.failures
    wrong = tally.sheets - tally.sheets_right
    assert wrong <= 1, tally.failures
    assert tally.wrong_flagged == wrong, "every wrong sheet is flagged"


def test_a_whole_two_up_page_gives_both_sheets(ci_reading: CiReading) -> None:
    results = ci_reading(*next(picture for picture in CI_SAMPLE if picture[1] == TWO_UP)).results
    assert [type(r).__name__ for r in results] == ["SheetReading", "SheetReading"]
    assert [(r.position, r.of) for r in results] == [(1, 2), (2, 2)]


def _code_covered(image: np.ndarray, layout: ScoreSheetLayout) -> tuple[np.ndarray, np.ndarray]:
    """`image` with a thumb over the sheet's code, and the markers' homography (sheet mm to pixels)."""
    from printgen.scan.locate import find_markers, group_sheets

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    (group,) = group_sheets(find_markers(gray))
    matrix, _ = group.homography(layout.width, layout.height)
    x, y, w, h = sheet_geometry(layout).code
    corners = cv2.perspectiveTransform(np.float64([[[x - 1, y - 1]], [[x + w + 1, y - 1]], [[x + w + 1, y + h + 1]],
                                                   [[x - 1, y + h + 1]]]), matrix).reshape(-1, 2)
    covered = image.copy()
    cv2.fillConvexPoly(covered, np.int32(corners), (235, 235, 235))
    return covered, matrix


def test_a_covered_code_is_recognised_by_the_print(reader: object, ci_reading: CiReading) -> None:
    layout = sheet("qwixx-gemixxt-b")
    picture = ci_reading(*first_of(layout.name))
    truth = picture.truths[0]
    assert truth.code.numbers is not None  # shuffled: the code carries the order, and the print shows it
    covered, _ = _code_covered(picture.image(), layout)
    (result,) = reader.read_image(covered, "thumb")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading)
    assert result.recognised is not None
    assert result.code == truth.code


@pytest.mark.parametrize("name", ["qwixx-cards", "qwixx-big-points", "qwixx-gemixxt-b"])
def test_a_bent_sheet_with_its_code_covered_is_recognised_as_itself(reader: object, ci_reading: CiReading,
                                                                     name: str) -> None:
    """The print of a sheet that bulges between its markers lies millimetres from where they put it: compared
    as a whole, every layout of its size matched it about as badly (a Qwixx Cards sheet was taken for Big
    Points, 5 mm taller), and a number looked for within a millimetre of its cell was not found (a shuffled
    row misread)."""
    layout = sheet(name)
    picture = ci_reading(*first_of(layout.name))
    covered, matrix = _code_covered(picture.image(), layout)
    h, w = covered.shape[:2]
    u, v = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    sheet_uv = cv2.perspectiveTransform(np.stack([u, v], axis=-1).reshape(-1, 1, 2).astype(np.float64),
                                        np.linalg.inv(matrix)).reshape(h, w, 2)
    across = np.clip(sheet_uv[..., 0] / layout.width, 0, 1)
    down = np.clip(sheet_uv[..., 1] / layout.height, 0, 1)
    bulge = (np.sin(np.pi * across) * np.sin(np.pi * down)).astype(np.float32)  # none at the corner markers
    px_per_mm = float(np.linalg.norm(cv2.perspectiveTransform(np.float64([[[0, 0]], [[1, 0]]]), matrix)[1]
                                     - cv2.perspectiveTransform(np.float64([[[0, 0]], [[1, 0]]]), matrix)[0]))
    shift = 3.0 * px_per_mm * bulge  # the middle 3 mm off, to the right and down
    bent = cv2.remap(covered, u - shift, v - 0.5 * shift, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    (result,) = reader.read_image(bent, "bent")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading)
    assert result.recognised == ()  # recognised, and sure of it
    assert result.layout.name == layout.name
    assert result.code == picture.truths[0].code


@pytest.mark.parametrize("what, reason", [("noise", "no sheet found"), ("tiny", "too small")])
def test_unreadable_photos_say_why(reader: object, what: str, reason: str) -> None:
    if what == "noise":
        image = np.random.default_rng(2).integers(0, 255, (900, 1200, 3), dtype=np.uint8)
    else:
        picture = sample([sheet("qwixx-standard")], 3, two_up=False, widest=1300)
        image = cv2.resize(picture.image, None, fx=0.3, fy=0.3, interpolation=cv2.INTER_AREA)
    results = reader.read_image(image, what)  # type: ignore[attr-defined]
    assert len(results) == 1 and isinstance(results[0], Unreadable)
    assert reason in results[0].reason


def _two_markers_covered(image: np.ndarray) -> tuple[np.ndarray, SheetMarkers]:
    """`image` with a hand over the top two corner markers of its first sheet (smallest first), and that
    sheet's markers as found before."""
    from printgen.scan.locate import find_markers, group_sheets

    group = group_sheets(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))[0]
    covered = image.copy()
    for index in (0, 1):
        centre, side = group.markers[index].centre, group.markers[index].side
        cv2.circle(covered, (int(centre[0]), int(centre[1])), int(side), (230, 230, 230), -1)
    return covered, group


@pytest.mark.parametrize("two_up", [True, False])
def test_a_sheet_with_two_markers_covered_is_read_from_the_other_two(reader: object, ci_reading: CiReading,
                                                                     two_up: bool) -> None:
    """Two corner markers and the code place a sheet well enough for the print to align it (a finger over two
    corners, or a second page only half in the picture, was given up as unreadable)."""
    picture = ci_reading(*(next(p for p in CI_SAMPLE if p[1] == TWO_UP) if two_up else first_of("qwixx-standard")))
    covered, _ = _two_markers_covered(picture.image())
    results = reader.read_image(covered, "hand")  # type: ignore[attr-defined]
    assert len(results) == (2 if two_up else 1) and all(isinstance(r, SheetReading) for r in results)
    clean = {r.text: r for r in picture.results if isinstance(r, SheetReading)}
    for result in results:
        assert isinstance(result, SheetReading)
        assert [r.crossed for r in result.readings] == [r.crossed for r in clean[result.text].readings]
        assert result.verdict.total == clean[result.text].verdict.total


def _corners_lifted(image: np.ndarray, scale: float) -> np.ndarray:
    """`image` with the top left corner of its sheet magnified `scale` times and the bottom right shrunk as much,
    fading out over a few markers' sides: a curled sheet whose one corner rises towards the camera and whose
    opposite one tips away, so its markers no longer fit one flat sheet as well as a flat sheet's do."""
    h, w = image.shape[:2]
    markers = {m.index: m for m in find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))}
    u, v = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    su, sv = u.copy(), v.copy()
    for index, magnified in ((0, scale), (2, 1 / scale)):
        (cx, cy), reach = markers[index].centre, 3 * markers[index].side
        fade = np.exp(-((u - cx) ** 2 + (v - cy) ** 2) / (2 * reach**2))
        su += (u - cx) * (1 / magnified - 1) * fade
        sv += (v - cy) * (1 / magnified - 1) * fade
    return cv2.remap(image, su, sv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def test_a_sheet_with_curled_corners_is_read_through_its_warp(reader: object, ci_reading: CiReading) -> None:
    """Four markers that one flat sheet explains only within about an eighth of a marker's side (a corner
    lifted towards the camera, the opposite one tipped away: 0.13 here, a flat sheet's within 0.02) are still one
    sheet; the warp lays its print on the blank sheet. Such sheets were reported as folded or curled, or their
    code as unreadable."""
    picture = ci_reading(*first_of("qwixx-standard"))
    curled = _corners_lifted(picture.image(), 1.3)
    group = SheetMarkers({m.index: m for m in find_markers(cv2.cvtColor(curled, cv2.COLOR_BGR2GRAY))})
    assert GROUP_FIT < group.homography(*group.size_estimate())[1] <= WHOLE_FIT
    (result,) = reader.read_image(curled, "curled")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading), result
    (clean,) = picture.results
    assert isinstance(clean, SheetReading)
    assert [r.crossed for r in result.readings] == [r.crossed for r in clean.readings]
    assert result.verdict.total == clean.verdict.total


def test_fields_beside_a_corner_whose_marker_is_left_out_as_turned_are_uncertain(reader: object,
                                                                                ci_reading: CiReading) -> None:
    """A corner lifted and turned more than FOREIGN_TURN leaves its marker out (as another sheet's would be); the
    sheet is read from the other three, which cannot say where that corner's print lies: an adversary's lifted
    corners turned 12.5-22 degrees read an empty box beside it as a sure cross, unflagged (3 of 794). The fields
    near that corner are uncertain, and those far from it read as before."""
    from printgen.scan.ink import LEFT_OUT, State
    from printgen.scan.locate import marker_corners_mm
    from printgen.scan.thresholds import LEFT_OUT_REACH

    picture = ci_reading(*first_of("qwixx-standard"))
    image = picture.image()
    marker = {m.index: m for m in find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))}[2]
    x, y = (int(v) for v in marker.centre)
    r = int(marker.side)  # the marker and a little paper round it, turned 22 degrees where it lies
    patch = image[y - r:y + r, x - r:x + r].copy()
    turned = cv2.warpAffine(patch, cv2.getRotationMatrix2D((r, r), 22, 1.0), (2 * r, 2 * r),
                            borderMode=cv2.BORDER_REPLICATE)
    image[y - r:y + r, x - r:x + r] = turned
    (result,) = reader.read_image(image, "turned")  # type: ignore[attr-defined]
    (clean,) = picture.results
    assert isinstance(result, SheetReading) and isinstance(clean, SheetReading)
    width, height = result.layout.width, result.layout.height
    corner = np.mean(marker_corners_mm(2, width, height), axis=0)  # bottom right

    def near(box: tuple[float, float, float, float]) -> bool:
        return bool(np.hypot(box[0] + box[2] / 2 - corner[0], box[1] + box[3] / 2 - corner[1]) <= LEFT_OUT_REACH)

    beside = [r for r in result.readings if near(r.field.box)]
    assert beside and all(r.state is State.UNCERTAIN and r.reason == LEFT_OUT for r in beside)
    assert result.flagged
    far = [(r.field.name, r.crossed) for r in result.readings if not near(r.field.box)]
    assert far == [(r.field.name, r.crossed) for r in clean.readings if not near(r.field.box)]


def test_a_sheet_with_two_markers_and_its_code_covered_is_named_not_guessed(reader: object,
                                                                           ci_reading: CiReading) -> None:
    """Two markers without the code are too little to recognise a sheet by its print: unreadable, saying so."""
    layout = sheet("qwixx-standard")
    image = ci_reading(*first_of(layout.name)).image()
    code_covered, _ = _code_covered(image, layout)
    covered, _ = _two_markers_covered(code_covered)
    (result,) = reader.read_image(covered, "hand")  # type: ignore[attr-defined]
    assert isinstance(result, Unreadable)
    assert "only two of the sheet's four corner markers" in result.reason and "code was not read" in result.reason


def test_markers_too_few_for_a_sheet_are_not_called_none(reader: object, ci_reading: CiReading) -> None:
    """One corner left in view (a hand over the rest) is no sheet, but the photo is not one without markers."""
    from printgen.scan.locate import find_markers, group_sheets

    image = ci_reading(*first_of("qwixx-standard")).image()
    (group,) = group_sheets(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
    covered = image.copy()
    for index in (1, 2, 3):
        marker = group.markers[index]
        cv2.circle(covered, (int(marker.centre[0]), int(marker.centre[1])), int(marker.side), (230, 230, 230), -1)
    (result,) = reader.read_image(covered, "hand")  # type: ignore[attr-defined]
    assert isinstance(result, Unreadable)
    assert "only 1 corner marker found" in result.reason and "none of printgen's" not in result.reason


# -- a sheet's code is data from outside (Reliability III) ------------------------------------------------------


def forged_photo(layout_name: str, text: str, **printed_data: object) -> object:
    from tests.scan.hostile import forged
    from tests.scan.photos import photo, printed

    return photo(printed(forged(sheet(layout_name), text, **printed_data), 8), turn=4, width=1800, fill=0.7)


def version(name: str) -> str:
    from printgen.builders.geometry import sheet_geometry
    from printgen.marks.codes import layout_version

    return layout_version(sheet(name), sheet_geometry(sheet(name)))


def test_a_language_naming_a_path_never_opens_that_file(reader: object, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile
    from pathlib import Path

    import printgen.labels

    folder = Path(tempfile.mkdtemp(prefix="pg", dir="/tmp"))  # short and lower case, as the code lowers it
    try:
        canary = folder / "e.toml"
        canary.write_text((Path(printgen.labels.__file__).parent / "en.toml").read_text(encoding="utf-8"),
                          encoding="utf-8")
        opened: list[str] = []
        real_open = Path.open

        def watch(self: Path, *args: object, **kwargs: object) -> object:
            opened.append(str(self))
            return real_open(self, *args, **kwargs)  # type: ignore[call-overload]

        monkeypatch.setattr(Path, "open", watch)
        printgen.labels.catalogue.cache_clear()
        (result,) = reader.read_image(forged_photo("qwixx-standard", f"$STANDARD:{version('qwixx-standard')}:"  # type: ignore[attr-defined]
                                                                      f"{folder}/e"), "evil")
        assert isinstance(result, Unreadable), "a sheet whose language is a path was scored"
        assert "not one printgen prints" in result.reason and "not a language printgen prints" in result.reason
        assert str(canary) not in opened
    finally:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()


@pytest.mark.parametrize("layout, tail, why", [
    ("qwixx-standard", ":XX", "not a language"),
    ("qwixx-standard", ":", "not a language"),
    ("qwixx-big-points", ":EN:L55", "two different possible sums"),
    ("qwixx-big-points", ":EN", "no lucky numbers"),
    ("qwixx-standard", ":EN:L5A", "whose sheets have none"),
    ("qwixx-standard", ":EN:S1", "never shuffled"),
    ("qwixx-big-points", ":EN:L5A:L6B", "cannot read"),
])
def test_a_code_printgen_never_prints_is_unreadable_and_the_photo_goes_on(reader: object, layout: str, tail: str,
                                                                        why: str) -> None:
    name = layout.removeprefix("qwixx-").upper()
    image = forged_photo(layout, f"${name}:{version(layout)}{tail}",
                         lucky=(5, 10) if layout == "qwixx-big-points" else None)
    (result,) = reader.read_image(image, "forged")  # type: ignore[attr-defined]
    assert isinstance(result, Unreadable)
    assert result.reason.startswith("the sheet's code is not one printgen prints (") and why in result.reason


def test_a_code_that_swaps_two_numbers_of_a_standard_sheet_is_not_scored(reader: object) -> None:
    from printgen.marks import codes

    layout = sheet("qwixx-standard")
    rows = [row.numbers for row in layout.rows]
    rows[3] = (rows[3][1], rows[3][0], *rows[3][2:])  # as the code of the report: two blue numbers swapped
    order = "S" + codes._base36(codes._rank_rows(layout, tuple(rows)))
    text = f"$STANDARD:{version(layout.name)}:EN:{order}"
    (result,) = reader.read_image(forged_photo("qwixx-standard", text), "swapped")  # type: ignore[attr-defined]
    assert isinstance(result, Unreadable) and "never shuffled" in result.reason


def test_a_shuffled_order_the_print_does_not_show_is_flagged_and_the_print_scored(reader: object) -> None:
    from printgen.marks.codes import SheetCode

    layout = sheet("qwixx-gemixxt-b")
    printed_rows = tuple(row.numbers for row in layout.rows)
    claimed = list(printed_rows)
    claimed[3] = (claimed[3][1], claimed[3][0], *claimed[3][2:])
    text = SheetCode(layout.name, version(layout.name), numbers=tuple(claimed)).text(layout)
    (result,) = reader.read_image(forged_photo(layout.name, text, numbers=printed_rows), "claimed")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading)
    assert result.flagged and result.disagreements and "row 4" in result.disagreements[0]
    assert result.code.numbers is None, "the numbers printed are the ones scored"
    from printgen.scan.report import uncertain_fields

    assert any(str(item).startswith("code: ") for item in uncertain_fields(result))


def test_lucky_numbers_the_print_does_not_show_are_flagged_and_the_print_scored(reader: object) -> None:
    from printgen.marks.codes import SheetCode

    layout = sheet("qwixx-big-points")
    text = SheetCode(layout.name, version(layout.name), lucky=(6, 11)).text(layout)
    (result,) = reader.read_image(forged_photo(layout.name, text, lucky=(5, 10)), "lucky")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading)
    assert result.flagged and "lucky numbers 6 and 11" in result.disagreements[0]
    assert set(result.code.lucky or ()) == {5, 10}


def test_a_true_code_raises_no_disagreement(reader: object) -> None:
    from printgen.marks.codes import SheetCode

    layout = sheet("qwixx-gemixxt-b")
    rows = tuple((*row.numbers[:-1][::-1], row.numbers[-1]) for row in layout.rows)
    text = SheetCode(layout.name, version(layout.name), numbers=rows).text(layout)
    (result,) = reader.read_image(forged_photo(layout.name, text, numbers=rows), "true")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading) and result.disagreements == () and result.code.numbers == rows


# -- pictures full of markers ----------------------------------------------------------------------------------


def markers_picture(count: int, side: int = 780, seed: int = 1) -> object:
    """A white picture holding `count` corner markers of random corners in a grid, as a crafted file would."""
    from printgen.marks.markers import marker_grid

    rng = np.random.default_rng(seed)
    image = np.full((side, side), 255, np.uint8)
    per_row = int(np.ceil(np.sqrt(count)))
    pitch = side // per_row
    cell = max(2, (pitch * 6 // 10) // 6)
    for k in range(count):
        grid = np.array(marker_grid(int(rng.integers(4))), np.uint8)
        block = np.kron(1 - grid, np.ones((cell, cell), np.uint8)) * 255
        y, x = (k // per_row) * pitch + pitch // 5, (k % per_row) * pitch + pitch // 5
        image[y:y + block.shape[0], x:x + block.shape[1]] = block
    return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)


def test_a_picture_of_144_markers_ends_quickly(reader: object) -> None:
    import time

    from printgen.scan.locate import find_markers

    image = markers_picture(144)
    assert len(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))) >= 100
    start = time.process_time()
    results = reader.read_image(image, "markers")  # type: ignore[attr-defined]
    assert time.process_time() - start < 30  # hours before; about a second now (benchmarks time it)
    assert results and all(isinstance(r, Unreadable) for r in results)


def test_stray_markers_are_not_called_a_partial_sheet(reader: object) -> None:
    (result,) = reader.read_image(markers_picture(16, side=600, seed=3), "strays")  # type: ignore[attr-defined]
    assert isinstance(result, Unreadable)
    assert "only 4 of its four" not in result.reason and "make up no whole flat sheet" in result.reason


def _2_up_half_blurred(px: float, width: int, blurred: bool = True) -> np.ndarray:
    """A 2-up page of qwixx-standard, printed at `px` px a mm and photographed `width` px wide, whose top half is
    blurred, dim and grainy, as a phone focused on the bottom sheet sees it (sharp all over if not `blurred`)."""
    from printgen.builders.pad import pad_items
    from printgen.printing.imposition import impose, plan_grid
    from printgen.printing.paper import paper_size
    from tests.scan.photos import photo, printed

    layout = sheet("qwixx-standard")
    (page,) = impose(list(pad_items(layout, 2, seed=1)), plan_grid(paper_size("a4"), layout.width, layout.height, 2))
    image = photo(printed(page, px), turn=0, width=width, fill=0.8).astype(np.float32)
    if not blurred:
        return image.astype(np.uint8)
    top = image[: image.shape[0] // 2]
    grain = np.random.default_rng(3).normal(0, 16, top.shape)
    image[: image.shape[0] // 2] = (cv2.GaussianBlur(top, (0, 0), 4) - 128) * 0.5 + 128 + grain
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("px, width, markers, reason", [
    (6, 2600, 5, "another sheet shows only 1 of its four corner markers"),
    (4, 2000, 4, "another sheet seems to lie beside the sheet read, but none of its corner markers were found")])
def test_the_blurred_half_of_a_2_up_page_is_said_to_be_there(reader: object, px: float, width: int, markers: int,
                                                             reason: str) -> None:
    """The bottom sheet of a 2-up page is read; of the blurred top one a single marker is found, or none. Either
    way the photo says another sheet is there (it read one sheet and said nothing of the other): by the lone
    marker lying where a sheet like the one read would have its corner, or by a place beside the sheet read
    that looks like it."""
    picture = _2_up_half_blurred(px, width)
    assert len(find_markers(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY))) == markers  # the case
    read, other = reader.read_image(picture, "2-up")  # type: ignore[attr-defined]
    assert isinstance(read, SheetReading) and isinstance(other, Unreadable)
    assert other.reason.startswith(reason) and (read.position, other.position, other.of) == (1, 2, 2)


def test_a_lone_marker_beside_a_sheet_read_from_three_says_another_sheet_is_there(reader: object) -> None:
    """As above, the blurred half showing one marker, but the sheet read has a die over one of its own corners:
    read from its other three, it still places the lone marker as another sheet's corner (its homography, not its
    four markers, says where that sheet would lie)."""
    from printgen.scan.locate import group_sheets

    picture = _2_up_half_blurred(6, 2600)
    whole = next(g for g in group_sheets(find_markers(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)))
                 if len(g.markers) == 4)
    centre, side = whole.markers[2].centre, whole.markers[2].side
    cv2.rectangle(picture, (int(centre[0] - side), int(centre[1] - side)), (int(centre[0] + side),
                  int(centre[1] + side)), (40, 40, 200), -1)
    read, other = reader.read_image(picture, "2-up")  # type: ignore[attr-defined]
    assert isinstance(read, SheetReading) and isinstance(other, Unreadable)
    assert other.reason.startswith("another sheet shows only 1 of its four corner markers")


@pytest.mark.parametrize("corner", [0, 2])
def test_a_sheets_own_turned_marker_is_no_other_sheet(reader: object, corner: int) -> None:
    """A sharp 2-up page whose bottom sheet has one corner marker turned in place (a lifted corner): that sheet is
    read from its other three and the turned marker, left over, lies on it, so it is no other sheet's corner
    (the sheet read above it once made it look like one)."""
    from printgen.scan.locate import group_sheets

    picture = _2_up_half_blurred(6, 2600, blurred=False)
    groups = group_sheets(find_markers(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)))
    bottom = max(groups, key=lambda g: g.markers[0].centre[1])
    centre, half = bottom.markers[corner].centre, int(bottom.markers[corner].side * 0.75)
    y, x = int(centre[1]) - half, int(centre[0]) - half
    picture[y:y + 2 * half, x:x + 2 * half] = np.rot90(picture[y:y + 2 * half, x:x + 2 * half]).copy()
    results = reader.read_image(picture, "2-up")  # type: ignore[attr-defined]
    assert [type(r) for r in results] == [SheetReading, SheetReading]


def test_at_most_eight_sheets_are_read_and_the_rest_reported(reader: object,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine sheets in one photo: the first eight in reading order are read, the ninth (bottom right) is one
    line. Reading a sheet is tested above; here each sheet's reading is replaced by a line naming it."""
    from printgen.builders.scoresheet import build_sheet
    from tests.scan.photos import printed

    one = printed(build_sheet(sheet("qwixx-standard")), 2.6)
    h, w = one.shape[:2]
    table = np.full((3 * h + 40, 3 * w + 40, 3), 90, np.uint8)
    for k in range(9):
        y, x = (k // 3) * (h + 10) + 10, (k % 3) * (w + 10) + 10
        table[y:y + h, x:x + w] = one
    read: list[tuple[int, int]] = []

    def each_sheet(image: np.ndarray, gray: np.ndarray, group: SheetMarkers, name: str, markers: object) -> Unreadable:
        centre = np.mean([m.centre for m in group.markers.values()], axis=0)
        read.append((int(centre[1] // (h + 10)), int(centre[0] // (w + 10))))
        return Unreadable(name, f"sheet {len(read)}")

    monkeypatch.setattr(reader, "_read_sheet", each_sheet)
    results = reader.read_image(table, "table")  # type: ignore[attr-defined]
    assert read == [(row, column) for row in range(3) for column in range(3)][:8]  # in reading order
    *sheets, rest = results
    assert [r.reason for r in sheets] == [f"sheet {k}" for k in range(1, 9)]  # type: ignore[union-attr]
    assert isinstance(rest, Unreadable) and "1 more sheet not read: at most 8" in rest.reason
    assert [r.position for r in results] == list(range(1, 10)) and {r.of for r in results} == {9}




def test_a_marker_of_another_sheet_does_not_hide_a_sheet_read_from_its_own_two(reader: object) -> None:
    """A sheet with its bottom corners covered and, well below it, a bottom-left marker of another sheet: the three
    fit no known sheet, but the top two read the code, and the stray marker lies nowhere near that sheet's own
    bottom left: the sheet is read (it was "folded or curled?")."""
    from printgen.builders.geometry import MARKER, MARKER_INSET
    from printgen.builders.scoresheet import build_sheet
    from tests.scan.photos import photo, printed

    layout = sheet("qwixx-standard")
    px = 6
    one = printed(build_sheet(layout), px)
    h, w = one.shape[:2]
    table = np.full((h + 130 * px, w, 3), 255, np.uint8)
    table[:h] = one
    top, side = round((layout.height - MARKER_INSET - MARKER) * px), round(MARKER * px)
    left = round(MARKER_INSET * px)
    corner = one[top - 6:top + side + 6, left - 6:left + side + 6].copy()  # its bottom-left marker
    table[h + 100 * px:h + 100 * px + corner.shape[0], left - 6:left - 6 + corner.shape[1]] = corner
    table[top - 12:h, :] = 255  # the sheet's own bottom markers (and the totals line) covered
    results = reader.read_image(photo(table, turn=4, width=2000, fill=0.8), "stray")  # type: ignore[attr-defined]
    sheets = [r for r in results if isinstance(r, SheetReading)]
    assert len(sheets) == 1 and sheets[0].layout.name == layout.name
    assert not any(r.crossed for r in sheets[0].readings if r.field.kind == "number")


def test_fields_the_pictures_edge_cuts_off_say_so(reader: object) -> None:
    """A sheet whose top rows run off the picture's edge (read from its two bottom markers and its code): the
    fields cut off are uncertain because they lie outside the photo, not because something hides their print."""
    from printgen.builders.scoresheet import build_sheet
    from printgen.scan.ink import OUTSIDE
    from printgen.scan.locate import find_markers, group_sheets
    from tests.scan.photos import photo, printed

    image = photo(printed(build_sheet(sheet("qwixx-standard")), 6), width=1800, fill=0.7)
    (group,) = group_sheets(find_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)))
    top = int(max(group.markers[index].corners[:, 1].max() for index in (0, 1)) + 1.0 * group.markers[0].side)
    (result,) = reader.read_image(np.ascontiguousarray(image[top:]), "cut")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading)
    row = [r for r in result.readings if r.field.kind == "number" and r.field.index == 0]
    assert row and all(r.reason == OUTSIDE for r in row)  # the top row, cut by the edge
    assert not any(r.reason == OUTSIDE for r in result.readings if r.field.index > 0)
    assert not any("hidden" in r.reason for r in result.readings if r.field.index > 0)
