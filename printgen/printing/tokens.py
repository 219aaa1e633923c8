"""Token sheets: round tokens and a paper in, pages with the tokens in rows and a cutting circle round each out.

Tokens of one size fill rows left to right; a new size starts a new row;
a full page starts the next one. Every token gets a thin dashed circle on its
edge to cut along (cut just inside the line).
"""

from __future__ import annotations

from collections.abc import Iterator

from printgen.page import Circle, Element, Item, Mm, Page, Paint, Text, Use
from printgen.printing.paper import MARGIN

GUIDE = Paint(stroke="#555555", width=0.2, dash=(1.2, 0.9))
SPACING: Mm = 3.0
HEADING: Mm = 8.0
"""Room above the tokens for the sheet's heading."""


def _heading(text: str, page_w: Mm, margin: Mm) -> list[Element]:
    from printgen.fonts import fit_size

    if not text:
        return []
    return [Text(margin, margin + 4.0, text, fit_size(text, "regular", 3.5, page_w - 2 * margin), "#333333",
                 "regular")]


def token_pages(tokens: list[Item], paper: tuple[Mm, Mm], heading: str = "", margin: Mm = MARGIN) -> Iterator[Page]:
    """Pages of portrait `paper` holding every token with its cutting guide inside `margin`, the rows centred
    across the page, `heading` atop each page."""
    page_w, page_h = paper
    top = margin + (HEADING if heading else 0.0)
    x, y, row_h = margin, top, 0.0
    placed: list[tuple[Item, Mm, Mm]] = []
    previous: float | None = None
    for token in tokens:
        size = token.width
        if previous is not None and (size != previous or x + size > page_w - margin):
            x, y = margin, y + row_h + SPACING
            row_h = 0.0
        if y + size > page_h - margin:
            yield _page(placed, page_w, page_h, heading, margin)
            placed, x, y, row_h = [], margin, top, 0.0
        placed.append((token, x, y))
        x += size + SPACING
        row_h = max(row_h, size)
        previous = size
    if placed:
        yield _page(placed, page_w, page_h, heading, margin)


def _page(placed: list[tuple[Item, Mm, Mm]], page_w: Mm, page_h: Mm, heading: str, margin: Mm) -> Page:
    right = max(x + token.width for token, x, _ in placed)
    shift = (page_w - margin - right) / 2  # as much room right of the widest row as left of it
    elements: list[Element] = _heading(heading, page_w, margin)
    for token, x, y in placed:
        size = token.width
        elements.append(Use(token.art, x + shift, y))
        elements.append(Circle(x + shift + size / 2, y + size / 2, size / 2, GUIDE))
    return Page(page_w, page_h, tuple(elements))
