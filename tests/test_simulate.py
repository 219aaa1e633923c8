"""Simulations play whole games and hold every final sheet against the printed points table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from printgen import layouts
from printgen.errors import UsageProblem
from printgen.kinds import ScoreSheetLayout
from printgen.rules import qwixx
from printgen.simulate import simulate, verify


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


@pytest.mark.parametrize("name", ["qwixx-standard", "qwixx-big-points", "qwixx-gemixxt-a", "qwixx-gemixxt-b",
                                  "qwixx-bonus-a", "qwixx-bonus-b"])
def test_every_dice_sheet_simulates_and_agrees(name: str) -> None:
    report, _first = simulate(sheet(name), players=3, games=20, seed=2, strategy="mixed")
    assert report.sheets_checked == 60 and not report.mismatches
    assert sum(report.reasons.values()) == 20
    assert len(report.lines()) == 5 and "all agree" in report.lines()[-1]


def test_verify_catches_a_wrong_printed_table(write_layout: Callable[..., Path]) -> None:
    path = write_layout("points = [1, 3, 6, 10,", "points = [1, 3, 6, 11,")
    layout = layouts.load(str(path))
    assert isinstance(layout, ScoreSheetLayout)
    s = qwixx.Sheet("standard")
    for n in (2, 3, 4, 5):
        s.mark(0, n)
    assert verify(layout, s)[0] == "row 0: 4 crosses score 10, the sheet prints 11"


@pytest.mark.parametrize("name, card_game", [("qwixx-cards", False), ("qwixx-gemixxt-a", True)])
def test_card_games_simulate_and_agree(name: str, card_game: bool) -> None:
    report, first = simulate(sheet(name), 3, 15, 1, "mixed", card_game=card_game, jokers=True)
    assert report.sheets_checked == 45 and not report.mismatches
    assert isinstance(first, qwixx.CardGame)


def test_card_options_need_a_card_game() -> None:
    with pytest.raises(UsageProblem, match="card-game options"):
        simulate(sheet("qwixx-standard"), 3, 1, 1, jokers=True)
    with pytest.raises(UsageProblem, match="--card-game"):
        simulate(sheet("qwixx-standard"), 3, 1, 1, card_game=True)


@pytest.mark.parametrize("name", ["qwixx-big-points", "qwixx-gemixxt-a", "qwixx-gemixxt-b", "qwixx-bonus-a",
                                  "qwixx-bonus-b"])
def test_five_players_on_seed_003_editions_warn(name: str) -> None:
    """Seed 003 (003_fa4fce078a64c9bc.txt) prints "Giocatori: 2-4 persone" for each of its editions."""
    report, _ = simulate(sheet(name), players=5, games=2, seed=1)
    (warning,) = report.warnings
    assert "5 players go beyond the rule book" in warning and "2-4" in warning
    assert not simulate(sheet(name), players=4, games=2, seed=1)[0].warnings


def test_five_players_on_the_standard_sheet_do_not_warn() -> None:
    """Seed 001 (001_edb6d0d15f2501be.txt): "Giocatori: 2-5 partecipanti"."""
    assert not simulate(sheet("qwixx-standard"), players=5, games=2, seed=1)[0].warnings


def test_the_cli_prints_the_warning_on_stderr() -> None:
    from click.testing import CliRunner

    from printgen.cli import main

    result = CliRunner().invoke(main, ["simulate", "qwixx-bonus-a", "--players", "5", "--games", "2"])
    assert result.exit_code == 0
    assert "Warning: --players: 5 players go beyond the rule book" in result.stderr



def test_one_to_9_is_played_by_its_own_players_only() -> None:
    from printgen.simulate import simulate_nine

    with pytest.raises(UsageProblem, match=r"^--players: One to 9 is played by 2 to 6 players, not 7$"):
        simulate_nine(7, 1, 1)


def test_a_misspelt_game_is_pointed_to_what_simulate_plays() -> None:
    """One to 9 was pointed to its deck's layout name; the game's own name, one-to-9, was never offered."""
    from click.testing import CliRunner

    from printgen.cli import main

    result = CliRunner().invoke(main, ["simulate", "one-to-nine", "--games", "1"])
    assert result.exit_code == 2
    assert result.output.startswith("Error: unknown game or layout 'one-to-nine' (did you mean one-to-9?); simulate "
                                    "plays one-to-9, qwixx-big-points,")
    assert "deck" not in result.output and "board" not in result.output


def test_a_rendered_game_is_printed_as_build_prints_its_sheets(write_layout: Callable[..., Path],
                                                               tmp_path: Path) -> None:
    """A sheet too wide for two to an A4 page at full size goes one to a page (it was shrunk to 95 % to fit two,
    where `build` prints it whole); the standard sheet, two to a page."""
    from pypdf import PdfReader

    from printgen.simulate import write_filled

    wide = layouts.load(str(write_layout("width = 190\nheight = 115", "width = 200\nheight = 130")))
    for layout, pages in ((wide, 3), (layouts.load("qwixx-standard"), 2)):
        assert isinstance(layout, ScoreSheetLayout)
        _, game = simulate(layout, 3, 1, 1)
        target = write_filled(layout, game.sheets, tmp_path / f"{layout.name}.pdf", "en")
        assert len(PdfReader(target).pages) == pages, layout.name
