"""Atomic output reaches the disk before the rename: the file (or every file of a folder), then its folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from printgen.output import atomic_file, atomic_folder


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """("fsync", path) and ("rename", target) in the order they happen."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("needs /proc to name the synced files")
    happened: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(descriptor: int) -> None:
        happened.append(("fsync", os.readlink(f"/proc/self/fd/{descriptor}")))
        real_fsync(descriptor)

    def replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        happened.append(("rename", str(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return happened


def test_a_file_is_synced_before_and_its_folder_after_the_rename(tmp_path: Path,
                                                                 events: list[tuple[str, str]]) -> None:
    target = tmp_path / "sheet.pdf"
    with atomic_file(target) as temporary:
        temporary.write_bytes(b"%PDF")
    assert [kind for kind, _ in events] == ["fsync", "rename", "fsync"]
    assert Path(events[0][1]).parent == tmp_path and events[0][1].endswith(".part")
    assert events[1][1] == str(target) and events[2][1] == str(tmp_path)
    assert target.read_bytes() == b"%PDF"


def test_every_file_of_a_folder_is_synced_before_the_rename(tmp_path: Path, events: list[tuple[str, str]]) -> None:
    target = tmp_path / "deck"
    with atomic_folder(target) as temporary:
        for name in ("a.svg", "b.svg"):
            (temporary / name).write_text("<svg/>", encoding="utf-8")
    rename = events.index(("rename", str(target)))
    synced = [Path(path).name for kind, path in events[:rename] if kind == "fsync"]
    assert synced[:2] == ["a.svg", "b.svg"] and synced[2].endswith(".part")  # the files, then their folder
    assert events[rename + 1] == ("fsync", str(tmp_path))
