"""Atomic output: a target path in, a temporary path to write that becomes the target only when complete.

A failed or interrupted build never leaves a partial file (or folder) at the
target, and an earlier file there stays intact until the new one is whole.
The new file's bytes (every file of a new folder) and the folder holding
them reach the disk before the rename, and the rename itself after it, so
a power cut leaves either the old file or the whole new one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_file(target: Path) -> Iterator[Path]:
    """Yield a temporary file beside `target`; on success it replaces `target`, on error it is removed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o644)
        _sync(temporary)
        os.replace(temporary, target)
        _sync(target.parent)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a temporary folder beside `target`; on success it replaces `target` whole."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent))
    try:
        yield temporary
        os.chmod(temporary, 0o755)
        for path in sorted(temporary.rglob("*")):
            if path.is_file() and not path.is_symlink():
                _sync(path)
        _sync(temporary)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
            os.replace(target, old / target.name)
            os.replace(temporary, target)
            _sync(target.parent)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(temporary, target)
            _sync(target.parent)
    finally:
        if temporary.exists():
            shutil.rmtree(temporary, ignore_errors=True)


def _sync(path: Path) -> None:
    """Flush `path` (a file or a folder's entries) to the disk."""
    descriptor = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
