"""What a print designer checks on every page (issue "Print polish II"): a free field in every Bonus B box,
sheets and the One to 9 pieces that play in black and white, a scoring reference that leads the eye, tokens
with bleed, and the small things (lock numbers, bonus fields under their columns, words that fit their stars)."""

from __future__ import annotations

import itertools
import math
from functools import partial

import pytest

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.builders.one_to_nine_pieces import (
    FIELD_SHAPE,
    STAR_CLEAR,
    TOKEN_BLEED,
    board_item,
    nine_front,
    reference_lines,
    token_items,
)
from printgen.builders.scoresheet import build_sheet
from printgen.colours import MIN_CONTRAST, legibility, luma
from printgen.fonts import cap_height, text_width
from printgen.kinds import BoardLayout, DeckLayout, ScoreSheetLayout, TokenLayout
from printgen.labels import catalogue, languages
from printgen.measure import MIN_FIELD_MM
from printgen.page import Circle, Group, Item, Path, Rect, Use
from printgen.printing.card_grid import CARD_SIZES
from printgen.render.recording import Drawn, record
from printgen.rules import one_to_nine

LANGUAGES = ("en", "it", "de", "pl", "fr")


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


def overlaps(a: tuple[float, ...], b: tuple[float, ...], by: float = 0.0) -> bool:
    return a[0] - by < b[2] and b[0] - by < a[2] and a[1] - by < b[3] and b[1] - by < a[3]


def test_every_language_is_checked() -> None:
    assert set(LANGUAGES) == set(languages())


# --- 3. Bonus B: a place to strike in every box ------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_bonus_b_box_has_a_free_field_of_7_mm_beside_its_text(lang: str) -> None:
    """Each of the five boxes holds a writable field of at least MIN_FIELD_MM that no word, badge or line of
    the box reaches (a cross there covers nothing), its text at 6.5 pt, and no line of it ending on a
    one-letter word (Polish: never a lone "z" or "w" at a line's end)."""
    layout = sheet("qwixx-bonus-b")
    geometry = sheet_geometry(layout)
    drawn = record(build_sheet(layout, lang).as_page())
    assert len(geometry.bonus_boxes) == len(geometry.bonus_panels) == 5
    for (x, y, w, h), panel in zip(geometry.bonus_boxes, geometry.bonus_panels):
        assert min(w, h) >= MIN_FIELD_MM
        field = (x, y, x + w, y + h)
        own = [d for d in drawn if d.writable and d.bounds[0] <= x <= d.bounds[0] + 0.5]
        assert own, "the field is drawn as a writable field"
        frame = (panel[0], panel[1], panel[0] + panel[2], panel[1] + panel[3])
        inside = [d for d in drawn if overlaps(d.bounds, frame) and d not in own
                  and not (d.kind == "rect" and d.bounds[0] <= frame[0] + 0.5 and d.bounds[2] >= frame[2] - 0.5)]
        texts = [d for d in inside if d.kind == "text" and d.text not in "ABCDE"]  # not the badge's letter
        assert texts, "the box has its rule text"
        for d in inside:
            assert not overlaps(d.bounds, field, 0.5), (lang, d)
        for d in texts:
            assert d.size * 72 / 25.4 >= 6.5 - 0.05, (lang, d.text, d.size)
            last = d.text.split()[-1]
            assert not (len(last) == 1 and last.isalpha()), (lang, d.text)


def test_the_filled_sheet_crosses_the_bonus_field_not_the_text() -> None:
    from printgen.builders.filled import marks
    from printgen.rules import qwixx

    layout = sheet("qwixx-bonus-b")
    geometry = sheet_geometry(layout)
    game = qwixx.Sheet("bonus-b")
    for index, row in enumerate(layout.rows):  # both fields of bonus A crossed: bonus A is won
        for number in row.numbers:
            if row.bonus_kind(number) == 1 and game.can_mark(index, number):
                game.mark(index, number)
                pending = game.pending
                if pending is not None:
                    game.choose(pending.rows[0])
    won = game.bonus_kinds()
    assert won
    lines = [e for e in marks(layout, game) if getattr(e, "paint", None) is not None and e.paint.width == 0.75]
    for kind in won:
        x, y, w, h = geometry.bonus_boxes[kind - 1]
        crossing = [ln for ln in lines if x <= min(ln.x1, ln.x2) and max(ln.x1, ln.x2) <= x + w
                    and y <= min(ln.y1, ln.y2) and max(ln.y1, ln.y2) <= y + h]
        assert len(crossing) == 2, kind


# --- 4. Black-and-white printers ---------------------------------------------------------------------------

SHEETS = [n for n in layouts.builtin_names() if layouts.load(n).kind == "score-sheet"]


