"""Scan marks on the printed sheet: four markers and a code, small, neutral, clear of every field and printed
content, inside the sheet and the printable page, on pads of 1, 2 and 4 sheets a page, streamable and small."""

from __future__ import annotations

import io

import pytest

from printgen import layouts
from printgen.builders.geometry import CODE, MARK_CLEAR, MARK_TRIM, MARKER, sheet_geometry
from printgen.builders.pad import pad_items
from printgen.builders.scoresheet import build_sheet
from printgen.kinds import ScoreSheetLayout
from printgen.marks.markers import MARK_INK, MARKER_BITS, marker_grid
from printgen.page import Document, Use
from printgen.printing.imposition import impose, plan_grid
from printgen.printing.paper import MARGIN, paper_size
from printgen.render.pdfstream import write_streamed_pdf
from printgen.render.recording import record

SHEETS = [name for name in layouts.builtin_names() if layouts.load(name).kind == "score-sheet"]


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


def marks_and_rest(layout: ScoreSheetLayout, lang: str = "en", symbols: bool = False
                   ) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float, float, float]]]:
    """The boxes drawn for the scan marks, and the boxes of everything else the sheet prints."""
    plain = record(build_sheet(layout, lang, symbols, scan_marks=False).as_page())
    marked = record(build_sheet(layout, lang, symbols).as_page())
    rest = [d.bounds for d in plain if not (d.kind == "rect" and d.bounds == (0, 0, layout.width, layout.height))]
    extra = [d.bounds for d in marked[len(plain):]]
    assert [d.bounds for d in marked[:len(plain)]] == [d.bounds for d in plain]
    return extra, rest


def overlap(a: tuple[float, ...], b: tuple[float, ...], clear: float) -> bool:
    return a[0] - clear < b[2] and b[0] - clear < a[2] and a[1] - clear < b[3] and b[1] - clear < a[3]


def distance(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The shortest distance between two boxes (0 when they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return float((dx * dx + dy * dy) ** 0.5)


@pytest.mark.parametrize("name", SHEETS)
@pytest.mark.parametrize("lang, symbols", [("en", False), ("pl", True), ("fr", False), ("it", False),
                                           ("de", True)])
def test_marks_are_small_inside_and_clear_of_everything_printed(name: str, lang: str, symbols: bool) -> None:
    """Markers and code keep MARK_TRIM (5 mm) from the sheet's edge, where it is cut (a 1-up page's trim or a
    pad's cut line), and MARK_CLEAR (4 mm) from anything else the sheet prints (the title, the lucky numbers,
    the rows, the tables), measured between the bounds of what is drawn, outlines included."""
    layout = sheet(name)
    geometry = sheet_geometry(layout)
    extra, rest = marks_and_rest(layout, lang, symbols)
    assert extra, "the sheet carries scan marks"
    squares = list(geometry.markers) + ([geometry.code] if not layout.lucky_numbers else [])
    for x, y, w, h in squares:
        assert w <= 10 and h <= 10
        assert min(x, y, layout.width - x - w, layout.height - y - h) >= MARK_TRIM - 1e-9
        box = (x, y, x + w, y + h)
        nearest = min(distance(box, other) for other in rest)
        assert nearest >= MARK_CLEAR - 1e-9, f"{name}: a scan mark at {box} is {nearest:.2f} mm from " \
            f"{min(rest, key=lambda other: distance(box, other))}"
    for drawn in extra:
        assert any(overlap(drawn, (x, y, x + w, y + h), -0.01) for x, y, w, h in squares)


def test_the_code_slot_is_clear_on_sheets_with_their_own_codes() -> None:
    layout = sheet("qwixx-big-points")
    x, y, w, h = sheet_geometry(layout).code
    _, rest = marks_and_rest(layout)
    assert w == CODE and all(distance((x, y, x + w, y + h), other) >= MARK_CLEAR - 1e-9 for other in rest)


def test_markers_are_their_patterns_in_black() -> None:
    layout = sheet("qwixx-standard")
    art = build_sheet(layout).art
    markers = [e for e in art.elements if isinstance(e, Use) and e.symbol.id.startswith("scan-marker-")]
    assert [m.symbol.id for m in markers] == [f"scan-marker-{i}" for i in range(4)]
    assert all(abs(m.scale * m.symbol.width - MARKER) < 1e-9 for m in markers)
    for index, marker in enumerate(markers):
        assert all(r.paint.fill == MARK_INK for r in marker.symbol.elements)
        dark = {(c, r) for r, row in enumerate(marker_grid(index)) for c, v in enumerate(row) if v}
        covered = {(int(r.x) + dx, int(r.y) + dy) for r in marker.symbol.elements
                   for dx in range(int(r.w)) for dy in range(int(r.h))}
        assert covered == dark, f"marker {index} ({MARKER_BITS[index]}) is drawn as its pattern"


def test_no_scan_marks_leaves_them_out() -> None:
    layout = sheet("qwixx-big-points")
    items = list(pad_items(layout, 3, seed=1, scan_marks=False))
    assert not any(symbol.id.startswith("scan-") for i in items for symbol in i.art.symbols())
    assert not any(isinstance(e, Use) and e.symbol.id.startswith("scan-") for i in items for e in i.extras)
    assert build_sheet(layout, scan_marks=False).art.id != build_sheet(layout).art.id


def test_sheets_that_differ_stamp_one_code_symbol_per_distinct_code() -> None:
    items = list(pad_items(sheet("qwixx-big-points"), 40, seed=3))
    codes = [e.symbol.id for i in items for e in i.extras if isinstance(e, Use) and e.symbol.id.startswith("scan-code")]
    assert len(codes) == 40 and len(set(codes)) == 10  # the balanced pool has ten pairs
    shuffled = list(pad_items(sheet("qwixx-gemixxt-b"), 5, seed=3, shuffle=True))
    assert len({e.symbol.id for i in shuffled for e in i.extras if isinstance(e, Use)
                and e.symbol.id.startswith("scan-code")}) == 5


@pytest.mark.parametrize("per_page", [1, 2, 4])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_marks_stay_in_the_printable_area_of_every_page(per_page: int, paper: str) -> None:
    layout = sheet("qwixx-bonus-b")
    items = list(pad_items(layout, per_page, seed=1))
    grid = plan_grid(paper_size(paper), items[0].width, items[0].height, per_page)
    (page,) = list(impose(items, grid))
    drawn_marks = [d for d in record(page) if d.fill == MARK_INK]
    assert len(drawn_marks) > 4 * per_page
    for drawn in drawn_marks:
            x0, y0, x1, y1 = drawn.bounds
            assert x0 >= MARGIN and y0 >= MARGIN and x1 <= page.width - MARGIN and y1 <= page.height - MARGIN


def test_pads_with_per_sheet_codes_still_stream() -> None:
    items = pad_items(sheet("qwixx-big-points"), 20, seed=2)
    grid = plan_grid(paper_size("a4"), 190, 120, 2)
    out = io.BytesIO()
    assert write_streamed_pdf(Document([], impose(items, grid), "t"), out).pages == 10
