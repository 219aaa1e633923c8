"""Safe output: a target path in, a temporary path to write that becomes the target only when complete.

A failed or interrupted build never leaves a partial file (or folder) at the
target, and an earlier file there stays intact until the new one is whole.
The new file's bytes (every file of a new folder) and the folder holding
them reach the disk before the rename, and the rename itself after it, so a
power cut leaves either the old file or the whole new one.

printgen replaces only regular files (and folders it writes whole): a
target that is a symbolic link, a device, a FIFO or a socket is refused
with one line and left untouched, and no folder printgen fills or replaces
is reached through a symbolic link. Temporary names carry the writer's
process id (`.NAME.PID.xxxx.part`), so a later build removes what a killed
one (kill -9) left behind; two processes replacing the same folder at once
take turns (a lock on the parent folder) and both end in one whole folder.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from printgen.errors import UsageProblem


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISREG, "a file")):
        if test(mode):
            return word
    return "not a regular file or folder"


MAX_NAME = 200
"""Longest file name printgen writes, in bytes (its temporary name adds about 30 to that, below the usual
255-byte limit of file systems)."""


def check_file_target(target: Path) -> None:
    """UsageProblem unless `target` is a regular file or does not exist (and its name is not too long)."""
    _check_target(target, stat.S_ISREG, "regular files")


def check_folder_target(target: Path) -> None:
    """UsageProblem unless `target` is a real folder (not a link) or does not exist (and its name fits)."""
    _check_target(target, stat.S_ISDIR, "folders it writes")


def _check_target(target: Path, allowed: Callable[[int], bool], what: str) -> None:
    if len(target.name.encode("utf-8", "surrogateescape")) > MAX_NAME:
        raise UsageProblem(f"{target.name[:40]}...: a file name is at most {MAX_NAME} bytes long")
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return
    if not allowed(mode):
        raise UsageProblem(f"{target}: is {_kind(mode)}; printgen replaces only {what}, so it was left untouched")


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
    remove_leftovers(target)
    handle, name = tempfile.mkstemp(prefix=_prefix(target), suffix=".part", dir=target.parent)
    os.close(handle)
    temporary = Path(name)
    try:
        with _naming(target):
            yield temporary
        os.chmod(temporary, 0o644)
        _sync(temporary)
        check_file_target(target)
        os.replace(temporary, target)
        _sync(target.parent)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a temporary folder beside `target`; on success it replaces `target` whole."""
    check_folder_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(target)
    temporary = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".part", dir=target.parent))
    try:
        with _naming(target):
            yield temporary
        os.chmod(temporary, 0o755)
        for path in sorted(temporary.rglob("*")):
            if path.is_file() and not path.is_symlink():
                _sync(path)
        _sync(temporary)
        with _locked(target.parent):
            check_folder_target(target)
            old = None
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".old", dir=target.parent))
                os.replace(target, old / target.name)
            os.replace(temporary, target)
            _sync(target.parent)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if temporary.exists():
            shutil.rmtree(temporary, ignore_errors=True)


@contextmanager
def _naming(target: Path) -> Iterator[None]:
    """An OSError while writing `target` that names no file (a full disk) names `target`."""
    try:
        yield
    except OSError as error:
        if error.filename is None:
            raise OSError(error.errno, error.strerror or str(error), str(target)) from error
        raise


def _prefix(target: Path) -> str:
    return f".{target.name}.{os.getpid()}."


LEFTOVER = re.compile(r"\..+\.(\d+)\.[a-z0-9_]{8}\.(part|old)")
"""A temporary name of printgen's: .NAME.PID.xxxxxxxx.part (or .old for a folder being replaced)."""


def remove_leftovers(target: Path) -> None:
    """Remove the temporary files and folders in `target`'s folder left by printgen processes that no longer
    run (a build killed with kill -9); those of running processes stay."""
    remove_leftovers_in(target.parent)


def remove_leftovers_in(folder: Path) -> None:
    """Remove the temporary files and folders in `folder` left by printgen processes that no longer run."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = LEFTOVER.fullmatch(entry.name)
        if not match or _running(int(match[1])):
            continue
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` (its own inode: nothing is left behind) while swapping inside it."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def _sync(path: Path) -> None:
    """Flush `path` (a file or a folder's entries) to the disk."""
    descriptor = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if path.is_dir() else 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
