"""Whole Qwixx dice games: a variant, players, a seed and strategies in, final sheets and an outcome out.

A turn: the active player rolls two white dice and one die per colour still
in play. Action 1: everyone may mark the white sum (or, on Big Points, a
lucky target) — decided on the same state, applied at the same moment, so
several players may lock one row together. Action 2: the active player may
mark one white die plus one coloured die in a cell of that die's colour. No
mark in either action: a penalty. A lock closes that row for everyone and
removes the die of the lock's colour. The game ends at a 4th penalty or
when a second row is locked.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from printgen.rules.lucky import balanced_pool
from printgen.rules.sheet import Sheet
from printgen.rules.strategies import STRATEGIES, Option, Strategy, per_player
from printgen.rules.variants import Colour, variant

MAX_TURNS = 2000


class EndReason(Enum):
    """Why a game ended."""

    PENALTIES = "4th penalty"
    MISPLAYS = "4th misplay"
    """Card game, with its variant: a player marked a 4th misplay (the card game's penalty row)."""
    LOCKS = "2nd row locked"
    ROWS = "a player's 2nd row completed"
    """Card game: a player completed two rows (for that player only)."""
    STALLED = "no player can complete 2 rows"
    """Card game: nobody can complete a second row any more (printgen's decision)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: winners (highest total; ties share), every score, why it ended, after how many turns."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: EndReason
    turns: int


class TurnBasedGame:
    """What every game engine shares: turns counted, an outcome once over, play() to the end."""

    turns: int
    outcome: Outcome | None
    sheets: list[Sheet]

    def play(self) -> Outcome:
        """Play to the end and return the outcome."""
        while self.outcome is None:
            self.play_turn()
        return self.outcome

    def play_turn(self) -> None:
        raise NotImplementedError

    def _next_turn(self) -> None:
        """Count a new turn; refuse one after the end or past the safety limit."""
        if self.outcome is not None:
            raise RuntimeError("the game is over")
        if self.turns >= MAX_TURNS:
            raise RuntimeError(f"no end after {MAX_TURNS} turns")
        self.turns += 1

    def _finish(self, reason: EndReason) -> None:
        """End the game: the highest totals win (ties share)."""
        scores = tuple(sheet.total() for sheet in self.sheets)
        best = max(scores)
        self.outcome = Outcome(tuple(i for i, s in enumerate(scores) if s == best), scores, reason, self.turns)


class Game(TurnBasedGame):
    """A dice game of `variant_name` for `players` players, reproducible from `seed`.

    `strategies` names ("random", "greedy") or Strategy objects, one per
    player or one for all. Big Points sheets get lucky pairs from `lucky`
    (one per player) or, by default, dealt from the balanced pool.
    """

    def __init__(
        self,
        variant_name: str = "standard",
        players: int = 2,
        seed: int = 0,
        strategies: str | Strategy | Sequence[str | Strategy] = "greedy",
        lucky: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        spec = variant(variant_name)
        if spec.card_game:
            raise ValueError(f"{variant_name!r} is played with cards: use CardGame")
        if not 2 <= players <= 5:
            raise ValueError(f"players must be 2..5, not {players}")
        self.rng = random.Random(seed)
        self.strategies = per_player(strategies, players, STRATEGIES, Strategy)
        if spec.lucky and lucky is None:
            pool = balanced_pool(spec.dice_sides)
            lucky = [pool[i] for i in self.rng.sample(range(len(pool)), players)]
        self.sheets = [Sheet(variant_name, lucky=tuple(lucky[i]) if lucky else None) for i in range(players)]  # type: ignore[arg-type]
        self.spec = spec
        self.dice: list[Colour] = [row.colour for row in spec.rows]
        self.locked_rows: set[int] = set()
        self.active = self.rng.randrange(players)  # the first player is drawn by lot (seeds 001, 003)
        self.turns = 0
        self.outcome: Outcome | None = None

    def play_turn(self) -> None:
        """Play the active player's turn (and end the game if it ends)."""
        self._next_turn()
        sides = self.spec.dice_sides
        whites = (self.rng.randint(1, sides), self.rng.randint(1, sides))
        coloured = {colour: self.rng.randint(1, sides) for colour in self.dice}
        active_marked = self._action_one(sum(whites))
        if self._end_if_over():
            return
        active_marked |= self._action_two(whites, coloured)
        if not active_marked:
            sheet = self.sheets[self.active]
            sheet.add_penalty()
            if sheet.penalties == sheet.spec.max_penalties:
                self._finish(EndReason.PENALTIES)
                return
        if self._end_if_over():
            return
        self.active = (self.active + 1) % len(self.sheets)

    # -- actions -------------------------------------------------------------

    def _action_one(self, total: int) -> bool:
        chosen = []
        for index, sheet in enumerate(self.sheets):
            options = [Option(r, total) for r in range(len(sheet.spec.rows)) if _has(sheet, r, total)
                       and sheet.can_mark(r, total)]
            if sheet.lucky and total in sheet.lucky:
                options += [Option(r, n, lucky=True) for r, n in sheet.lucky_targets()
                            if Option(r, n) not in options]
            pick = self.strategies[index].pick(sheet, options, index == self.active, 1, self.rng) if options else None
            chosen.append(pick)
        for index, pick in enumerate(chosen):
            if pick is not None:
                self._mark(index, pick)
        self._close_locked_rows()
        return chosen[self.active] is not None

    def _action_two(self, whites: tuple[int, int], coloured: dict[Colour, int]) -> bool:
        sheet = self.sheets[self.active]
        options: list[Option] = []
        for white in whites:
            for colour, die in coloured.items():
                if colour not in self.dice:
                    continue
                total = white + die
                for r, row in enumerate(sheet.spec.rows):
                    if total in row.numbers and row.colour_of(total) == colour and sheet.can_mark(r, total, colour):
                        option = Option(r, total, colour)
                        if option not in options:
                            options.append(option)
        pick = self.strategies[self.active].pick(sheet, options, True, 2, self.rng) if options else None
        if pick is None:
            return False
        self._mark(self.active, pick)
        self._close_locked_rows()
        return True

    def _mark(self, player: int, option: Option) -> None:
        sheet = self.sheets[player]
        sheet.mark(option.row, option.number, option.colour)
        while sheet.pending is not None:
            sheet.choose(self.strategies[player].choose(sheet, sheet.pending, self.rng))

    def _close_locked_rows(self) -> None:
        for row in range(len(self.spec.rows)):
            if row in self.locked_rows or not any(s.is_locked(row) for s in self.sheets):
                continue
            self.locked_rows.add(row)
            colour = self.spec.rows[row].colour
            if colour in self.dice:
                self.dice.remove(colour)
            for sheet in self.sheets:
                sheet.close(row)

    def _end_if_over(self) -> bool:
        if len(self.locked_rows) >= 2:
            self._finish(EndReason.LOCKS)
            return True
        return False



def _has(sheet: Sheet, row: int, number: int) -> bool:
    return number in sheet.spec.rows[row].numbers
