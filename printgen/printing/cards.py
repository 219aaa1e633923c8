"""Card imposition: card faces (drawn with bleed), a paper and print options in, front and back pages out.

Cards sit in a centred grid, trims at least 5 mm from the paper edge, `gap`
mm apart. Each face is one Symbol of the card plus its bleed, placed with a
clip: the full bleed shows at the block's outer edges, half the gap (at most
the bleed) between neighbours, so no card's art covers another's. Crop marks
are short lines outside the bleed, never lines around a card. Back pages
mirror the positions (columns for a long-edge flip of a portrait page, rows
for a short-edge flip) so every back lands behind its own front, shifted by
the printer's measured offset if given.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from printgen.errors import UsageProblem
from printgen.page import REGISTRATION, Box, Element, Line, Mm, Page, Paint, Symbol, Text, Use

CARD_SIZES: dict[str, tuple[Mm, Mm]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini": (44.0, 63.0),
}
CARD_MARGIN: Mm = 5.0
"""Least distance from a card's trim to the paper edge."""
MAX_BLEED: Mm = 10.0
MARK = Paint(stroke=REGISTRATION, width=0.09)
"""Crop marks: hairlines (about 0.25 pt)."""
MARK_OFFSET: Mm = 1.0
MARK_LENGTH: Mm = 4.0
SLUG: Mm = 10.0
"""Print-shop pages (one card each): room around the bleed for the crop marks."""
DUPLEX = ("long", "short", "off")


def card_size(text: str) -> tuple[Mm, Mm]:
    """The (width, height) in mm of a card size name or "WxH" in mm."""
    if text.lower() in CARD_SIZES:
        return CARD_SIZES[text.lower()]
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*", text)
    if not match:
        raise UsageProblem(f"--card-size: {text!r} is not {', '.join(CARD_SIZES)} or WxH in mm (e.g. 60x90)")
    width, height = float(match[1]), float(match[2])
    if not (20 <= width <= 300 and 20 <= height <= 300):
        raise UsageProblem(f"--card-size: {width:g} x {height:g} mm is outside 20..300 mm")
    return width, height


def back_offset(text: str) -> tuple[Mm, Mm]:
    """The "X,Y" back offset in mm."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        raise UsageProblem(f"--back-offset: {text!r} is not two numbers X,Y in mm (e.g. 0.5,-1)") from None
    if abs(x) > 20 or abs(y) > 20:
        raise UsageProblem(f"--back-offset: {text!r} is more than 20 mm; measure again with --alignment-page")
    return x, y


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

    def visible(self, index: int) -> Box:
        """The part of slot `index`'s bleed that may show: all of it outside, half the gap inside."""
        row, col = divmod(index, self.cols)
        inner = min(self.bleed, self.gap / 2)
        x0, y0, x1, y1 = self.trim(index)
        return (
            x0 - (self.bleed if col == 0 else inner),
            y0 - (self.bleed if row == 0 else inner),
            x1 + (self.bleed if col == self.cols - 1 else inner),
            y1 + (self.bleed if row == self.rows - 1 else inner),
        )


