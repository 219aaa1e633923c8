"""The score-sheet builder: a validated sheet layout and a language in, the sheet's page description out.

Geometry is derived from the layout's size and row count, so editions with
more numbers per row get narrower boxes. Everything printed comes from the
layout, which `printgen check` holds against the rules engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from printgen.colours import ink, tint
from printgen.fonts import cap_height, fit_size, text_width
from printgen.labels import catalogue
from printgen.layouts.model import ScoreSheetLayout
from printgen.page import (
    Circle,
    Element,
    Item,
    Line,
    Mm,
    Paint,
    Path,
    Rect,
    Symbol,
    Text,
    Use,
    Weight,
)

INK = "#222222"
GREY = "#8a8a8a"
LINE = "#b8b8b8"
WHITE = "#ffffff"

MARGIN: Mm = 5.0
HEADER: Mm = 9.0
ROW_GAP: Mm = 2.0
TABLE_LINE: Mm = 6.5
TOTALS: Mm = 10.5
SECTION_GAP: Mm = 3.0


@dataclass(frozen=True, slots=True)
class _Frame:
    """The vertical bands of a sheet, derived from its height."""

    rows_top: Mm
    row_height: Mm
    table_top: Mm
    totals_top: Mm


def build_sheet(layout: ScoreSheetLayout, lang: str = "en") -> Item:
    """The blank sheet of `layout` with labels in `lang`, as one reusable item."""
    labels = catalogue(lang)
    frame = _frame(layout)
    elements: list[Element] = [Rect(0, 0, layout.width, layout.height, Paint(fill=WHITE))]
    elements += _header(layout, labels["name"])
    for index in range(len(layout.rows)):
        elements += _row(layout, index, frame)
    elements += _points_table(layout, frame, labels)
    elements += _penalties(layout, frame, labels)
    elements += _totals(layout, frame, labels["total"])
    art = Symbol(f"sheet-{_safe_id(layout.name)}", layout.width, layout.height, tuple(elements))
    return Item(layout.name, art)


def centred_text(x: Mm, cy: Mm, text: str, size: Mm, fill: str, weight: Weight = "bold") -> Text:
    """Text whose digits/capitals are centred on (x, cy)."""
    return Text(x, cy + cap_height(weight) * size / 2, text, size, fill, weight, "middle")


def _frame(layout: ScoreSheetLayout) -> _Frame:
    rows_top = MARGIN + HEADER
    bottom_parts = 2 * TABLE_LINE + 1.0 + SECTION_GAP + TOTALS + SECTION_GAP
    rows_space = layout.height - MARGIN - rows_top - bottom_parts
    count = len(layout.rows)
    row_height = (rows_space - ROW_GAP * (count - 1)) / count
    table_top = rows_top + rows_space + SECTION_GAP
    totals_top = table_top + 2 * TABLE_LINE + 1.0 + SECTION_GAP
    return _Frame(rows_top, row_height, table_top, totals_top)


def _header(layout: ScoreSheetLayout, name_label: str) -> list[Element]:
    elements: list[Element] = []
    size = 7.0
    baseline = MARGIN + 6.0
    x = MARGIN
    inks = [ink(layout.colour(row.colour)) for row in layout.rows]
    for i, letter in enumerate(layout.title.upper()):
        elements.append(Text(x, baseline, letter, size, inks[i % len(inks)], "bold"))
        x += text_width(letter, "bold", size) + 0.3
    label_x = max(x + 12.0, layout.width * 0.42)
    elements.append(Text(label_x, baseline, f"{name_label}:", 3.4, GREY, "regular"))
    line_x = label_x + text_width(f"{name_label}:", "regular", 3.4) + 2.0
    elements.append(Line(line_x, baseline + 0.6, layout.width - MARGIN, baseline + 0.6, Paint(stroke=LINE, width=0.3)))
    return elements


def _row(layout: ScoreSheetLayout, index: int, frame: _Frame) -> list[Element]:
    row = layout.rows[index]
    colour = layout.colour(row.colour)
    y = frame.rows_top + index * (frame.row_height + ROW_GAP)
    h = frame.row_height
    cy = y + h / 2
    left, right = MARGIN, layout.width - MARGIN
    elements: list[Element] = [Rect(left, y, right - left, h, Paint(fill=colour), radius=2.5)]
    # marking direction: a white arrow at the band's left end
    ax = left + 2.2
    elements.append(
        Path((("M", ax, cy - 2.4), ("L", ax + 3.6, cy), ("L", ax, cy + 2.4), ("Z",)), Paint(fill=WHITE))
    )
    inset = 1.3
    box = h - 2 * inset
    lock_slot = box + 2.5
    boxes_left = left + 8.0
    pitch = (right - inset - lock_slot - boxes_left) / len(row.numbers)
    box = min(box, pitch - 1.4)
    widest = max((str(n) for n in row.numbers), key=lambda t: text_width(t, "bold", 1.0))
    size = min(box * 0.5 / cap_height("bold"), fit_size(widest, "bold", 100.0, box * 0.8))
    pale, dark = tint(colour), ink(colour)
    for i, number in enumerate(row.numbers):
        bx = boxes_left + i * pitch + (pitch - box) / 2
        elements.append(Rect(bx, cy - box / 2, box, box, Paint(fill=pale), radius=1.6))
        elements.append(centred_text(bx + box / 2, cy, str(number), size, dark))
    lock_cx = right - inset - lock_slot / 2
    radius = box / 2
    elements.append(Circle(lock_cx, cy, radius, Paint(fill=WHITE)))
    icon = _lock_symbol(row.colour, dark)
    scale = radius * 1.35 / icon.width
    elements.append(Use(icon, lock_cx - icon.width * scale / 2, cy - icon.height * scale / 2, scale))
    return elements


def _lock_symbol(name: str, colour: str) -> Symbol:
    shackle = Path(
        (("M", 3.2, 5.0), ("L", 3.2, 3.6), ("C", 3.2, 1.0, 6.8, 1.0, 6.8, 3.6), ("L", 6.8, 5.0)),
        Paint(stroke=colour, width=1.1),
    )
    body = Rect(2.0, 4.6, 6.0, 4.4, Paint(fill=colour), radius=0.8)
    keyhole = Circle(5.0, 6.5, 0.65, Paint(fill=WHITE))
    slot = Rect(4.7, 6.6, 0.6, 1.3, Paint(fill=WHITE))
    return Symbol(f"lock-{_safe_id(name)}", 10.0, 10.0, (shackle, body, keyhole, slot))


def _points_table(layout: ScoreSheetLayout, frame: _Frame, labels: dict[str, str]) -> list[Element]:
    table = layout.points_table
    header_w = 16.0
    cell = min(8.6, (layout.width * 0.62 - header_w) / len(table.crosses))
    x0 = MARGIN
    elements: list[Element] = []
    lines = ((labels["crosses"], table.crosses, "×"), (labels["points"], table.points, ""))
    for line_no, (label, values, suffix) in enumerate(lines):
        y = frame.table_top + line_no * (TABLE_LINE + 1.0)
        cy = y + TABLE_LINE / 2
        label_size = fit_size(label, "regular", 2.8, header_w - 1.5)
        elements.append(Text(x0 + header_w - 1.5, cy + cap_height("regular") * label_size / 2, label, label_size, GREY, "regular", "end"))
        for i, value in enumerate(values):
            cx = x0 + header_w + i * cell
            fill = WHITE if line_no else "#f1f1f1"
            elements.append(Rect(cx, y, cell - 0.8, TABLE_LINE, Paint(fill=fill, stroke=LINE, width=0.25), radius=1.0))
            text = f"{value}{suffix}"
            size = fit_size(text, "bold", 3.6, cell - 1.8)
            elements.append(centred_text(cx + (cell - 0.8) / 2, cy, text, size, INK))
    return elements


def _penalties(layout: ScoreSheetLayout, frame: _Frame, labels: dict[str, str]) -> list[Element]:
    count = layout.penalties.count
    side = 2 * TABLE_LINE + 1.0 - 3.6
    gap = 2.2
    right = layout.width - MARGIN
    left = right - count * side - (count - 1) * gap
    label = labels[layout.penalties.label]
    label_size = fit_size(label, "bold", 3.2, count * side + (count - 1) * gap)
    top = frame.table_top + 3.6
    elements: list[Element] = [Text((left + right) / 2, top - 1.1, label, label_size, INK, "bold", "middle")]
    value = f"{layout.penalties.points:+d}".replace("-", "−")
    for i in range(count):
        x = left + i * (side + gap)
        elements.append(Rect(x, top, side, side, Paint(fill=WHITE, stroke=INK, width=0.45), radius=1.0))
        elements.append(centred_text(x + side / 2, top + side * 0.72, value, 2.6, GREY, "regular"))
    return elements


def _totals(layout: ScoreSheetLayout, frame: _Frame, total_label: str) -> list[Element]:
    y, h = frame.totals_top, TOTALS
    cy = y + h / 2
    count = len(layout.rows)
    operator_w = 6.0
    total_w = 30.0
    available = layout.width - 2 * MARGIN - total_w - (count + 1) * operator_w
    box_w = min(26.0, available / (count + 1))
    x = MARGIN
    elements: list[Element] = []
    boxes = [(layout.colour(row.colour), "+") for row in layout.rows]
    boxes[-1] = (boxes[-1][0], "−")
    for colour, operator in [*boxes, (INK, "=")]:
        fill = tint(colour, 0.9) if colour != INK else WHITE
        elements.append(Rect(x, y, box_w, h, Paint(fill=fill, stroke=colour, width=0.7), radius=1.6))
        x += box_w
        elements.append(centred_text(x + operator_w / 2, cy, operator, 5.0, INK))
        x += operator_w
    elements.append(Rect(x, y, total_w, h, Paint(fill=WHITE, stroke=INK, width=1.0), radius=1.6))
    label_size = fit_size(total_label, "regular", 2.4, total_w - 2.0)
    elements.append(Text(x + 1.4, y + 1.2 + cap_height("regular") * label_size, total_label, label_size, GREY, "regular"))
    return elements


def _safe_id(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)
