"""Filled-in sheets: a layout and a rules-engine Sheet in, the sheet as a player would have marked it out.

Crosses in marked boxes, skipped numbers struck through (a level line, so
that no one — and no scanner — takes it for a slash), crossed locks (a
thin level stroke over the lock of a row another player closed), crossed penalty
boxes, struck bonus fields, the bonus boxes' fields crossed, and the totals written in (Bonus B's extra
points noted in the total box) — every figure taken
from the engine, drawn on the same geometry as the blank sheet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printgen.builders.geometry import sheet_geometry
from printgen.builders.scoresheet import build_sheet, centred_text, sheet_extras
from printgen.page import Element, Item, Line, Mm, Paint
from printgen.rules.sheet import Sheet

if TYPE_CHECKING:  # the kinds use the builders; the builders only name the kinds' models
    from printgen.kinds.score_sheets import ScoreSheetLayout

PENCIL = "#1c1c3a"
STRIKE = "#55556a"


def cross(cx: Mm, cy: Mm, half: Mm, width: Mm = 0.75) -> list[Element]:
    """A hand-drawn-looking X centred on (cx, cy)."""
    paint = Paint(stroke=PENCIL, width=width)
    return [Line(cx - half, cy - half, cx + half, cy + half, paint), Line(cx - half, cy + half, cx + half, cy - half, paint)]


def filled_sheet(layout: ScoreSheetLayout, sheet: Sheet, name: str, lang: str = "en",
                 symbols: bool = False) -> Item:
    """The sheet of `layout` filled in with the state of `sheet`."""
    numbers = sheet.spec.numbers_by_row()
    shuffled = numbers != tuple(row.numbers for row in layout.rows)
    base = build_sheet(layout, lang, symbols, static_numbers=not shuffled)
    extras = list(sheet_extras(layout, lucky=sheet.lucky, numbers=numbers if shuffled else None,
                               code=(lang, symbols)))
    extras += marks(layout, sheet)
    return Item(name, base.art, tuple(extras))


def marks(layout: ScoreSheetLayout, sheet: Sheet) -> list[Element]:
    """Every pencil mark of `sheet` on `layout`'s geometry."""
    geometry = sheet_geometry(layout)
    elements: list[Element] = []
    for index, row in enumerate(geometry.rows):
        order = sheet.spec.rows[index].numbers
        marked, skipped = set(sheet.marked(index)), set(sheet.skipped(index))
        for (x, y, side), number in zip(row.cells, order):
            if number in marked:
                elements += cross(x + side / 2, y + side / 2, side * 0.32)
            elif number in skipped:
                elements.append(Line(x + side * 0.15, y + side * 0.5, x + side * 0.85, y + side * 0.5,
                                     Paint(stroke=STRIKE, width=0.45)))
        lx, ly, r = row.lock
        if sheet.is_locked(index):
            elements += cross(lx, ly, r * 0.6, 0.9)
        elif sheet.is_closed(index):
            elements.append(Line(lx - r * 0.7, ly, lx + r * 0.7, ly, Paint(stroke=STRIKE, width=0.6)))
    for i, (x, y, w, h) in enumerate(geometry.penalty_boxes):
        if i < sheet.penalties:
            elements += cross(x + w / 2, y + h / 2, w * 0.3)
    for (x, y, w, h), state in zip(geometry.bonus_row, sheet.bonus_row()):
        if state == "struck":
            elements += cross(x + w / 2, y + h / 2, w * 0.3)
        elif state == "void":
            elements.append(Line(x + 1, y + h - 1, x + w - 1, y + 1, Paint(stroke=STRIKE, width=0.5)))
    bonus = sheet.bonus_points()
    for kind, (x, y, w, h) in enumerate(geometry.bonus_boxes, start=1):
        if kind in sheet.bonus_kinds():  # the box's field is crossed: this bonus was won
            elements += cross(x + w / 2, y + h / 2, w * 0.3)
    if bonus:  # Bonus B points, counted in the total: noted in the total box's corner
        x, y, w, h = geometry.totals[-1]
        elements.append(centred_text(x + w - 5.0, y + 2.6, f"(+{bonus})", 2.6, PENCIL))
    figures = [*(sheet.points(r) for r in range(len(geometry.rows))), sheet.penalty_points(), sheet.total()]
    for (x, y, w, h), value in zip(geometry.totals, figures):
        elements.append(centred_text(x + w / 2, y + h / 2 + 0.6, f"{value}".replace("-", "−"), 5.2, PENCIL))
    return elements
