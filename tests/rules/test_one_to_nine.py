"""One to 9: deck, setup, every action and its conditions, special cases, and whole games."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from printgen.rules import one_to_nine as n9
from printgen.rules.one_to_nine import Action, ActionKind, Card, OneToNine


def number(colour: str, value: int) -> Card:
    return Card("number", value, colour)


def fresh(players: int = 2, seed: int = 1) -> OneToNine:
    """A game with an empty board and empty hands, the rest in the draw pile."""
    game = OneToNine(players=players, seed=seed)
    game.pile += [*game.board.values(), *game.discard, *(c for p in game.players for c in p.hand)]
    game.board, game.discard = {}, []
    for player in game.players:
        player.hand = []
    return game


def take(game: OneToNine, card: Card) -> Card:
    """Move one copy of `card` from wherever it is into the active player's hand."""
    for stack in (game.pile, game.discard):
        if card in stack:
            stack.remove(card)
            game.players[game.active].hand.append(card)
            return card
    raise AssertionError(f"{card} is not in the piles")


def put(game: OneToNine, colour: str, *values: int) -> None:
    for value in values:
        card = number(colour, value)
        game.pile.remove(card)
        game.board[(colour, value)] = card


def only(actions: list[Action], kind: ActionKind) -> list[Action]:
    return [a for a in actions if a.kind is kind]


def test_deck_counts() -> None:
    counts = Counter(card.kind for card in n9.deck())
    assert counts == {"number": 72, "joker": 5, "number-joker": 9, "draw3": 12}
    assert Counter((c.colour, c.number) for c in n9.deck() if c.kind == "number") == {
        (c, v): 2 for c in n9.COLOURS for v in n9.NUMBERS}


def test_setup_puts_five_number_cards_on_their_fields() -> None:
    for seed in range(20):
        game = OneToNine(players=3, seed=seed)
        assert len(game.board) == 5
        assert all(card.kind == "number" and (card.colour, card.number) == place for place, card in game.board.items())
        assert all(c.kind != "number" or (c.colour, c.number) in game.board for c in game.discard)
        assert [len(p.hand) for p in game.players] == [5, 5, 5] and len(game.jokers) == 5


def test_setup_replaces_jokers_duplicates_and_plus3() -> None:
    game = fresh()
    game.pile = [number("blue", 9), Card("number-joker", 4), number("red", 3), Card("draw3"), number("red", 3)]
    game.refill_board(2)  # draws from the end: red 3, +3, red 3 again, number joker 4, blue 9
    assert set(game.board) == {("blue", 9), ("red", 3)}
    assert game.discard == [Card("draw3"), number("red", 3), Card("number-joker", 4)]


@pytest.mark.parametrize("length, stars", [(4, 1), (5, 2), (6, 3), (7, 3), (8, 3)])
def test_short_run_of_each_length(length: int, stars: int) -> None:
    game = fresh()
    put(game, "green", *range(1, length))
    take(game, number("green", length))
    runs = only(game.legal_actions(), ActionKind.SHORT_RUN)
    assert [(len(a.scored), a.small_stars) for a in runs] == [(length, stars)]
    game.apply(runs[0])
    assert game.players[0].small == stars
    assert all(number("green", v) in game.discard for v in range(1, length + 1))  # the run left the board
    assert len(game.board) == 2  # and two new cards came


def test_a_short_run_must_earn_and_extend() -> None:
    game = fresh()
    put(game, "red", 2, 3, 4, 5)
    take(game, number("red", 8))
    assert not only(game.legal_actions(), ActionKind.SHORT_RUN)  # the standing run is not extended
    take(game, number("red", 6))
    runs = only(game.legal_actions(), ActionKind.SHORT_RUN)
    assert [a.scored for a in runs] == [tuple(("red", v) for v in range(2, 7))]


def test_foursome() -> None:
    game = fresh()
    for colour in ("red", "yellow", "green"):
        put(game, colour, 7)
    take(game, number("blue", 7))
    (foursome,) = only(game.legal_actions(), ActionKind.FOURSOME)
    game.apply(foursome)
    assert game.players[0].small == 1
    assert all(number(colour, 7) in game.discard for colour in n9.COLOURS)


