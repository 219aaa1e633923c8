"""Simulation: a sheet layout, players, games, a seed and strategies in, statistics of whole games out.

Every final sheet is held against the layout's printed points table, so a
simulation also proves that the printed numbers score real games correctly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from printgen.errors import UsageProblem
from printgen.layouts.model import ScoreSheetLayout
from printgen.rules import qwixx
from printgen.rules.game import EndReason
from printgen.rules.sheet import Sheet

STRATEGY_CHOICES = ("greedy", "random", "mixed")


@dataclass(slots=True)
class Report:
    """What a batch of simulated games showed."""

    layout: str
    games: int
    players: int
    strategy: str
    seed: int
    scores: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    reasons: Counter[EndReason] = field(default_factory=Counter)
    sheets_checked: int = 0
    mismatches: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report as printable lines."""
        mean = sum(self.scores) / len(self.scores)
        shares = ", ".join(f"{reason.value} {100 * self.reasons[reason] / self.games:.1f} %"
                           for reason in EndReason if self.reasons[reason])
        verdict = "all agree" if not self.mismatches else f"{len(self.mismatches)} disagree"
        return [
            f"{self.layout}: {self.games} games, {self.players} players, {self.strategy} strategy, seed {self.seed}",
            f"score      mean {mean:.1f}   min {min(self.scores)}   max {max(self.scores)}",
            f"length     mean {sum(self.turns) / len(self.turns):.1f} turns",
            f"ended by   {shares}",
            f"checked    {self.sheets_checked} final sheets against the printed points table: {verdict}",
        ]


def strategies_for(name: str, players: int) -> list[str]:
    """Strategy names per player; "mixed" alternates greedy and random."""
    if name not in STRATEGY_CHOICES:
        raise UsageProblem(f"--strategy: {name!r} is not one of {', '.join(STRATEGY_CHOICES)}")
    if name == "mixed":
        return [("greedy", "random")[i % 2] for i in range(players)]
    return [name] * players


def simulate(layout: ScoreSheetLayout, players: int, games: int, seed: int, strategy: str = "greedy",
             on_game: Callable[[int], None] | None = None, card_game: bool = False, jokers: bool = False,
             misplay_end: bool = False) -> tuple[Report, qwixx.Game | qwixx.CardGame]:
    """Play `games` games on `layout`'s rules; returns the report and the first game (for drawing).

    The card-game sheet is played with cards; `card_game` plays the card game's
    gemixxt variant on the gemixxt A sheet; `jokers` and `misplay_end` are the
    card game's variants.
    """
    spec = qwixx.variant(layout.rules)
    cards = spec.card_game or card_game
    if card_game and layout.rules != "gemixxt-a" and not spec.card_game:
        raise UsageProblem(f"--card-game: the card game is played on the cards or gemixxt-a sheet, not {layout.rules}")
    if (jokers or misplay_end) and not cards:
        raise UsageProblem("--jokers and --misplay-end are card-game options (use the qwixx-cards sheet)")
    report = Report(layout.name, games, players, strategy, seed)
    seeds = random.Random(seed)
    first: qwixx.Game | qwixx.CardGame | None = None
    for number in range(games):
        names = strategies_for(strategy, players)
        game: qwixx.Game | qwixx.CardGame
        if cards:
            game = qwixx.CardGame(players=players, jokers=jokers, seed=seeds.getrandbits(32), strategies=names,
                                  misplay_end=misplay_end, sheet=layout.rules)
        else:
            game = qwixx.Game(layout.rules, players=players, seed=seeds.getrandbits(32), strategies=names)
        outcome = game.play()
        first = first or game
        report.scores += outcome.scores
        report.turns.append(outcome.turns)
        report.reasons[outcome.reason] += 1
        for player, sheet in enumerate(game.sheets):
            report.sheets_checked += 1
            report.mismatches += [f"game {number + 1}, player {player + 1}: {m}" for m in verify(layout, sheet)]
        if on_game is not None:
            on_game(number + 1)
    assert first is not None
    return report, first


def verify(layout: ScoreSheetLayout, sheet: Sheet) -> list[str]:
    """Where the engine's score of `sheet` disagrees with what the printed sheet says it is worth."""
    found = []
    table = (0, *layout.points_table.points)
    for row in range(len(layout.rows)):
        crosses = sheet.crosses(row)
        printed = table[crosses] if crosses < len(table) else None
        if printed != sheet.points(row):
            found.append(f"row {row}: {crosses} crosses score {sheet.points(row)}, the sheet prints {printed}")
    penalty = 0 if 5 in sheet.bonus_kinds() else -layout.penalties.points * sheet.penalties
    if penalty != sheet.penalty_points():
        found.append(f"{sheet.penalties} penalties cost {sheet.penalty_points()}, the sheet says {penalty}")
    written = sum(table[sheet.crosses(r)] for r in range(len(layout.rows))) + sheet.bonus_points() - penalty
    if written != sheet.total():
        found.append(f"total {sheet.total()}, adding up the printed figures gives {written}")
    return found
