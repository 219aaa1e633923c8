"""Card imposition: how many fit, bleeds that never cover a neighbour, crop marks outside, mirrored backs."""

from __future__ import annotations

import pytest

from printgen.errors import UsageProblem
from printgen.page import Paint, Rect, Symbol
from printgen.printing.card_grid import (
    MARK,
    card_pages,
    card_size,
    crop_marks,
    mirror_axis,
    plan_cards,
)
from printgen.printing.paper import paper_size
from printgen.render.recording import record

POKER = (63.5, 88.9)


@pytest.mark.parametrize("paper, cols, rows", [("a4", 3, 3), ("letter", 4, 2)])
def test_poker_cards_on_a4_and_letter(paper: str, cols: int, rows: int) -> None:
    """3 x 3 fit A4 with their bleed and crop marks inside the 5 mm printer margin; on Letter 3 x 3 would
    leave 6.35 mm at the top, too little for bleed and marks, so 4 x 2 landscape wins."""
    grid = plan_cards(paper_size(paper), POKER, 3.0, 0.0, paper)
    assert (grid.cols, grid.rows) == (cols, rows)
    for i in range(grid.per_page):
        x0, y0, x1, y1 = grid.visible(i)
        assert x0 >= 5 and y0 >= 5 and x1 <= grid.page_w - 5 and y1 <= grid.page_h - 5


def test_block_is_centred() -> None:
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4")
    left, right = grid.trim(0)[0], grid.page_w - grid.trim(2)[2]
    assert abs(left - right) < 1e-9


def test_bleeds_show_outside_and_never_over_a_neighbour() -> None:
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 2.0, "a4")
    assert grid.visible(0)[0] == grid.trim(0)[0] - 3.0  # outer edge: full bleed
    assert grid.visible(0)[2] == grid.trim(0)[2] + 1.0  # inner edge: half the gap
    for i in range(grid.per_page):
        for j in range(grid.per_page):
            if i != j:
                a, t = grid.visible(i), grid.trim(j)
                assert not (a[0] < t[2] and t[0] < a[2] and a[1] < t[3] and t[1] < a[3])


def test_crop_marks_lie_outside_every_bleed_and_on_the_page() -> None:
    for gap in (0.0, 4.0):
        grid = plan_cards(paper_size("letter"), POKER, 3.0, gap, "letter")
        marks = crop_marks(grid, grid.per_page)
        assert len(marks) >= 12
        for mark in marks:
            x0, y0, x1, y1 = mark.bounds()
            assert x0 >= 0 and y0 >= 0 and x1 <= grid.page_w and y1 <= grid.page_h
            for i in range(grid.per_page):
                v = grid.visible(i)
                assert not (x0 < v[2] and v[0] < x1 and y0 < v[3] and v[1] < y1), (mark, v)


def test_art_is_clipped_to_the_visible_bleed() -> None:
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4")
    face = Symbol("f", 69.5, 94.9, (Rect(0, 0, 69.5, 94.9, Paint(fill="#ff0000")),))
    page = next(card_pages([face] * 9, grid, marks=False))
    rects = [d.bounds for d in record(page)]
    assert rects == [grid.visible(i) for i in range(9)]


@pytest.mark.parametrize("duplex, axis", [("long", "x"), ("short", "y")])
def test_backs_are_mirrored_for_the_flip(duplex: str, axis: str) -> None:
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4")
    assert mirror_axis(duplex, grid) == axis
    faces = [Symbol(f"b{i}", 69.5, 94.9, (Rect(0, 0, 69.5, 94.9, Paint(fill="#000000")),)) for i in range(9)]
    page = next(card_pages(faces, grid, marks=True, mirror=axis, offset=(0.5, -1.0)))
    placed = [e for e in page.elements if getattr(e, "symbol", None) is not None]
    for index, use in enumerate(placed):
        _x0, y0, x1, y1 = grid.trim(index)
        if axis == "x":
            assert use.x + 3.0 == pytest.approx(grid.page_w - x1 + 0.5)
            assert use.y + 3.0 == pytest.approx(y0 + 1.0)  # a shift seen from the front: y runs the same way
        else:
            assert use.y + 3.0 == pytest.approx(grid.page_h - y1 - 1.0)
    assert all(getattr(e, "paint", None) != MARK for e in page.elements)  # no crop marks on backs


def test_print_shop_pages_hold_one_card_with_boxes() -> None:
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4", per_page=1)
    face = Symbol("f", 69.5, 94.9, ())
    page = next(card_pages([face], grid, marks=True))
    assert page.trim is not None and page.bleed is not None
    assert page.trim[2] - page.trim[0] == pytest.approx(63.5)
    assert page.bleed[0] == pytest.approx(page.trim[0] - 3.0)


@pytest.mark.parametrize("text, size", [("poker", POKER), ("bridge", (57.15, 88.9)), ("60x90", (60.0, 90.0)),
                                        ("44 x 63", (44.0, 63.0))])
def test_card_sizes(text: str, size: tuple[float, float]) -> None:
    assert card_size(text) == size


@pytest.mark.parametrize("text", ["huge", "10x10", "60x", "x90"])
def test_bad_card_sizes(text: str) -> None:
    with pytest.raises(UsageProblem, match="--card-size"):
        card_size(text)


def test_card_too_large_for_the_paper() -> None:
    with pytest.raises(UsageProblem, match="--card-size: 250 x 300 mm cards do not fit a4"):
        plan_cards(paper_size("a4"), (250.0, 300.0), 3.0, 0.0, "a4")


@pytest.mark.parametrize("bleed", [-1.0, 10.5])
def test_bad_bleed(bleed: float) -> None:
    with pytest.raises(UsageProblem, match="--bleed"):
        plan_cards(paper_size("a4"), POKER, bleed, 0.0, "a4")
