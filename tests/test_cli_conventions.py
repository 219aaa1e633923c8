"""Command-line conventions: short flags, units, US papers, -o, config files and environment variables,
shell completion, list and show."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from printgen.cli import main


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=env)
    return result.exit_code, result.output


def test_short_flags(tmp_path: Path) -> None:
    code, output = run("build", "qwixx-standard", "-n", "6", "-p", "letter", "-l", "de", "-f", "both",
                       "-o", "club", "--out", str(tmp_path))
    assert code == 0, output
    assert len(PdfReader(tmp_path / "club.pdf").pages) == 3 and (tmp_path / "club.svg").is_file()
    box = PdfReader(tmp_path / "club.pdf").pages[0].mediabox
    assert (round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1)) == (215.9, 279.4)


def test_output_may_name_a_folder_and_an_extension(tmp_path: Path) -> None:
    code, output = run("build", "qwixx-standard", "-o", str(tmp_path / "prints" / "pad.pdf"))
    assert code == 0, output
    assert (tmp_path / "prints" / "pad.pdf").is_file()
    code, output = run("build", "qwixx-standard", "qwixx-bonus-a", "-o", "x", "--out", str(tmp_path))
    assert code == 2 and "--output: names one layout's files" in output


@pytest.mark.parametrize("paper, size", [("legal", (215.9, 355.6)), ("tabloid", (279.4, 431.8)),
                                         ("A5", (148.0, 210.0))])
def test_us_papers_and_a5(tmp_path: Path, paper: str, size: tuple[float, float]) -> None:
    code, output = run("build", "qwixx-cards-deck", "-p", paper, "--out", str(tmp_path))
    assert code == 0, output
    (pdf,) = tmp_path.glob("*.pdf")
    box = PdfReader(pdf).pages[0].mediabox
    assert sorted((round(float(box.width) * 25.4 / 72, 1), round(float(box.height) * 25.4 / 72, 1))) == list(size)


def test_card_sizes_with_units(tmp_path: Path) -> None:
    code, output = run("build", "qwixx-cards-deck", "--card-size", "2.25x3.5in", "-f", "svg", "--out", str(tmp_path))
    assert code == 0, output
    (folder,) = [p for p in tmp_path.iterdir() if p.is_dir() and p.name != "preview"]
    assert folder.name == "qwixx-cards-deck-bridge"  # (2.25 x 3.5 in is the bridge size, named so)
    svg = (folder / "red-02-front.svg").read_text(encoding="utf-8")
    assert 'width="63.15mm"' in svg and 'height="94.9mm"' in svg  # 57.15 x 88.9 mm and 3 mm of bleed all round


def test_default_names_keep_variants_apart(tmp_path: Path) -> None:
    for args in (["qwixx-big-points"], ["qwixx-big-points", "-l", "it"], ["one-to-9-board"],
                 ["one-to-9-board", "--card-size", "mini"], ["one-to-9-board", "--tile", "-p", "a4"]):
        code, output = run("build", *args, "--out", str(tmp_path))
        assert code == 0, output
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == [
        "one-to-9-board-mini.pdf", "one-to-9-board-tiles-a4.pdf", "one-to-9-board.pdf",
        "qwixx-big-points-it.pdf", "qwixx-big-points.pdf"]


def test_one_up_pads_name_their_bleed_and_their_paper_and_minus_zero_is_zero(tmp_path: Path) -> None:
    for args in (["--per-page", "1"], ["--per-page", "1", "--bleed", "3"], ["--per-page", "1", "-p", "a4"]):
        code, output = run("build", "qwixx-standard", *args, "--no-index", "--out", str(tmp_path))
        assert code == 0, output
    for bleed in ("-0", "0"):
        code, output = run("build", "qwixx-cards-deck", "--bleed", bleed, "-f", "pdf", "--no-index", "--out",
                           str(tmp_path))
        assert code == 0, output
    assert sorted(p.name for p in tmp_path.glob("*.pdf")) == [
        "qwixx-cards-deck-bleed0mm.pdf", "qwixx-standard-1up-bleed3mm.pdf", "qwixx-standard-1up.pdf",
        "qwixx-standard-a4-1up.pdf"]


def test_config_file_then_environment_below_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    env = {"HOME": str(home), "XDG_CONFIG_HOME": "", "PRINTGEN_PAPER": "letter", "PRINTGEN_LANG": "fr"}
    code, output = run("build", "qwixx-standard", "--out", "o1", env=env)
    assert code == 0, output
    assert (tmp_path / "o1" / "qwixx-standard-fr-letter.pdf").is_file()  # from the environment
    (home / ".config" / "printgen").mkdir(parents=True)
    (home / ".config" / "printgen" / "printgen.toml").write_text('lang = "de"\nsheets = 4\n')
    (tmp_path / "printgen.toml").write_text('paper = "legal"\n')
    code, output = run("build", "qwixx-standard", "qwixx-cards-deck", "--out", "o2", env=env)
    assert code == 0, output
    names = sorted(p.name for p in (tmp_path / "o2").glob("*.pdf"))
    assert names == ["qwixx-cards-deck-de-legal.pdf", "qwixx-standard-de-legal-4sheets.pdf"]  # the deck has no sheets
    assert len(PdfReader(tmp_path / "o2" / "qwixx-standard-de-legal-4sheets.pdf").pages) == 2  # 4 sheets, 2 a page
    code, output = run("build", "qwixx-standard", "-l", "it", "-p", "a4", "--out", "o3", env=env)
    assert code == 0 and (tmp_path / "o3" / "qwixx-standard-it-4sheets.pdf").is_file()  # the command line wins


def test_a_bad_config_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printgen.toml").write_text('papr = "a5"\n')
    code, output = run("build", "qwixx-standard", env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": ""})
    assert code == 2
    assert output.strip() == f"Error: {tmp_path / 'printgen.toml'}: papr: is not a known key (did you mean paper?)"
    (tmp_path / "printgen.toml").write_text('layout = "qwixx-big-points"\n')  # (was: "did you mean out?")
    code, output = run("build", "qwixx-standard", env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": ""})
    said = (f"Error: {tmp_path / 'printgen.toml'}: layout: printgen.toml holds defaults of options; name the layout "
            "on the command line (or in a batch manifest's jobs)")
    assert (code, output.strip()) == (2, said)


def test_a_wrong_build_default_stops_build_but_not_simulate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate takes none of build's defaults: a wrong one (or a wrong PRINTGEN_PAPER) stopped it all the same."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printgen.toml").write_text('sheets = 0\n[simulate]\nplayers = 3\n')
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": "", "PRINTGEN_PAPER": "a9"}
    code, output = run("simulate", "one-to-9", "--games", "2", env=env)
    assert code == 0 and "3 players" in output
    code, output = run("build", "qwixx-standard", env=env)
    assert code == 2 and output.startswith("Error: PRINTGEN_PAPER: 'a9' is not one of")
    (tmp_path / "printgen.toml").write_text('[simulate]\nplayers = 0\n')  # its own are still checked
    code, output = run("simulate", "one-to-9", "--games", "2", env=env)
    assert code == 2 and output.startswith(f"Error: {tmp_path / 'printgen.toml'}: simulate.players:")


def test_a_config_folder_printgen_may_not_look_into_holds_no_config(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`sudo -u someone` keeps HOME=/root: its ~/.config cannot even be looked into, so it holds no defaults of
    this user's (before, every build stopped there with 'Permission denied; no partial file was left behind')."""
    from printgen.config import load_defaults

    locked = tmp_path / "root-home"
    looked = Path.is_file

    def is_file(path: Path) -> bool:
        if locked in path.parents:
            raise PermissionError(13, "Permission denied", str(path))
        return looked(path)

    monkeypatch.setattr(Path, "is_file", is_file)
    defaults = load_defaults(tmp_path, {"HOME": str(locked)})
    assert (defaults.build, defaults.sources) == ({}, {})


