"""Reading uploads: a photo file's bytes in, each sheet's review and its picture (straightened, as JPEG) out, behind a bounded queue.

The reader is made once, when the server starts, and kept (no start-up per
photo). An upload goes through `printgen.scan.score.read_file`, the same
function `printgen score` gives a file's bytes, so an upload has the same
limits as a file: only pictures and PDFs by their first bytes, the pixel
limit before anything is decoded, bounded PDF pages. At most WORKERS
uploads are read at once, in threads: the server's event loop stays free
while they read, though the reader, mostly Python and NumPy, gains little
from the second thread (worker processes would, at the cost of a reader and
OpenCV per process and of workers to mind). At most WAITING are accepted at all: a slot is taken before the upload
is received, so memory stays bounded, and an upload that finds none is
refused at once (503) instead of queued without end.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import cv2
import numpy as np

from printgen.scan.documents import too_long
from printgen.scan.picture import HEIC_HINT
from printgen.scan.reader import Reader, SheetReading, Unreadable
from printgen.scan.report import uncertain_fields, where
from printgen.scan.review import Review
from printgen.scan.score import read_file
from printgen.serve.store import Figures

WORKERS = 2
"""Uploads read at once (this machine's cores)."""
WAITING = 24
"""Uploads accepted at once, read or waiting: twenty phones at a table all get in."""
PX_PER_MM = 7.0
"""How finely a sheet's straightened picture is kept: 1.3 MP for a 19 x 10 cm sheet, a phone screen's worth."""
MARGIN = 4.0
"""Photo kept round the sheet's edge in its picture, in mm."""
JPEG_QUALITY = 85
UPLOAD_NAME = "photo"
"""How reports name an upload: a client's file name is never used."""

LIBRARY_DETAIL = re.compile(r"(the .+ (?:is damaged or cut short|cannot be opened)) \(.*\)")
"""A reason `printgen.scan` gives with the decoding library's message in brackets."""

T = TypeVar("T")


class Busy(Exception):
    """Every slot of the queue is taken."""


@dataclass(frozen=True, slots=True)
class ReadSheet:
    """A sheet read from an upload: its review (nothing corrected yet) and its straightened picture (JPEG)."""

    review: Review
    picture: bytes


@dataclass(frozen=True, slots=True)
class Upload:
    """What an upload held: the sheets read, and one line for each picture or sheet that could not be read."""

    sheets: list[ReadSheet]
    unreadable: list[str]


class Queue:
    """At most `waiting` jobs accepted at once, `workers` of them run at once in threads."""

    def __init__(self, workers: int = WORKERS, waiting: int = WAITING, what: str = "uploads") -> None:
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix=f"printgen-{what}")
        self._free = waiting
        self.what = what

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold a slot (called on the event loop, so no lock is needed); Busy (naming what this queue holds)
        when none is free."""
        if self._free <= 0:
            raise Busy(self.what)
        self._free -= 1
        try:
            yield
        finally:
            self._free += 1

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """`job(*args)` in a worker thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, job, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def read_upload(data: bytes, reader: Reader) -> Upload:
    """Every sheet in an upload's bytes (every page of a PDF), read with `reader`; a PDF or TIFF of too many pages
    is refused before any page is read."""
    sheets: list[ReadSheet] = []
    unreadable: list[str] = []
    if (why := too_long(data)) is not None:
        return Upload(sheets, [f"{UPLOAD_NAME}: {why}"])
    for image, results in read_file(data, UPLOAD_NAME, reader):
        for result in results:
            if isinstance(result, Unreadable):
                unreadable.append(f"{where(result)}: {plain(result.reason)}")
            elif image is not None:
                sheets.append(ReadSheet(Review(result), sheet_picture(image, result)))
    return Upload(sheets, unreadable)


def plain(reason: str) -> str:
    """Why a photo could not be read, without the decoding library's own words (`Truncated File Read`,
    `PDFium: Data format error`), which say nothing to a player: what to do instead."""
    if reason == HEIC_HINT:  # a player cannot install anything on the server: what the phone can do instead
        return ("a HEIC picture, which this server cannot read (its host can install printgen's heic extra): set the "
                "camera to Most Compatible (JPEG), or send a screenshot of the photo")
    match = LIBRARY_DETAIL.fullmatch(reason)
    return f"{match.group(1)}: take or choose it again" if match else reason


def sheet_picture(image: np.ndarray, reading: SheetReading) -> bytes:
    """The sheet cut out of the photo and straightened (MARGIN mm round it, PX_PER_MM), as JPEG: sheet
    millimetres (less MARGIN) are its pixels over PX_PER_MM, so fields are drawn over it by their boxes."""
    layout = reading.layout
    width = round((layout.width + 2 * MARGIN) * PX_PER_MM)
    height = round((layout.height + 2 * MARGIN) * PX_PER_MM)
    to_mm = np.array([[1 / PX_PER_MM, 0, -MARGIN], [0, 1 / PX_PER_MM, -MARGIN], [0, 0, 1]])
    straight = cv2.warpPerspective(image, np.asarray(reading.to_photo) @ to_mm, (width, height),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=(235, 235, 235))
    ok, encoded = cv2.imencode(".jpg", straight, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("cannot encode the sheet's picture")
    return encoded.tobytes()


def figures(review: Review) -> Figures:
    """What the standings need of a sheet as it now stands."""
    verdict = review.reading.verdict
    return Figures(verdict.total, verdict.legal, len(uncertain_fields(review.reading)), tuple(verdict.problems))
