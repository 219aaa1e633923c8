"""Qwixx score-sheet rules: a variant name in, sheets that accept only legal marks and score them out.

A `Sheet` is one player's score sheet. Rows are numbered 0..3 from top to
bottom and numbers are given as printed. Marks go strictly left to right;
skipped numbers are lost; the rightmost number (the lock number) needs
`lock_min_crosses` crosses in the row first, and marking it also crosses the
lock field, which counts as one more cross.

>>> sheet = Sheet("standard")
>>> sheet.mark(0, 4); sheet.mark(0, 7)
>>> sheet.can_mark(0, 5)
False
>>> sheet.crosses(0), sheet.points(0)
(2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from printgen.rules.errors import IllegalMove
from printgen.rules.scoring import points
from printgen.rules.scoring import points_table as _table

Colour: TypeAlias = str
"""A row or die colour: "red", "yellow", "green" or "blue"."""

COLOURS: tuple[Colour, ...] = ("red", "yellow", "green", "blue")


@dataclass(frozen=True, slots=True)
class RowSpec:
    """One coloured row: its colour and its numbers in printed order, left to right."""

    colour: Colour
    numbers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """Everything the rules fix about one edition's score sheet."""

    name: str
    dice_sides: int
    rows: tuple[RowSpec, ...]
    lock_min_crosses: int
    lock_fields: int = 1
    max_penalties: int = 4
    penalty_points: int = 5

    @property
    def possible_sums(self) -> range:
        """Every sum of two dice of this edition (2..12 for six-sided dice)."""
        return range(2, 2 * self.dice_sides + 1)

    @property
    def max_crosses(self) -> int:
        """Most crosses a row can hold: numbers before the lock fields, one lock number, the lock."""
        return len(self.rows[0].numbers) - self.lock_fields + 2

    def lock_numbers(self, row: int) -> tuple[int, ...]:
        """The rightmost numbers of `row` whose mark locks it."""
        return self.rows[row].numbers[-self.lock_fields :]


def _ascending(colour: Colour, low: int, high: int) -> RowSpec:
    return RowSpec(colour, tuple(range(low, high + 1)))


def _descending(colour: Colour, low: int, high: int) -> RowSpec:
    return RowSpec(colour, tuple(range(high, low - 1, -1)))


VARIANTS: dict[str, VariantSpec] = {
    "standard": VariantSpec(
        name="standard",
        dice_sides=6,
        rows=(
            _ascending("red", 2, 12),
            _ascending("yellow", 2, 12),
            _descending("green", 2, 12),
            _descending("blue", 2, 12),
        ),
        lock_min_crosses=5,
    ),
}


def variant(name: str) -> VariantSpec:
    """The rules of edition `name`; an unknown name is a ValueError listing the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(f"unknown Qwixx variant {name!r} (known: {known})") from None


def points_table(name: str) -> list[int]:
    """Points for 1..max crosses in a row of edition `name`.

    >>> points_table("standard")[-1]
    78
    """
    return _table(variant(name).max_crosses)


class Sheet:
    """One player's score sheet of edition `variant_name`; illegal marks raise IllegalMove."""

    def __init__(self, variant_name: str = "standard") -> None:
        self.spec = variant(variant_name)
        self._marks: list[list[int]] = [[] for _ in self.spec.rows]
        self._locked: list[bool] = [False for _ in self.spec.rows]
        self._penalties = 0

    # -- queries -------------------------------------------------------------

    @property
    def variant(self) -> str:
        """The edition's name."""
        return self.spec.name

    @property
    def penalties(self) -> int:
        """Penalties (misthrows) marked so far."""
        return self._penalties

    def marked(self, row: int) -> tuple[int, ...]:
        """The numbers marked in `row`, left to right."""
        self._check_row(row)
        numbers = self.spec.rows[row].numbers
        return tuple(numbers[i] for i in self._marks[row])

    def is_locked(self, row: int) -> bool:
        """True when this player locked `row` by marking its lock number."""
        self._check_row(row)
        return self._locked[row]

    def crosses(self, row: int) -> int:
        """Crosses in `row`, the lock field included."""
        self._check_row(row)
        return len(self._marks[row]) + (1 if self._locked[row] else 0)

    def points(self, row: int) -> int:
        """Points scored by `row`."""
        return points(self.crosses(row))

    def penalty_points(self) -> int:
        """Points lost to penalties (a positive number)."""
        return self._penalties * self.spec.penalty_points

    def total(self) -> int:
        """All rows' points minus the penalties."""
        return sum(self.points(r) for r in range(len(self.spec.rows))) - self.penalty_points()

    def can_mark(self, row: int, number: int) -> bool:
        """True when `number` may be marked in `row` now."""
        return self._why_not(row, number) is None

    def legal_marks(self) -> list[tuple[int, int]]:
        """Every (row, number) that may be marked now."""
        return [
            (r, n)
            for r, spec in enumerate(self.spec.rows)
            for n in spec.numbers
            if self._why_not(r, n) is None
        ]

    # -- moves ---------------------------------------------------------------

    def mark(self, row: int, number: int) -> None:
        """Cross `number` in `row` (and the lock, if it is a lock number); IllegalMove if not allowed."""
        reason = self._why_not(row, number)
        if reason is not None:
            raise IllegalMove(reason)
        self._marks[row].append(self.spec.rows[row].numbers.index(number))
        if number in self.spec.lock_numbers(row):
            self._locked[row] = True

    def add_penalty(self) -> None:
        """Mark one penalty box; a penalty beyond the last box is IllegalMove."""
        if self._penalties >= self.spec.max_penalties:
            raise IllegalMove(f"all {self.spec.max_penalties} penalty boxes are already marked")
        self._penalties += 1

    # -- internals -----------------------------------------------------------

    def _check_row(self, row: int) -> None:
        if not isinstance(row, int) or not 0 <= row < len(self.spec.rows):
            raise IllegalMove(f"row {row!r} does not exist (rows are 0..{len(self.spec.rows) - 1})")

    def _why_not(self, row: int, number: int) -> str | None:
        self._check_row(row)
        spec = self.spec.rows[row]
        if number not in spec.numbers:
            return f"{number!r} is not in the {spec.colour} row"
        if self._locked[row]:
            return f"the {spec.colour} row is locked"
        index = spec.numbers.index(number)
        if self._marks[row] and index <= self._marks[row][-1]:
            last = spec.numbers[self._marks[row][-1]]
            return f"{number} is not right of {last}, the last cross in the {spec.colour} row"
        if number in self.spec.lock_numbers(row):
            have = len(self._marks[row])
            need = self.spec.lock_min_crosses
            if have < need:
                return f"locking the {spec.colour} row with {number} needs {need} crosses, it has {have}"
        return None