def test_jobs_needs_all() -> None:
    code, output = run("build", "qwixx-standard", "-j", "4")
    assert code == 2 and "--jobs: " in output


def test_list_describes_every_layout() -> None:
    code, output = run("list")
    assert code == 0
    assert "2-16 edition with eight-sided dice" in output
    assert all(len(line.split()) > 4 for line in output.strip().splitlines())


def test_show_lists_kind_options_and_keys() -> None:
    code, output = run("show", "qwixx-big-points")
    assert code == 0, output
    assert "kind     score-sheet" in output and "--lucky-pool" in output and "--tile" not in output
    assert 'rows[0].colour = "red"' in output and "points_table.points = [1, 3, 6" in output
    code, output = run("show", "one-to-9-board")
    assert "--tile" in output and "--sheets" not in output


def test_shell_completion_completes_layout_names() -> None:
    env = {"_PRINTGEN_COMPLETE": "bash_complete", "COMP_WORDS": "printgen build qwixx-bo", "COMP_CWORD": "2"}
    result = CliRunner().invoke(main, [], env=env, prog_name="printgen", complete_var="_PRINTGEN_COMPLETE")
    assert "qwixx-bonus-a" in result.output and "qwixx-bonus-b" in result.output
    env |= {"COMP_WORDS": "printgen build qwixx-standard --paper le", "COMP_CWORD": "4"}
    result = CliRunner().invoke(main, [], env=env, prog_name="printgen", complete_var="_PRINTGEN_COMPLETE")
    assert "legal" in result.output and "letter" in result.output


