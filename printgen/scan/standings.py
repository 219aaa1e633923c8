"""Standings: every sheet read, with its player, in; each player's rounds and total, ranked, out (CSV, JSON).

A player's rounds are their sheets in the order their photos' names number
them (`anna-2.jpg` is round 2), else in the order they were read; their
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
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from printgen.scan.reader import Result, SheetReading
from printgen.scan.report import uncertain_fields, where

ROUND_NUMBER = re.compile(r"^(.*?\w.*?)[ _.-]+(?:r|round)?(\d{1,2})$", re.IGNORECASE)
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
    where: str = ""
    """The photo and which sheet of it, where it holds several (`printgen.scan.report.where`); else `file`."""


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


COPY_SUFFIX = re.compile(r"^(.+?)(?: \(\d{1,3}\)| copy(?: \d{1,3})?| - copy(?: \(\d{1,3}\))?)$", re.IGNORECASE)
"""A file name's stem as a phone or a file manager names a copy: `anna-2 (1)`, `anna-2 copy`, `anna-2 - Copy`."""


def stem_of(file_name: str) -> str:
    """A photo file's name without its folder, its extension and a copy's ending (`anna-2 (1).jpg`: `anna-2`)."""
    stem = file_name.rsplit("/", 1)[-1]
    stem = stem.rsplit(".", 1)[0] if "." in stem[1:] else stem
    match = COPY_SUFFIX.match(stem)
    return match.group(1) if match else stem


def is_copy(file_name: str) -> bool:
    """Whether a photo file's name is a copy's (`IMG_1 (1).jpg`, `anna copy.jpg`)."""
    stem = file_name.rsplit("/", 1)[-1]
    return stem_of(file_name) != (stem.rsplit(".", 1)[0] if "." in stem[1:] else stem)


def player_of(file_name: str) -> str:
    """The player a photo file's name names: its name without the extension, a copy's ending and a round number
    at the end (`anna-2.jpg`, `anna-2 (1).jpg` and `Anna.jpg` are Anna's; `IMG_2041.jpg` is IMG_2041's), in
    Unicode's composed form (a Mac's file names are decomposed)."""
    stem = stem_of(file_name)
    match = ROUND_NUMBER.match(stem)
    return unicodedata.normalize("NFC", match.group(1) if match else stem)


def round_named(file_name: str) -> int | None:
    """The round number a photo file's name ends in (`anna-2.jpg`: 2), else None."""
    match = ROUND_NUMBER.match(stem_of(file_name))
    return int(match.group(2)) if match else None


class Tally:
    """Sheets read, each with its player and its photo's name, in; the (player, round) pairs to rank, and a line
    for each photo that names a round another photo already gave, out: one sheet photographed twice (another
    format, a retake) counts once; two different sheets under one round's name both count, said."""

    def __init__(self) -> None:
        self.rounds: list[tuple[str, Round]] = []
        self._named: dict[tuple[str, int], tuple[str, Any]] = {}

    def add(self, player: str, file_name: str, result: Result, named: bool = True) -> str | None:
        """Count `result` as `player`'s (unless it repeats a round); a line to say when it names a round twice.
        `named`: the player is the file name's (not `--player`'s), and so is the round."""
        number = round_named(file_name) if named else None
        seen = (unicodedata.normalize("NFC", player).casefold(), number) if number is not None else None
        look = (result.layout.name, result.text, result.marks) if isinstance(result, SheetReading) else None
        earlier = self._named.get(seen) if seen is not None else None
        if earlier is not None and earlier[0] != file_name:
            if look is not None and look == earlier[1]:
                return (f"{file_name}: the same sheet as {earlier[0]} ({player}'s round {number}), counted "
                        "once")
            self.rounds.append((player, round_of(result)))
            other = "another sheet" if look is not None and earlier[1] is not None else "a sheet not read"
            return (f"{file_name}: {player}'s round {number} too, as {earlier[0]}, but {other}: both counted "
                    "(rename the photo of another round)")
        if seen is not None and earlier is None:
            self._named[seen] = (file_name, look)
        self.rounds.append((player, round_of(result)))
        return None


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
                     tuple(result.verdict.problems), where=where(result))
    return Round(result.file, None, False, problems=(f"unreadable: {result.reason}",), where=where(result))


def ranked(entries: list[tuple[str, Round]]) -> list[Standing]:
    """Every player's standing from (player, round) pairs in the order read: players told apart regardless of
    letter case and Unicode form (the first spelling kept), rounds in the order their file names number them
    (else as read), ranked players first, best total first, ties sharing a rank."""
    players: dict[str, Standing] = {}
    for player, one in entries:
        players.setdefault(unicodedata.normalize("NFC", player).casefold(), Standing(player)).rounds.append(one)
    for standing in players.values():  # rounds in the order their photos' names number them (`anna-2.jpg`)
        standing.rounds.sort(key=_numbered)
    order = sorted(players.values(), key=lambda s: (not s.legal, -s.total))
    previous, rank = None, 0
    for position, standing in enumerate(order, start=1):
        if standing.legal:
            if standing.total != previous:
                rank, previous = position, standing.total
            standing.rank = rank
    return order


def _numbered(one: Round) -> float:
    """Where a round goes among its player's: the number its photo's name gives it, else last (as read)."""
    number = round_named(one.file)
    return math.inf if number is None else number


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
                         "; ".join(standing.problems()), "; ".join(r.where or r.file for r in standing.rounds)])
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
