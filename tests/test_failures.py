"""Runtime failures: unwritable folders, a full disk, SIGINT and SIGTERM — one line, right exit code, nothing partial."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
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
    assert result.output.strip() == f"Error: {tmp_path / 'qwixx-standard.pdf'}: cannot be written: Permission denied"


def test_full_disk_leaves_no_partial_file_and_keeps_the_old_one(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["build", "qwixx-standard", "--out", str(tmp_path)]).exit_code == 0
    before = (tmp_path / "qwixx-standard.pdf").read_bytes()
    from reportlab.pdfgen import canvas

    def full(self: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(canvas.Canvas, "save", full)
    result = runner.invoke(main, ["build", "qwixx-standard", "--sheets", "50", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.output.strip() == (f"Error: {tmp_path / 'qwixx-standard.pdf'}: No space left on device; no partial "
                                     "file was left behind")
    assert (tmp_path / "qwixx-standard.pdf").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.html", "preview", "qwixx-standard.pdf"]


def wait_for(condition: Callable[[], bool], what: str, process: subprocess.Popen[str] | subprocess.Popen[bytes],
             timeout: float = 120.0) -> None:
    """Return as soon as `condition()` holds (checked every 10 ms); fail saying `what` was awaited if `process`
    ends first or `timeout` seconds pass. The timeout is generous: it only stops a broken test from hanging, and
    nothing is asserted about how long the wait took."""
    deadline = time.monotonic() + timeout
    while not condition():
        if process.poll() is not None:
            _, err = process.communicate()
            pytest.fail(f"the command ended (exit {process.returncode}) before {what}: {err!r}")
        if time.monotonic() > deadline:
            process.kill()
            process.communicate()
            pytest.fail(f"{what}: not within {timeout:g} s")
        time.sleep(0.01)


def parts(folder: Path) -> list[str]:
    """The partial files (`.NAME.PID.xxxxxxxx.part`) being written in `folder` now."""
    try:
        return [p.name for p in folder.iterdir() if p.name.endswith(".part")]
    except FileNotFoundError:
        return []


def _hears_ctrl_c() -> None:
    """In the child before it starts: Ctrl-C back to its default, even when these tests run in the background
    (where a shell starts every command with SIGINT ignored, and Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig, code, word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
def test_a_signal_stops_the_build_cleanly(tmp_path: Path, sig: int, code: int, word: str) -> None:
    target = tmp_path / "qwixx-big-points.pdf"
    target.write_bytes(b"the earlier file")
    process = subprocess.Popen(
        [sys.executable, "-m", "printgen", "build", "qwixx-big-points", "--sheets", "100000", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_hears_ctrl_c)  # noqa: PLW1509 (no threads run then)
    wait_for(lambda: bool(parts(tmp_path)), "the build started writing its partial file", process)
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


# -- Reliability II: no special file replaced, nothing written through a link, no traceback, signals honoured --


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


def test_render_to_a_fifo_or_a_link_is_refused_before_playing(tmp_path: Path) -> None:
    fifo = tmp_path / "game.pdf"
    os.mkfifo(fifo)
    code, output = run_cli("simulate", "qwixx-standard", "--games", "1", "--render", str(fifo))
    assert code == 2 and output.strip() == f"Error: {fifo}: is a FIFO; printgen replaces only regular files, so " \
                                           "it was left untouched"
    assert fifo.is_fifo()
    link = tmp_path / "game.png"
    link.symlink_to("/dev/null")
    code, output = run_cli("simulate", "qwixx-standard", "--games", "1", "--render", str(link))
    assert code == 2 and "is a symbolic link" in output and link.is_symlink()


def test_build_refuses_a_special_file_at_its_target(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "qwixx-standard.pdf")
    code, output = run_cli("build", "qwixx-standard", "--out", str(tmp_path))
    assert code == 2 and "qwixx-standard.pdf: is a FIFO" in output
    assert (tmp_path / "qwixx-standard.pdf").is_fifo()


def test_no_folder_is_filled_through_a_link(tmp_path: Path) -> None:
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    (elsewhere / "qwixx-standard").mkdir(parents=True)
    (elsewhere / "qwixx-standard" / "notes.txt").write_text("mine")
    out.mkdir()
    (out / "preview").symlink_to(elsewhere)
    manifest = tmp_path / "jobs.toml"
    manifest.write_text('[[jobs]]\nlayout = "qwixx-standard"\n')
    result = CliRunner().invoke(main, ["batch", str(manifest), "--out", str(out)])
    assert result.exit_code == 0  # the pad is written; the preview page is not, with one warning
    assert "preview: is a symbolic link" in result.output and (out / "qwixx-standard.pdf").is_file()
    assert sorted(p.name for p in (elsewhere / "qwixx-standard").iterdir()) == ["notes.txt"]


def test_preview_writes_only_its_own_files(tmp_path: Path) -> None:
    from printgen.build import build, options_for

    (pdf,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, sheets=4))
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (folder / "page-009.png").write_text("mine too")
    code, output = run_cli("preview", str(pdf), "--out", str(folder))
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt", "page-001.png", "page-002.png", "page-009.png"]
    assert (folder / "page-009.png").read_text() == "mine too"
    link = tmp_path / "link"
    link.symlink_to(folder)
    code, output = run_cli("preview", str(pdf), "--out", str(link))
    assert code == 2 and "is a symbolic link" in output


def test_a_huge_page_is_refused_not_rendered(tmp_path: Path) -> None:
    from reportlab.pdfgen.canvas import Canvas

    tall = tmp_path / "tall.pdf"
    canvas = Canvas(str(tall), pagesize=(10, 14_400))
    canvas.showPage()
    canvas.save()
    for width in ("600", "4000"):
        code, output = run_cli("preview", str(tall), "--width", width)
        assert code == 2 and output.startswith(f"Error: {tall}: page 1 would be ")
        assert "more than 40,000,000; use a smaller --width" in output
    assert not (tmp_path / "tall-preview").exists()  # (not even an empty folder)


@pytest.mark.parametrize("text, key", [
    ('[[jobs]]\nlayout = "qwixx-standard"\noutput = "a\\u0000b"', "jobs[0].output"),
    ('out = "o\\u0000"\n[[jobs]]\nlayout = "qwixx-standard"', "out"),
    ('[[jobs]]\nlayout = "qwixx-st\\u0007andard"', "jobs[0].layout"),
])
def test_control_characters_in_a_manifest_are_one_line(tmp_path: Path, text: str, key: str) -> None:
    manifest = tmp_path / "jobs.toml"
    manifest.write_text(text)
    code, output = run_cli("batch", str(manifest), "--out", str(tmp_path / "o"))
    assert code == 2 and f"{manifest}: {key}: " in output and len(output.strip().splitlines()) == 1


@pytest.mark.parametrize("char", ["\\u0000", "\\u0007", "\\uffff"])
def test_control_characters_in_a_title_are_refused(tmp_path: Path, write_layout, char: str) -> None:  # type: ignore[no-untyped-def]
    path = write_layout('title = "Qwixx"', f'title = "Qwi{char}xx"')
    for command in (["check", str(path)], ["build", str(path), "--out", str(tmp_path / "o"), "-f", "svg"]):
        code, output = run_cli(*command)
        assert code == 2 and f"{path}: title: holds the control character" in output
    assert not (tmp_path / "o").exists()


def test_deeply_nested_toml_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.toml"
    deep.write_text('kind = "score-sheet"\ntitle = ' + "[" * 500 + "]" * 500 + "\n")
    manifest = tmp_path / "jobs.toml"
    manifest.write_text('[[jobs]]\nlayout = "qwixx-standard"\nsheets = ' + "[" * 500 + "]" * 500 + "\n")
    for command in (["check", str(deep)], ["build", str(deep)], ["batch", str(manifest)]):
        code, output = run_cli(*command)
        assert code == 2 and "nested too deeply" in output


@pytest.mark.parametrize("name, drop, missing", [("one-to-9-board", "star", "star"),
                                                 ("one-to-9-board", "board", "board"),
                                                 ("one-to-9-stars", "ink", "ink"),
                                                 ("one-to-9-deck", "star", "star")])
def test_check_catches_every_colour_build_needs(tmp_path: Path, name: str, drop: str, missing: str) -> None:
    from printgen.resources import resource_dir

    text = (resource_dir("layouts") / f"{name}.toml").read_text()
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(line for line in text.splitlines() if not line.startswith(f"{drop} = ")))
    code, output = run_cli("check", str(path))
    assert code == 2 and f"palette.{missing}: is missing" in output


