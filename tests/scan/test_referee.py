"""The referee: every sheet a real game can end with is legal and scored as the engine scores it; sheets no
game can end with are caught, and say why."""

from __future__ import annotations

import random

import pytest

from printgen.rules import qwixx
from printgen.rules.sheet import Sheet
from printgen.scan.referee import Marks, referee

VARIANTS = ["standard", "big-points", "gemixxt-a", "gemixxt-b", "bonus-a", "bonus-b", "cards"]


def marks_of(sheet: Sheet, void_crossed: frozenset[int] = frozenset()) -> Marks:
    rows = range(len(sheet.spec.rows))
    struck = {i for i, state in enumerate(sheet.bonus_row()) if state == "struck"}
    return Marks(tuple(frozenset(sheet.marked(r)) for r in rows), tuple(sheet.is_locked(r) for r in rows),
                 sheet.penalties, frozenset(struck | void_crossed), frozenset(sheet.bonus_kinds()))


def final_sheets(variant: str, games: int) -> list[Sheet]:
    sheets = []
    for seed in range(games):
        if qwixx.variant(variant).card_game:
            game: qwixx.Game | qwixx.CardGame = qwixx.CardGame(players=3, seed=seed, strategies="greedy")
        else:
            game = qwixx.Game(variant, players=3, seed=seed, strategies=["greedy", "random", "greedy"])
        game.play()
        sheets += game.sheets
    return sheets


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_played_sheet_is_legal_and_scores_as_the_engine_does(variant: str) -> None:
    rng = random.Random(7)
    for sheet in final_sheets(variant, 25):
        void = frozenset(i for i, state in enumerate(sheet.bonus_row()) if state == "void" and rng.random() < 0.5)
        verdict = referee(variant, marks_of(sheet, void), sheet.lucky)
        assert verdict.legal, verdict.problems
        assert verdict.total == sheet.total()
        rows = range(len(sheet.spec.rows))
        assert verdict.points == [*(sheet.points(r) for r in rows), sheet.penalty_points()]


def marks(rows: list[set[int]], locks: tuple[bool, ...] = (False,) * 4, penalties: int = 0,
          bonus_row: set[int] | None = None, boxes: set[int] | None = None) -> Marks:
    return Marks(tuple(frozenset(r) for r in rows), locks, penalties, frozenset(bonus_row or ()),
                 frozenset(boxes or ()))


def test_a_lock_with_too_few_crosses_is_illegal_and_counted_as_it_stands() -> None:
    verdict = referee("standard", marks([{2, 3, 12}, set(), set(), set()], (True, False, False, False)))
    assert not verdict.legal
    assert verdict.problems == ["row 1 (red): 12 locks the row only after 5 crosses, it has 2"]
    assert verdict.points == [10, 0, 0, 0, 0] and verdict.total == 10


def test_lock_and_lock_number_go_together() -> None:
    five = {2, 3, 4, 5, 6}
    alone = referee("standard", marks([five, set(), set(), set()], (True, False, False, False)))
    assert alone.problems == ["row 1 (red): the lock is crossed but 12 is not"]
    forgotten = referee("standard", marks([five | {12}, set(), set(), set()]))
    assert forgotten.problems == ["row 1 (red): 12 is crossed but the lock is not"]
    right = referee("standard", marks([five | {12}, set(), set(), set()], (True, False, False, False), 2))
    assert right.legal and right.points == [28, 0, 0, 0, 10] and right.total == 18


def test_big_points_locks_with_either_last_number_but_not_both() -> None:
    six = {2, 3, 4, 5, 6, 7}
    assert referee("big-points", marks([six | {15}, set(), set(), set()], (True, False, False, False))).legal
    both = referee("big-points", marks([six | {15, 16}, set(), set(), set()], (True, False, False, False)))
    assert both.problems == ["row 1 (red): 15 and 16 are both crossed, but the first locks the row"]


def test_a_bonus_row_field_without_its_boxed_number_is_illegal() -> None:
    # A field may also be crossed because its colour was locked (RULES.md section 4: it is then void and struck);
    # four colours cannot all have been locked, so one of these four fields has no explanation.
    verdict = referee("bonus-a", marks([{2}, set(), set(), set()], bonus_row={0, 1, 2, 3}))
    assert not verdict.legal
    assert verdict.problems[0].startswith("bonus-row field 1 is crossed, but no boxed number strikes it")
    void = referee("bonus-a", marks([{2}, set(), set(), set()], bonus_row={0}))
    assert void.legal, "red may have been locked by another player: its free field is void and struck"


def test_a_boxed_number_must_strike_the_bonus_row_and_give_its_cross() -> None:
    sheet = Sheet("bonus-a")
    sheet.mark(0, 3)  # boxed: strikes bonus field 1 (red), whose bonus cross lands on red 4
    assert referee("bonus-a", marks_of(sheet)).legal
    missing = referee("bonus-a", marks([{3, 4}, set(), set(), set()]))
    assert missing.problems == ["bonus-row field 1 must be crossed: a boxed number strikes it"]
    no_cross = referee("bonus-a", marks([{3}, set(), set(), set()], bonus_row={0}))
    assert not no_cross.legal


