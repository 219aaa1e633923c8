"""The corpus of broken layout files: each gives one line naming file and key, exit 2, no traceback, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main

BROKEN = Path(__file__).parent / "broken"
EXPECTED: dict[str, str] = json.loads((BROKEN / "expected.json").read_text(encoding="utf-8"))


def test_the_corpus_is_complete() -> None:
    assert sorted(p.stem for p in BROKEN.glob("*.toml")) == sorted(EXPECTED)
    assert len(EXPECTED) >= 12


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("command", ["build", "check"])
def test_broken_layout(tmp_path: Path, name: str, command: str) -> None:
    path = BROKEN / f"{name}.toml"
    args = [command, str(path)] + (["--out", str(tmp_path / "out"), "--format", "both"] if command == "build" else [])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"Error: {path}: {EXPECTED[name]}"), lines[0]
    assert not (tmp_path / "out").exists()


def test_a_10_mb_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    with path.open("wb") as handle:
        handle.write(b"# " + b"x" * 10_000_000 + b"\n")
    for command in (["build", str(path), "--out", str(tmp_path / "out")], ["check", str(path)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2
        assert result.output.strip() == f"Error: {path}: file is 10,000,003 bytes, layouts are at most 1,000,000"
    assert not (tmp_path / "out").exists()