@pytest.mark.parametrize("name", SHEETS)
def test_rows_and_segments_differ_by_40_in_grey(name: str) -> None:
    """Every band and segment a sheet prints, in grey, is at least 40 luma from every other colour's."""
    layout = sheet(name)
    greys = {colour: luma(layout.colour(colour)) for row in layout.rows for colour in row.cell_colours}
    assert len(greys) == 4
    for a, b in itertools.combinations(greys.values(), 2):
        assert abs(a - b) >= 40


def test_bonus_a_fields_carry_their_colour_shape_by_default_under_their_columns() -> None:
    """A pale bonus field is no cue in grey: each carries its colour's shape without --symbols; the twelve
    sit under the eleven number columns and the lock (the same pitch as the cells), labelled like the
    points table."""
    layout = sheet("qwixx-bonus-a")
    geometry = sheet_geometry(layout)
    art = build_sheet(layout).art
    shapes = [e for e in art.elements if isinstance(e, Use) and e.symbol.id.startswith("shape-")]
    assert len(shapes) == 12
    for (x, y, w, h), colour, shape in zip(geometry.bonus_row, layout.bonus_row, shapes):
        assert shape.symbol.id.startswith(f"shape-{colour}-")
        assert x <= shape.x and shape.x + shape.scale * 10 <= x + w
    row = geometry.rows[0]
    centres = [x + w / 2 for x, _, w, _ in geometry.bonus_row]
    cells = [x + side / 2 for x, _, side in row.cells] + [row.lock[0]]
    assert centres == pytest.approx(cells)
    drawn = record(build_sheet(layout).as_page())
    bonus = next(d for d in drawn if d.kind == "text" and d.text == "Bonus")
    crosses = next(d for d in drawn if d.kind == "text" and d.text == "Crosses")
    assert (bonus.fill, bonus.size) == (crosses.fill, pytest.approx(crosses.size))


@pytest.mark.parametrize("name", SHEETS)
def test_light_bands_give_the_arrow_a_dark_edge_and_total_boxes_a_dark_outline(name: str) -> None:
    """The white arrow on a yellow (or light green) band and each total box's outline stand out at 3:1."""
    layout = sheet(name)
    art = build_sheet(layout).art
    arrows = [e for e in art.elements if isinstance(e, Path) and len(e.commands) == 4]
    assert len(arrows) == len(layout.rows)
    for row, arrow in zip(layout.rows, arrows):
        band = layout.colour(row.cell_colours[0])
        if legibility("#ffffff", band) < MIN_CONTRAST:
            assert arrow.paint.stroke is not None and legibility(arrow.paint.stroke, band) >= 1.5
            assert legibility(arrow.paint.stroke, "#ffffff") >= MIN_CONTRAST
    geometry = sheet_geometry(layout)
    boxes = [e for e in art.elements if isinstance(e, Rect) and e.writable and (e.x, e.y, e.w, e.h) in geometry.totals]
    assert len(boxes) == len(geometry.totals)
    for box in boxes:
        assert box.paint.stroke and legibility(box.paint.stroke, "#ffffff") >= MIN_CONTRAST


def test_board_fields_carry_a_shape_seen_across_the_table() -> None:
    layout = layouts.load("one-to-9-board")
    assert isinstance(layout, BoardLayout)
    art = board_item(layout, CARD_SIZES["poker"]).art
    shapes = [e for e in art.elements if isinstance(e, Use) and e.symbol.id.startswith("shape-")]
    assert len(shapes) == 36
    assert all(abs(s.scale * s.symbol.width - FIELD_SHAPE) < 1e-9 for s in shapes) and FIELD_SHAPE >= 10


# --- 9. The board's scoring reference and notes ------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reference_leads_the_eye_from_each_scoring_to_its_value(lang: str) -> None:
    """Label and value are never more than a few em apart without dot leaders between them; the text is
    large enough to read at the table (at least 18 pt)."""
    layout = layouts.load("one-to-9-board")
    assert isinstance(layout, BoardLayout)
    drawn = record(board_item(layout, CARD_SIZES["poker"], lang).as_page())
    labels = catalogue(lang)
    dots = [d for d in drawn if d.kind == "circle" and d.fill == "#8a8a8a"]
    for what, gets in reference_lines(labels):
        label = next(d for d in drawn if d.kind == "text" and d.text == what)
        value = next(d for d in drawn if d.kind == "text" and d.text == gets and abs(d.y - label.y) < 0.01)
        assert label.size * 72 / 25.4 >= 18
        gap = value.bounds[0] - label.bounds[2]
        assert gap > 0
        if gap > 3 * label.size:
            between = [d for d in dots if label.bounds[2] < d.bounds[0] and d.bounds[2] < value.bounds[0]
                       and abs((d.bounds[1] + d.bounds[3]) / 2 - label.y) < label.size * 0.5]
            assert len(between) >= (gap - 2 * label.size) // 2.5, (lang, what, gap, len(between))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pile_notes_break_evenly(lang: str) -> None:
    """No note on the board leaves a short last line ("…when you win / small stars")."""
    layout = layouts.load("one-to-9-board")
    assert isinstance(layout, BoardLayout)
    drawn = record(board_item(layout, CARD_SIZES["poker"], lang).as_page())
    note = catalogue(lang)["discard_pile_note"].format(count=one_to_nine.PLUS3_BONUS)
    lines = [d for d in drawn if d.kind == "text" and len(d.text) > 6 and d.text in note]
    if len(lines) > 1:
        widths = [d.bounds[2] - d.bounds[0] for d in lines]
        assert min(widths) >= 0.6 * max(widths), [d.text for d in lines]