def test_empty_token_palette_is_one_line(tmp_path: Path) -> None:
    from printgen.resources import resource_dir

    text = (resource_dir("layouts") / "one-to-9-stars.toml").read_text()
    path = tmp_path / "stars.toml"
    path.write_text(text.replace('star = "', 'x_star = "').replace('ink = "', 'x_ink = "'))
    code, output = run_cli("build", str(path), "--out", str(tmp_path / "o"))
    assert code == 2 and "palette.star: is missing" in output and "palette.ink: is missing" in output


@pytest.mark.parametrize("args", [["--back-offset", "nan,0"], ["--bleed", "nan", "-f", "svg"],
                                  ["--bleed", "inf", "-f", "svg"], ["--bleed", "-5", "-f", "svg"],
                                  ["--bleed", "100", "-f", "svg"], ["--gap", "nan"], ["--card-size", "nanxnan"]])
def test_every_number_is_validated_for_every_format(tmp_path: Path, args: list[str]) -> None:
    code, output = run_cli("build", "qwixx-cards-deck", "--out", str(tmp_path / "o"), *args)
    assert code == 2 and output.startswith(f"Error: {args[0]}: ")
    assert not (tmp_path / "o").exists()


def test_a_huge_svg_set_is_refused(tmp_path: Path) -> None:
    code, output = run_cli("build", "qwixx-gemixxt-b", "--shuffle", "-n", "100000", "-f", "svg",
                           "--out", str(tmp_path))
    assert code == 2 and "an SVG set holds at most 500 files" in output
    assert not any(tmp_path.iterdir())


