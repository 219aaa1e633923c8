"""Games: printed sheets in, the sheets their players left after a rules-engine game (played all or part way) out."""

from __future__ import annotations

import random
from typing import Any

from printgen import layouts
from printgen.rules import qwixx
from printgen.rules.lucky import balanced_pool
from printgen.rules.sheet import Sheet


def play(layout: str, codes: list[tuple[Any, Any]], rng: random.Random) -> list[Sheet]:
    """Play one game with len(codes) tracked players (their lucky pairs and shuffled orders as printed) among
    2..5 players; return the tracked players' sheets, the game stopped at a random turn or played out."""
    rules = layouts.load(layout).rules  # type: ignore[union-attr]
    spec = qwixx.variant(rules)
    players = rng.randint(max(2, len(codes)), 5)
    strategies = [rng.choice(["greedy", "greedy", "random"]) for _ in range(players)]
    seed = rng.randrange(1 << 30)
    if spec.card_game or (rules == "gemixxt-a" and rng.random() < 0.3):
        game: Any = qwixx.CardGame(players=players, jokers=rng.random() < 0.5, seed=seed, strategies=strategies,
                                   sheet=rules)
    else:
        lucky = None
        if spec.lucky:
            pool = balanced_pool(spec.dice_sides)
            lucky = [code[0] or rng.choice(pool) for code in codes] + [rng.choice(pool) for _ in
                                                                        range(players - len(codes))]
        game = qwixx.Game(rules, players=players, seed=seed, strategies=strategies, lucky=lucky)
        for i, (_, numbers) in enumerate(codes):
            if numbers is not None:
                game.sheets[i] = Sheet(rules, lucky=game.sheets[i].lucky, numbers=numbers)
    stop = rng.choice([10**6, 10**6, rng.randint(2, 40)])
    while game.outcome is None and game.turns < stop:
        game.play_turn()
    return game.sheets[:len(codes)]


def truth(layout: str, sheet: Sheet, lucky: Any, numbers: Any) -> dict[str, Any]:
    """A sheet's truth in `printgen score --json` terms."""
    rows = [{"crossed": sorted(sheet.marked(r)), "lock": sheet.is_locked(r)} for r in range(len(sheet.spec.rows))]
    bonus: dict[str, Any] | None = None
    if sheet.spec.bonus_row:
        bonus = {"row": [state == "struck" for state in sheet.bonus_row()]}
    elif sheet.spec.bonus_kinds:
        bonus = {"boxes": {"ABCDE"[kind - 1]: kind in sheet.bonus_kinds() for kind in range(1, 6)}}
    return {"layout": layout, "lucky": sorted(lucky) if lucky else None,
            "numbers": [list(row) for row in numbers] if numbers else None, "rows": rows,
            "penalties": sheet.penalties, "bonus": bonus}