# --- 8. Star tokens ----------------------------------------------------------------------------------------

def test_tokens_print_their_gold_beyond_the_cutting_circle() -> None:
    layout = layouts.load("one-to-9-stars")
    assert isinstance(layout, TokenLayout)
    items = token_items(layout)
    assert len(items) == 48
    for item in items:
        (cut,) = [e for e in item.extras if isinstance(e, Circle)]
        gold = item.art.elements[0]
        assert isinstance(gold, Circle)
        assert gold.r - cut.r >= TOKEN_BLEED - 1e-9 >= 1.0
        assert (gold.cx, gold.cy) == (cut.cx, cut.cy) and cut.paint.stroke and not cut.paint.fill


def test_token_sheets_are_centred_and_spread_and_backs_are_mirrored() -> None:
    from printgen.printing.paper import paper_size
    from printgen.printing.tokens import token_pages

    layout = layouts.load("one-to-9-stars")
    assert isinstance(layout, TokenLayout)
    tokens = token_items(layout)
    for paper in ("a4", "letter"):
        width, height = paper_size(paper)
        front, back = list(token_pages(tokens, (width, height), "Stars", 10.0, double_sided=True))
        placed = [(e.x, e.y, e.symbol.width) for e in front.elements if isinstance(e, Use)]
        assert len(placed) == 48
        for _, rows in itertools.groupby(sorted(placed, key=lambda p: p[1]), key=lambda p: round(p[1], 3)):
            row = list(rows)
            left = min(x for x, _, _ in row)
            right = width - max(x + size for x, _, size in row)
            assert left == pytest.approx(right, abs=0.01)
            assert left >= 10 - 1e-9
        top = min(y for _, y, _ in placed)
        bottom = height - max(y + size for _, y, size in placed)
        assert bottom - 10 <= 0.55 * (height - 20), "the tokens spread over the page"
        assert top >= 10 + 8 - 1e-9 and bottom >= 10 - 1e-9
        mirrored = sorted((round(width - e.x - e.symbol.width, 3), round(e.y, 3)) for e in back.elements
                          if isinstance(e, Use))
        assert mirrored == sorted((round(x, 3), round(y, 3)) for x, y, _ in placed)
        assert not any(isinstance(e, Group) for e in back.elements), "no cutting circles on the backs"


def test_token_svgs_carry_the_cutting_path(tmp_path: object) -> None:
    from pathlib import Path as FilePath

    from printgen.build import build, options_for

    assert isinstance(tmp_path, FilePath)
    (folder,) = build("one-to-9-stars", options_for("one-to-9-stars", out=tmp_path, formats=("svg",)))
    for svg in sorted(FilePath(folder).glob("*.svg")):
        text = svg.read_text()
        assert 'fill="none"' in text and "stroke-dasharray" in text and "<circle" in text, svg.name


# --- 10. Small things --------------------------------------------------------------------------------------

def test_big_points_lock_numbers_look_like_every_other_number() -> None:
    """Same size and centre as the other numbers; the padlock badge on the cell's corner clear of it."""
    layout = sheet("qwixx-big-points")
    geometry = sheet_geometry(layout)
    drawn = record(build_sheet(layout).as_page())
    for index, row in enumerate(geometry.rows):
        spec = layout.rows[index]
        texts = [next(d for d in drawn if d.kind == "text" and d.text == str(number)
                      and x <= d.x <= x + side and y <= d.y <= y + side)
                 for (x, y, side), number in zip(row.cells, spec.numbers)]
        assert len({round(d.size, 6) for d in texts}) == 1
        for d, (x, y, side) in zip(texts, row.cells):
            assert d.x == pytest.approx(x + side / 2)
            assert d.y - cap_height("bold") * d.size / 2 == pytest.approx(y + side / 2)
    badges = [e for e in build_sheet(layout).art.elements if isinstance(e, Use) and e.symbol.id.startswith("lock-badge")]
    assert len(badges) == 8
    for badge in badges:
        size = badge.scale * badge.symbol.width
        r = size * 0.5
        cx, cy = badge.x + r, badge.y + r
        for d in drawn:
            if d.kind == "text" and d.text.isdigit() and abs(d.y - cy) < 10:
                x0, _, x1, _ = d.bounds
                top = d.y - cap_height("bold") * d.size
                nearest_x = min(max(cx, x0), x1)
                assert ((nearest_x - cx) ** 2 + (max(top - cy, 0)) ** 2) ** 0.5 >= r - 0.2, (d.text, badge)


