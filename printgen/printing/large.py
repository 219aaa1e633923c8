"""Large items (the One to 9 board): an item and a paper in, one page holding it whole or tiles to glue out.

Whole: the paper must hold the item at 100 % inside 10 mm margins, in either
orientation; otherwise the error names the smallest paper that does. Tiled:
the item is cut into page-sized tiles that overlap by OVERLAP mm; each tile
shows the end of its glue strip (dashed), alignment crosses in the overlap
(the same crosses print on both neighbours) and its place (row, column).
"""

from __future__ import annotations

from collections.abc import Iterator

from printgen.errors import UsageProblem
from printgen.page import REGISTRATION, Element, Item, Line, Mm, Page, Paint, Text, Use
from printgen.printing.paper import MARGIN, PAPERS, paper_size

OVERLAP: Mm = 12.0
HEADER: Mm = 10.0
"""Room at the top of a tile for its label (two lines)."""
LABEL_SIZE: Mm = 2.6
CUT = Paint(stroke="#555555", width=0.25, dash=(2.0, 1.5))
CROSS = Paint(stroke=REGISTRATION, width=0.25)


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


def tile_pages(item: Item, paper_name: str, field: tuple[Mm, Mm], label: str = "", margin: Mm = MARGIN) -> list[Page]:
    """`item` cut into overlapping tiles on `paper_name`; a tile must hold at least one `field`.

    `label` (with {row}, {column}, {rows}, {columns}) is printed at the top of each tile.
    """
    paper = paper_size(paper_name)
    plans = []
    for page_w, page_h in (sorted(paper), sorted(paper, reverse=True)):
        area_w, area_h = page_w - 2 * margin, page_h - 2 * margin - HEADER
        if area_w < field[0] + OVERLAP or area_h < field[1] + OVERLAP:
            continue
        cols = max(1, -(-(item.width - OVERLAP) // (area_w - OVERLAP)))
        rows = max(1, -(-(item.height - OVERLAP) // (area_h - OVERLAP)))
        plans.append((int(cols * rows), page_w, page_h, area_w, area_h, int(cols), int(rows)))
    if not plans:
        raise UsageProblem(f"--tile: a {field[0]:g} x {field[1]:g} mm field does not fit a {paper_name} tile "
                           f"({paper[0] - 2 * margin:g} x {paper[1] - 2 * margin - HEADER:g} mm with overlap); "
                           "use a larger --paper or a smaller --card-size")
    _, page_w, page_h, area_w, area_h, cols, rows = min(plans)
    return list(_tiles(item, page_w, page_h, area_w, area_h, cols, rows, label or _default_label(), margin))


def _default_label() -> str:
    from printgen.labels import catalogue

    return catalogue()["tile"]


def _label(text: str, width: Mm, margin: Mm) -> list[Element]:
    """The tile's label in at most two lines at the top margin."""
    from printgen.fonts import fit_size, wrap

    lines = wrap(text, "regular", LABEL_SIZE, width)
    size = min(fit_size(line, "regular", LABEL_SIZE, width) for line in lines)
    return [Text(margin, margin + 3.0 + i * LABEL_SIZE * 1.25, line, size, "#333333", "regular")
            for i, line in enumerate(lines)]


def _tiles(item: Item, page_w: Mm, page_h: Mm, area_w: Mm, area_h: Mm, cols: int, rows: int,
           label: str, margin: Mm) -> Iterator[Page]:
    step_x, step_y = area_w - OVERLAP, area_h - OVERLAP
    for r in range(rows):
        for c in range(cols):
            x0, y0 = c * step_x, r * step_y  # the board point at the tile's top-left corner
            left, top = margin, margin + HEADER
            w = min(area_w, item.width - x0)
            h = min(area_h, item.height - y0)
            elements: list[Element] = [
                Use(item.art, left - x0, top - y0, 1.0, (left, top, left + w, top + h)),
            ]
            words = label.format(row=r + 1, column=c + 1, rows=rows, columns=cols)
            elements += _label(words, page_w - 2 * margin, margin)
            if c > 0:
                elements.append(Line(left + OVERLAP, top, left + OVERLAP, top + h, CUT))
            if r > 0:
                elements.append(Line(left, top + OVERLAP, left + w, top + OVERLAP, CUT))
            elements += _crosses(x0, y0, w, h, left, top, step_x, step_y, cols, rows)
            yield Page(page_w, page_h, tuple(elements))


def _crosses(x0: Mm, y0: Mm, w: Mm, h: Mm, left: Mm, top: Mm, step_x: Mm, step_y: Mm, cols: int,
             rows: int) -> list[Element]:
    """Crosses at fixed board points in the middle of every overlap strip between two tiles, so each one
    prints on both tiles that share the strip (a seam exists only between tiles that exist)."""
    points = []
    for k in range(1, cols):  # the strip shared by tile columns k-1 and k
        for fy in (0.25, 0.75):
            points.append((k * step_x + OVERLAP / 2, y0 + h * fy))
    for k in range(1, rows):
        for fx in (0.25, 0.75):
            points.append((x0 + w * fx, k * step_y + OVERLAP / 2))
    elements: list[Element] = []
    for bx, by in points:
        if x0 <= bx <= x0 + w and y0 <= by <= y0 + h:
            px, py = left + bx - x0, top + by - y0
            elements += [Line(px - 3, py, px + 3, py, CROSS), Line(px, py - 3, px, py + 3, CROSS)]
    return elements
