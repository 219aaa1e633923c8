"""Legibility: a page description (and the scale it prints at) in, its smallest text and writable field, its
texts' contrasts and what on it crowds what out.

Measured on the primitives, before anything is rendered: text by its em
size in points, a field meant for a cross (a `writable` rect or circle) by
its shorter side. printgen's minimums: MIN_TEXT_PT, MIN_FIELD_MM and
CLEAR_MM.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

from printgen.page import PT_PER_MM, Page
from printgen.render.recording import Drawn, record

MIN_TEXT_PT = 6.0
"""No printed text smaller than this (points)."""
MIN_FIELD_MM = 7.0
"""No field meant for a cross smaller than this (millimetres)."""


@dataclass(frozen=True, slots=True)
class Sizes:
    """The smallest text (em size in pt, and the text itself) and the smallest writable field (mm)."""

    text_pt: float
    text: str
    field_mm: float

    def scaled(self, scale: float) -> Sizes:
        """These sizes printed at `scale`."""
        return Sizes(self.text_pt * scale, self.text, self.field_mm * scale)

    def problems(self) -> list[str]:
        """What falls below printgen's minimums, in words (empty when all is readable)."""
        found = []
        if self.text_pt < MIN_TEXT_PT - 1e-6:
            found.append(f"text as small as {self.text_pt:.1f} pt ({self.text!r}; the minimum is {MIN_TEXT_PT:g} pt)")
        if self.field_mm < MIN_FIELD_MM - 1e-6:
            found.append(f"fields for a cross as small as {self.field_mm:.1f} mm (the minimum is {MIN_FIELD_MM:g} mm)")
        return found


def sizes(page: Page) -> Sizes:
    """The smallest text and writable field `page` draws (fields: inf when it has none)."""
    text_pt, text, field = float("inf"), "", float("inf")
    for drawn in record(page):
        if drawn.kind == "text" and drawn.text.strip() and drawn.size * PT_PER_MM < text_pt:
            text_pt, text = drawn.size * PT_PER_MM, drawn.text
        elif drawn.writable:
            x0, y0, x1, y1 = drawn.bounds
            field = min(field, x1 - x0, y1 - y0)
    return Sizes(text_pt, text, field)


def legible_lines(text: str, size: float, width: float, fewest: int = 1, most: int = 8,
                  shrink: bool = True) -> list[str]:
    """`text` (regular) wrapped at em size `size` (mm) into the fewest lines, from `fewest`, evened out
    (`printgen.fonts.balanced`), whose widest fits
    `width` when shrunk no further than MIN_TEXT_PT (at most `most` lines); not `shrink`: the fewest that fit
    at `size` itself, where `most` lines can."""
    from printgen.fonts import balanced, text_width

    smallest = MIN_TEXT_PT / PT_PER_MM
    for fit in ((size,) if not shrink else ()) + (smallest,):
        for count in range(fewest, most + 1):
            lines = balanced(text, "regular", size, width, count)
            if all(text_width(line, "regular", fit) <= width for line in lines):
                return lines
    return lines


CLEAR_MM = 0.5
"""Least room between two things that must not touch: texts, discs, stars, pills."""


def clashes(page: Page) -> list[tuple[str, str]]:
    """Every two of `page`'s texts and filled shapes (discs, stars and other paths, rounded rects; not square
    rects, which are grounds) that come nearer than CLEAR_MM, neither lying on the other (a number inside its
    disc, a word in its pill, a disc inside a ring): what each is. Texts by the box of their capitals and
    digits; a disc by its circle, a path (a star, a symbol) by the circle round the middle of its box that
    its longer side spans; a rounded rect by its box."""
    found = []
    for a, b in combinations([d for d in record(page) if _solid(d)], 2):
        if _gap(a, b) < CLEAR_MM and not (_inside(a, b) or _inside(b, a)):
            found.append((_what(a), _what(b)))
    return found


def _solid(drawn: Drawn) -> bool:
    if drawn.kind == "text":
        return bool(drawn.text.strip())
    return bool(drawn.fill) and (drawn.kind in ("circle", "path") or (drawn.kind == "rect" and drawn.rounded))


def _what(drawn: Drawn) -> str:
    return repr(drawn.text) if drawn.kind == "text" else {"circle": "a disc", "rect": "a pill"}.get(drawn.kind,
                                                                                                  "a shape")


def _box(drawn: Drawn) -> tuple[float, float, float, float]:
    return drawn.ink if drawn.ink is not None else drawn.bounds


def _disc(drawn: Drawn) -> tuple[float, float, float] | None:
    """(centre x, centre y, radius) of a disc or a path; None for anything else."""
    if drawn.kind not in ("circle", "path"):
        return None
    x0, y0, x1, y1 = drawn.bounds
    return (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) / 2


