"""Golden references: what `printgen` prints and writes for every built-in layout, compared with stored text.

`tests/golden/GROUP.txt` (the score sheets share `score-sheets.txt`; each
deck, the board and the star tokens have their own) holds the normalised
output (tests/golden/normalise.py: PDFs as their page boxes, resources,
colour spaces, decompressed content streams and forms, with text as the
characters printed and fonts by name; SVGs as their text) of commands run
through the command line as a user runs them: every layout built with
default options as PDF and SVG, and the option variants that matter (a
seeded Big Points pad, shuffled gemixxt-b sheets, duplex, print-shop and
alignment decks, the tiled board, Polish with symbols, CMYK, sheets without
scan marks, a simulated game drawn filled in, ...). A change to anything
printed — one colour one step off, a page box, a file name, a line of the
command's output — fails the test, naming the command, the file and the
first differing lines.

To accept a change on purpose, regenerate the references and review them:

    python -m pytest tests/golden --regenerate && git diff --stat tests/golden

The files are written compactly (tests/golden/store.py: a block that repeats
or resembles an earlier one is stored as edits of it), but always compared
in full. Every command runs in a fresh folder with no printgen.toml, no
user configuration and no PRINTGEN_* variables in reach. The preview page
(index.html) is compared for the commands marked `index`; elsewhere its
thumbnails are not drawn, which only saves time.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen import index
from printgen.cli import main
from tests.golden.normalise import blocks, file_lines
from tests.golden.store import PRINTED, Case, decode, encode

HERE = Path(__file__).parent
REGENERATE = "python -m pytest tests/golden --regenerate"
SHOWN = 6
"""Differing lines shown of each side of the first difference."""


@dataclass(frozen=True)
class Command:
    """A printgen command line; OUT stands for its (empty) output folder, which `build` gets as --out."""

    args: str
    index: bool = False
    """Also compare the preview page OUT/index.html."""


CASES: dict[str, list[Command]] = {
    "score-sheets": [
        Command("build qwixx-standard -f both"),
        Command("build qwixx-standard -l pl --symbols -f both"),
        Command("build qwixx-standard --cmyk"),
        Command("build qwixx-standard --no-scan-marks -f both"),
        Command("build qwixx-standard -n 3 --per-page 4 -p a3 -o club"),
        Command("build qwixx-standard -f svg --svg-text font"),
        Command("simulate qwixx-standard --games 1 --seed 1 --render OUT/game.svg"),
        Command("build qwixx-cards -f both"),
        Command("build qwixx-cards -n 6", index=True),
        Command("build qwixx-gemixxt-a -f both"),
        Command("build qwixx-gemixxt-a -l de --symbols"),
        Command("build qwixx-gemixxt-b -f both"),
        Command("build qwixx-gemixxt-b --shuffle -n 2 -f both"),
        Command("build qwixx-bonus-a -f both"),
        Command("build qwixx-bonus-b -f both"),
        Command("build qwixx-bonus-b -n 2 --per-page 1 --bleed 3 -l fr"),
        Command("build qwixx-big-points -f both"),
        Command("build qwixx-big-points --seed 7 -n 4 -f both", index=True),
        Command("build qwixx-big-points -n 2 -l it --lucky-pool 5-10,6-11"),
        Command("simulate qwixx-big-points --games 1 --players 2 --seed 3 --render OUT/game.pdf"),
    ],
    "qwixx-cards-deck": [
        Command("build qwixx-cards-deck -f both"),
        Command("build qwixx-cards-deck --duplex short"),
        Command("build qwixx-cards-deck --per-page 1"),
        Command("build qwixx-cards-deck --alignment-page"),
        Command("build qwixx-cards-deck -p letter --back-offset 0.5,-1"),
    ],
    "one-to-9-deck": [
        Command("build one-to-9-deck -f both"),
        Command("build one-to-9-deck --duplex off --backs-file --gap 2"),
    ],
    "one-to-9-board": [
        Command("build one-to-9-board -f both"),
        Command("build one-to-9-board --tile -p a4"),
        Command("build one-to-9-board --card-size mini -l de"),
    ],
    "one-to-9-stars": [
        Command("build one-to-9-stars -f both"),
        Command("build one-to-9-stars --cmyk"),
    ],
}
"""Golden file (tests/golden/GROUP.txt) -> the commands it holds. The score sheets share one file, since
most of one sheet's drawing is stored as edits of another's."""


def header(group: str) -> list[str]:
    return [f"Golden reference of {group}: what these printgen commands print and write, normalised",
            "(tests/golden/normalise.py; the format: tests/golden/store.py). Checked by tests/golden/test_golden.py.",
            f"Do not edit by hand. To accept a change on purpose: {REGENERATE}",
            "and review it with git diff."]


@pytest.fixture
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with no printgen.toml, no user configuration and no PRINTGEN_* variables."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    for variable in ("PRINTGEN_PAPER", "PRINTGEN_LANG"):
        monkeypatch.delenv(variable, raising=False)
    return tmp_path


def run(command: Command, folder: Path, monkeypatch: pytest.MonkeyPatch) -> Case:
    """Run `command` with OUT in `folder` and return what it printed and wrote, normalised."""
    out = folder / "out"
    out.mkdir(parents=True)
    args = shlex.split(command.args.replace("OUT", str(out)))
    if args[0] == "build":
        args += ["--out", str(out)]
    with monkeypatch.context() as patch:
        if not command.index and hasattr(index, "write_index"):  # only saves drawing thumbnails: if the preview
            patch.setattr(index, "write_index", lambda where, written=(): Path(where) / "index.html")  # page moves, all
        result = CliRunner().invoke(main, args)  # still works, slower
    assert result.exit_code == 0, f"printgen {command.args}: exit {result.exit_code}\n{result.output}"
    case = Case(f"printgen {command.args}", {PRINTED: result.output.replace(str(out), "OUT").splitlines()})
    for path in sorted(out.rglob("*")):
        name = path.relative_to(out).as_posix()
        if path.is_dir() or name.startswith("preview/") or (name == "index.html" and not command.index):
            continue
        case.outputs[name] = file_lines(path)
    return case


def first_difference(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def clip(line: str, column: int, width: int = 150) -> str:
    """`line` cut to `width` characters around `column` (where it differs)."""
    start = max(0, min(column - 40, len(line) - width))
    shown = line[start:start + width]
    return ("..." if start else "") + shown + ("..." if start + width < len(line) else "")


def difference(where: str, name: str, want: list[str], got: list[str]) -> str:
    """A short report of how output `name` differs from its reference: the first differing lines and the
    block (PDF page or object, SVG symbol) they are in."""
    changes = [op for op in difflib.SequenceMatcher(None, want, got, autojunk=False).get_opcodes()
               if op[0] != "equal"]
    _, i1, i2, j1, j2 = changes[0]
    block, start = "", 0
    for block_name, block_lines in blocks(want) if name != PRINTED else []:
        if start + len(block_lines) > i1:
            block = f" (in {block_name})"
            break
        start += len(block_lines)
    old, new = want[i1:i2][:SHOWN], got[j1:j2][:SHOWN]
    columns = [first_difference(a, b) for a, b in zip(old, new)] + [0] * SHOWN
    places = f"{len(changes)} place{'s' if len(changes) > 1 else ''}"
    report = [f"{where}: {name} differs from the reference in {places}; the first, at line {i1 + 1}{block}:"]
    report += [f"    {clip(line, 0)}" for line in want[max(0, i1 - 2):i1]]
    report += [f"  - {clip(line, column)}" for line, column in zip(old, columns)]
    report += [f"  + {clip(line, column)}" for line, column in zip(new, columns)]
    if i2 - i1 > SHOWN or j2 - j1 > SHOWN:
        report.append(f"    ({i2 - i1} lines replaced by {j2 - j1} here)")
    return "\n".join(report)


def compare(reference: Case, made: Case, where: str) -> list[str]:
    """Every way `made` differs from `reference`, each as a short report."""
    problems = [f"{where}: did not make {name}, which the reference has"
                for name in reference.outputs if name not in made.outputs]
    problems += [f"{where}: made {name}, which the reference does not have"
                 for name in made.outputs if name not in reference.outputs]
    problems += [difference(where, name, reference.outputs[name], lines) for name, lines in made.outputs.items()
                 if name in reference.outputs and reference.outputs[name] != lines]
    return problems


@pytest.mark.parametrize("group", list(CASES))
def test_output_matches_the_reference(group: str, isolated: Path, monkeypatch: pytest.MonkeyPatch,
                                      pytestconfig: pytest.Config) -> None:
    made = [run(command, isolated / f"case-{number}", monkeypatch)
            for number, command in enumerate(CASES[group], start=1)]
    path = HERE / f"{group}.txt"
    if pytestconfig.getoption("regenerate"):
        text = encode(made, header(group))
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            written = path.with_name(f".{path.name}.new")
            written.write_text(text, encoding="utf-8")
            os.replace(written, path)  # whole: another test (with pytest-xdist, in another process) may read it
        return
    assert path.is_file(), f"{path} is missing; to write it: {REGENERATE}"
    reference = decode(path.read_text(encoding="utf-8"))
    if [case.command for case in reference] != [case.command for case in made]:
        pytest.fail(f"{path} holds other commands than the test runs; to accept the test's: {REGENERATE}\n"
                    + "\n".join(difflib.unified_diff([c.command for c in reference], [c.command for c in made],
                                                     "reference", "test", lineterm="")), pytrace=False)
    problems = [problem for number, (want, got) in enumerate(zip(reference, made), start=1)
                for problem in compare(want, got, f"{path.relative_to(HERE.parents[1])} [{number}] {got.command}")]
    if problems:
        shown = problems[:8] + ([f"... and {len(problems) - 8} more"] if len(problems) > 8 else [])
        pytest.fail("\n".join(shown) + f"\nIf the change is meant: {REGENERATE} (and review git diff)",
                    pytrace=False)


def test_every_builtin_layout_has_a_reference_with_its_defaults_as_pdf_and_svg() -> None:
    result = CliRunner().invoke(main, ["list"])
    assert result.exit_code == 0
    names = [line.split()[0] for line in result.output.splitlines() if line.strip()]
    assert len(names) >= 11
    commands = [command for group in CASES.values() for command in group]
    for name in names:
        assert Command(f"build {name} -f both") in commands, f"{name} has no golden reference of its defaults"


def test_the_stored_form_decodes_to_what_was_encoded() -> None:
    card = ["form1 <</BBox [0 0 69.5 94.9]>>", "  1 0 0 rg", "  0 0 10 10 re f", '  "7" Tj']
    other = [line.replace("1 0 0", "0 1 0") for line in card]
    page = ["info <<>>", "pages 1", "page 1 <<>>", "  q", "  Q"]
    svg = ['<?xml version="1.0" ?>', "<svg>", '<symbol id="s1">', "<rect />", "</symbol>", "</svg>"]
    cases = [Case("printgen build a", {PRINTED: ["wrote OUT/a.pdf"], "a.pdf": page + card}),
             Case("printgen build b", {PRINTED: ["wrote OUT/a.pdf"], "a.pdf": page + card + other, "b/x.svg": svg})]
    text = encode(cases, ["a header"])
    assert decode(text) == cases
    assert "~~ [1] a.pdf form1" in text  # the repeated card is stored as a reference to the first


def test_a_difference_is_reported_with_its_place_and_lines() -> None:
    want = ["info <<>>", "page 1 <<>>", "  q", "form1 <<>>", "  1 0 0 rg", "  0 0 1 1 re f"]
    got = [*want[:4], "  1 0 0.1 rg", want[5]]
    reference, made = Case("c", {"a.pdf": want, "b.pdf": []}), Case("c", {"a.pdf": got, "c.svg": []})
    assert compare(reference, made, "where") == [
        "where: did not make b.pdf, which the reference has",
        "where: made c.svg, which the reference does not have",
        ("where: a.pdf differs from the reference in 1 place; the first, at line 5 (in form1):\n"
         "      q\n    form1 <<>>\n  -   1 0 0 rg\n  +   1 0 0.1 rg")]


def test_one_colour_one_step_off_fails_the_comparison(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The requirement the references exist for: a printed colour changed by one step (#d82f3f to #d82f40,
    the standard sheet's red) is a difference, in the PDF and in the SVG, shown with the changed colour."""
    source = HERE.parents[1] / "layouts" / "qwixx-standard.toml"
    text = source.read_text(encoding="utf-8")
    assert text.count('red = "#d82f3f"') == 1
    copy = isolated / "mine" / "qwixx-standard.toml"
    copy.parent.mkdir()
    copy.write_text(text.replace('red = "#d82f3f"', 'red = "#d82f40"'), encoding="utf-8")
    reference = decode((HERE / "score-sheets.txt").read_text(encoding="utf-8"))[0]
    assert reference.command == "printgen build qwixx-standard -f both"
    same = run(Command("build qwixx-standard -f both"), isolated / "same", monkeypatch)
    assert compare(reference, same, "unchanged") == []
    made = run(Command(f"build {copy} -f both"), isolated / "changed", monkeypatch)
    problems = compare(reference, made, "changed")
    reported = {problem.split(": ")[1].split(" differs")[0] for problem in problems}
    assert reported >= {"qwixx-standard.pdf", "qwixx-standard.svg"}, problems
    pdf = next(problem for problem in problems if problem.startswith("changed: qwixx-standard.pdf "))
    svg = next(problem for problem in problems if problem.startswith("changed: qwixx-standard.svg "))
    assert re.search(r"\+ .*\.847059 \.184314 \.25098 (rg|RG)", pdf), pdf  # 0x40 / 255 = .25098
    assert re.search(r"- .*\.847059 \.184314 \.247059 (rg|RG)", pdf), pdf  # 0x3f / 255 = .247059
    assert "#d82f40" in svg and "#d82f3f" in svg, svg
