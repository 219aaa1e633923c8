"""Test helper: a reader that reads each picture once (the same pixels, the same name), for tests that hand the
same photos to the reader again and again to test what is done with a reading, not the reading itself."""

from __future__ import annotations

import copy
import hashlib
import threading

import numpy as np

from printgen.scan.reader import Reader, Result


class ReadOnce(Reader):
    """A reader that reads each picture once: a picture it has read before (the same pixels, the same name) gets a
    copy of what it read then. The reader reads the same pixels the same way every time (the scanner's tests test
    the reading), and the first reading of each picture is a real one. Pictures read before a fork are read once
    for the forked processes too (`printgen score`'s photo workers)."""

    def __init__(self) -> None:
        super().__init__()
        self.readings: dict[tuple[bytes, str], list[Result]] = {}
        self.lock = threading.Lock()

    def read_image(self, image: np.ndarray, name: str) -> list[Result]:
        pixels = hashlib.sha256(repr((image.shape, image.dtype.str)).encode())
        pixels.update(np.ascontiguousarray(image).data)
        key = (pixels.digest(), name)
        with self.lock:
            read = self.readings.get(key)
        if read is None:
            read = self.copy(self.first_reading(image, name))  # kept apart from what the caller may change
            with self.lock:
                self.readings[key] = read
        return self.copy(read)

    def copy(self, results: list[Result]) -> list[Result]:
        """A deep copy of `results` that shares the reader's layouts, as a new reading would."""
        return copy.deepcopy(results, {id(layout): layout for layout in self.layouts.values()})

    def first_reading(self, image: np.ndarray, name: str) -> list[Result]:
        """The real reading of a picture not read before."""
        return super().read_image(image, name)
