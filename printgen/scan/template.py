"""What a sheet should look like: a layout and a sheet code in, its fields and the blank sheet rendered as pixels out.

The blank sheet is built by the same builder that printed it (static art,
per-sheet numbers and code) and rasterised from that page description, so
the scanner never needs a template of its own.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Literal, TypeVar

from printgen.builders.geometry import sheet_geometry
from printgen.builders.scoresheet import build_sheet, sheet_extras
from printgen.kinds.score_sheets import ScoreSheetLayout
from printgen.marks.codes import SheetCode
from printgen.page import Item

if TYPE_CHECKING:
    import numpy as np

T = TypeVar("T")

FieldKind = Literal["number", "lock", "penalty", "bonus-row", "bonus-box"]


@dataclass(frozen=True, slots=True)
class Field:
    """A place a player crosses: what it is, and where (a rectangle, or a circle given by its bounding square)."""

    kind: FieldKind
    index: int
    """The row (numbers, locks), or the box's or field's position (penalties, bonus row, bonus boxes)."""
    number: int | None
    box: tuple[float, float, float, float]
    round: bool = False

    @property
    def name(self) -> str:
        """How reports name this field."""
        if self.kind == "number":
            return f"row {self.index + 1}: {self.number}"
        if self.kind == "bonus-box":
            return f"bonus box {self.index}"
        return f"{self.kind} {self.index + 1}"


def row_numbers(layout: ScoreSheetLayout, code: SheetCode) -> tuple[tuple[int, ...], ...]:
    """Every row's numbers as printed on this sheet."""
    return code.numbers or tuple(row.numbers for row in layout.rows)


def fields(layout: ScoreSheetLayout, code: SheetCode) -> list[Field]:
    """Every field of the sheet, rows top to bottom and numbers left to right first."""
    geometry = sheet_geometry(layout)
    found: list[Field] = []
    for index, (row, numbers) in enumerate(zip(geometry.rows, row_numbers(layout, code))):
        found += [Field("number", index, number, (x, y, side, side)) for (x, y, side), number in zip(row.cells, numbers)]
    for index, row in enumerate(geometry.rows):
        cx, cy, r = row.lock
        found.append(Field("lock", index, None, (cx - r, cy - r, 2 * r, 2 * r), round=True))
    found += [Field("penalty", i, None, box) for i, box in enumerate(geometry.penalty_boxes)]
    found += [Field("bonus-row", i, None, box) for i, box in enumerate(geometry.bonus_row)]
    found += [Field("bonus-box", kind, None, box) for kind, box in enumerate(geometry.bonus_boxes, start=1)]
    return found


def blank_item(layout: ScoreSheetLayout, code: SheetCode) -> Item:
    """The sheet named by `code` as it was printed, before anyone wrote on it."""
    shuffled = code.numbers is not None
    base = build_sheet(layout, code.lang, code.symbols, static_numbers=not shuffled)
    extras = sheet_extras(layout, lucky=code.lucky, numbers=code.numbers, code=(code.lang, code.symbols))
    return Item(layout.name, base.art, extras)


@lru_cache(maxsize=8)
def blank_pdf(layout: ScoreSheetLayout, code: SheetCode) -> bytes:
    """The sheet named by `code` as a PDF before anyone wrote on it (made once for all the resolutions a photo
    of it is compared at)."""
    from printgen.scan.raster import page_pdf

    return page_pdf(blank_item(layout, code).as_page())


@lru_cache(maxsize=24)
def blank_pixels(layout: ScoreSheetLayout, code: SheetCode, px_per_mm: float) -> np.ndarray:
    """The blank sheet as RGB floats 0..1 at `px_per_mm`, exactly `round(width * px_per_mm)` wide."""
    import cv2
    import numpy as np

    from printgen.scan.raster import render

    pixels = render(blank_pdf(layout, code), px_per_mm)[0]
    size = (round(layout.width * px_per_mm), round(layout.height * px_per_mm))
    if (pixels.shape[1], pixels.shape[0]) != size:
        pixels = cv2.resize(pixels, size, interpolation=cv2.INTER_AREA)
    return np.divide(pixels, np.float32(255), dtype=np.float32)


def per_blank(function: Callable[..., T]) -> Callable[..., T]:
    """`function(blank, *args)` remembered for as long as the array `blank` lives (`blank_pixels` keeps the
    recent sheets'), so a warm reader does each blank sheet's own work once; neither may be changed."""
    remembered: dict[tuple[Hashable, ...], tuple[weakref.ref[np.ndarray], T]] = {}

    @wraps(function)
    def cached(blank: np.ndarray, *args: Hashable) -> T:
        key = (id(blank), *args)
        hit = remembered.get(key)
        if hit is not None and hit[0]() is blank:
            return hit[1]
        value = function(blank, *args)
        remembered[key] = (weakref.ref(blank, lambda _: remembered.pop(key, None)), value)
        return value

    return cached
