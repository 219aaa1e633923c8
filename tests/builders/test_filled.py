"""Filled-in sheets draw exactly the engine's state: crosses, strikes, locks, penalties and totals."""

from __future__ import annotations

from printgen import layouts
from printgen.builders.filled import PENCIL, filled_sheet
from printgen.builders.geometry import sheet_geometry
from printgen.kinds import ScoreSheetLayout
from printgen.render.recording import record
from printgen.rules import qwixx


def test_filled_standard_sheet_matches_the_engine() -> None:
    layout = layouts.load("qwixx-standard")
    assert isinstance(layout, ScoreSheetLayout)
    sheet = qwixx.Sheet("standard")
    for n in (3, 5, 6, 7, 8, 9):
        sheet.mark(0, n)
    sheet.mark(0, 12)
    sheet.close(1)
    sheet.add_penalty()
    drawn = record(filled_sheet(layout, sheet, "t").as_page())
    geometry = sheet_geometry(layout)
    pencil_lines = [d for d in drawn if d.kind == "line" and d.fill == PENCIL]
    # 7 crosses in red, one on the red lock, one penalty: two lines each
    assert len(pencil_lines) == 2 * (7 + 1 + 1)
    for number in (3, 5, 12):
        x, _y, side = geometry.rows[0].cells[number - 2]
        assert any(abs((d.bounds[0] + d.bounds[2]) / 2 - (x + side / 2)) < 0.01 for d in pencil_lines)
    texts = [d.text for d in drawn if d.kind == "text" and d.fill == PENCIL]
    assert texts == ["36", "0", "0", "0", "5", "31"] and sheet.total() == 31


def test_filled_big_points_sheet_shows_its_lucky_numbers() -> None:
    layout = layouts.load("qwixx-big-points")
    assert isinstance(layout, ScoreSheetLayout)
    sheet = qwixx.Sheet("big-points", lucky=(4, 9))
    texts = [d.text for d in record(filled_sheet(layout, sheet, "t").as_page()) if d.kind == "text"]
    assert "4" in texts and "9" in texts
