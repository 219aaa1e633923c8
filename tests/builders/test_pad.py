"""Pads with variable data: lucky pairs dealt per sheet, shuffled gemixxt-B orders, static art shared."""

from __future__ import annotations

import itertools
import re

import pytest

from printgen import layouts
from printgen.builders.pad import pad_items
from printgen.errors import UsageProblem
from printgen.kinds import ScoreSheetLayout
from printgen.page import Text, Use
from printgen.rules import qwixx
from printgen.rules.lucky import balanced_pool


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


def texts_of(extras: tuple[object, ...]) -> list[str]:
    """The texts a sheet's extras print (each a placed stamp symbol holding one text)."""
    return [t.text for e in extras if isinstance(e, Use) for t in e.symbol.elements if isinstance(t, Text)]


def lucky_of(item_extras: tuple[object, ...]) -> tuple[int, ...]:
    return tuple(int(t) for t in texts_of(item_extras))


def test_plain_pads_repeat_one_item() -> None:
    items = list(pad_items(sheet("qwixx-standard"), 5, seed=1))
    assert len({id(i) for i in items}) == 1 and items[0].extras == ()


def test_big_points_pad_deals_the_balanced_pool_evenly() -> None:
    items = list(pad_items(sheet("qwixx-big-points"), 40, seed=3))
    pairs = [lucky_of(i.extras) for i in items]
    assert {tuple(sorted(p)) for p in pairs} == set(balanced_pool())
    assert all(a != b for a, b in itertools.pairwise(pairs))
    assert {pairs.count(p) for p in set(pairs)} == {4}
    assert len({i.art.id for i in items}) == 1
    again = [lucky_of(i.extras) for i in pad_items(sheet("qwixx-big-points"), 40, seed=3)]
    assert again == pairs


def test_each_distinct_lucky_pair_is_drawn_once_and_shared_by_its_sheets(monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.builders import pad

    drawn: list[object] = []
    real = pad.sheet_extras

    def counting(*args: object, **kwargs: object) -> tuple[object, ...]:
        drawn.append(kwargs.get("lucky"))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(pad, "sheet_extras", counting)
    items = list(pad_items(sheet("qwixx-big-points"), 400, seed=5))
    assert len(drawn) == len(set(drawn)) == len(balanced_pool())
    by_pair = {lucky_of(i.extras): i.extras for i in items}
    assert all(i.extras is by_pair[lucky_of(i.extras)] for i in items)  # one tuple per pair, not a copy a sheet
    shuffled = list(pad_items(sheet("qwixx-gemixxt-b"), 30, seed=5, shuffle=True))
    assert len(shuffled) == 30 and len(drawn) == len(balanced_pool()) + 30  # every shuffled sheet has its own order, drawn anew


def test_lucky_pool_all_and_custom() -> None:
    pairs = {lucky_of(i.extras) for i in pad_items(sheet("qwixx-big-points"), 300, seed=1, lucky_pool="all")}
    assert len(pairs) == 105
    custom = [lucky_of(i.extras) for i in pad_items(sheet("qwixx-big-points"), 4, seed=1, lucky_pool="3-15,4-9")]
    assert sorted(custom) == [(3, 15), (3, 15), (4, 9), (4, 9)]


@pytest.mark.parametrize("pool, message", [("5-10", "cannot fill a pad"), ("2-17", "possible sums 2..16"),
                                           ("6-6", "must differ"), ("x", "not a pair")])
def test_bad_lucky_pools(pool: str, message: str) -> None:
    with pytest.raises(UsageProblem, match=f"--lucky-pool: .*{message}"):
        list(pad_items(sheet("qwixx-big-points"), 2, seed=1, lucky_pool=pool))


def test_shuffled_gemixxt_b_sheets_are_valid_and_different() -> None:
    layout = sheet("qwixx-gemixxt-b")
    items = list(pad_items(layout, 20, seed=9, shuffle=True))
    orders = []
    for item in items:
        numbers = [int(t) for t in texts_of(item.extras) if re.fullmatch(r"\d+", t)]
        rows = tuple(tuple(numbers[i * 11:(i + 1) * 11]) for i in range(4))
        qwixx.Sheet("gemixxt-b", numbers=rows)  # the engine accepts it: every number once, lock last
        assert [r[-1] for r in rows] == [11, 10, 3, 4]
        orders.append(rows)
    assert len(set(orders)) == 20
    assert len({i.art.id for i in items}) == 1


def test_only_gemixxt_b_shuffles() -> None:
    with pytest.raises(UsageProblem, match="--shuffle"):
        pad_items(sheet("qwixx-standard"), 2, seed=1, shuffle=True)
