"""Scoring photos for the command line: paths in, each photo's sheets read, annotated pictures and standings written out."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from printgen import layouts
from printgen.errors import PrintgenError, UsageProblem, display_name
from printgen.kinds import score_sheet
from printgen.output import atomic_file, check_file_target, check_writable
from printgen.scan.annotate import annotate
from printgen.scan.documents import pictures
from printgen.scan.picture import Refused, read_bytes
from printgen.scan.reader import NO_MARKERS, Reader, Result, SheetReading, Unreadable
from printgen.scan.standings import Standing, is_copy, standings_csv

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif", ".pdf")
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
"""What an annotated picture may be written as (its name says which)."""
DEMO_SUFFIXES = (".jpg", ".jpeg", ".png")
"""What the demo photo may be written as."""


def photos(paths: list[Path]) -> list[Path]:
    """The photos to score, each once: files as given, folders replaced by the photos in them (sorted by
    name; only regular files, and no hidden ones: `._NAME.jpg` is macOS's metadata of NAME.jpg, not a photo)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES and not p.name.startswith(".")
                            and _regular(p))
            if not inside:
                raise UsageProblem(f"{display_name(path)}: no photos in this folder ({', '.join(PHOTO_SUFFIXES)})")
            found += inside
        else:
            found.append(path)
    unique: list[Path] = []
    seen: set[str] = set()
    for photo in found:  # one path given twice (a folder and a file in it, ./a.jpg and a.jpg): once, silently
        key = os.path.abspath(photo)
        if key not in seen:
            seen.add(key)
            unique.append(photo)
    return unique


def not_read(paths: list[Path]) -> list[str]:
    """A line for each thing in a folder of `paths` that looks meant to be scored but is not read: a folder in
    it holding photos (folders are not searched), a photo's name that leads to no file (a broken link)."""
    notes: list[str] = []
    for path in paths:
        if not path.is_dir():
            continue
        for inside in sorted(path.iterdir()):
            if inside.name.startswith("."):
                continue
            if inside.is_dir() and not inside.is_symlink() and _holds_photos(inside):
                notes.append(f"{display_name(inside)}: a folder in {display_name(path)}, not read (name it too to "
                             "score its photos)")
            elif inside.suffix.lower() in PHOTO_SUFFIXES and not inside.exists():
                notes.append(f"{display_name(inside)}: a link to nothing, left out")
    return notes


def _holds_photos(folder: Path) -> bool:
    try:
        return any(p.suffix.lower() in PHOTO_SUFFIXES and not p.name.startswith(".") for p in folder.iterdir())
    except OSError:
        return False


def twins(files: list[Path]) -> tuple[list[Path], list[str]]:
    """`files` less each copy of one photo under another name (a link to it, a copy of its bytes: a phone's
    `IMG_1 (1).jpg`), which would count its sheets twice, the first kept unless only a later one is named as an
    original is; and a line naming each left out and the one read."""
    kept: list[Path] = []
    notes: list[str] = []
    first: dict[tuple[int, int], Path] = {}
    sizes: dict[int, list[Path]] = {}
    for path in files:
        try:
            info = os.stat(path)
        except OSError:  # (read later, and reported then)
            kept.append(path)
            continue
        same = first.get((info.st_dev, info.st_ino))
        if same is None and info.st_size > 0:
            same = next((other for other in sizes.get(info.st_size, []) if _same_bytes(other, path)), None)
        if same is not None and is_copy(same.name) and not is_copy(path.name):  # the original comes after
            kept[kept.index(same)] = path                                        # its copy `IMG_1 (1).jpg`
            first = {key: path if value == same else value for key, value in first.items()}
            first[(info.st_dev, info.st_ino)] = path
            sizes[info.st_size] = [path if other == same else other for other in sizes[info.st_size]]
            same, path = path, same
        if same is not None:
            notes.append(f"{display_name(path)}: the same photo as {display_name(same)}, read once (as "
                         f"{display_name(same.name)})")
            continue
        first[(info.st_dev, info.st_ino)] = path
        sizes.setdefault(info.st_size, []).append(path)
        kept.append(path)
    return kept, notes


def _same_bytes(one: Path, other: Path) -> bool:
    """Whether two files of one size hold the same bytes (read a block at a time)."""
    try:
        with open(one, "rb") as a, open(other, "rb") as b:
            while True:
                block = a.read(1 << 20)
                if block != b.read(1 << 20):
                    return False
                if not block:
                    return True
    except OSError:
        return False


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
    exists, it is a regular file or new, it is none of the photos being scored and no other target; a
    PrintgenError (exit 1) where the disk will not write there (read-only, no permission)."""
    inputs = {_identity(photo) for photo in photos}
    written: dict[tuple[int, int] | Path, str] = {}
    for option, target in targets:
        folder, name = display_name(target.parent), display_name(target.name)
        if target.parent.exists() and not target.parent.is_dir():
            raise UsageProblem(f"{option}: {folder} is a file, not a folder to hold {name}")
        if not target.parent.is_dir():
            raise UsageProblem(f"{option}: {folder}: no such folder to write {name} in")
        try:
            check_file_target(target)
            check_writable(target, problem=PrintgenError)  # (a folder the disk will not write in: a runtime problem)
        except PrintgenError as problem:
            raise type(problem)(f"{option}: {problem}") from None
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
        try:
            loaded = layouts.load(ref)
        except layouts.UnknownLayout as error:  # (a file's own errors name the file, which is what --layout gave)
            raise UsageProblem(f"--layout: {error}") from None
        layout = score_sheet(loaded)
        if layout is None:
            raise UsageProblem(f"--layout: {ref} is a {loaded.kind}, not a score sheet")
        extra.append(layout)
    return Reader(tuple(extra))


def score(paths: list[Path], reader: Reader) -> Iterator[tuple[Path, np.ndarray | None, list[Result]]]:
    """Each picture of each photo file (a PDF gives one a page), its pixels (None when it cannot be opened)
    and the sheets read from it; a picture that cannot be read, whatever the reason, is one Unreadable and the
    others carry on."""
    for path in paths:
        name = display_name(path)
        data = read_bytes(path)
        if isinstance(data, Refused):
            yield path, None, [Unreadable(name, data.reason)]
            continue
        for image, results in read_file(data, name, reader):
            yield path, image, results


def read_file(data: bytes, name: str, reader: Reader) -> Iterator[tuple[np.ndarray | None, list[Result]]]:
    """Each picture in the photo file `data` (called `name` in reports: a path or an upload's name, never
    opened), its pixels (None when it cannot be decoded) and the sheets read from it. What `printgen score`
    does with a file's bytes, so a file and an upload get the same limits and the same one-line refusals."""
    found = pictures(data, name)
    while True:
        try:
            label, picture = next(found)
        except StopIteration:
            return
        except MemoryError:
            yield None, [Unreadable(name, f"out of memory while reading {name}")]
            return
        yield _read(picture, label, reader)
        del picture  # one page's pixels at a time