def test_gemixxt_a_symbols_mark_the_lock_circles_too() -> None:
    layout = sheet("qwixx-gemixxt-a")
    geometry = sheet_geometry(layout)
    art = build_sheet(layout, symbols=True).art
    shapes = [e for e in art.elements if isinstance(e, Use) and e.symbol.id.startswith("shape-")]
    for row, spec in zip(geometry.rows, layout.rows):
        lx, ly, r = row.lock
        inside = [s for s in shapes if (s.x + 5 * s.scale - lx) ** 2 + (s.y + 5 * s.scale - ly) ** 2 <= r * r]
        assert len(inside) == 1 and inside[0].symbol.id.startswith(f"shape-{spec.colour}-")
        (padlock,) = [e for e in art.elements if isinstance(e, Use) and e.symbol.id.startswith("lock-")
                      and (e.x + 5 * e.scale - lx) ** 2 + (e.y + 5 * e.scale - ly) ** 2 <= r * r]
        mark = inside[0]
        assert mark.x + 10 * mark.scale + 0.3 <= padlock.x + 2.0 * padlock.scale, "the shape keeps off the padlock"


def _disc_inside(x: float, y: float, disc: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = disc
    return math.hypot(x - (x0 + x1) / 2, y - (y0 + y1) / 2) <= (x1 - x0) / 2


def _polygon_inside(x: float, y: float, polygon: list[tuple[float, float]]) -> bool:
    from printgen.builders.one_to_nine_pieces import _inside

    return _inside(x, y, polygon)


@pytest.mark.parametrize("size", ["poker", "mini"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_one_to_9_words_keep_clear_of_their_stars_discs_and_pills(lang: str, size: str) -> None:
    """"+3" keeps STAR_CLEAR inside its star and "1–9" on the jokers as much inside their disc; the number
    joker's pill leaves at least 1.5 mm round its words (capitals), in every language."""
    from printgen.builders.one_to_nine_pieces import _star_points

    layout = layouts.load("one-to-9-deck")
    assert isinstance(layout, DeckLayout)
    w, h = CARD_SIZES[size]
    for kind, text in (("joker", "1–9"), ("draw3", "+3")):
        face = nine_front(layout, one_to_nine.Card(kind, None, None), (w, h), 3.0, False, False, lang)
        drawn = record(Item("c", face).as_page())
        word = next(d for d in drawn if d.kind == "text" and d.text == text and d.size > 5)
        if kind == "draw3":
            polygon = _star_points(3.0 + w / 2, 3.0 + h / 2, w * 0.40 - 0.3)
            inside = partial(_polygon_inside, polygon=polygon)
        else:
            disc = next(d for d in drawn if d.kind == "circle" and d.fill == "#ffffff")
            inside = partial(_disc_inside, disc=disc.bounds)
        half_w, cap = text_width(text, "bold", word.size) / 2, cap_height("bold") * word.size
        for fx in (-1, 1):
            for fy in (0, 1):
                px = word.x + fx * (half_w + STAR_CLEAR - 0.05)
                py = word.y - fy * cap + (STAR_CLEAR - 0.05) * (-1 if fy else 1)
                assert inside(px, py), (lang, text, px, py)
    face = nine_front(layout, one_to_nine.Card("number-joker", 5, None), (w, h), 3.0, False, False, lang)
    drawn = record(Item("c", face).as_page())
    label = catalogue(lang)["any_colour"]
    word = next(d for d in drawn if d.kind == "text" and d.text == label)
    pill: Drawn = next(d for d in drawn if d.kind == "rect" and d.fill == "#ffffff" and overlaps(d.bounds, word.bounds))
    cap_top = word.y - cap_height("bold") * word.size
    assert word.bounds[0] - pill.bounds[0] >= 1.5 and pill.bounds[2] - word.bounds[2] >= 1.5
    assert cap_top - pill.bounds[1] >= 1.5 and pill.bounds[3] - word.y >= 1.5
