"""Card imposition: card faces (drawn with bleed), a paper and print options in, front and back pages out.

Cards sit in a centred grid, `gap` mm apart, with nothing — art, bleed or
crop mark — closer than the printer margin (PRINTER_MARGIN, 5 mm: what home
printers cannot print) to the paper edge. Each face is one Symbol of the
card plus its bleed, placed with a clip: at the block's outer edges the
bleed shows as far as the margin and the crop marks allow (at least
MIN_OUTER_BLEED), between neighbours half the gap (at most the bleed), so no
card's art reaches another's trim; where neighbours' bleeds meet, each runs
SEAM_OVERLAP past the gap's middle (the later covers the earlier there: two
edges that only touch leave a light hairline in PDF viewers). By default (`gap=None`) each card gets its own
bleed: the gap is twice the bleed where the paper allows, else as wide as
the paper allows if that still gives each card MIN_OWN_BLEED of its own
(print-and-play files do the same: a cut a little off the line then shows
the card's own colour, not its neighbour's). Every cut line gets a crop mark
at both ends: short hairlines outside the bleed, never lines around a card;
a grid that leaves too little room for them is not used. The grid that fits
most cards wins (then the wider gap, then portrait): poker cards on A4 take
4 x 2 landscape with a 6 mm gap, on Letter 4 x 2 with 2.4 mm. Back pages
mirror the positions (columns for a long-edge flip of a portrait page, rows
for a short-edge flip) so every back lands behind its own front, moved
against the printer's measured shift (`back_shift`).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from printgen.errors import UsageProblem
from printgen.fonts import cap_height, fit_size
from printgen.page import REGISTRATION, Box, Element, Line, Mm, Page, Paint, Symbol, Text, Use
from printgen.printing.crop_marks import MARK, MARK_OFFSET, MIN_MARK, mark_pair

CARD_SIZES: dict[str, tuple[Mm, Mm]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.0, 63.0),
}
PRINTER_MARGIN: Mm = 5.0
"""Default least distance from anything printed to the paper edge (--printer-margin)."""
MAX_BLEED: Mm = 10.0
MIN_OUTER_BLEED: Mm = 1.0
"""Least bleed kept at the block's outer edges when the margin leaves no room for more."""
SLUG: Mm = 10.0
"""Print-shop pages (one card each): room around the bleed for the crop marks."""


CARD_SIDES = (20.0, 300.0)
"""Least and most a card's side may be (mm)."""


def card_size(text: str) -> tuple[Mm, Mm]:
    """The (width, height) in mm of a card size name or "WxH" with an optional unit (mm by default)."""
    from printgen import lengths

    if text.lower() in CARD_SIZES:
        return CARD_SIZES[text.lower()]
    try:
        width, height = lengths.size(text)
    except ValueError:
        raise UsageProblem(f"--card-size: {text!r} is not {', '.join(CARD_SIZES)} or WxH with an optional unit "
                           "(e.g. 63x88mm, 2.5x3.5in)") from None
    low, high = CARD_SIDES
    if not (low <= width <= high and low <= height <= high):
        raise UsageProblem(f"--card-size: {text.strip()} ({width:g} x {height:g} mm) is outside {low:g}..{high:g} mm "
                           "a side")
    return width, height


@dataclass(frozen=True, slots=True)
class CardGrid:
    """Where the cards of one page sit: paper, grid, card size, bleed and gap (mm)."""

    page_w: Mm
    page_h: Mm
    cols: int
    rows: int
    card_w: Mm
    card_h: Mm
    bleed: Mm
    gap: Mm
    outer: tuple[Mm, Mm] = (0.0, 0.0)
    """The bleed shown at the block's left/right and top/bottom edges."""
    margin: Mm = PRINTER_MARGIN

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def trim(self, index: int) -> Box:
        """The trim box (x0, y0, x1, y1) of slot `index`, row by row."""
        row, col = divmod(index, self.cols)
        block_w = self.cols * self.card_w + (self.cols - 1) * self.gap
        block_h = self.rows * self.card_h + (self.rows - 1) * self.gap
        x = (self.page_w - block_w) / 2 + col * (self.card_w + self.gap)
        y = (self.page_h - block_h) / 2 + row * (self.card_h + self.gap)
        return (x, y, x + self.card_w, y + self.card_h)

    @property
    def seam(self) -> Mm:
        """How far past the gap's middle each card's art shows where neighbours' bleeds meet (SEAM_OVERLAP, at
        most what leaves the card drawn first MIN_OWN_BLEED of its own), else 0: its faces need that much more
        bleed."""
        if self.per_page == 1 or self.bleed < self.gap / 2:
            return 0.0
        return min(SEAM_OVERLAP, max(self.gap / 2 - MIN_OWN_BLEED, 0.0))

    def visible(self, index: int) -> Box:
        """The part of slot `index`'s bleed that may show: the outer bleed outside, half the gap inside."""
        row, col = divmod(index, self.cols)
        inner = min(self.bleed, self.gap / 2) + self.seam
        out_x, out_y = self.outer
        x0, y0, x1, y1 = self.trim(index)
        return (
            x0 - (out_x if col == 0 else inner),
            y0 - (out_y if row == 0 else inner),
            x1 + (out_x if col == self.cols - 1 else inner),
            y1 + (out_y if row == self.rows - 1 else inner),
        )

    @property
    def printable(self) -> Box:
        """The part of the page a home printer prints (inside the margin)."""
        return (self.margin, self.margin, self.page_w - self.margin, self.page_h - self.margin)


