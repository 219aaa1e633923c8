"""The games printgen prints for: a game's key in, what printgen knows of it out (its deck, players, names).

Qwixx played with dice (every score sheet but the card game's), Qwixx the
card game, and One to 9. Layout files name a game by its key (`game =
"one-to-9"`), simulations play one, the preview page groups files by one;
code asks this registry instead of comparing names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Card = tuple[str, str | None, int | None]
"""A card as layouts and the rules list it: (kind, colour, number)."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its key, the preview page's group, how messages name it, its players, and its rules deck."""

    key: str
    group: str
    """The heading its files go under on the preview page."""
    noun: str
    """The game in a sentence: "a dice game", "the card game", "One to 9"."""
    plural: str
    """Its layouts or games in a list of who takes an option: "the dice games", ..."""
    players: tuple[int, int]
    """Fewest and most players a simulation plays."""
    deck: Callable[[], list[Card]] | None = None
    """The cards its rules prescribe, for games played with cards of their own."""
    palette: tuple[str, ...] = ()
    """Palette colours every layout of the game draws besides its own (a star's gold)."""
    sheetless: bool = False
    """Played without a score sheet: `printgen simulate` names the game itself."""


def _qwixx_deck() -> list[Card]:
    from printgen.rules.qwixx_deck import qwixx_deck

    return [("joker" if c.is_joker else "number", c.colour, c.number) for c in qwixx_deck(jokers=True)]


def _nine_deck() -> list[Card]:
    from printgen.rules import one_to_nine

    return [(card.kind, card.colour, card.number) for card in one_to_nine.deck()]


QWIXX = Game("qwixx", "Qwixx score sheets", "a dice game", "the dice games", (2, 5))
QWIXX_CARDS = Game("qwixx-cards", "Qwixx, the card game", "the card game", "the card game", (2, 5), _qwixx_deck)
ONE_TO_NINE = Game("one-to-9", "One to 9", "One to 9", "One to 9", (2, 6), _nine_deck, ("star",), sheetless=True)

GAMES: dict[str, Game] = {game.key: game for game in (QWIXX, QWIXX_CARDS, ONE_TO_NINE)}
"""Every game, by key, in the order the preview page lists them."""
