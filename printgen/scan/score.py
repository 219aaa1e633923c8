"""Scoring photos for the command line: paths in, each photo's sheets read, annotated pictures and standings written out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from printgen import layouts
from printgen.errors import UsageProblem
from printgen.layouts.model import ScoreSheetLayout
from printgen.output import atomic_file
from printgen.scan.annotate import annotate
from printgen.scan.reader import Reader, Result, Unreadable
from printgen.scan.report import standings

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")
MAX_PIXELS = 100_000_000
"""Largest picture read (a phone's 50-megapixel photo is half of it): bigger ones would take gigabytes."""
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
"""What an annotated picture may be written as (its name says which)."""


def photos(paths: list[Path]) -> list[Path]:
    """The photos to score, each once: files as given, folders replaced by the photos in them (sorted by
    name)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)
            if not inside:
                raise UsageProblem(f"{path}: no photos in this folder ({', '.join(PHOTO_SUFFIXES)})")
            found += inside
        else:
            found.append(path)
    unique: list[Path] = []
    seen: set[Path] = set()
    for photo in found:
        if photo.resolve() not in seen:
            seen.add(photo.resolve())
            unique.append(photo)
    return unique


def reader_for(layout_files: tuple[str, ...]) -> Reader:
    """A reader that knows the built-in layouts and the sheet layouts in `layout_files`."""
    extra = []
    for ref in layout_files:
        layout = layouts.load(ref)
        if not isinstance(layout, ScoreSheetLayout):
            raise UsageProblem(f"--layout: {ref} is a {layout.kind}, not a score sheet")
        extra.append(layout)
    return Reader(tuple(extra))


def score(paths: list[Path], reader: Reader) -> Iterator[tuple[Path, np.ndarray | None, list[Result]]]:
    """Each photo, its pixels (None when it cannot be opened) and the sheets read from it."""
    for path in paths:
        pixels = _pixels(path)
        if pixels > MAX_PIXELS:
            yield path, None, [Unreadable(str(path), f"a picture of {pixels / 1e6:.0f} megapixels: at most "
                                                     f"{MAX_PIXELS / 1e6:.0f} are read (scale it down)")]
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            yield path, None, [Unreadable(str(path), "not a picture this reader can open")]
            continue
        yield path, image, reader.read_image(image, str(path))


def _pixels(path: Path) -> int:
    """The picture's size in pixels from its header alone (0 when the header cannot be read: OpenCV says why)."""
    from PIL import Image

    guard, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None  # only the header is read: no bomb to fear
    try:
        with Image.open(path) as picture:
            width, height = picture.size
    except Exception:  # noqa: BLE001 - any unreadable header: left to OpenCV, which reports it in one line
        return 0
    finally:
        Image.MAX_IMAGE_PIXELS = guard
    return width * height


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
