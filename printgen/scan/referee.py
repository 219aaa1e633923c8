"""Refereeing a read sheet: the crosses seen on a sheet in, its points, total, legality and the problems found out.

The rules engine is the authority. A photo shows the final crosses, not the
order they were made in, so the referee looks for an order of play the
engine accepts that ends in exactly this sheet: each row's crosses made left
to right, other players closing rows whenever that helps, and every bonus
effect (Bonus A's bonus row, Bonus B's bonus kinds) applied by the engine
itself. If there is one, the sheet is legal and the engine scores it; if not,
the problems say why, in the players' terms, and the points are counted
from the crosses as they stand. Pure logic: no pixels, no files.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from printgen.rules.card_game import CARD_SHEETS
from printgen.rules.illegal_move import IllegalMove
from printgen.rules.scoring import points
from printgen.rules.sheet import Sheet
from printgen.rules.variants import BONUS_KIND_POINTS, VariantSpec

SEARCH_LIMIT = 40_000
"""Most states the search for an order of play visits before it gives up."""
LETTERS = {1: "A", 2: "B", 3: "C", 4: "D", 5: "E"}


@dataclass(frozen=True, slots=True)
class Marks:
    """What a sheet shows: crossed numbers per row (any order), crossed locks, penalties, bonus fields."""

    rows: tuple[frozenset[int], ...]
    locks: tuple[bool, ...]
    penalties: int
    bonus_row: frozenset[int] = frozenset()
    """Crossed bonus-row fields (Bonus A), positions from 0."""
    bonus_boxes: frozenset[int] = frozenset()
    """Crossed bonus boxes (Bonus B), kinds 1..5."""


@dataclass(slots=True)
class Verdict:
    """The referee's findings on one sheet."""

    points: list[int]
    """As on the totals line: each row's points, then the penalty points (written after the minus)."""
    total: int
    problems: list[str] = field(default_factory=list)
    sheet: Sheet | None = None
    """The engine's sheet when an order of play was found."""

    @property
    def legal(self) -> bool:
        return not self.problems


def referee(variant: str, marks: Marks, lucky: tuple[int, int] | None = None,
            numbers: tuple[tuple[int, ...], ...] | None = None) -> Verdict:
    """Judge `marks` on a sheet of edition `variant` (with its lucky pair and shuffled order, if any)."""
    blank = Sheet(variant, lucky=lucky, numbers=numbers)
    spec = blank.spec
    problems = _row_problems(spec, marks) + _bonus_problems(spec, marks) + _end_problems(spec, marks)
    if marks.penalties > spec.max_penalties:
        problems.append(f"{marks.penalties} penalties crossed, the sheet has {spec.max_penalties} boxes")
    sheet = None
    if not problems:
        sheet, reason = _replay(blank, marks)
        if sheet is None:
            problems.append(reason)
    if sheet is not None:
        count = len(spec.rows)
        figures = [sheet.points(r) for r in range(count)] + [sheet.penalty_points()]
        return Verdict(figures, sheet.total(), problems, sheet)
    figures, total = _counted(spec, marks)
    return Verdict(figures, total, problems)


def _end_problems(spec: VariantSpec, marks: Marks) -> list[str]:
    """Sheets the games end before they can be reached.

    A dice game ends at once when a second row is locked or a player takes the last penalty (RULES.md 1);
    the card game as soon as a player has completed two rows (5), on its own sheet or on gemixxt A's (3). So a
    dice player who took the last penalty
    (a turn in which they crossed nothing) can have locked at most one row before it. And without bonus
    crosses, which can lock rows along the way, a player locks one row at a time (a play marks one row), so
    their own sheet carries at most two locks: before the game's last moment at most one row is closed (for
    the card game: completed by them), and the game ends as the second is.
    """
    locks = sum(marks.locks)
    problems = []
    cards = spec.card_game or spec.name in CARD_SHEETS  # (a gemixxt A sheet may have been played with cards, whose
    # misplays end the game only in a variant)
    if not cards and marks.penalties >= spec.max_penalties and locks >= 2:
        problems.append(f"{locks} locks and all {spec.max_penalties} penalties: the game ends at the second "
                        "closed row or the last penalty, whichever comes first")
    if locks > 2 and not spec.bonus_numbers and not spec.bonus_kinds:
        problems.append(f"{locks} locks: the game ends as a second row is locked, and a player locks one row at a "
                        "time")
    return problems


