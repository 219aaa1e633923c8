"""Batches: manifests checked before any job runs, parallel jobs, failures isolated, the preview page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.batch import read_manifest, run_jobs, summary
from printgen.cli import main
from printgen.errors import LayoutError, UsageProblem


def manifest(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "jobs.toml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
[[jobs]]
layout = "qwixx-standard"
output = "club-pad"
sheets = 6
format = "both"

[[jobs]]
layout = "qwixx-big-points"
sheets = 4
lang = "it"
"""


def test_manifest_jobs(tmp_path: Path) -> None:
    jobs = read_manifest(manifest(tmp_path, GOOD), tmp_path / "out")
    assert [j.plan.layout.name for j in jobs] == ["qwixx-standard", "qwixx-big-points"]
    assert jobs[0].plan.options.output == "club-pad" and jobs[0].plan.options.formats == ("pdf", "svg")
    assert jobs[1].plan.options.lang == "it" and jobs[1].plan.options.sheets == 4


@pytest.mark.parametrize(
    "text, message",
    [
        ('[[jobs]]\nlayout = "nope"', "jobs[0].layout: unknown layout 'nope'"),
        ('[[jobs]]\nlayout = "qwixx-standard"\ncolour = "red"', "jobs[0].colour: is not a known key"),
        ('[[jobs]]\nlayout = "qwixx-standard"\nsheets = "ten"', "jobs[0].sheets: 'ten' is not a whole number"),
        ('[[jobs]]\nlayout = "qwixx-standard"\nsheets = 0', "jobs[0].sheets: 0 is out of range"),
        ('[[jobs]]\nlayout = "qwixx-standard"\nlang = "xx"', "jobs[0].lang: 'xx' is not one of"),
        ('[[jobs]]\nlayout = "qwixx-standard"\noutput = "../x"', "jobs[0].output: '../x' must be a plain name"),
        ("[[jobs]]\nsheets = 2", "jobs[0].layout: is missing"),
        ('[[jobs]]\nlayot = "qwixx-standard"', "jobs[0].layot: is not a known key (did you mean layout?)"),
        ('[[jobs]]\nlayout = "qwixx-standard"\nsymbols = "true"',
         "jobs[0].symbols: must be true or false, not 'true' (without quotes: a TOML true or false)"),
    ],
)
def test_bad_manifests_name_file_job_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = manifest(tmp_path, text)
    with pytest.raises(LayoutError) as caught:
        read_manifest(path, tmp_path / "out")
    assert f"{path}: {message}" in str(caught.value)
    assert not (tmp_path / "out").exists()


def test_two_jobs_writing_the_same_file_stop_the_batch(tmp_path: Path) -> None:
    path = manifest(tmp_path, '[[jobs]]\nlayout = "qwixx-standard"\n[[jobs]]\nlayout = "qwixx-standard"\nsheets = 50')
    with pytest.raises(UsageProblem, match="both write"):
        read_manifest(path, tmp_path / "out")


def test_allow_outside(tmp_path: Path) -> None:
    path = manifest(tmp_path, '[[jobs]]\nlayout = "qwixx-standard"\noutput = "../elsewhere"')
    (job,) = read_manifest(path, tmp_path / "out", allow_outside=True)
    assert job.plan.options.output == "elsewhere" and job.plan.options.out == tmp_path / "out" / ".."


def test_a_job_that_fails_its_check_stops_the_batch_before_anything_is_written(tmp_path: Path,
                                                                               write_layout) -> None:  # type: ignore[no-untyped-def]
    broken = write_layout("points = [1, 3, 6, 10,", "points = [1, 3, 6, 11,", name="wrong.toml")
    text = GOOD + f'\n[[jobs]]\nlayout = "{broken}"\n'
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, text)), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "jobs[2]" in result.output and "points_table.points[3]" in result.output
    assert not (tmp_path / "out").exists()


def failing_for(layout: str):  # type: ignore[no-untyped-def]
    """A stand-in for Plan.write that fails (like a full disk) for one layout."""
    from printgen.kinds import Plan

    original = Plan.write

    def write(plan: Plan, *args, **kwargs):  # type: ignore[no-untyped-def]
        if plan.layout.name == layout:
            raise OSError(28, "No space left on device")
        return original(plan, *args, **kwargs)

    return write


def test_a_failing_job_does_not_stop_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.kinds import Plan

    jobs = read_manifest(manifest(tmp_path, GOOD + '\n[[jobs]]\nlayout = "qwixx-bonus-a"\n'), tmp_path / "out")
    monkeypatch.setattr(Plan, "write", failing_for("qwixx-bonus-a"))
    results = run_jobs(jobs, 1)
    assert [r.error is None for r in results] == [True, True, False]
    assert results[2].error == "No space left on device; no partial file was left behind"
    lines = summary(results, 1.0, 1)
    assert any(line.startswith("FAILED jobs[2]") for line in lines)
    assert lines[-1].startswith("3 files from 3 jobs, 1 failed")
    assert summary(results, 1.0, 8)[-1].endswith("with 3 jobs at once")  # (never more than there are jobs)
    assert summary(results[:1], 1.0, 2)[-1].endswith("with 1 job at once")


