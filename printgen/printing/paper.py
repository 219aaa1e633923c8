"""Paper sizes: a paper name in, its portrait width and height in mm out."""

from __future__ import annotations

from printgen.errors import UsageProblem
from printgen.page import Mm

PAPERS: dict[str, tuple[Mm, Mm]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "a5": (148.0, 210.0),
    "legal": (215.9, 355.6),
    "tabloid": (279.4, 431.8),
    "a2": (420.0, 594.0),
    "a1": (594.0, 841.0),
    "a0": (841.0, 1189.0),
}
MARGIN: Mm = 10.0
"""Page margin kept free of printing (home printers cannot print to the edge)."""


def paper_size(name: str) -> tuple[Mm, Mm]:
    """Portrait (width, height) of paper `name`; unknown names list the known ones."""
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise UsageProblem(f"unknown paper {name!r} (known: {', '.join(PAPERS)})") from None