def plan_cards(paper: tuple[Mm, Mm], card: tuple[Mm, Mm], bleed: Mm, gap: Mm, paper_name: str,
               per_page: int | None = None) -> CardGrid:
    """The grid that puts the most cards on a page of `paper` (portrait wins a tie); `per_page` caps it."""
    if not 0 <= bleed <= MAX_BLEED:
        raise UsageProblem(f"--bleed: {bleed:g} mm is outside 0..{MAX_BLEED:g} mm")
    if not 0 <= gap <= 50:
        raise UsageProblem(f"--gap: {gap:g} mm is outside 0..50 mm")
    w, h = card
    if per_page == 1:
        return CardGrid(w + 2 * (bleed + SLUG), h + 2 * (bleed + SLUG), 1, 1, w, h, bleed, gap)
    best: CardGrid | None = None
    short, long = sorted(paper)
    for page_w, page_h in ((short, long), (long, short)):
        cols = int((page_w - 2 * CARD_MARGIN + gap) // (w + gap))
        rows = int((page_h - 2 * CARD_MARGIN + gap) // (h + gap))
        if cols < 1 or rows < 1:
            continue
        if per_page is not None:
            while cols * rows > per_page:
                if cols >= rows and cols > 1:
                    cols -= 1
                else:
                    rows -= 1
        if best is None or cols * rows > best.per_page:
            best = CardGrid(page_w, page_h, cols, rows, w, h, bleed, gap)
    if best is None:
        raise UsageProblem(f"--card-size: {w:g} x {h:g} mm cards do not fit {paper_name} "
                           f"with {CARD_MARGIN:g} mm margins")
    return best


def crop_marks(grid: CardGrid, filled: int) -> list[Element]:
    """Hairline marks on every cut line, outside the bleed of the block, kept on the page."""
    trims = [grid.trim(i) for i in range(filled)]
    visible = [grid.visible(i) for i in range(filled)]
    top, bottom = min(v[1] for v in visible), max(v[3] for v in visible)
    left, right = min(v[0] for v in visible), max(v[2] for v in visible)
    xs = sorted({round(x, 4) for t in trims for x in (t[0], t[2])})
    ys = sorted({round(y, 4) for t in trims for y in (t[1], t[3])})
    marks: list[Element] = []
    for x in xs:
        marks += _mark_pair(x, top, bottom, grid.page_h, vertical=True)
    for y in ys:
        marks += _mark_pair(y, left, right, grid.page_w, vertical=False)
    return marks


def _mark_pair(at: Mm, start: Mm, end: Mm, limit: Mm, vertical: bool) -> list[Element]:
    lines: list[Element] = []
    near = start - MARK_OFFSET
    far = end + MARK_OFFSET
    for a, b in ((max(0.3, near - MARK_LENGTH), near), (far, min(limit - 0.3, far + MARK_LENGTH))):
        if b - a >= 1.0:
            lines.append(Line(at, a, at, b, MARK) if vertical else Line(a, at, b, at, MARK))
    return lines


def card_pages(faces: list[Symbol], grid: CardGrid, marks: bool, mirror: str | None = None,
               offset: tuple[Mm, Mm] = (0.0, 0.0)) -> Iterator[Page]:
    """Pages of `faces` (each with its bleed around the trim) in `grid`; `mirror` "x" or "y" for backs."""
    for start in range(0, len(faces), grid.per_page):
        batch = faces[start : start + grid.per_page]
        elements: list[Element] = []
        for index, face in enumerate(batch):
            trim, clip = grid.trim(index), grid.visible(index)
            if mirror is not None:
                trim, clip = _mirrored(trim, grid, mirror, offset), _mirrored(clip, grid, mirror, offset)
            elements.append(Use(face, trim[0] - grid.bleed, trim[1] - grid.bleed, 1.0, clip))
        if marks and mirror is None:
            elements += crop_marks(grid, len(batch))
        yield _page(grid, elements)


def _page(grid: CardGrid, elements: list[Element]) -> Page:
    if grid.per_page == 1:
        x0, y0, x1, y1 = grid.trim(0)
        b = grid.bleed
        return Page(grid.page_w, grid.page_h, tuple(elements), trim=(x0, y0, x1, y1),
                    bleed=(x0 - b, y0 - b, x1 + b, y1 + b))
    return Page(grid.page_w, grid.page_h, tuple(elements))


def _mirrored(box: Box, grid: CardGrid, axis: str, offset: tuple[Mm, Mm]) -> Box:
    x0, y0, x1, y1 = box
    if axis == "x":
        x0, x1 = grid.page_w - x1, grid.page_w - x0
    else:
        y0, y1 = grid.page_h - y1, grid.page_h - y0
    dx, dy = offset
    return (x0 + dx, y0 + dy, x1 + dx, y1 + dy)


def mirror_axis(duplex: str, grid: CardGrid) -> str:
    """The axis backs are mirrored on: a long-edge flip turns a portrait page about its vertical axis."""
    portrait = grid.page_h >= grid.page_w
    return "x" if (duplex == "long") == portrait else "y"


def alignment_pages(grid: CardGrid, axis: str, offset: tuple[Mm, Mm]) -> tuple[Page, Page]:
    """A duplex test: rulers on the front, crosshairs on the back at the mirrored points.

    Printed double-sided and held against the light, each crosshair shows on
    its ruler how far the printer shifts the back: pass that as --back-offset.
    """
    w, h = grid.page_w, grid.page_h
    points = [(w / 2, h / 2), (w * 0.25, h * 0.25), (w * 0.75, h * 0.75)]
    ink = Paint(stroke=REGISTRATION, width=0.15)
    front: list[Element] = [
        Text(w / 2, 18.0, "printgen duplex alignment page", 5.0, REGISTRATION, "bold", "middle"),
        Text(w / 2, 25.0, "Print double-sided at 100 %, hold against the light, read where each back cross", 3.0,
             "#333333", "regular", "middle"),
        Text(w / 2, 29.5, "meets the scales (mm, + right/down), then build with --back-offset X,Y.", 3.0,
             "#333333", "regular", "middle"),
    ]
    for cx, cy in points:
        front += _ruler(cx, cy, ink)
    back: list[Element] = [Text(w / 2, h - 14.0, "back of the alignment page", 4.0, REGISTRATION, "bold", "middle")]
    for cx, cy in points:
        mx, my = (w - cx, cy) if axis == "x" else (cx, h - cy)
        mx, my = mx + offset[0], my + offset[1]
        heavy = Paint(stroke="#d7263d", width=0.35)
        back += [Line(mx - 12, my, mx + 12, my, heavy), Line(mx, my - 12, mx, my + 12, heavy)]
    return Page(w, h, tuple(front)), Page(w, h, tuple(back))


def _ruler(cx: Mm, cy: Mm, paint: Paint) -> list[Element]:
    elements: list[Element] = []
    for step in range(-10, 11):
        tick = 3.0 if step % 5 == 0 else 1.6
        elements.append(Line(cx + step, cy - tick, cx + step, cy + tick, paint))
        elements.append(Line(cx - tick, cy + step, cx + tick, cy + step, paint))
        if step % 5 == 0 and step:
            elements.append(Text(cx + step, cy - 4.0, f"{step:+d}", 2.2, REGISTRATION, "regular", "middle"))
            elements.append(Text(cx + 4.5, cy + step + 0.8, f"{step:+d}", 2.2, REGISTRATION, "regular", "start"))
    return elements
