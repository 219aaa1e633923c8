"""Qwixx, the card game: deck, display, announcing, plays, misplays, completion per player, endings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.rules import IllegalMove, qwixx
from printgen.rules.card_strategies import CardStrategy, GreedyCardStrategy, Play
from printgen.rules.game import EndReason
from printgen.rules.qwixx_deck import Card
from printgen.rules.sheet import Sheet


def test_deck_composition() -> None:
    deck = qwixx.qwixx_deck()
    assert len(deck) == 44 == len(set(deck))
    for colour in qwixx.COLOURS:
        assert sorted(c.number for c in deck if c.colour == colour) == list(range(2, 13))
    jokers = [c for c in qwixx.qwixx_deck(jokers=True) if c.is_joker]
    assert sorted(c.number for c in jokers) == list(range(2, 13))


def test_setup_deals_four_and_lays_out_four() -> None:
    game = qwixx.CardGame(players=3, seed=1)
    assert [len(h) for h in game.hands] == [4, 4, 4]
    assert len(game.display) == 4 and len(game.pile) == 44 - 16 and game.discard == []


class Scripted(CardStrategy):
    """Takes the first display cards and plays what the test says."""

    def __init__(self, play: Play | None = None) -> None:
        self.next_play = play
        self.taken: list[int] = []
        self.seen: list[list[object]] = []

    def take(self, sheet: Sheet, display: list[int], need: int, rng: random.Random) -> list[int]:
        self.seen.append(list(display))
        self.taken.append(need)
        return list(range(need))

    def pick(self, sheet, options, active, action, rng):  # type: ignore[no-untyped-def]
        return None

    def play(self, sheet: Sheet, hand: list[Card], max_skips: int | None, must_mark: bool,
             rng: random.Random) -> Play:
        if self.next_play is not None:
            play, self.next_play = self.next_play, None
            return play
        return Play((hand[0],), hand[0].colour or "red")


def test_first_turn_takes_one_card_and_the_display_is_refilled() -> None:
    scripted = Scripted()
    game = qwixx.CardGame(players=2, seed=2, strategies=[scripted, "greedy"])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    before = list(game.display)
    game.play_turn()
    assert scripted.taken == [1]
    assert before[0] not in game.display and len(game.display) == 4
    assert len(game.hands[0]) == 4  # took 1 (5), played 1


def test_a_play_without_marks_is_a_misplay_for_the_active_player_only() -> None:
    game = qwixx.CardGame(players=2, seed=2, strategies=[Scripted(), Scripted()])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    game.play_turn()
    assert [s.penalties for s in game.sheets] == [1, 0]
    assert len(game.discard) == 1


def test_played_cards_mark_their_colour_row_with_one_skip() -> None:
    hand = [Card(4, "red"), Card(5, "red"), Card(7, "red"), Card(9, "blue")]
    play = Play((Card(4, "red"), Card(5, "red"), Card(7, "red")), "red", ((0, 4), (0, 5), (0, 7)))
    game = qwixx.CardGame(players=2, seed=3, strategies=[Scripted(play), Scripted()])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    game.hands[0] = list(hand)
    game.play_turn()
    assert game.sheets[0].marked(0) == (4, 5, 7) and game.sheets[0].penalties == 0


def test_a_play_breaking_the_one_skip_rule_is_refused() -> None:
    play = Play((Card(2, "yellow"), Card(4, "yellow"), Card(6, "yellow")), "yellow", ((1, 2), (1, 4), (1, 6)))
    game = qwixx.CardGame(players=2, seed=3, strategies=[Scripted(play), Scripted()])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    game.hands[0] = [Card(2, "yellow"), Card(4, "yellow"), Card(6, "yellow"), Card(9, "blue")]
    with pytest.raises(IllegalMove, match="skips 2 numbers"):
        game.play_turn()


def test_a_joker_takes_the_named_colour() -> None:
    play = Play((Card(6), Card(8, "green")), "green", ((2, 8), (2, 6)))
    game = qwixx.CardGame(players=2, jokers=True, seed=3, strategies=[Scripted(play), Scripted()])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    game.hands[0] = [Card(6), Card(8, "green"), Card(3, "red"), Card(9, "blue")]
    game.play_turn()
    assert game.sheets[0].marked(2) == (8, 6)


def test_a_joker_cannot_mark_another_colour() -> None:
    play = Play((Card(6), Card(8, "green")), "green", ((0, 6),))
    game = qwixx.CardGame(players=2, jokers=True, seed=3, strategies=[Scripted(play), Scripted()])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    game.hands[0] = [Card(6), Card(8, "green"), Card(3, "red"), Card(9, "blue")]
    with pytest.raises(RuntimeError, match="not a played green card"):
        game.play_turn()


def test_completing_a_row_does_not_close_it_for_others() -> None:
    game = qwixx.CardGame(players=2, seed=4)
    first, second = game.sheets
    first.mark_many(0, [2, 3, 4, 5, 6])
    first.mark(0, 12)
    assert first.is_locked(0)
    assert second.can_mark(0, 2) and not second.is_closed(0)


def test_the_discard_pile_is_reshuffled_when_the_pile_runs_out() -> None:
    game = qwixx.CardGame(players=2, seed=5)
    game.discard, game.pile = game.pile[:-1], game.pile[-1:]
    game.play_turn()
    assert game.reshuffles == 1 and game.cards_in_play() == 44


def test_two_completed_rows_end_the_game() -> None:
    game = qwixx.CardGame(players=2, seed=6)
    sheet = game.sheets[1]
    for row, numbers, lock in ((0, [2, 3, 4, 5, 6], 12), (1, [2, 3, 4, 5, 6], 12)):
        sheet.mark_many(row, numbers)
        sheet.mark(row, lock)
    game.play_turn()
    assert game.outcome is not None and game.outcome.reason is EndReason.ROWS


def test_the_misplay_variant_ends_at_the_fourth() -> None:
    game = qwixx.CardGame(players=2, seed=7, strategies=[Scripted(), Scripted()], misplay_end=True)
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    for _ in range(3):
        game.sheets[0].add_penalty()
    game.play_turn()
    assert game.outcome is not None and game.outcome.reason is EndReason.MISPLAYS


def test_without_the_variant_a_fifth_misplay_costs_nothing_more() -> None:
    game = qwixx.CardGame(players=2, seed=7, strategies=[Scripted(), Scripted()])
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    for _ in range(4):
        game.sheets[0].add_penalty()
    game.play_turn()
    assert game.outcome is None and game.sheets[0].penalties == 4


def test_gemixxt_card_variant_marks_each_card_in_its_own_cell() -> None:
    play = Play((Card(5, "blue"), Card(9, "blue")), "blue", ((0, 5), (1, 9)))
    game = qwixx.CardGame(players=2, seed=8, strategies=[Scripted(play), Scripted()], sheet="gemixxt-a")
    game.active = 0  # the scripted player starts (the first player is otherwise drawn by lot)
    game.hands[0] = [Card(5, "blue"), Card(9, "blue"), Card(3, "red"), Card(7, "green")]
    game.play_turn()
    assert game.sheets[0].marked(0) == (5,) and game.sheets[0].marked(1) == (9,)


def test_gemixxt_card_variant_may_skip_more_than_one() -> None:
    sheet = qwixx.Sheet("gemixxt-a")
    assert not sheet.can_mark_many(2, [12, 10], max_skips=0)
    assert sheet.can_mark_many(3, [10, 7], max_skips=None)  # red 10 and 7 in row 3: two skipped
    assert not sheet.can_mark_many(3, [10, 7])


def test_greedy_takes_the_numbers_it_can_use() -> None:
    sheet = qwixx.Sheet("cards")
    for row, number in ((0, 8), (1, 8), (2, 6), (3, 6)):
        sheet.mark(row, number)
    display = [12, 2, 9, 5]  # numbers only (the display lies neutral side up); 12 and 2 cannot be marked
    assert GreedyCardStrategy().take(sheet, display, 2, random.Random(1)) == [2, 3]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 5), st.booleans(), st.integers(0, 2**32 - 1), st.sampled_from(["random", "greedy"]),
       st.sampled_from(["cards", "gemixxt-a"]), st.booleans())
def test_cards_are_conserved_and_every_game_ends(players: int, jokers: bool, seed: int, strategy: str,
                                                  sheet: str, misplay_end: bool) -> None:
    game = qwixx.CardGame(players=players, jokers=jokers, seed=seed, strategies=strategy, sheet=sheet,
                          misplay_end=misplay_end)
    size = 55 if jokers else 44
    while game.outcome is None:
        game.play_turn()
        assert game.cards_in_play() == size
        every = [*game.pile, *game.discard, *game.display, *(c for h in game.hands for c in h)]
        assert sorted(every, key=lambda c: (c.number, c.colour or "")) == sorted(
            qwixx.qwixx_deck(jokers), key=lambda c: (c.number, c.colour or ""))
        assert all(len(h) <= 5 for h in game.hands)
    table = [0, *qwixx.points_table(sheet)]
    for s in game.sheets:
        assert all(s.points(r) == table[s.crosses(r)] for r in range(4))


def test_strategies_see_only_the_display_numbers() -> None:
    """Seeds 000/002: the display lies neutral side up, so a player taking cards sees numbers, not colours."""
    scripted = Scripted()
    game = qwixx.CardGame(players=2, seed=2, strategies=[scripted, scripted])
    game.play_turn()
    (seen,) = scripted.seen
    assert len(seen) == 4 and all(type(n) is int for n in seen)


def test_the_first_player_is_drawn_from_the_seed() -> None:
    """Seed 000 (000_8bddbf3c1e6bd710.txt): "Si tira a sorte chi inizia a giocare per primo" (drawn by lot)."""
    starters = {qwixx.CardGame(players=4, seed=seed).active for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert qwixx.CardGame(players=4, seed=11).active == qwixx.CardGame(players=4, seed=11).active
