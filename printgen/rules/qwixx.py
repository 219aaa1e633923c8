"""Qwixx, the public face of the rules engine: variant names in, sheets, points tables and whole games out.

>>> from printgen.rules import qwixx
>>> sheet = qwixx.Sheet("standard")
>>> sheet.mark(0, 3); sheet.total()
1
>>> qwixx.points_table("big-points")[-1]
120
"""

from __future__ import annotations

from printgen.rules.card_game import CardGame
from printgen.rules.game import EndReason, Game, Outcome
from printgen.rules.qwixx_deck import Card, qwixx_deck
from printgen.rules.scoring import points_table as _table
from printgen.rules.sheet import PendingChoice, Sheet
from printgen.rules.variants import COLOURS, VARIANTS, Colour, RowSpec, VariantSpec, variant

__all__ = [
    "COLOURS",
    "VARIANTS",
    "Card",
    "CardGame",
    "Colour",
    "EndReason",
    "Game",
    "Outcome",
    "PendingChoice",
    "RowSpec",
    "Sheet",
    "VariantSpec",
    "points_table",
    "qwixx_deck",
    "variant",
]


def points_table(name: str) -> list[int]:
    """Points for 1..max crosses in a row of edition `name`.

    >>> points_table("standard")[-1]
    78
    """
    return _table(variant(name).max_crosses)
