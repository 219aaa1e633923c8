"""Large items (the One to 9 board): an item and a paper in, one page holding it whole or tiles to glue out.

Whole: the paper must hold the item at 100 % inside 10 mm margins, in either
orientation; otherwise the error names the smallest paper that does. Tiled:
the item is cut into page-sized tiles that overlap by OVERLAP mm; each tile
shows the end of its glue strip (dashed), its place (row, column) and
alignment crosses. Each tile is cut along its artwork's right and bottom
edges and laid over its neighbours' glue strips, edges on their dashed lines.
The crosses sit in the margins, never on the artwork: one on each end of
every seam, centred on the seam's line — on the tile laid on top at its
artwork's edge (cutting that edge halves the cross), on the tile below at
its dashed line — so the half left on the one meets the half showing on the
other. Every cross is later cut away (with the margin at the board's edge or
at a cut edge) or covered (by the neighbour laid over it).
"""

from __future__ import annotations

from collections.abc import Iterator

from printgen.errors import UsageProblem
from printgen.measure import legible_lines
from printgen.page import REGISTRATION, Element, Item, Line, Mm, Page, Paint, Text, Use
from printgen.printing.paper import MARGIN, PAPERS, paper_size

OVERLAP: Mm = 12.0
HEADER: Mm = 10.0
"""Least room at the top of a tile for its label (from the printer's margin down) and the crosses below it."""
LABEL_SIZE: Mm = 2.6
LINE_HEIGHT = 1.2
"""A label line's height, in LABEL_SIZE."""
LABEL_CLEAR: Mm = 0.8
"""Between the label's last line and the crosses below it."""
PRINTABLE: Mm = 5.0
"""Nothing prints closer than this to the paper's edge (what home printers cannot print)."""
CUT = Paint(stroke="#555555", width=0.25, dash=(2.0, 1.5))
CROSS = Paint(stroke=REGISTRATION, width=0.25)
CROSS_ARM: Mm = 1.75
CROSS_OFF: Mm = 3.0
"""From the artwork's edge to a cross's centre, outwards (the cross keeps 1.25 mm from the artwork and stays
inside PRINTABLE)."""


def _orientation(paper: tuple[Mm, Mm], item: Item, margin: Mm = MARGIN) -> tuple[Mm, Mm] | None:
    short, long = sorted(paper)
    for page_w, page_h in ((short, long), (long, short)):
        if item.width <= page_w - 2 * margin and item.height <= page_h - 2 * margin:
            return page_w, page_h
    return None


def smallest_paper(item: Item, margin: Mm = MARGIN) -> str | None:
    """The smallest known paper that holds `item` whole inside `margin`, or None."""
    fitting = [(w * h, name) for name, (w, h) in PAPERS.items() if _orientation((w, h), item, margin)]
    return min(fitting)[1] if fitting else None


def whole_page(item: Item, paper_name: str, margin: Mm = MARGIN) -> Page:
    """`item` centred at 100 % on one page of `paper_name`, at least `margin` from every edge."""
    size = _orientation(paper_size(paper_name), item, margin)
    if size is None:
        best = smallest_paper(item, margin)
        hint = f"the smallest paper that fits is {best}" if best else "no paper printgen knows fits it"
        raise UsageProblem(f"--paper: the {item.name} ({item.width:.0f} x {item.height:.0f} mm) does not fit "
                           f"{paper_name} with {margin:g} mm margins; {hint} (or use --tile)")
    page_w, page_h = size
    return Page(page_w, page_h, (Use(item.art, (page_w - item.width) / 2, (page_h - item.height) / 2),))


