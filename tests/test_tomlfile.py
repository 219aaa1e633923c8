"""TOML files in, their tables or one line naming the file and key out (layouts, manifests, printgen.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from printgen.errors import LayoutError

# -- Reliability III: integers TOML cannot hold are one line naming the file and key, in every TOML printgen reads --

LONG = "1" * 5000
"""More digits than Python converts from text (sys.get_int_max_str_digits(): 4,300)."""
HUGE = "1" + "0" * 400
"""1e400 written as an integer: read, it overflows every float."""


@pytest.mark.parametrize("digits, problem", [(LONG, "line 3: bleed: an integer of 5,000 digits is out of range"),
                                             (HUGE, "jobs[0].bleed: an integer of 401 digits is out of range")],
                         ids=["too-long-to-read", "too-large-for-a-float"])
@pytest.mark.parametrize("where", ["manifest", "config", "layout"])
def test_an_integer_toml_cannot_hold_is_one_usage_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       standard_text: str, where: str, digits: str,
                                                       problem: str) -> None:
    from click.testing import CliRunner

    from printgen.cli import main

    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    if where == "manifest":
        path = tmp_path / "jobs.toml"
        path.write_text(f'[[jobs]]\nlayout = "qwixx-cards-deck"\nbleed = {digits}\n')
        args = ["batch", str(path), "--out", str(out)]
    elif where == "config":
        path = tmp_path / "printgen.toml"
        path.write_text(f'# a default\n\nbleed = {digits}\n')
        args = ["build", "qwixx-cards-deck", "--out", str(out)]
        problem = problem.replace("jobs[0].", "")
    else:
        path = tmp_path / "sheet.toml"
        path.write_text(standard_text.replace("width = 190", f"width = 190\nbleed = {digits}", 1))
        args = ["check", str(path)]
        line = 1 + standard_text[:standard_text.index("width = 190")].count("\n") + 1
        problem = problem.replace("line 3", f"line {line}").replace("jobs[0].bleed", "size.bleed")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert result.output == f"Error: {path}: {problem} (TOML integers are 64-bit)\n"
    assert not out.exists()


def test_integers_of_64_bits_are_read(tmp_path: Path) -> None:
    from printgen.tomlfile import parse_toml

    path = tmp_path / "edge.toml"
    path.write_text(f"low = {-2**63}\nhigh = {2**63 - 1}\n")
    assert parse_toml(path, "edge.toml") == {"low": -2**63, "high": 2**63 - 1}
    path.write_text(f"[t]\nhigh = [1, {2**63}]\n")
    with pytest.raises(LayoutError, match=r"^edge.toml: t.high\[1\]: an integer of 19 digits is out of range"):
        parse_toml(path, "edge.toml")