def test_long_run_with_small_stars_as_jokers() -> None:
    game = fresh()
    put(game, "blue", 1, 2, 3, 5, 6, 8, 9)
    take(game, number("blue", 4))
    game.players[0].small = 1
    game.small_supply -= 1
    (long_run,) = only(game.legal_actions(), ActionKind.LONG_RUN)
    assert long_run.stars_used == 1 and long_run.big_stars == 1
    game.apply(long_run)
    assert (game.players[0].small, game.players[0].big) == (0, 1)
    assert game.small_supply == 39 and game.big_supply == 8
    assert all(number("blue", v) in game.discard for v in (1, 2, 3, 4, 5, 6, 8, 9))


def test_long_run_needs_enough_stars() -> None:
    game = fresh()
    put(game, "blue", 1, 2, 3, 5, 6, 8)
    take(game, number("blue", 4))
    assert not only(game.legal_actions(), ActionKind.LONG_RUN)  # 7 and 9 missing, no stars


def test_run_and_foursome_at_once_score_one_of_them() -> None:
    game = fresh()
    put(game, "red", 1, 2, 3)
    for colour in ("yellow", "green", "blue"):
        put(game, colour, 4)
    take(game, number("red", 4))
    kinds = {a.kind for a in game.legal_actions() if a.placements == ((0, ("red", 4)),) and a.small_stars}
    assert kinds == {ActionKind.SHORT_RUN, ActionKind.FOURSOME}
    foursome = next(a for a in game.legal_actions() if a.kind is ActionKind.FOURSOME)
    game.apply(foursome)
    assert game.players[0].small == 1
    assert all(("red", v) in game.board for v in (1, 2, 3))  # the run was not scored


def test_card_onto_a_taken_field_gives_a_joker_card() -> None:
    game = fresh()
    put(game, "red", 5)
    take(game, number("red", 5))
    (swap,) = [a for a in only(game.legal_actions(), ActionKind.PLAY) if a.placements[0][1] is None]
    game.apply(swap)
    assert game.players[0].hand == [Card("joker")] and len(game.jokers) == 4
    assert game.discard[-1] == number("red", 5)


def test_without_jokers_left_a_blind_card_is_drawn() -> None:
    game = fresh()
    game.jokers = []
    put(game, "red", 5)
    take(game, number("red", 5))
    top = game.pile[-1]
    swap = next(a for a in game.legal_actions() if a.kind is ActionKind.PLAY and a.placements[0][1] is None)
    game.apply(swap)
    assert game.players[0].hand == [top]


def test_a_number_joker_is_not_thrown_away_while_its_number_is_free() -> None:
    game = fresh()
    put(game, "red", 6)
    take(game, Card("number-joker", 6))
    plays = only(game.legal_actions(), ActionKind.PLAY)
    assert sorted(a.placements[0][1] for a in plays) == [("blue", 6), ("green", 6), ("yellow", 6)]
    for colour in ("yellow", "green", "blue"):
        put(game, colour, 6)
    (swap,) = only(game.legal_actions(), ActionKind.PLAY)
    assert swap.placements[0][1] is None


def test_plus3_draws_three_and_its_star_gives_a_bonus() -> None:
    game = fresh()
    take(game, Card("draw3"))
    (play,) = only(game.legal_actions(), ActionKind.PLAY)
    game.apply(play)
    assert len(game.players[0].hand) == 3 and game.plus3_on_top()
    game.players[0].hand = []
    put(game, "yellow", 1, 2, 3)
    take(game, number("yellow", 4))
    (run,) = only(game.legal_actions(), ActionKind.SHORT_RUN)
    assert run.small_stars == 2  # 1 for the run + 1 for the +3 on the discard pile


def test_no_bonus_for_big_stars() -> None:
    game = fresh()
    game.discard.append(game.pile.pop(game.pile.index(Card("draw3"))))
    put(game, "blue", 1, 2, 3, 4, 5, 6, 7, 8)
    take(game, number("blue", 9))
    (long_run,) = only(game.legal_actions(), ActionKind.LONG_RUN)
    assert long_run.small_stars == 0 and long_run.big_stars == 1