def test_batch_command_writes_files_summary_and_index(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, GOOD)), "--out", str(out), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "club-pad.pdf" in result.output and "0 failed" in result.output
    assert {"club-pad.pdf", "club-pad.svg", "qwixx-big-points-it-4sheets.pdf", "index.html", "preview"} <= {
        p.name for p in out.iterdir()}
    html = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="./club-pad.pdf"' in html and "./preview/club-pad/page-000001.png" in html
    assert (out / "preview" / "club-pad" / "page-000001.png").is_file()
    assert "(+2 like it)" in html  # three identical pages shown once
    assert "Qwixx score sheets" in html


def test_an_out_folder_below_a_file_is_refused_before_any_job_writes(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, GOOD)), "--out", str(tmp_path / "afile" / "sub")])
    assert result.exit_code == 2
    assert result.output == f"Error: --out: {tmp_path / 'afile' / 'sub'}: cannot be written: Not a directory\n"
    assert (tmp_path / "afile").read_text() == "x"


def test_an_out_folder_on_a_read_only_disk_is_refused_in_one_line_before_any_job_builds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each job used to be built and then fail, a line a job (50 lines for 50 jobs)."""
    import errno
    import tempfile

    from printgen import build

    real = tempfile.mkstemp
    read_only = tmp_path / "disk"
    read_only.mkdir()

    def mkstemp(*args: object, dir: str | Path = "", **kwargs: object) -> tuple[int, str]:
        if Path(dir).is_relative_to(read_only):
            raise OSError(errno.EROFS, "Read-only file system")
        return real(*args, dir=dir, **kwargs)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(build, "plan", lambda *args, **kwargs: pytest.fail("no job may be planned"))
    for out in (read_only, read_only / "new" / "sub"):
        result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, GOOD)), "--out", str(out)])
        said = f"Error: --out: {out}: cannot be written: Read-only file system\n"
        assert (result.exit_code, result.output) == (1, said)
    assert list(read_only.iterdir()) == []
    monkeypatch.undo()
    monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    pack = CliRunner().invoke(main, ["build", "--all", "--out", str(read_only)])  # (it said so in exit 2)
    assert pack.exit_code == 1 and pack.output.startswith(f"Error: {read_only / 'qwixx-standard.pdf'}: cannot be "
                                                           "written: Read-only file system")


def test_batch_with_a_failure_exits_1_and_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.kinds import Plan

    monkeypatch.setattr(Plan, "write", failing_for("qwixx-bonus-a"))
    text = '[[jobs]]\nlayout = "qwixx-bonus-a"\n[[jobs]]\nlayout = "qwixx-standard"\n'
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, text)), "--out", str(tmp_path / "o"),
                                       "--jobs", "1"])
    assert result.exit_code == 1
    assert "FAILED jobs[0]" in result.output and "Error: 1 of 2 jobs failed: jobs[0]" in result.output
    assert (tmp_path / "o" / "qwixx-standard.pdf").is_file()


def test_index_escapes_user_text(tmp_path: Path, write_layout) -> None:  # type: ignore[no-untyped-def]
    odd = write_layout('title = "Qwixx"', 'title = "<script>alert(1)</script> & Co"', name="odd.toml")
    text = f'[[jobs]]\nlayout = "{odd}"\noutput = "a&b<i>"\nformat = "both"\n'
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, text)), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "o" / "index.html").read_text(encoding="utf-8")
    assert "<i>" not in html and "a&amp;b&lt;i&gt;" in html
    svg = (tmp_path / "o" / "a&b<i>.svg").read_text(encoding="utf-8")
    assert "<script>" not in svg


def test_same_inputs_give_identical_bytes_across_processes(tmp_path: Path) -> None:
    for run in ("a", "b"):
        code = ("from pathlib import Path; from printgen.build import build, options_for; "
                f"build('qwixx-big-points', options_for('qwixx-big-points', out=Path(r'{tmp_path / run}'), sheets=6, seed=3, "
                "formats=('pdf', 'svg')))")
        subprocess.run([sys.executable, "-c", code], check=True)
    for name in ("qwixx-big-points-6sheets-seed3.pdf",
                 *(f"qwixx-big-points-6sheets-seed3/qwixx-big-points-{i}.svg" for i in range(1, 7))):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_timestamp_changes_the_bytes(tmp_path: Path) -> None:
    from printgen.build import build, options_for

    fixed = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path / "a"))[0].read_bytes()
    stamped = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path / "b", timestamp=True))[0].read_bytes()
    assert fixed != stamped and b"/CreationDate" in stamped


def test_preview_command(tmp_path: Path) -> None:
    from printgen.build import build, options_for

    (pdf,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, sheets=6))
    result = CliRunner().invoke(main, ["preview", str(pdf), "--width", "300"])
    assert result.exit_code == 0 and "wrote 3 PNGs" in result.output
    from PIL import Image

    assert Image.open(tmp_path / "qwixx-standard-6sheets-preview" / "page-001.png").size[0] == 300
    bad = tmp_path / "not.pdf"
    bad.write_text("hello")
    result = CliRunner().invoke(main, ["preview", str(bad)])
    assert result.exit_code == 2 and "cannot render" in result.output  # a bad input file is a usage error


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere.pdf"
    (out / "pad.pdf").symlink_to(elsewhere)
    path = manifest(tmp_path, '[[jobs]]\nlayout = "qwixx-standard"\noutput = "pad"')
    for allow in (False, True):
        with pytest.raises(LayoutError, match="pad.pdf: is a symbolic link; printgen replaces only regular files"):
            read_manifest(path, out, allow_outside=allow)
    assert not elsewhere.exists()


def test_layout_files_and_out_are_relative_to_the_manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           write_layout) -> None:  # type: ignore[no-untyped-def]
    club = tmp_path / "club"
    club.mkdir()
    (club / "mine.toml").write_text(write_layout('title = "Qwixx"', 'title = "Club"').read_text())
    path = club / "jobs.toml"
    path.write_text('out = "prints"\n[[jobs]]\nlayout = "mine.toml"\n')
    monkeypatch.chdir(tmp_path)
    (job,) = read_manifest(path)
    assert job.plan.options.out == club / "prints" and job.plan.layout.source == str(club / "mine.toml")
    (job,) = read_manifest(path, tmp_path / "mine")  # --out wins over the manifest's out
    assert job.plan.options.out == tmp_path / "mine"


@pytest.mark.parametrize("text, message", [
    ('[[jobs]]\nlayout = "one-to-9-board"\npaper = "a3"', "jobs[0]: --paper: the one-to-9-board"),
    ('[[jobs]]\nlayout = "qwixx-standard"\nper-page = 4', "jobs[0].per-page: is not a known key (did you mean per_page?)"),
    ('[[jobs]]\nlayout = "qwixx-standard"\ntile = true', "jobs[0].tile: does not apply to qwixx-standard"),
    ('[[jobs]]\nlayout = "qwixx-cards-deck"\nscan_marks = false', "jobs[0].scan_marks: does not apply to qwixx-cards"),
    (('[[jobs]]\nlayout = "qwixx-cards-deck"\nduplex = "off"\nbacks_file = true\n'
     '[[jobs]]\nlayout = "qwixx-standard"\noutput = "qwixx-cards-deck-backs"'), "both write"),
    ('[[jobs]]\nlayout = "qwixx-cards-deck"\nformat = "svg"\noutput = "preview"', "belongs to the preview page"),
    (('[[jobs]]\nlayout = "one-to-9-deck"\nformat = "svg"\noutput = "cards"\n[[jobs]]\nlayout = "qwixx-cards-deck"\n'
     'format = "svg"\noutput = "cards"'), "both write"),
    ('jobz = 1\n[[jobs]]\nlayout = "qwixx-standard"', "jobz: is not a known key (did you mean jobs?)"),
])
def test_every_check_runs_before_any_job_writes(tmp_path: Path, text: str, message: str) -> None:
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, text)), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not (tmp_path / "o").exists()


def test_a_folder_where_a_file_is_would_be_refused(tmp_path: Path) -> None:
    out = tmp_path / "o"
    out.mkdir()
    (out / "deck").write_text("a plain file of the user's")
    text = '[[jobs]]\nlayout = "qwixx-cards-deck"\nformat = "svg"\noutput = "deck"'
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, text)), "--out", str(out)])
    assert result.exit_code == 2 and "deck: is a file; printgen replaces only folders it writes" in result.output
    assert (out / "deck").read_text() == "a plain file of the user's"


def test_a_batch_flushes_each_finished_file_once_and_each_folder_once(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import re

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name the synced files")
    log = tmp_path / "synced.txt"
    real = os.fsync

    def fsync(descriptor: int) -> None:  # (the workers are forked: they log through the file too)
        with open(log, "a", encoding="utf-8") as handle:
            handle.write(os.readlink(f"/proc/self/fd/{descriptor}") + "\n")
        real(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["batch", str(manifest(tmp_path, GOOD)), "--out", str(out), "-j", "2"])
    assert result.exit_code == 0, result.output
    temporary = re.compile(r"\.(.+)\.\d+\.[a-z0-9_]{8}\.(?:part|old|lock)")
    synced = sorted("/".join(m[1] if (m := temporary.fullmatch(part)) else part
                             for part in Path(os.path.relpath(line, out)).parts)
                    for line in log.read_text(encoding="utf-8").splitlines())
    previews = [f"preview/{p.name}" for p in (out / "preview").iterdir()]
    expected = ["club-pad.pdf", "club-pad.svg", "qwixx-big-points-it-4sheets.pdf", "index.html", "",
                *previews, *(f"{p}/info.json" for p in previews)]
    assert len(previews) == 2 and synced == sorted(expected)
