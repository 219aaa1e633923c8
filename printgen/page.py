"""The device-independent page description: immutable primitives in millimetres, y pointing down.

Builders produce these; renderers consume them. A `Symbol` is drawn once and
placed many times with `Use` (an SVG <symbol>/<use>, a PDF form XObject).
Every primitive knows its bounding box as (x0, y0, x1, y1).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from printgen.fonts import Weight, text_width

Mm: TypeAlias = float
PT_PER_MM: float = 72.0 / 25.4
"""Points (1/72 inch) per millimetre: page descriptions are in mm, PDF pages and type sizes in points."""
Box: TypeAlias = tuple[Mm, Mm, Mm, Mm]
Anchor: TypeAlias = Literal["start", "middle", "end"]
Hex: TypeAlias = str
"""An sRGB colour as "#rrggbb" (or REGISTRATION)."""

REGISTRATION: Hex = "registration"
"""Registration colour, for the marks a print shop trims and registers by (crop marks, register crosses, the
alignment page): full ink on every printing plate (a /Separation /All in CMYK PDFs), black everywhere else."""


@dataclass(frozen=True, slots=True)
class Paint:
    """How a shape is filled and stroked; None means not at all."""

    fill: Hex | None = None
    stroke: Hex | None = None
    width: Mm = 0.3
    dash: tuple[Mm, ...] | None = None


NO_PAINT = Paint()


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle; `writable` marks a field meant for a cross or a number (measured against the minimum)."""

    x: Mm
    y: Mm
    w: Mm
    h: Mm
    paint: Paint = NO_PAINT
    radius: Mm = 0.0
    writable: bool = False

    def bounds(self) -> Box:
        return _grow((self.x, self.y, self.x + self.w, self.y + self.h), self.paint)


