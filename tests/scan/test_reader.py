"""Reading photos end to end, on the CI sample of photo-like pictures of simulated games (every score-sheet
layout, shuffled sheets, a whole 2-up page), and on photos that cannot be read."""

from __future__ import annotations

import pytest

from tests.scan.conftest import NEEDS_SCAN, SHEETS, sheet

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.builders.geometry import sheet_geometry
from printgen.scan.measure import Tally
from printgen.scan.reader import SheetReading, Unreadable
from printgen.scan.synthetic import sample


@pytest.fixture(scope="module")
def ci_sample(reader: object) -> Tally:
    """Two pictures of every layout (one of them a 2-up page, shuffled sheets for gemixxt-B), read."""
    tally = Tally()
    for number, name in enumerate(SHEETS):
        for seed in (2 * number, 2 * number + 1):
            picture = sample([sheet(name)], 1500 + seed, two_up=seed == 5, widest=2000, shuffle=True)
            tally.add(f"{name} {seed}", picture.truths, reader.read_image(picture.image, name))  # type: ignore[attr-defined]
    return tally


def test_the_ci_sample_is_read_at_the_targets(ci_sample: Tally) -> None:
    assert ci_sample.sheets == 2 * len(SHEETS) + 1
    assert ci_sample.unreadable == 0, ci_sample.failures
    assert ci_sample.fields_right / ci_sample.fields >= 0.995, ci_sample.failures
    wrong = ci_sample.sheets - ci_sample.sheets_right
    assert wrong <= 1, ci_sample.failures
    assert ci_sample.wrong_flagged == wrong, "every wrong sheet is flagged"


def test_a_whole_two_up_page_gives_both_sheets(reader: object) -> None:
    picture = sample([sheet("qwixx-cards")], 77, two_up=True, widest=2400)
    results = reader.read_image(picture.image, "page")  # type: ignore[attr-defined]
    assert [type(r).__name__ for r in results] == ["SheetReading", "SheetReading"]
    assert [(r.position, r.of) for r in results] == [(1, 2), (2, 2)]


def test_a_covered_code_is_recognised_by_the_print(reader: object) -> None:
    layout = sheet("qwixx-gemixxt-b")
    picture = sample([layout], 31, two_up=False, widest=1600, shuffle=True)
    truth = picture.truths[0]
    from printgen.scan.locate import find_markers, group_sheets

    gray = cv2.cvtColor(picture.image, cv2.COLOR_BGR2GRAY)
    (group,) = group_sheets(find_markers(gray))
    matrix, _ = group.homography(layout.width, layout.height)
    x, y, w, h = sheet_geometry(layout).code
    corners = cv2.perspectiveTransform(np.float64([[[x - 1, y - 1]], [[x + w + 1, y - 1]], [[x + w + 1, y + h + 1]],
                                                   [[x - 1, y + h + 1]]]), matrix).reshape(-1, 2)
    covered = picture.image.copy()
    cv2.fillConvexPoly(covered, np.int32(corners), (235, 235, 235))  # a thumb over the code
    (result,) = reader.read_image(covered, "thumb")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading)
    assert result.recognised is not None
    assert result.code == truth.code


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


@pytest.mark.parametrize("two_up", [True, False])
def test_a_sheet_with_two_markers_covered_is_named_not_dropped(reader: object, two_up: bool) -> None:
    from printgen.scan.locate import find_markers, group_sheets

    picture = sample([sheet("qwixx-standard")], 78, two_up=two_up, widest=2400)
    gray = cv2.cvtColor(picture.image, cv2.COLOR_BGR2GRAY)
    groups = group_sheets(find_markers(gray))
    assert len(groups) == (2 if two_up else 1)
    covered = picture.image.copy()
    for index in (0, 1):  # a hand over the top two corners of one sheet
        marker = groups[0].markers[index]
        centre, side = marker.centre, marker.side
        cv2.circle(covered, (int(centre[0]), int(centre[1])), int(side), (230, 230, 230), -1)
    results = reader.read_image(covered, "hand")  # type: ignore[attr-defined]
    assert len(results) == (2 if two_up else 1)
    partial = [r for r in results if isinstance(r, Unreadable)]
    assert len(partial) == 1 and "only 2 of" in partial[0].reason
    assert sum(isinstance(r, SheetReading) for r in results) == (1 if two_up else 0)