def test_a_bonus_box_needs_both_its_fields_and_both_fields_need_their_box() -> None:
    half = referee("bonus-b", marks([{4}, set(), set(), set()], boxes={1}))
    assert half.problems == ["bonus box A is crossed, but only 1 of its 2 fields"]
    unclaimed = referee("bonus-b", marks([set(), {3}, set(), {10}]))
    assert unclaimed.problems == ["both B fields are crossed, but bonus box B is not"]


def test_bonus_b_points_follow_the_boxes_on_sheets_no_game_explains() -> None:
    verdict = referee("bonus-b", marks([{2, 3}, {6}, set(), set()], penalties=2, boxes={4, 5}))
    assert not verdict.legal
    assert verdict.total == 3 + 1 + 13  # kind 4 adds 13, kind 5 makes misthrows free
    assert verdict.points[-1] == 0


def test_numbers_not_on_the_row_are_reported() -> None:
    verdict = referee("standard", marks([{13}, set(), set(), set()]))
    assert verdict.problems == ["row 1 (red): 13 is not on this row"]


def test_sheets_past_the_end_of_the_game_are_not_legal() -> None:
    """RULES.md: a dice game ends at once when a second row is locked or a player takes the last penalty; a
    penalty turn crosses nothing, and a player locks one row at a time."""
    full = [set(row.numbers) for row in qwixx.variant("standard").rows]
    every = referee("standard", marks(full, (True,) * 4, 4))
    assert not every.legal and any("4 locks" in p for p in every.problems)


@pytest.mark.parametrize("variant", ["standard", "big-points", "gemixxt-a", "cards"])
def test_a_player_never_locks_a_third_row_of_their_own(variant: str) -> None:
    """Three locks of one player's own were taken as legal (a rules pass's find): the game ends as the second
    row locks, and a play marks one row, so a sheet carries at most two (the card game: a player's second
    completed row ends it). Two stay legal."""
    spec = qwixx.variant(variant)
    locked = []
    for row in spec.rows:  # each row's first numbers, as many as locking needs, and its last (which locks it)
        locked.append(set(row.numbers[:spec.lock_min_crosses]) | {row.numbers[-1]})
    three = [locked[i] if i < 3 else set() for i in range(4)]
    verdict = referee(variant, marks(three, (True, True, True, False), 0))
    assert not verdict.legal
    assert verdict.problems == [("3 locks: the game ends as a second row is locked, and a player locks one row at "
                                 "a time")]
    two = [locked[i] if i < 2 else set() for i in range(4)]
    assert referee(variant, marks(two, (True, True, False, False), 0)).legal


def test_a_gemixxt_a_sheet_played_with_cards_may_end_with_two_locks_and_every_misplay() -> None:
    """Gemixxt A is also played with cards (RULES.md 3), where a player's fourth misplay ends the game only in
    a variant: 2 locks and 4 misplays came from `CardGame(players=4, seed=1714, strategies="random",
    sheet="gemixxt-a")` and were called illegal (a fresh pass's find). The dice rule still holds for
    standard sheets."""
    rows = (frozenset({7, 8, 9, 10, 11, 12}), frozenset({5, 7, 9, 10, 11, 12}), frozenset({3, 4, 5}),
            frozenset({3, 4, 5}))
    played = referee("gemixxt-a", Marks(rows, (True, True, False, False), 4))
    assert played.legal and played.total == 48, played.problems
    game = qwixx.CardGame(players=4, seed=1714, strategies="random", sheet="gemixxt-a")
    game.play()
    for sheet in game.sheets:
        verdict = referee("gemixxt-a", marks_of(sheet))
        assert verdict.legal and verdict.total == sheet.total(), verdict.problems


def test_no_bonus_cross_or_mark_comes_after_the_games_end() -> None:
    """Bonus B's box B (yellow 3, blue 10) gives a cross in every open row: with green and blue given none, both
    were closed, so the game had ended, yet red 5 and 6 came after red 2, B's own cross. And Bonus A's field 3
    (green) struck with red and yellow void (both closed: the game over) cannot be followed by green 9 and 8.
    The referee's search let other players close rows and play on (a rules pass's find)."""
    after_b = Marks((frozenset({2, 5, 6}), frozenset({3, 4}), frozenset(), frozenset({10})), (False,) * 4, 0,
                    bonus_boxes=frozenset({2}))
    assert not referee("bonus-b", after_b).legal
    after_a = Marks((frozenset(), frozenset(), frozenset({11, 10, 9, 8}), frozenset()), (False,) * 4, 0,
                    bonus_row=frozenset({2}))
    assert not referee("bonus-a", after_a).legal  # (played games stay legal: test_no_played_game_ends_past_the_end)
    two = [set(row.numbers) if i < 2 else set() for i, row in enumerate(qwixx.variant("standard").rows)]
    penalised = referee("standard", marks(two, (True, True, False, False), 4))
    assert not penalised.legal and any("all 4 penalties" in p for p in penalised.problems)
    assert referee("standard", marks(two, (True, True, False, False), 3)).legal


@pytest.mark.parametrize("variant", VARIANTS)  # (one test a variant: the workers share them)
def test_no_played_game_ends_past_the_end(variant: str) -> None:
    for sheet in final_sheets(variant, 120):
        verdict = referee(variant, marks_of(sheet), sheet.lucky)
        assert verdict.legal, (variant, verdict.problems)