def test_empty_hand_draws_two() -> None:
    game = fresh()
    assert game.legal_actions() == [Action(ActionKind.DRAW_TWO)]
    game.apply(Action(ActionKind.DRAW_TWO))
    assert len(game.players[0].hand) == 2


def test_reshuffle_keeps_the_top_of_the_discard_pile() -> None:
    game = fresh()
    game.discard, game.pile = game.pile, []
    top = game.discard[-1]
    card = game.draw()
    assert card is not None and game.discard == [top] and len(game.pile) == 98 - 5 - 2


def test_third_big_star_wins_at_once() -> None:
    game = fresh()
    put(game, "blue", *range(1, 9))
    take(game, number("blue", 9))
    game.players[0].big, game.big_supply = 2, 7
    game.play_turn()
    assert game.outcome is not None and game.outcome.winner == 0 and game.outcome.reason is n9.GameOver.WON


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32 - 1), st.sampled_from(["random", "greedy"]))
def test_cards_and_stars_are_conserved_and_every_game_ends(players: int, seed: int, strategy: str) -> None:
    game = OneToNine(players=players, seed=seed, strategies=strategy)
    while game.outcome is None:
        game.play_turn()
        assert sorted(game.cards_everywhere(), key=repr) == sorted(n9.deck(), key=repr)
        assert game.stars() == (39, 9)
    assert game.outcome.reason in n9.GameOver
    if game.outcome.winner is not None:
        assert game.players[game.outcome.winner].big >= 3


def test_long_run_of_small_stars_alone_is_not_offered() -> None:
    """Seed 004 (004_0581fea63dda4621.txt): "Um sie werten zu können, muss der Spieler mindestens eine Karte
    zu dieser Zahlenreihe dazulegen." Red 1-8 on the board and one small star: no long run without a card."""
    game = fresh()
    put(game, "red", 1, 2, 3, 4, 5, 6, 7, 8)
    take(game, number("blue", 4))
    game.players[0].small = 1
    game.small_supply -= 1
    assert not only(game.legal_actions(), ActionKind.LONG_RUN)
    take(game, number("red", 9))
    (long_run,) = only(game.legal_actions(), ActionKind.LONG_RUN)
    assert long_run.stars_used == 0 and len(long_run.placements) == 1


def test_refilling_stops_when_no_card_left_can_go_on_the_board() -> None:
    """Found by the property test: with only +3 cards (or duplicates) left in the piles, drawing onto the board
    went round the piles for ever. Every card is now drawn at most once per refill."""
    game = fresh()
    game.pile = [Card("draw3") for _ in range(3)]
    game.discard = [Card("draw3")]
    game.refill_board(2)
    assert not game.board and len(game.pile) + len(game.discard) == 4


GAMES_FILE = Path(__file__).with_name("one_to_nine_games.txt")


def recorded_games() -> list[str]:
    lines = [line for line in GAMES_FILE.read_text().splitlines() if line and not line.startswith("#")]
    assert lines, f"{GAMES_FILE} holds no games"
    return lines


@pytest.mark.parametrize("line", recorded_games())
def test_recorded_games_are_played_the_same(line: str) -> None:
    """Whole games as an earlier engine played them (winner, turns, stars, every action counted): a faster
    engine must offer the same actions in the same order, or the games drift apart."""
    from printgen.simulate import strategies_for

    setup, expected = line.split(" | ")
    players, strategy, seed = setup.split()
    outcome = OneToNine(int(players), int(seed), strategies_for(strategy, int(players))).play()
    actions = ",".join(f"{kind.name}={count}" for kind, count in sorted(outcome.actions.items(),
                                                                        key=lambda item: item[0].name))
    played = (f"{outcome.winner} {outcome.reason.name} {outcome.turns} {outcome.winner_turns} "
              f"{'/'.join(map(str, outcome.small_stars))} {'/'.join(map(str, outcome.big_stars))} {actions}")
    assert played == expected
