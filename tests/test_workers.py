"""Worker processes die with their batch, even one killed with kill -9, and put nothing into place after it."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.test_failures import running_with

SLOW = "".join(f'[[jobs]]\nlayout = "qwixx-big-points"\nsheets = 100000\noutput = "{i}"\n' for i in range(2))
"""Two jobs that each take seconds: a batch runs them in two worker processes at once."""


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll `condition` until it holds or `seconds` have passed; whether it held."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_batch_killed_with_kill_9_takes_its_workers_with_it(tmp_path: Path) -> None:
    manifest = tmp_path / "slow.toml"
    manifest.write_text(SLOW)
    out = tmp_path / "out"
    out.mkdir()
    for name in ("0.pdf", "1.pdf"):
        (out / name).write_bytes(b"the earlier file")
    batch = subprocess.Popen([sys.executable, "-m", "printgen", "batch", str(manifest), "--out", str(out), "-j", "2",
                              "-q"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    writing = _wait_for(lambda: len(list(out.glob(".*.part"))) == 2 or batch.poll() is not None, 60)
    assert writing and batch.poll() is None, "the workers never started writing"
    workers = [pid for pid in running_with(str(manifest)) if pid != batch.pid]
    assert len(workers) == 2
    batch.send_signal(signal.SIGKILL)
    batch.wait(30)
    assert _wait_for(lambda: not running_with(str(manifest)), 10), "a worker outlived its batch"
    assert sorted(p.name for p in out.iterdir()) == ["0.pdf", "1.pdf"]  # nothing renamed, no partial file left
    assert all((out / name).read_bytes() == b"the earlier file" for name in ("0.pdf", "1.pdf"))


ORPHAN = """
import os, signal, sys
from pathlib import Path
signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as if the death signal were late: the rename must still be refused
from printgen.errors import Terminated
from printgen.output import atomic_file
from printgen.workers import die_with
die_with(os.getppid() + 1)  # the worker's batch: not its parent any more
try:
    with atomic_file(Path(sys.argv[1])) as temporary:
        temporary.write_text("the new file")
except Terminated:
    print("refused")
"""


def test_a_worker_whose_batch_is_gone_renames_nothing_into_place(tmp_path: Path) -> None:
    target = tmp_path / "pad.pdf"
    target.write_text("the earlier file")
    done = subprocess.run([sys.executable, "-c", ORPHAN, str(target)], capture_output=True, text=True, timeout=60,
                          check=True)
    assert done.stdout == "refused\n", done.stderr
    assert target.read_text() == "the earlier file" and [p.name for p in tmp_path.iterdir()] == ["pad.pdf"]



POOL = """
import multiprocessing, os, signal, time
from concurrent.futures import ProcessPoolExecutor
from printgen.signals import unwind
from printgen.workers import pool_worker

signal.signal(signal.SIGTERM, unwind)  # as a command's own handler, which the forked workers inherit


def busy():
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)
    except BaseException as error:
        return os.getpid(), type(error).__name__
    return os.getpid(), "done"


def starting(parent):
    pool_worker(parent)
    os.kill(os.getpid(), signal.SIGTERM)  # still in the initializer


with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"), initializer=pool_worker,
                         initargs=(os.getpid(),)) as pool:
    me, what = pool.submit(busy).result()
    (other,) = [worker for worker in multiprocessing.active_children() if worker.pid != me]
    time.sleep(1)  # (its start done)
    os.kill(other.pid, signal.SIGTERM)  # waiting for work
    deadline = time.monotonic() + 30
    while other.exitcode is None and time.monotonic() < deadline:  # (the pool's own thread may reap it first;
        other.join(0.1)  # its exit code then shows once that thread has it)
    print(what, other.exitcode)
with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"), initializer=starting,
                         initargs=(os.getpid(),)) as pool:
    try:
        pool.submit(busy).result()
    except Exception as error:
        print(type(error).__name__)
"""


def test_a_pool_worker_unwinds_its_work_on_sigterm_and_ends_quietly_while_waiting_for_more(tmp_path: Path) -> None:
    """SIGTERM to a whole process group found idle preview workers waiting for their next PDF, where the
    exception of printgen's handler was printed as a traceback by the pool."""
    script = tmp_path / "pool.py"
    script.write_text(POOL)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "Terminated 143\nBrokenProcessPool\n", "")
