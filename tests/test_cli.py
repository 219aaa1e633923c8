"""The CLI through click's CliRunner: commands, exit codes, one-line errors."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen import __version__
from printgen.cli import main
from printgen.resources import resource_dir


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


@pytest.mark.parametrize("command", [[], ["list"], ["build"], ["check"]])
def test_every_help_shows_an_example(runner: CliRunner, command: list[str]) -> None:
    result = runner.invoke(main, [*command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.output and "printgen " in result.output


def test_list(runner: CliRunner) -> None:
    result = runner.invoke(main, ["list"])
    assert result.exit_code == 0
    assert "qwixx-standard" in result.output and "score-sheet" in result.output and "190 x 115 mm" in result.output


def test_check_all(runner: CliRunner) -> None:
    result = runner.invoke(main, ["check"])
    assert result.exit_code == 0 and "ok  qwixx-standard" in result.output


def test_check_names_every_mismatch(runner: CliRunner, write_layout: Callable[..., Path]) -> None:
    path = write_layout("points = [1, 3, 6, 10, 15,", "points = [1, 3, 7, 10, 16,")
    result = runner.invoke(main, ["check", "qwixx-standard", str(path)])
    assert result.exit_code == 1
    assert "points_table.points[2]: 7 for 3 crosses, the rules say 6" in result.output
    assert "points_table.points[4]: 16 for 5 crosses, the rules say 15" in result.output
    assert "Traceback" not in result.output


def test_build_pad(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--sheets", "100", "--per-page", "2",
                                  "--paper", "a4", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    from pypdf import PdfReader

    assert len(PdfReader(tmp_path / "qwixx-standard-100sheets.pdf").pages) == 50


def test_build_both_formats_from_a_file(runner: CliRunner, tmp_path: Path, write_layout: Callable[..., Path]) -> None:
    path = write_layout('title = "Qwixx"', 'title = "Club"', name="club-sheet.toml")
    result = runner.invoke(main, ["build", str(path), "--format", "both", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["club-sheet.pdf", "club-sheet.svg", "index.html",
                                                                  "preview"]


def test_build_all_writes_the_default_pack(default_pack: tuple[Path, int, str]) -> None:
    out, code, output = default_pack
    assert code == 0, output
    assert (out / "qwixx-standard.pdf").is_file() and (out / "qwixx-standard.svg").is_file()


def _one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert "Traceback" not in output
    return lines[-1]


def test_unknown_layout_lists_known_names(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-nope", "--out", str(tmp_path)])
    assert result.exit_code == 2
    line = _one_error_line(result.output)
    assert line.startswith("Error: unknown layout 'qwixx-nope' (did you mean qwixx-bonus-b?); known layouts: ")
    assert "qwixx-standard" in line and "qwixx-big-points" in line


def test_invalid_layout_is_one_line_exit_2(runner: CliRunner, tmp_path: Path, write_layout: Callable[..., Path]) -> None:
    path = write_layout("numbers = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]\nlocks_with = [2]",
                        "numbers = [13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]\nlocks_with = [2]")
    for command in (["build", str(path), "--out", str(tmp_path / "o")], ["check", str(path)]):
        result = runner.invoke(main, command)
        assert result.exit_code == 2
        assert result.output.strip() == f"Error: {path}: rows[2].numbers: 13 is not a possible sum (2..12)"
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "args",
    [["--sheets", "0"], ["--sheets", "x"], ["--per-page", "3"], ["--paper", "b5"], ["--format", "png"]],
)
def test_bad_option_values_are_usage_errors(runner: CliRunner, tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    assert _one_error_line(result.output).startswith(f"Error: {args[0]}: ")
    assert not any(tmp_path.iterdir())


def test_names_and_all_together_are_refused(runner: CliRunner) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--all"])
    assert result.exit_code == 2


def test_the_help_gives_the_pads_default_size_that_a_build_makes(runner: CliRunner, tmp_path: Path) -> None:
    from pypdf import PdfReader

    from printgen.kinds.score_sheets import PAD

    assert f"Sheets in the pad, 1..100,000 (default {PAD})." in runner.invoke(main, ["build", "--help"]).output
    result = runner.invoke(main, ["build", "qwixx-standard", "--per-page", "1", "--no-index", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    (pdf,) = tmp_path.glob("*.pdf")
    assert len(PdfReader(pdf).pages) == PAD  # a sheet a page


def test_an_output_naming_a_folder_beside_out_says_which(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path), "-o", "prints\\club"])
    assert result.exit_code == 2
    assert result.output == ("Error: --output: 'prints\\\\club' names a folder (prints) and so does --out; give one "
                             "of them\n")


def test_two_layouts_writing_one_file_are_refused_before_either_is_written(runner: CliRunner, tmp_path: Path,
                                                                          write_layout: Callable[..., Path]) -> None:
    (tmp_path / "a").mkdir()
    first = write_layout(name="a/sheet.toml")
    second = write_layout('"#d82f3f"', '"#000000"', name="sheet.toml")
    out = tmp_path / "o"
    result = runner.invoke(main, ["build", str(first), str(second), "-n", "1", "--out", str(out)])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == (f"Error: {second} and {first} both write {out / 'sheet-1sheet.pdf'} "
                                              "(build them one at a time, each with its own -o)")
    result = runner.invoke(main, ["build", "qwixx-standard", "qwixx-cards", "qwixx-standard", "--out", str(out)])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == "Error: qwixx-standard: given twice; give each layout once"
    assert not out.exists()


def test_o_naming_a_folder_that_is_a_file_names_o(runner: CliRunner, tmp_path: Path) -> None:
    """-o afile/x.pdf (afile a file) was refused naming --out, which was not given."""
    (tmp_path / "afile").write_text("x")
    result = runner.invoke(main, ["build", "qwixx-standard", "-o", str(tmp_path / "afile" / "x.pdf")])
    assert result.exit_code == 2
    said = f"Error: --output: '{tmp_path / 'afile' / 'x.pdf'}': {tmp_path / 'afile'} is a file, not a folder\n"
    assert result.output == said


def test_an_output_ending_in_another_files_extension_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path), "-o", "pad.PNG"])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == ("Error: --output: 'pad.PNG' ends in .PNG, but a build writes PDF and "
                                              "SVG: end it in .pdf or .svg (or in neither)")
    assert not any(tmp_path.iterdir())
    result = runner.invoke(main, ["build", "qwixx-standard", "-n", "1", "--out", str(tmp_path), "-o", "club.v2"])
    assert result.exit_code == 0 and (tmp_path / "club.v2.pdf").is_file()


def test_too_many_sheets_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--sheets", "100001", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == "Error: --sheets: 100001 is out of range 1..100,000"


def test_simulate_prints_the_report_and_renders(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "game.pdf"
    result = runner.invoke(main, ["simulate", "qwixx-big-points", "--players", "4", "--games", "30", "--seed", "1",
                                  "--render", str(target)])
    assert result.exit_code == 0, result.output
    assert "30 games, 4 players" in result.output and "mean" in result.output and "all agree" in result.output
    from pypdf import PdfReader

    assert len(PdfReader(target).pages) == 2


def test_build_in_polish_reads_back_with_its_letters(runner: CliRunner, tmp_path: Path) -> None:
    from tests.pdfcheck import page_texts

    result = runner.invoke(main, ["build", "qwixx-cards", "--lang", "pl", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    text = page_texts(tmp_path / "qwixx-cards-pl.pdf")[0]
    assert "Pudło" in text and "Łącznie" in text and "Krzyżyki" in text


def test_unknown_language_lists_the_languages(runner: CliRunner) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--lang", "xx"])
    assert result.exit_code == 2 and "Error: --lang: 'xx' is not one of en, de, fr, it, pl" in result.output


def test_big_points_pad_prints_lucky_numbers_per_sheet(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-big-points", "--sheets", "4", "--format", "both",
                                  "--out", str(tmp_path), "--seed", "5"])
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "qwixx-big-points-4sheets-seed5").glob("*.svg"))) == 4


def test_a_seed_that_changes_nothing_is_refused_and_the_pack_gives_it_where_it_does(runner: CliRunner,
                                                                                   tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-gemixxt-b", "--seed", "5", "--out", str(tmp_path)])
    assert (result.exit_code, result.output) == (2, ("Error: --seed: changes nothing on qwixx-gemixxt-b without "
                                                    "--shuffle (its sheets are all alike)\n"))
    result = runner.invoke(main, ["build", "--all", "--seed", "3", "-f", "pdf", "--no-index", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert {"qwixx-big-points-seed3.pdf", "qwixx-gemixxt-b.pdf"} <= {p.name for p in tmp_path.iterdir()}


def test_the_pack_on_a_paper_the_whole_board_does_not_fit_prints_the_board_on_its_own(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "--all", "-p", "letter", "-f", "pdf", "--no-index", "--out",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert ("Note: one-to-9-board: printed whole on its own paper: it does not fit letter (add --tile to print it "
            "on letter sheets)\n") in result.stderr
    names = {p.name for p in tmp_path.iterdir()}
    assert {"one-to-9-board.pdf", "qwixx-standard-letter.pdf", "qwixx-cards-deck-letter.pdf"} <= names
    refused = CliRunner().invoke(main, ["build", "--all", "-p", "letter", "--per-page", "1", "-f", "pdf",
                                        "--out", str(tmp_path / "refused")])  # only the board leaves a paper out
    assert refused.exit_code == 2 and "Note:" not in refused.output and not (tmp_path / "refused").exists()


def test_the_pack_puts_as_many_sheets_on_a_page_as_its_paper_holds(tmp_path: Path) -> None:
    from pypdf import PdfReader

    for paper, pages in (("a5", 50), ("a3", 13)):  # 1 and 4 a page (it pinned 2: A5 could not be built at all)
        out = tmp_path / paper
        result = CliRunner().invoke(main, ["build", "--all", "-p", paper, "-f", "pdf", "--no-index", "--out",
                                           str(out)])
        assert result.exit_code == 0, result.output
        assert len(PdfReader(out / f"qwixx-standard-{paper}.pdf").pages) == pages


@pytest.mark.parametrize("size", ["20x20", "63x25", "25x40"])
def test_board_fields_too_small_for_their_number_are_refused(tmp_path: Path, size: str) -> None:
    result = CliRunner().invoke(main, ["build", "one-to-9-board", "--card-size", size, "--out", str(tmp_path)])
    width, height = size.split("x")
    assert (result.exit_code, result.output) == (2, (f"Error: --card-size: {width} x {height} mm cards leave a board "
                                                    "field no room for its number beside its colour's shape; cards "
                                                    "of at least 26 x 36 mm fit\n"))
    assert list(tmp_path.iterdir()) == []


def test_a_low_board_field_keeps_its_number_clear_of_its_corners() -> None:
    from printgen.builders.one_to_nine_pieces import CORNER_ROOM, FIELD_PAD, field_number

    low = (88.9 + 2 * FIELD_PAD, 63.5 + 2 * FIELD_PAD)  # landscape cards
    assert field_number(low) == pytest.approx(low[1] - 2 * CORNER_ROOM)
    assert field_number((63.5 + 2 * FIELD_PAD, 88.9 + 2 * FIELD_PAD)) == pytest.approx((63.5 + 2 * FIELD_PAD) * 0.55)


def test_one_lucky_pool_written_two_ways_is_one_name(runner: CliRunner, tmp_path: Path) -> None:
    for pool in ("10-5, 6-11", "5-10,6-11"):
        result = runner.invoke(main, ["build", "qwixx-big-points", "-n", "4", "--lucky-pool", pool, "-f", "pdf",
                                      "--no-index", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.iterdir()] == ["qwixx-big-points-4sheets-pool-5-10_6-11.pdf"]


def test_pads_dealt_from_other_lucky_pools_never_replace_each_other(runner: CliRunner, tmp_path: Path) -> None:
    for pool in ("balanced", "all", "4-9, 5-8"):
        result = runner.invoke(main, ["build", "qwixx-big-points", "-n", "4", "--lucky-pool", pool, "-f", "both",
                                      "--no-index", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "qwixx-big-points-4sheets", "qwixx-big-points-4sheets-pool-4-9_5-8", "qwixx-big-points-4sheets-pool-4-9_5-8.pdf",
        "qwixx-big-points-4sheets-pool-all", "qwixx-big-points-4sheets-pool-all.pdf", "qwixx-big-points-4sheets.pdf"]


def test_bad_lucky_pool_is_one_line(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-big-points", "--lucky-pool", "5-10", "--sheets", "3",
                                  "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert _one_error_line(result.output).startswith("Error: --lucky-pool: a pool of one pair")
    assert not any(tmp_path.iterdir())


def test_a_score_sheets_per_page_out_of_range_names_what_each_kind_takes(runner: CliRunner) -> None:
    """-1 said "out of range 1..64", a range for decks: a score sheet takes 1, 2 or 4."""
    result = runner.invoke(main, ["build", "qwixx-standard", "--per-page", "-1"])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == ("Error: --per-page: -1 is out of range (score sheets 1, 2 or 4 a page, "
                                              "decks 1 to 64)")


def test_shuffle_builds(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-gemixxt-b", "--shuffle", "--sheets", "6", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["--card-size", "250x300"], "Error: --card-size: 250 x 300 mm cards do not fit a4 with its bleed and crop marks inside a 5 mm printer margin"),
        (["--card-size", "huge"], "Error: --card-size: 'huge' is not poker, bridge, mini or WxH with an optional unit (e.g. 63x88mm, 2.5x3.5in)"),
        (["--card-size", "20x20in"], "Error: --card-size: 20x20in (508 x 508 mm) is outside 20..300 mm a side"),
        (["--bleed", "-1"], "Error: --bleed: -1 mm is outside 0..10 mm"),
        (["--bleed", "11"], "Error: --bleed: 11 mm is outside 0..10 mm"),
        (["--back-offset", "1"], "Error: --back-offset: '1' is not two lengths X,Y (e.g. 0.5,-1 in mm)"),
        (["--per-page", "65"], "Error: --per-page: 65 is out of range (score sheets 1, 2 or 4 a page, decks 1 to 64)"),
    ],
)
def test_bad_deck_options_are_one_line(runner: CliRunner, tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(main, ["build", "qwixx-cards-deck", "--out", str(tmp_path), *args])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == message
    assert not any(tmp_path.iterdir())


def test_deck_builds_for_letter_with_an_alignment_page(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-cards-deck", "--paper", "letter", "--alignment-page",
                                  "--back-offset", "0.5,-1", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    from pypdf import PdfReader

    assert len(PdfReader(tmp_path / "qwixx-cards-deck-letter-offset0.5_-1mm-alignment.pdf").pages) == 2 + 14


def test_a_deck_with_its_own_gap_or_bleed_never_replaces_the_plain_one(runner: CliRunner, tmp_path: Path) -> None:
    for extra in ([], ["--gap", "0"], ["--bleed", "2", "--gap", "4.5"]):
        result = runner.invoke(main, ["build", "qwixx-cards-deck", *extra, "--no-index", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == [
        "qwixx-cards-deck-gap0mm.pdf", "qwixx-cards-deck-gap4.5mm-bleed2mm.pdf", "qwixx-cards-deck.pdf"]


@pytest.mark.parametrize("args, line", [
    (["-p", "letter"], ("Error: --paper: print-shop pages (--per-page 1) are each a card with its bleed, on no "
                        "paper; leave the paper out (or give --per-page 2 or more to print on it)")),
    (["--alignment-page"], ("Error: --alignment-page: is a test page for duplex printing at home, and print-shop "
                            "pages (--per-page 1) have none; leave it out")),
    (["--printer-margin", "8"], ("Error: --printer-margin: print-shop pages (--per-page 1) are each a card with its "
                                 "bleed, with no margin round it; leave it out")),  # (it changed the name alone)
])
def test_print_shop_pages_refuse_a_paper_and_the_alignment_page(runner: CliRunner, tmp_path: Path, args: list[str],
                                                                line: str) -> None:
    result = runner.invoke(main, ["build", "one-to-9-deck", "--per-page", "1", *args, "--out", str(tmp_path)])
    assert result.exit_code == 2 and _one_error_line(result.output) == line
    assert not any(tmp_path.iterdir())


def test_a_printer_margin_of_its_own_names_its_pdf(runner: CliRunner, tmp_path: Path) -> None:
    for args in ([], ["--printer-margin", "8"]):
        result = runner.invoke(main, ["build", "one-to-9-deck", *args, "--no-index", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == ["one-to-9-deck-margin8mm.pdf", "one-to-9-deck.pdf"]


def test_a_decks_cards_with_their_own_bleed_never_replace_the_plain_ones(runner: CliRunner, tmp_path: Path) -> None:
    for extra in ([], ["--bleed", "0"]):
        result = runner.invoke(main, ["build", "qwixx-cards-deck", "-f", "svg", *extra, "--no-index", "--out",
                                      str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qwixx-cards-deck", "qwixx-cards-deck-bleed0mm"]
    assert 'viewBox="0 0 63.5 88.9"' in (tmp_path / "qwixx-cards-deck-bleed0mm" / "blue-02-front.svg").read_text()


def test_list_shows_the_deck(runner: CliRunner) -> None:
    result = runner.invoke(main, ["list"])
    assert "qwixx-cards-deck" in result.output and "55 63.5 x 88.9 mm cards (poker)" in result.output


def test_simulate_card_game(runner: CliRunner) -> None:
    result = runner.invoke(main, ["simulate", "qwixx-cards", "--players", "3", "--games", "20", "--jokers"])
    assert result.exit_code == 0, result.output
    assert "2nd row completed" in result.output and "all agree" in result.output


def test_simulate_one_to_9(runner: CliRunner) -> None:
    result = runner.invoke(main, ["simulate", "one-to-9", "--players", "3", "--games", "5", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "winner     mean" in result.output and "long run" in result.output and "conserved" in result.output


def test_board_paper_errors_are_one_line(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "one-to-9-board", "--paper", "a3", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert _one_error_line(result.output).startswith("Error: --paper: the one-to-9-board (751 x 498 mm) does not fit a3")
    result = runner.invoke(main, ["build", "one-to-9-board", "--tile", "--card-size", "200x280", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert _one_error_line(result.output).startswith("Error: --tile: a 206 x 286 mm field with its 12 mm overlap")
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize(("game", "players", "message"), [
    ("qwixx-standard", "6", "Error: --players: Qwixx is played by 2 to 5 players, not 6"),
    ("qwixx-standard", "99", "Error: --players: Qwixx is played by 2 to 5 players, not 99"),
    ("one-to-9", "7", "Error: --players: One to 9 is played by 2 to 6 players, not 7"),
])
def test_simulate_names_each_games_players(runner: CliRunner, game: str, players: str, message: str) -> None:
    result = runner.invoke(main, ["simulate", game, "--players", players, "--games", "1"])
    assert result.exit_code == 2 and _one_error_line(result.output) == message


@pytest.mark.parametrize("command", [["simulate", "qwixx-standard", "--games", "1"],
                                     ["build", "qwixx-big-points", "-n", "1"]])
def test_a_negative_seed_is_refused_not_taken_for_its_positive(runner: CliRunner, tmp_path: Path,
                                                              command: list[str]) -> None:
    # (Python's random takes a seed's absolute value: -7 would play the games of 7)
    out = ["--out", str(tmp_path)] if command[0] == "build" else []
    result = runner.invoke(main, [*command, "--seed", "-7", *out])
    assert result.exit_code == 2
    assert _one_error_line(result.output) == "Error: --seed: -7 is out of range 0..9,223,372,036,854,775,807"


def test_no_scan_marks_names_its_pad_and_is_for_score_sheets_only(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["build", "qwixx-standard", "--no-scan-marks", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "qwixx-standard-unmarked.pdf").is_file()
    assert not (tmp_path / "qwixx-standard.pdf").exists()
    refused = runner.invoke(main, ["build", "qwixx-cards-deck", "--no-scan-marks", "--out", str(tmp_path)])
    assert refused.exit_code == 2
    assert "--no-scan-marks" in _one_error_line(refused.output) and "score sheet" in refused.output


def test_a_ctrl_c_wrapped_by_python_while_a_class_is_made_is_one_line() -> None:
    import click

    from printgen.cli import reports_errors

    @click.command()
    @reports_errors
    def command() -> None:
        class Named:
            def __set_name__(self, owner: type, name: str) -> None:
                raise KeyboardInterrupt  # where Ctrl-C lands during a dataclass's making

        type("Made", (), {"field": Named()})

    result = CliRunner().invoke(command, [])
    assert result.exit_code == 130
    assert result.output.strip() == "Error: interrupted; no partial file was left behind"


def test_a_deck_title_too_long_for_its_cards_fails_check_as_build_refuses_it(runner: CliRunner, tmp_path: Path) -> None:
    text = (resource_dir("layouts") / "qwixx-cards-deck.toml").read_text(encoding="utf-8")
    path = tmp_path / "deck.toml"
    path.write_text(text.replace('title = "Qwixx"', 'title = "WWWWWWWWWWWWWWWWWWWW"', 1), encoding="utf-8")
    line = (f"Error: {path}: title: 63.5 x 88.9 mm cards would print 'WWWWWWWWWWWWWWWWWWWW' at 5.1 pt (the minimum "
            "is 6 pt); shorten it, or give cards of at least 75 x 105 mm (--card-size)")
    for command in (["check", str(path)], ["build", str(path), "--out", str(tmp_path / "o")]):
        result = runner.invoke(main, command)
        assert result.exit_code == 1 and _one_error_line(result.output) == line
    assert not (tmp_path / "o").exists()


def test_the_totals_label_is_the_word_printed_on_the_totals_line(runner: CliRunner, tmp_path: Path,
                                                                 write_layout: Callable[..., Path]) -> None:
    from tests.pdfcheck import page_texts

    path = write_layout('[totals]\nlabel = "total"', '[totals]\nlabel = "points"')
    result = runner.invoke(main, ["build", str(path), "-n", "1", "-l", "de", "-o", str(tmp_path / "s.pdf")])
    assert result.exit_code == 0, result.output
    text = page_texts(tmp_path / "s.pdf")[0]
    assert "Gesamt" not in text and text.rstrip().endswith("Punkte")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_named_not_blamed_on_a_file(tmp_path: Path) -> None:
    """With standard output on a full disk, the file built is whole: the error says where writing failed."""
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "printgen", "build", "qwixx-standard", "-n", "1", "--out",
                               str(tmp_path)], stdout=full, stderr=subprocess.PIPE, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr == "Error: cannot write to standard output: No space left on device\n"
    assert [p.name for p in tmp_path.glob("*.pdf")] == ["qwixx-standard-1sheet.pdf"]
