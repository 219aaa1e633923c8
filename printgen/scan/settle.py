"""Settling doubtful fields with the rules: the readings of a sheet in, its uncertain fields decided out.

When the ink alone cannot tell whether a field is crossed, the rules often
can: a crossed lock number means a crossed lock, a crossed boxed number
means a struck bonus field. Of all the ways to decide the uncertain fields
(a handful at most), the one the referee accepts that departs least from
what the ink suggests is taken. The fields stay reported as uncertain.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import product

from printgen.kinds.score_sheets import ScoreSheetLayout
from printgen.marks.codes import SheetCode
from printgen.scan.crosses import marks_of
from printgen.scan.ink import Reading, State
from printgen.scan.referee import referee
from printgen.scan.thresholds import MOST_UNCERTAIN


def settle(layout: ScoreSheetLayout, code: SheetCode, readings: list[Reading]) -> list[Reading]:
    """`readings` with every uncertain field decided as the most likely legal sheet has it (if any is legal)."""
    doubtful = [i for i, r in enumerate(readings) if r.state is State.UNCERTAIN]
    if not doubtful or len(doubtful) > MOST_UNCERTAIN:
        return readings
    best: tuple[float, tuple[bool, ...]] | None = None
    for choice in product((False, True), repeat=len(doubtful)):
        cost = sum(readings[i].doubt for i, crossed in zip(doubtful, choice) if crossed != readings[i].crossed)
        if best is not None and cost >= best[0]:
            continue
        trial = list(readings)
        for i, crossed in zip(doubtful, choice):
            trial[i] = replace(readings[i], settled=crossed)
        if referee(layout.rules, marks_of(layout, trial), code.lucky, code.numbers).legal:
            best = (cost, choice)
    if best is None:
        return readings
    settled = list(readings)
    for i, crossed in zip(doubtful, best[1]):
        settled[i] = replace(readings[i], settled=crossed)
    return settled
