"""The Qwixx editions as data: a variant name in, everything its rules fix about a score sheet out.

Sources: RULES.md sections 1-5. Positions marked "transcribed" there are
facts from published sheets; the Bonus-B field positions are printgen's own
(RULES.md section 4 says none is at hand).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import TypeAlias

Colour: TypeAlias = str
"""A row, cell or die colour: "red", "yellow", "green" or "blue"."""

COLOURS: tuple[Colour, ...] = ("red", "yellow", "green", "blue")


@dataclass(frozen=True, slots=True)
class RowSpec:
    """One row: numbers in printed order (left to right) and each cell's colour; the lock takes the last cell's colour."""

    numbers: tuple[int, ...]
    cell_colours: tuple[Colour, ...]

    @property
    def colour(self) -> Colour:
        """The row's lock colour (its only colour on single-colour rows)."""
        return self.cell_colours[-1]

    def colour_of(self, number: int) -> Colour:
        return self.cell_colours[self.numbers.index(number)]


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
    lucky: bool = False
    card_game: bool = False
    bonus_numbers: tuple[frozenset[int], ...] = ()
    """Bonus A: per row, the boxed numbers."""
    bonus_row: tuple[Colour, ...] = ()
    """Bonus A: the bonus row's field colours, left to right."""
    bonus_kinds: dict[tuple[int, int], int] = field(default_factory=dict)
    """Bonus B: (row, number) -> bonus kind 1..5."""
    shuffled_lock_numbers: tuple[int, ...] = ()
    """Gemixxt B: the number that stays last in each row when a sheet is shuffled."""
    rule_book_players: tuple[int, int] = (2, 5)
    """The players the edition's rule book names (seed 003's editions: 2-4); engines still allow 2-5."""

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

    def numbers_by_row(self) -> tuple[tuple[int, ...], ...]:
        """Every row's numbers in printed order."""
        return tuple(row.numbers for row in self.rows)

    def with_numbers(self, numbers: tuple[tuple[int, ...], ...]) -> VariantSpec:
        """This edition with rows re-ordered as `numbers` (gemixxt B shuffled sheets); ValueError if invalid."""
        if len(numbers) != len(self.rows):
            raise ValueError(f"{len(numbers)} rows given, the {self.name} sheet has {len(self.rows)}")
        rows = []
        for index, (row, order) in enumerate(zip(self.rows, numbers)):
            if sorted(order) != sorted(row.numbers):
                raise ValueError(f"row {index} must hold each of {sorted(row.numbers)} once, not {list(order)}")
            if order[-1] != row.numbers[-1]:
                raise ValueError(f"row {index} must end with its lock number {row.numbers[-1]}, not {order[-1]}")
            rows.append(RowSpec(tuple(order), row.cell_colours))
        return replace(self, rows=tuple(rows))


BONUS_KINDS = (1, 2, 3, 4, 5)
"""Bonus B kinds: 1 two crosses in the row with the fewest crosses; 2 a cross in every row; 3 the row with the fewest crosses doubled; 4 +13; 5 no misthrow points."""

BONUS_KIND_POINTS = 13


def _plain(colour: Colour, numbers: range | tuple[int, ...]) -> RowSpec:
    numbers = tuple(numbers)
    return RowSpec(numbers, (colour,) * len(numbers))


def _segmented(*segments: tuple[Colour, tuple[int, ...]]) -> RowSpec:
    numbers: list[int] = []
    colours: list[Colour] = []
    for colour, part in segments:
        numbers += part
        colours += [colour] * len(part)
    return RowSpec(tuple(numbers), tuple(colours))


SEED_003_PLAYERS = (2, 4)
"""Seed 003 prints "Giocatori: 2-4 persone" for every edition it describes."""

_UP = range(2, 13)
_DOWN = range(12, 1, -1)
_STANDARD_ROWS = (_plain("red", _UP), _plain("yellow", _UP), _plain("green", _DOWN), _plain("blue", _DOWN))

