"""Safe output: a target path in, a temporary path to write that becomes the target only when complete.

A failed or interrupted build never leaves a partial file (or folder) at the
target, and an earlier file there stays intact until the new one is whole.
The new file's bytes (every file of a new folder) and the folder holding
them reach the disk before the rename, and the rename itself after it, so a
power cut leaves either the old file or the whole new one.

printgen replaces only regular files (and folders it writes whole): a
target that is a symbolic link, a device, a FIFO or a socket is refused
with one line and left untouched, and no folder printgen fills or replaces
is reached through a symbolic link. Two processes replacing the same
folder at once take turns (a lock on the parent folder) and both end in one
whole folder.

Leftovers are judged by locks, never by process ids (which say nothing about
a writer in another container sharing the volume, or on another NFS
client): the writer holds an exclusive `flock` on its temporary file
(`.NAME.PID.xxxxxxxx.part`) from its creation until it is renamed or
removed; a folder's writer holds it on a lock file beside the folder
(`.NAME.PID.xxxxxxxx.lock`, created before the folder `....part` and its
`....old` and removed after them). The kernel drops the lock when the writer
dies, even by kill -9, so a later build removes a temporary file or folder
only when it can take that lock itself (on a file system without locks, it
removes none). A worker whose batch is gone puts
nothing into place (`refuse_renames_unless`).

Flushing costs a disk round trip each, so printgen flushes each finished
file once and each folder once: inside `folders_flushed_once()` (a build,
with its preview page) the folders that files were renamed into are
flushed once on the way out instead of after every rename. Files that are
only a cache checked when read back (the preview page's thumbnails) are
not flushed at all (`atomic_file(..., flush=False)`).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from printgen.errors import PrintgenError, UsageProblem
from printgen.signals import give_back, hold


def _kind(mode: int) -> str:
    for test, word in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISREG, "a file")):
        if test(mode):
            return word
    return "not a regular file or folder"


def special(path: Path) -> str | None:
    """What `path` is when it is there and no regular file ("a folder", "a device", ...: followed through links),
    else None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _kind(mode)


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
    except NotADirectoryError:  # a file where the path needs a folder (OUT/a.pdf with OUT a file)
        blocking = next((p for p in reversed(target.parents) if p.exists() and not p.is_dir()), target.parent)
        raise UsageProblem(f"{target}: cannot be written, {blocking} is a file, not a folder") from None
    if not allowed(mode):
        raise UsageProblem(f"{target}: is {_kind(mode)}; printgen replaces only {what}, so it was left untouched")


def check_writable(target: Path, made: bool = False, named: str = "",
                   problem: type[PrintgenError] = UsageProblem) -> None:
    """UsageProblem unless a file can be made beside `target` (tried with an empty temporary file, removed at
    once): for a command that works a long time before it writes (a folder of photos read, then annotated, or
    a batch's jobs built). `made`: the folders up to `target` are made as it is written, so the file is tried in
    the nearest one there is (a read-only disk is said before any job builds, not by every job). `named` names
    the target in the message; `problem` is raised (a folder the user named: UsageProblem; the disk: PrintgenError)."""
    where = target.parent
    while made and not os.path.lexists(where) and where != where.parent:
        where = where.parent
    held = hold()  # (a signal between the probe's making and its removal would leave it behind)
    try:
        descriptor, probe = tempfile.mkstemp(dir=where, prefix=_prefix(target), suffix=".part")
        os.close(descriptor)
        Path(probe).unlink(missing_ok=True)  # (another build's cleanup may have taken it first: it holds no lock)
    except OSError as error:
        raised = UsageProblem if isinstance(error, NotADirectoryError) else problem  # (a file in the path named)
        raise raised(f"{named or target}: cannot be written: {error.strerror or error}") from None
    finally:
        give_back(held)


def safe_folder(folder: Path) -> None:
    """Make sure `folder` is a real folder (created if missing), not reached through a symbolic link."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        folder.mkdir(parents=True, exist_ok=True)
        return
    if not stat.S_ISDIR(mode):
        raise UsageProblem(f"{folder}: is {_kind(mode)}, not a folder printgen may write into")


_UNFLUSHED: ContextVar[tuple[int, dict[str, None]] | None] = ContextVar("unflushed_folders", default=None)
"""Inside `folders_flushed_once`: the process that opened it and the folders renamed into and not flushed yet (in
order). A process forked inside it (a preview worker) inherits the value but not the duty: it counts as outside."""


def _pending() -> dict[str, None] | None:
    """The folders this process is to flush on leaving `folders_flushed_once`; None outside it."""
    scope = _UNFLUSHED.get()
    return scope[1] if scope is not None and scope[0] == os.getpid() else None


@contextmanager
def folders_flushed_once() -> Iterator[None]:
    """Within this, every folder a file or folder is renamed into is flushed to disk once, on the way out (also
    when an error leaves), instead of after each rename. Nested, the outermost flushes."""
    if _pending() is not None:
        yield
        return
    pending: dict[str, None] = {}
    token = _UNFLUSHED.set((os.getpid(), pending))
    try:
        yield
    except BaseException:
        _UNFLUSHED.reset(token)
        for folder in pending:
            try:
                _sync(Path(folder))
            except OSError:  # the error already leaving says what went wrong
                pass
        raise
    _UNFLUSHED.reset(token)
    for folder in pending:
        _sync(Path(folder))


@contextmanager
def folders_flushed_by_parent() -> Iterator[None]:
    """Within this (a worker process), no folder is flushed: its parent flushes the folders its workers wrote
    into once they are done (`flush_folder`)."""
    token = _UNFLUSHED.set((os.getpid(), {}))
    try:
        yield
    finally:
        _UNFLUSHED.reset(token)


def flush_folder(folder: Path) -> None:
    """Flush `folder`'s entries (renames in it) to disk now, or once at the end of `folders_flushed_once`."""
    pending = _pending()
    if pending is None:
        _sync(folder)
    else:
        pending[os.path.abspath(folder)] = None


