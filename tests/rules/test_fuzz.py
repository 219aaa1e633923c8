"""Rules fuzzing with hypothesis state machines: legal moves never raise, illegal ones never change state,
scores always match the printed tables, cards and stars are conserved, and every game ends."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from printgen import layouts
from printgen.kinds import ScoreSheetLayout
from printgen.rules import IllegalMove, qwixx
from printgen.rules import one_to_nine as n9
from printgen.rules.game import MAX_TURNS

VARIANTS = ["standard", "big-points", "gemixxt-a", "gemixxt-b", "bonus-a", "bonus-b", "cards"]
LAYOUT_OF = {v: f"qwixx-{v}" for v in VARIANTS}
PRINTED = {v: [0, *layouts.load(LAYOUT_OF[v]).points_table.points] for v in VARIANTS}  # type: ignore[union-attr]


def snapshot(sheet: qwixx.Sheet) -> tuple[Any, ...]:
    rows = range(len(sheet.spec.rows))
    return (tuple(sheet.marked(r) for r in rows), tuple(sheet.is_locked(r) for r in rows),
            tuple(sheet.is_closed(r) for r in rows), sheet.penalties, sheet.bonus_row(), sheet.bonus_kinds(),
            sheet.pending, sheet.total())


class SheetMachine(RuleBasedStateMachine):
    """Random marks, closes, penalties and choices on a sheet of any edition."""

    sheet: qwixx.Sheet

    @initialize(variant=st.sampled_from(VARIANTS), lucky=st.sampled_from([(6, 11), (5, 10), (2, 16)]))
    def start(self, variant: str, lucky: tuple[int, int]) -> None:
        self.variant = variant
        self.sheet = qwixx.Sheet(variant, lucky=lucky if variant == "big-points" else None)

    @rule(row=st.integers(-1, 4), number=st.integers(1, 17), colour=st.sampled_from([None, *qwixx.COLOURS]))
    def mark(self, row: int, number: int, colour: str | None) -> None:
        before = snapshot(self.sheet) if 0 <= row < 4 else None
        try:
            legal = self.sheet.can_mark(row, number, colour)
        except IllegalMove:
            legal = False
        try:
            self.sheet.mark(row, number, colour)
        except IllegalMove:
            assert not legal, "a legal mark raised"
            if before is not None:
                assert snapshot(self.sheet) == before, "an illegal mark changed the sheet"
        else:
            assert legal, "an illegal mark was accepted"

    @rule(row=st.integers(0, 3), numbers=st.lists(st.integers(2, 16), min_size=1, max_size=3))
    def mark_many(self, row: int, numbers: list[int]) -> None:
        before = snapshot(self.sheet)
        legal = self.sheet.can_mark_many(row, numbers)
        try:
            self.sheet.mark_many(row, numbers)
        except IllegalMove:
            assert not legal and snapshot(self.sheet) == before
        else:
            assert legal

    @rule(row=st.integers(0, 3))
    def close(self, row: int) -> None:
        self.sheet.close(row)
        assert self.sheet.is_closed(row)

    @rule()
    def penalty(self) -> None:
        before = snapshot(self.sheet)
        try:
            self.sheet.add_penalty()
        except IllegalMove:
            assert before[3] == 4 and snapshot(self.sheet) == before

    @precondition(lambda self: self.sheet.pending is not None)
    @rule(pick=st.integers(0, 3))
    def choose(self, pick: int) -> None:
        choice = self.sheet.pending
        assert choice is not None
        self.sheet.choose(choice.rows[pick % len(choice.rows)])

    @precondition(lambda self: bool(self.sheet.lucky_targets()))
    @rule(pick=st.integers(0, 3))
    def lucky(self, pick: int) -> None:
        targets = self.sheet.lucky_targets()
        row, number = targets[pick % len(targets)]
        self.sheet.mark(row, number)  # a lucky target is always a legal mark

    @invariant()
    def scores_match_the_printed_table(self) -> None:
        sheet = self.sheet
        table = PRINTED[self.variant]
        for row in range(len(sheet.spec.rows)):
            numbers = sheet.spec.rows[row].numbers
            positions = [numbers.index(n) for n in sheet.marked(row)]
            assert positions == sorted(set(positions)), "a mark left of an earlier one"
            assert sheet.points(row) == table[sheet.crosses(row)]
        assert 0 <= sheet.penalties <= 4
        rows = sum(sheet.points(r) for r in range(len(sheet.spec.rows)))
        assert sheet.total() == rows + sheet.bonus_points() - sheet.penalty_points()


class GameMachine(RuleBasedStateMachine):
    """Whole dice games, card games and One to 9 games, a turn at a time."""

    game: Any

    @initialize(kind=st.sampled_from(["dice", "cards", "nine"]), variant=st.sampled_from(VARIANTS[:-1]),
                players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1),
                strategy=st.sampled_from(["random", "greedy"]), jokers=st.booleans())
    def start(self, kind: str, variant: str, players: int, seed: int, strategy: str, jokers: bool) -> None:
        self.kind = kind
        if kind == "dice":
            self.game = qwixx.Game(variant, players=players, seed=seed, strategies=strategy)
            self.layout = layouts.load(LAYOUT_OF[variant])
        elif kind == "cards":
            self.game = qwixx.CardGame(players=players, jokers=jokers, seed=seed, strategies=strategy)
            self.layout = layouts.load("qwixx-cards")
        else:
            self.game = n9.OneToNine(players=players, seed=seed, strategies=strategy)

    @precondition(lambda self: self.game.outcome is None)
    @rule(turns=st.integers(1, 40))
    def play(self, turns: int) -> None:
        for _ in range(turns):
            if self.game.outcome is not None:
                break
            self.game.play_turn()

    @rule()
    def finish(self) -> None:
        while self.game.outcome is None:
            self.game.play_turn()
        assert self.game.turns <= MAX_TURNS + 1

    @invariant()
    def conserved_and_scored_by_the_table(self) -> None:
        if self.kind == "nine":
            assert len(self.game.cards_everywhere()) == 98 and self.game.stars() == (39, 9)
            return
        if self.kind == "cards":
            assert self.game.cards_in_play() == self.game.deck_size
        assert isinstance(self.layout, ScoreSheetLayout)
        table = [0, *self.layout.points_table.points]
        for sheet in self.game.sheets:
            assert all(sheet.points(r) == table[sheet.crosses(r)] for r in range(4))


TestSheet = SheetMachine.TestCase
TestSheet.settings = settings(max_examples=120, stateful_step_count=40, deadline=None)
TestGames = GameMachine.TestCase
TestGames.settings = settings(max_examples=25, stateful_step_count=6, deadline=None)
