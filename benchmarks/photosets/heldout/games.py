"""Games played by the rules engine: a layout and the printed sheets' own data in, legal filled sheets and truths out."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from printgen import layouts
from printgen.builders.shapes import BONUS_LETTERS
from printgen.rules import qwixx
from printgen.rules.lucky import balanced_pool, deal, parse_pool
from printgen.rules.sheet import Sheet
from printgen.rules.variants import shuffled_numbers

from .sheets import Build


@dataclass(frozen=True)
class Printed:
    """One printed sheet of a pad: which sheet it is and what printgen stamped on it."""

    build: Build
    index: int
    lucky: tuple[int, int] | None
    numbers: tuple[tuple[int, ...], ...] | None


def printed_sheets(build: Build) -> list[Printed]:
    """Every sheet of the build's pad with its lucky numbers and shuffled order, dealt as printgen's pad does."""
    layout = layouts.load(build.layout)
    spec = qwixx.variant(layout.rules)  # type: ignore[union-attr]
    pairs = deal(parse_pool("balanced", spec.dice_sides), build.sheets, build.seed) if layout.lucky_numbers else None  # type: ignore[union-attr]
    rng = random.Random(build.seed)
    found = []
    for index in range(build.sheets):
        numbers = shuffled_numbers(spec, rng) if build.shuffle else None
        found.append(Printed(build, index, pairs[index] if pairs else None, numbers))
    return found


def play(printed: list[Printed], rng: random.Random, partial: bool) -> tuple[list[Sheet], str]:
    """One game in which the players of `printed` sheets took part; their sheets (at the end, or part-way)."""
    layout = layouts.load(printed[0].build.layout)
    rules = layout.rules  # type: ignore[union-attr]
    spec = qwixx.variant(rules)
    players = rng.randint(max(2, len(printed)), 5)
    seats = rng.sample(range(players), len(printed))
    strategies = [rng.choice(("greedy", "greedy", "random")) for _ in range(players)]
    seed = rng.getrandbits(31)
    game: Any
    if spec.card_game or (rules == "gemixxt-a" and rng.random() < 0.3):
        game = qwixx.CardGame(players=players, jokers=rng.random() < 0.5, seed=seed, strategies=strategies,
                              sheet=rules)
        how = f"card game, {players} players"
    else:
        lucky: list[tuple[int, int]] | None = None
        if spec.lucky:
            pool = balanced_pool(spec.dice_sides)
            lucky = [rng.choice(pool) for _ in range(players)]
            for seat, sheet in zip(seats, printed):
                if sheet.lucky is not None:
                    lucky[seat] = sheet.lucky
        game = qwixx.Game(rules, players=players, seed=seed, strategies=strategies, lucky=lucky)
        for seat, sheet in zip(seats, printed):
            if sheet.numbers is not None:
                game.sheets[seat] = Sheet(rules, numbers=sheet.numbers)
        how = f"dice game, {players} players"
    if partial:
        stop = rng.randint(4, 30)
        while game.outcome is None and game.turns < stop:
            game.play_turn()
        how += f", stopped after {game.turns} turns"
    else:
        game.play()
    return [game.sheets[seat] for seat in seats], how


def truth(printed: Printed, sheet: Sheet | None) -> dict[str, Any]:
    """The sheet's truth as `printgen score --json` words it (`sheet` None: left blank)."""
    layout = layouts.load(printed.build.layout)
    rows = len(layout.rows)  # type: ignore[union-attr]
    bonus: dict[str, Any] | None = None
    if layout.bonus_row:  # type: ignore[union-attr]
        states = sheet.bonus_row() if sheet else ("free",) * len(layout.bonus_row)  # type: ignore[union-attr]
        bonus = {"row": [state == "struck" for state in states]}
    elif layout.bonus_boxes:  # type: ignore[union-attr]
        won = sheet.bonus_kinds() if sheet else ()
        bonus = {"boxes": {letter: kind in won for kind, letter in sorted(BONUS_LETTERS.items())}}
    return {
        "layout": printed.build.layout,
        "lucky": list(printed.lucky) if printed.lucky else None,
        "numbers": [list(row) for row in printed.numbers] if printed.numbers else None,
        "rows": [{"crossed": list(sheet.marked(r)) if sheet else [], "lock": bool(sheet and sheet.is_locked(r))}
                 for r in range(rows)],
        "penalties": sheet.penalties if sheet else 0,
        "bonus": bonus,
    }
