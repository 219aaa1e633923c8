"""The cross-check holds layouts against the rules engine: every kind of mismatch printgen.check can report is
provoked here, from a modified copy of a real layout, and must come out under its exact key, in the library
and from `printgen check FILE` (exit 1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen import layouts
from printgen.check import mismatches, require_agreement
from printgen.cli import main
from printgen.errors import CheckFailed, LayoutError, shown
from printgen.kinds import BoardLayout, Layout, ScoreSheetLayout, TokenLayout
from printgen.resources import resource_dir


def test_every_builtin_layout_agrees_with_the_rules() -> None:
    names = layouts.builtin_names()
    assert len(names) == 11
    for name in names:
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


def variant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """A copy of built-in layout `name` (same file name, so the same layout name) with `old` replaced by `new`."""
    text = (resource_dir("layouts") / f"{name}.toml").read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not in {name}.toml exactly once"
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def keyed(found: list[str], source: str) -> list[tuple[str, str]]:
    """(key, message) of each mismatch line `file: key: message` of the layout from `source`."""
    pairs = []
    for line in found:
        assert line.startswith(f"{source}: "), line
        key, message = line[len(source) + 2:].split(": ", 1)
        pairs.append((key, message))
    return pairs


def checked_by_the_cli(ref: str) -> tuple[int, list[str]]:
    """Exit code and output lines of `printgen check REF`."""
    result = CliRunner().invoke(main, ["check", ref])
    assert "Traceback" not in result.output
    return result.exit_code, result.output.splitlines()


STANDARD_YELLOW = 'colour = "yellow"\nnumbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\nlocks_with = [12]'

MISMATCHES: list[tuple[str, str, str, str, str]] = [
    # (layout, text in its file, replaced by, the key reported, its message)
    ("qwixx-standard", 'colour = "red"\nnumbers = [2, 3,', 'colour = "red"\nnumbers = [3, 2,', "rows[0].numbers",
     "[3, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12], the rules say [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"),
    ("qwixx-standard", 'colour = "yellow"', 'colour = "red"', "rows[1].colour", "'red', the rules say 'yellow'"),
    ("qwixx-standard", STANDARD_YELLOW, STANDARD_YELLOW.replace("[12]", "[11, 12]"),
     "rows[1].locks_with", "[11, 12], the rules say [12]"),
    ("qwixx-gemixxt-a", '{ colour = "yellow", numbers = [2, 3, 4] },\n    { colour = "blue", numbers = [5, 6, 7] },',
     '{ colour = "blue", numbers = [2, 3, 4] },\n    { colour = "yellow", numbers = [5, 6, 7] },',
     "rows[0].segments", ("cell colours ['blue', 'blue', 'blue', 'yellow', 'yellow', 'yellow', 'green', 'green', "
                          "'green', 'red', 'red'], the rules say ['yellow', 'yellow', 'yellow', 'blue', 'blue', "
                          "'blue', 'green', 'green', 'green', 'red', 'red']")),
    ("qwixx-bonus-a", "bonus = [3, 6, 9]", "bonus = [3, 6, 10]", "rows[0].bonus",
     "[3, 6, 10], the rules say [3, 6, 9]"),
    ("qwixx-bonus-b", "{ number = 9, kind = 3 },", "{ number = 9, kind = 2 },",
     "rows[2].bonus_fields", "{9: 2, 5: 4}, the rules say {9: 3, 5: 4}"),
    ("qwixx-bonus-a", 'bonus_row = ["red", "yellow",', 'bonus_row = ["yellow", "red",', "bonus_row",
     ("['yellow', 'red', 'green', 'blue', 'green', 'red', 'blue', 'yellow', 'red', 'yellow', 'blue', 'green'], the "
      "rules say ['red', 'yellow', 'green', 'blue', 'green', 'red', 'blue', 'yellow', 'red', 'yellow', 'blue', "
      "'green']")),
    ("qwixx-big-points", "lucky_numbers = true", "lucky_numbers = false", "lucky_numbers", "false, the rules say true"),
    ("qwixx-standard", 'rules = "standard"', 'lucky_numbers = true\nrules = "standard"', "lucky_numbers",
     "true, the rules say false"),
    ("qwixx-standard", 'label = "misthrows"', 'label = "misplays"', "penalties.label",
     "'misplays', the standard rules call them 'misthrows'"),
    ("qwixx-cards", 'label = "misplays"', 'label = "misthrows"', "penalties.label",
     "'misthrows', the cards rules call them 'misplays'"),
    ("qwixx-standard", "count = 4", "count = 3", "penalties.count", "3, the rules say 4"),
    ("qwixx-standard", "points = -5", "points = -4", "penalties.points", "-4, the rules say -5"),
    ("qwixx-standard", "crosses = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
     "crosses = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]", "points_table.crosses",
     "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13], the rules say [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"),
    ("qwixx-standard", "points = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]",
     "points = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 77]", "points_table.points[11]",
     "77 for 12 crosses, the rules say 78"),
    ("one-to-9-board", 'game = "one-to-9"', 'game = "qwixx-cards"', "game", "'qwixx-cards': only One to 9 has a board"),
    ("one-to-9-board", 'colours = ["red", "yellow", "green", "blue"]', 'colours = ["red", "yellow", "blue", "green"]',
     "colours", "['red', 'yellow', 'blue', 'green'], the rules say ['red', 'yellow', 'green', 'blue']"),
    ("one-to-9-board", "numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9]", "numbers = [1, 2, 3, 4, 5, 6, 7, 8]", "numbers",
     "[1, 2, 3, 4, 5, 6, 7, 8], the rules say [1, 2, 3, 4, 5, 6, 7, 8, 9]"),
    ("one-to-9-board", 'card_size = "poker"', 'card_size = "20x20"', "card_size",  # (build refused it, not check)
     ("20 x 20 mm cards leave a board field no room for its number beside its colour's shape; cards of at least "
      "26 x 36 mm fit")),
    ("qwixx-bonus-b", "width = 190", "width = 160", "size",  # (the rule texts ran under the fields, check said ok)
     ("160 mm is too narrow for the bonus boxes: box A's rule text would run past its field in de even at 6 pt (a "
      "layout prints in every language: de, en, fr, it, pl); a sheet at least 180 mm wide keeps it")),
    ("one-to-9-stars", "count = 39", "count = 38", "tokens.small-star", "38 printed, the rules have 39"),
    ("one-to-9-stars", "count = 9\n", "count = 10\n", "tokens.big-star", "10 printed, the rules have 9"),
    ("qwixx-standard", 'label = "total"', 'label = "misthrows"', "totals.label",
     "'misthrows' names the penalties; the last box of the totals line is the sheet's total ('total', 'points')"),
    ("one-to-9-stars", "diameter = 32", "diameter = 20", "tokens.big-star",  # (the big stars printed as small ones)
     "20 mm across, no bigger than the small stars (20 mm): players tell them apart by size"),
    ("qwixx-standard", 'title = "Qwixx"', 'title = "' + "Qwixx " * 20 + 'Qwixx"', "title",
     (f"{shown('Qwixx ' * 20 + 'Qwixx')} is too long for a 190 mm sheet: beside the name line it would print below "
      "6 pt in de (a layout prints in every language: de, en, fr, it, pl); a shorter title or a wider sheet "
      "keeps it")),
]


@pytest.mark.parametrize("name, old, new, key, message", MISMATCHES,
                         ids=[f"{case[0]}:{case[3]}" for case in MISMATCHES])
def test_each_kind_of_mismatch_is_named(tmp_path: Path, name: str, old: str, new: str, key: str,
                                        message: str) -> None:
    path = variant(tmp_path, name, old, new)
    assert keyed(mismatches(layouts.load(str(path))), str(path)) == [(key, message)]
    code, output = checked_by_the_cli(str(path))
    assert code == 1 and output == [f"Error: {path}: {key}: {message}"]


def test_a_sheet_too_small_to_use_is_named(tmp_path: Path) -> None:
    path = variant(tmp_path, "qwixx-standard", "width = 190\nheight = 115", "width = 190\nheight = 30")
    ((key, message),) = keyed(mismatches(layouts.load(str(path))), str(path))
    assert key == "size" and message.startswith("190 x 30 mm is too small for this sheet: ")
    assert "-" not in message.split(":")[0] and "needs about 100 mm of height" in message  # sizes that exist
    code, output = checked_by_the_cli(str(path))
    assert code == 1 and output == [f"Error: {path}: size: {message}"]


def test_a_missing_row_is_caught(tmp_path: Path) -> None:
    text = (resource_dir("layouts") / "qwixx-standard.toml").read_text(encoding="utf-8")
    blue = text[text.index('[[rows]]\ncolour = "blue"'):text.index("[penalties]")]
    path = variant(tmp_path, "qwixx-standard", blue, "")
    assert keyed(mismatches(layouts.load(str(path))), str(path)) == [("rows", "3 rows, the standard rules have 4")]
    code, output = checked_by_the_cli(str(path))
    assert code == 1 and output == [f"Error: {path}: rows: 3 rows, the standard rules have 4"]


def test_a_wrong_deck_composition_is_caught(tmp_path: Path) -> None:
    numbers = 'colours = ["red", "yellow", "green", "blue"]\nnumbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]'
    path = variant(tmp_path, "qwixx-cards-deck", numbers, numbers.replace("11, 12]", "11, 11]"))
    found = mismatches(layouts.load(str(path)))  # eight cards wrong: three named, the rest counted
    assert keyed(found, str(path)) == [
        ("cards", ("8 cards are printed more or less often than the rules deck has them (55 cards printed, "
                   "the rules deck has 55): is a group's copies or numbers wrong? The first of them:")),
        ("cards", "red 11 is printed 2 times, the rules deck has 1"),
        ("cards", "red 12 is printed 0 times, the rules deck has 1"),
        ("cards", "yellow 11 is printed 2 times, the rules deck has 1")]
    code, output = checked_by_the_cli(str(path))
    assert code == 1 and output == [f"Error: {found[0]}", *found[1:]]


def without(layout: Layout, colour: str) -> Layout:
    """`layout` with `colour` taken out of its palette."""
    return dataclasses.replace(layout, palette=tuple(entry for entry in layout.palette if entry[0] != colour))


def shorter_points_table(layout: Layout) -> Layout:
    """Score sheet `layout` with the last entry of its points table's points taken away."""
    assert isinstance(layout, ScoreSheetLayout)
    table = layout.points_table
    return dataclasses.replace(layout, points_table=dataclasses.replace(table, points=table.points[:-1]))


