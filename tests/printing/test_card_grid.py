"""Card imposition: how many fit, bleeds that never cover a neighbour, crop marks outside, mirrored backs."""

from __future__ import annotations

import pytest

from printgen.errors import UsageProblem
from printgen.page import Paint, Rect, Symbol
from printgen.printing.card_grid import (
    CARD_SIZES,
    MARK,
    MIN_MARK,
    MIN_OWN_BLEED,
    CardGrid,
    card_pages,
    card_size,
    crop_marks,
    mirror_axis,
    plan_cards,
)
from printgen.printing.paper import paper_size
from printgen.render.recording import record

POKER = (63.5, 88.9)


@pytest.mark.parametrize("paper, gap, cols, rows, landscape, chosen", [
    ("a4", None, 4, 2, True, 6.0), ("letter", None, 4, 2, True, 2.3),
    ("a4", 0.0, 3, 3, False, 0.0), ("letter", 0.0, 4, 2, True, 0.0)])
def test_poker_cards_on_a4_and_letter(paper: str, gap: float | None, cols: int, rows: int, landscape: bool,
                                      chosen: float) -> None:
    """By default each card gets its own bleed: on A4 3 x 3 would leave room for a gap of 0.7 mm only, so
    4 x 2 landscape with a 6 mm gap (twice the bleed) wins; on Letter 4 x 2 with the widest gap that fits.
    With --gap 0, 3 x 3 fit A4 with their bleed and crop marks inside the 5 mm printer margin; on Letter 3 x 3
    would leave 6.35 mm at the top, too little for bleed and marks, so 4 x 2 landscape wins."""
    grid = plan_cards(paper_size(paper), POKER, 3.0, gap, paper)
    assert (grid.cols, grid.rows, grid.page_w > grid.page_h) == (cols, rows, landscape)
    assert grid.gap == pytest.approx(chosen)
    for i in range(grid.per_page):
        x0, y0, x1, y1 = grid.visible(i)
        assert x0 >= 5 and y0 >= 5 and x1 <= grid.page_w - 5 and y1 <= grid.page_h - 5


GRIDS = [(paper, size, gap, per_page) for paper in ("a4", "letter", "a3", "a5", "legal", "tabloid") for size in CARD_SIZES
         for gap in (None, 0.0, 2.0) for per_page in (None, 4, 6)]


def _grid(paper: str, size: str, gap: float | None, per_page: int | None) -> CardGrid:
    return plan_cards(paper_size(paper), CARD_SIZES[size], 3.0, gap, paper, per_page)


@pytest.mark.parametrize("paper, size, gap, per_page", GRIDS)
def test_every_cut_line_has_a_crop_mark_at_both_ends(paper: str, size: str, gap: float | None,
                                                     per_page: int | None) -> None:
    """Each edge of every card is a cut line; each cut line gets a solid hairline at both ends, outside every
    card's bleed, at least MIN_MARK long and inside the printer margin — on every paper and grid, the default
    (9-up on A4 with --gap 0) included; half-full last pages too."""
    grid = _grid(paper, size, gap, per_page)
    for filled in {grid.per_page, max(1, grid.per_page - grid.cols - 1)}:
        marks = crop_marks(grid, filled)
        assert marks and all(m.paint == MARK and m.paint.dash is None for m in marks)
        trims = [grid.trim(i) for i in range(filled)]
        verticals = sorted({round(x, 6) for t in trims for x in (t[0], t[2])})
        horizontals = sorted({round(y, 6) for t in trims for y in (t[1], t[3])})
        assert len(marks) == 2 * (len(verticals) + len(horizontals)), (len(marks), verticals, horizontals)
        for x in verticals:
            on = [m for m in marks if m.x1 == m.x2 and abs(m.x1 - x) < 1e-6]
            block = [grid.visible(i) for i, t in enumerate(trims) if abs(t[0] - x) < 1e-6 or abs(t[2] - x) < 1e-6]
            assert len(on) == 2, (x, on)
            assert min(max(m.y1, m.y2) for m in on) <= min(v[1] for v in block)
            assert max(min(m.y1, m.y2) for m in on) >= max(v[3] for v in block)
        for y in horizontals:
            on = [m for m in marks if m.y1 == m.y2 and abs(m.y1 - y) < 1e-6]
            block = [grid.visible(i) for i, t in enumerate(trims) if abs(t[1] - y) < 1e-6 or abs(t[3] - y) < 1e-6]
            assert len(on) == 2, (y, on)
            assert min(max(m.x1, m.x2) for m in on) <= min(v[0] for v in block)
            assert max(min(m.x1, m.x2) for m in on) >= max(v[2] for v in block)
        for mark in marks:
            x0, y0, x1, y1 = mark.bounds()
            assert max(x1 - x0, y1 - y0) >= MIN_MARK - 1e-6 + MARK.width
            assert x0 >= grid.margin - 1e-9 and y0 >= grid.margin - 1e-9
            assert x1 <= grid.page_w - grid.margin + 1e-9 and y1 <= grid.page_h - grid.margin + 1e-9
            for i in range(filled):
                v = grid.visible(i)
                assert not (x0 < v[2] and v[0] < x1 and y0 < v[3] and v[1] < y1), (mark, v)


