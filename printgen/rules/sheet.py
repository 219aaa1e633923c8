"""One player's Qwixx score sheet of any edition: marks in, legality, bonus effects and scores out.

Rows are numbered 0..3 from top to bottom and numbers are given as printed.
Marks go strictly left to right; skipped numbers are lost; the lock numbers
need `lock_min_crosses` crosses first and also cross the lock field. Bonus
effects (Bonus A chains, Bonus B kinds) are applied by `mark()` itself; where
the rules leave the player a choice, `pending` says so and `choose()` takes it.

>>> sheet = Sheet("standard")
>>> sheet.mark(0, 4); sheet.mark(0, 7)
>>> sheet.can_mark(0, 5)
False
>>> sheet.crosses(0), sheet.points(0)
(2, 3)
"""

from __future__ import annotations

import copy
from collections import deque
from dataclasses import dataclass
from typing import Literal

from printgen.rules.illegal_move import IllegalMove
from printgen.rules.scoring import points
from printgen.rules.variants import BONUS_KIND_POINTS, COLOURS, Colour, VariantSpec, variant

BonusField = Literal["free", "struck", "void"]


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """A choice the rules leave to the player: which of `rows` gets `crosses` bonus crosses."""

    kind: int
    rows: tuple[int, ...]
    crosses: int


