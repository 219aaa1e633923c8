"""Scan marks as page primitives: where a sheet's markers go and its code text in, four registration markers and its QR code out.

Markers are 6 x 6-cell squares (a black border round 4 x 4 bits), one
pattern per corner, so a photo shows which corner is which and how the
sheet is turned. The four patterns are printgen's own, chosen so that any two
of them, in any rotation, differ in at least 6 of their 16 bits; the scanner
builds its ArUco dictionary from them. The code is a QR code from
reportlab's encoder, drawn as filled runs of modules. Both are Symbols:
drawn once per file and placed wherever they are needed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cache

from printgen.marks.codes import modules
from printgen.page import Element, Mm, Paint, Rect, Symbol, Use

MARK_INK = "#000000"
MARKER_BITS = (
    ("1111" "1000" "1011" "1001"),
    ("0000" "1001" "0010" "1101"),
    ("0100" "0010" "1001" "1010"),
    ("1001" "0011" "1101" "0011"),
)
"""Top left, top right, bottom right, bottom left: 4 x 4 bits row by row, 1 = white (the ArUco convention)."""
MARKER_CELLS = 6
Square = tuple[Mm, Mm, Mm, Mm]
"""Where a mark goes on the sheet: x, y, width, height (the builder's geometry says which)."""


def marker_grid(index: int) -> tuple[tuple[bool, ...], ...]:
    """Marker `index` as 6 x 6 cells, True = dark (the border is dark)."""
    bits = MARKER_BITS[index]
    return tuple(
        tuple(r in (0, 5) or c in (0, 5) or bits[(r - 1) * 4 + (c - 1)] == "0" for c in range(MARKER_CELLS))
        for r in range(MARKER_CELLS)
    )


def registration_marks(boxes: Sequence[Square]) -> list[Element]:
    """The four corner markers of a sheet in their squares: top left, top right, bottom right, bottom left."""
    return [_place(_marker_symbol(i), box) for i, box in enumerate(boxes)]


def code_mark(text: str, box: Square) -> Use:
    """The QR code of `text` filling the square `box`."""
    return _place(_code_symbol(text), box)


def _place(symbol: Symbol, box: Square) -> Use:
    return Use(symbol, box[0], box[1], box[2] / symbol.width)


@cache
def _marker_symbol(index: int) -> Symbol:
    return _grid_symbol(f"scan-marker-{index}", marker_grid(index))


@cache
def _code_symbol(text: str) -> Symbol:
    digest = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()[:12]
    return _grid_symbol(f"scan-code-{digest}", modules(text))


def _grid_symbol(name: str, grid: tuple[tuple[bool, ...], ...]) -> Symbol:
    """A square symbol of one unit per cell, its dark cells drawn as few rectangles (runs merged downwards)."""
    paint = Paint(fill=MARK_INK)
    done: list[Rect] = []  # Rects only (sorted by their corner below)
    growing: dict[tuple[int, int], Rect] = {}
    for y, row in enumerate(grid):
        x = 0
        while x < len(row):
            if not row[x]:
                x += 1
                continue
            end = x
            while end < len(row) and row[end]:
                end += 1
            above = growing.pop((x, end), None)
            if above is not None and above.y + above.h == y:
                growing[(x, end)] = Rect(x, above.y, end - x, above.h + 1, paint)
            else:
                if above is not None:
                    done.append(above)
                growing[(x, end)] = Rect(x, y, end - x, 1, paint)
            x = end
    size = float(len(grid))
    rects: list[Rect] = sorted(done + list(growing.values()), key=lambda r: (r.y, r.x))
    return Symbol(name, size, size, tuple(rects))