@contextmanager
def atomic_file(target: Path, flush: bool = True) -> Iterator[Path]:
    """Yield a temporary file beside `target`, locked while it is written; on success it replaces `target`, on
    error it is removed. `flush=False` (a cache that its reader checks) leaves flushing to the system."""
    check_file_target(target)
    descriptor, temporary, held = _claim_beside(target, ".part")
    try:
        give_back(held)  # one that came meanwhile is answered here, where the file is removed on the way out
        with _naming(target):
            yield temporary
            os.chmod(temporary, 0o644)
            if flush:
                _sync(temporary)
            check_file_target(target)
            _may_rename()
            os.replace(temporary, target)
            if flush:
                flush_folder(target.parent)
    finally:
        temporary.unlink(missing_ok=True)
        _release(descriptor, temporary)


@contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a temporary folder beside `target` (its lock file held while it is written); on success it replaces
    `target` whole."""
    check_folder_target(target)
    descriptor, lock, held = _claim_beside(target, ".lock")
    temporary, old = _sibling(lock, "part"), _sibling(lock, "old")
    try:
        give_back(held)  # one that came meanwhile is answered here, where the lock file is removed
        with _naming(target):
            _new_folder(temporary)
            yield temporary
        with _naming(target):
            _write_folder(target, temporary, old)
    finally:
        for folder in (temporary, old):
            if os.path.lexists(folder):
                shutil.rmtree(folder, ignore_errors=True)
        lock.unlink(missing_ok=True)  # while still held: a cleanup never takes a lock file that is in use
        _release(descriptor, lock)


def _write_folder(target: Path, temporary: Path, old: Path) -> None:
    """Flush the whole `temporary` folder to disk and put it in place of `target` (the earlier one moved to
    `old` and back again if the move fails)."""
    os.chmod(temporary, 0o755)
    for path in sorted(temporary.rglob("*")):
        if path.is_file() and not path.is_symlink():
            _sync(path)
    _sync(temporary)
    with _locked(target.parent):
        check_folder_target(target)
        _may_rename()
        moved = False
        if target.exists():
            _new_folder(old)
            os.replace(target, old / target.name)
            moved = True
        try:
            os.replace(temporary, target)
        except BaseException:
            if moved:  # the earlier folder goes back where it was
                os.replace(old / target.name, target)
            raise
        flush_folder(target.parent)


@contextmanager
def _naming(target: Path) -> Iterator[None]:
    """An OSError while writing `target` that names no file (a full disk) or only printgen's hidden temporary
    file (a read-only file system) names `target`, the file the user asked for."""
    try:
        yield
    except OSError as error:
        if error.filename is None or _temporary_name(error.filename):
            raise OSError(error.errno, error.strerror or str(error), str(target)) from error
        raise


def _temporary_name(name: object) -> bool:
    """True for a path in one of printgen's temporary files or folders (`.NAME.PID.xxxxxxxx.part`)."""
    if not isinstance(name, str | bytes | Path):
        return False
    return any(LEFTOVER.fullmatch(part) for part in Path(os.fsdecode(name)).parts)


def _prefix(target: Path) -> str:
    return f".{target.name}.{os.getpid()}."


LEFTOVER = re.compile(r"\..+\.(\d+)\.[a-z0-9_]{8}\.(part|old|lock)")
"""A temporary name of printgen's: .NAME.PID.xxxxxxxx.part (or .old for a folder being replaced, .lock for the
lock file of a folder being written)."""

_HELD: set[str] = set()
"""The lock files and temporary files this process holds (absolute paths). Its own cleanup never tests them:
on some file systems (NFS) a second lock from the same process would be granted."""

_RENAME_ALLOWED: list[Callable[[], bool]] = []
"""Tests a temporary file must pass before it is renamed into place (see `refuse_renames_unless`)."""


def refuse_renames_unless(test: Callable[[], bool]) -> None:
    """From now on, put no file or folder into place unless `test()` holds (a batch worker: while its batch still
    runs); otherwise the write is undone as if SIGTERM had arrived (Terminated)."""
    _RENAME_ALLOWED.append(test)


