"""What is crossed: a real game of printgen's rules engine, one player's sheet as marks and as the truth."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from printgen.rules import qwixx
from printgen.rules.lucky import balanced_pool
from printgen.rules.sheet import Sheet

BONUS_LETTERS = "ABCDE"


@dataclass
class Played:
    """One player's sheet at the moment of the photo."""

    sheet: Sheet
    finished: bool
    totals: list[int] = field(default_factory=list)
    """The figures a player writes on the totals line (each row, the penalty points, the total)."""


def play(layout_rules: str, players: int, seed: int, who: list[int], stop: float | None,
         lucky: list[tuple[int, int] | None], numbers: list[tuple[tuple[int, ...], ...] | None],
         strategies: list[str]) -> list[Played]:
    """Play a whole game of `layout_rules` and take the sheets of the players `who` (given the printed `lucky`
    numbers or shuffled `numbers` of each); `stop` (0..1) ends the photo that far into the game."""
    spec = qwixx.variant(layout_rules)

    def new_game() -> Any:
        if spec.card_game:
            return qwixx.CardGame(players=players, seed=seed, strategies=strategies, sheet=layout_rules)
        pairs = None
        if spec.lucky:
            pool = balanced_pool(spec.dice_sides)
            picker = random.Random(seed)
            pairs = [pool[picker.randrange(len(pool))] for _ in range(players)]
            for player, pair in zip(who, lucky):
                if pair is not None:
                    pairs[player] = pair
            for player in range(players):  # the engine wants two different numbers
                if pairs[player][0] == pairs[player][1]:
                    pairs[player] = pool[0]
        game = qwixx.Game(layout_rules, players=players, seed=seed, strategies=strategies, lucky=pairs)
        for player, order in zip(who, numbers):
            if order is not None:
                game.sheets[player] = Sheet(layout_rules, lucky=game.sheets[player].lucky, numbers=order)
        return game

    game = new_game()
    game.play()
    finished = True
    if stop is not None and game.turns > 4:
        end = max(2, int(game.turns * stop))
        if end < game.turns:
            game = new_game()
            for _ in range(end):
                game.play_turn()
            finished = False
    taken = []
    for player in who:
        sheet = game.sheets[player]
        totals = [*(sheet.points(r) for r in range(len(sheet.spec.rows))), sheet.penalty_points(), sheet.total()]
        taken.append(Played(sheet, finished, totals))
    return taken


def truth(played: Played, layout: str, lucky: tuple[int, int] | None,
          numbers: tuple[tuple[int, ...], ...] | None) -> dict[str, Any]:
    """The sheet's truth, in the terms of `printgen score --json`."""
    sheet = played.sheet
    rows = [{"crossed": list(sheet.marked(r)), "lock": sheet.is_locked(r)} for r in range(len(sheet.spec.rows))]
    bonus: dict[str, Any] | None = None
    if sheet.spec.bonus_row:
        bonus = {"row": [state == "struck" for state in sheet.bonus_row()]}
    elif sheet.spec.bonus_kinds:
        won = set(sheet.bonus_kinds())
        bonus = {"boxes": {BONUS_LETTERS[k - 1]: k in won for k in range(1, 6)}}
    return {"layout": layout, "lucky": list(lucky) if lucky else None,
            "numbers": [list(row) for row in numbers] if numbers else None,
            "rows": rows, "penalties": sheet.penalties, "bonus": bonus}