# The loader refuses these before the cross-check sees them (a points table whose length differs from its
# crosses; a palette without a colour the drawing needs), so they are made on the loaded model; `printgen
# check` is then shown the model under the name "mine".
MODELS: list[tuple[str, Callable[[Layout], Layout], str, str]] = [
    ("qwixx-standard", shorter_points_table, "points_table.points",
     "11 entries, the rules say 12"),
    ("qwixx-standard", lambda sheet: without(sheet, "blue"), "layout", "cannot be drawn: KeyError 'blue'"),
    ("qwixx-cards-deck", lambda deck: without(deck, "red"), "layout", "cannot be drawn: KeyError 'red'"),
    ("one-to-9-board", lambda board: without(board, "star"), "layout", "cannot be drawn: KeyError 'star'"),
    ("one-to-9-stars", lambda tokens: without(tokens, "ink"), "layout", "cannot be drawn: KeyError 'ink'"),
]


@pytest.mark.parametrize("name, change, key, message", MODELS, ids=[f"{m[0]}:{m[2]}:{m[3][:16]}" for m in MODELS])
def test_mismatches_the_loader_would_refuse_first_are_named(monkeypatch: pytest.MonkeyPatch, name: str,
                                                            change: Callable[[Layout], Layout], key: str,
                                                            message: str) -> None:
    layout = change(layouts.load(name))
    assert keyed(mismatches(layout), layout.source) == [(key, message)]
    load = layouts.load
    monkeypatch.setattr(layouts, "load", lambda ref, *args, **kwargs: layout if ref == "mine" else load(ref, *args,
                                                                                                           **kwargs))
    code, output = checked_by_the_cli("mine")
    assert code == 1 and output == [f"Error: {layout.source}: {key}: {message}"]


