"""Games: a layout, the printed sheets' lucky pairs or orders and a seed in, rules-engine sheets and their truths out.

The lucky pair and the shuffled order of a pad's sheet are dealt again from
the pad's seed as printgen's pad does (`rules.lucky.deal` over the balanced
pool, `rules.variants.shuffled_numbers` drawn sheet after sheet from one
`random.Random(seed)`). Crosses come from a game of the rules engine.
"""

from __future__ import annotations

import random
from typing import Any

from printgen import layouts
from printgen.rules import qwixx
from printgen.rules.card_game import CardGame
from printgen.rules.game import Game
from printgen.rules.lucky import deal, parse_pool
from printgen.rules.sheet import Sheet
from printgen.rules.variants import shuffled_numbers

LETTERS = "ABCDE"


def printed(layout_name: str, seed: int, sheets: int, shuffle: bool) -> list[dict[str, Any]]:
    """What each sheet of a pad carries: {"lucky": pair or None, "numbers": rows or None}, as printgen deals it."""
    layout = layouts.load(layout_name)
    spec = qwixx.variant(layout.rules)  # type: ignore[union-attr]
    pairs = deal(parse_pool("balanced", spec.dice_sides), sheets, seed) if layout.lucky_numbers else None  # type: ignore[union-attr]
    rng = random.Random(seed)
    found = []
    for index in range(sheets):
        numbers = shuffled_numbers(spec, rng) if shuffle else None
        found.append({"lucky": pairs[index] if pairs else None, "numbers": numbers})
    return found


def play(layout_name: str, sheets: list[dict[str, Any]], rng: random.Random) -> tuple[list[Sheet], str]:
    """A game in which the first len(sheets) players play on those printed sheets; their engine sheets."""
    layout = layouts.load(layout_name)
    rules = layout.rules  # type: ignore[union-attr]
    spec = qwixx.variant(rules)
    players = max(len(sheets), rng.randint(2, 5))
    strategies = [rng.choice(["greedy", "greedy", "random"]) for _ in range(players)]
    seed = rng.randrange(1 << 30)
    if spec.card_game:
        game: Any = CardGame(players=players, jokers=rng.random() < 0.5, seed=seed, strategies=strategies,
                             sheet=rules)
    else:
        lucky = None
        if spec.lucky:
            pool = parse_pool("balanced", spec.dice_sides)
            lucky = [tuple(s["lucky"]) for s in sheets] + [rng.choice(pool) for _ in range(players - len(sheets))]
        game = Game(rules, players=players, seed=seed, strategies=strategies, lucky=lucky)
        for index, sheet in enumerate(sheets):
            if sheet["numbers"] is not None:
                game.sheets[index] = Sheet(rules, lucky=sheet["lucky"], numbers=sheet["numbers"])
    stop = rng.choice([None, None, rng.randint(2, 40)])
    while game.outcome is None and (stop is None or game.turns < stop):
        game.play_turn()
    how = f"{players} players, {'played out' if game.outcome else f'stopped after {game.turns} turns'}"
    return game.sheets[:len(sheets)], how


def truth(layout_name: str, sheet: Sheet, lucky: Any, numbers: Any) -> dict[str, Any]:
    """The truth of one sheet in `printgen score --json` terms."""
    layout = layouts.load(layout_name)
    rows = [{"crossed": sorted(sheet.marked(r)), "lock": sheet.is_locked(r)} for r in range(len(sheet.spec.rows))]
    bonus: dict[str, Any] | None = None
    if layout.bonus_row:  # type: ignore[union-attr]
        bonus = {"row": [state == "struck" for state in sheet.bonus_row()]}
    elif getattr(layout, "bonus_boxes", None) or sheet.spec.bonus_kinds:
        won = set(sheet.bonus_kinds())
        bonus = {"boxes": {LETTERS[k - 1]: k in won for k in range(1, 6)}}
    return {"layout": layout_name, "lucky": list(lucky) if lucky else None,
            "numbers": [list(row) for row in numbers] if numbers else None, "rows": rows,
            "penalties": sheet.penalties, "bonus": bonus}
