"""Small reusable drawings: a name and colour in, a Symbol (padlock, colour shape, bonus badge) out.

Each is a Symbol, so it is drawn once per file however often it is placed.
Colour shapes let colour-blind players tell rows apart (`--symbols`).
"""

from __future__ import annotations

import re
from functools import cache

from printgen.fonts import cap_height
from printgen.page import Circle, Element, Paint, Path, Rect, Symbol, Text, Use

WHITE = "#ffffff"
INK = "#222222"

COLOUR_SHAPES = {"red": "circle", "yellow": "triangle", "green": "square", "blue": "diamond"}
"""The shape that stands for each colour with --symbols."""

BONUS_BADGE = "#3b3b3b"
BONUS_LETTERS = {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"}
"""Bonus B kinds are printed as lettered badges (letters cannot be mistaken for row numbers)."""


def safe_id(name: str) -> str:
    """`name` made safe as an SVG id and PDF name."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", name)


@cache
def lock_symbol(colour: str) -> Symbol:
    """A padlock in `colour` on a 10 x 10 box."""
    shackle = Path(
        (("M", 3.2, 5.0), ("L", 3.2, 3.6), ("C", 3.2, 1.0, 6.8, 1.0, 6.8, 3.6), ("L", 6.8, 5.0)),
        Paint(stroke=colour, width=1.1),
    )
    body = Rect(2.0, 4.6, 6.0, 4.4, Paint(fill=colour), radius=0.8)
    keyhole = Circle(5.0, 6.5, 0.65, Paint(fill=WHITE))
    slot = Rect(4.7, 6.6, 0.6, 1.3, Paint(fill=WHITE))
    return Symbol(f"lock-{safe_id(colour)}", 10.0, 10.0, (shackle, body, keyhole, slot))


@cache
def lock_badge(colour: str) -> Symbol:
    """A lock number's mark: a white disc ringed in `colour` with a padlock in `colour`, on a 10 x 10 box."""
    disc = Circle(5.0, 5.0, 4.55, Paint(fill=WHITE, stroke=colour, width=0.9))
    lock = Use(lock_symbol(colour), 1.5, 1.4, 0.7)
    return Symbol(f"lock-badge-{safe_id(colour)}", 10.0, 10.0, (disc, lock))


@cache
def colour_shape(colour_name: str, fill: str) -> Symbol:
    """The shape standing for `colour_name`, filled with `fill`, on a 10 x 10 box."""
    kind = COLOUR_SHAPES.get(colour_name, "circle")
    paint = Paint(fill=fill)
    shape: Element
    if kind == "circle":
        shape = Circle(5.0, 5.0, 4.2, paint)
    elif kind == "triangle":
        shape = Path((("M", 5.0, 0.6), ("L", 9.6, 8.9), ("L", 0.4, 8.9), ("Z",)), paint)
    elif kind == "square":
        shape = Rect(1.1, 1.1, 7.8, 7.8, paint)
    else:
        shape = Path((("M", 5.0, 0.2), ("L", 9.8, 5.0), ("L", 5.0, 9.8), ("L", 0.2, 5.0), ("Z",)), paint)
    return Symbol(f"shape-{safe_id(colour_name)}-{fill.lstrip('#')}", 10.0, 10.0, (shape,))


@cache
def bonus_badge(kind: int) -> Symbol:
    """Bonus B kind `kind` as a dark round badge with a white letter and a white rim (so it stands out on a
    dark band too, in colour and in grey), on a 10 x 10 box."""
    letter = BONUS_LETTERS[kind]
    size = 6.4
    text = Text(5.0, 5.0 + cap_height("bold") * size / 2, letter, size, WHITE, "bold", "middle")
    disc = Circle(5.0, 5.0, 4.55, Paint(fill=BONUS_BADGE, stroke=WHITE, width=0.9))
    return Symbol(f"bonus-{kind}", 10.0, 10.0, (disc, text))
