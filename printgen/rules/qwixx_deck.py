"""The Qwixx card deck: nothing in, the 44 coloured cards (and 11 jokers) the rules prescribe out.

>>> len(qwixx_deck()), len(qwixx_deck(jokers=True))
(44, 55)
"""

from __future__ import annotations

from dataclasses import dataclass

from printgen.rules.variants import COLOURS, Colour

CARD_NUMBERS = tuple(range(2, 13))


@dataclass(frozen=True, slots=True)
class Card:
    """A card: a number 2..12 in a colour, or a joker (colour None) whose colour is named when played.

    Its back shows the same number, with no colour.
    """

    number: int
    colour: Colour | None = None

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def name(self) -> str:
        """A file-friendly name such as "red-07" or "joker-07"."""
        return f"{self.colour or 'joker'}-{self.number:02d}"


def qwixx_deck(jokers: bool = False) -> list[Card]:
    """Numbers 2..12 once in each colour (44 cards), plus the jokers 2..12 if asked (55)."""
    deck = [Card(number, colour) for colour in COLOURS for number in CARD_NUMBERS]
    if jokers:
        deck += [Card(number) for number in CARD_NUMBERS]
    return deck
