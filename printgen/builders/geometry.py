"""Score-sheet geometry: a sheet layout in, where every box, row, cell and label goes (mm) out.

Both the blank sheet and a filled-in sheet are drawn from the same geometry,
so a cross always lands in its box. Sizes follow from the layout: more
numbers per row give narrower boxes, extra bands (bonus row, bonus boxes)
take height from the rows. The four corners and a slot between the points
table and the penalty boxes are kept clear for the scan marks (registration
markers and the sheet's code, see `printgen.marks.markers`), drawn or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from printgen.page import Mm

if TYPE_CHECKING:  # the kinds use the builders; the builders only name the kinds' models
    from printgen.kinds.score_sheets import ScoreSheetLayout

MARGIN: Mm = 5.0
HEADER: Mm = 9.0
ROW_GAP: Mm = 2.0
SECTION_GAP: Mm = 3.0
TABLE_LINE: Mm = 6.5
TOTALS: Mm = 10.5
BONUS_ROW: Mm = 8.0
BONUS_BOXES: Mm = 11.0
HEADER_AREA: Mm = 8.0
"""Width of a row band's left end (direction arrow, colour shape)."""
LOCK_SLOT_MOST: Mm = 15.5
"""The widest a row's lock slot (its right end) grows with a taller band (the built-in sheets' widest is 15.03
mm): a band taller than that gives its numbers the row's width, and the lock stays at the right end."""
MARKER: Mm = 7.5
"""Side of a registration marker, one in each corner of the sheet. Smaller markers cost the reader
accuracy: on benchmarks/scan.py (150 photos, seed 2026) 5 mm and 6 mm markers read fewer fields right than
7.5 mm ones (99.92 % and 99.94 % against 99.99 %), so the markers keep this size and only moved away from
the edge and from everything else printed. Moved, they read as well as before (same benchmark: fields right
99.989 % against 99.968 %, whole sheets 99.4 % against 98.2 %, every wrong sheet flagged in both)."""
MARKER_INSET: Mm = 5.0
"""From the sheet's edge (its trim) to its corner markers: never less than MARK_TRIM."""
MARK_TRIM: Mm = 5.0
"""Least distance from a scan mark to the sheet's edge, where it is cut."""
MARK_CLEAR: Mm = 4.0
"""Least distance from a scan mark (marker or code) to anything else the sheet prints."""
CORNER: Mm = MARKER_INSET + MARKER + MARK_CLEAR + 0.5
"""The header and the totals line keep this far from the left and right edges (the markers' corners, their
clearance and the half width of the total box's outline)."""
CODE: Mm = 10.0
"""Side of the sheet's code (QR), between the points table and the penalty boxes."""
CODE_CLEAR: Mm = MARK_CLEAR + 0.3
"""From the code to the points table and the penalty boxes (their outlines' half widths included)."""

Rect4 = tuple[Mm, Mm, Mm, Mm]
"""x, y, width, height."""


@dataclass(frozen=True, slots=True)
class RowGeometry:
    """One row band: its box, each number's cell (x, y, side), the lock circle (cx, cy, r)."""

    band: Rect4
    cells: tuple[tuple[Mm, Mm, Mm], ...]
    pitch: Mm
    lock: tuple[Mm, Mm, Mm]

    @property
    def centre_y(self) -> Mm:
        return self.band[1] + self.band[3] / 2


@dataclass(frozen=True, slots=True)
class SheetGeometry:
    """Every placed part of a score sheet."""

    width: Mm
    height: Mm
    title_baseline: Mm
    lucky: tuple[tuple[Mm, Mm, Mm], ...]
    rows: tuple[RowGeometry, ...]
    bonus_row: tuple[Rect4, ...]
    bonus_boxes: tuple[Rect4, ...]
    """Bonus B: the field to cross in each bonus box (kinds A..E), beside its text."""
    table_top: Mm
    table_cell: Mm
    penalty_boxes: tuple[Rect4, ...]
    totals: tuple[Rect4, ...]
    """One box per row, then the penalty box, then the total box."""
    markers: tuple[Rect4, ...] = ()
    """The registration markers' squares: top left, top right, bottom right, bottom left."""
    code: Rect4 = (0.0, 0.0, 0.0, 0.0)
    """The square of the sheet's code."""
    bonus_panels: tuple[Rect4, ...] = ()
    """Bonus B: each bonus box's frame, holding its badge, its rule text and its field (`bonus_boxes`)."""


