"""Simple players: a sheet and the legal options in, the option they take (or None to pass) out.

"random" takes any legal option or passes, uniformly; "greedy" takes the
option that skips the fewest fields, accepting more skips when passing
would cost the active player a penalty.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from printgen.rules.sheet import PendingChoice, Sheet
from printgen.rules.variants import Colour


@dataclass(frozen=True, slots=True)
class Option:
    """A possible mark: `number` in `row`, with a die of `colour` (action 2), or as a lucky substitute."""

    row: int
    number: int
    colour: Colour | None = None
    lucky: bool = False


class Strategy:
    """How a player decides; subclasses override `pick` and `choose`."""

    name = "strategy"

    def pick(self, sheet: Sheet, options: list[Option], active: bool, action: int,
             rng: random.Random) -> Option | None:
        """The option to mark in `action` (1 or 2), or None to pass."""
        raise NotImplementedError

    def choose(self, sheet: Sheet, choice: PendingChoice, rng: random.Random) -> int:
        """The row that gets a pending bonus choice's crosses."""
        return rng.choice(choice.rows)


class RandomStrategy(Strategy):
    """Any legal option or a pass, each equally likely."""

    name = "random"

    def pick(self, sheet: Sheet, options: list[Option], active: bool, action: int,
             rng: random.Random) -> Option | None:
        choice = rng.randrange(len(options) + 1)
        return options[choice] if choice < len(options) else None


class GreedyStrategy(Strategy):
    """Fewest skipped fields first; locks when it can; avoids penalties as the active player."""

    name = "greedy"

    def pick(self, sheet: Sheet, options: list[Option], active: bool, action: int,
             rng: random.Random) -> Option | None:
        if not options:
            return None
        scored = sorted(options, key=lambda o: (skips(sheet, o), -sheet.crosses(o.row), o.row, o.number))
        best = scored[0]
        cost = skips(sheet, best)
        locks = best.number in sheet.spec.lock_numbers(best.row)
        allowed = 0 if not active else (1 if action == 1 else 3)
        return best if cost <= allowed or locks else None

    def choose(self, sheet: Sheet, choice: PendingChoice, rng: random.Random) -> int:
        return min(choice.rows, key=lambda r: (sheet.is_closed(r), _gap_to_next(sheet, r), r))  # (a closed row: lost)


def skips(sheet: Sheet, option: Option) -> int:
    """How many fields marking `option` would skip in its row."""
    numbers = sheet.spec.rows[option.row].numbers
    marked = sheet.marked(option.row)
    start = numbers.index(marked[-1]) + 1 if marked else 0
    return numbers.index(option.number) - start


def _gap_to_next(sheet: Sheet, row: int) -> int:
    marked = sheet.marked(row)
    return len(sheet.spec.rows[row].numbers) - (sheet.spec.rows[row].numbers.index(marked[-1]) if marked else -1)


T = TypeVar("T")

STRATEGIES: dict[str, type[Strategy]] = {"random": RandomStrategy, "greedy": GreedyStrategy}


def per_player(specs: Any, players: int, kinds: Mapping[str, type[T]], base: type[T]) -> list[T]:
    """One strategy object per player, from a name or an object, for all or one per player."""
    if isinstance(specs, str | base):
        specs = [specs] * players
    if len(specs) != players:
        raise ValueError(f"{len(specs)} strategies for {players} players")
    chosen: list[T] = []
    for spec in specs:
        if isinstance(spec, base):
            chosen.append(spec)
        elif spec in kinds:
            chosen.append(kinds[spec]())
        else:
            raise ValueError(f"unknown strategy {spec!r} (known: {', '.join(kinds)})")
    return chosen
