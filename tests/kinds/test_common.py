"""What every layout kind shares: a [palette] colour that nothing of a deck, board or token sheet draws is
warned of (the built-in layouts, whose jokers, stars and backs draw colours no group names, are not: see
test_score_sheets' check of them all)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main
from printgen.resources import resource_dir

LAYOUTS = resource_dir("layouts")


@pytest.mark.parametrize("layout, why", [
    ("one-to-9-deck", "no card draws it (a [[cards]] group names its colours in `colours`)"),
    ("qwixx-cards-deck", "no card draws it (a [[cards]] group names its colours in `colours`)"),
    ("one-to-9-board", "the board does not draw it (its rows' colours are named in `colours`)"),
    ("one-to-9-stars", "the tokens do not draw it"),
])
def test_a_palette_colour_nothing_draws_is_warned_of(tmp_path: Path, layout: str, why: str) -> None:
    text = (LAYOUTS / f"{layout}.toml").read_text(encoding="utf-8")
    path = tmp_path / f"{layout}.toml"
    path.write_text(re.sub(r"^\[palette\].*$", '[palette]\npurple = "#800080"', text, count=1,
                           flags=re.MULTILINE),
                    encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and result.stderr == f"Warning: {path}: palette.purple: {why}\n"