def _read(picture: np.ndarray | Refused, name: str, reader: Reader) -> tuple[np.ndarray | None, list[Result]]:
    if isinstance(picture, Refused):
        return None, [Unreadable(name, picture.reason)]
    try:
        results = reader.read_image(picture, name)
        if len(results) == 1 and isinstance(results[0], Unreadable) and results[0].reason.startswith(NO_MARKERS):
            # no marker at all: a mirrored photo (a front camera's, a selfie app's) shows every marker mirrored,
            # which reads as none; read as a mirror shows it, the picture is that way round from then on
            turned = cv2.flip(picture, 1)
            again = reader.read_image(turned, name)
            if any(isinstance(result, SheetReading) for result in again):
                return turned, again
        return picture, results
    except MemoryError:
        return None, [Unreadable(name, f"out of memory while reading {name}")]
    except cv2.error:
        return None, [Unreadable(name, "the picture could not be processed (the image library refused it)")]
    except Exception as error:  # noqa: BLE001 - printgen's own fault: one line for this picture, the others go on
        return None, [Unreadable(name, f"printgen failed to read it ({type(error).__name__}: {error}); please "
                                       "report this with the picture")]


@dataclass
class Scored:
    """One photo file scored: the sheets read from it (every page of a PDF) and, when asked for, each
    picture with what was read drawn over it (the photo at most `annotate.LONGEST` pixels long, so a long PDF's
    pages cost little memory)."""

    path: Path
    results: list[Result] = field(default_factory=list)
    drawn: list[np.ndarray] = field(default_factory=list)


def score_files(pictures: Iterable[tuple[Path, np.ndarray | None, list[Result]]],
                draw: bool = False) -> Iterator[Scored]:
    """What `score` (or `printgen.photo_workers.read_photos`) read, a photo file at a time (the pages of a PDF
    together), with the pictures annotated if `draw`."""
    current: Scored | None = None
    for path, image, results in pictures:
        if current is not None and current.path != path:
            yield current
            current = None
        current = current or Scored(path)
        current.results += results
        if draw and image is not None:
            current.drawn.append(annotate(image, results))
    if current is not None:
        yield current


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


def write_annotation(target: Path, drawn: list[np.ndarray]) -> Path:
    """Write the annotated pictures of one photo file (a PDF's pages one under another) at `target` (PNG,
    JPEG or WebP as its name says), atomically."""
    ok, encoded = cv2.imencode(target.suffix.lower(), _stacked(drawn))
    if not ok:
        raise OSError(f"{target}: cannot encode the picture")
    with atomic_file(target) as temporary:
        temporary.write_bytes(encoded.tobytes())
    return target


def _stacked(drawn: list[np.ndarray]) -> np.ndarray:
    """Pictures one under another, on white, left-aligned (one picture as it is)."""
    if len(drawn) == 1:
        return drawn[0]
    width = max(picture.shape[1] for picture in drawn)
    return np.vstack([np.pad(picture, ((0, 0), (0, width - picture.shape[1]), (0, 0)), constant_values=255)
                      for picture in drawn])


def write_standings(target: Path, standings: list[Standing]) -> Path:
    """Write the standings of every player (see `standings.standings_csv`) at `target`, atomically."""
    with atomic_file(target) as temporary:
        temporary.write_text(standings_csv(standings), encoding="utf-8")
    return target


def write_demo(target: Path) -> str:
    """Write the demo photo (`printgen.demo.photo`) at `target` (.jpg, .jpeg or .png, as its name says),
    atomically; returns the name written, fit to print."""
    from printgen.demo.photo import demo_photo, encoded

    if target.suffix.lower() not in DEMO_SUFFIXES:
        raise UsageProblem(f"--demo: {display_name(target)}: the photo's name must end in "
                           f"{', '.join(DEMO_SUFFIXES)} (the format follows it)")
    if not target.parent.is_dir():
        raise UsageProblem(f"--demo: {display_name(target.parent)}: no such folder to write "
                           f"{display_name(target.name)} in")
    check_file_target(target)
    data = encoded(demo_photo(), target.suffix)
    with atomic_file(target) as temporary:
        temporary.write_bytes(data)
    return display_name(target)
