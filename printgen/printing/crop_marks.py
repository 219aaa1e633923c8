"""Crop marks: a cut line, the span it must stay clear of and the printable strip in, hairlines at both of its ends out.

One style for everything printgen lays out to be cut — score-sheet pads and
card decks alike: solid hairlines (about 0.25 pt) in registration colour
(every plate on a press, black on a home printer), MARK_OFFSET outside what
they mark and MARK_LENGTH long, shortened to stay inside the printer margin
but never below MIN_MARK. Never a line along the cut itself, which would
show on the finished piece when the cut is a little off.
"""

from __future__ import annotations

from printgen.page import REGISTRATION, Line, Mm, Paint

MARK = Paint(stroke=REGISTRATION, width=0.09)
"""Crop marks: solid hairlines (about 0.25 pt) in registration colour."""
MARK_OFFSET: Mm = 1.0
"""From what a mark stays clear of (a card's bleed, a sheet's edge) to the mark."""
MARK_LENGTH: Mm = 4.0
MIN_MARK: Mm = 2.0
"""Crop marks are shortened to fit the margin, never below this."""


def mark_pair(at: Mm, start: Mm, end: Mm, low: Mm, high: Mm, vertical: bool) -> list[Line]:
    """The two marks of the cut line at `at` (an x for a `vertical` line, else a y): one before `start` and
    one after `end`, each MARK_OFFSET clear of them and inside `low`..`high` (a mark shorter than MIN_MARK is
    left out: planners leave room for MIN_MARK)."""
    lines: list[Line] = []
    near = start - MARK_OFFSET
    far = end + MARK_OFFSET
    for a, b in ((max(low, near - MARK_LENGTH), near), (far, min(high, far + MARK_LENGTH))):
        if b - a >= MIN_MARK - 1e-9:
            lines.append(Line(at, a, at, b, MARK) if vertical else Line(a, at, b, at, MARK))
    return lines
