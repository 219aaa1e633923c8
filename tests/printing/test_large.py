"""Large items: whole on a paper they fit (or an error naming the smallest that does), or tiled."""

from __future__ import annotations

import pytest

from printgen.errors import UsageProblem
from printgen.page import Item, Paint, Rect, Symbol
from printgen.printing.large import OVERLAP, smallest_paper, tile_pages, whole_page
from printgen.render.recording import record

BOARD = Item("board", Symbol("b", 751.0, 479.0, (Rect(0, 0, 751.0, 479.0, Paint(fill="#eeeeee")),)))


def test_smallest_paper() -> None:
    assert smallest_paper(BOARD) == "a1"


def test_whole_page_centres_at_full_size() -> None:
    page = whole_page(BOARD, "a1")
    assert (page.width, page.height) == (841.0, 594.0)
    (drawn,) = record(page)
    assert drawn.bounds == pytest.approx((45.0, 57.5, 796.0, 536.5))


def test_a_paper_too_small_names_the_smallest_that_fits() -> None:
    with pytest.raises(UsageProblem, match="does not fit a2 .* the smallest paper that fits is a1"):
        whole_page(BOARD, "a2")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tiles_cover_the_board_with_overlaps(paper: str) -> None:
    pages = tile_pages(BOARD, paper, (69.5, 94.9))
    assert len(pages) >= 6
    for page in pages:  # the art is clipped to the tile inside the page margins
        for drawn in record(page):
            if drawn.kind == "rect":
                x0, y0, x1, y1 = drawn.bounds
                assert x0 >= 10 - 1e-6 and y0 >= 10 - 1e-6
                assert x1 <= page.width - 10 + 1e-6 and y1 <= page.height - 10 + 1e-6
    texts = [d.text for p in pages for d in record(p) if d.kind == "text"]
    assert any("Tile row 1, column 2" in t for t in texts)
    assert OVERLAP >= 10


def test_tiles_share_alignment_crosses() -> None:
    pages = tile_pages(BOARD, "a4", (69.5, 94.9))
    assert all(sum(1 for d in record(p) if d.kind == "line") >= 4 for p in pages)


def test_a_tile_must_hold_one_field() -> None:
    with pytest.raises(UsageProblem, match="--tile: a 206 x 286 mm field does not fit a a4 tile"):
        tile_pages(BOARD, "a4", (206.0, 286.0))