def test_every_kind_of_layout_is_held_against_the_rules() -> None:
    """The cases above reach every branch: every layout kind, and each of its keys."""
    kinds = {type(layouts.load(case[0])) for case in MISMATCHES}
    assert kinds == {ScoreSheetLayout, BoardLayout, TokenLayout}  # decks: test_a_wrong_deck_composition_is_caught
    keys = {case[3].split("[")[0] if case[3].startswith("rows") else case[3] for case in MISMATCHES}
    keys |= {"rows." + case[3].split(".", 1)[1] for case in MISMATCHES if case[3].startswith("rows[")}
    assert {"rows.colour", "rows.numbers", "rows.locks_with", "rows.segments", "rows.bonus", "rows.bonus_fields",
            "bonus_row", "lucky_numbers", "penalties.label", "penalties.count", "penalties.points",
            "points_table.crosses", "game", "colours", "numbers", "tokens.small-star", "tokens.big-star",
            "title"} <= keys


def test_a_sheet_too_small_names_sizes_that_exist(tmp_path: Path) -> None:
    for height in (40, 60):
        path = variant(tmp_path, "qwixx-standard", "width = 190\nheight = 115", f"width = 190\nheight = {height}")
        ((key, message),) = keyed(mismatches(layouts.load(str(path))), str(path))
        assert key == "size" and " -" not in message and "pt" not in message, message
        assert message.endswith("190 mm wide it needs about 100 mm of height")


@pytest.mark.parametrize("name, what", [("one-to-9-deck", "the cards"), ("qwixx-cards-deck", "the cards"),
                                        ("one-to-9-board", "the rows")])
