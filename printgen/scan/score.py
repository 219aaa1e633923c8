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
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
"""What an annotated picture may be written as (its name says which)."""


def photos(paths: list[Path]) -> list[Path]:
    """The photos to score: files as given, folders replaced by the photos in them (sorted by name)."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES)
            if not inside:
                raise UsageProblem(f"{path}: no photos in this folder ({', '.join(PHOTO_SUFFIXES)})")
            found += inside
        else:
            found.append(path)
    return found


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
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            yield path, None, [Unreadable(str(path), "not a picture this reader can open")]
            continue
        yield path, image, reader.read_image(image, str(path))


def annotation_target(base: Path, photo: Path, many: bool) -> Path:
    """Where the annotated picture of `photo` goes: `base` itself, or beside it named after the photo."""
    return base.with_name(f"{base.stem}-{photo.stem}{base.suffix}") if many else base


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