@pytest.mark.parametrize("paper, size, per_page", [(p, s, n) for p, s, g, n in GRIDS if g is None])
def test_by_default_each_card_has_its_own_bleed(paper: str, size: str, per_page: int | None) -> None:
    """A cut a little off the line shows the card's own colour: no card's visible art reaches another's trim, and
    each keeps at least MIN_OWN_BLEED of its own all round (A4 and Letter: the whole 3 mm where the paper allows
    it), the later of two neighbours covering the earlier's only over their `seam` past the gap's middle."""
    grid = _grid(paper, size, None, per_page)
    assert grid.gap >= 2 * MIN_OWN_BLEED - 1e-9
    for i in range(grid.per_page):
        v, t = grid.visible(i), grid.trim(i)
        row, col = divmod(i, grid.cols)
        inner = (col > 0, row > 0, col < grid.cols - 1, row < grid.rows - 1)  # (a neighbour's art may cover `seam`)
        shown = (t[0] - v[0], t[1] - v[1], v[2] - t[2], v[3] - t[3])
        assert min(s - 2 * grid.seam * n for s, n in zip(shown, inner)) >= MIN_OWN_BLEED - 1e-9
        for j in range(grid.per_page):
            w = grid.trim(j)
            assert i == j or not (v[0] < w[2] - 1e-9 and w[0] < v[2] - 1e-9 and v[1] < w[3] - 1e-9 and
                                  w[1] < v[3] - 1e-9)


def test_gap_zero_keeps_nine_poker_cards_on_a4_with_every_mark() -> None:
    """The issue's count: 3 x 3 at --gap 0 has 4 vertical and 4 horizontal cut lines, 8 + 8 marks."""
    grid = plan_cards(paper_size("a4"), POKER, 3.0, 0.0, "a4")
    marks = crop_marks(grid, 9)
    assert sum(m.x1 == m.x2 for m in marks) == 8 and sum(m.y1 == m.y2 for m in marks) == 8


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
    for gap in (0.0, 4.0, None):
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
    back = next(card_pages([face], grid, marks=True, mirror="x"))  # a shop cuts from either side: the same marks
    marks = [e for e in page.elements if getattr(e, "paint", None) == MARK]
    assert marks and [e for e in back.elements if getattr(e, "paint", None) == MARK] == marks


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


def test_alignment_rulers_read_cleanly() -> None:
    """No X label sits on a tick of the Y scale (or the other way round), and apart from the two centre lines
    no tick of one scale crosses a tick of the other: the centre is a clean cross, not a dense hash."""
    from printgen.page import Line, Text
    from printgen.printing.card_grid import ruler

    elements = ruler(100.0, 100.0)
    lines = [e for e in elements if isinstance(e, Line)]
    labels = [e.bounds() for e in elements if isinstance(e, Text)]
    assert len(labels) == 8
    for x0, y0, x1, y1 in labels:
        for line in lines:
            lx0, ly0, lx1, ly1 = line.bounds()
            assert lx1 <= x0 or lx0 >= x1 or ly1 <= y0 or ly0 >= y1, ((x0, y0, x1, y1), line)
    upright = [ln for ln in lines if ln.x1 == ln.x2 and ln.x1 != 100.0]
    level = [ln for ln in lines if ln.y1 == ln.y2 and ln.y1 != 100.0]
    for a in upright:
        for b in level:
            crossing = min(b.x1, b.x2) <= a.x1 <= max(b.x1, b.x2) and min(a.y1, a.y2) <= b.y1 <= max(a.y1, a.y2)
            assert not crossing, (a, b)


@pytest.mark.parametrize(("paper", "margin", "lang"), [("a5", 30.0, "en"), ("a5", 30.0, "pl"), ("a5", 12.0, "de"), ("a4", 15.0, "pl"),
                                                        ("a4", 5.0, "fr")])
def test_the_alignment_page_keeps_the_printers_margin_and_the_smallest_text(paper: str, margin: float,
                                                                            lang: str) -> None:
    """With --printer-margin 30 on A5 its rulers lay 24.5 mm from the edge and its words shrank to 5 pt."""
    from printgen.labels import catalogue
    from printgen.measure import MIN_TEXT_PT, clashes
    from printgen.page import PT_PER_MM
    from printgen.printing.card_grid import alignment_pages

    grid = plan_cards(paper_size(paper), card_size("poker"), 3.0, None, paper, None, margin, True)
    pages = alignment_pages(grid, mirror_axis("long", grid), (0.0, 0.0), catalogue(lang))
    for page in pages:
        drawn = record(page)
        assert min(d.size for d in drawn if d.kind == "text") * PT_PER_MM >= MIN_TEXT_PT - 1e-6
        assert min(min(d.bounds[0], d.bounds[1], page.width - d.bounds[2], page.height - d.bounds[3])
                   for d in drawn) >= margin - 1e-6
    assert clashes(pages[0]) == []
