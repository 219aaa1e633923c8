"""Worker processes: a forked worker and its parent's process id in, a worker that dies with that parent out.

A batch's jobs (and the preview page's thumbnails) run in forked worker
processes. Killed with kill -9, the parent cannot stop them, so each worker
asks the kernel for SIGTERM when its parent dies (Linux: prctl
PR_SET_PDEATHSIG; elsewhere a thread watches os.getppid()), which unwinds
it like any SIGTERM and removes its partial file; and it puts no file into
place once its parent is gone (printgen.output checks just before each
rename), so an earlier file is never replaced after the batch has ended.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from functools import cache
from types import FrameType
from typing import Any

PR_SET_PDEATHSIG = 1
"""prctl(2): the signal this process gets when the thread that forked it ends (linux/prctl.h)."""
WATCH_SECONDS = 0.25
"""How often a worker looks for its parent where the kernel cannot tell it (not Linux)."""


def die_with(parent: int) -> None:
    """Make this worker get SIGTERM when process `parent` (which forked it) is gone, and refuse to put any file
    into place from then on."""
    from printgen.output import refuse_renames_unless

    refuse_renames_unless(lambda: os.getppid() == parent)
    if not _death_signal(signal.SIGTERM):
        threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()
    if os.getppid() != parent:  # gone before the request took hold
        os.kill(os.getpid(), signal.SIGTERM)


def pool_worker(parent: int, on_sigterm: Any = None) -> None:
    """A pool's worker's start (its `initializer`): it leaves Ctrl-C to `parent` (a Ctrl-C to the process group
    raised in a worker waiting for work printed a traceback; the parent stops handing work out), answers SIGTERM
    with `on_sigterm` (by default `_stop_idle`: quietly where it waits for work), lets in the signals held back
    since its fork (`printgen.signals.held_back`) and dies with `parent`."""
    from printgen.signals import let_in

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop_idle if on_sigterm is None else on_sigterm)
    let_in()
    die_with(parent)


def _stop_idle(signum: int, frame: FrameType | None) -> None:
    """SIGTERM in a pool's worker (`_stage`): a piece of work unwinds as any command does
    (`printgen.signals.unwind`), removing its partial files; a worker waiting for work ends at once with
    SIGTERM's exit code and quietly (SystemExit, which the pool's process start takes as an exit, after the
    queue's lock is let go: the exception `unwind` raises was printed as a traceback there, when SIGTERM came to
    the whole process group); one handing a result back is asked again once the result is through (every
    AGAIN_SECONDS, by SIGALRM: an exception there is sent back as the result, and the worker went on); one still
    starting (its `initializer`, where the pool prints any exception) leaves at once, having written nothing."""
    from printgen.signals import AGAIN_SECONDS, EXITS, in_finalizer, let_unwind, unwind

    if in_finalizer(signum, frame):  # (answered again once the finalizer is done)
        return
    stage = _stage(frame)
    if stage == "work":
        unwind(signum, frame)
        return
    if stage == "sending" and hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, lambda _, later: _stop_idle(signum, later))
        signal.setitimer(signal.ITIMER_REAL, AGAIN_SECONDS)
        return
    signal.signal(signal.SIGTERM, let_unwind)  # (a Python handler: see `let_unwind`)
    if stage == "start":
        os._exit(EXITS[signum][0])
    raise SystemExit(EXITS[signum][0])


@cache
def _pool_code() -> tuple[str, ...]:
    """The folders of the standard library's process pools (multiprocessing's and concurrent.futures'), found
    once (a signal handler asks)."""
    import concurrent.futures
    import multiprocessing

    return tuple(os.path.dirname(module.__file__ or "") + os.sep for module in (multiprocessing, concurrent.futures))


def _stage(frame: FrameType | None) -> str:
    """What a pool's worker does at `frame`: "idle" where only the pools' own code (`_pool_code`) lies between it
    and the worker's loop (concurrent.futures' `_process_worker`), waiting for work; "sending" where it hands a
    result back (`_sendback_result`); "start" in the worker's `initializer` (the loop has no piece of work,
    `call_item`, yet); else "work"."""
    here, pool_only, pool = frame, True, _pool_code()
    while here is not None:
        if here.f_code.co_name == "_sendback_result":
            return "sending"
        if here.f_code.co_name == "_process_worker":
            return "idle" if pool_only else "work" if "call_item" in here.f_locals else "start"
        pool_only = pool_only and here.f_code.co_filename.startswith(pool)
        here = here.f_back
    return "work"


def _death_signal(signum: int) -> bool:
    """Ask the kernel for `signum` when the parent dies; False where it cannot be asked."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)
