"""The option declarations: every option x kind that does not apply is refused, values read the same way
from the command line, manifests and config files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen import layouts
from printgen.cli import main
from printgen.options import (
    BUILD_OPTIONS,
    SIMULATE_OPTIONS,
    Option,
    choice,
    integer,
    length,
    offset,
)

SAMPLE = {"output": "x", "out": None, "format": "svg", "paper": "a3", "lang": "de", "sheets": "4",
          "per_page": "1", "seed": "3", "lucky_pool": "all", "card_size": "mini", "bleed": "2", "gap": "1",
          "duplex": "short", "back_offset": "0.5,0.5", "printer_margin": "6"}
"""A valid value for every option that takes one (switches need none)."""


def args_for(option: Option) -> list[str]:
    if option.switch:
        return [option.off or option.flag] if option.default else [option.flag]
    return [option.flag, SAMPLE[option.key]]


CASES = [(name, option) for name in layouts.builtin_names() for option in BUILD_OPTIONS
         if option.key != "out" and not option.applies((layout := layouts.load(name)).kind, layout)]


@pytest.mark.parametrize("name, option", CASES, ids=[f"{n}{o.flag}" for n, o in CASES])
def test_an_option_a_layout_does_not_take_exits_2(tmp_path: Path, name: str, option: Option) -> None:
    result = CliRunner().invoke(main, ["build", name, "--out", str(tmp_path / "o"), *args_for(option)])
    assert result.exit_code == 2, result.output
    line = result.output.strip().splitlines()[-1]
    typed = args_for(option)[0]  # a switch turned off is named by its off flag (--no-crop-marks)
    assert line.startswith(f"Error: {typed}: does not apply to {name} (")
    assert not (tmp_path / "o").exists()


def test_double_sided_on_a_pad_says_how_to_print_one_on_both_sides(tmp_path: Path) -> None:
    """A home player asking a pad for --double-sided learns that it needs none (a fresh pair of eyes asked)."""
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path), "--double-sided"])
    assert result.exit_code == 2
    assert result.output == ("Error: --double-sided: does not apply to qwixx-standard (a score sheet); it is for token "
                             "sheets. A pad prints on both sides as it is: its sheets sit centred on every page, so "
                             "their cut lines meet back to front\n")


def test_every_option_is_refused_somewhere_and_taken_somewhere() -> None:
    kinds = {layouts.load(n).kind for n in layouts.builtin_names()}
    assert len(kinds) == 4 and len(BUILD_OPTIONS) > 20
    for option in BUILD_OPTIONS:
        assert any(option.applies(kind) for kind in kinds), option.key
    assert len(CASES) > 60


SIM_CASES = [("one-to-9", ["--render", "o9.pdf"]), ("one-to-9", ["--jokers"]), ("one-to-9", ["--lang", "de"]),
             ("qwixx-standard", ["--jokers"]), ("qwixx-standard", ["--misplay-end"]),
             ("qwixx-standard", ["--card-game"]), ("qwixx-cards", ["--card-game"]),
             ("qwixx-standard", ["--lang", "de"]), ("qwixx-standard", ["--symbols"])]


@pytest.mark.parametrize("name, args", SIM_CASES, ids=[f"{n} {' '.join(a)}" for n, a in SIM_CASES])
def test_a_simulate_option_a_game_does_not_take_exits_2(tmp_path: Path, name: str, args: list[str]) -> None:
    result = CliRunner().invoke(main, ["simulate", name, "--games", "1", *args])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1].startswith(f"Error: {args[0]}: ")


def test_every_option_has_help_and_ranges_are_stated() -> None:
    assert BUILD_OPTIONS and SIMULATE_OPTIONS
    for option in (*BUILD_OPTIONS, *SIMULATE_OPTIONS):
        assert option.help.strip(), option.key
    sheets = next(o for o in BUILD_OPTIONS if o.key == "sheets")
    assert "100,000" in sheets.help


@pytest.mark.parametrize("value, expected", [("A4", "a4"), ("Letter", "letter"), ("LEGAL", "legal")])
def test_choices_ignore_letter_case(value: str, expected: str) -> None:
    assert choice(("a4", "letter", "legal"))(value) == expected


def test_a_mistyped_choice_gets_a_suggestion() -> None:
    with pytest.raises(ValueError, match="did you mean letter"):
        choice(("a4", "letter"))("leter")


@pytest.mark.parametrize("text, mm", [("3", 3.0), ("3mm", 3.0), ("0.125in", 3.175), ("1 cm", 10.0), ("9pt", 3.175)])
def test_lengths_take_units(text: str, mm: float) -> None:
    assert length(0, 10)(text) == pytest.approx(mm)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e400", "3 furlongs", ""])
def test_lengths_refuse_what_is_not_a_finite_length(text: str) -> None:
    with pytest.raises(ValueError):
        length(0, 10)(text)


def test_offsets_take_units_and_refuse_nan() -> None:
    assert offset("0.02in,-1mm") == pytest.approx((0.508, -1.0))
    assert offset("0.5,-1") == (0.5, -1.0)
    for bad in ("nan,0", "1", "1,2,3", "a,b", "", "30,0"):
        with pytest.raises(ValueError):
            offset(bad)


def test_integers_name_their_range() -> None:
    with pytest.raises(ValueError, match="out of range 1..100,000"):
        integer(1, 100_000)("200000")


@pytest.mark.parametrize("args, message", [
    (["build", "qwixx-standard", "-n", "1" * 5000], "--sheets: a number of 5,000 digits is out of range"),
    (["build", "qwixx-big-points", "--lucky-pool", "5-" + "1" * 5000], "is not a pair like 5-10"),
    (["simulate", "qwixx-standard", "--seed", "9" * 5000], "--seed: a number of 5,000 digits"),
    (["build", "qwixx-cards-deck", "--bleed", "9" * 500], "is not a finite length"),
    (["build", "qwixx-standard", "-p", "x" * 500], "is not one of"),
])
def test_huge_values_on_the_command_line_are_one_short_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and message in result.output
    assert len(result.output.splitlines()) == 1 and len(result.output) < 200
