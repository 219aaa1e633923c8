"""Simulation: a sheet layout (or One to 9), players, games, a seed and strategies in, statistics of whole games out.

Every final sheet is held against the layout's printed points table, so a
simulation also proves that the printed numbers score real games correctly.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from printgen.errors import UsageProblem
from printgen.games import ONE_TO_NINE, Game
from printgen.kinds import ScoreSheetLayout, kind_of, score_sheet
from printgen.rules import qwixx
from printgen.rules.game import EndReason
from printgen.rules.one_to_nine import ActionKind, GameOver, NineOutcome, OneToNine
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
    warnings: list[str] = field(default_factory=list)
    """One line each: what the user should know, e.g. more players than the rule book names."""

    def lines(self) -> list[str]:
        """The report as printable lines."""
        mean = sum(self.scores) / len(self.scores)
        shares = ", ".join(f"{reason.value} {100 * self.reasons[reason] / self.games:.1f} %"
                           for reason in EndReason if self.reasons[reason])
        verdict = "all agree" if not self.mismatches else f"{len(self.mismatches)} disagree"
        return [
            (f"{self.layout}: {_count(self.games, 'game')}, {self.players} players, {self.strategy} strategy, "
            f"seed {self.seed}"),
            f"score      mean {mean:.1f}   min {min(self.scores)}   max {max(self.scores)}",
            f"length     mean {sum(self.turns) / len(self.turns):.1f} turns",
            f"ended by   {shares}",
            f"checked    {self.sheets_checked} final sheets against the printed points table: {verdict}",
        ]


def _count(number: int, word: str) -> str:
    """"1 game", "2 games"."""
    return f"{number:,} {word}{'' if number == 1 else 's'}"


def strategies_for(name: str, players: int) -> list[str]:
    """Strategy names per player; "mixed" alternates greedy and random."""
    if name not in STRATEGY_CHOICES:
        raise UsageProblem(f"--strategy: {name!r} is not one of {', '.join(STRATEGY_CHOICES)}")
    if name == "mixed":
        return [("greedy", "random")[i % 2] for i in range(players)]
    return [name] * players


@dataclass(slots=True)
class SimulationResult:
    """What `printgen simulate` reports: warning lines, report lines, files drawn and score mismatches."""

    lines: list[str]
    warnings: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)


def game_of(name: str) -> tuple[Game, ScoreSheetLayout | None]:
    """Which game `name` plays and its score-sheet layout (None for a game played without one, One to 9)."""
    from printgen import layouts
    from printgen.games import GAMES

    if name in GAMES and GAMES[name].sheetless:
        return GAMES[name], None
    try:
        layout = layouts.load(name)
    except layouts.UnknownLayout:
        if Path(name).parent != Path(".") or name.endswith(".toml") or os.path.lexists(name):
            raise  # (a file: what is wrong with it)
        from printgen.values import did_you_mean

        playable = [key for key, game in GAMES.items() if game.sheetless] + [
            known for known in layouts.builtin_names() if score_sheet(layouts.load(known)) is not None]
        raise UsageProblem(f"unknown game or layout {name!r}{did_you_mean(name, playable)}; simulate plays "
                           f"{', '.join(playable)}") from None
    game = kind_of(layout).game(layout)
    if game.sheetless:
        return game, None
    sheet = score_sheet(layout)
    if sheet is None:
        raise UsageProblem(f"{name}: is a {layout.kind}; simulate plays the game of a score sheet (e.g. "
                           f"qwixx-cards for the card game) or one-to-9")
    return game, sheet


def run_simulation(name: str, game: Game, settings: dict[str, Any],
                   on_game: Callable[[int], None] | None = None) -> SimulationResult:
    """Play the games `settings` ask for on `name` (options already checked for `game`); draw if asked."""
    players, games, seed, strategy = (settings[k] for k in ("players", "games", "seed", "strategy"))
    if settings.get("render"):
        from printgen.output import check_file_target

        check_file_target(Path(settings["render"]))  # refused before the games are played, not after
    if game is ONE_TO_NINE:
        return SimulationResult(simulate_nine(players, games, seed, strategy, on_game).lines())
    _, layout = game_of(name)
    assert layout is not None
    report, first = simulate(layout, players, games, seed, strategy, on_game, settings["card_game"],
                             settings["jokers"], settings["misplay_end"])
    result = SimulationResult(report.lines(), report.warnings, mismatches=report.mismatches)
    if settings.get("render"):
        result.written.append(write_filled(layout, first.sheets, Path(settings["render"]), settings["lang"],
                                           settings["symbols"]))
    return result


def write_filled(layout: ScoreSheetLayout, sheets: list[Sheet], target: Path, lang: str = "en",
                 symbols: bool = False) -> Path:
    """Draw one game's final `sheets` filled in, into `target`: a PDF (on A4 pages, as many to a page as fit at
    full size, as `build` prints them), or one SVG or PNG picture with the sheets one under another; the format
    follows the extension."""
    from printgen.builders.filled import filled_sheet
    from printgen.files import write_items_pdf
    from printgen.kinds.score_sheets import fitting
    from printgen.output import atomic_file
    from printgen.printing.imposition import stacked

    suffix = target.suffix.lower()
    if suffix not in (".pdf", ".svg", ".png"):
        raise UsageProblem(f"--render: {target} must end in .pdf, .svg or .png (the format follows the extension)")
    items = [filled_sheet(layout, sheet, f"{layout.name}-player-{i + 1}", lang, symbols)
             for i, sheet in enumerate(sheets)]
    title = f"{layout.name}: final sheets"
    if suffix == ".pdf":
        return write_items_pdf(iter(items), target, title, per_page=fitting(layout, "a4"), stream=False).path
    page = stacked(items)
    if suffix == ".svg":
        from printgen.render.svg import write_svg

        with atomic_file(target) as temporary:
            write_svg(page, temporary, title)
        return target
    import io

    from printgen.page import Document
    from printgen.preview import opened_pdf, render_page
    from printgen.render.pdf import write_pdf

    buffer = io.BytesIO()
    write_pdf(Document(page.symbols(), [page], title), buffer)
    with opened_pdf(buffer) as document:
        image = render_page(document, 0, round(page.width / 25.4 * 150))
    with atomic_file(target) as temporary:
        image.save(temporary, format="PNG")
    return target


def simulate(layout: ScoreSheetLayout, players: int, games: int, seed: int, strategy: str = "greedy",
             on_game: Callable[[int], None] | None = None, card_game: bool = False, jokers: bool = False,
             misplay_end: bool = False) -> tuple[Report, qwixx.Game | qwixx.CardGame]:
    """Play `games` games on `layout`'s rules; returns the report and the first game (for drawing).

    The card-game sheet is played with cards; `card_game` plays the card game's
    gemixxt variant on the gemixxt A sheet; `jokers` and `misplay_end` are the
    card game's variants.
    """
    if not 2 <= players <= 5:
        raise UsageProblem(f"--players: Qwixx is played by 2 to 5 players, not {players}")
    spec = qwixx.variant(layout.rules)
    cards = spec.card_game or card_game
    if card_game and layout.rules != "gemixxt-a" and not spec.card_game:
        raise UsageProblem(f"--card-game: the card game is played on the cards or gemixxt-a sheet, not {layout.rules}")
    if (jokers or misplay_end) and not cards:
        raise UsageProblem("--jokers and --misplay-end are card-game options (use the qwixx-cards sheet)")
    report = Report(layout.name, games, players, strategy, seed)
    low, high = spec.rule_book_players
    if not low <= players <= high and not cards:
        report.warnings.append(f"--players: {players} players go beyond the rule book of {layout.name} "
                               f"({low}-{high} players, seed 003); the games are played all the same")
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


@dataclass(slots=True)
class NineReport:
    """What a batch of simulated One to 9 games showed."""

    games: int
    players: int
    strategy: str
    seed: int
    outcomes: list[NineOutcome] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report as printable lines."""
        won = [o for o in self.outcomes if o.winner is not None]
        actions: Counter[ActionKind] = Counter()
        for outcome in self.outcomes:
            actions.update(outcome.actions)
        total_actions = sum(actions.values())
        used = ", ".join(f"{kind.value} {100 * actions[kind] / total_actions:.1f} %" for kind in ActionKind)
        reasons = Counter(o.reason for o in self.outcomes)
        ends = ", ".join(f"{r.value} {100 * reasons[r] / self.games:.1f} %" for r in GameOver if reasons[r])
        lines = [(f"one-to-9: {_count(self.games, 'game')}, {self.players} players, {self.strategy} strategy, "
                 f"seed {self.seed}")]
        if won:
            turns = sum(o.winner_turns for o in won) / len(won)
            game = sum(o.turns for o in self.outcomes) / len(self.outcomes)
            small = sum(o.small_stars[o.winner] for o in won if o.winner is not None) / len(won)
            big = sum(o.big_stars[o.winner] for o in won if o.winner is not None) / len(won)
            lines.append(f"winner     mean {turns:.1f} turns of their own (a game: mean {game:.1f} turns)")
            lines.append(f"stars      the winner ends with mean {small:.1f} small and {big:.1f} big stars")
        every_small = sum(sum(o.small_stars) for o in self.outcomes) / (self.games * self.players)
        every_big = sum(sum(o.big_stars) for o in self.outcomes) / (self.games * self.players)
        lines.append(f"           every player: mean {every_small:.1f} small and {every_big:.1f} big stars")
        lines.append(f"actions    {used}")
        lines.append(f"ended by   {ends}")
        lines.append("conserved  98 cards and 39 + 9 stars after every turn of every game")
        return lines


def simulate_nine(players: int, games: int, seed: int, strategy: str = "greedy",
                  on_game: Callable[[int], None] | None = None) -> NineReport:
    """Play `games` games of One to 9 (every turn checks that cards and stars are conserved)."""
    fewest, most = ONE_TO_NINE.players
    if not fewest <= players <= most:  # (as `simulate` guards Qwixx's: the command line says so first)
        raise UsageProblem(f"--players: One to 9 is played by {fewest} to {most} players, not {players}")
    report = NineReport(games, players, strategy, seed)
    seeds = random.Random(seed)
    for number in range(games):
        game = OneToNine(players, seeds.getrandbits(32), strategies_for(strategy, players))
        report.outcomes.append(game.play())
        if on_game is not None:
            on_game(number + 1)
    return report
