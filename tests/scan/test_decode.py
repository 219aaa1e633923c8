"""Reading the code: an independent QR decoder agrees with what printgen drew, and the known-grid reader
still reads it when its modules are only a couple of pixels wide and blurred."""

from __future__ import annotations

import pytest

from tests.scan.conftest import NEEDS_SCAN, SHEETS, sheet

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.builders.geometry import sheet_geometry
from printgen.builders.pad import pad_items
from printgen.page import Page, Use
from printgen.scan.decode import read_code
from printgen.scan.locate import find_markers, group_sheets
from tests.scan.photos import photo, printed


@pytest.mark.parametrize("name", SHEETS)
def test_opencv_reads_every_drawn_code_as_printgen_wrote_it(name: str) -> None:
    from printgen.marks.codes import SheetCode, layout_version
    from printgen.marks.markers import code_mark

    layout = sheet(name)
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)), "it", True, (5, 10) if layout.lucky_numbers else None)
    text = code.text(layout)
    use = code_mark(text, (4.0, 4.0, 10.0, 10.0))
    picture = printed(Page(18, 18, (use,)), 20)
    decoded, _, _ = cv2.QRCodeDetector().detectAndDecode(picture)
    assert decoded == text


def located(image: np.ndarray, width: float, height: float) -> tuple[np.ndarray, np.ndarray]:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    (group,) = group_sheets(find_markers(gray))
    matrix, _ = group.homography(width, height)
    return gray, matrix


@pytest.mark.parametrize("width, blur", [(1700, 0.0), (1250, 1.0), (2400, 1.5)])
def test_small_blurred_codes_still_read(width: int, blur: float) -> None:
    layout = sheet("qwixx-big-points")
    (item,) = list(pad_items(layout, 1, seed=5))
    image = photo(printed(item, 10), turn=160, keystone=0.15, width=width, fill=0.55, blur=blur, jpeg=60)
    gray, matrix = located(image, layout.width, layout.height)
    text = read_code(gray, matrix, sheet_geometry(layout).code)
    assert text is not None and text.startswith("$BIG-POINTS:") and text.endswith(":EN:L" + "".join(
        "0123456789ABCDEFG"[n] for n in item_lucky(item)))


def item_lucky(item: object) -> tuple[int, int]:
    from printgen.page import Text

    numbers = [int(t.text) for e in item.extras if isinstance(e, Use)  # type: ignore[attr-defined]
               for t in e.symbol.elements if isinstance(t, Text)]
    return numbers[0], numbers[1]


def test_no_code_where_there_is_none() -> None:
    layout = sheet("qwixx-standard")
    (item,) = list(pad_items(layout, 1, seed=1, scan_marks=True))
    picture = printed(item, 8)
    x, y, w, h = sheet_geometry(layout).code
    picture[int(y * 8) - 4:int((y + h) * 8) + 4, int(x * 8) - 4:int((x + w) * 8) + 4] = 255
    gray, matrix = located(photo(picture), layout.width, layout.height)
    assert read_code(gray, matrix, sheet_geometry(layout).code) is None


def test_a_code_moved_and_turned_from_where_the_markers_put_it_still_reads() -> None:
    """Paper that curls near the code, or a wide lens, moves the code a few mm from where the four markers
    put it and turns it a little: it is still found and read."""
    layout = sheet("qwixx-bonus-b")
    (item,) = list(pad_items(layout, 1, seed=2))
    px = 10
    picture = printed(item, px)
    x, y, w, h = sheet_geometry(layout).code
    left, top, side = int((x - 1) * px), int((y - 1) * px), int((w + 2) * px)
    code = picture[top:top + side, left:left + side].copy()
    picture[top:top + side, left:left + side] = 255
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), 4.0, 1.0)
    turned = cv2.warpAffine(code, turn, (side, side), borderValue=(255, 255, 255))
    moved_left, moved_top = left + int(3.5 * px), top + int(1.5 * px)
    picture[moved_top:moved_top + side, moved_left:moved_left + side] = turned
    gray, matrix = located(photo(picture, turn=20, width=1800, jpeg=80), layout.width, layout.height)
    text = read_code(gray, matrix, (x, y, w, h))
    assert text is not None and text.startswith("$BONUS-B:")