class Sheet:
    """One player's score sheet of edition `variant_name`; illegal marks raise IllegalMove.

    `lucky` gives the two lucky numbers of a Big Points sheet; `numbers` a
    shuffled Gemixxt B order (each row's lock number stays last).
    """

    def __init__(
        self,
        variant_name: str = "standard",
        lucky: tuple[int, int] | None = None,
        numbers: tuple[tuple[int, ...], ...] | None = None,
    ) -> None:
        spec = variant(variant_name)
        if numbers is not None:
            spec = spec.with_numbers(numbers)
        self.spec: VariantSpec = spec
        self.lucky = _check_lucky(spec, lucky)
        self._marks: list[list[int]] = [[] for _ in spec.rows]
        self._locked = [False] * len(spec.rows)
        self._closed = [False] * len(spec.rows)
        self._penalties = 0
        self._bonus_row: list[BonusField] = ["free"] * len(spec.bonus_row)
        self._kinds_done: list[int] = []
        self._effects: deque[tuple[str, int]] = deque()
        self._pending: PendingChoice | None = None

    def copy(self) -> Sheet:
        """An independent copy of this sheet in its present state (for searching possible plays)."""
        other = copy.copy(self)
        other._marks = [list(marks) for marks in self._marks]
        other._locked = list(self._locked)
        other._closed = list(self._closed)
        other._bonus_row = list(self._bonus_row)
        other._kinds_done = list(self._kinds_done)
        other._effects = deque(self._effects)
        return other

    # -- queries -------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.spec.name

    @property
    def penalties(self) -> int:
        """Penalties (misthrows, misplays) marked so far."""
        return self._penalties

    @property
    def pending(self) -> PendingChoice | None:
        """A bonus choice waiting for `choose()`, or None."""
        return self._pending

    def colour(self, row: int, number: int) -> Colour:
        """The colour of the cell holding `number` in `row`."""
        self._check_row(row)
        if number not in self.spec.rows[row].numbers:
            raise IllegalMove(f"{number!r} is not in row {row}")
        return self.spec.rows[row].colour_of(number)

    def marked(self, row: int) -> tuple[int, ...]:
        """The numbers marked in `row`, left to right."""
        self._check_row(row)
        numbers = self.spec.rows[row].numbers
        return tuple(numbers[i] for i in self._marks[row])

    def skipped(self, row: int) -> tuple[int, ...]:
        """Numbers left of the last cross in `row` that were not marked (lost for good)."""
        self._check_row(row)
        marks = self._marks[row]
        if not marks:
            return ()
        numbers = self.spec.rows[row].numbers
        return tuple(numbers[i] for i in range(marks[-1]) if i not in marks)

    def is_locked(self, row: int) -> bool:
        """True when this player locked `row` by marking a lock number."""
        self._check_row(row)
        return self._locked[row]

    def is_closed(self, row: int) -> bool:
        """True when `row` takes no more marks: locked here or closed by another player's lock."""
        self._check_row(row)
        return self._locked[row] or self._closed[row]

    def crosses(self, row: int) -> int:
        """Crosses in `row`, the lock field included."""
        self._check_row(row)
        return len(self._marks[row]) + (1 if self._locked[row] else 0)

    def points(self, row: int) -> int:
        """Points scored by `row` (before Bonus B's doubling)."""
        return points(self.crosses(row))

    def penalty_points(self) -> int:
        """Points lost to penalties (a positive number; 0 with Bonus B kind 5)."""
        return 0 if 5 in self._kinds_done else self._penalties * self.spec.penalty_points

    def bonus_points(self) -> int:
        """Bonus B end effects: kind 3 doubles the row with the fewest crosses, kind 4 adds 13."""
        extra = BONUS_KIND_POINTS if 4 in self._kinds_done else 0
        if 3 in self._kinds_done:
            fewest = min(range(len(self.spec.rows)), key=self.crosses)
            extra += self.points(fewest)
        return extra

    def total(self) -> int:
        """All rows' points, plus bonus points, minus penalties."""
        rows = sum(self.points(r) for r in range(len(self.spec.rows)))
        return rows + self.bonus_points() - self.penalty_points()

    def bonus_row(self) -> tuple[BonusField, ...]:
        """Bonus A: the state of each bonus-row field, left to right."""
        return tuple(self._bonus_row)

    def bonus_kinds(self) -> tuple[int, ...]:
        """Bonus B: the kinds won so far, in the order they were won."""
        return tuple(self._kinds_done)

    def can_mark(self, row: int, number: int, colour: Colour | None = None) -> bool:
        """True when `number` may be marked in `row` now; `colour` names the coloured die of an action-2 mark."""
        return self._why_not(row, number, colour) is None

    def legal_marks(self, colour: Colour | None = None) -> list[tuple[int, int]]:
        """Every (row, number) that may be marked now (with a die of `colour`, if given)."""
        return [
            (r, n)
            for r, spec in enumerate(self.spec.rows)
            for n in spec.numbers
            if self._why_not(r, n, colour) is None
        ]

    def lucky_targets(self) -> list[tuple[int, int]]:
        """Big Points: the fields a lucky white sum may mark instead (RULES.md section 2).

        The next field (right of the last cross, or the first) of each open row
        with the fewest crosses, when the rules allow marking it now.
        """
        if not self.lucky:
            return []
        open_rows = [r for r in range(len(self.spec.rows)) if not self.is_closed(r)]
        if not open_rows:
            return []
        fewest = min(self.crosses(r) for r in open_rows)
        targets = []
        for row in open_rows:
            if self.crosses(row) != fewest:
                continue
            marks = self._marks[row]
            index = marks[-1] + 1 if marks else 0
            numbers = self.spec.rows[row].numbers
            if index < len(numbers) and self._why_not(row, numbers[index], None) is None:
                targets.append((row, numbers[index]))
        return targets

    def can_mark_many(self, row: int, numbers: list[int] | tuple[int, ...], max_skips: int | None = 1) -> bool:
        """Card game: True when all `numbers` may be marked in `row` at once.

        Marked left to right, with at most `max_skips` numbers skipped between
        the first and the last of them (skips before the first are free; None:
        no limit, as in the gemixxt card variant).
        """
        return self._why_not_many(row, numbers, max_skips) is None

    # -- moves ---------------------------------------------------------------

    def mark(self, row: int, number: int, colour: Colour | None = None) -> None:
        """Cross `number` in `row` and apply every effect it triggers; IllegalMove if not allowed."""
        reason = self._why_not(row, number, colour)
        if reason is not None:
            raise IllegalMove(reason)
        self._cross(row, number)
        self._resolve()

    def mark_many(self, row: int, numbers: list[int] | tuple[int, ...], max_skips: int | None = 1) -> None:
        """Card game: cross all `numbers` in `row` (see can_mark_many); IllegalMove if not allowed."""
        reason = self._why_not_many(row, numbers, max_skips)
        if reason is not None:
            raise IllegalMove(reason)
        for number in sorted(numbers, key=self.spec.rows[row].numbers.index):
            self._cross(row, number)
        self._resolve()

    def add_penalty(self) -> None:
        """Mark one penalty box; a penalty beyond the last box is IllegalMove."""
        if self._penalties >= self.spec.max_penalties:
            raise IllegalMove(f"all {self.spec.max_penalties} penalty boxes are already marked")
        self._penalties += 1

    def close(self, row: int) -> None:
        """`row` was locked by another player: no cross here, but no more marks either."""
        self._check_row(row)
        if self.is_closed(row):
            return
        self._closed[row] = True
        self._void_bonus_colour(self.spec.rows[row].colour)

    def choose(self, row: int) -> None:
        """Take the pending bonus choice: give its crosses to `row`."""
        choice = self._pending
        if choice is None:
            raise IllegalMove("no bonus choice is pending")
        if row not in choice.rows:
            raise IllegalMove(f"row {row} is not one of the rows to choose from {list(choice.rows)}")
        self._pending = None
        for _ in range(choice.crosses):
            self._bonus_cross(row)
        self._resolve()

    # -- internals -----------------------------------------------------------

    def _check_row(self, row: int) -> None:
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < len(self.spec.rows):
            raise IllegalMove(f"row {row!r} does not exist (rows are 0..{len(self.spec.rows) - 1})")

    def _why_not(self, row: int, number: int, colour: Colour | None) -> str | None:
        self._check_row(row)
        spec = self.spec.rows[row]
        if self._pending is not None:
            return "a bonus choice is pending: call choose() first"
        if number not in spec.numbers:
            return f"{number!r} is not in row {row}"
        if colour is not None:
            if colour not in COLOURS:
                return f"{colour!r} is not a die colour ({', '.join(COLOURS)})"
            cell = spec.colour_of(number)
            if cell != colour:
                return f"the {number} in row {row} is {cell}, not {colour}"
        return self._position_problem(row, spec.numbers.index(number))

    def _position_problem(self, row: int, index: int) -> str | None:
        numbers = self.spec.rows[row].numbers
        if self._locked[row]:
            return f"row {row} is locked"
        if self._closed[row]:
            return f"row {row} was closed by another player's lock"
        marks = self._marks[row]
        if marks and index <= marks[-1]:
            return f"{numbers[index]} is not right of {numbers[marks[-1]]}, the last cross in row {row}"
        if index >= len(numbers) - self.spec.lock_fields and len(marks) < self.spec.lock_min_crosses:
            need = self.spec.lock_min_crosses
            return f"locking row {row} with {numbers[index]} needs {need} crosses, it has {len(marks)}"
        return None

    def _why_not_many(self, row: int, numbers: list[int] | tuple[int, ...], max_skips: int | None = 1) -> str | None:
        self._check_row(row)
        if not numbers:
            return "no numbers given"
        if len(set(numbers)) != len(numbers):
            return f"{list(numbers)} names a number twice"
        order = self.spec.rows[row].numbers
        for number in numbers:
            if number not in order:
                return f"{number!r} is not in row {row}"
        positions = sorted(order.index(n) for n in numbers)
        skipped = positions[-1] - positions[0] + 1 - len(positions)
        if max_skips is not None and skipped > max_skips:
            return f"{list(numbers)} skips {skipped} numbers between the first and the last (at most {max_skips})"
        marks = list(self._marks[row])
        for index in positions:
            last = marks[-1] if marks else -1
            if self._locked[row] or self._closed[row] or self._pending is not None:
                return self._why_not(row, order[index], None)
            if index <= last:
                return f"{order[index]} is not right of {order[last]}, the last cross in row {row}"
            if index >= len(order) - self.spec.lock_fields and len(marks) < self.spec.lock_min_crosses:
                return f"locking row {row} with {order[index]} needs {self.spec.lock_min_crosses} crosses"
            marks.append(index)
            if index >= len(order) - self.spec.lock_fields and index != positions[-1]:
                return f"{order[index]} locks row {row}: nothing may follow it"
        return None

    def _next_possible(self, row: int) -> int | None:
        """Index of the leftmost field right of the last cross that may be marked now, or None."""
        marks = self._marks[row]
        for index in range((marks[-1] + 1) if marks else 0, len(self.spec.rows[row].numbers)):
            if self._position_problem(row, index) is None:
                return index
        return None

    def _cross(self, row: int, number: int) -> None:
        """Put a legal cross and queue the effects it triggers."""
        numbers = self.spec.rows[row].numbers
        index = numbers.index(number)
        self._marks[row].append(index)
        if index >= len(numbers) - self.spec.lock_fields:
            self._locked[row] = True
            self._void_bonus_colour(self.spec.rows[row].colour)
        if self.spec.bonus_numbers and number in self.spec.bonus_numbers[row]:
            self._effects.append(("bonus-row", 0))
        if self.spec.bonus_kinds:
            kind = self.spec.bonus_kinds.get((row, number))
            if kind is not None and kind not in self._kinds_done and self._kind_complete(kind):
                self._kinds_done.append(kind)
                self._effects.append(("kind", kind))

    def _kind_complete(self, kind: int) -> bool:
        fields = [key for key, k in self.spec.bonus_kinds.items() if k == kind]
        return all(self.spec.rows[r].numbers.index(n) in self._marks[r] for r, n in fields)

    def _bonus_cross(self, row: int) -> None:
        """A bonus cross in the next possible field of `row`; lost if there is none."""
        if self.is_closed(row):
            return
        index = self._next_possible(row)
        if index is not None:
            self._cross(row, self.spec.rows[row].numbers[index])

    def _resolve(self) -> None:
        """Apply queued effects in order until done or a choice is needed."""
        while self._effects and self._pending is None:
            effect, kind = self._effects.popleft()
            if effect == "bonus-row":
                self._strike_bonus_field()
            elif kind == 1:
                self._fewest_row_bonus()
            elif kind == 2:
                for row in range(len(self.spec.rows)):
                    self._bonus_cross(row)

    def _fewest_row_bonus(self) -> None:
        """Bonus B kind 1: two crosses in the row with the fewest crosses, counted over all rows.

        A closed row counts too (RULES.md section 4): when it alone has the fewest
        crosses, both crosses are lost. Among tied rows the player chooses, a closed
        one too ("crosses that cannot be made there are lost": a player may rather
        lose them than lock a row and end the game), unless every tied row is closed.
        """
        fewest = min(self.crosses(r) for r in range(len(self.spec.rows)))
        tied = tuple(r for r in range(len(self.spec.rows)) if self.crosses(r) == fewest)
        if all(self.is_closed(r) for r in tied):
            return
        if len(tied) > 1:
            self._pending = PendingChoice(1, tied, 2)
        else:
            self._bonus_cross(tied[0])
            self._bonus_cross(tied[0])

    def _strike_bonus_field(self) -> None:
        if "free" not in self._bonus_row:
            return
        position = self._bonus_row.index("free")
        self._bonus_row[position] = "struck"
        colour = self.spec.bonus_row[position]
        row = next(r for r, spec in enumerate(self.spec.rows) if spec.colour == colour)
        self._bonus_cross(row)

    def _void_bonus_colour(self, colour: Colour) -> None:
        for position, field_colour in enumerate(self.spec.bonus_row):
            if field_colour == colour and self._bonus_row[position] == "free":
                self._bonus_row[position] = "void"


def _check_lucky(spec: VariantSpec, lucky: tuple[int, int] | None) -> tuple[int, int] | None:
    if lucky is None:
        return None
    if not spec.lucky:
        raise ValueError(f"the {spec.name} sheet has no lucky numbers")
    numbers = tuple(lucky)
    if len(numbers) != 2 or numbers[0] == numbers[1]:
        raise ValueError(f"lucky numbers must be two different numbers, not {list(numbers)}")
    for number in numbers:
        if number not in spec.possible_sums:
            sums = spec.possible_sums
            raise ValueError(f"lucky number {number} is not a possible sum ({sums.start}..{sums.stop - 1})")
    return (numbers[0], numbers[1])
