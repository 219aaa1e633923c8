"""What comes out of a home printer: nothing in the unprintable margin, text and fields big enough (or the
option set refused), texts that never overlap, indices that read in colour and in grey, grey-safe palettes."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from printgen import layouts
from printgen.build import build, options_for
from printgen.builders.one_to_nine_pieces import board_item
from printgen.colours import MIN_CONTRAST, luma
from printgen.errors import UsageProblem
from printgen.kinds import DeckLayout
from printgen.kinds.decks import deck_faces
from printgen.measure import MIN_FIELD_MM, MIN_TEXT_PT, contrasts, sizes
from printgen.page import Item
from printgen.printing.card_grid import CARD_SIZES
from printgen.render.recording import record
from tests.capture import CapturedPages

DECKS = ["qwixx-cards-deck", "one-to-9-deck"]
SHEETS = [n for n in layouts.builtin_names() if layouts.load(n).kind == "score-sheet"]


def inside(pages: list[Any], margin: float) -> None:
    checked = 0
    for page in pages:
        if page.trim is not None:
            continue  # a print-shop or sheet-sized page: cut to its trim box, no printer margin
        checked += 1
        everything = record(page)
        assert everything, "a page with nothing on it"
        for drawn in everything:
            x0, y0, x1, y1 = drawn.bounds
            assert x0 >= margin - 1e-6 and y0 >= margin - 1e-6, drawn
            assert x1 <= page.width - margin + 1e-6 and y1 <= page.height - margin + 1e-6, drawn
    assert checked, "no page printed on paper with a printer margin was drawn"


@pytest.mark.parametrize("card_size", ["poker", "bridge", "mini"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", DECKS)
def test_nothing_of_a_deck_within_the_printer_margin(tmp_path: Path, pages: list[Any], name: str, paper: str,
                                                      card_size: str) -> None:
    build(name, options_for(name, out=tmp_path, paper=paper, card_size=card_size, alignment_page=True,
                             back_offset=(1.5, -2.0)))
    inside(pages, 5.0)


def test_the_printer_margin_can_be_widened(tmp_path: Path, pages: list[Any]) -> None:
    build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, printer_margin=8.0))
    inside(pages, 8.0)
    with pytest.raises(UsageProblem, match="do not fit a4 with its bleed and crop marks inside a 30 mm"):
        build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, printer_margin=30.0, card_size="150x250"))


@pytest.mark.parametrize("name, settings", [("one-to-9-stars", {}), ("one-to-9-board", {}),
                                            ("one-to-9-board", {"tile": True, "paper": "letter"}),
                                            ("one-to-9-board", {"tile": True, "paper": "a4", "card_size": "mini"})])
def test_nothing_of_tokens_or_board_within_the_printer_margin(tmp_path: Path, pages: list[Any], name: str,
                                                              settings: dict[str, Any]) -> None:
    build(name, options_for(name, out=tmp_path, **settings))
    inside(pages, 5.0)


PER_PAGE_PAPER = [(1, None), *itertools.product([2, 4], ["a4", "letter", "a3"])]
"""A sheet a page is printed at its own size (no paper to choose); two and four a page on each paper."""


@pytest.mark.parametrize("lang", ["en", "de", "fr", "it", "pl"])
@pytest.mark.parametrize("per_page, paper", PER_PAGE_PAPER)
@pytest.mark.parametrize("name", SHEETS)
def test_sheets_are_legible_or_refused(tmp_path: Path, pages: CapturedPages, name: str, per_page: int,
                                       paper: str | None, lang: str) -> None:
    options = options_for(name, out=tmp_path, per_page=per_page, paper=paper, lang=lang, symbols=True,
                          sheets=per_page)
    try:
        build(name, options)
    except UsageProblem as refused:
        assert per_page > 1 and str(refused).startswith("--per-page: ")
        assert "use --per-page" in str(refused)
        pages.expect_none()
        return
    for page in pages:
        measured = sizes(page)
        assert measured.text_pt >= MIN_TEXT_PT - 1e-6, (measured, page.width)
        assert measured.field_mm >= MIN_FIELD_MM - 1e-6, measured


def test_a4_and_letter_refuse_four_sheets_but_a3_prints_them() -> None:
    with pytest.raises(UsageProblem, match=r"--per-page: 4 qwixx-big-points sheets a page print at 73% on a4.*"
                                           r"use --per-page 2, or --per-page 4 with -p a3"):
        build("qwixx-big-points", options_for("qwixx-big-points", per_page=4))


@pytest.mark.parametrize("lang", ["en", "pl"])
@pytest.mark.parametrize("name", ["qwixx-cards-deck", "one-to-9-deck", "one-to-9-board", "one-to-9-stars"])
def test_cards_board_and_tokens_are_legible(tmp_path: Path, pages: list[Any], name: str, lang: str) -> None:
    build(name, options_for(name, out=tmp_path, lang=lang, **({"alignment_page": True} if "deck" in name else {})))
    for page in pages:
        assert sizes(page).text_pt >= MIN_TEXT_PT - 1e-6


def test_single_sheet_pages_are_the_sheet_with_its_boxes(tmp_path: Path) -> None:
    from pypdf import PdfReader

    (pdf,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, per_page=1, sheets=2, bleed=3.0))
    page = PdfReader(pdf).pages[0]
    mm = [round(float(v) * 25.4 / 72, 2) for v in (*page.mediabox, *page.trimbox, *page.bleedbox)]
    assert mm == [0, 0, 196, 121, 3, 3, 193, 118, 0, 0, 196, 121]
    with pytest.raises(UsageProblem, match="--bleed: score sheets take a bleed only on pages of their own size"):
        build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, bleed=3.0))


def overlapping(boxes: list[tuple[str, tuple[float, float, float, float]]]) -> list[tuple[str, str]]:
    found = []
    for (a, (ax0, ay0, ax1, ay1)), (b, (bx0, by0, bx1, by1)) in itertools.combinations(boxes, 2):
        if min(ax1, bx1) - max(ax0, bx0) > 0.05 and min(ay1, by1) - max(ay0, by0) > 0.05:
            found.append((a, b))
    return found


@pytest.mark.parametrize("name, settings", [
    *((n, {"lang": "pl", "symbols": True}) for n in SHEETS),
    ("qwixx-big-points", {"lang": "de"}),
    ("qwixx-cards-deck", {"alignment_page": True, "symbols": True}),
    ("qwixx-cards-deck", {"alignment_page": True, "paper": "letter", "lang": "fr"}),
    ("one-to-9-deck", {"alignment_page": True, "lang": "it"}),
    ("one-to-9-board", {"lang": "de"}), ("one-to-9-board", {"tile": True, "paper": "letter", "lang": "pl"}),
    ("one-to-9-stars", {"lang": "fr"}),
])
def test_no_two_texts_overlap(tmp_path: Path, pages: list[Any], name: str, settings: dict[str, Any]) -> None:
    if layouts.load(name).kind == "score-sheet":
        settings = {"sheets": 2, **settings}
    build(name, options_for(name, out=tmp_path, **settings))
    for page in pages:
        texts = [(d.text, d.bounds) for d in record(page) if d.kind == "text" and d.text.strip()]
        assert not overlapping(texts), overlapping(texts)[:5]


def faces(name: str) -> list[Item]:
    layout = layouts.load(name)
    assert isinstance(layout, DeckLayout)
    return [Item(card, face) for card, front, back in deck_faces(layout, CARD_SIZES["poker"], 3.0, True)
            for face in (front, back)]


@pytest.mark.parametrize("name", DECKS)
def test_corner_indices_are_upright_top_left_and_turned_bottom_right(name: str) -> None:
    indexed = 0
    for item in faces(name):
        corner = [d for d in record(item.as_page()) if d.kind == "text" and d.anchor == "start"]
        if not corner:
            assert name == "one-to-9-deck" and item.art.id.startswith("nine-back")  # the common back has no index
            continue
        indexed += 1
        upright = [d for d in corner if d.rotate == 0 and d.x < item.width / 3 and d.y < item.height / 3]
        turned = [d for d in corner if d.rotate == 180 and d.x > item.width * 2 / 3 and d.y > item.height * 2 / 3]
        assert len(upright) == 1 and len(turned) == 1, (item.name, corner)
        assert upright[0].text == turned[0].text and upright[0].size == turned[0].size
    assert indexed >= 98


@pytest.mark.parametrize("name", DECKS)
def test_every_card_text_reads_in_colour_and_in_grey(name: str) -> None:
    items = faces(name)
    checked = 0
    for item in items:
        for found in contrasts(item.as_page()):
            assert found.ratio >= MIN_CONTRAST, (item.name, found)
            checked += 1
    assert checked >= len(items), "fewer texts measured than the fronts' two corner indices each"


def test_every_board_text_reads_in_colour_and_in_grey() -> None:
    layout = layouts.load("one-to-9-board")
    for lang in ("en", "pl"):
        board = board_item(layout, CARD_SIZES["poker"], lang)  # type: ignore[arg-type]
        measured = contrasts(board.as_page(), paper=layout.colour("board"))
        assert len(measured) > 36, "fewer texts measured than the board's 36 numbered fields"
        for found in measured:
            assert found.ratio >= MIN_CONTRAST, found


GREY_SAFE = {"red": 99.4, "yellow": 191.6, "green": 141.4, "blue": 57.1}
"""Rec. 601 luma (0..255) of the four colours as printed on a black-and-white printer."""
GREY_APART = 40
"""Any two of the four colours differ by at least this much in luma: rows, segments, cards and board colours
stay apart on a black-and-white printer."""


@pytest.mark.parametrize("name", [n for n in layouts.builtin_names() if "red" in dict(layouts.load(n).palette)])
def test_the_four_colours_differ_in_grey(name: str) -> None:
    palette = dict(layouts.load(name).palette)
    lumas = {colour: round(luma(palette[colour]), 1) for colour in GREY_SAFE}
    assert lumas == GREY_SAFE
    for a, b in itertools.combinations(lumas.values(), 2):
        assert abs(a - b) >= GREY_APART
