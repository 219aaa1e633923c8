"""A folder's photos read on every core: the same readings, in the order given, as one process reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import filled_once
from tests.scan.conftest import NEEDS_SCAN, sheet


@pytest.fixture(scope="module")
def folder(request: pytest.FixtureRequest) -> Path:
    """A page of two Big Points sheets, a file that is not a picture and a standard sheet: the first photo takes
    longest to read, so a worker finishes the others before it."""
    pytest.importorskip("cv2", reason=NEEDS_SCAN)
    from tests.scan.simulator.synthetic import sample

    def fill(made: Path) -> None:
        for name, layout, seed, two_up in (("a.jpg", "qwixx-big-points", 21, True),
                                           ("c.jpg", "qwixx-standard", 23, False)):
            (made / name).write_bytes(sample([sheet(layout)], seed, two_up=two_up, widest=1200).jpeg)
        (made / "b.png").write_bytes(b"not a picture")

    return filled_once(request, "photos-workers", fill)[0]


def described(readings: list[tuple[Path, object, list[object]]]) -> list[tuple[str, list[object]]]:
    """Each photo's name and what was read from it, as the command line reports it (JSON or the reason)."""
    from printgen.scan.report import as_json

    return [(path.name, [as_json(r) if hasattr(r, "marks") else r.reason for r in results])  # type: ignore[arg-type, attr-defined]
            for path, _, results in readings]


def quick_first(folder: Path) -> list[Path]:
    """The folder's file that is not a picture, then its standard sheet: the first photo is done at once, and the
    reading is stopped while a worker still reads the second."""
    return [folder / "b.png", folder / "c.jpg"]


def test_workers_read_the_same_sheets_in_the_same_order(folder: Path) -> None:
    from printgen.photo_workers import read_photos
    from printgen.scan.score import photos, reader_for

    reader, files = reader_for(()), photos([folder])
    alone = list(read_photos(files, reader, False, workers=1))
    spread = list(read_photos(files, reader, True, workers=2))
    assert [path.name for path, _, _ in alone] == ["a.jpg", "b.png", "c.jpg"]
    assert described(spread) == described(alone)
    assert [len(results) for _, _, results in alone] == [2, 1, 1]  # two sheets on the page, one line for b.png
    assert isinstance(described(alone)[1][1][0], str)
    assert all(image is None for _, image, _ in alone)  # pixels come back only when asked for (to annotate)
    assert [image is not None for _, image, _ in spread] == [True, False, True]


def test_workers_are_gone_when_the_reading_stops_early(folder: Path) -> None:
    import multiprocessing

    from printgen.photo_workers import read_photos
    from printgen.scan.score import reader_for

    before = set(multiprocessing.active_children())  # (another test's may still be ending)
    readings = read_photos(quick_first(folder), reader_for(()), False, workers=2)
    first = next(readings)
    readings.close()  # as a Ctrl-C or a closed pipe leaves the loop, while a worker still reads c.jpg
    assert first[0].name == "b.png"
    assert set(multiprocessing.active_children()) <= before


def test_workers_end_when_told_to_even_where_the_parent_ignores_sigterm(folder: Path) -> None:
    """A command that has already had its one SIGTERM ignores later ones; its workers, forked from it, must
    still end when the reading stops."""
    import multiprocessing
    import signal

    from printgen.photo_workers import read_photos
    from printgen.scan.score import reader_for

    before = set(multiprocessing.active_children())
    previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        readings = read_photos(quick_first(folder), reader_for(()), False, workers=2)
        next(readings)
        readings.close()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert set(multiprocessing.active_children()) <= before