SEAM_OVERLAP: Mm = 0.25
"""How far past the gap's middle a card's bleed runs where it meets its neighbour's (never onto the neighbour's
trim): at least half a pixel of a PDF viewer at 72 dpi, whose smoothing leaves a light line where two shapes only
touch."""
MIN_OWN_BLEED: Mm = 1.0
"""The default gap is used only if it gives each card at least this much bleed of its own (or its whole
bleed, if smaller)."""


def _mark_room(marks: bool) -> Mm:
    """What a crop mark needs between a block's bleed and the printer margin (its hairline's own half width
    included)."""
    return MARK_OFFSET + MIN_MARK + MARK.width / 2 if marks else 0.0


def _outer(page: Mm, count: int, size: Mm, gap: Mm, bleed: Mm, margin: Mm, marks: bool) -> Mm | None:
    """The bleed that fits outside a block of `count` cards across `page`, or None if the block does not fit."""
    block = count * size + (count - 1) * gap
    room = (page - block) / 2 - margin - _mark_room(marks)
    if count < 1 or room < min(bleed, MIN_OUTER_BLEED) - 1e-9:
        return None
    return min(bleed, room)


def _widest_gap(page: Mm, count: int, size: Mm, bleed: Mm, margin: Mm, marks: bool) -> Mm:
    """The widest gap between `count` cards across `page` that still leaves the block's outer cards as much
    bleed outside as each card has inside (half the gap, at most the bleed) and room for the crop marks:
    infinite for one card, negative when the cards do not fit at all."""
    if count < 2:
        return float("inf")
    spare = page - count * size - 2 * (margin + _mark_room(marks))
    if spare / count <= 2 * bleed:
        return spare / count
    return (spare - 2 * bleed) / (count - 1)


def _grid(page_w: Mm, page_h: Mm, cols: int, rows: int, card: tuple[Mm, Mm], bleed: Mm, gap: Mm, margin: Mm,
          marks: bool) -> CardGrid | None:
    out_x = _outer(page_w, cols, card[0], gap, bleed, margin, marks)
    out_y = _outer(page_h, rows, card[1], gap, bleed, margin, marks)
    if out_x is None or out_y is None:
        return None
    return CardGrid(page_w, page_h, cols, rows, card[0], card[1], bleed, gap, (out_x, out_y), margin)