def tile_pages(item: Item, paper_name: str, field: tuple[Mm, Mm], label: str = "", margin: Mm = MARGIN,
               printable: Mm = PRINTABLE) -> list[Page]:
    """`item` cut into overlapping tiles on `paper_name`; a tile must hold at least one `field`.

    `label` (with {row}, {column}, {rows}, {columns}) is printed at the top of each tile, from `printable` (what
    the printer cannot print at the paper's edge) down, in as many lines as it takes at no less than the
    smallest text printgen prints; the artwork keeps `margin` from the edges, more where its crosses would
    come nearer the edge than `printable`.
    """
    paper = paper_size(paper_name)
    margin = max(margin, printable + CROSS_OFF + CROSS_ARM + CROSS.width / 2)
    label = label or _default_label()
    plans = []
    for page_w, page_h in (sorted(paper), sorted(paper, reverse=True)):
        lines = legible_lines(label.format(row=99, column=99, rows=99, columns=99), LABEL_SIZE, page_w - 2 * margin,
                              2)
        header = max(HEADER, printable + len(lines) * LINE_HEIGHT * LABEL_SIZE + LABEL_CLEAR + CROSS_OFF
                     + CROSS_ARM - margin)  # (the label, then the crosses above the artwork)
        area_w, area_h = page_w - 2 * margin, page_h - 2 * margin - header
        if area_w < field[0] + OVERLAP or area_h < field[1] + OVERLAP:
            continue
        cols = max(1, -(-(item.width - OVERLAP) // (area_w - OVERLAP)))
        rows = max(1, -(-(item.height - OVERLAP) // (area_h - OVERLAP)))
        plans.append((int(cols * rows), page_w, page_h, area_w, area_h, int(cols), int(rows), header))
    if not plans:
        room = min(paper) - 2 * margin, max(paper) - 2 * margin - HEADER
        raise UsageProblem(f"--tile: a {field[0]:g} x {field[1]:g} mm field with its {OVERLAP:g} mm overlap "
                           f"({field[0] + OVERLAP:g} x {field[1] + OVERLAP:g} mm) does not fit one {paper_name} tile "
                           f"(about {room[0]:g} x {room[1]:g} mm inside its margins); use a larger --paper, a smaller "
                           "--card-size or --printer-margin")
    _, page_w, page_h, area_w, area_h, cols, rows, header = min(plans)
    if cols * rows == 1:
        raise UsageProblem(f"--tile: the {item.name} ({item.width:.0f} x {item.height:.0f} mm) fits one "
                           f"{paper_name} page whole: leave out --tile (or tile it on a smaller --paper)")
    return list(_tiles(item, (page_w, page_h), (area_w, area_h), (cols, rows), label, margin, header, printable))


def _default_label() -> str:
    from printgen.labels import catalogue

    return catalogue()["tile"]


def _label(text: str, left: Mm, width: Mm, top: Mm) -> list[Element]:
    """The tile's label `width` wide from (`left`, `top`) down (clear of the crosses below it)."""
    from printgen.fonts import fit_size

    lines = legible_lines(text, LABEL_SIZE, width, 2)
    size = min(fit_size(line, "regular", LABEL_SIZE, width) for line in lines)
    return [Text(left, top + 0.8 * LABEL_SIZE + i * LABEL_SIZE * LINE_HEIGHT, line, size,
                 "#333333", "regular") for i, line in enumerate(lines)]


def _tiles(item: Item, page: tuple[Mm, Mm], area: tuple[Mm, Mm], grid: tuple[int, int], label: str, margin: Mm,
           header: Mm, printable: Mm) -> Iterator[Page]:
    (page_w, page_h), (area_w, area_h), (cols, rows) = page, area, grid
    step_x, step_y = area_w - OVERLAP, area_h - OVERLAP
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_x, r * step_y  # the board point at the tile's top-left corner
            left, top = margin, margin + header
            w = min(area_w, item.width - x0)
            h = min(area_h, item.height - y0)
            elements: list[Element] = [
                Use(item.art, left - x0, top - y0, 1.0, (left, top, left + w, top + h)),
            ]
            words = label.format(row=r + 1, column=c + 1, rows=rows, columns=cols)
            elements += _label(words, margin, page_w - 2 * margin, printable)
            if c > 0:
                elements.append(Line(left + OVERLAP, top, left + OVERLAP, top + h, CUT))
            if r > 0:
                elements.append(Line(left, top + OVERLAP, left + w, top + OVERLAP, CUT))
            elements += _crosses((left, top, left + w, top + h), c, r, cols, rows)
            yield Page(page_w, page_h, tuple(elements))


def _crosses(art: tuple[Mm, Mm, Mm, Mm], c: int, r: int, cols: int, rows: int) -> list[Element]:
    """The tile's alignment crosses, in its margins: for each seam it shares (its own glue strip's dashed line
    at the left or top, its cut edge at the right or bottom), a cross on that line's extension beyond both
    ends of the artwork."""
    left, top, right, bottom = art
    seams_x = ([left + OVERLAP] if c > 0 else []) + ([right] if c < cols - 1 else [])
    seams_y = ([top + OVERLAP] if r > 0 else []) + ([bottom] if r < rows - 1 else [])
    points = [(x, y) for x in seams_x for y in (top - CROSS_OFF, bottom + CROSS_OFF)]
    points += [(x, y) for y in seams_y for x in (left - CROSS_OFF, right + CROSS_OFF)]
    elements: list[Element] = []
    for px, py in points:
        elements += [Line(px - CROSS_ARM, py, px + CROSS_ARM, py, CROSS),
                     Line(px, py - CROSS_ARM, px, py + CROSS_ARM, CROSS)]
    return elements
