"""One to 9 material: the board's texts follow the rules engine and seed 004."""

from __future__ import annotations

from printgen import layouts
from printgen.builders.one_to_nine_pieces import board_item
from printgen.kinds import BoardLayout
from printgen.printing.card_grid import CARD_SIZES
from printgen.render.recording import record


def board_texts() -> list[str]:
    layout = layouts.load("one-to-9-board")
    assert isinstance(layout, BoardLayout)
    return [d.text for d in record(board_item(layout, CARD_SIZES["poker"]).as_page()) if d.kind == "text"]


def test_the_discard_pile_note_says_the_bonus_is_for_small_stars_only() -> None:
    """Seed 004 (004_0581fea63dda4621.txt): the +3 bonus gives one more small star to a player who wins small
    stars, not for big stars (RULES.md section 6)."""
    text = " ".join(board_texts())
    assert "+3 on top: +1 small star when you win small stars" in text
