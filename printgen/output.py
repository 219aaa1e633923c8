"""Safe output: a target path in, a temporary path to write that becomes the target only when complete.

A failed or interrupted build never leaves a partial file (or folder) at the
target, and an earlier file there stays intact until the new one is whole.
printgen replaces only regular files (and folders it writes whole): a
target that is a symbolic link, a device, a FIFO or a socket is refused
with one line and left untouched, and no folder printgen fills or replaces
is reached through a symbolic link.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from printgen.errors import UsageProblem


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return word
    return "not a regular file"


def check_file_target(target: Path) -> None:
    """UsageProblem unless `target` is a regular file or does not exist."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISREG(mode):
        raise UsageProblem(f"{target}: is {_kind(mode)}; printgen replaces only regular files, so it was "
                           "left untouched")


def safe_folder(folder: Path) -> None:
    """Make sure `folder` is a real folder (created if missing), not reached through a symbolic link."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        folder.mkdir(parents=True, exist_ok=True)
        return
    if not stat.S_ISDIR(mode):
        raise UsageProblem(f"{folder}: is {_kind(mode)}, not a folder printgen may write into")


@contextmanager
def atomic_file(target: Path) -> Iterator[Path]:
    """Yield a temporary file beside `target`; on success it replaces `target`, on error it is removed."""
    check_file_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, 0o644)
        check_file_target(target)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a temporary folder beside `target`; on success it replaces `target` whole."""
    try:
        mode = os.lstat(target).st_mode
        if not stat.S_ISDIR(mode):
            raise UsageProblem(f"{target}: is {_kind(mode)}; printgen replaces only folders it writes")
    except FileNotFoundError:
        pass
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent))
    try:
        yield temporary
        os.chmod(temporary, 0o755)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
            os.replace(target, old / target.name)
            os.replace(temporary, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(temporary, target)
    finally:
        if temporary.exists():
            shutil.rmtree(temporary, ignore_errors=True)