def test_simulate_renders_by_extension(tmp_path: Path) -> None:
    for suffix, magic in ((".pdf", b"%PDF"), (".svg", b"<?xml"), (".png", b"\x89PNG")):
        target = tmp_path / f"game{suffix}"
        code, output = run("simulate", "qwixx-standard", "--games", "1", "--render", str(target))
        assert code == 0, output
        assert target.read_bytes().startswith(magic)
    code, output = run("simulate", "qwixx-standard", "--games", "1", "--render", str(tmp_path / "game.gif"))
    assert code == 2 and "must end in .pdf, .svg or .png" in output
    assert not os.path.exists(tmp_path / "game.gif")
    (tmp_path / "games.pdf").mkdir()  # (a folder, whatever its name)
    code, output = run("simulate", "qwixx-standard", "--games", "1", "--render", str(tmp_path / "games.pdf"))
    assert code == 2 and output.startswith("Error: --render: '") and output.count("\n") == 1
    assert output.endswith("' is a folder: give the file to draw into (game.pdf, game.svg or game.png)\n")


@pytest.mark.parametrize("args, line", [
    (["build", "--all", "-j", "0"], "Error: --jobs: 0 is out of range 1..64"),
    (["build", "--all", "-j", "x"], "Error: --jobs: 'x' is not a whole number"),
    (["serve", "--port", "abc"], "Error: --port: 'abc' is not a whole number"),
    (["build", "qwixx-standard", "-n", "\u0664"], "Error: --sheets: '\u0664': write whole numbers with the digits 0 to 9"),
    (["preview", "x.pdf", "--width", "5"], "Error: --width: 5 is out of range 50..4000"),
    (["build", "qwixx-standard", "--nosuch"], ("Error: --nosuch: no such option (did you mean --out?); see "
                                               "printgen build --help")),
    (["build", "qwixx-standard", "--qqq"], "Error: --qqq: no such option; see printgen build --help"),
    (["nosuch"], "Error: No such command 'nosuch' (see printgen --help)"),
    (["preview", "/"], "Error: /: a folder, not a file"),
    (["show"], "Error: Missing argument 'NAME|FILE.toml' (see printgen show --help)"),
    (["simulate"], "Error: Missing argument 'NAME|FILE.toml|one-to-9' (see printgen simulate --help)"),
    (["preview"], "Error: Missing argument 'FILE.pdf' (see printgen preview --help)"),
    (["batch"], "Error: Missing argument 'FILE.toml' (see printgen batch --help)"),
    (["build", "qwixx-standard", "-o"], "Error: -o: needs a value (see printgen build --help)"),
    (["score", "x.jpg", "--annotate"], "Error: --annotate: needs a value (see printgen score --help)"),
])
def test_clicks_own_usage_errors_are_one_line_naming_the_option(args: list[str], line: str) -> None:
    result = CliRunner().invoke(main, args, prog_name="printgen")
    assert result.exit_code == 2 and result.output == f"{line}\n"


