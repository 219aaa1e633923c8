"""Qwixx, the card game: players, jokers, a seed and strategies in, whole games with an outcome out.

A turn (RULES.md section 5): the active player takes cards from the display
of four until holding five and the display is refilled; the number on the
back of the draw pile's top card is announced and everyone may mark it;
the active player plays one to three cards of one colour (a joker takes the
colour named) and may mark played numbers in that colour's row, skipping at
most one number between the first and the last marked. Nothing marked in
steps 2 and 3: a misplay. A row completes for its player only. The game ends
as soon as a player has completed two rows (variant: at a 4th misplay).

printgen's decisions where the sources are silent: an empty draw pile is
refilled by shuffling the whole discard pile; without the misplay variant a
player whose four misplay boxes are full takes no further misplays; and
the game also ends when no player can complete two rows any more (else it
could never end).

The gemixxt card variant (`sheet="gemixxt-a"`, RULES.md section 3) plays on
the gemixxt A sheet: each played card is marked in the one cell of its
number and colour, in any row, and marks in one row may skip any number.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from printgen.rules.card_strategies import CARD_STRATEGIES, CardStrategy, Play
from printgen.rules.game import EndReason, Outcome, TurnBasedGame
from printgen.rules.qwixx_deck import Card, qwixx_deck
from printgen.rules.sheet import Sheet
from printgen.rules.strategies import Option, per_player

HAND = 5
DISPLAY = 4
START_HAND = 4
CARD_SHEETS = ("cards", "gemixxt-a")


class CardGame(TurnBasedGame):
    """A card game for `players` players (2..5), with the 11 jokers if `jokers`, reproducible from `seed`."""

    def __init__(
        self,
        players: int = 3,
        jokers: bool = False,
        seed: int = 0,
        strategies: str | CardStrategy | Sequence[str | CardStrategy] = "greedy",
        misplay_end: bool = False,
        sheet: str = "cards",
    ) -> None:
        if not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, not {players}")
        if sheet not in CARD_SHEETS:
            raise ValueError(f"the card game is played on {' or '.join(CARD_SHEETS)} sheets, not {sheet!r}")
        self.strategies = per_player(strategies, players, CARD_STRATEGIES, CardStrategy)
        self.rng = random.Random(seed)
        self.max_skips: int | None = 1 if sheet == "cards" else None
        self.sheets = [Sheet(sheet) for _ in range(players)]
        self.misplay_end = misplay_end
        self.deck_size = 55 if jokers else 44
        deck = qwixx_deck(jokers)
        self.rng.shuffle(deck)
        self.hands: list[list[Card]] = [[deck.pop() for _ in range(START_HAND)] for _ in range(players)]
        self.pile: list[Card] = deck
        self.display: list[Card] = []
        self.discard: list[Card] = []
        self._refill_display()
        self.active = self.rng.randrange(players)  # the first player is drawn by lot (seeds 000, 001)
        self.turns = 0
        self.reshuffles = 0
        self.outcome: Outcome | None = None

    def cards_in_play(self) -> int:
        """Every card in hands, display, draw and discard piles (always the whole deck)."""
        return sum(len(h) for h in self.hands) + len(self.display) + len(self.pile) + len(self.discard)

    def play_turn(self) -> None:
        """Play the active player's turn (and end the game if it ends)."""
        self._next_turn()
        active, strategy = self.sheets[self.active], self.strategies[self.active]
        self._take_cards()
        marked = self._announce()
        if self._end_if_over():
            return
        play = strategy.play(active, self.hands[self.active], self.max_skips, not marked, self.rng)
        self._apply(play)
        marked |= bool(play.marks)
        if not marked and active.penalties < active.spec.max_penalties:
            active.add_penalty()
            if self.misplay_end and active.penalties == active.spec.max_penalties:
                self._finish(EndReason.MISPLAYS)
                return
        if self.cards_in_play() != self.deck_size:
            raise RuntimeError(f"{self.cards_in_play()} cards in play, the deck has {self.deck_size}")
        if self._end_if_over():
            return
        self.active = (self.active + 1) % len(self.sheets)

    # -- steps ---------------------------------------------------------------

    def _take_cards(self) -> None:
        hand = self.hands[self.active]
        need = min(HAND - len(hand), len(self.display))
        if need <= 0:
            return
        visible = [card.number for card in self.display]  # neutral side up: numbers only, no colours
        picks = self.strategies[self.active].take(self.sheets[self.active], visible, need, self.rng)
        if sorted(set(picks)) != sorted(picks) or len(picks) != need or not all(0 <= i < len(self.display)
                                                                                  for i in picks):
            raise RuntimeError(f"strategy took display cards {picks} (needs {need} distinct of {len(self.display)})")
        for index in sorted(picks, reverse=True):
            hand.append(self.display.pop(index))
        self._refill_display()

    def _announce(self) -> bool:
        """Step 2: everyone may mark the number on the back of the pile's top card; True if the active one did."""
        if not self.pile:
            self._reshuffle()
        if not self.pile:
            return False
        number = self.pile[-1].number
        active_marked = False
        for index, sheet in enumerate(self.sheets):
            options = [Option(r, number) for r in range(len(sheet.spec.rows))
                       if number in sheet.spec.rows[r].numbers and sheet.can_mark(r, number)]
            pick = self.strategies[index].pick(sheet, options, index == self.active, 1, self.rng) if options else None
            if pick is not None:
                sheet.mark(pick.row, pick.number)
                active_marked |= index == self.active
        return active_marked

    def _apply(self, play: Play) -> None:
        hand = self.hands[self.active]
        if not 1 <= len(play.cards) <= 3:
            raise RuntimeError(f"a play must be 1 to 3 cards, not {len(play.cards)}")
        if any(card.colour not in (None, play.colour) for card in play.cards):
            raise RuntimeError(f"played cards {play.cards} are not all {play.colour} (or jokers)")
        for card in play.cards:
            hand.remove(card)
        unused = [card.number for card in play.cards]
        sheet = self.sheets[self.active]
        by_row: dict[int, list[int]] = {}
        for row, number in play.marks:
            if number not in unused or sheet.spec.rows[row].colour_of(number) != play.colour:
                raise RuntimeError(f"mark {number} in row {row} is not a played {play.colour} card")
            unused.remove(number)
            by_row.setdefault(row, []).append(number)
        for row, numbers in by_row.items():
            sheet.mark_many(row, numbers, self.max_skips)
        self.discard += play.cards

    def _refill_display(self) -> None:
        while len(self.display) < DISPLAY:
            if not self.pile:
                self._reshuffle()
            if not self.pile:
                return
            self.display.append(self.pile.pop())

    def _reshuffle(self) -> None:
        if self.discard:
            self.pile = self.discard
            self.discard = []
            self.rng.shuffle(self.pile)
            self.reshuffles += 1

    def _end_if_over(self) -> bool:
        if any(sum(s.is_locked(r) for r in range(len(s.spec.rows))) >= 2 for s in self.sheets):
            self._finish(EndReason.ROWS)
            return True
        if not any(_can_still_complete_two(s) for s in self.sheets):
            self._finish(EndReason.STALLED)
            return True
        return False



def _can_still_complete_two(sheet: Sheet) -> bool:
    """True while `sheet` has two rows that are completed or can still be completed."""
    spec = sheet.spec
    possible = 0
    for row in range(len(spec.rows)):
        if sheet.is_locked(row):
            possible += 1
            continue
        marked = sheet.marked(row)
        numbers = spec.rows[row].numbers
        start = numbers.index(marked[-1]) + 1 if marked else 0
        before_lock = len(numbers) - spec.lock_fields - start
        if len(marked) + max(0, before_lock) >= spec.lock_min_crosses:
            possible += 1
    return possible >= 2
