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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qwixx-standard.pdf"]


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