@cache
def sheet_geometry(layout: ScoreSheetLayout) -> SheetGeometry:
    """Place every part of `layout`'s sheet (computed once per layout)."""
    left, right = MARGIN, layout.width - MARGIN
    title_baseline = MARGIN + 6.0
    lucky: tuple[tuple[Mm, Mm, Mm], ...] = ()
    if layout.lucky_numbers:
        r = 3.7
        end = layout.width - CORNER
        lucky = ((end - 3 * r - 2.0, title_baseline - 2.2, r), (end - r, title_baseline - 2.2, r))
    extra = (BONUS_ROW + SECTION_GAP if layout.bonus_row else 0.0) + (
        BONUS_BOXES + SECTION_GAP if layout.bonus_boxes else 0.0)
    rows_top = max(MARGIN + HEADER, MARKER_INSET + MARKER + MARK_CLEAR) + (1.5 if lucky else 0.0)
    bottom = 2 * TABLE_LINE + 1.0 + SECTION_GAP + TOTALS + SECTION_GAP + extra
    rows_space = layout.height - MARGIN - rows_top - bottom
    count = len(layout.rows)
    row_h = (rows_space - ROW_GAP * (count - 1)) / count
    rows = tuple(
        _row(layout.rows[i].numbers, left, right, rows_top + i * (row_h + ROW_GAP), row_h) for i in range(count)
    )
    y = rows_top + rows_space + SECTION_GAP
    bonus_row: tuple[Rect4, ...] = ()
    if layout.bonus_row:
        bonus_row = _strip(len(layout.bonus_row), rows[0], y, BONUS_ROW)
        y += BONUS_ROW + SECTION_GAP
    bonus_boxes: tuple[Rect4, ...] = ()
    bonus_panels: tuple[Rect4, ...] = ()
    if layout.bonus_boxes:
        bonus_panels = _bonus_panels(left, right, y)
        bonus_boxes = tuple(bonus_field(panel) for panel in bonus_panels)
        y += BONUS_BOXES + SECTION_GAP
    table_top = y
    header_w = 16.0
    penalty_side = 2 * TABLE_LINE + 1.0 - 3.6
    penalty_gap = 2.2
    n = layout.penalties.count
    p_left = right - n * penalty_side - (n - 1) * penalty_gap
    penalty_boxes = tuple(
        (p_left + i * (penalty_side + penalty_gap), table_top + 3.6, penalty_side, penalty_side) for i in range(n)
    )
    columns = len(layout.points_table.crosses)
    code_room = p_left - CODE - 2 * CODE_CLEAR - (left + header_w) + 0.8
    table_cell = min(8.6, (layout.width * 0.62 - header_w) / columns, code_room / columns)
    table_end = left + header_w + columns * table_cell - 0.8
    code_x = (table_end + p_left - CODE) / 2
    code = (code_x, table_top + TABLE_LINE + 0.5 - CODE / 2, CODE, CODE)
    far_x, far_y = layout.width - MARKER_INSET - MARKER, layout.height - MARKER_INSET - MARKER
    markers = tuple((x, y, MARKER, MARKER) for x, y in
                    ((MARKER_INSET, MARKER_INSET), (far_x, MARKER_INSET), (far_x, far_y), (MARKER_INSET, far_y)))
    totals_top = table_top + 2 * TABLE_LINE + 1.0 + SECTION_GAP
    return SheetGeometry(
        width=layout.width,
        height=layout.height,
        title_baseline=title_baseline,
        lucky=lucky,
        rows=rows,
        bonus_row=bonus_row,
        bonus_boxes=bonus_boxes,
        bonus_panels=bonus_panels,
        table_top=table_top,
        table_cell=table_cell,
        penalty_boxes=penalty_boxes,
        totals=_totals(count, CORNER, layout.width - CORNER, totals_top),
        markers=markers,
        code=code,
    )


BONUS_KINDS = 5
PANEL_GAP: Mm = 1.6
"""Between two bonus boxes."""
PANEL_PAD: Mm = 1.2
"""Inside a bonus box, at its left and right ends and between its badge, text and field."""
BADGE: Mm = 5.0
"""The lettered badge at the left of a bonus box."""
BONUS_FIELD: Mm = 8.0
"""The square field a player crosses in a bonus box (at least printgen's minimum, and clear of the text)."""
BONUS_TEXT: Mm = 2.3
"""The em size the bonus boxes' rule text is fitted at (6.5 pt)."""
BONUS_LINES = 3


def bonus_field(panel: Rect4) -> Rect4:
    """The field to cross at the right end of a bonus box."""
    x, y, w, h = panel
    return (x + w - PANEL_PAD - BONUS_FIELD, y + (h - BONUS_FIELD) / 2, BONUS_FIELD, BONUS_FIELD)


def bonus_text_span(panel: Rect4) -> tuple[Mm, Mm]:
    """Where a bonus box's text may run: from after its badge to before its field (x0, x1)."""
    x, _, w, _ = panel
    return (x + PANEL_PAD + BADGE + PANEL_PAD, x + w - 2 * PANEL_PAD - BONUS_FIELD)