def _label(spec: VariantSpec, row: int) -> str:
    return f"row {row + 1} ({spec.rows[row].colour})"


def _row_problems(spec: VariantSpec, marks: Marks) -> list[str]:
    """What no order of play can explain within one row: locks and their crosses."""
    problems = []
    for row, crossed in enumerate(marks.rows):
        numbers = spec.rows[row].numbers
        locking = [n for n in spec.lock_numbers(row) if n in crossed]
        name = _label(spec, row)
        if len(locking) > 1:
            problems.append(f"{name}: {' and '.join(map(str, locking))} are both crossed, but the first locks the row")
        elif locking:
            before = sum(1 for n in crossed if numbers.index(n) < numbers.index(locking[0]))
            if before < spec.lock_min_crosses:
                problems.append(f"{name}: {locking[0]} locks the row only after {spec.lock_min_crosses} crosses, "
                                f"it has {before}")
            if not marks.locks[row]:
                problems.append(f"{name}: {locking[0]} is crossed but the lock is not")
        if marks.locks[row] and not locking:
            lock_numbers = " or ".join(map(str, spec.lock_numbers(row)))
            problems.append(f"{name}: the lock is crossed but {lock_numbers} is not")
    return problems


def _bonus_problems(spec: VariantSpec, marks: Marks) -> list[str]:
    """Bonus fields and boxes that their numbers cannot explain."""
    problems = []
    for kind in sorted(set(spec.bonus_kinds.values())):
        fields = [(r, n) for (r, n), k in spec.bonus_kinds.items() if k == kind]
        done = sum(1 for r, n in fields if n in marks.rows[r])
        if kind in marks.bonus_boxes and done < len(fields):
            problems.append(f"bonus box {LETTERS[kind]} is crossed, but only {done} of its {len(fields)} fields")
        elif kind not in marks.bonus_boxes and done == len(fields):
            problems.append(f"both {LETTERS[kind]} fields are crossed, but bonus box {LETTERS[kind]} is not")
    return problems


def _replay(blank: Sheet, marks: Marks) -> tuple[Sheet | None, str]:
    """An engine sheet reached by some legal order of play that shows exactly `marks`, or why there is none."""
    spec = blank.spec
    for row, crossed in enumerate(marks.rows):
        for number in sorted(crossed):
            if number not in spec.rows[row].numbers:
                return None, f"{_label(spec, row)}: {number} is not on this row"
    wanted = [sorted(crossed, key=spec.rows[r].numbers.index) for r, crossed in enumerate(marks.rows)]
    if not spec.bonus_numbers and not spec.bonus_kinds:
        sheet = blank.copy()
        for row, numbers in enumerate(wanted):  # rows do not affect each other: left to right, row by row
            for number in numbers:
                try:
                    sheet.mark(row, number)
                except IllegalMove as error:
                    return None, f"{_label(spec, row)}: the rules refuse {number}: {error}"
        for _ in range(marks.penalties):
            sheet.add_penalty()
        return sheet, ""
    search = _Search(spec, wanted, marks)
    try:
        found = search.run(blank)
    except _TooLong:
        return None, "too many possible orders of play to check this sheet; check it by hand"
    if found is None:
        return None, search.reason()
    for _ in range(marks.penalties):
        found.add_penalty()
    return found, ""


class _TooLong(Exception):
    pass


