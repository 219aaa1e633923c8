"""Standings: a player's rounds add up; players whose every round is read and legal are ranked (ties share a
rank), the others follow unranked with their problems; players are named by file names less a round number."""

from __future__ import annotations

import csv
import io

import pytest

from tests.scan.conftest import NEEDS_SCAN

pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.scan.reader import Unreadable
from printgen.scan.standings import (
    Round,
    as_json,
    is_copy,
    player_of,
    ranked,
    round_named,
    round_of,
    standings_csv,
)


@pytest.mark.parametrize("name, player", [
    ("anna.jpg", "anna"), ("anna-2.jpg", "anna"), ("Anna 3.png", "Anna"), ("bruno_r1.jpeg", "bruno"),
    ("IMG_2041.jpg", "IMG_2041"), ("night/carla-12.pdf", "carla"), ("7.jpg", "7"), ("dario.round2.jpg", "dario"),
    ("noext", "noext"), (".hidden", ".hidden"), ("anna-2 (1).jpg", "anna"), ("IMG_2041 (1).jpg", "IMG_2041"),
    ("bruno copy.jpg", "bruno"), ("carla-3 - Copy.jpg", "carla"), ("Zoe\u0308-1.jpg", "Zo\u00eb"),
])
def test_the_player_is_the_file_name_less_a_round_number(name: str, player: str) -> None:
    assert player_of(name) == player


def test_rounds_add_up_and_ranks_are_shared_on_ties() -> None:
    entries = [("Anna", Round("a1.jpg", 40, True)), ("Bruno", Round("b1.jpg", 75, True)),
               ("anna", Round("a2.jpg", 35, True)), ("Carla", Round("c1.jpg", 75, True)),
               ("Dario", Round("d1.jpg", 98, False, problems=("row 1 (red): the lock is crossed but 12 is not",))),
               ("Ema", Round("e1.jpg", 80, True)), ("Ema", Round("e2.jpg", None, False, problems=("unreadable: x",)))]
    standings = ranked(entries)
    assert [(s.rank, s.player, s.total, len(s.rounds)) for s in standings] == [
        (1, "Anna", 75, 2), (1, "Bruno", 75, 1), (1, "Carla", 75, 1), (None, "Dario", 98, 1), (None, "Ema", 80, 2)]
    rows = list(csv.DictReader(io.StringIO(standings_csv(standings))))
    assert list(rows[0]) == ["rank", "player", "total", "rounds", "round 1", "round 2", "legal", "uncertain",
                             "problems", "files"]
    assert (rows[0]["round 1"], rows[0]["round 2"], rows[0]["files"]) == ("40", "35", "a1.jpg; a2.jpg")
    assert rows[3]["rank"] == "" and rows[3]["legal"] == "no" and rows[3]["problems"].startswith("round 1: row 1")
    assert rows[4]["round 2"] == "" and rows[4]["problems"] == "round 2: unreadable: x"
    assert as_json(standings[0])["rounds"][1] == {"round": 2, "sheet": None, "file": "a2.jpg", "total": 35,
                                                 "legal": True, "uncertain": 0, "checked": False, "problems": []}


def test_an_unreadable_photo_is_a_round_without_a_total() -> None:
    found = round_of(Unreadable("x.jpg", "no sheet found"))
    assert found.total is None and not found.legal and found.problems == ("unreadable: no sheet found",)
    assert standings_csv([]).splitlines() == ["rank,player,total,rounds,round 1,legal,uncertain,problems,files"]


def test_copies_and_round_numbers_are_read_from_names() -> None:
    assert [is_copy(n) for n in ("IMG_1 (1).jpg", "anna copy 2.jpg", "anna - Copy (3).png", "anna-1.jpg",
                                 "(1).jpg")] == [True, True, True, False, False]
    assert [round_named(n) for n in ("anna-2.jpg", "anna-2 (1).jpg", "Anna round12.png", "IMG_2041.jpg",
                                     "anna.jpg")] == [2, 2, 12, None, None]


def test_one_player_in_two_unicode_forms_is_one_and_rounds_follow_their_numbers() -> None:
    entries = [("Zoe\u0308", Round("Zoe\u0308-2.jpg", 37, True)), ("Zo\u00eb", Round("Zo\u00eb-1.jpg", 25, True)),
               ("Zo\u00eb", Round("Zo\u00eb-extra.jpg", 5, True))]
    (standing,) = ranked(entries)
    assert [r.total for r in standing.rounds] == [25, 37, 5] and standing.total == 67
