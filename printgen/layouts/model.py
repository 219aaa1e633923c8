"""The validated layout model: typed, frozen objects that builders read (built by `loader`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from printgen.page import Hex, Mm


class Palette:
    """What every layout with a [palette] shares: its printed colours by name."""

    __slots__ = ()
    palette: tuple[tuple[str, Hex], ...]

    def colour(self, name: str) -> Hex:
        """The printed colour of palette entry `name`."""
        return dict(self.palette)[name]


@dataclass(frozen=True, slots=True)
class RowLayout:
    """One row: its (lock) colour, numbers as printed left to right, the numbers that lock it, and extras.

    `segments` colours runs of cells (gemixxt A); `bonus` lists boxed numbers
    (Bonus A); `bonus_fields` maps numbers to bonus kinds 1..5 (Bonus B).
    """

    colour: str
    numbers: tuple[int, ...]
    locks_with: tuple[int, ...]
    segments: tuple[tuple[str, tuple[int, ...]], ...] = ()
    bonus: tuple[int, ...] = ()
    bonus_fields: tuple[tuple[int, int], ...] = ()

    @property
    def cell_colours(self) -> tuple[str, ...]:
        """Each cell's colour, left to right."""
        if not self.segments:
            return (self.colour,) * len(self.numbers)
        return tuple(colour for colour, numbers in self.segments for _ in numbers)

    def bonus_kind(self, number: int) -> int | None:
        """The Bonus B kind printed on `number`, if any."""
        return dict(self.bonus_fields).get(number)


@dataclass(frozen=True, slots=True)
class PenaltyLayout:
    """The penalty boxes: how many, the points each is worth (negative) and their label key."""

    count: int
    points: int
    label: str


@dataclass(frozen=True, slots=True)
class PointsTableLayout:
    """The crosses -> points table printed under the rows."""

    crosses: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreSheetLayout(Palette):
    """A Qwixx-style score sheet."""

    name: str
    source: str
    title: str
    rules: str
    width: Mm
    height: Mm
    palette: tuple[tuple[str, Hex], ...]
    rows: tuple[RowLayout, ...]
    penalties: PenaltyLayout
    points_table: PointsTableLayout
    totals_label: str
    lucky_numbers: bool = False
    bonus_row: tuple[str, ...] = ()
    description: str = ""
    kind: str = "score-sheet"

    @property
    def bonus_boxes(self) -> bool:
        """True when the sheet prints Bonus B's five bonus boxes."""
        return any(row.bonus_fields for row in self.rows)



@dataclass(frozen=True, slots=True)
class CardGroup:
    """Cards of one kind ("number" in each of `colours`, "joker", "number-joker", "draw3"),
    each of `numbers` (or one numberless card) `copies` times."""

    kind: str
    colours: tuple[str, ...]
    numbers: tuple[int, ...]
    copies: int

    def cards(self) -> list[tuple[str, str | None, int | None]]:
        """Every card of the group as (kind, colour, number)."""
        numbers: tuple[int | None, ...] = self.numbers or (None,)
        colours: tuple[str | None, ...] = self.colours or (None,)
        return [(self.kind, c, n) for _ in range(self.copies) for c in colours for n in numbers]


@dataclass(frozen=True, slots=True)
class DeckLayout(Palette):
    """A deck of cards: its composition, the rules deck it must equal, its palette and back colour."""

    name: str
    source: str
    title: str
    game: str
    card_size: str
    palette: tuple[tuple[str, Hex], ...]
    back: Hex
    groups: tuple[CardGroup, ...]
    description: str = ""
    kind: str = "deck"


    def cards(self) -> list[tuple[str, str | None, int | None]]:
        """Every card the layout prints, in print order, as (kind, colour, number)."""
        return [card for group in self.groups for card in group.cards()]


@dataclass(frozen=True, slots=True)
class BoardLayout(Palette):
    """The One to 9 board: a field per colour and number, pile places and the scoring reference."""

    name: str
    source: str
    title: str
    game: str
    card_size: str
    palette: tuple[tuple[str, Hex], ...]
    colours: tuple[str, ...]
    numbers: tuple[int, ...]
    description: str = ""
    kind: str = "board"



@dataclass(frozen=True, slots=True)
class TokenGroup:
    """`count` round tokens of one kind ("small-star", "big-star") of `diameter` mm."""

    kind: str
    count: int
    diameter: Mm


@dataclass(frozen=True, slots=True)
class TokenLayout(Palette):
    """A cut sheet of tokens."""

    name: str
    source: str
    title: str
    game: str
    palette: tuple[tuple[str, Hex], ...]
    groups: tuple[TokenGroup, ...]
    description: str = ""
    kind: str = "tokens"



Layout: TypeAlias = ScoreSheetLayout | DeckLayout | BoardLayout | TokenLayout
