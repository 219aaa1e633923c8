"""The demo photo: the same seed gives the same photo and another seed another, the reader reads it whole (the engine's total, legal,
nothing uncertain), and `printgen score --demo` writes it like every other file, alone."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.scan.conftest import NEEDS_SCAN

cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)
np = pytest.importorskip("numpy", reason=NEEDS_SCAN)

from printgen.cli import main
from printgen.demo.photo import DEMO_SEED, DemoPhoto, demo_photo, encoded
from printgen.scan.reader import Reader, SheetReading

OTHER_SEED = 11


@cache
def other_photo() -> DemoPhoto:
    """demo_photo(OTHER_SEED), made once a process: two tests look at it (neither changes it; it is frozen)."""
    return demo_photo(OTHER_SEED)


@pytest.mark.parametrize("seed", [DEMO_SEED, OTHER_SEED])
def test_the_demo_photo_reads_as_the_engine_played_it(seed: int, demo: DemoPhoto) -> None:
    photo = demo if seed == DEMO_SEED else other_photo()  # demo: demo_photo(DEMO_SEED), made once a run
    assert photo.jpeg[:3] == b"\xff\xd8\xff" and 50_000 < len(photo.jpeg) < 2_000_000
    image = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    (reading,) = Reader().read_image(image, "demo.jpg")
    assert isinstance(reading, SheetReading), reading
    assert (reading.layout.name, reading.verdict.total, reading.verdict.legal) == (photo.layout, photo.total, True)
    assert reading.uncertain == [] and photo.total > 0


def test_another_seed_gives_another_photo(demo: DemoPhoto) -> None:
    # (the same seed gives the same photo: test_score_demo_writes_the_photo_and_says_what_to_try makes it again)
    assert demo.jpeg != other_photo().jpeg


def test_png_is_encoded_from_the_same_pixels(demo: DemoPhoto) -> None:
    photo = demo
    assert encoded(photo, ".JPG") == photo.jpeg
    png = encoded(photo, ".png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR).shape == \
        cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR).shape


def test_score_demo_writes_the_photo_and_says_what_to_try(tmp_path: Path, demo: DemoPhoto) -> None:
    target = tmp_path / "demo.jpg"
    result = CliRunner().invoke(main, ["score", "--demo", str(target)])
    assert result.exit_code == 0, result.output
    assert result.output == f"wrote {target}; now try: printgen score {target}\n"
    assert target.read_bytes() == demo.jpeg  # the same seed, the same photo (demo: made earlier in the run, with
    # pytest-xdist perhaps in another process)
    assert sorted(os.listdir(tmp_path)) == ["demo.jpg"]  # no temporary file left
    scored = CliRunner().invoke(main, ["score", str(target)])
    assert scored.exit_code == 0 and f"total {demo.total}, legal" in scored.output


@pytest.mark.parametrize("args, message", [
    (["--demo", "demo.gif"], "Error: --demo: demo.gif: the photo's name must end in .jpg, .jpeg, .png"),
    (["--demo", "nowhere/demo.jpg"], "Error: --demo: nowhere: no such folder to write demo.jpg in"),
    (["--demo", "demo.jpg", "photo.jpg"], "Error: --demo: writes a photo to try score on and scores nothing"),
    (["--demo", "link.jpg"], "Error: link.jpg: is a symbolic link"),
])
def test_score_demo_refuses_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                        message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "photo.jpg").write_bytes(b"x")
    (tmp_path / "link.jpg").symlink_to(tmp_path / "photo.jpg")
    result = CliRunner().invoke(main, ["score", *args])
    assert result.exit_code == 2
    assert result.output.startswith(message) and len(result.output.splitlines()) == 1, result.output
    assert (tmp_path / "photo.jpg").read_bytes() == b"x"


def test_score_without_photos_points_at_the_demo() -> None:
    result = CliRunner().invoke(main, ["score"])
    assert result.exit_code == 2 and "printgen score --demo demo.jpg" in result.output
