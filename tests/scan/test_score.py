"""Scoring from the command line's side: each photo read once, annotated pictures that never replace one
another or a photo, and every hostile picture ending in one line, within 10 s and 1 GB, with nothing written."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.scan.conftest import NEEDS_SCAN

cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)
np = pytest.importorskip("numpy", reason=NEEDS_SCAN)

from printgen.errors import UsageProblem
from printgen.scan import score
from printgen.scan.reader import Unreadable
from tests.scan.hostile import float_tiff, jpeg, png, radiance


def test_a_photo_given_twice_is_read_once(tmp_path: Path) -> None:
    photo = tmp_path / "a.jpg"
    photo.write_bytes(b"")
    assert score.photos([photo, tmp_path / "." / "a.jpg", tmp_path]) == [photo]


def test_annotations_of_photos_with_one_name_are_numbered(tmp_path: Path) -> None:
    photos = [tmp_path / "a.jpg", tmp_path / "night" / "a.jpg", tmp_path / "A.png", tmp_path / "b.jpg"]
    targets = score.annotation_targets(tmp_path / "read.webp", photos)
    assert [t.name for t in targets] == ["read-a.webp", "read-a-2.webp", "read-A-3.webp", "read-b.webp"]
    assert score.annotation_targets(tmp_path / "read.png", photos[:1]) == [tmp_path / "read.png"]


def test_a_picture_too_large_is_refused_before_it_is_decoded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.scan import picture

    path = tmp_path / "wide.png"
    cv2.imwrite(str(path), np.zeros((300, 400), np.uint8))
    monkeypatch.setattr(picture, "MAX_PIXELS", 100_000)
    monkeypatch.setattr(picture, "_rgb", lambda *args: pytest.fail("decoded"))
    ((found, image, (result,)),) = list(score.score([path], reader=None))  # type: ignore[arg-type]
    assert found == path and image is None
    assert isinstance(result, Unreadable) and "megapixels" in result.reason


# -- hostile pictures through the whole command (Reliability III) ------------------------------------------------

LIMIT_SECONDS = 10
LIMIT_MB = 1024


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float
    peak_mb: float


PRINTGEN = str(Path(sys.executable).with_name("printgen"))
MEASURE = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)")
"""Runs a command and prints its peak resident memory (KiB) as the last line on stderr."""


def run_score(*args: str, cwd: Path) -> Run:
    """`printgen score ARGS` in its own process: exit code, output, wall seconds and peak memory (RSS)."""
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", MEASURE, PRINTGEN, "score", *args], cwd=cwd,
                              capture_output=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"printgen score {' '.join(args)} did not end within 60 s")
    seconds = time.monotonic() - start
    err = done.stderr.decode("utf-8", "replace").splitlines()
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"), "\n".join(err[:-1]), seconds,
               int(err[-1]) / 1024)


HOSTILE = {
    "crc.png": lambda: png(11_000, 10_000, bad_crc=True, rows=50),
    "huge.png": lambda: png(12_000, 10_000, rows=10),
    "hdr.jpg": lambda: radiance(30_000, 30_000),
    "cut.jpg": lambda: jpeg(np.full((900, 1200, 3), 200, np.uint8))[:20_000],
    "cut.png": lambda: png(1200, 900)[:-60],
    "float.tif": float_tiff,
    "thin.png": lambda: png(1, 100_000),
    "noise.jpg": lambda: os.urandom(50_000),
    "empty.png": lambda: b"",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_picture_ends_in_one_line_quickly_and_small(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_bytes(HOSTILE[name]())
    run = run_score(name, "--csv", "s.csv", cwd=tmp_path)
    assert run.code == 1, run.err
    lines = [line for line in (run.out + run.err).splitlines() if line]
    assert lines[0].startswith(f"{name}: unreadable: ") and len(lines) == 3, lines  # the photo, wrote, Error
    assert lines[-1] == "Error: 1 of 1 sheets, photos or pages could not be read (said above)"
    for noise in ("Traceback", "WARN", "libpng", "Premature end", "cv2", "OpenCV"):
        assert noise not in run.out + run.err
    assert run.seconds < LIMIT_SECONDS and run.peak_mb < LIMIT_MB, (run.seconds, run.peak_mb)


def test_a_tiff_of_many_large_pages_is_read_within_the_budget_quickly_and_small(tmp_path: Path) -> None:
    from PIL import Image

    from printgen.scan.documents import MAX_PAGES, PDF_PIXELS
    from printgen.scan.picture import READ_PIXELS

    page = Image.new("L", (6000, 5000), 255)  # 30 megapixels, a few kilobytes deflated
    page.save(tmp_path / "pages.tif", save_all=True, append_images=[page] * (MAX_PAGES - 1),
              compression="tiff_deflate")
    run = run_score("pages.tif", cwd=tmp_path)
    read = PDF_PIXELS // READ_PIXELS  # each page counts as the pixels the reader gets: three of them
    lines = [line for line in (run.out + run.err).splitlines() if line]
    assert [line.split(":")[0] for line in lines[:read]] == [f"pages.tif [page {k} of {MAX_PAGES}]"
                                                              for k in range(1, read + 1)]
    assert lines[read] == (f"pages.tif: unreadable: pages {read + 1} to {MAX_PAGES} not read: a file's pages are "
                           f"read up to {PDF_PIXELS:,} pixels in all (split it)")
    assert run.seconds < LIMIT_SECONDS and run.peak_mb < LIMIT_MB, (run.seconds, run.peak_mb)


def test_a_fifo_given_as_the_photo_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.jpg")
    run = run_score("pipe.jpg", cwd=tmp_path)
    assert run.code == 1 and "pipe.jpg: unreadable: is not a regular file" in run.out


def test_names_that_are_not_utf8_neither_crash_the_run_nor_the_csv(tmp_path: Path) -> None:
    from tests.scan.conftest import sheet
    from tests.scan.simulator.synthetic import sample

    folder = tmp_path / "night"
    folder.mkdir()
    picture = sample([sheet("qwixx-standard")], 5, two_up=False, widest=1600)
    odd = os.fsencode(folder) + b"/\xff\xfe-sheet.jpg"
    with open(odd, "wb") as handle:
        handle.write(picture.jpeg)
    (folder / "=1+2.jpg").write_bytes(picture.jpeg + b"\0")  # another photo of it (the same bytes are read once)
    run = run_score("night", "--csv", "standings.csv", "--annotate", "read.png", cwd=tmp_path)
    assert run.code == 0, run.out + run.err
    assert "night/\\xff\\xfe-sheet.jpg: qwixx-standard" in run.out
    table = (tmp_path / "standings.csv").read_text(encoding="utf-8")
    assert "night/\\xff\\xfe-sheet.jpg" in table
    assert ",'night/=1+2.jpg," not in table and "night/=1+2.jpg" in table  # a path starts with the folder
    assert os.path.exists(os.fsencode(tmp_path) + b"/read-\xff\xfe-sheet.png")


def test_a_csv_cell_that_would_run_as_a_formula_is_written_as_text() -> None:
    from printgen.scan.standings import player_of, ranked, round_of, standings_csv

    photos = [Unreadable("=1+2.jpg", "no sheet found"), Unreadable("@SUM(A1).jpg", "-bad")]
    table = standings_csv(ranked([(player_of(p.file), round_of(p)) for p in photos]))
    assert "'=1+2.jpg" in table and "'@SUM(A1).jpg" in table and ",'=1+2," in table and "\n,=" not in table


@pytest.mark.parametrize("args, option", [
    (["a.jpg", "--annotate", "a.jpg"], "--annotate"),
    (["a.jpg", "--csv", "a.jpg"], "--csv"),
    (["x", "--annotate", "x/x.png"], "--annotate"),  # the annotation of x/c.png would be x/x-c.png, a photo
    (["a.jpg", "--annotate", "same.png", "--csv", "same.png"], "--csv"),
])
def test_no_output_may_replace_a_photo_being_scored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    args: list[str], option: str) -> None:
    from click.testing import CliRunner

    from printgen.cli import main

    (tmp_path / "a.jpg").write_bytes(b"photo a")
    (tmp_path / "x").mkdir()
    (tmp_path / "x.png").write_bytes(b"photo x")
    for name in ("c.png", "x-c.png"):
        (tmp_path / "x" / name).write_bytes(name.encode())
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["score", *args])  # in this process: a usage error reads nothing
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: {option}: "), result.output
    assert len(result.stderr.splitlines()) == 1 and result.stdout == ""
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_out_of_memory_while_reading_a_photo_is_one_line_and_the_others_go_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from printgen.cli import main
    from printgen.scan import picture

    real = picture.decode

    def starving(data: bytes) -> object:
        if data.startswith(b"\x89PNG"):
            raise MemoryError()
        return real(data)

    monkeypatch.setattr(picture, "decode", starving)
    (tmp_path / "a.png").write_bytes(png(300, 200))
    (tmp_path / "b.jpg").write_bytes(jpeg(np.full((200, 300, 3), 90, np.uint8)))
    result = CliRunner().invoke(main, ["score", str(tmp_path / "a.png"), str(tmp_path / "b.jpg")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{tmp_path / 'a.png'}: unreadable: out of memory while reading {tmp_path / 'a.png'}"
    assert lines[1].startswith(f"{tmp_path / 'b.jpg'}: unreadable: no sheet found")


def test_too_little_memory_to_load_opencv_is_one_line_not_a_missing_extra(tmp_path: Path) -> None:
    import resource

    (tmp_path / "a.jpg").write_bytes(jpeg(np.full((200, 300, 3), 90, np.uint8)))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, 400 * 2**20))

    done = subprocess.run([PRINTGEN, "score", "a.jpg"], cwd=tmp_path, capture_output=True, text=True,
                          preexec_fn=limit, timeout=60, check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("Error: out of memory while loading OpenCV") and len(done.stderr.splitlines()) == 1
    assert "pip install" not in done.stderr


def test_a_target_that_cannot_be_made_is_refused_before_any_photo_is_read(tmp_path: Path) -> None:
    from printgen.errors import PrintgenError

    with pytest.raises(PrintgenError, match=r"^--annotate: /proc/read\.png: cannot be written: ") as raised:
        score.check_targets([("--annotate", Path("/proc/read.png"))], [])  # (a folder no file can be made in)
    assert not isinstance(raised.value, UsageProblem)  # the disk's problem, exit 1, as every command says it
    score.check_targets([("--csv", tmp_path / "standings.csv")], [])
    assert list(tmp_path.iterdir()) == []  # the probe is gone


def test_what_a_folder_holds_but_score_does_not_read_is_named(tmp_path: Path) -> None:
    (tmp_path / "round-2").mkdir()
    (tmp_path / "round-2" / "anna.jpg").write_bytes(b"")
    (tmp_path / "empty").mkdir()
    (tmp_path / "gone.jpg").symlink_to(tmp_path / "nowhere.jpg")
    (tmp_path / "notes.txt").write_text("not a photo, and not meant to be one")
    (tmp_path / "anna.jpg").write_bytes(b"")
    assert score.not_read([tmp_path, tmp_path / "anna.jpg"]) == [
        f"{tmp_path}/gone.jpg: a link to nothing, left out",
        f"{tmp_path}/round-2: a folder in {tmp_path}, not read (name it too to score its photos)"]


def test_a_fault_of_printgens_reading_one_picture_is_one_line_and_the_others_are_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An error in the reader ended the whole run in a traceback (a helper's change, while it was being made)."""
    import numpy as np

    class Failing:
        def __init__(self) -> None:
            self.calls = 0

        def read_image(self, picture: object, name: str) -> list[object]:
            self.calls += 1
            if self.calls == 1:
                raise TypeError("cannot unpack non-iterable numpy.int32 object")
            return [Unreadable(name, "no corner marker")]

    reader = Failing()
    picture = np.zeros((10, 10, 3), np.uint8)
    _, first = score._read(picture, "a.jpg", reader)  # type: ignore[arg-type]
    _, second = score._read(picture, "b.jpg", reader)  # type: ignore[arg-type]
    assert [r.reason for r in first] == [("printgen failed to read it (TypeError: cannot unpack non-iterable "  # type: ignore[attr-defined]
                                         "numpy.int32 object); please report this with the picture")]
    assert [r.reason for r in second] == ["no corner marker"]  # type: ignore[attr-defined]
