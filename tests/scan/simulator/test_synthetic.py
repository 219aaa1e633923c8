"""The photo generator used to measure the reader: its truth is the game's final sheet, and its photos stay
within the conditions the issue names."""

from __future__ import annotations

import random

import pytest

from tests.scan.conftest import NEEDS_SCAN, SHEETS, sheet

pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.scan.referee import Marks, referee
from tests.scan.simulator.synthetic import played_sheet, sample, truth_of


@pytest.mark.parametrize("name", SHEETS)
def test_the_truth_is_a_legal_final_sheet_of_a_played_game(name: str) -> None:
    layout = sheet(name)
    sheet_, code = played_sheet(layout, random.Random(5), shuffle=True)
    truth = truth_of(layout, sheet_, code)
    assert code.numbers is None or code.numbers == sheet_.spec.numbers_by_row()
    marks = Marks(tuple(frozenset(r) for r in truth.rows), truth.locks, truth.penalties,
                  frozenset(truth.bonus_row), frozenset(truth.bonus_boxes))
    verdict = referee(layout.rules, marks, code.lucky, code.numbers)
    assert verdict.legal and verdict.total == sheet_.total()


def test_pictures_are_phone_sized_and_reproducible() -> None:
    layouts = [sheet("qwixx-standard")]
    first = sample(layouts, 3, widest=1600)
    again = sample(layouts, 3, widest=1600)
    assert first.jpeg == again.jpeg and first.truths == again.truths
    assert 1200 <= max(first.image.shape[:2]) and min(first.image.shape[:2]) <= 1600
    assert 0.3 <= first.conditions.fill <= 0.95 and first.conditions.tilt <= 30
    assert 50 <= first.conditions.jpeg <= 95 and first.conditions.blur <= 1.5
