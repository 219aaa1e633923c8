"""Scoring photos for the command line: paths in, each photo's sheets read, annotated pictures and standings written out."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from printgen import layouts
from printgen.errors import UsageProblem
from printgen.kinds import score_sheet
from printgen.output import atomic_file, check_file_target
from printgen.scan.annotate import annotate
from printgen.scan.picture import Refused, display_name, open_photo
from printgen.scan.reader import Reader, Result, Unreadable
from printgen.scan.report import standings

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
"""What an annotated picture may be written as (its name says which)."""


def photos(paths: list[Path]) -> list[Path]:
    """The photos to score, each once: files as given, folders replaced by the photos in them (sorted by
    name; only regular files)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES and _regular(p))
            if not inside:
                raise UsageProblem(f"{display_name(path)}: no photos in this folder ({', '.join(PHOTO_SUFFIXES)})")
            found += inside
        else:
            found.append(path)
    unique: list[Path] = []
    seen: set[tuple[int, int] | Path] = set()
    for photo in found:
        key = _identity(photo)
        if key not in seen:
            seen.add(key)
            unique.append(photo)
    return unique


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _identity(path: Path) -> tuple[int, int] | Path:
    """What tells two paths to one file apart: device and inode where the file exists, else the resolved path."""
    try:
        info = os.stat(path)
    except OSError:
        return path.resolve()
    return info.st_dev, info.st_ino


def check_targets(targets: list[tuple[str, Path]], photos: list[Path]) -> None:
    """UsageProblem, before any photo is read, unless every target (option, path) may be written: its folder
    exists, it is a regular file or new, it is none of the photos being scored and no other target."""
    inputs = {_identity(photo) for photo in photos}
    written: dict[tuple[int, int] | Path, str] = {}
    for option, target in targets:
        if not target.parent.is_dir():
            raise UsageProblem(f"{option}: {display_name(target.parent)}: no such folder to write "
                               f"{display_name(target.name)} in")
        check_file_target(target)
        key = _identity(target)
        if key in inputs:
            raise UsageProblem(f"{option}: {display_name(target)} is one of the photos being scored, which "
                               "printgen never writes over; choose another name")
        if key in written:
            raise UsageProblem(f"{option}: {display_name(target)} is also where {written[key]} writes; choose "
                               "another name")
        written[key] = option


def reader_for(layout_files: tuple[str, ...]) -> Reader:
    """A reader that knows the built-in layouts and the sheet layouts in `layout_files`."""
    extra = []
    for ref in layout_files:
        loaded = layouts.load(ref)
        layout = score_sheet(loaded)
        if layout is None:
            raise UsageProblem(f"--layout: {ref} is a {loaded.kind}, not a score sheet")
        extra.append(layout)
    return Reader(tuple(extra))


def score(paths: list[Path], reader: Reader) -> Iterator[tuple[Path, np.ndarray | None, list[Result]]]:
    """Each photo, its pixels (None when it cannot be opened) and the sheets read from it; a photo that
    cannot be read, whatever the reason, is one Unreadable and the others carry on."""
    for path in paths:
        name = display_name(path)
        image: np.ndarray | None = None
        try:
            picture = open_photo(path)
            if isinstance(picture, Refused):
                results: list[Result] = [Unreadable(name, picture.reason)]
            else:
                image = picture
                results = reader.read_image(image, name)
        except MemoryError:
            image, results = None, [Unreadable(name, f"out of memory while reading {name}")]
        except cv2.error:
            image, results = None, [Unreadable(name, "the picture could not be processed (the image library "
                                                     "refused it)")]
        yield path, image, results


def annotation_targets(base: Path, photos: list[Path]) -> list[Path]:
    """Where the annotated picture of each photo goes: `base` itself for one photo, else beside it named after
    each photo (photos of one name in different folders or formats numbered, so none replaces another)."""
    if len(photos) == 1:
        return [base]
    targets: list[Path] = []
    taken: set[str] = set()
    for photo in photos:
        name, number = f"{base.stem}-{photo.stem}", 1
        while (name if number == 1 else f"{name}-{number}").casefold() in taken:
            number += 1
        name = name if number == 1 else f"{name}-{number}"
        taken.add(name.casefold())
        targets.append(base.with_name(name + base.suffix))
    return targets


def write_annotation(target: Path, image: np.ndarray, results: list[Result]) -> Path:
    """Write `image` with what was read drawn over it at `target` (PNG, JPEG or WebP as its name says),
    atomically."""
    ok, encoded = cv2.imencode(target.suffix.lower(), annotate(image, results))
    if not ok:
        raise OSError(f"{target}: cannot encode the picture")
    with atomic_file(target) as temporary:
        temporary.write_bytes(encoded.tobytes())
    return target


def write_standings(target: Path, results: list[Result]) -> Path:
    """Write the ranking of every sheet read as CSV at `target`, atomically."""
    with atomic_file(target) as temporary:
        temporary.write_text(standings(results), encoding="utf-8")
    return target
