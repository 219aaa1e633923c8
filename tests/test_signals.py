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


def test_a_signal_around_a_fork_is_answered_after_it_and_the_child_starts_with_it_held() -> None:
    """A Ctrl-C landing in a fork's hooks (logging's lock, in the parent) was printed and lost, and the batch
    finished with exit 0; one landing in a worker's first steps, before its handlers were set, printed a
    traceback. Held back around the fork, it is answered after it in the parent; the child starts with both
    signals held, and lets them in once its handlers are set."""
    import os
    import threading

    from printgen.signals import held_back, let_in

    previous = signal.getsignal(signal.SIGTERM)
    seen: list[str] = []
    signal.signal(signal.SIGTERM, lambda signum, frame: seen.append("answered"))
    try:
        with held_back():
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)  # (to this thread, which holds
            # it back: sent to the process, a thread of pytest-xdist's would take it)
            assert seen == []
            pid = os.fork()
            if pid == 0:  # the child: both held until it lets them in
                held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
                let_in()
                os._exit(0 if {signal.SIGINT, signal.SIGTERM} <= held
                         and not {signal.SIGINT, signal.SIGTERM} & signal.pthread_sigmask(signal.SIG_BLOCK, [])
                         else 1)
        assert seen == ["answered"]  # (answered as the block ends)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        signal.signal(signal.SIGTERM, previous)


@pytest.mark.parametrize("name, file", [
    ("__call__", "/usr/lib/python3.11/multiprocessing/util.py"),  # multiprocessing's Finalize
    ("cb", "<frozen importlib._bootstrap>"),  # importlib's module-lock weakref callback
    ("__del__", "anything.py"),
])
def test_the_garbage_collectors_callbacks_count_as_finalizers(name: str, file: str) -> None:
    """A SIGTERM sent to `build --all`'s process group landed in these (about 1 run in 30) and was printed as
    "Exception ignored" and dropped, by a preview worker or by the command itself."""
    import sys

    from printgen.signals import _finalizing

    namespace: dict[str, object] = {"here": sys._getframe}
    exec(compile(f"def {name}():\n    return here()\n", file, "exec"), namespace)  # noqa: S102 (a frame of that name)
    assert _finalizing(namespace[name]())  # type: ignore[operator]
    assert not _finalizing(sys._getframe())