def _grids(paper: tuple[Mm, Mm], card: tuple[Mm, Mm], bleed: Mm, gap: Mm | None, per_page: int | None,
           margin: Mm, marks: bool) -> Iterator[CardGrid]:
    """Every grid of up to `per_page` cards that fits the paper (portrait first), with the given gap or, for
    `gap=None`, the default one (see the module docstring)."""
    w, h = card
    short, long = sorted(paper)
    own = min(2 * bleed, 2 * MIN_OWN_BLEED)
    for page_w, page_h in ((short, long), (long, short)):
        most_cols = int((page_w - 2 * margin) // w)
        most_rows = int((page_h - 2 * margin) // h)
        for cols in range(1, most_cols + 1):
            for rows in range(1, most_rows + 1):
                if per_page is not None and cols * rows > per_page:
                    continue
                if gap is None:
                    widest = min(_widest_gap(page_w, cols, w, bleed, margin, marks),
                                 _widest_gap(page_h, rows, h, bleed, margin, marks))
                    chosen = 2 * bleed if widest >= 2 * bleed else math.floor(widest * 10 + 1e-6) / 10
                    if chosen < own - 1e-9:
                        continue
                else:
                    chosen = gap
                grid = _grid(page_w, page_h, cols, rows, card, bleed, chosen, margin, marks)
                if grid is not None:
                    yield grid


def plan_cards(paper: tuple[Mm, Mm], card: tuple[Mm, Mm], bleed: Mm, gap: Mm | None, paper_name: str,
               per_page: int | None = None, margin: Mm = PRINTER_MARGIN, marks: bool = True) -> CardGrid:
    """The grid that puts the most cards on a page of `paper` with nothing within `margin` of the edge (then
    the wider gap, then portrait); `per_page` caps it; 1 makes print-shop pages of one card with its slug.
    `gap=None` is the default gap: each card its own bleed where the paper allows (module docstring); when no
    grid gives every card that, the cards touch (gap 0)."""
    if not 0 <= bleed <= MAX_BLEED:
        raise UsageProblem(f"--bleed: {bleed:g} mm is outside 0..{MAX_BLEED:g} mm")
    if gap is not None and not 0 <= gap <= 50:
        raise UsageProblem(f"--gap: {gap:g} mm is outside 0..50 mm")
    w, h = card
    if per_page == 1:
        return CardGrid(w + 2 * (bleed + SLUG), h + 2 * (bleed + SLUG), 1, 1, w, h, bleed, gap or 0.0, (bleed, bleed),
                        0.0)
    candidates = list(_grids(paper, card, bleed, gap, per_page, margin, marks))
    if not candidates and gap is None:
        candidates = list(_grids(paper, card, bleed, 0.0, per_page, margin, marks))
    if not candidates:
        raise UsageProblem(f"--card-size: {w:g} x {h:g} mm cards do not fit {paper_name} with its bleed and "
                           f"crop marks inside a {margin:g} mm printer margin")
    return max(candidates, key=lambda g: (g.per_page, g.gap, g.page_h >= g.page_w, -abs(g.cols - g.rows)))


def crop_marks(grid: CardGrid, filled: int) -> list[Element]:
    """Hairline marks on every cut line, just outside the bleed of the cards on that line (a half-full last
    page gets marks for its cards only), inside the printer margin."""
    trims = [grid.trim(i) for i in range(filled)]
    visible = [grid.visible(i) for i in range(filled)]
    edge = grid.margin + MARK.width / 2  # the hairline's own width stays inside the margin too
    marks: list[Element] = []
    for x in sorted({round(x, 4) for t in trims for x in (t[0], t[2])}):
        on = [v for t, v in zip(trims, visible) if round(t[0], 4) == x or round(t[2], 4) == x]
        marks += mark_pair(x, min(v[1] for v in on), max(v[3] for v in on), edge, grid.page_h - edge, True)
    for y in sorted({round(y, 4) for t in trims for y in (t[1], t[3])}):
        on = [v for t, v in zip(trims, visible) if round(t[1], 4) == y or round(t[3], 4) == y]
        marks += mark_pair(y, min(v[0] for v in on), max(v[2] for v in on), edge, grid.page_w - edge, False)
    return marks


def back_shift(axis: str, offset: tuple[Mm, Mm]) -> tuple[Mm, Mm]:
    """How far to move the backs on their own page so that, seen from the front, they move by (-X, -Y).

    `offset` (X, Y) is how far the printer shifts the backs relative to their fronts as seen looking at the
    front side (X right, Y down) — what the alignment page's rulers read. Flipped about the vertical axis
    (x), a back's x runs the other way as seen from the front; flipped about the horizontal axis (y), its y.
    """
    x, y = offset
    return (x, -y) if axis == "x" else (-x, y)


def card_pages(faces: list[Symbol], grid: CardGrid, marks: bool, mirror: str | None = None,
               offset: tuple[Mm, Mm] = (0.0, 0.0)) -> Iterator[Page]:
    """Pages of `faces` (each with its bleed around the trim: the grid's, plus its `seam`) in `grid`; `mirror` "x"
    or "y" for backs,
    moved against the printer's shift `offset` (see back_shift) and kept inside the printer margin."""
    for start in range(0, len(faces), grid.per_page):
        batch = faces[start : start + grid.per_page]
        elements: list[Element] = []
        for index, face in enumerate(batch):
            trim, clip = grid.trim(index), grid.visible(index)
            if mirror is not None:
                shift = back_shift(mirror, offset)
                trim, clip = _mirrored(trim, grid, mirror, shift), _mirrored(clip, grid, mirror, shift)
                if grid.per_page > 1:
                    clip = _intersect(clip, grid.printable)
            bleed = (face.width - grid.card_w) / 2  # (the grid's, or more: `seam`)
            elements.append(Use(face, trim[0] - bleed, trim[1] - bleed, 1.0, clip))
        if marks and (mirror is None or grid.per_page == 1 and offset == (0.0, 0.0)):  # (a print shop's back, a
            # card centred on its own page, has its marks where its front has them: the shop cuts from either side)
            elements += crop_marks(grid, len(batch))
        yield _page(grid, elements)


def backs_cut(grid: CardGrid, axis: str, offset: tuple[Mm, Mm]) -> Mm:
    """How much of a back's trim, at most, moving the backs against the printer's shift `offset` puts beyond
    what the printer prints (the margin cuts it off there; 0 when every back stays whole)."""
    shift = back_shift(axis, offset)
    left, top, right, bottom = grid.printable
    cut = 0.0
    for index in range(grid.per_page):
        x0, y0, x1, y1 = _mirrored(grid.trim(index), grid, axis, shift)
        cut = max(cut, left - x0, top - y0, x1 - right, y1 - bottom)
    return cut


def _intersect(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _page(grid: CardGrid, elements: list[Element]) -> Page:
    if grid.per_page == 1:
        x0, y0, x1, y1 = grid.trim(0)
        b = grid.bleed
        return Page(grid.page_w, grid.page_h, tuple(elements), trim=(x0, y0, x1, y1),
                    bleed=(x0 - b, y0 - b, x1 + b, y1 + b))
    return Page(grid.page_w, grid.page_h, tuple(elements))


def _mirrored(box: Box, grid: CardGrid, axis: str, shift: tuple[Mm, Mm]) -> Box:
    x0, y0, x1, y1 = box
    if axis == "x":
        x0, x1 = grid.page_w - x1, grid.page_w - x0
    else:
        y0, y1 = grid.page_h - y1, grid.page_h - y0
    dx, dy = shift
    return (x0 + dx, y0 + dy, x1 + dx, y1 + dy)


def mirror_axis(duplex: str, grid: CardGrid) -> str:
    """The axis backs are mirrored on: a long-edge flip turns a portrait page about its vertical axis."""
    portrait = grid.page_h >= grid.page_w
    return "x" if (duplex == "long") == portrait else "y"


ALIGNMENT_POINTS = ((0.5, 0.5), (0.25, 0.25), (0.75, 0.75))
"""Where the alignment page's rulers sit, as fractions of the page."""
CROSS = Paint(stroke="#d7263d", width=0.35)
"""The back's crosses on the alignment page."""
RULER = Paint(stroke=REGISTRATION, width=0.15)
"""The alignment page's rulers and texts print in registration colour (every ink, on a print shop's press)."""
RULER_LABEL: Mm = 2.2


def alignment_pages(grid: CardGrid, axis: str, offset: tuple[Mm, Mm],
                    labels: Mapping[str, str] | None = None) -> tuple[Page, Page]:
    """A duplex test: rulers on the front, a cross on the back behind each ruler's centre.

    Printed double-sided and held against the light with the front towards you, each red cross sits off its
    ruler's centre by what the printer shifts the backs (X right, Y down, in mm): pass that as --back-offset.
    The back's crosses are moved like every back (back_shift), so a rebuilt page reads 0,0; one built with an
    offset says so, and that what it shows is to be added to that offset.
    """
    from printgen.measure import legible_lines

    if labels is None:
        from printgen.labels import catalogue

        labels = catalogue()
    w, h = grid.page_w, grid.page_h
    edge = max(grid.margin, PRINTER_MARGIN)
    width = w - 2 * edge - 10
    top = max(18.0, edge + 8.0)  # the title's baseline: 18 mm down, or further in for a wide printer margin
    title = labels["alignment_title"]
    front: list[Element] = [Text(w / 2, top, title, fit_size(title, "bold", 5.0, width), REGISTRATION, "bold",
                                 "middle")]
    y = top + 7.0
    rebuild = labels["alignment_rebuild"] if offset == (0, 0) else labels["alignment_rebuild_offset"].format(
        offset=f"{offset[0]:g},{offset[1]:g}")  # (its crosses are moved by it: what it shows is what is left over)
    for words in (labels["alignment_how"], labels["alignment_read"], rebuild):
        for line in legible_lines(words, 3.0, width, most=4, shrink=False):
            front.append(Text(w / 2, y, line, fit_size(line, "regular", 3.0, width), "#333333", "regular", "middle"))
            y += 4.5
    low_x, high_x = edge + RULER_REACH, w - edge - RULER_REACH
    low_y, high_y = max(edge, y - 2.0) + RULER_REACH, h - max(edge, 14.0) - RULER_REACH  # (the back's line)
    if low_x > high_x or low_y > high_y:
        raise UsageProblem(f"--alignment-page: its rulers and words do not fit inside the printer margin "
                           f"({grid.margin:g} mm) of this paper; a larger --paper or a smaller --printer-margin")
    points = [(min(max(w * fx, low_x), high_x), min(max(h * fy, low_y), high_y)) for fx, fy in ALIGNMENT_POINTS]
    for cx, cy in points:
        front += ruler(cx, cy)
    back: list[Element] = [Text(w / 2, h - max(14.0, edge + 6.0), labels["alignment_back"], 4.0, REGISTRATION,
                                "bold", "middle")]
    dx, dy = back_shift(axis, offset)
    for cx, cy in points:
        mx, my = (w - cx, cy) if axis == "x" else (cx, h - cy)
        mx, my = mx + dx, my + dy
        back += [Line(mx - 12, my, mx + 12, my, CROSS), Line(mx, my - 12, mx, my + 12, CROSS)]
    return Page(w, h, tuple(front)), Page(w, h, tuple(back))


RULER_REACH: Mm = 13.0
"""From a ruler's centre to the furthest its ticks and labels (X+10 ends 12.8 mm out) and the back's cross (12 mm
arms) reach."""


RULER_NEAR = 2
"""Steps (mm) either side of a ruler's centre whose ticks are short (NEAR_TICK), so the two scales never
cross there: the centre reads as a clean cross with small ticks on its arms, not a dense hash."""
NEAR_TICK: Mm = 0.8
TICK: Mm = 1.5
MAJOR_TICK: Mm = 2.5
"""Half lengths of a ruler's ticks: near the centre, elsewhere, every 5 mm."""
LINE_STEP = 1.2
"""How far apart, in their size, the rows of a ruler's X labels are: ±10 one row beyond ±5 (side by side they
were 0.3 mm apart and read as one)."""
LABEL_GAP: Mm = 0.7
"""From the end of a 5 mm tick to its label: each label sits just beyond its own tick, where the other scale's
ticks (at most MAJOR_TICK from its centre line) leave room for it."""


def ruler(cx: Mm, cy: Mm) -> list[Element]:
    """Two crossed 1 mm scales from -10 to +10 centred on (cx, cy), + right and down.

    Each label names its scale (X+5, Y−10) and the labels turn like a pinwheel (X: + above, − below; Y: −
    left, + right), so no label of one scale ever meets, or reads as, a label of the other; each X label sits
    just beyond its tick, clear of the Y scale's ticks, and near the centre the ticks are short so the scales
    do not cross.
    """
    elements: list[Element] = []
    for step in range(-10, 11):
        tick = MAJOR_TICK if step % 5 == 0 else (NEAR_TICK if abs(step) <= RULER_NEAR else TICK)
        elements.append(Line(cx + step, cy - tick, cx + step, cy + tick, RULER))
        elements.append(Line(cx - tick, cy + step, cx + tick, cy + step, RULER))
        if step % 5 == 0 and step:
            value = f"{step:+d}".replace("-", "−")
            off = MAJOR_TICK + LABEL_GAP
            away = off + (LINE_STEP * RULER_LABEL if abs(step) == 10 else 0.0)  # (a row further out than ±5's)
            x_label_y = cy - away if step > 0 else cy + away + cap_height("regular") * RULER_LABEL
            elements.append(Text(cx + step, x_label_y, f"X{value}", RULER_LABEL, REGISTRATION, "regular", "middle"))
            y_label = cy + step + 0.375 * RULER_LABEL
            label = f"Y{value}"
            elements.append(Text(cx + off, y_label, label, RULER_LABEL, REGISTRATION, "regular", "start") if step > 0
                            else Text(cx - off, y_label, label, RULER_LABEL, REGISTRATION, "regular", "end"))
    return elements
