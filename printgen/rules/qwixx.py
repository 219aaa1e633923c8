"""Qwixx, the public face of the rules engine: variant names in, sheets, points tables and whole games out.

>>> from printgen.rules import qwixx
>>> sheet = qwixx.Sheet("standard")
>>> sheet.mark(0, 3); sheet.total()
1
>>> qwixx.points_table("big-points")[-1]
120
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from printgen.rules.scoring import points_table as _table
from printgen.rules.sheet import PendingChoice, Sheet
from printgen.rules.variants import COLOURS, VARIANTS, Colour, RowSpec, VariantSpec, variant

if TYPE_CHECKING:
    from printgen.rules.card_game import CardGame
    from printgen.rules.game import EndReason, Game, Outcome
    from printgen.rules.qwixx_deck import Card, qwixx_deck

_PLAYED = {"CardGame": "card_game", "EndReason": "game", "Game": "game", "Outcome": "game", "Card": "qwixx_deck",
           "qwixx_deck": "qwixx_deck"}
"""Whole games and the card game's deck, from their modules when first asked for: a sheet's build and check use
only the sheet, its variant and its points."""

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


def __getattr__(name: str) -> Any:
    """A name of `_PLAYED`, from its module (imported then)."""
    if name in _PLAYED:
        return getattr(import_module(f"printgen.rules.{_PLAYED[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def points_table(name: str) -> list[int]:
    """Points for 1..max crosses in a row of edition `name`.

    >>> points_table("standard")[-1]
    78
    """
    return _table(variant(name).max_crosses)
