"""The cross-check: a layout in, every disagreement with the rules engine out (as printable lines).

The rules engine is the authority; a layout is checked against it, never the
other way round. `build` refuses a layout with any mismatch.
"""

from __future__ import annotations

from collections import Counter

from printgen.errors import CheckFailed
from printgen.layouts.model import DeckLayout, Layout, ScoreSheetLayout
from printgen.rules import qwixx


def mismatches(layout: Layout) -> list[str]:
    """Every way `layout` disagrees with the rules, each as `file: key: what` (empty when it agrees)."""
    found = _deck(layout) if isinstance(layout, DeckLayout) else _score_sheet(layout)
    return [f"{layout.source}: {key}: {message}" for key, message in found]


def require_agreement(layout: Layout) -> None:
    """Raise CheckFailed naming every mismatch of `layout` with the rules."""
    found = mismatches(layout)
    if found:
        raise CheckFailed(found)


def _deck(layout: DeckLayout) -> list[tuple[str, str]]:
    from printgen.builders.cards import deck_cards

    printed = Counter((card.colour or "joker", card.number) for card in deck_cards(layout))
    rules = Counter((card.colour or "joker", card.number) for card in qwixx.qwixx_deck(jokers=True))
    found = []
    for kind, number in sorted(printed.keys() | rules.keys()):
        if printed[(kind, number)] != rules[(kind, number)]:
            times = f"{kind} {number} is printed {printed[(kind, number)]} times"
            found.append(("cards", f"{times}, the rules deck has {rules[(kind, number)]}"))
    return found


def _score_sheet(layout: ScoreSheetLayout) -> list[tuple[str, str]]:
    spec = qwixx.variant(layout.rules)
    found: list[tuple[str, str]] = []
    if len(layout.rows) != len(spec.rows):
        found.append(("rows", f"{len(layout.rows)} rows, the {spec.name} rules have {len(spec.rows)}"))
    for index, (row, rule) in enumerate(zip(layout.rows, spec.rows)):
        key = f"rows[{index}]"
        if row.colour != rule.colour:
            found.append((f"{key}.colour", f"{row.colour!r}, the rules say {rule.colour!r}"))
        if row.numbers != rule.numbers:
            found.append((f"{key}.numbers", f"{list(row.numbers)}, the rules say {list(rule.numbers)}"))
        locks = spec.lock_numbers(index)
        if row.locks_with != locks:
            found.append((f"{key}.locks_with", f"{list(row.locks_with)}, the rules say {list(locks)}"))
        if row.cell_colours != rule.cell_colours:
            found.append((f"{key}.segments", (f"cell colours {list(row.cell_colours)}, "
                                             f"the rules say {list(rule.cell_colours)}")))
        boxed = spec.bonus_numbers[index] if spec.bonus_numbers else frozenset()
        if set(row.bonus) != boxed:
            found.append((f"{key}.bonus", f"{sorted(row.bonus)}, the rules say {sorted(boxed)}"))
        kinds = {n: k for (r, n), k in spec.bonus_kinds.items() if r == index}
        if dict(row.bonus_fields) != kinds:
            found.append((f"{key}.bonus_fields", f"{dict(row.bonus_fields)}, the rules say {kinds}"))
    if layout.bonus_row != spec.bonus_row:
        found.append(("bonus_row", f"{list(layout.bonus_row)}, the rules say {list(spec.bonus_row)}"))
    if layout.lucky_numbers != spec.lucky:
        found.append(("lucky_numbers", (f"{str(layout.lucky_numbers).lower()}, the rules say "
                                       f"{str(spec.lucky).lower()}")))
    penalty_word = "misplays" if spec.card_game else "misthrows"
    if layout.penalties.label != penalty_word:
        found.append(("penalties.label", (f"{layout.penalties.label!r}, the {spec.name} rules call them "
                                         f"{penalty_word!r}")))
    if layout.penalties.count != spec.max_penalties:
        found.append(("penalties.count", f"{layout.penalties.count}, the rules say {spec.max_penalties}"))
    if layout.penalties.points != -spec.penalty_points:
        found.append(("penalties.points", f"{layout.penalties.points}, the rules say {-spec.penalty_points}"))
    table = qwixx.points_table(spec.name)
    crosses = list(range(1, len(table) + 1))
    if list(layout.points_table.crosses) != crosses:
        found.append(("points_table.crosses", f"{list(layout.points_table.crosses)}, the rules say {crosses}"))
    for i, (printed, right) in enumerate(zip(layout.points_table.points, table)):
        if printed != right:
            found.append((f"points_table.points[{i}]", f"{printed} for {i + 1} crosses, the rules say {right}"))
    if len(layout.points_table.points) != len(table):
        found.append(("points_table.points", f"{len(layout.points_table.points)} entries, the rules say {len(table)}"))
    return found