def test_two_colours_of_a_deck_or_board_that_print_alike_are_warned_of(tmp_path: Path, name: str,
                                                                        what: str) -> None:
    path = tmp_path / f"{name}.toml"
    path.write_text((resource_dir("layouts") / f"{name}.toml").read_text(encoding="utf-8").replace(
        '"#d82f3f"', '"#ee8e22"', 1).replace('"#f5c518"', '"#ee9222"', 1), encoding="utf-8")  # (each still its own
    # hue, an orange red and an orange yellow: see the test below)
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0  # (the orange red is also as grey as the green, said on the lines after)
    assert result.stderr.splitlines()[0] == (f"Warning: {path}: palette: red (#ee8e22) and yellow (#ee9222) print "
                                             f"alike, and players tell {what} apart by colour")


@pytest.mark.parametrize("name", ["qwixx-standard", "qwixx-gemixxt-a", "one-to-9-deck", "one-to-9-board"])
def test_a_game_colour_printed_as_another_is_a_mismatch(tmp_path: Path, name: str) -> None:
    """Red and blue swapped in [palette] printed the red row blue, and `check` and `build` took it (a player
    matches rows and cards to dice and suits by colour). A grey stays a grey: it is taken, not checked."""
    text = (resource_dir("layouts") / f"{name}.toml").read_text(encoding="utf-8")
    swapped = tmp_path / "swapped.toml"
    swapped.write_text(text.replace('"#d82f3f"', '"#red#"').replace('"#153d84"', '"#d82f3f"').replace(
        '"#red#"', '"#153d84"'), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(swapped)])
    assert result.exit_code == 1
    assert f"{swapped}: palette.red: #153d84 prints as blue, not red (a hue of 218 degrees" in result.output
    assert f"{swapped}: palette.blue: #d82f3f prints as red, not blue" in result.output
    greys = tmp_path / "greys.toml"
    greys.write_text(text.replace('"#d82f3f"', '"#444444"').replace('"#153d84"', '"#999999"'), encoding="utf-8")
    assert "palette." not in CliRunner().invoke(main, ["check", str(greys)]).output


def test_check_names_every_mismatch_even_after_a_file_it_cannot_read(tmp_path: Path,
                                                                    write_layout: Callable[..., Path]) -> None:
    """A file that cannot be read stopped `check`, and the mismatches of the files after it were never named."""
    unreadable = write_layout("numbers = [2, 3,", "numbers = [2, 2,", name="twice.toml")
    wrong = write_layout("15, 21", "15, 22", name="wrong.toml")
    result = CliRunner().invoke(main, ["check", "qwixx-standard", str(unreadable), str(wrong)])
    assert result.exit_code == 2
    assert result.stdout == "ok  qwixx-standard\n"
    lines = result.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"Error: {wrong}: points_table.points[")
    assert lines[1].startswith(f"{unreadable}: rows[0].numbers: 2 printed twice")


@pytest.mark.parametrize("name, old, new, message", [
    ("qwixx-bonus-a", "bonus = [3, 6, 9]", "bonus = [3, 6, 9, 9]", "rows[0].bonus: 9 listed twice"),
    ("qwixx-bonus-b", "    { number = 7, kind = 3 },\n    { number = 10, kind = 5 },\n]\n\n[[rows]]\ncolour = \"yellow\"",
     "    { number = 7, kind = 3 },\n    { number = 4, kind = 2 },\n]\n\n[[rows]]\ncolour = \"yellow\"",
     "rows[0].bonus_fields: 4 listed twice"),
    ("qwixx-standard", "locks_with = [12]\n\n[[rows]]\ncolour = \"yellow\"",
     "locks_with = [12, 12]\n\n[[rows]]\ncolour = \"yellow\"", "rows[0].locks_with: 12 listed twice"),
    ("qwixx-big-points", "locks_with = [15, 16]\n\n[[rows]]\ncolour = \"yellow\"",
     "locks_with = [16, 15]\n\n[[rows]]\ncolour = \"yellow\"",
     "rows[0].locks_with: [16, 15]: list them as they are printed, [15, 16]"),
])
def test_a_number_listed_twice_or_out_of_order_is_named_so(tmp_path: Path, name: str, old: str, new: str,
                                                           message: str) -> None:
    """A boxed number listed twice passed check; a bonus field given two kinds kept the last and was reported as a
    rules mismatch; the lock numbers listed in another order were said to be printed in the wrong place."""
    path = variant(tmp_path, name, old, new)
    with pytest.raises(LayoutError) as caught:
        layouts.load(str(path))
    assert caught.value.problems == [f"{path}: {message}"]
