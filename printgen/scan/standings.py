"""Standings: every sheet read, with its player, in; each player's rounds and total, ranked, out (CSV, JSON).

A player's rounds are their sheets in the order they were read; their
total is the rounds' totals added up. Players all of whose rounds are read
and legal are ranked, best total first (ties share a rank); a player with a
round that is not legal or could not be read follows unranked, with the
problems, so no one's total is trusted before it has been checked. Used by
`printgen score --csv` and by the standings of `printgen serve`. Pure
formatting: no pixels, no files.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Any

from printgen.scan.reader import Result, SheetReading
from printgen.scan.report import uncertain_fields

ROUND_NUMBER = re.compile(r"^(.*?\w.*?)[ _.-]+(?:r|round)?\d{1,2}$", re.IGNORECASE)
"""A file name's stem that ends in a round number: `anna-2`, `Anna 3`, `bruno_r1` (at most two digits, so a
camera's `IMG_2041` keeps its number)."""


@dataclass(frozen=True, slots=True)
class Round:
    """One sheet of a player's as the standings need it; `total` None when it could not be read."""

    file: str
    total: int | None
    legal: bool
    uncertain: int = 0
    problems: tuple[str, ...] = ()
    sheet: str = ""
    """The sheet's id where it has one (`printgen serve`)."""
    checked: bool = False
    """A person has looked at it and confirmed it (`printgen serve`)."""


@dataclass
class Standing:
    """A player's rounds, their total and rank (None: unranked until every round is read and legal)."""

    player: str
    rounds: list[Round] = field(default_factory=list)
    rank: int | None = None

    @property
    def total(self) -> int:
        return sum(r.total for r in self.rounds if r.total is not None)

    @property
    def legal(self) -> bool:
        return all(r.total is not None and r.legal for r in self.rounds)

    def problems(self) -> list[str]:
        """Each round's problems, named by its round."""
        return [f"round {number}: {problem}" for number, r in enumerate(self.rounds, start=1) for problem in r.problems]


def player_of(file_name: str) -> str:
    """The player a photo file's name names: its name without the extension and without a round number at
    the end (`anna-2.jpg` and `Anna.jpg` are Anna's; `IMG_2041.jpg` is IMG_2041's)."""
    stem = file_name.rsplit("/", 1)[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem[1:] else stem
    match = ROUND_NUMBER.match(stem)
    return match.group(1) if match else stem


def unplayed(result: Result) -> bool:
    """Whether a sheet read shows nothing at all (no cross, lock, penalty or bonus, and no field in doubt): the
    other, unplayed sheet of a photographed page is no round of its player's."""
    if not isinstance(result, SheetReading) or uncertain_fields(result):
        return False
    marks = result.marks
    return not (any(marks.rows) or any(marks.locks) or marks.penalties or marks.bonus_row or marks.bonus_boxes)


def round_of(result: Result) -> Round:
    """What the standings need of a sheet read (or of a photo or sheet that could not be read)."""
    if isinstance(result, SheetReading):
        return Round(result.file, result.verdict.total, result.verdict.legal, len(uncertain_fields(result)),
                     tuple(result.verdict.problems))
    return Round(result.file, None, False, problems=(f"unreadable: {result.reason}",))


def ranked(entries: list[tuple[str, Round]]) -> list[Standing]:
    """Every player's standing from (player, round) pairs in the order read: players told apart regardless of
    letter case (the first spelling kept), ranked players first, best total first, ties sharing a rank."""
    players: dict[str, Standing] = {}
    for player, one in entries:
        players.setdefault(player.casefold(), Standing(player)).rounds.append(one)
    order = sorted(players.values(), key=lambda s: (not s.legal, -s.total))
    previous, rank = None, 0
    for position, standing in enumerate(order, start=1):
        if standing.legal:
            if standing.total != previous:
                rank, previous = position, standing.total
            standing.rank = rank
    return order


def as_json(standing: Standing) -> dict[str, Any]:
    """A player's standing as JSON: player, rank, total, legal and every round (with its sheet's id)."""
    return {"player": standing.player, "rank": standing.rank, "total": standing.total, "legal": standing.legal,
            "rounds": [{"round": number, "sheet": r.sheet or None, "file": r.file, "total": r.total,
                        "legal": r.legal, "uncertain": r.uncertain, "checked": r.checked,
                        "problems": list(r.problems)}
                       for number, r in enumerate(standing.rounds, start=1)]}


def standings_csv(standings: list[Standing]) -> str:
    """The standings as CSV: a row a player (rank, player, total, rounds, each round's total, legal, uncertain
    fields, problems, files). A text cell that a spreadsheet would run as a formula (a photo named `=1+2.jpg`)
    is written as text."""
    most = max((len(s.rounds) for s in standings), default=1)
    out = io.StringIO()
    writer = _SafeWriter(csv.writer(out, lineterminator="\n"))
    writer.writerow(["rank", "player", "total", "rounds", *(f"round {n}" for n in range(1, most + 1)), "legal",
                     "uncertain", "problems", "files"])
    for standing in standings:
        totals = ["" if r.total is None else r.total for r in standing.rounds]
        writer.writerow(["" if standing.rank is None else standing.rank, standing.player, standing.total,
                         len(standing.rounds), *totals, *[""] * (most - len(totals)),
                         "yes" if standing.legal else "no", sum(r.uncertain for r in standing.rounds),
                         "; ".join(standing.problems()), "; ".join(r.file for r in standing.rounds)])
    return out.getvalue()


FORMULA = ("=", "+", "-", "@", "\t", "\r", "\n")
"""What a spreadsheet takes for the start of a formula in a cell."""


class _SafeWriter:
    """A CSV writer whose text cells never start a formula: such a cell gets a leading apostrophe."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: list[object]) -> None:
        self._writer.writerow([f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA) else cell
                               for cell in row])