def _may_rename() -> None:
    if not all(test() for test in _RENAME_ALLOWED):
        from printgen.errors import Terminated

        raise Terminated()


def _claim_beside(target: Path, suffix: str) -> tuple[int, Path, set[int]]:
    """A new hidden file beside `target` ending in `suffix`, claimed (see `_claim`) after older leftovers are
    removed, with SIGINT and SIGTERM held back: its descriptor, its path and the signals to give back to
    `give_back` once the caller's cleanup of the file is in place (at once if it could not be made)."""
    held = hold()
    try:
        with _naming(target):
            target.parent.mkdir(parents=True, exist_ok=True)
            remove_leftovers(target)
            descriptor, path = _claim(lambda: tempfile.mkstemp(prefix=_prefix(target), suffix=suffix,
                                                               dir=target.parent))
    except BaseException:
        give_back(held)
        raise
    return descriptor, path, held


def _claim(make: Callable[[], tuple[int, str]]) -> tuple[int, Path]:
    """A new file from `make` (tempfile.mkstemp) and its open descriptor, locked (flock, exclusive) until
    `_release`. Should another process's cleanup remove the file between its creation and the lock, a new one is
    made."""
    while True:
        descriptor, name = make()
        if _lock(descriptor) is not False and _is(descriptor, name):
            _HELD.add(os.path.abspath(name))
            return descriptor, Path(name)
        os.close(descriptor)


def _release(descriptor: int, path: Path) -> None:
    _HELD.discard(os.path.abspath(path))
    os.close(descriptor)  # drops the lock


NO_LOCKS = {errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EINVAL}
"""What flock says on a file system without locks (some FUSE and network mounts)."""


def _lock(descriptor: int) -> bool | None:
    """Take the exclusive lock on an open file without waiting: True if taken, False if another holds it, None
    where the file system has no locks (its files are then written unlocked, and no cleanup removes them)."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return False
        if error.errno in NO_LOCKS:
            return None
        raise
    return True


def _is(descriptor: int, name: str | Path) -> bool:
    """True when `name` is still the file open as `descriptor` (not removed or replaced meanwhile)."""
    try:
        found, held = os.lstat(name), os.fstat(descriptor)
    except OSError:
        return False
    return (found.st_dev, found.st_ino) == (held.st_dev, held.st_ino)


def _sibling(lock: Path, kind: str) -> Path:
    """The temporary folder (`part`) or the earlier folder's holder (`old`) that lock file `lock` covers."""
    return lock.with_name(lock.name.removesuffix(".lock") + f".{kind}")


def _new_folder(folder: Path) -> None:
    """Make `folder` (private until it is renamed). One of that name can only be a leftover: its lock file, which
    is created first and removed last, did not exist when ours was made."""
    if os.path.lexists(folder):
        _remove(folder)
    os.mkdir(folder, 0o700)


def _remove(path: Path) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def remove_leftovers(target: Path) -> None:
    """Remove the temporary files and folders in `target`'s folder that no writer holds (left by a build killed
    with kill -9, in any process or container); those being written stay."""
    remove_leftovers_in(target.parent)


def remove_leftovers_in(folder: Path) -> None:
    """Remove the temporary files and folders in `folder` whose lock no one holds (taking that lock first)."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = LEFTOVER.fullmatch(entry.name)
        path = Path(entry.path)
        if not match or os.path.abspath(path) in _HELD:
            continue
        if match[2] == "lock":  # a folder's lock file: if free, the folders it covers and then itself
            _remove_unless_held(path, (_sibling(path, "part"), _sibling(path, "old")))
        elif os.path.lexists(path.with_name(path.name[: -len(match[2])] + "lock")):
            continue  # its lock file decides (above)
        elif entry.is_dir(follow_symlinks=False):
            shutil.rmtree(path, ignore_errors=True)  # a folder is written only while its lock file exists
        elif entry.is_file(follow_symlinks=False):
            _remove_unless_held(path, ())  # a temporary file holds its own lock


def _remove_unless_held(lock: Path, covered: tuple[Path, ...]) -> None:
    """Take the lock on regular file `lock`; if no one holds it, remove what it covers, then `lock` itself."""
    try:
        descriptor = os.open(lock, os.O_RDWR | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return  # cannot tell (another user's file, a link): keep it
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode) or _lock(descriptor) is not True or not _is(descriptor, lock):
            return  # held (or no locks to tell by): kept
        for path in covered:
            if os.path.lexists(path):
                _remove(path)
        lock.unlink(missing_ok=True)
    finally:
        os.close(descriptor)


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` (its own inode: nothing is left behind) while swapping inside it (where
the file system has locks)."""
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        except OSError as error:  # (NFS takes an exclusive lock only on what is open for writing, which a folder
            if error.errno not in NO_LOCKS | {errno.EBADF}:  # cannot be: there, the swap goes unlocked)
                raise
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
