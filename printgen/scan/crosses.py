"""From readings to crosses: every field's reading in, the crosses the sheet shows (as the referee takes them) out."""

from __future__ import annotations

from printgen.kinds.score_sheets import ScoreSheetLayout
from printgen.scan.ink import Reading
from printgen.scan.referee import Marks


def marks_of(layout: ScoreSheetLayout, readings: list[Reading]) -> Marks:
    """The crosses the readings show (an uncertain field counts as its best guess)."""
    rows: list[set[int]] = [set() for _ in layout.rows]
    locks = [False] * len(layout.rows)
    penalties = 0
    bonus_row: set[int] = set()
    boxes: set[int] = set()
    for reading in readings:
        if not reading.crossed:
            continue
        f = reading.field
        if f.kind == "number" and f.number is not None:
            rows[f.index].add(f.number)
        elif f.kind == "lock":
            locks[f.index] = True
        elif f.kind == "penalty":
            penalties += 1
        elif f.kind == "bonus-row":
            bonus_row.add(f.index)
        else:
            boxes.add(f.index)
    return Marks(tuple(frozenset(r) for r in rows), tuple(locks), penalties, frozenset(bonus_row), frozenset(boxes))