STANDARD = VariantSpec("standard", dice_sides=6, rows=_STANDARD_ROWS, lock_min_crosses=5)

VARIANTS: dict[str, VariantSpec] = {
    spec.name: spec
    for spec in (
        STANDARD,
        VariantSpec(
            "big-points",
            dice_sides=8,
            rows=(_plain("red", range(2, 17)), _plain("yellow", range(2, 17)),
                  _plain("green", range(16, 1, -1)), _plain("blue", range(16, 1, -1))),
            lock_min_crosses=6,
            rule_book_players=SEED_003_PLAYERS,
            lock_fields=2,
            lucky=True,
        ),
        VariantSpec(
            "gemixxt-a",
            dice_sides=6,
            rows=(
                _segmented(("yellow", (2, 3, 4)), ("blue", (5, 6, 7)), ("green", (8, 9, 10)), ("red", (11, 12))),
                _segmented(("red", (2, 3)), ("green", (4, 5, 6, 7)), ("blue", (8, 9)), ("yellow", (10, 11, 12))),
                _segmented(("blue", (12, 11, 10)), ("yellow", (9, 8, 7)), ("red", (6, 5, 4)), ("green", (3, 2))),
                _segmented(("green", (12, 11)), ("red", (10, 9, 8, 7)), ("yellow", (6, 5)), ("blue", (4, 3, 2))),
            ),
            lock_min_crosses=5,
            rule_book_players=SEED_003_PLAYERS,
        ),
        VariantSpec(
            "gemixxt-b",
            dice_sides=6,
            rows=(
                _plain("red", (10, 6, 2, 8, 3, 4, 12, 5, 9, 7, 11)),
                _plain("yellow", (9, 12, 4, 6, 7, 2, 5, 8, 11, 3, 10)),
                _plain("green", (8, 2, 10, 12, 6, 9, 7, 4, 5, 11, 3)),
                _plain("blue", (5, 7, 11, 9, 12, 3, 8, 10, 2, 6, 4)),
            ),
            lock_min_crosses=5,
            rule_book_players=SEED_003_PLAYERS,
            shuffled_lock_numbers=(11, 10, 3, 4),
        ),
        VariantSpec(
            "bonus-a",
            dice_sides=6,
            rows=_STANDARD_ROWS,
            lock_min_crosses=5,
            rule_book_players=SEED_003_PLAYERS,
            bonus_numbers=(frozenset({3, 6, 9}), frozenset({5, 8, 11}), frozenset({11, 7, 4}), frozenset({10, 8, 5})),
            bonus_row=("red", "yellow", "green", "blue", "green", "red",
                       "blue", "yellow", "red", "yellow", "blue", "green"),
        ),
        VariantSpec(
            "bonus-b",
            dice_sides=6,
            rows=_STANDARD_ROWS,
            lock_min_crosses=5,
            rule_book_players=SEED_003_PLAYERS,
            bonus_kinds={
                (0, 4): 1, (0, 7): 3, (0, 10): 5,
                (1, 3): 2, (1, 6): 4, (1, 9): 1,
                (2, 9): 3, (2, 5): 4,
                (3, 10): 2, (3, 6): 5,
            },
        ),
        VariantSpec("cards", dice_sides=6, rows=_STANDARD_ROWS, lock_min_crosses=5, card_game=True),
    )
}


def variant(name: str) -> VariantSpec:
    """The rules of edition `name`; an unknown name is a ValueError listing the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise ValueError(f"unknown Qwixx variant {name!r} (known: {known})") from None


def shuffled_numbers(spec: VariantSpec, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A new valid number order for every row of a shuffle-able edition (gemixxt B): the lock number stays last."""
    if not spec.shuffled_lock_numbers:
        raise ValueError(f"the {spec.name} sheet cannot be shuffled")
    rows = []
    for row in spec.rows:
        rest = list(row.numbers[:-1])
        rng.shuffle(rest)
        rows.append((*rest, row.numbers[-1]))
    return spec.with_numbers(tuple(rows)).numbers_by_row()
