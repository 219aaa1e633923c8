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


def let_unwind(signum: int, frame: object) -> None:
    """A later signal while the first unwinds a command: nothing. (A Python handler, not SIG_IGN: a signal that
    arrived just before SIG_IGN was set would make Python raise "OSError: Signal 15 ignored due to race
    condition" in the middle of the unwinding, where it would end as a traceback.)"""


def answer_signals(handler: Callable[[int, Any], None]) -> None:
    """Let `handler` answer Ctrl-C unless it is ignored (as a shell ignores it for a background job, which Python
    respects too), and SIGTERM. SIGTERM comes last: once it is answered (as /proc shows), so is Ctrl-C."""
    if _signal.getsignal(_signal.SIGINT) is not _signal.SIG_IGN:
        _signal.signal(_signal.SIGINT, handler)
    _signal.signal(_signal.SIGTERM, handler)