def _bonus_panels(left: Mm, right: Mm, y: Mm) -> tuple[Rect4, ...]:
    """The five bonus boxes side by side, each as wide as its text needs in the language that needs most
    (so the sheet's fields sit in the same place in every language): first in up to BONUS_LINES lines, then,
    where the room allows, the short texts on one line ("+13 points", not "+13 / points"); what is left is
    shared out evenly."""
    fixed = 3 * PANEL_PAD + BADGE + BONUS_FIELD
    room = right - left - (BONUS_KINDS - 1) * PANEL_GAP - BONUS_KINDS * fixed
    needs = [_text_need(kind, BONUS_LINES) for kind in range(1, BONUS_KINDS + 1)]
    one_line = [_text_need(kind, 1) for kind in range(1, BONUS_KINDS + 1)]
    for kind in sorted(range(BONUS_KINDS), key=lambda k: one_line[k] - needs[k]):
        if sum(needs) + one_line[kind] - needs[kind] <= room:
            needs[kind] = one_line[kind]
    spare = room - sum(needs)
    if spare < 0:  # the texts shrink (never below printgen's minimum size) in proportion
        widths = [fixed + need * (1 + spare / sum(needs)) for need in needs]
    else:
        widths = [fixed + need + spare / BONUS_KINDS for need in needs]
    panels = []
    x = left
    for width in widths:
        panels.append((x, y, width, BONUS_BOXES))
        x += width + PANEL_GAP
    return tuple(panels)


def bonus_text_overflow(geometry: SheetGeometry) -> tuple[str, int] | None:
    """The first language and bonus kind whose rule text does not fit its box even at printgen's smallest text
    (it would run under the field or past the box), or None when every one fits."""
    from printgen.fonts import fit_lines, text_width
    from printgen.labels import catalogue, languages

    for lang in languages():
        for kind, panel in enumerate(geometry.bonus_panels, start=1):
            start, end = bonus_text_span(panel)
            size, lines = fit_lines(catalogue(lang)[f"bonus_{kind}"], "regular", BONUS_TEXT, end - start, BONUS_LINES)
            if any(text_width(line, "regular", size) > end - start + 1e-6 for line in lines):
                return lang, kind
    return None


@cache
def _text_need(kind: int, lines: int) -> Mm:
    """The narrowest width in which bonus kind `kind`'s rule text fits `lines` lines at BONUS_TEXT, in every
    language printgen prints."""
    from printgen.fonts import text_width, wrap
    from printgen.labels import catalogue, languages

    need = 0.0
    for lang in languages():
        text = catalogue(lang)[f"bonus_{kind}"]
        low, high = 1.0, text_width(text, "regular", BONUS_TEXT) + 0.01
        while high - low > 0.05:
            middle = (low + high) / 2
            wrapped = wrap(text, "regular", BONUS_TEXT, middle, lines)
            if all(text_width(line, "regular", BONUS_TEXT) <= middle for line in wrapped):
                high = middle
            else:
                low = middle
        need = max(need, high)
    return need


OPERATOR_W: Mm = 6.0
TOTAL_W: Mm = 30.0


def _row(numbers: tuple[int, ...], left: Mm, right: Mm, y: Mm, h: Mm) -> RowGeometry:
    inset = 1.3
    side = h - 2 * inset
    lock_slot = min(side + 2.5, LOCK_SLOT_MOST)
    cells_left = left + HEADER_AREA
    pitch = (right - inset - lock_slot - cells_left) / len(numbers)
    side = min(side, pitch - 1.4)
    cy = y + h / 2
    cells = tuple((cells_left + i * pitch + (pitch - side) / 2, cy - side / 2, side) for i in range(len(numbers)))
    lock = (right - inset - lock_slot / 2, cy, min(side, lock_slot - 2.5) / 2)
    return RowGeometry((left, y, right - left, h), cells, pitch, lock)


def _strip(count: int, row: RowGeometry, y: Mm, h: Mm) -> tuple[Rect4, ...]:
    """`count` square fields in one line under the cells of the rows above: one under each number and one
    under the lock when there are as many (Bonus A's twelve), else evenly from the first cell to the lock."""
    side = h
    centres = [x + cell / 2 for x, _, cell in row.cells] + [row.lock[0]]
    if count != len(centres):
        first, last = row.cells[0][0] + side / 2, row.lock[0] + row.lock[2] - side / 2
        pitch = (last - first) / (count - 1) if count > 1 else 0.0
        centres = [first + i * pitch for i in range(count)]
    return tuple((cx - side / 2, y, side, side) for cx in centres)


def _totals(rows: int, left: Mm, right: Mm, top: Mm) -> tuple[Rect4, ...]:
    available = right - left - TOTAL_W - (rows + 1) * OPERATOR_W
    box_w = min(26.0, available / (rows + 1))
    boxes = [(left + i * (box_w + OPERATOR_W), top, box_w, TOTALS) for i in range(rows + 1)]
    boxes.append((left + (rows + 1) * (box_w + OPERATOR_W), top, TOTAL_W, TOTALS))
    return tuple(boxes)
