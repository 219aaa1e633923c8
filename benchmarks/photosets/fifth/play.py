"""A rules-engine game played on the printed sheets: the sheets and their truths out."""

from __future__ import annotations

import random
from typing import Any

from printgen import layouts
from printgen.rules import qwixx


def play(layout_name: str, tracked: list[tuple[tuple[int, int] | None, tuple[tuple[int, ...], ...] | None]],
         rng: random.Random) -> list[qwixx.Sheet]:
    """Play (or stop part way) a game in which the first len(tracked) players hold the printed sheets."""
    layout = layouts.load(layout_name)
    rules = layout.rules  # type: ignore[union-attr]
    players = rng.randint(max(2, len(tracked)), 5)
    strategies = [rng.choice(("greedy", "greedy", "random")) for _ in range(players)]
    seed = rng.randrange(1 << 30)
    if rules == "cards" or (rules == "gemixxt-a" and rng.random() < 0.3):
        game: Any = qwixx.CardGame(players=players, seed=seed, strategies=strategies, sheet=rules)
    else:
        lucky = None
        if qwixx.variant(rules).lucky:
            lucky = [pair for pair, _ in tracked] + [(4, 9), (6, 7), (8, 13), (11, 12), (7, 12)][:players - len(tracked)]
        game = qwixx.Game(rules, players=players, seed=seed, strategies=strategies, lucky=lucky)
        for i, (pair, numbers) in enumerate(tracked):
            if numbers is not None:
                game.sheets[i] = qwixx.Sheet(rules, lucky=pair, numbers=numbers)
    stop = rng.choice((10_000, 10_000, rng.randint(3, 45)))
    while game.outcome is None and game.turns < stop:
        game.play_turn()
    return [game.sheets[i] for i in range(len(tracked))]


def truth(layout_name: str, sheet: qwixx.Sheet, numbers: tuple[tuple[int, ...], ...] | None) -> dict[str, Any]:
    """A sheet in `printgen score --json` terms."""
    layout = layouts.load(layout_name)
    rows = [{"crossed": sorted(sheet.marked(r)), "lock": sheet.is_locked(r)} for r in range(len(sheet.spec.rows))]
    bonus: Any = None
    if layout.bonus_row:  # type: ignore[union-attr]
        bonus = {"row": [state == "struck" for state in sheet.bonus_row()]}
    elif layout.bonus_boxes:  # type: ignore[union-attr]
        done = set(sheet.bonus_kinds())
        bonus = {"boxes": {chr(64 + k): k in done for k in range(1, 6)}}
    return {"layout": layout_name, "lucky": list(sheet.lucky) if sheet.lucky else None,
            "numbers": [list(row) for row in numbers] if numbers else None, "rows": rows,
            "penalties": sheet.penalties, "bonus": bonus}
