"""Runtime failures: unwritable folders, a full disk, SIGINT and SIGTERM — one line, right exit code, nothing partial."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main


def test_unwritable_folder_is_one_line_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(kwargs.get("dir", "")))

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {tmp_path}: Permission denied; no partial file was left behind"


def test_full_disk_leaves_no_partial_file_and_keeps_the_old_one(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path)]).exit_code == 0
    before = (tmp_path / "qwixx-standard.pdf").read_bytes()
    from reportlab.pdfgen import canvas

    def full(self: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(canvas.Canvas, "save", full)
    result = runner.invoke(main, ["build", "qwixx-standard", "--sheets", "40", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip() == "Error: No space left on device; no partial file was left behind"
    assert (tmp_path / "qwixx-standard.pdf").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html", "preview", "qwixx-standard.pdf"]


@pytest.mark.parametrize("sig, code, word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
def test_a_signal_stops_the_build_cleanly(tmp_path: Path, sig: int, code: int, word: str) -> None:
    target = tmp_path / "qwixx-big-points.pdf"
    target.write_bytes(b"the earlier file")
    process = subprocess.Popen(
        [sys.executable, "-m", "printgen", "build", "qwixx-big-points", "--sheets", "100000", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while not any(p.name.endswith(".part") for p in tmp_path.iterdir()):  # wait until it is writing
        assert time.time() < deadline and process.poll() is None
        time.sleep(0.05)
    os.kill(process.pid, sig)
    _, err = process.communicate(timeout=30)
    assert process.returncode == code
    assert err.strip() == f"Error: {word}; no partial file was left behind"
    assert target.read_bytes() == b"the earlier file"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


BAD_OPTIONS = [
    ["build", "qwixx-standard", "--sheets", "-1"], ["build", "qwixx-standard", "--sheets", "0"],
    ["build", "qwixx-standard", "--sheets", "many"], ["build", "qwixx-standard", "--sheets", "100001"],
    ["build", "qwixx-standard", "--per-page", "3"], ["build", "qwixx-standard", "--paper", "b5"],
    ["build", "qwixx-standard", "--lang", "xx"], ["build", "qwixx-standard", "--format", "png"],
    ["build", "qwixx-standard", "--seed", "x"], ["build", "qwixx-standard", "--jobs", "0"],
    ["build", "qwixx-big-points", "--lucky-pool", "1-99"], ["build", "qwixx-big-points", "--lucky-pool", "7-7"],
    ["build", "qwixx-standard", "--shuffle"], ["build", "qwixx-cards-deck", "--card-size", "huge"],
    ["build", "qwixx-cards-deck", "--card-size", "300x300"], ["build", "qwixx-cards-deck", "--bleed", "-1"],
    ["build", "qwixx-cards-deck", "--bleed", "11"], ["build", "qwixx-cards-deck", "--gap", "-2"],
    ["build", "qwixx-cards-deck", "--back-offset", "1"], ["build", "qwixx-cards-deck", "--back-offset", "a,b"],
    ["build", "qwixx-cards-deck", "--duplex", "sideways"], ["build", "one-to-9-board", "--paper", "a4"],
    ["build", "one-to-9-board", "--tile", "--card-size", "200x280"], ["build"], ["build", "nope"],
    ["build", "./missing.toml"], ["simulate", "qwixx-standard", "--players", "9"],
    ["simulate", "qwixx-standard", "--games", "0"], ["simulate", "qwixx-standard", "--strategy", "lucky"],
    ["simulate", "qwixx-standard", "--jokers"], ["simulate", "one-to-9-stars", "--players", "1"],
    ["batch", "missing.toml"], ["preview", "missing.pdf"], ["check", "nope"],
]


@pytest.mark.parametrize("args", BAD_OPTIONS, ids=[" ".join(a) for a in BAD_OPTIONS])
def test_every_bad_option_is_a_usage_error(tmp_path: Path, args: list[str]) -> None:
    command = [*args, "--out", str(tmp_path / "out")] if args[0] in ("build", "batch") else args
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert result.output.strip().splitlines()[-1].startswith("Error:")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
