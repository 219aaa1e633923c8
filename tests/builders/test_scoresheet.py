"""The blank sheet of every layout: what it prints, where, and that it stays on the sheet."""

from __future__ import annotations

import pytest

from printgen import layouts
from printgen.builders.scoresheet import build_sheet
from printgen.kinds import ScoreSheetLayout
from printgen.render.recording import record

ALL = [name for name in layouts.builtin_names() if layouts.load(name).kind == "score-sheet"]


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("lang", ["en", "pl"])
def test_everything_stays_inside_the_sheet(name: str, lang: str) -> None:
    layout = sheet(name)
    drawn = record(build_sheet(layout, lang, symbols=True).as_page())
    assert len(drawn) > 100
    for item in drawn:
        x0, y0, x1, y1 = item.bounds
        assert x0 >= -0.01 and y0 >= -0.01 and x1 <= layout.width + 0.01 and y1 <= layout.height + 0.01, item


@pytest.mark.parametrize("name", ALL)
def test_every_number_and_the_points_table_are_printed(name: str) -> None:
    layout = sheet(name)
    texts = [d.text for d in record(build_sheet(layout).as_page()) if d.kind == "text"]
    for row in layout.rows:
        for number in row.numbers:
            assert str(number) in texts
    for value in layout.points_table.points:
        assert str(value) in texts
    assert f"{len(layout.points_table.crosses)}×" in texts


def test_card_sheet_says_misplays_and_dice_sheets_misthrows() -> None:
    assert "Misplays" in [d.text for d in record(build_sheet(sheet("qwixx-cards")).as_page())]
    assert "Misthrows" in [d.text for d in record(build_sheet(sheet("qwixx-standard")).as_page())]


def test_labels_follow_the_language() -> None:
    texts = [d.text for d in record(build_sheet(sheet("qwixx-big-points"), "de").as_page())]
    assert {"Fehlwürfe", "Glückszahlen", "Gesamt", "Punkte"} <= set(texts)


def test_gemixxt_a_cells_take_their_segment_colours() -> None:
    from printgen.colours import ink

    layout = sheet("qwixx-gemixxt-a")
    texts = [d for d in record(build_sheet(layout).as_page()) if d.kind == "text" and d.text == "5"]
    colours = sorted(d.fill or "" for d in texts)
    assert colours == sorted(ink(layout.colour(c)) for c in ("blue", "green", "red", "yellow"))


def test_symbols_add_shapes() -> None:
    layout = sheet("qwixx-gemixxt-a")
    plain = build_sheet(layout).art.symbols()
    shaped = build_sheet(layout, symbols=True).art.symbols()
    shapes = {s.id.split("-")[1] for s in shaped if s.id.startswith("shape-")}
    assert shapes == {"red", "yellow", "green", "blue"}
    assert not any(s.id.startswith("shape-") for s in plain)


def test_bonus_b_prints_five_badges_twice_and_five_boxes() -> None:
    layout = sheet("qwixx-bonus-b")
    art = build_sheet(layout).art
    uses = [e for e in art.elements if type(e).__name__ == "Use" and e.symbol.id.startswith("bonus-")]
    assert sorted(u.symbol.id for u in uses) == sorted([f"bonus-{k}" for k in range(1, 6)] * 3)


def test_bonus_a_prints_the_bonus_row() -> None:
    layout = sheet("qwixx-bonus-a")
    drawn = record(build_sheet(layout).as_page())
    assert "Bonus" in [d.text for d in drawn]
    strip = [d for d in drawn if d.kind == "rect" and d.fill and abs((d.bounds[2] - d.bounds[0]) - 8.6) < 0.01]
    assert len(strip) == 12