@pytest.mark.parametrize("args, line", [
    (["build", "qwixx-standard", "-o", "bad\udcffname"],
     "Error: --output: bad\\xffname: a name printgen writes must be valid UTF-8 text (rename it)"),
    (["build", "qwixx-standard", "--out", "o\udcff"],
     "Error: --out: o\\xff: a name printgen writes must be valid UTF-8 text (rename it)"),
    (["check", "./lay\udcff.toml"], "Error: ./lay\\xff.toml: a layout file's name must be valid UTF-8 text (rename it)"),
    (["build", "./"], "Error: ./: is a folder, not a layout file"),
    (["build", "qwixx-standard", "-o", "/dev/null"],
     "Error: --output: '/dev/null' is a device; -o names the file to write (its .pdf or .svg is added)"),
    (["build", "qwixx-standard", "-o", "."], "Error: --output: '.' does not name a file"),
    (["build", "qwixx-standard", "-o", ".pdf"], "Error: --output: '.pdf' does not name a file"),
    (["build", "qwixx-standard", "-f", "pdf,svg"], ("Error: --format: 'pdf,svg' is not one of pdf, svg, both (give one "
                                                  "value)")),
    (["build", "qwixx-big-points", "-f", "svg", "-o", "preview"],
     "Error: qwixx-big-points would write preview, which belongs to the preview page (choose another name)"),
    (["build", "qwixx-standard", "-o", "a" * 300], (f"Error: --output: {'a' * 40}...: a file or folder name is at most "
                                                   "255 bytes long")),
    (["build", "qwixx-standard", "-o", "\u00e9" * 110], (f"Error: --output: {chr(233) * 40}...: a file name is at most "
                                                       "200 bytes long")),
    (["build", "qwixx-standard", "--out", "d" * 300], (f"Error: --out: {'d' * 40}...: a file or folder name is at most "
                                                      "255 bytes long")),
    (["build", ""], ("Error: an empty layout name: give a built-in layout's name (printgen list shows them) or a layout "
                    "file, NAME.toml")),
    (["check", ""], ("Error: an empty layout name: give a built-in layout's name (printgen list shows "
                                      "them) or a layout file, NAME.toml")),
    (["batch", ""], "Error: an empty name names no file or folder"),
    (["preview", "x.pdf", "--out", ""], "Error: --out: an empty name names no file or folder"),
    (["serve", "--data", ""], "Error: --data: an empty name names no file or folder"),
])
def test_names_printgen_cannot_write_are_refused_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             args: list[str], line: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args, prog_name="printgen")
    assert (result.exit_code, result.output) == (2, f"{line}\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("config, what", [
    ("players = 4\n", "players: is a key of simulate; put it under a [simulate] table"),
    ('[build]\npaper = "a4"\n', "build: build's defaults are the file's top-level keys, not a [build] table"),
    ("sheets = true\n", "sheets: true is not a whole number"),
])
def test_a_config_file_says_where_a_key_belongs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str,
                                                what: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printgen.toml").write_text(config, encoding="utf-8")
    code, output = run("build", "qwixx-standard", env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": ""})
    assert (code, output) == (2, f"Error: {tmp_path / 'printgen.toml'}: {what}\n")


def test_paths_of_the_wrong_kind_name_their_option_and_what_they_are(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    result = CliRunner().invoke(main, ["score", "x.jpg", "--annotate", str(tmp_path / "folder")])
    assert (result.exit_code, result.output) == (2, (f"Error: --annotate: {tmp_path / 'folder'}: a folder, not a "
                                                    "file\n"))
    result = CliRunner().invoke(main, ["index", "/dev/null"])
    assert (result.exit_code, result.output) == (2, "Error: /dev/null: not a folder\n")


def test_an_option_from_the_config_file_is_named_as_the_file_names_it(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "printgen.toml"
    config.write_text('per_page = 4\npaper = "a5"\n', encoding="utf-8")
    code, output = run("build", "qwixx-standard", env={"HOME": str(tmp_path), "XDG_CONFIG_HOME": ""})
    assert code == 2 and output.startswith(f"Error: per_page (from {config}): 4 qwixx-standard sheets a page print "
                                           f"at 50% on a5 (from {config}), with text as small as")


def test_a_default_that_cannot_work_with_a_build_is_not_applied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck-minded `bleed = "2mm"` in printgen.toml leaves a plain pad as it is (it refused every pad); typed,
    the same bleed on the same pad is refused."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "printgen.toml").write_text('bleed = "2mm"\n', encoding="utf-8")
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": ""}
    code, output = run("build", "qwixx-standard", "-n", "1", "--no-index", "--out", "o", env=env)
    assert code == 0, output
    code, output = run("build", "qwixx-cards-deck", "-f", "pdf", "--no-index", "--out", "o", env=env)
    assert code == 0, output
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["qwixx-cards-deck-bleed2mm.pdf",
                                                                   "qwixx-standard-1sheet.pdf"]
    code, output = run("build", "qwixx-standard", "-n", "1", "--bleed", "2", "--out", "o", env=env)
    assert code == 2 and output.startswith("Error: --bleed: score sheets take a bleed only")


def test_one_card_size_written_many_ways_is_one_name(tmp_path: Path) -> None:
    for size in ("63x88mm", "63x88", "63 x 88 mm", "6.3x8.8cm", "63.0x88.0"):
        code, output = run("build", "qwixx-cards-deck", "--card-size", size, "-f", "pdf", "--no-index", "--out",
                           str(tmp_path))
        assert code == 0, output
    assert [p.name for p in tmp_path.iterdir()] == ["qwixx-cards-deck-63x88mm.pdf"]


def test_a_link_to_nothing_is_named_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.jpg").symlink_to(tmp_path / "gone.jpg")
    for name, said in (("broken.jpg", "a link to nothing (its target is missing, or links go round)"),
                       ("absent.jpg", "no such file or folder")):
        code, output = run("score", name)
        assert (code, output) == (2, f"Error: {name}: {said}\n")