def _gap(a: Drawn, b: Drawn) -> float:
    """How far apart `a` and `b` are (negative where they overlap)."""
    disc_a, disc_b = _disc(a), _disc(b)
    if disc_a and disc_b:
        return math.hypot(disc_a[0] - disc_b[0], disc_a[1] - disc_b[1]) - disc_a[2] - disc_b[2]
    if disc_a or disc_b:
        (cx, cy, r), box = (disc_a, _box(b)) if disc_a else (disc_b, _box(a))  # type: ignore[misc]
        near_x, near_y = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
        return math.hypot(near_x - cx, near_y - cy) - r
    one, other = _box(a), _box(b)
    return max(one[0] - other[2], other[0] - one[2], one[1] - other[3], other[1] - one[3])


def _inside(inner: Drawn, outer: Drawn) -> bool:
    """Whether `inner` lies within `outer` (a disc's circle, else its box)."""
    box, disc = _box(inner), _disc(outer)
    if disc is not None:
        own = _disc(inner)
        if own is not None:
            return math.hypot(own[0] - disc[0], own[1] - disc[1]) + own[2] <= disc[2]
        return all(math.hypot(x - disc[0], y - disc[1]) <= disc[2] for x in (box[0], box[2]) for y in (box[1], box[3]))
    around = _box(outer)
    return around[0] <= box[0] and around[1] <= box[1] and box[2] <= around[2] and box[3] <= around[3]


@dataclass(frozen=True, slots=True)
class Contrast:
    """A text, its colour, the colour behind it and their contrast (the lower of colour and grey)."""

    text: str
    ink: str
    ground: str
    ratio: float


def contrasts(page: Page, paper: str = "#ffffff") -> list[Contrast]:
    """Every text of `page` with the fill of the last shape drawn under its middle (else the paper)."""
    from printgen.colours import legibility

    found = []
    fills: list[tuple[tuple[float, float, float, float], str]] = []
    for drawn in record(page):
        if drawn.kind in ("rect", "circle", "path") and drawn.fill:
            fills.append((drawn.bounds, drawn.fill))
        elif drawn.kind == "text" and drawn.text.strip() and drawn.fill:
            x0, y0, x1, y1 = drawn.bounds
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            ground = next((fill for (a, b, c, d), fill in reversed(fills) if a <= cx <= c and b <= cy <= d), paper)
            found.append(Contrast(drawn.text, drawn.fill, ground, legibility(drawn.fill, ground)))
    return found


def worst_contrast(source: str, pages: list[tuple[Page, str]]) -> list[str]:
    """A warning line (`source: palette: ...`) for the text of `pages` (each with its paper colour) that reads
    worst, if it reads at less than MIN_CONTRAST; else no line."""
    from printgen.colours import MIN_CONTRAST

    worst = min((found for page, paper in pages for found in contrasts(page, paper)), key=lambda c: c.ratio,
                default=None)
    if worst is None or worst.ratio >= MIN_CONTRAST:
        return []
    return [(f"{source}: palette: {worst.text!r} in {worst.ink} on {worst.ground} reads at "
            f"{worst.ratio:.1f}:1 (in colour or in grey); printgen's own palettes keep {MIN_CONTRAST:g}:1")]


MIN_DIFFERENCE = 10.0
"""Least colour difference (CIE76 delta E) of two colours that tell things apart (rows, cards' suits)."""
MIN_GREY_DIFFERENCE = 20.0
"""Least difference of their greys (Rec. 601 luma, of 255) for two such colours: printed in black and white,
closer ones look alike (printgen's own four are at least 40 apart)."""


def alike(source: str, colours: list[tuple[str, str]], what: str) -> list[str]:
    """A warning line (`source: palette: ...`) for every two of `colours` (name, "#rrggbb") that print alike
    (closer than MIN_DIFFERENCE), or alike in grey (closer than MIN_GREY_DIFFERENCE), though players tell
    `what` apart by them."""
    from itertools import combinations

    from printgen.colours import difference, luma

    found = []
    for (first, one), (second, other) in combinations(colours, 2):
        if difference(one, other) < MIN_DIFFERENCE:
            found.append(f"{source}: palette: {first} ({one}) and {second} ({other}) print alike, and players tell "
                         f"{what} apart by colour")
        elif abs(luma(one) - luma(other)) < MIN_GREY_DIFFERENCE:
            found.append(f"{source}: palette: {first} ({one}) and {second} ({other}) print as nearly the same grey "
                         f"(luma {luma(one):.0f} and {luma(other):.0f} of 255): printed in black and white, players "
                         f"could not tell {what} apart")
    return found
