"""The validated layout model: typed, frozen objects that builders read (built by `loader`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from printgen.page import Hex, Mm


@dataclass(frozen=True, slots=True)
class RowLayout:
    """One coloured row: its colour name, numbers as printed left to right, the numbers that lock it."""

    colour: str
    numbers: tuple[int, ...]
    locks_with: tuple[int, ...]


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
class ScoreSheetLayout:
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
    kind: str = "score-sheet"

    def colour(self, name: str) -> Hex:
        """The printed colour of palette entry `name`."""
        return dict(self.palette)[name]


Layout: TypeAlias = ScoreSheetLayout
