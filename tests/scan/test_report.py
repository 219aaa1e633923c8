"""Reporting: standings rank legal sheets by total with shared ranks for ties; sheets that are not legal follow
unranked, unreadable photos last."""

from __future__ import annotations

import csv
import io

import pytest

from tests.scan.conftest import NEEDS_SCAN

pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.scan.reader import Unreadable
from printgen.scan.report import standings, summary


class FakeVerdict:
    def __init__(self, total: int, legal: bool = True) -> None:
        self.total, self.legal, self.problems = total, legal, [] if legal else ["lock without its number"]


def test_standings_share_ranks_on_ties(monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.scan import report
    from printgen.scan.reader import SheetReading

    readings = []
    for file, total, legal in (("a.jpg", 40, True), ("b.jpg", 75, True), ("c.jpg", 40, True), ("e.jpg", 98, False)):
        reading = SheetReading.__new__(SheetReading)
        reading.file, reading.position, reading.of = file, 1, 1
        reading.layout = type("L", (), {"name": "qwixx-standard"})()  # type: ignore[assignment]
        reading.verdict = FakeVerdict(total, legal)  # type: ignore[assignment]
        reading.readings, reading.recognised = [], None
        readings.append(reading)
    monkeypatch.setattr(report, "uncertain_fields", lambda reading: [])
    rows = list(csv.DictReader(io.StringIO(standings([*readings, Unreadable("d.jpg", "no sheet found")]))))
    assert [(r["rank"], r["file"], r["total"]) for r in rows] == [
        ("1", "b.jpg", "75"), ("2", "a.jpg", "40"), ("2", "c.jpg", "40"), ("", "e.jpg", "98"), ("", "d.jpg", "")]
    assert rows[-2]["legal"] == "no" and rows[-2]["problems"] == "lock without its number"  # not legal: unranked
    assert rows[-1]["problems"] == "unreadable: no sheet found"


def test_an_unreadable_photo_is_one_line() -> None:
    assert summary(Unreadable("x.jpg", "no sheet found", 2, 2)) == ["x.jpg [sheet 2 of 2]: unreadable: no sheet found"]
