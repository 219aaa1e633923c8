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
MARKER: Mm = 7.5
"""Side of a registration marker, one in each corner of the sheet."""
MARKER_INSET: Mm = 3.0
"""From the sheet's edge to its corner markers."""
CORNER: Mm = MARKER_INSET + MARKER + 2.5
"""The header and the totals line keep this far from the left and right edges (the markers' corners)."""
CODE: Mm = 10.0
"""Side of the sheet's code (QR), between the points table and the penalty boxes."""
CODE_CLEAR: Mm = 2.0

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
    table_top: Mm
    table_cell: Mm
    penalty_boxes: tuple[Rect4, ...]
    totals: tuple[Rect4, ...]
    """One box per row, then the penalty box, then the total box."""
    markers: tuple[Rect4, ...] = ()
    """The registration markers' squares: top left, top right, bottom right, bottom left."""
    code: Rect4 = (0.0, 0.0, 0.0, 0.0)
    """The square of the sheet's code."""


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
    rows_top = MARGIN + HEADER + (1.5 if lucky else 0.0)
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
    if layout.bonus_boxes:
        gap = 2.0
        w = (right - left - 4 * gap) / 5
        bonus_boxes = tuple((left + i * (w + gap), y, w, BONUS_BOXES) for i in range(5))
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
        table_top=table_top,
        table_cell=table_cell,
        penalty_boxes=penalty_boxes,
        totals=_totals(count, CORNER, layout.width - CORNER, totals_top),
        markers=markers,
        code=code,
    )


OPERATOR_W: Mm = 6.0
TOTAL_W: Mm = 30.0


def _row(numbers: tuple[int, ...], left: Mm, right: Mm, y: Mm, h: Mm) -> RowGeometry:
    inset = 1.3
    side = h - 2 * inset
    lock_slot = side + 2.5
    cells_left = left + HEADER_AREA
    pitch = (right - inset - lock_slot - cells_left) / len(numbers)
    side = min(side, pitch - 1.4)
    cy = y + h / 2
    cells = tuple((cells_left + i * pitch + (pitch - side) / 2, cy - side / 2, side) for i in range(len(numbers)))
    lock = (right - inset - lock_slot / 2, cy, side / 2)
    return RowGeometry((left, y, right - left, h), cells, pitch, lock)


def _strip(count: int, row: RowGeometry, y: Mm, h: Mm) -> tuple[Rect4, ...]:
    """`count` square fields in one line, under the cells of the rows above."""
    side = h
    first = row.cells[0][0]
    last = row.lock[0] + row.lock[2]
    pitch = (last - first - side) / (count - 1) if count > 1 else 0.0
    return tuple((first + i * pitch, y, side, side) for i in range(count))


def _totals(rows: int, left: Mm, right: Mm, top: Mm) -> tuple[Rect4, ...]:
    available = right - left - TOTAL_W - (rows + 1) * OPERATOR_W
    box_w = min(26.0, available / (rows + 1))
    boxes = [(left + i * (box_w + OPERATOR_W), top, box_w, TOTALS) for i in range(rows + 1)]
    boxes.append((left + (rows + 1) * (box_w + OPERATOR_W), top, TOTAL_W, TOTALS))
    return tuple(boxes)
