"""Token sheets: round tokens (art with bleed, and its cutting circle) and a paper in, pages of centred rows out.

Tokens of one size fill rows; a new size starts a new row; a full page
starts the next one. Each page's rows are centred and spread over the page
(at most MAX_GAP apart), so the page is evenly full and every token has
room to cut round. Each token's art runs its bleed beyond its cutting
circle, and two tokens' bleeds never touch (MIN_GAP). `double_sided` adds
after each page the same tokens mirrored for a long-edge flip, so every
token gets its art on both sides (the bleed hides a printer's small shift).
"""

from __future__ import annotations

from collections.abc import Iterator

from printgen.page import Element, Group, Item, Mm, Page, Text, Use
from printgen.printing.paper import MARGIN

MIN_GAP: Mm = 1.0
"""Least room between two tokens' bleeds."""
MAX_GAP: Mm = 8.0
"""Rows and tokens are spread over the page at most this far apart (bleed to bleed)."""
HEADING: Mm = 8.0
"""Room above the tokens for the sheet's heading."""


def _heading(text: str, page_w: Mm, margin: Mm) -> list[Element]:
    from printgen.fonts import fit_size

    if not text:
        return []
    size = fit_size(text, "regular", 3.5, page_w - 2 * margin)
    return [Text(page_w / 2, margin + 4.0, text, size, "#333333", "regular", "middle")]


def _rows(tokens: list[Item], width: Mm) -> list[list[Item]]:
    """`tokens` in rows as wide as fit `width` with MIN_GAP between them, a new row for each new size."""
    rows: list[list[Item]] = []
    for token in tokens:
        across = max(1, int((width + MIN_GAP) // (token.width + MIN_GAP)))
        if rows and rows[-1][0].width == token.width and len(rows[-1]) < across:
            rows[-1].append(token)
        else:
            rows.append([token])
    return rows


def token_pages(tokens: list[Item], paper: tuple[Mm, Mm], heading: str = "", margin: Mm = MARGIN,
                double_sided: bool = False) -> Iterator[Page]:
    """Pages of portrait `paper` holding every token inside `margin`, rows centred and spread over the page,
    `heading` atop each page; with `double_sided`, each followed by its mirrored back page."""
    page_w, page_h = paper
    top = margin + (HEADING if heading else 0.0)
    width, height = page_w - 2 * margin, page_h - margin - top
    pages: list[list[list[Item]]] = [[]]
    used = 0.0
    for row in _rows(tokens, width):
        size = row[0].width
        if pages[-1] and used + MIN_GAP + size > height:
            pages.append([])
            used = 0.0
        used += (MIN_GAP if pages[-1] else 0.0) + size
        pages[-1].append(row)
    for rows in pages:
        placed = _place(rows, page_w, top, width, height)
        yield _page(placed, page_w, page_h, _heading(heading, page_w, margin), True)
        if double_sided:
            mirrored = [(token, page_w - x - token.width, y) for token, x, y in placed]
            yield _page(mirrored, page_w, page_h, [], False)


def _place(rows: list[list[Item]], page_w: Mm, top: Mm, width: Mm, height: Mm) -> list[tuple[Item, Mm, Mm]]:
    """Where each token of `rows` goes (top-left corners): rows spread down the page, tokens along each row,
    at most MAX_GAP apart, the whole centred."""
    sizes = [row[0].width for row in rows]
    gap_y = min(MAX_GAP, (height - sum(sizes)) / (len(rows) - 1)) if len(rows) > 1 else 0.0
    block = sum(sizes) + gap_y * (len(rows) - 1)
    y = top + (height - block) / 2
    placed = []
    for row, size in zip(rows, sizes):
        across = max(1, int((width + MIN_GAP) // (size + MIN_GAP)))
        gap_x = min(MAX_GAP, (width - across * size) / (across - 1)) if across > 1 else 0.0
        row_w = len(row) * size + (len(row) - 1) * gap_x
        x = (page_w - row_w) / 2
        for token in row:
            placed.append((token, x, y))
            x += size + gap_x
        y += size + gap_y
    return placed


def _page(placed: list[tuple[Item, Mm, Mm]], page_w: Mm, page_h: Mm, heading: list[Element],
          front: bool) -> Page:
    elements: list[Element] = list(heading)
    for token, x, y in placed:
        elements.append(Use(token.art, x, y))
        if front and token.extras:  # the cutting circle: on the side that is cut
            elements.append(Group(token.extras, x, y))
    return Page(page_w, page_h, tuple(elements))
