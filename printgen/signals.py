"""Signals printgen answers: a signal in, one line and exit 130 (Ctrl-C) or 143 (SIGTERM) out.

Set through `_signal`, the builtin module under `signal` (`signal` itself
builds enums first, which takes milliseconds): `printgen.launch` sets them
before anything else is imported, `printgen.cli` while a command works.
"""

from __future__ import annotations

import _signal
import os
import sys

TYPE_CHECKING = False  # (typing itself takes longer to import than all of this module)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

EXITS = {_signal.SIGINT: (130, "interrupted"), _signal.SIGTERM: (143, "terminated")}
"""Exit code and word for each signal printgen answers."""


def stop_now(signum: int, frame: object) -> None:
    """A signal while nothing is being written: say so in one line and exit 130 or 143 at once."""
    for other in EXITS:  # a second signal must not add a second line
        _signal.signal(other, _signal.SIG_IGN)
    code, word = EXITS[signum]
    try:
        sys.stdout.flush()  # what the command already said (e.g. "wrote ...") is not lost
    except Exception:  # noqa: BLE001, S110 - a flush cut in two by the signal: its lines are lost, the answer is not
        pass
    os.write(2, f"Error: {word}; no partial file was left behind\n".encode())
    os._exit(code)


AGAIN_SECONDS = 0.005
"""How soon a signal that landed in a finalizer is looked at again."""
_HELD_BACK: list[int] = []
"""The signal that landed in a finalizer, until it is answered."""


def in_finalizer(signum: int, frame: object) -> bool:
    """Whether a signal landed in a finalizer (a `__del__` or a weakref.finalize callback, which pypdfium2's
    documents have), where an exception raised by its handler would be printed and dropped: then it is held
    back and answered by its handler as soon as the finalizer is done (looked at again every AGAIN_SECONDS, by
    SIGALRM: sending it again at once would only land in the finalizer again); where there is no SIGALRM, it is
    answered where it landed."""
    if not _finalizing(frame) or not hasattr(_signal, "setitimer"):
        return False
    if not _HELD_BACK:
        _HELD_BACK.append(signum)
        _signal.signal(_signal.SIGALRM, _answer_held_back)
        _signal.setitimer(_signal.ITIMER_REAL, AGAIN_SECONDS)
    return True


def _answer_held_back(signum: int, frame: object) -> None:
    if _finalizing(frame):
        _signal.setitimer(_signal.ITIMER_REAL, AGAIN_SECONDS)
        return
    _signal.signal(_signal.SIGALRM, _signal.SIG_DFL)
    held = _HELD_BACK.pop()
    handler = _signal.getsignal(held)
    if callable(handler):
        handler(held, frame)


FINALIZERS = {("__call__", "weakref.py"), ("__call__", os.path.join("multiprocessing", "util.py")),
              ("cb", "<frozen importlib._bootstrap>")}
"""(function, file name's end) of the callbacks Python runs from its garbage collector, whose exceptions it prints
and drops besides any `__del__`: weakref.finalize's, multiprocessing's Finalize and importlib's module-lock
weakref callback (all seen to swallow a SIGTERM sent to a process group)."""


def _finalizing(frame: object) -> bool:
    here = frame
    while here is not None:
        code = here.f_code  # type: ignore[attr-defined]
        if code.co_name == "__del__" or any(code.co_name == name and code.co_filename.endswith(end)
                                            for name, end in FINALIZERS):
            return True
        here = here.f_back  # type: ignore[attr-defined]
    return False


def unwind(signum: int, frame: object) -> None:
    """A command's first Ctrl-C or SIGTERM (once out of any finalizer it landed in): raise KeyboardInterrupt or
    printgen.errors.Terminated where the program is, so it unwinds and removes its temporary files; later ones
    are ignored (`let_unwind`), so nothing cuts that removal short."""
    if in_finalizer(signum, frame):
        return
    _signal.signal(_signal.SIGTERM, let_unwind)
    _signal.signal(_signal.SIGINT, let_unwind)
    if signum == _signal.SIGINT:
        raise KeyboardInterrupt
    from printgen.errors import Terminated  # (loaded long before, by the command that runs)

    raise Terminated()


def let_unwind(signum: int, frame: object) -> None:
    """A later signal while the first unwinds a command: nothing. (A Python handler, not SIG_IGN: a signal that
    arrived just before SIG_IGN was set would make Python raise "OSError: Signal 15 ignored due to race
    condition" in the middle of the unwinding, where it would end as a traceback.)"""


STOPPING = {_signal.SIGINT, _signal.SIGTERM}


def hold() -> set[int]:
    """Hold back SIGINT and SIGTERM in this thread (Python answers them in the main thread) until `give_back`;
    the signals held before, to give back."""
    return set(_signal.pthread_sigmask(_signal.SIG_BLOCK, STOPPING))


def give_back(held: set[int]) -> None:
    """Let SIGINT and SIGTERM in again (unless they were held before `hold`); one that came meanwhile is answered
    now."""
    _signal.pthread_sigmask(_signal.SIG_SETMASK, held)


class held_back:
    """SIGINT and SIGTERM held back in this thread while it lasts (`hold`), and answered after: around a fork,
    whose hooks in the parent (logging's lock) and whose child's first steps (before its own handlers are set)
    would print a handler's exception and lose it. The child starts with them held: it lets them in (`let_in`)
    once its handlers are set."""

    def __enter__(self) -> None:
        self._before = hold()

    def __exit__(self, *exc: object) -> None:
        give_back(self._before)


def let_in() -> None:
    """Let SIGINT and SIGTERM in, in a child forked while they were `held_back` (its handlers now set)."""
    _signal.pthread_sigmask(_signal.SIG_UNBLOCK, STOPPING)


def answer_signals(handler: Callable[[int, Any], None]) -> None:
    """Let `handler` answer Ctrl-C unless it is ignored (as a shell ignores it for a background job, which Python
    respects too), and SIGTERM. SIGTERM comes last: once it is answered (as /proc shows), so is Ctrl-C."""
    if _signal.getsignal(_signal.SIGINT) is not _signal.SIG_IGN:
        _signal.signal(_signal.SIGINT, handler)
    _signal.signal(_signal.SIGTERM, handler)
