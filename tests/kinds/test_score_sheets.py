"""The score-sheet kind: the paper picks the sheets a page, one default pad size whose count names the file when it
differs, and refusals that name where an untyped paper came from."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from printgen import layouts
from printgen.build import build, options_for
from printgen.cli import main
from printgen.kinds.score_sheets import PAD, fitting


@pytest.mark.parametrize("paper, per_page", [("a5", 1), ("a4", 2), ("letter", 2), ("a3", 4), ("tabloid", 4)])
def test_the_paper_picks_the_sheets_a_page(tmp_path: Path, paper: str, per_page: int) -> None:
    for name in ("qwixx-standard", "qwixx-bonus-b"):
        assert fitting(layouts.load(name), paper) == per_page  # type: ignore[arg-type]
    (pdf,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, paper=paper, sheets=4))
    reader = PdfReader(pdf)
    assert len(reader.pages) == -(-4 // per_page)
    box = reader.pages[0].mediabox
    assert sorted((round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4))) == sorted(
        {"a5": (148, 210), "a4": (210, 297), "letter": (216, 279), "a3": (297, 420), "tabloid": (279, 432)}[paper])


def test_a_paper_from_the_environment_prints_without_complaint(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "qwixx-bonus-a", "--out", str(tmp_path)],
                                env={"PRINTGEN_PAPER": "a5"})
    assert result.exit_code == 0, result.output
    assert len(PdfReader(tmp_path / "qwixx-bonus-a-a5.pdf").pages) == PAD


def test_a_refusal_names_where_an_untyped_paper_came_from(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["build", "qwixx-bonus-a", "--per-page", "4", "--out", str(tmp_path)],
                                env={"PRINTGEN_PAPER": "a5"})
    assert result.exit_code == 2 and "on a5 (from PRINTGEN_PAPER)" in result.output
    assert len(result.output.splitlines()) == 1 and not list(tmp_path.iterdir())


def test_one_sheet_on_a_paper_or_on_a_page_of_its_own_size(tmp_path: Path) -> None:
    (own,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, per_page=1, sheets=1))
    (a5,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, per_page=1, paper="a5", sheets=1))
    assert own.name == "qwixx-standard-1up-1sheet.pdf" and a5.name == "qwixx-standard-a5-1sheet.pdf"
    assert round(float(PdfReader(own).pages[0].mediabox.width) / 72 * 25.4) == 190
    assert round(float(PdfReader(a5).pages[0].mediabox.width) / 72 * 25.4) == 210  # A5 landscape


def test_build_all_never_replaces_a_pad_of_another_size(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["build", "qwixx-standard", "-n", "100", "--out", str(tmp_path)]).exit_code == 0
    assert runner.invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path)]).exit_code == 0
    assert len(PdfReader(tmp_path / "qwixx-standard-100sheets.pdf").pages) == 50
    assert len(PdfReader(tmp_path / "qwixx-standard.pdf").pages) == PAD // 2


def test_o_names_a_file_where_the_user_stands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "-o", "pad.pdf"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pad.pdf"]  # no output/, no index.html beside it


def test_a_sheet_larger_than_its_paper_is_warned_of_or_refused_naming_the_paper(
        tmp_path: Path, write_layout: Callable[..., Path]) -> None:
    tall = write_layout("height = 115", "height = 300", name="tall.toml")
    runner = CliRunner()
    built = runner.invoke(main, ["build", str(tall), "-n", "1", "--no-index", "--out", str(tmp_path)])
    assert built.exit_code == 0, built.output
    assert built.stderr == (f"Warning: {tall}: the 190 x 300 mm sheet is printed at 92% on a4 (it does not fit at "
                            "100 %; -p a3 holds it whole)\n")
    svg = runner.invoke(main, ["build", str(tall), "-f", "svg", "--no-index", "--out", str(tmp_path)])
    assert svg.exit_code == 0 and svg.stderr == ""  # an SVG is the sheet at its own size
    refused = runner.invoke(main, ["build", str(tall), "-p", "a5", "--out", str(tmp_path / "a5")])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("Error: --paper: the 190 x 300 mm tall sheet prints at 63% on a5, with text as ")
    assert refused.stderr.endswith("; use -p a4\n") and not (tmp_path / "a5").exists()


def test_a_sheet_too_small_by_design_is_still_refused_where_its_paper_shrinks_it_further(
        tmp_path: Path, write_layout: Callable[..., Path], standard_text: str) -> None:
    """A 150 x 400 mm sheet's points table prints at 5.1 pt at full size (a warning: its own design); on A4 it
    printed at 69 %, with 3.5 pt text and 6.3 mm fields, and on A5 at 48 %, warned of only."""
    taller = write_layout(raw=standard_text.replace("width = 190", "width = 150", 1)
                          .replace("height = 115", "height = 400", 1).encode(), name="taller.toml")
    runner = CliRunner()
    for paper, scale in (("a4", "69%"), ("a5", "48%")):
        refused = runner.invoke(main, ["build", str(taller), "-n", "1", "-p", paper, "--out", str(tmp_path / paper)])
        assert refused.exit_code == 2 and not (tmp_path / paper).exists()
        assert refused.stderr.startswith(f"Error: --paper: the 150 x 400 mm taller sheet prints at {scale} on {paper}")
        assert refused.stderr.endswith("; use -p a3\n")
    built = runner.invoke(main, ["build", str(taller), "-n", "1", "-p", "a3", "--no-index", "--out", str(tmp_path)])
    assert built.exit_code == 0 and "text as small as 5.1 pt" in built.stderr


@pytest.mark.parametrize("colour, warning", [
    ("#ffffff", ("palette.yellow: #ffffff hardly shows on white paper (1.00:1): its rows' bands and fields would not "
                 "be seen")),
    ("#eeeeee", ("palette.yellow: #eeeeee hardly shows on white paper (1.16:1): its rows' bands and fields would not "
                 "be seen")),
])
def test_a_row_colour_that_hides_its_fields_or_looks_like_another_is_warned_of(
        write_layout: Callable[..., Path], colour: str, warning: str) -> None:
    path = write_layout('"#f5c518"', f'"{colour}"')
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and result.stderr == f"Warning: {path}: {warning}\n"


@pytest.mark.parametrize("yellow", ["#ee9222", "#ee9424"])
def test_two_row_colours_that_print_alike_are_warned_of(write_layout: Callable[..., Path], yellow: str) -> None:
    """An orange red and an orange yellow, each in its own hue (one printed as another is a mismatch:
    tests/test_check.py), that a player could not tell apart."""
    path = write_layout('"#d82f3f"', '"#ee8e22"')
    path.write_text(path.read_text(encoding="utf-8").replace('"#f5c518"', f'"{yellow}"'), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0  # (the orange red is also as grey as the green: test_..._same_grey_...)
    assert result.stderr.splitlines()[0] == (f"Warning: {path}: palette: red (#ee8e22) and yellow ({yellow}) print "
                                             "alike, and players tell the rows apart by colour")


def test_two_row_colours_that_print_as_the_same_grey_are_warned_of(write_layout: Callable[..., Path]) -> None:
    """A sky blue and the yellow differ in colour (each in its own hue) but print as one grey on a black-and-white
    printer (a designer's palette the fresh-eyes pass found taken)."""
    path = write_layout('"#153d84"', '"#87ceeb"')
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and result.stderr == (
        f"Warning: {path}: palette: yellow (#f5c518) and blue (#87ceeb) print as nearly the same grey (luma 192 and "
        "188 of 255): printed in black and white, players could not tell the rows apart\n")


def test_a_palette_colour_no_row_uses_is_warned_of(write_layout: Callable[..., Path]) -> None:
    path = write_layout('blue = "#153d84"', 'blue = "#153d84"\npurple = "#800080"')
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and result.stderr == (f"Warning: {path}: palette.purple: no row uses it (a row names "
                                                       "its colour in `colour`)\n")


def test_no_built_in_sheet_is_warned_of() -> None:
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0 and result.stderr == ""


def test_a_sheet_no_desk_paper_holds_is_pointed_to_its_own_size_never_to_the_boards_papers(
        tmp_path: Path, write_layout: Callable[..., Path]) -> None:
    """A 500 mm wide sheet fits only a2 or larger, which are the board's: the way out is pages of its own size."""
    wide = write_layout("width = 190", "width = 500", name="wide.toml")
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(wide)])
    assert checked.exit_code == 0, checked.output
    assert checked.stderr == (f"Warning: {wide}: the 500 x 115 mm sheet is printed at 55% on a4 (it does not fit at "
                              "100 %; --per-page 1 with no paper prints it at its own size)\n")
    refused = runner.invoke(main, ["build", str(wide), "-n", "1", "--out", str(tmp_path / "a4")])
    assert refused.exit_code == 2 and not (tmp_path / "a4").exists()
    assert refused.stderr.endswith("no paper printgen knows holds it legibly: --per-page 1 with no paper prints it "
                                   "at its own size, or make the sheet smaller\n")
    assert "a2" not in refused.stderr
    built = runner.invoke(main, ["build", str(wide), "-n", "1", "--per-page", "1", "--no-index", "--out",
                                 str(tmp_path)])
    assert built.exit_code == 0, built.output
    page = PdfReader(tmp_path / "wide-1up-1sheet.pdf").pages[0]
    assert round(float(page.mediabox.width) / 72 * 25.4) == 500
