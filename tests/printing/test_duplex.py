"""Duplex correction as paper behaves: a printer shifts the backs, a person reads the alignment page, the
rebuilt deck puts every back behind its front within 0.1 mm, for long and short flips on A4 and Letter."""

from __future__ import annotations

import pytest

from printgen.page import Page, Paint, Rect, Symbol, Use
from printgen.printing.card_grid import (
    ALIGNMENT_POINTS,
    CROSS,
    CardGrid,
    alignment_pages,
    card_pages,
    mirror_axis,
    plan_cards,
)
from printgen.printing.paper import paper_size
from printgen.render.recording import record

POKER = (63.5, 88.9)
SHIFTS = [(0.8, 1.2), (-1.3, 0.6), (1.9, -1.7), (0.0, 0.0)]
"""How far test printers move the back side, on the back page itself (its own x right, y down), in mm."""


def seen_from_front(point: tuple[float, float], grid: CardGrid, axis: str,
                    shift: tuple[float, float]) -> tuple[float, float]:
    """Where a point drawn on the back page lands, seen looking at the front, after the printer's shift."""
    x, y = point[0] + shift[0], point[1] + shift[1]
    return (grid.page_w - x, y) if axis == "x" else (x, grid.page_h - y)


def cross_centres(page: Page) -> list[tuple[float, float]]:
    """The centres of the alignment crosses on a back page (where their two lines meet)."""
    lines = [d for d in record(page) if d.kind == "line" and d.fill == CROSS.stroke]
    across = [d.bounds for d in lines if d.bounds[2] - d.bounds[0] > d.bounds[3] - d.bounds[1]]
    return [((x0 + x1) / 2, (y0 + y1) / 2) for x0, y0, x1, y1 in across]


def read_rulers(grid: CardGrid, axis: str, shift: tuple[float, float], offset: tuple[float, float]) -> tuple[float, float]:
    """What a person reads on the printed alignment page: each back cross against its front ruler, to 0.1 mm."""
    _front, back = alignment_pages(grid, axis, offset)
    centres = [seen_from_front(c, grid, axis, shift) for c in cross_centres(back)]
    readings = []
    for fx, fy in ALIGNMENT_POINTS:
        rx, ry = grid.page_w * fx, grid.page_h * fy
        cx, cy = min(centres, key=lambda c: (c[0] - rx) ** 2 + (c[1] - ry) ** 2)
        readings.append((round(cx - rx, 1), round(cy - ry, 1)))
    assert len({r for r in readings}) == 1, readings  # a uniform shift reads the same on every ruler
    return readings[0]


def placed_trims(page: Page, bleed: float) -> list[tuple[float, float]]:
    return [(e.x + bleed, e.y + bleed) for e in page.elements if isinstance(e, Use)]


@pytest.mark.parametrize("shift", SHIFTS)
@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_correction_round_puts_every_back_behind_its_front(paper: str, duplex: str,
                                                               shift: tuple[float, float]) -> None:
    grid = plan_cards(paper_size(paper), POKER, 3.0, 0.0, paper)
    axis = mirror_axis(duplex, grid)
    reading = read_rulers(grid, axis, shift, (0.0, 0.0))
    faces = [Symbol(f"c{i}", 69.5, 94.9, (Rect(0, 0, 69.5, 94.9, Paint(fill="#000000")),)) for i in range(grid.per_page)]
    fronts = placed_trims(next(card_pages(faces, grid, marks=False)), 3.0)
    for offset, limit in ((reading, 0.1), ((0.0, 0.0), None)):
        backs = next(card_pages(faces, grid, marks=False, mirror=axis, offset=offset))
        errors = []
        for (bx, by), (fx, fy) in zip(placed_trims(backs, 3.0), fronts):
            # the back's trim corner that lands on the front's top-left corner
            corner = (bx + POKER[0], by) if axis == "x" else (bx, by + POKER[1])
            seen = seen_from_front(corner, grid, axis, shift)
            errors.append(max(abs(seen[0] - fx), abs(seen[1] - fy)))
        if limit is not None:
            assert max(errors) < limit, (reading, errors)
        elif shift != (0.0, 0.0):
            assert max(errors) > 0.5  # uncorrected, the shift shows
    assert read_rulers(grid, axis, shift, reading) == (0.0, 0.0)  # the rebuilt alignment page reads 0,0


def test_the_reading_is_the_shift_seen_from_the_front() -> None:
    """X right and Y down as seen looking at the front: a long-edge flip turns the back's x around."""
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4")
    assert read_rulers(grid, "x", (0.8, 1.2), (0.0, 0.0)) == (-0.8, 1.2)
    assert read_rulers(grid, "y", (0.8, 1.2), (0.0, 0.0)) == (0.8, -1.2)


def test_an_alignment_page_built_with_an_offset_says_to_add_what_it_shows_to_it() -> None:
    """Its crosses are moved by the offset, so it shows what is left over: told to build again with what it
    read, a person checking a second time threw the first correction away."""
    from printgen.page import Text

    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4")
    words = {offset: " ".join(e.text for e in alignment_pages(grid, "x", offset)[0].elements if isinstance(e, Text))
             for offset in ((0.0, 0.0), (5.0, -0.5))}
    assert "Then build again with --back-offset X,Y." in words[(0.0, 0.0)]
    assert "--back-offset 5,-0.5: add X,Y to it" in words[(5.0, -0.5)] and "Then build" not in words[(5.0, -0.5)]
