"""printgen.signals: a signal that lands in a finalizer is answered once the finalizer is done, not dropped."""

from __future__ import annotations

import signal
import time
import weakref

import pytest

from printgen.signals import unwind


class _Held:
    """Something with a finalizer, as pypdfium2's documents have."""


def test_a_ctrl_c_landing_in_a_finalizerunwinds_the_command_once_it_is_done() -> None:
    """Python prints an exception raised in a finalizer ("Exception ignored in: <finalize object ...>") and drops
    it: a Ctrl-C that landed there (0.2 s into a build, as the preview page's thumbnails were released) was lost,
    with a traceback on the screen, and the build went on."""
    ran = []

    def released() -> None:
        signal.raise_signal(signal.SIGINT)  # lands here: its handler runs before this finalizer returns
        ran.append("finalizer done")

    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, unwind)
    try:
        held = _Held()
        weakref.finalize(held, released)
        with pytest.raises(KeyboardInterrupt):
            del held
            ran.append("out of it")
            time.sleep(2)  # (answered here, within milliseconds)
            ran.append("never")
        assert ran == ["finalizer done", "out of it"]
        assert signal.getsignal(signal.SIGINT) is not unwind  # answered once: later ones are ignored
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
