"""Reading a folder's photos on every core: photo paths and a reader in, each photo's readings out, in order.

`printgen score` reads each photo on its own (printgen.scan.score); this
module only spreads those photos over forked worker processes, one photo at
a time each, and hands the results back in the order the photos were given,
as soon as each is ready. One photo, or one core, is read in this process.
Workers write nothing: an annotated picture is written by the parent, which
then asks for each photo's pixels back. They ignore Ctrl-C (the parent
unwinds and ends them) and die with the parent (printgen.workers); each keeps
the memory one photo's reading frees for the next, and gives OpenCV only the
cores the other workers leave.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from printgen.signals import held_back

MAX_WORKERS = 8
"""Most photos read at once (each worker holds one photo's pixels, up to a few hundred MB)."""

STOP_SECONDS = 5.0
"""How long a stopped worker is waited for."""
KEEP_FREED = ((-3, 2**30), (-1, 2**31 - 1), (-2, 2**28))
"""glibc mallopt(3) settings of a worker (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, M_TOP_PAD): blocks up to 1 GB come
from the heap, which is never trimmed and grows 256 MB at a time, so what one photo's reading frees serves the
next one's (by default glibc hands large blocks back to the system and faults fresh pages in again, zeroed one
by one: a tenth of a photo's CPU). A worker ends with the reading, and its memory with it."""
_READER: Any = None
"""The reader of this worker process (set before the fork, so it is never pickled)."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not Linux)
        return os.cpu_count() or 1


def read_photos(paths: list[Path], reader: Any, keep_pixels: bool,
                workers: int | None = None) -> Iterator[tuple[Path, Any, list[Any]]]:
    """Each photo of `paths` (in order), its pixels (only if `keep_pixels`, else None) and the sheets read from
    it, read in up to `workers` processes (default: every core, at most MAX_WORKERS)."""
    from printgen.scan.score import score

    count = min(len(paths), workers or cores(), MAX_WORKERS)
    if count < 2:
        for path, image, results in score(paths, reader):
            yield path, image if keep_pixels else None, results
        return
    yield from _in_workers(paths, reader, keep_pixels, count)


def _in_workers(paths: list[Path], reader: Any, keep_pixels: bool, count: int) -> Iterator[tuple[Path, Any, list[Any]]]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import cv2

    global _READER
    _READER = reader
    threads = cv2.getNumThreads()
    cv2.setNumThreads(_opencv_threads(count))  # for the workers forked from here; put back when the reading
    # ends (set in a worker, forked from a process whose OpenCV threads have run, it deadlocks)
    pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("fork"), initializer=_start,
                               initargs=(os.getpid(),))
    try:
        with held_back():  # (the workers are forked as the photos are handed out: see printgen.signals.held_back)
            read = pool.map(_read, paths, [keep_pixels] * len(paths))
        for pictures in read:
            yield from pictures
    except BaseException:  # Ctrl-C, a closed pipe: the photos not yet read are dropped, the workers ended
        processes = list((getattr(pool, "_processes", None) or {}).values())
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=STOP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
        if manager is not None:  # it reaps the workers too: until it has, a worker may still look alive
            manager.join(STOP_SECONDS)
        raise
    else:
        pool.shutdown(wait=True)
    finally:
        _READER = None
        cv2.setNumThreads(threads)


def _opencv_threads(count: int) -> int:
    """The threads each of `count` workers runs OpenCV on: the cores the workers leave (where they fill every
    core, more threads in each would only wait for each other, at a cost in CPU: about 2 % of a photo's)."""
    return max(1, cores() // count)


def _start(parent: int) -> None:
    """A worker's start: as any pool's (`pool_worker`: Ctrl-C is its parent's, it dies with it), and it dies at
    once when told to (not by the parent's own SIGTERM handling, which a fork inherits); freed memory is kept for
    the next photo."""
    import signal

    from printgen.workers import pool_worker

    pool_worker(parent, signal.SIG_DFL)
    _keep_freed_memory()


def _keep_freed_memory() -> None:
    """Keep what a photo's reading frees in this worker for the next photo (KEEP_FREED; where the C library is
    not glibc, nothing changes)."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    for option, value in KEEP_FREED:
        mallopt(option, value)


def _read(path: Path, keep_pixels: bool) -> list[tuple[Path, Any, list[Any]]]:
    """One photo file read in a worker (as printgen.scan.score reads it in the parent): each of its pictures (a
    PDF's pages) with the sheets read from it."""
    from printgen.scan.score import score

    return [(found, image if keep_pixels else None, results) for found, image, results in score([path], _READER)]