@dataclass(frozen=True, slots=True)
class Line:
    x1: Mm
    y1: Mm
    x2: Mm
    y2: Mm
    paint: Paint = NO_PAINT

    def bounds(self) -> Box:
        box = (min(self.x1, self.x2), min(self.y1, self.y2), max(self.x1, self.x2), max(self.y1, self.y2))
        return _grow(box, self.paint)


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle; `writable` marks a field meant for a cross (a lock)."""

    cx: Mm
    cy: Mm
    r: Mm
    paint: Paint = NO_PAINT
    writable: bool = False

    def bounds(self) -> Box:
        return _grow((self.cx - self.r, self.cy - self.r, self.cx + self.r, self.cy + self.r), self.paint)


@dataclass(frozen=True, slots=True)
class Path:
    """A path of ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y) and ("Z",) commands."""

    commands: tuple[tuple[object, ...], ...]
    paint: Paint = NO_PAINT

    def bounds(self) -> Box:
        xs: list[float] = []
        ys: list[float] = []
        for command in self.commands:
            coords = [float(v) for v in command[1:]]  # type: ignore[arg-type]
            xs.extend(coords[0::2])
            ys.extend(coords[1::2])
        return _grow((min(xs), min(ys), max(xs), max(ys)), self.paint)


@dataclass(frozen=True, slots=True)
class Text:
    """A single line of text; (x, y) is the anchor point on the baseline; size is the em size in mm."""

    x: Mm
    y: Mm
    text: str
    size: Mm
    fill: Hex = "#000000"
    weight: Weight = "regular"
    anchor: Anchor = "start"

    def bounds(self) -> Box:

        width = text_width(self.text, self.weight, self.size)
        x0 = {"start": self.x, "middle": self.x - width / 2, "end": self.x - width}[self.anchor]
        return (x0, self.y - 0.75 * self.size, x0 + width, self.y + 0.25 * self.size)


@dataclass(frozen=True, slots=True)
class Group:
    """Elements turned by `rotate` degrees (clockwise on the page, a multiple of 90) and scaled by `scale`
    about their own origin, then moved by (dx, dy)."""

    elements: tuple[Element, ...]
    dx: Mm = 0.0
    dy: Mm = 0.0
    scale: float = 1.0
    rotate: int = 0

    def __post_init__(self) -> None:
        if self.rotate % 90:
            raise ValueError(f"a group turns by a multiple of 90 degrees, not {self.rotate}")

    def apply(self, x: Mm, y: Mm) -> tuple[Mm, Mm]:
        """Where the group's point (x, y) lands in its parent's coordinates."""
        turns = (self.rotate // 90) % 4
        for _ in range(turns):
            x, y = -y, x
        return (self.dx + self.scale * x, self.dy + self.scale * y)

    def bounds(self) -> Box:
        x0, y0, x1, y1 = union(e.bounds() for e in self.elements)
        corners = [self.apply(x, y) for x in (x0, x1) for y in (y0, y1)]
        return union((cx, cy, cx, cy) for cx, cy in corners)


@dataclass(frozen=True, slots=True)
class Symbol:
    """Content drawn once, in its own box (0, 0)..(width, height), and placed with `Use`."""

    id: str
    width: Mm
    height: Mm
    elements: tuple[Element, ...]

    def bounds(self) -> Box:
        return (0.0, 0.0, self.width, self.height)

    def symbols(self) -> list[Symbol]:
        """This symbol and every symbol it uses, innermost first, each once."""
        return _collect_symbols(self.elements) + [self]


@dataclass(frozen=True, slots=True)
class Use:
    """A placement of `symbol` with its top-left corner at (x, y), scaled by `scale`, cut to `clip` if given."""

    symbol: Symbol
    x: Mm
    y: Mm
    scale: float = 1.0
    clip: Box | None = None

    def bounds(self) -> Box:
        box = (
            self.x,
            self.y,
            self.x + self.scale * self.symbol.width,
            self.y + self.scale * self.symbol.height,
        )
        if self.clip is None:
            return box
        return (max(box[0], self.clip[0]), max(box[1], self.clip[1]),
                min(box[2], self.clip[2]), min(box[3], self.clip[3]))


Element: TypeAlias = Rect | Line | Circle | Path | Text | Group | Use


@dataclass(frozen=True, slots=True)
class Page:
    """One page (or one stand-alone item) of `width` x `height` mm."""

    width: Mm
    height: Mm
    elements: tuple[Element, ...]
    trim: Box | None = None
    bleed: Box | None = None

    def symbols(self) -> list[Symbol]:
        """Every symbol placed on this page, innermost first, each once."""
        return _collect_symbols(self.elements)


@dataclass(frozen=True, slots=True)
class Item:
    """One finished thing to print (a sheet, a card face): static art drawn once plus its own extras."""

    name: str
    art: Symbol
    extras: tuple[Element, ...] = ()

    @property
    def width(self) -> Mm:
        return self.art.width

    @property
    def height(self) -> Mm:
        return self.art.height

    def as_page(self) -> Page:
        """The item alone on a page of its own size."""
        return Page(self.width, self.height, (Use(self.art, 0.0, 0.0), *self.extras))


@dataclass(slots=True)
class Document:
    """Pages to render, produced lazily; `symbols` lists every symbol the pages may use."""

    symbols: list[Symbol]
    pages: Iterable[Page]
    title: str = "printgen"
    meta: dict[str, str] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Page]:
        return iter(self.pages)


def union(boxes: Iterable[Box]) -> Box:
    """The smallest box holding all `boxes`."""
    x0s, y0s, x1s, y1s = zip(*boxes)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


def _grow(box: Box, paint: Paint) -> Box:
    half = paint.width / 2 if paint.stroke else 0.0
    return (box[0] - half, box[1] - half, box[2] + half, box[3] + half)


def _collect_symbols(elements: Iterable[Element]) -> list[Symbol]:
    found: dict[str, Symbol] = {}
    stack = list(elements)
    order: list[Symbol] = []
    while stack:
        element = stack.pop()
        if isinstance(element, Group):
            stack.extend(element.elements)
        elif isinstance(element, Use) and element.symbol.id not in found:
            for symbol in element.symbol.symbols():
                if symbol.id not in found:
                    found[symbol.id] = symbol
                    order.append(symbol)
    return order
