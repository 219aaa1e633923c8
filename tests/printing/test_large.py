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
    with pytest.raises(UsageProblem, match=r"--tile: a 206 x 286 mm field with its 12 mm overlap \(218 x 298 mm\) does "
                                           r"not fit one a4 tile \(about 190 x 267 mm inside its margins\)"):
        tile_pages(BOARD, "a4", (206.0, 286.0))


@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_every_alignment_cross_has_its_partner_on_the_neighbouring_tile(paper: str) -> None:
    """Crosses lie in the margins, never on the artwork (so the finished board shows none: the margins are cut
    away at the board's edge and at each tile's cut right and bottom edges, or covered by the neighbour laid
    over the left and top glue strips), inside the printable area and clear of the label; each sits on a
    seam's line — at the cut edge of the tile laid on top, at the dashed line of the tile under it — and has
    its partner at the same board point on the neighbouring tile."""
    from collections import Counter

    from printgen.page import Use
    from printgen.printing.large import CROSS, CUT, PRINTABLE

    pages = tile_pages(BOARD, paper, (69.5, 94.9))
    seen: Counter[tuple[float, float]] = Counter()
    for page in pages:
        (board,) = [e for e in page.elements if isinstance(e, Use)]
        lines = [e for e in page.elements if getattr(e, "paint", None) == CROSS]
        dashed = [e for e in page.elements if getattr(e, "paint", None) == CUT]
        texts = [d.bounds for d in record(page) if d.kind == "text"]
        x0, y0, x1, y1 = board.clip or (0, 0, 0, 0)
        seams_x = {round(x1, 3)} | {round(d.x1, 3) for d in dashed if d.x1 == d.x2}
        seams_y = {round(y1, 3)} | {round(d.y1, 3) for d in dashed if d.y1 == d.y2}
        assert lines
        for line in lines:
            bx0, by0, bx1, by1 = line.bounds()
            assert bx1 <= x0 or bx0 >= x1 or by1 <= y0 or by0 >= y1, "a cross on the artwork"
            assert min(bx0, by0, page.width - bx1, page.height - by1) >= PRINTABLE
            assert all(bx1 <= t[0] or bx0 >= t[2] or by1 <= t[1] or by0 >= t[3] for t in texts)
        centres = {(round((ln.x1 + ln.x2) / 2, 3), round((ln.y1 + ln.y2) / 2, 3)) for ln in lines}
        for cx, cy in centres:
            assert cx in seams_x or cy in seams_y, (cx, cy, seams_x, seams_y)
        seen.update((round(cx - board.x, 3), round(cy - board.y, 3)) for cx, cy in centres)
    assert seen and all(count == 2 for count in seen.values()), seen


@pytest.mark.parametrize(("paper", "printable", "lang"), [("a5", 5.0, "de"), ("a5", 5.0, "en"), ("a4", 8.0, "pl"),
                                                          ("letter", 12.0, "fr")])
def test_a_tiles_label_and_crosses_keep_the_printers_margin_and_the_smallest_text(paper: str, printable: float,
                                                                                 lang: str) -> None:
    """On A5 the label shrank to 4.3 pt to fit two lines; with --printer-margin 8 the crosses lay 5.25 mm and the
    label 5 mm from the paper's edge."""
    from printgen.labels import catalogue
    from printgen.measure import MIN_TEXT_PT
    from printgen.page import PT_PER_MM

    pages = tile_pages(BOARD, paper, (69.5, 94.9), f"One to 9: {catalogue(lang)['tile']}", max(10.0, printable),
                       printable)
    for page in pages:
        drawn = record(page)
        texts = [d for d in drawn if d.kind == "text"]
        assert min(d.size for d in texts) * PT_PER_MM >= MIN_TEXT_PT - 1e-6
        for d in drawn:
            x0, y0, x1, y1 = d.bounds
            assert min(x0, y0, page.width - x1, page.height - y1) >= printable - 1e-6
        crosses_top = min(d.bounds[1] for d in drawn if d.kind == "line")
        assert max(d.bounds[3] for d in texts) < crosses_top  # the label's lines end above the crosses


def test_tiling_a_board_that_fits_the_paper_whole_is_refused() -> None:
    with pytest.raises(UsageProblem, match="^--tile: the board .* fits one a0 page whole: leave out --tile"):
        tile_pages(BOARD, "a0", (69.5, 94.9))
