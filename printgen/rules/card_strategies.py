"""Simple card-game players: a sheet, the display or a hand in, the cards to take or to play (and marks) out.

"random" takes and plays at random among legal choices; "greedy" takes the
numbers it can mark with the fewest skips and plays the cards that mark
the most fields for the fewest skipped ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations

from printgen.rules.qwixx_deck import Card
from printgen.rules.sheet import Sheet
from printgen.rules.strategies import GreedyStrategy, RandomStrategy, Strategy
from printgen.rules.variants import COLOURS, Colour

Mark = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Play:
    """Cards played (one colour; jokers named as it) and the (row, number) marks made with them."""

    cards: tuple[Card, ...]
    colour: Colour
    marks: tuple[Mark, ...] = ()


class CardStrategy(Strategy):
    """A Strategy that also takes display cards and plays cards."""

    def take(self, sheet: Sheet, display: list[int], need: int, rng: random.Random) -> list[int]:
        """Indices of the `need` display cards to take; `display` holds only their numbers (the cards lie
        neutral side up, so their colours are hidden)."""
        raise NotImplementedError

    def play(self, sheet: Sheet, hand: list[Card], max_skips: int | None, must_mark: bool,
             rng: random.Random) -> Play:
        """The 1..3 cards to play and the marks to make with them."""
        raise NotImplementedError


def plays(sheet: Sheet, hand: list[Card], max_skips: int | None) -> list[Play]:
    """Every distinct legal play from `hand`, with every legal set of marks (none included)."""
    found: dict[tuple[object, ...], Play] = {}
    for colour in COLOURS:
        group = [card for card in hand if card.colour in (colour, None)]
        for size in range(1, min(3, len(group)) + 1):
            for cards in combinations(group, size):
                for marks in mark_sets(sheet, cards, colour, max_skips):
                    play = Play(tuple(sorted(cards, key=_card_key)), colour, marks)
                    found.setdefault((play.cards, colour, marks), play)
    return list(found.values())


def _card_key(card: Card) -> tuple[int, str]:
    return (card.number, card.colour or "")


def mark_sets(sheet: Sheet, cards: tuple[Card, ...], colour: Colour, max_skips: int | None) -> list[tuple[Mark, ...]]:
    """Every legal set of marks the played `cards` allow (the empty set included)."""
    cells = sorted({(row, card.number) for card in cards for row in range(len(sheet.spec.rows))
                    if card.number in sheet.spec.rows[row].numbers
                    and sheet.spec.rows[row].colour_of(card.number) == colour})
    legal: list[tuple[Mark, ...]] = [()]
    for size in range(1, len(cells) + 1):
        for subset in combinations(cells, size):
            rows: dict[int, list[int]] = {}
            for row, number in subset:
                rows.setdefault(row, []).append(number)
            if all(sheet.can_mark_many(row, numbers, max_skips) for row, numbers in rows.items()):
                legal.append(subset)
    return legal


def skipped(sheet: Sheet, marks: tuple[Mark, ...]) -> int:
    """Fields passed over (lost) by making `marks`."""
    total = 0
    rows: dict[int, list[int]] = {}
    for row, number in marks:
        rows.setdefault(row, []).append(sheet.spec.rows[row].numbers.index(number))
    for row, positions in rows.items():
        done = sheet.marked(row)
        start = sheet.spec.rows[row].numbers.index(done[-1]) + 1 if done else 0
        total += max(positions) - start + 1 - len(positions)
    return total


class RandomCardStrategy(CardStrategy, RandomStrategy):
    """Any legal take and play, uniformly."""

    name = "random"

    def take(self, sheet: Sheet, display: list[int], need: int, rng: random.Random) -> list[int]:
        return rng.sample(range(len(display)), need)

    def play(self, sheet: Sheet, hand: list[Card], max_skips: int | None, must_mark: bool,
             rng: random.Random) -> Play:
        return rng.choice(plays(sheet, hand, max_skips))


class GreedyCardStrategy(CardStrategy, GreedyStrategy):
    """Most marks for fewest skips; throws away the least useful card when nothing fits."""

    name = "greedy"

    def take(self, sheet: Sheet, display: list[int], need: int, rng: random.Random) -> list[int]:
        def cost(index: int) -> tuple[int, int]:
            number = display[index]
            costs = [skipped(sheet, ((row, number),)) for row in range(len(sheet.spec.rows))
                     if number in sheet.spec.rows[row].numbers and sheet.can_mark(row, number)]
            return (min(costs) if costs else 99, index)

        return sorted(range(len(display)), key=cost)[:need]

    def play(self, sheet: Sheet, hand: list[Card], max_skips: int | None, must_mark: bool,
             rng: random.Random) -> Play:
        options = plays(sheet, hand, max_skips)
        allowed = 4 if must_mark else 2

        def value(play: Play) -> tuple[float, ...]:
            jokers = sum(card.is_joker for card in play.cards)
            if not play.marks:
                useless = sum(self._card_cost(sheet, card) for card in play.cards)
                return (-1.0, -len(play.cards), useless - 10 * jokers)
            lost = skipped(sheet, play.marks)
            if lost > allowed * len(play.marks):
                return (-2.0,)
            return (1.0, 3 * len(play.marks) - lost - 0.5 * jokers - 0.5 * (len(play.cards) - len(play.marks)))

        return max(options, key=value)

    @staticmethod
    def _card_cost(sheet: Sheet, card: Card) -> int:
        costs = [skipped(sheet, ((row, card.number),)) for row in range(len(sheet.spec.rows))
                 if card.number in sheet.spec.rows[row].numbers and sheet.can_mark(row, card.number)
                 and (card.colour is None or sheet.spec.rows[row].colour_of(card.number) == card.colour)]
        return min(costs) if costs else 99


CARD_STRATEGIES: dict[str, type[CardStrategy]] = {"random": RandomCardStrategy, "greedy": GreedyCardStrategy}
