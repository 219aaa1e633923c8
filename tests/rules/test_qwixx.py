"""The standard sheet's rules, through the public API the held-out suite drives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.rules import IllegalMove, qwixx

RED, YELLOW, GREEN, BLUE = range(4)


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)


def test_points_table() -> None:
    assert qwixx.points_table("standard") == [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]


def test_unknown_variant() -> None:
    with pytest.raises(ValueError, match="unknown Qwixx variant"):
        qwixx.Sheet("nope")


def test_seed_worked_example_totals_70() -> None:
    sheet = qwixx.Sheet("standard")
    for n in (3, 5, 8, 10):
        sheet.mark(RED, n)
    for n in (2, 6, 9):
        sheet.mark(YELLOW, n)
    for n in (12, 11, 9, 8, 6, 5, 4):
        sheet.mark(GREEN, n)
    for n in (12, 10, 9, 8, 7, 6, 4, 3):
        sheet.mark(BLUE, n)
    sheet.add_penalty()
    sheet.add_penalty()
    assert [sheet.points(r) for r in range(4)] == [10, 6, 28, 36]
    assert sheet.penalties == 2
    assert sheet.total() == 70


def test_marks_go_left_to_right_and_skipped_numbers_are_lost() -> None:
    sheet = qwixx.Sheet("standard")
    sheet.mark(RED, 5)
    sheet.mark(RED, 7)
    assert not sheet.can_mark(RED, 6)
    assert not sheet.can_mark(RED, 7)
    assert not sheet.can_mark(RED, 2)
    assert sheet.can_mark(RED, 8)
    with pytest.raises(IllegalMove, match="not right of 7"):
        sheet.mark(RED, 6)
    assert sheet.marked(RED) == (5, 7)


def test_green_and_blue_run_from_12_down() -> None:
    sheet = qwixx.Sheet("standard")
    sheet.mark(GREEN, 11)
    assert not sheet.can_mark(GREEN, 12)
    assert sheet.can_mark(GREEN, 10)


def test_lock_needs_five_crosses_and_counts_as_a_cross() -> None:
    sheet = qwixx.Sheet("standard")
    for n in (2, 3, 4, 5):
        sheet.mark(RED, n)
    assert not sheet.can_mark(RED, 12)
    with pytest.raises(IllegalMove, match="needs 5 crosses"):
        sheet.mark(RED, 12)
    sheet.mark(RED, 6)
    assert sheet.can_mark(RED, 12)
    sheet.mark(RED, 12)
    assert sheet.is_locked(RED)
    assert sheet.crosses(RED) == 7
    assert sheet.points(RED) == 28
    assert not sheet.can_mark(RED, 11)
    assert sheet.legal_marks() and all(row != RED for row, _ in sheet.legal_marks())


def test_full_row_is_twelve_crosses_78_points() -> None:
    sheet = qwixx.Sheet("standard")
    for n in range(12, 1, -1):
        sheet.mark(BLUE, n)
    assert sheet.crosses(BLUE) == 12
    assert sheet.points(BLUE) == 78


def test_penalties_at_most_four() -> None:
    sheet = qwixx.Sheet("standard")
    for _ in range(4):
        sheet.add_penalty()
    assert sheet.total() == -20
    with pytest.raises(IllegalMove):
        sheet.add_penalty()
    assert sheet.penalties == 4


@pytest.mark.parametrize("row, number", [(4, 5), (-1, 5), (RED, 13), (RED, 1)])
def test_impossible_fields(row: int, number: int) -> None:
    sheet = qwixx.Sheet("standard")
    if 0 <= row < 4:
        assert not sheet.can_mark(row, number)
    with pytest.raises(IllegalMove):
        sheet.mark(row, number)


def _state(sheet: qwixx.Sheet) -> tuple[object, ...]:
    return (tuple(sheet.marked(r) for r in range(4)), tuple(sheet.is_locked(r) for r in range(4)),
            sheet.penalties, sheet.total())


moves = st.lists(
    st.one_of(
        st.tuples(st.integers(0, 3), st.integers(1, 13)),
        st.just("penalty"),
    ),
    max_size=80,
)


@settings(max_examples=300, deadline=None)
@given(moves)
def test_random_mark_sequences_keep_every_invariant(sequence: list[object]) -> None:
    sheet = qwixx.Sheet("standard")
    table = [0, *qwixx.points_table("standard")]
    for move in sequence:
        before = _state(sheet)
        try:
            if move == "penalty":
                sheet.add_penalty()
            else:
                row, number = move  # type: ignore[misc]
                legal = sheet.can_mark(row, number)
                sheet.mark(row, number)
                assert legal, "mark() accepted what can_mark() refused"
        except IllegalMove:
            assert _state(sheet) == before, "an illegal move changed the sheet"
        for row in range(4):
            numbers = sheet.spec.rows[row].numbers
            positions = [numbers.index(n) for n in sheet.marked(row)]
            assert positions == sorted(set(positions)), "a mark left of an earlier one"
            assert sheet.points(row) == table[sheet.crosses(row)]
            if sheet.is_locked(row):
                assert sheet.marked(row)[-1] == numbers[-1]
                assert len(positions) >= 6
        assert sheet.total() == sum(sheet.points(r) for r in range(4)) - 5 * sheet.penalties
        assert 0 <= sheet.penalties <= 4
