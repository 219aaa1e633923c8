"""Pads of score sheets: one crop-mark style for pads and decks, a mark at both ends of every cut line."""

from __future__ import annotations

import pytest

from printgen.page import Group, Item, Line, Rect, Symbol, Use
from printgen.printing import card_grid
from printgen.printing.crop_marks import MARK, MIN_MARK
from printgen.printing.imposition import PRINTABLE, cut_lines, impose, plan_grid
from printgen.printing.paper import paper_size

SHEETS = [(190.0, 115.0), (190.0, 128.0), (210.0, 135.0)]


def test_pads_and_decks_share_one_crop_mark_style() -> None:
    """Solid hairlines in registration colour on pads as on decks (no dashed grey tick-and-dot)."""
    assert card_grid.MARK is MARK
    assert MARK.dash is None and MARK.stroke == "registration" and MARK.width < 0.1


@pytest.mark.parametrize("paper", ["a4", "letter", "a3", "a5", "legal", "tabloid"])
@pytest.mark.parametrize("size", SHEETS)
@pytest.mark.parametrize("per_page", [2, 4])
def test_every_cut_line_of_a_pad_has_a_mark_at_both_ends(paper: str, size: tuple[float, float],
                                                         per_page: int) -> None:
    grid = plan_grid(paper_size(paper), *size, per_page)
    x0, y0 = grid.origin
    w, h = grid.item_w * grid.scale, grid.item_h * grid.scale
    for filled in range(1, per_page + 1):
        marks = [e for e in cut_lines(grid, filled).elements if isinstance(e, Line)]
        assert marks and all(m.paint == MARK for m in marks)
        slots = [grid.cell(i) for i in range(filled)]
        verticals = {round(x + d, 6) for x, _ in slots for d in (0.0, w)}
        horizontals = {round(y + d, 6) for _, y in slots for d in (0.0, h)}
        assert len(marks) == 2 * (len(verticals) + len(horizontals))
        for mark in marks:
            bx0, by0, bx1, by1 = mark.bounds()
            assert max(bx1 - bx0, by1 - by0) >= MIN_MARK
            assert bx0 >= PRINTABLE and by0 >= PRINTABLE
            assert bx1 <= grid.page_w - PRINTABLE and by1 <= grid.page_h - PRINTABLE
            for sx, sy in slots:  # never over a sheet: nothing runs along a cut
                assert not (bx0 < sx + w and sx < bx1 and by0 < sy + h and sy < by1), (mark, sx, sy)
        for x in verticals:
            assert sum(1 for m in marks if m.x1 == m.x2 and abs(m.x1 - x) < 1e-6) == 2
        for y in horizontals:
            assert sum(1 for m in marks if m.y1 == m.y2 and abs(m.y1 - y) < 1e-6) == 2
    assert x0 > 0 and y0 > 0


def test_impose_places_each_art_and_extras_once_per_slot() -> None:
    art, other = Symbol("art", 100, 140, (Rect(0, 0, 1, 1),)), Symbol("other", 100, 140, (Rect(0, 0, 2, 2),))
    extras = (Use(Symbol("lucky", 5, 5, (Rect(0, 0, 5, 5),)), 1, 1),)
    items = [Item("a", art, extras), Item("b", art), Item("c", art, extras), Item("d", other, extras)]
    first, second = impose(items, plan_grid((210.0, 297.0), 100.0, 140.0, 2))
    assert first.elements[0] is second.elements[0]  # the same art in the same slot: one Use object
    assert first.elements[1] is second.elements[1] and isinstance(first.elements[1], Group)
    slot_2 = (first.elements[2], second.elements[2])  # "b" (no extras) and then "d", another art, in slot 2
    assert [(e.symbol.id, e.x, e.y) for e in slot_2 if isinstance(e, Use)] == [
        ("art", slot_2[0].x, slot_2[0].y), ("other", slot_2[0].x, slot_2[0].y)]  # type: ignore[union-attr]
