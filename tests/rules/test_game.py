"""Whole dice games: turns, simultaneous locks, dice leaving, end conditions, and random games as properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.rules import qwixx
from printgen.rules.game import EndReason

DICE_VARIANTS = ["standard", "big-points", "gemixxt-a", "gemixxt-b", "bonus-a", "bonus-b"]


class FixedDice(random.Random):
    """A random source whose dice rolls come from a list (everything else is seeded)."""

    def __init__(self, rolls: list[int]) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        return self.rolls.pop(0)


def test_simultaneous_lock_in_action_one_closes_the_row_for_all() -> None:
    game = qwixx.Game("standard", players=3, seed=1, strategies="greedy")
    for sheet in game.sheets[:2]:
        for n in (7, 8, 9, 10, 11):
            sheet.mark(0, n)
    for n in (7, 8, 9):
        game.sheets[2].mark(0, n)
    game.rng = FixedDice([6, 6, 1, 1, 1, 1])  # white sum 12, then red, yellow, green, blue
    game.play_turn()
    assert game.sheets[0].is_locked(0) and game.sheets[1].is_locked(0)
    assert not game.sheets[2].is_locked(0) and game.sheets[2].is_closed(0)
    assert game.sheets[2].crosses(0) == 3
    assert game.locked_rows == {0} and "red" not in game.dice


def test_a_second_lock_ends_the_game_before_action_two() -> None:
    game = qwixx.Game("standard", players=2, seed=1, strategies="greedy")
    sheet = game.sheets[1]
    for row in (0, 1):
        for n in (7, 8, 9, 10, 11):
            sheet.mark(row, n)
    game.rng = FixedDice([6, 6, 1, 1, 1, 1])
    game.play_turn()  # one white sum marks one row: player 2 locks red
    assert game.outcome is None and game.locked_rows == {0}
    game.rng = FixedDice([6, 6, 1, 1, 1, 1])
    game.play_turn()
    assert game.outcome is not None and game.outcome.reason is EndReason.LOCKS
    assert game.outcome.scores == tuple(s.total() for s in game.sheets)


def test_the_active_player_takes_the_penalty_only() -> None:
    game = qwixx.Game("standard", players=2, seed=1, strategies="greedy")
    for sheet in game.sheets:
        sheet.mark(0, 11)  # only the lock number 12 is left in red, and it needs 5 crosses
        for row in (1, 2, 3):
            sheet.close(row)
    game.rng = FixedDice([1, 1, 1, 1, 1, 1])  # white sum 2, every coloured sum 2: nothing to mark
    game.play_turn()
    assert [s.penalties for s in game.sheets] == [1, 0]


def test_a_fourth_penalty_ends_the_game() -> None:
    game = qwixx.Game("standard", players=2, seed=3, strategies="greedy")
    for _ in range(3):
        game.sheets[0].add_penalty()
    for row in range(4):
        for sheet in game.sheets:
            sheet.close(row)
    game.play_turn()
    assert game.outcome is not None and game.outcome.reason is EndReason.PENALTIES


def test_gemixxt_a_lock_removes_the_lock_colour_die() -> None:
    game = qwixx.Game("gemixxt-a", players=2, seed=1)
    sheet = game.sheets[0]
    for n in (12, 11, 10, 9, 8):
        sheet.mark(2, n)
    sheet.mark(2, 2)
    game._close_locked_rows()
    assert "green" not in game.dice and game.sheets[1].is_closed(2)


def test_big_points_games_deal_balanced_lucky_pairs() -> None:
    game = qwixx.Game("big-points", players=5, seed=4)
    pairs = [s.lucky for s in game.sheets]
    assert len(set(pairs)) == 5


def test_outcome_names_the_winner() -> None:
    outcome = qwixx.Game("standard", players=4, seed=11).play()
    assert max(outcome.scores) == outcome.scores[outcome.winners[0]]
    assert outcome.turns > 0


def test_same_seed_same_game() -> None:
    assert qwixx.Game("bonus-a", players=3, seed=5).play() == qwixx.Game("bonus-a", players=3, seed=5).play()


@pytest.mark.parametrize("players", [1, 6])
def test_player_count(players: int) -> None:
    with pytest.raises(ValueError, match="players"):
        qwixx.Game("standard", players=players)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(DICE_VARIANTS), st.integers(2, 5), st.integers(0, 2**32 - 1),
       st.sampled_from(["random", "greedy"]))
def test_random_games_end_and_score_by_the_table(variant: str, players: int, seed: int, strategy: str) -> None:
    game = qwixx.Game(variant, players=players, seed=seed, strategies=strategy)
    outcome = game.play()
    table = [0, *qwixx.points_table(variant)]
    assert outcome.reason in EndReason
    for sheet in game.sheets:
        for row in range(4):
            numbers = sheet.spec.rows[row].numbers
            positions = [numbers.index(n) for n in sheet.marked(row)]
            assert positions == sorted(set(positions))
            assert sheet.points(row) == table[sheet.crosses(row)]
        assert sheet.penalties <= 4
    locked = {r for s in game.sheets for r in range(4) if s.is_locked(r)}
    if outcome.reason is EndReason.LOCKS:
        assert len(locked) >= 2
    else:
        assert any(s.penalties == 4 for s in game.sheets)


def test_the_first_player_is_drawn_from_the_seed() -> None:
    """Seeds 001 and 003: "Si tira a sorte il conduttore della partita" (the first player is drawn by lot)."""
    starters = {qwixx.Game("standard", players=3, seed=seed).active for seed in range(30)}
    assert starters == {0, 1, 2}