def test_a_full_disk_in_a_batch_is_worded_and_the_summary_still_shows(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen import index

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(index, "write_index", full)
    manifest = tmp_path / "jobs.toml"
    manifest.write_text('[[jobs]]\nlayout = "qwixx-standard"\n')
    result = CliRunner().invoke(main, ["batch", str(manifest), "--out", str(tmp_path / "o"), "-j", "1"])
    assert result.exit_code == 0
    assert "1 file from 1 job, 0 failed" in result.output
    assert "index.html was not refreshed: No space left on device\n" in result.output


HEAVY = "".join(f'[[jobs]]\nlayout = "{name}"\nsheets = 100000\noutput = "{i}"\n'
                for i, name in enumerate(["qwixx-big-points", "qwixx-standard", "qwixx-bonus-a", "qwixx-cards"]))


@pytest.mark.parametrize("sig, code, word, group", [(signal.SIGTERM, 143, "terminated", False),
                                                   (signal.SIGINT, 130, "interrupted", True),
                                                   (signal.SIGTERM, 143, "terminated", True)])
def test_a_signal_stops_a_batch_at_once(tmp_path: Path, sig: int, code: int, word: str,
                                                    group: bool) -> None:
    manifest = tmp_path / "heavy.toml"
    manifest.write_text(HEAVY)
    out = tmp_path / "out"
    process = subprocess.Popen([sys.executable, "-m", "printgen", "batch", str(manifest), "--out", str(out),
                                "-j", "2", "-q"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, preexec_fn=_hears_ctrl_c)  # noqa: PLW1509 (no threads run then)
    # both workers are writing (each has installed its signal handler before it starts its job)
    wait_for(lambda: len(parts(out)) >= 2, "two workers were writing at once", process)
    sent = time.monotonic()
    if group:
        os.killpg(process.pid, sig)  # Ctrl-C reaches the whole process group
    else:
        os.kill(process.pid, sig)
    process.wait(timeout=60)
    stopped = time.monotonic() - sent
    _, err = process.communicate(timeout=60)
    assert stopped < 10.0, f"the batch took {stopped:.1f} s to stop"  # (it stops in well under 1 s; a loaded CI box)
    assert process.returncode == code, err
    # one line: no worker's traceback (a second signal arriving while the first unwinds a worker is let be)
    assert err.decode().splitlines() == [f"Error: {word}; no partial file was left behind"], err.decode()
    assert not out.exists() or not any(out.iterdir()), sorted(p.name for p in out.iterdir())
    # The workers were forked with the batch's stdout and stderr: communicate() saw both pipes close, so every
    # worker had exited by then, and one still running would show here (an exited one has no command line).
    assert not running_with(str(manifest))  # no worker outlives the batch


def running_with(word: str) -> list[int]:
    """Processes whose command line holds `word` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and word.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def test_a_name_too_long_is_one_line_before_anything_runs(tmp_path: Path) -> None:
    manifest = tmp_path / "jobs.toml"
    manifest.write_text(f'[[jobs]]\nlayout = "qwixx-standard"\noutput = "{"x" * 300}"\n')
    code, output = run_cli("batch", str(manifest), "--out", str(tmp_path / "o"))
    assert code == 2 and "jobs[0].output: " in output and "name is at most 255 bytes long" in output
    code, output = run_cli("build", "qwixx-standard", "-o", "y" * 300, "--out", str(tmp_path / "o"))
    assert code == 2 and "--output: " in output and "name is at most 255 bytes long" in output
    code, output = run_cli("build", "qwixx-standard", "-o", "y" * 220, "--out", str(tmp_path / "o"))
    assert code == 2 and "--output: " in output and "a file name is at most 200 bytes long" in output
    assert not (tmp_path / "o").exists()


def test_a_batch_whose_folder_could_not_be_made_says_why_once(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Every job failed to make the output folder (a read-only file system): the job's line says why; no warning
    follows that the preview page of a folder that is not there was not refreshed."""
    made = Path.mkdir

    def mkdir(path: Path, *args: object, **kwargs: object) -> None:
        if path.name == "o":
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        made(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", mkdir)
    manifest = tmp_path / "jobs.toml"
    manifest.write_text(f'out = "{tmp_path / "o"}"\n[[jobs]]\nlayout = "qwixx-standard"\n')
    result = CliRunner().invoke(main, ["batch", str(manifest), "-j", "1"])
    assert result.exit_code == 1 and "Read-only file system" in result.output and "1 of 1 jobs failed" in result.output
    assert "was not refreshed" not in result.output
