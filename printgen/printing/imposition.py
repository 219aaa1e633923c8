"""N-up imposition: items and a paper in, pages with the items in a grid and cut lines between them out.

Items of one size are placed edge to edge in a `cols x rows` block centred
on the page, scaled down only when they do not fit inside the margins; every
cut line (the block's outer edges and each edge between neighbours) gets a
crop mark at both ends, outside the block, in the one style of
`printgen.printing.crop_marks` (solid registration hairlines, as on the
decks): nothing is drawn along a cut, where it would show on a sheet cut a
little off. Pages are produced lazily, so a pad of any length is streamed to
the renderer.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import islice
from typing import Any

from printgen.errors import UsageProblem
from printgen.page import Element, Group, Item, Mm, Page, Symbol, Use
from printgen.printing.crop_marks import MARK, mark_pair
from printgen.printing.paper import MARGIN

PRINTABLE: Mm = 5.0
"""Crop marks keep this far from the paper's edge (what home printers cannot print)."""


@dataclass(frozen=True, slots=True)
class Grid:
    """Where `cols x rows` items of size (item_w, item_h), scaled by `scale`, sit on a page."""

    page_w: Mm
    page_h: Mm
    cols: int
    rows: int
    scale: float
    item_w: Mm
    item_h: Mm

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def origin(self) -> tuple[Mm, Mm]:
        """Top-left corner of the centred block."""
        return (
            (self.page_w - self.cols * self.item_w * self.scale) / 2,
            (self.page_h - self.rows * self.item_h * self.scale) / 2,
        )

    def cell(self, index: int) -> tuple[Mm, Mm]:
        """Top-left corner of slot `index` (row by row, left to right)."""
        x0, y0 = self.origin
        row, col = divmod(index, self.cols)
        return (x0 + col * self.item_w * self.scale, y0 + row * self.item_h * self.scale)


def plan_grid(paper: tuple[Mm, Mm], item_w: Mm, item_h: Mm, per_page: int) -> Grid:
    """The orientation and cols x rows arrangement of `per_page` items that prints them largest."""
    best: Grid | None = None
    short, long = sorted(paper)
    for page_w, page_h in ((short, long), (long, short)):
        for cols in range(1, per_page + 1):
            if per_page % cols:
                continue
            rows = per_page // cols
            scale = min(
                1.0,
                (page_w - 2 * MARGIN) / (cols * item_w),
                (page_h - 2 * MARGIN) / (rows * item_h),
            )
            grid = Grid(page_w, page_h, cols, rows, scale, item_w, item_h)
            if best is None or _preference(grid) > _preference(best):
                best = grid
    if best is None or best.scale <= 0:
        raise UsageProblem(f"cannot place {per_page} items per page")
    return best


def _preference(grid: Grid) -> tuple[float, float]:
    """Largest scale first; on a tie, the block whose shape is closest to the page's."""
    block = (grid.cols * grid.item_w) / (grid.rows * grid.item_h)
    page = grid.page_w / grid.page_h
    return (round(grid.scale, 6), -abs(block / page - 1))


@cache
def cut_lines(grid: Grid, filled: int) -> Symbol:
    """Crop marks at both ends of every cut line of the first `filled` slots (the block's outer edges and the
    edges between neighbours), outside the block and inside PRINTABLE, as a page-sized symbol."""
    x0, y0 = grid.origin
    w, h = grid.item_w * grid.scale, grid.item_h * grid.scale
    rows_used = -(-filled // grid.cols)
    cols_used = min(filled, grid.cols)
    last_row = filled - (rows_used - 1) * grid.cols  # slots in the last row
    edge = PRINTABLE + MARK.width / 2
    lines: list[Element] = []
    for c in range(cols_used + 1):  # a column's cut runs the height of the rows that reach it
        rows = rows_used if c <= last_row else rows_used - 1
        lines += mark_pair(x0 + c * w, y0, y0 + rows * h, edge, grid.page_h - edge, True)
    for r in range(rows_used + 1):
        cols = cols_used if r < rows_used else last_row
        lines += mark_pair(y0 + r * h, x0, x0 + cols * w, edge, grid.page_w - edge, False)
    key = f"{grid.page_w:g}x{grid.page_h:g}-{grid.cols}x{grid.rows}-{w:.2f}x{h:.2f}-{filled}"
    return Symbol(f"cuts-{key.replace('.', '_')}", grid.page_w, grid.page_h, tuple(lines))


def impose(items: Iterable[Item], grid: Grid) -> Iterator[Page]:
    """Pages holding `items` in `grid` order, with cut lines; lazily, one page at a time."""
    stream = iter(items)
    cells = [grid.cell(index) for index in range(grid.per_page)]
    cuts: dict[int, Use] = {}
    placed: dict[tuple[int, int], tuple[object, Element]] = {}  # a pad's few distinct placements, made once
    while batch := list(islice(stream, grid.per_page)):
        elements: list[Element] = []
        for index, item in enumerate(batch):
            elements.append(_placed(placed, Use, item.art, index, cells[index], grid.scale))
            if item.extras:
                elements.append(_placed(placed, Group, item.extras, index, cells[index], grid.scale))
        filled = len(batch)
        elements.append(cuts.get(filled) or cuts.setdefault(filled, Use(cut_lines(grid, filled), 0.0, 0.0)))
        yield Page(grid.page_w, grid.page_h, tuple(elements))


MAX_PLACED = 10_000
"""Most placements `impose` keeps for reuse (a pad places one art and a few hundred extras in a few slots)."""


def _placed(placed: dict[tuple[int, int], tuple[object, Element]], kind: type[Use | Group], thing: Any,
            index: int, at: tuple[Mm, Mm], scale: float) -> Element:
    """`kind(thing, x, y, scale)` in slot `index` at `at`: one element object for each `thing` in each slot."""
    known = placed.get((id(thing), index))
    if known is not None and known[0] is thing:  # (the table keeps `thing` alive, so its id is not reused)
        return known[1]
    element = kind(thing, at[0], at[1], scale)
    if len(placed) < MAX_PLACED:
        placed[(id(thing), index)] = (thing, element)
    return element


def single_pages(items: Iterable[Item], bleed: Mm = 0.0) -> Iterator[Page]:
    """Each item on a page of its own size plus `bleed` all round, with its trim and bleed boxes (for tablets
    and print shops); lazily, one page at a time."""
    for item in items:
        elements: list[Element] = [Use(item.art, bleed, bleed)]
        if item.extras:
            elements.append(Group(item.extras, bleed, bleed))
        width, height = item.width + 2 * bleed, item.height + 2 * bleed
        yield Page(width, height, tuple(elements), trim=(bleed, bleed, bleed + item.width, bleed + item.height),
                   bleed=(0.0, 0.0, width, height))


STACK_GAP: Mm = 6.0


def stacked(items: list[Item]) -> Page:
    """`items` one under another on one page of their own width, STACK_GAP apart (a picture of them all)."""
    width = max(item.width for item in items) + 2 * STACK_GAP
    elements: list[Element] = []
    y = STACK_GAP
    for item in items:
        elements.append(Use(item.art, STACK_GAP, y))
        if item.extras:
            elements.append(Group(item.extras, STACK_GAP, y))
        y += item.height + STACK_GAP
    return Page(width, y, tuple(elements))
