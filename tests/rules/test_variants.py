"""Every edition's rules: worked examples, lucky numbers, gemixxt, bonus effects, the card sheet."""

from __future__ import annotations

import itertools

import pytest

from printgen.rules import IllegalMove, qwixx
from printgen.rules.lucky import balanced_pool, deal, parse_pool

RED, YELLOW, GREEN, BLUE = range(4)


def fill(sheet: qwixx.Sheet, row: int, numbers: list[int]) -> None:
    for n in numbers:
        sheet.mark(row, n)


# -- Big Points ------------------------------------------------------------------


def test_big_points_table_runs_to_15() -> None:
    table = qwixx.points_table("big-points")
    assert len(table) == 15 and table[-1] == 120


def test_big_points_worked_example_totals_87() -> None:
    sheet = qwixx.Sheet("big-points", lucky=(5, 10))
    fill(sheet, RED, [2, 5, 8, 9])
    fill(sheet, YELLOW, [3, 4, 10])
    fill(sheet, GREEN, [16, 14, 13, 12, 11, 9, 8, 7, 4])
    fill(sheet, BLUE, [16, 15, 13, 12, 10, 9, 6, 5])
    sheet.add_penalty()
    sheet.add_penalty()
    assert [sheet.points(r) for r in range(4)] == [10, 6, 45, 36]
    assert sheet.total() == 87


def test_big_points_locks_with_either_rightmost_number_after_six() -> None:
    sheet = qwixx.Sheet("big-points")
    fill(sheet, RED, [2, 3, 4, 5, 6])
    assert not sheet.can_mark(RED, 15) and not sheet.can_mark(RED, 16)
    sheet.mark(RED, 7)
    assert sheet.can_mark(RED, 15) and sheet.can_mark(RED, 16)
    sheet.mark(RED, 15)
    assert sheet.is_locked(RED) and sheet.crosses(RED) == 8
    assert not sheet.can_mark(RED, 16)


def test_big_points_full_row_is_15_crosses() -> None:
    sheet = qwixx.Sheet("big-points")
    fill(sheet, BLUE, list(range(16, 2, -1)))
    assert sheet.crosses(BLUE) == 15 and sheet.points(BLUE) == 120


def test_seed_lucky_example_marks_green_16() -> None:
    sheet = qwixx.Sheet("big-points", lucky=(6, 11))
    fill(sheet, RED, [2])
    fill(sheet, YELLOW, [2])
    fill(sheet, BLUE, [16])
    assert sheet.lucky_targets() == [(GREEN, 16)]
    sheet.mark(GREEN, 16)
    assert sheet.marked(GREEN) == (16,)


def test_lucky_targets_are_the_next_fields_of_every_row_tied_for_fewest() -> None:
    sheet = qwixx.Sheet("big-points", lucky=(6, 11))
    fill(sheet, RED, [4])
    fill(sheet, YELLOW, [9])
    assert sheet.lucky_targets() == [(GREEN, 16), (BLUE, 16)]


def test_a_lucky_number_may_lock_a_row() -> None:
    sheet = qwixx.Sheet("big-points", lucky=(6, 11))
    for row in (RED, YELLOW, GREEN):
        numbers = sheet.spec.rows[row].numbers
        fill(sheet, row, list(numbers[:8]))
    fill(sheet, BLUE, [16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4])
    sheet.close(RED)
    sheet.close(YELLOW)
    sheet.close(GREEN)
    assert sheet.lucky_targets() == [(BLUE, 3)]
    sheet.mark(BLUE, 3)
    assert sheet.is_locked(BLUE) and sheet.crosses(BLUE) == 15


def test_no_lucky_target_when_the_next_field_cannot_lock_yet() -> None:
    sheet = qwixx.Sheet("big-points", lucky=(6, 11))
    for row in (RED, YELLOW, GREEN):
        fill(sheet, row, list(sheet.spec.rows[row].numbers[:3]))
    fill(sheet, BLUE, [4])  # fewest crosses; its next field, 3, locks and needs 6 crosses
    assert sheet.lucky_targets() == []


@pytest.mark.parametrize("lucky, message", [((6, 6), "different"), ((1, 9), "not a possible sum"),
                                            ((9, 17), "not a possible sum")])
