"""The cross-check holds layouts against the rules engine."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from printgen import layouts
from printgen.check import mismatches, require_agreement
from printgen.errors import CheckFailed
from printgen.kinds import ScoreSheetLayout


def test_every_builtin_layout_agrees_with_the_rules() -> None:
    for name in layouts.builtin_names():
        assert mismatches(layouts.load(name)) == []


def test_standard_sheet_prints_the_engines_table(standard: ScoreSheetLayout) -> None:
    from printgen.rules import qwixx

    assert list(standard.points_table.points) == qwixx.points_table("standard")


def test_a_wrong_points_table_is_caught(write_layout: Callable[..., Path]) -> None:
    path = write_layout("points = [1, 3, 6, 10,", "points = [1, 3, 6, 11,")
    found = mismatches(layouts.load(str(path)))
    assert found == [f"{path}: points_table.points[3]: 11 for 4 crosses, the rules say 10"]
    with pytest.raises(CheckFailed):
        require_agreement(layouts.load(str(path)))


@pytest.mark.parametrize(
    "old, new, key",
    [
        ("numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]", "numbers = [3, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
         "rows[0].numbers"),
        ('colour = "yellow"', 'colour = "red"', "rows[1].colour"),
        ("count = 4", "count = 3", "penalties.count"),
        ("points = -5", "points = -4", "penalties.points"),
        ("crosses = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]", "crosses = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]",
         "points_table.crosses"),
    ],
)
def test_each_kind_of_mismatch_is_named(write_layout: Callable[..., Path], old: str, new: str, key: str) -> None:
    path = write_layout(old, new)
    found = mismatches(layouts.load(str(path)))
    assert any(line.startswith(f"{path}: {key}: ") for line in found), found


def test_a_missing_row_is_caught(write_layout: Callable[..., Path], standard_text: str) -> None:
    blue = standard_text.index("[[rows]]\ncolour = \"blue\"")
    end = standard_text.index("[penalties]")
    path = write_layout(standard_text[blue:end], "")
    assert any("rows: 3 rows" in line for line in mismatches(layouts.load(str(path))))


def test_a_wrong_deck_composition_is_caught(tmp_path: Path) -> None:
    from printgen.resources import resource_dir

    text = (resource_dir("layouts") / "qwixx-cards-deck.toml").read_text(encoding="utf-8")
    path = tmp_path / "deck.toml"
    path.write_text(text.replace("numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\ncopies = 1\n\n[[cards]]\nkind = \"joker\"",
                                 "numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11]\ncopies = 1\n\n[[cards]]\nkind = \"joker\"",
                                 1), encoding="utf-8")
    found = mismatches(layouts.load(str(path)))
    assert f"{path}: cards: blue 11 is printed 2 times, the rules deck has 1" in found
    assert f"{path}: cards: red 12 is printed 0 times, the rules deck has 1" in found