class _Search:
    """Depth-first search over orders of play (marks, other players' locks, bonus choices)."""

    def __init__(self, spec: VariantSpec, wanted: list[list[int]], marks: Marks) -> None:
        self.spec = spec
        self.wanted = wanted
        self.marks = marks
        self.seen: set[tuple[object, ...]] = set()
        self.closest: Sheet | None = None

    def run(self, sheet: Sheet) -> Sheet | None:
        return self._visit(sheet)

    def reason(self) -> str:
        """Why no order of play works, as well as the closest attempt shows it."""
        best = self.closest
        if best is not None and self.spec.bonus_row:
            states = best.bonus_row()
            struck = {i for i, s in enumerate(states) if s == "struck"}
            missing = sorted(struck - self.marks.bonus_row)
            if missing:
                return f"bonus-row field {missing[0] + 1} must be crossed: a boxed number strikes it"
            extra = sorted(self.marks.bonus_row - struck)
            if extra:
                return (f"bonus-row field {extra[0] + 1} is crossed, but no boxed number strikes it "
                        f"(and no lock can have made it void)")
        return "no order of play the rules allow ends with these crosses (bonus crosses included)"

    def _visit(self, sheet: Sheet) -> Sheet | None:
        counts = tuple(len(sheet.marked(r)) for r in range(len(self.wanted)))
        closed = tuple(sheet.is_closed(r) for r in range(len(self.wanted)))
        key = (counts, closed, sheet.bonus_row(), sheet.bonus_kinds(), sheet.pending)
        if key in self.seen:
            return None
        self.seen.add(key)
        if len(self.seen) > SEARCH_LIMIT:
            raise _TooLong()
        if sheet.pending is not None:
            for row in sheet.pending.rows:
                after = sheet.copy()
                after.choose(row)
                found = self._next(after)
                if found is not None:
                    return found
            return None
        if self._finished(sheet, counts):
            return sheet
        locked = sum(closed)
        for row, numbers in enumerate(self.wanted):  # (once a second row is closed the game is over: no more marks)
            if locked < 2 and counts[row] < len(numbers) and not sheet.is_closed(row):
                after = sheet.copy()
                try:
                    after.mark(row, numbers[counts[row]])
                except IllegalMove:
                    continue
                found = self._next(after)
                if found is not None:
                    return found
        for row, numbers in enumerate(self.wanted):  # another player locks this row (at most 3 rows lock: a
            # third at the moment the second does, in action 1)
            if counts[row] == len(numbers) and not closed[row] and not self.marks.locks[row] and locked < 3:
                after = sheet.copy()
                after.close(row)
                found = self._next(after)
                if found is not None:
                    return found
        return None

    def _next(self, sheet: Sheet) -> Sheet | None:
        """Carry on from `sheet` if it still agrees with what the photo shows."""
        for row, numbers in enumerate(self.wanted):
            made = sheet.marked(row)
            if tuple(numbers[:len(made)]) != made:
                return None
        count = sum(len(sheet.marked(r)) for r in range(len(self.wanted)))
        if self.closest is None or count > sum(len(self.closest.marked(r)) for r in range(len(self.wanted))):
            self.closest = sheet
        struck = {i for i, s in enumerate(sheet.bonus_row()) if s == "struck"}
        if not struck <= self.marks.bonus_row or not set(sheet.bonus_kinds()) <= self.marks.bonus_boxes:
            return None
        return self._visit(sheet)

    def _finished(self, sheet: Sheet, counts: tuple[int, ...]) -> bool:
        if any(count != len(numbers) for count, numbers in zip(counts, self.wanted)):
            return False
        states = sheet.bonus_row()
        struck = {i for i, s in enumerate(states) if s == "struck"}
        void = {i for i, s in enumerate(states) if s == "void"}
        if not struck <= self.marks.bonus_row <= struck | void:
            return False
        return set(sheet.bonus_kinds()) == set(self.marks.bonus_boxes)


def _counted(spec: VariantSpec, marks: Marks) -> tuple[list[int], int]:
    """The points as the crosses stand (for sheets no order of play explains)."""
    crosses = [len(crossed) + (1 if lock else 0) for crossed, lock in zip(marks.rows, marks.locks)]
    rows = [points(n) for n in crosses]
    penalty = 0 if 5 in marks.bonus_boxes else marks.penalties * spec.penalty_points
    extra = BONUS_KIND_POINTS if 4 in marks.bonus_boxes else 0
    if 3 in marks.bonus_boxes:
        extra += rows[min(range(len(rows)), key=lambda r: crosses[r])]
    return [*rows, penalty], sum(rows) + extra - penalty