def test_bad_lucky_numbers(lucky: tuple[int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        qwixx.Sheet("big-points", lucky=lucky)


def test_balanced_pool_matches_rules_md() -> None:
    expected = {(4, 9), (9, 14), (5, 8), (5, 10), (8, 13), (10, 13), (6, 7), (6, 11), (7, 12), (11, 12)}
    assert set(balanced_pool()) == expected


def test_deal_is_even_reproducible_and_never_repeats_a_neighbour() -> None:
    pool = balanced_pool()
    dealt = deal(pool, 1000, seed=7)
    assert dealt == deal(pool, 1000, seed=7) and dealt != deal(pool, 1000, seed=8)
    assert all(a != b for a, b in itertools.pairwise(dealt))
    assert {dealt.count(p) for p in pool} == {100}
    with pytest.raises(ValueError, match="cannot fill a pad"):
        deal([(5, 10)], 2, seed=1)


@pytest.mark.parametrize("text, message", [("5-5", "must differ"), ("1-9", "possible sums"), ("5", "not a pair")])
def test_parse_pool_rejects_bad_pairs(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_pool(text)


# -- Gemixxt ----------------------------------------------------------------------


def test_gemixxt_a_every_number_has_four_colours() -> None:
    spec = qwixx.variant("gemixxt-a")
    for number in range(2, 13):
        colours = [row.colour_of(number) for row in spec.rows]
        assert sorted(colours) == sorted(qwixx.COLOURS), number


def test_gemixxt_a_action_two_only_on_the_dice_colour() -> None:
    sheet = qwixx.Sheet("gemixxt-a")
    assert sheet.colour(0, 6) == "blue"
    assert sheet.can_mark(0, 6, "blue") and not sheet.can_mark(0, 6, "red")
    with pytest.raises(IllegalMove, match="is blue, not red"):
        sheet.mark(0, 6, "red")
    assert sheet.can_mark(0, 6)  # a white sum: any colour


def test_gemixxt_a_lock_colour_is_the_last_segment() -> None:
    spec = qwixx.variant("gemixxt-a")
    assert [row.colour for row in spec.rows] == ["red", "yellow", "green", "blue"]


def test_gemixxt_a_closed_row_leaves_its_colour_markable_elsewhere() -> None:
    game = qwixx.Game("gemixxt-a", players=2, seed=1)
    sheet = game.sheets[0]
    fill(sheet, 0, [2, 3, 4, 5, 6])
    sheet.mark(0, 12)
    game._close_locked_rows()
    assert "red" not in game.dice
    other = game.sheets[1]
    assert other.is_closed(0) and not other.can_mark(0, 11)
    assert other.colour(1, 2) == "red" and other.can_mark(1, 2)


def test_gemixxt_b_lock_numbers() -> None:
    spec = qwixx.variant("gemixxt-b")
    assert [spec.lock_numbers(r) for r in range(4)] == [(11,), (10,), (3,), (4,)]


def test_gemixxt_b_shuffled_order_keeps_the_lock_last() -> None:
    order = ((2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11), (2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 10),
             (2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 3), (2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 4))
    sheet = qwixx.Sheet("gemixxt-b", numbers=order)
    assert sheet.spec.lock_numbers(0) == (11,)
    bad = ((11, 3, 4, 5, 6, 7, 8, 9, 10, 12, 2), *order[1:])
    with pytest.raises(ValueError, match="must end with its lock number 11"):
        qwixx.Sheet("gemixxt-b", numbers=bad)


# -- Bonus A ----------------------------------------------------------------------


def test_bonus_a_chain() -> None:
    sheet = qwixx.Sheet("bonus-a")
    sheet.mark(RED, 3)  # boxed: bonus field 1 is red -> next red field (4)
    assert sheet.marked(RED) == (3, 4)
    assert sheet.bonus_row()[:2] == ("struck", "free")
    sheet.mark(YELLOW, 4)
    sheet.mark(YELLOW, 5)  # boxed: bonus field 2 is yellow -> yellow 6
    assert sheet.marked(YELLOW) == (4, 5, 6)
    fill(sheet, GREEN, [12, 10, 9, 8])
    sheet.mark(GREEN, 7)  # boxed: field 3 green -> green 6; field 4 ... not boxed
    assert sheet.marked(GREEN)[-2:] == (7, 6)
    sheet.mark(BLUE, 11)
    sheet.mark(BLUE, 10)  # boxed: field 4 blue -> blue 9; not boxed
    assert sheet.marked(BLUE) == (11, 10, 9)
    sheet.mark(BLUE, 8)  # boxed: field 5 green -> green 5 (not boxed)
    assert sheet.marked(GREEN)[-1] == 5
    assert sheet.bonus_row()[:5] == ("struck",) * 5


def test_bonus_a_chain_of_boxed_numbers() -> None:
    sheet = qwixx.Sheet("bonus-a")
    fill(sheet, GREEN, [12])
    fill(sheet, RED, [2, 4, 5])
    sheet.mark(RED, 6)  # boxed -> field 1 (red) -> red 7
    assert sheet.marked(RED)[-2:] == (6, 7)
    sheet.mark(RED, 8)
    sheet.mark(YELLOW, 4)
    # red 9 is boxed -> field 2 (yellow) -> yellow 5, boxed -> field 3 (green) -> green 11, boxed
    # -> field 4 (blue) -> blue 12
    sheet.mark(RED, 9)
    assert sheet.marked(YELLOW) == (4, 5)
    assert sheet.marked(GREEN) == (12, 11)
    assert sheet.marked(BLUE) == (12,)
    assert sheet.bonus_row()[:4] == ("struck",) * 4


def test_bonus_a_chain_can_lock_a_row() -> None:
    sheet = qwixx.Sheet("bonus-a")
    fill(sheet, RED, [2, 4, 5, 7, 8, 10, 11])
    sheet.mark(YELLOW, 5)  # boxed -> field 1 red -> red 12 locks
    assert sheet.is_locked(RED) and sheet.crosses(RED) == 9
    assert [f for f, c in zip(sheet.bonus_row(), sheet.spec.bonus_row) if c == "red"] == ["struck", "void", "void"]


def test_bonus_a_voided_colour_is_skipped() -> None:
    sheet = qwixx.Sheet("bonus-a")
    sheet.close(RED)  # another player locked red
    assert sheet.bonus_row()[0] == "void"
    sheet.mark(YELLOW, 5)  # boxed -> first free field is yellow (field 2) -> yellow 6
    assert sheet.marked(YELLOW) == (5, 6)
    assert sheet.bonus_row()[:2] == ("void", "struck")


def test_bonus_a_mark_is_lost_without_a_possible_field() -> None:
    sheet = qwixx.Sheet("bonus-a")
    fill(sheet, RED, [11])  # only the lock number left, 1 cross
    sheet.mark(YELLOW, 5)  # boxed -> red: nothing possible -> lost
    assert sheet.marked(RED) == (11,)
    assert sheet.bonus_row()[0] == "struck"


# -- Bonus B ----------------------------------------------------------------------


def kind_fields(kind: int) -> list[tuple[int, int]]:
    return sorted(k for k, v in qwixx.variant("bonus-b").bonus_kinds.items() if v == kind)


def test_bonus_b_fields_two_per_kind_in_different_rows_never_on_a_lock() -> None:
    spec = qwixx.variant("bonus-b")
    for kind in range(1, 6):
        fields = kind_fields(kind)
        assert len(fields) == 2 and fields[0][0] != fields[1][0]
        assert all(n not in spec.lock_numbers(r) for r, n in fields)


def test_bonus_b_kind_1_two_crosses_in_the_fewest_row() -> None:
    sheet = qwixx.Sheet("bonus-b")
    (r1, n1), (r2, n2) = kind_fields(1)  # red 4, yellow 9
    fill(sheet, GREEN, [12])
    fill(sheet, BLUE, [12])
    sheet.mark(r1, n1)
    sheet.mark(r2, n2)
    # every row has 1 cross: a tie the player resolves
    assert sheet.pending is not None and sheet.pending.kind == 1 and set(sheet.pending.rows) == {RED, YELLOW, GREEN, BLUE}
    with pytest.raises(IllegalMove, match="pending"):
        sheet.mark(GREEN, 11)
    sheet.choose(GREEN)
    assert sheet.marked(GREEN) == (12, 11, 10)
    assert 1 in sheet.bonus_kinds()


def test_bonus_b_kind_1_without_a_tie_is_applied_at_once() -> None:
    sheet = qwixx.Sheet("bonus-b")
    fill(sheet, RED, [2, 3])
    fill(sheet, GREEN, [12, 11])
    fill(sheet, BLUE, [12, 11])
    sheet.mark(RED, 4)
    sheet.mark(YELLOW, 9)
    assert sheet.pending is None
    assert sheet.marked(YELLOW) == (9, 10, 11)


def test_bonus_b_kind_2_one_cross_in_each_row() -> None:
    sheet = qwixx.Sheet("bonus-b")
    (r1, n1), (r2, n2) = kind_fields(2)  # yellow 3, blue 10
    sheet.mark(r1, n1)
    sheet.mark(r2, n2)
    assert sheet.marked(RED) == (2,) and sheet.marked(YELLOW) == (3, 4)
    assert sheet.marked(GREEN) == (12,) and sheet.marked(BLUE) == (10, 9)


def test_bonus_b_kinds_3_4_5_change_the_total() -> None:
    sheet = qwixx.Sheet("bonus-b")
    for kind in (3, 4, 5):
        for r, n in kind_fields(kind):
            if sheet.can_mark(r, n):
                sheet.mark(r, n)
    assert set(sheet.bonus_kinds()) >= {3, 4, 5}
    sheet.add_penalty()
    rows = sum(sheet.points(r) for r in range(4))
    fewest = min(range(4), key=sheet.crosses)
    assert sheet.penalty_points() == 0
    assert sheet.total() == rows + 13 + sheet.points(fewest)


# -- the card-game sheet --------------------------------------------------------------


def test_cards_one_skip_rule() -> None:
    sheet = qwixx.Sheet("cards")
    assert sheet.can_mark_many(RED, [4, 5, 7])
    assert not sheet.can_mark_many(YELLOW, [2, 4, 6])
    assert sheet.can_mark_many(YELLOW, [2, 4])
    sheet.mark_many(RED, [7, 4, 5])
    assert sheet.marked(RED) == (4, 5, 7)
    with pytest.raises(IllegalMove, match="skips 2 numbers between the first and the last"):
        sheet.mark_many(YELLOW, [2, 4, 6])
    assert sheet.marked(YELLOW) == ()


def test_cards_many_including_the_lock() -> None:
    sheet = qwixx.Sheet("cards")
    fill(sheet, BLUE, [12, 11, 10])
    assert not sheet.can_mark_many(BLUE, [3, 2])  # 4 crosses before the 2: not enough
    sheet.mark(BLUE, 9)
    assert sheet.can_mark_many(BLUE, [3, 2])
    sheet.mark_many(BLUE, [3, 2])
    assert sheet.is_locked(BLUE) and sheet.crosses(BLUE) == 7


def test_cards_is_not_a_dice_game() -> None:
    with pytest.raises(ValueError, match="CardGame"):
        qwixx.Game("cards")


def test_bonus_b_kind_1_is_lost_when_the_fewest_row_is_closed() -> None:
    """Seed 003 (003_fa4fce078a64c9bc.txt), Bonus B: "Le crocette bonus che non possono essere fatte nella
    riga con il minor numero di crocette (per es. perché la riga è già stata conclusa), decade." The row with
    the fewest crosses is counted over all four rows, closed ones included (RULES.md section 4)."""
    sheet = qwixx.Sheet("bonus-b")
    fill(sheet, RED, [2, 3])
    fill(sheet, YELLOW, [2])
    fill(sheet, GREEN, [12, 11])
    sheet.close(BLUE)  # another player locked blue: 0 crosses here, the fewest
    sheet.mark(RED, 4)
    sheet.mark(YELLOW, 9)
    assert 1 in sheet.bonus_kinds() and sheet.pending is None
    assert sheet.marked(GREEN) == (12, 11) and sheet.marked(YELLOW) == (2, 9)  # both crosses are lost
    assert sheet.crosses(BLUE) == 0


def test_bonus_b_kind_1_tie_with_a_closed_row_lets_the_player_choose_it_and_lose_the_crosses() -> None:
    """Seed 003: "Se si hanno più righe con lo stesso numero più piccolo di crocette, si sceglie una di esse";
    RULES.md: "ties: choose one; crosses that cannot be made there are lost". A closed row tied for the fewest
    may be chosen (a player may rather lose the crosses than lock a row and end the game): the choice is
    offered, so the referee can explain a sheet whose player made it (a rules pass's find)."""
    for chosen, green in ((GREEN, (12, 11)), (BLUE, ())):
        sheet = qwixx.Sheet("bonus-b")
        fill(sheet, RED, [2, 3])
        fill(sheet, YELLOW, [2, 3])
        sheet.close(BLUE)
        sheet.mark(RED, 4)
        sheet.mark(YELLOW, 9)
        assert sheet.pending is not None and set(sheet.pending.rows) == {GREEN, BLUE}
        sheet.choose(chosen)
        assert sheet.marked(GREEN) == green and sheet.marked(BLUE) == ()