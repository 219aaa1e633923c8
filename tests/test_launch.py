"""The printgen program: Ctrl-C and SIGTERM at any moment of a command (importing, reading its arguments, working,
finishing) are one line and exit 130 or 143, or the command finishes first; never a traceback or "Aborted!"."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_failures import _hears_ctrl_c

PRINTGEN = Path(sys.executable).with_name("printgen")
"""This environment's `printgen` console script (pyproject.toml's [project.scripts])."""
EXITS = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated")}
PROBE = """
import os, sys


class FirstModuleOfPrintgen:
    \"\"\"Says once, on the pipe the test gave, when the program asks for its first module after the printgen
    package itself: Python has started, its site-packages are read, and printgen's own lines run.\"\"\"

    told = False

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.startswith("printgen.") and not cls.told:
            cls.told = True
            os.write(int(os.environ["PRINTGEN_TEST_STARTED"]), b".")
        return None


sys.meta_path.insert(0, FirstModuleOfPrintgen)
"""
"""A sitecustomize for the child. Before the moment it tells, a signal meets Python's own default answer (Python
starting up, its site-packages' .pth files, the console script's first imports), which printgen cannot change."""
DELAYS: list[float | None] = [None, 0.02, 0.03, 0.05, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8]
"""When the signal is sent: seconds after printgen's own lines begin (its imports take about 0.1 s and the build
about 0.2 s more), or None: the moment printgen's handlers are in place (it catches SIGTERM, which Python alone
does not; seen in /proc). (Sooner than 0.02 s after the probe speaks, the probe itself may not have returned on a
busy machine.)"""


def _catches_sigterm(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
    return bool(caught & (1 << (signal.SIGTERM - 1)))


def _run_and_signal(command: list[str], out: Path, sig: signal.Signals, delay: float | None,
                    probe: Path) -> tuple[int, str]:
    """Start `printgen build` and send `sig` at `delay` (see DELAYS); its exit code and stderr."""
    started, told = os.pipe()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(probe), os.environ.get("PYTHONPATH", "")]),
               PRINTGEN_TEST_STARTED=str(told))
    try:
        child = subprocess.Popen([*command, "build", "qwixx-standard", "-n", "1", "--out", str(out)], env=env,
                                 pass_fds=(told,), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=_hears_ctrl_c)  # noqa: PLW1509 (no threads run then)
        os.close(told)
        ready, _, _ = select.select([started], [], [], 60)
        assert ready and os.read(started, 1) == b".", "printgen never started"
    finally:
        os.close(started)
    if delay is None:
        deadline = time.monotonic() + 30
        while not _catches_sigterm(child.pid):
            assert child.poll() is None and time.monotonic() < deadline, "printgen never set its handlers"
            time.sleep(0.0002)
    else:
        time.sleep(delay)  # the moment the signal lands (nothing here is timed)
    child.send_signal(sig)
    _, err = child.communicate(timeout=60)
    return child.returncode, err


@pytest.mark.parametrize("entry, sig, delays", [
    ("printgen", signal.SIGINT, DELAYS),
    ("printgen", signal.SIGTERM, DELAYS[::2]),
    ("python -m printgen", signal.SIGINT, DELAYS[::2]),
])
@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads /proc to see printgen's handlers")
def test_a_signal_at_any_moment_is_one_line(tmp_path: Path, entry: str, sig: signal.Signals,
                                            delays: list[float]) -> None:
    if entry == "printgen" and not PRINTGEN.is_file():
        pytest.skip("printgen is not installed as a console script here")
    command = [str(PRINTGEN)] if entry == "printgen" else [sys.executable, "-m", "printgen"]
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "sitecustomize.py").write_text(PROBE)
    code, word = EXITS[sig]
    outcomes = []
    for delay in delays:
        out = tmp_path / f"after-{delay}"
        returncode, err = _run_and_signal(command, out, sig, delay, probe)
        assert "Traceback" not in err and "Aborted" not in err, (delay, err)
        if returncode == 0:  # it finished first
            assert err == "", (delay, err)
        else:
            assert (returncode, err) == (code, f"Error: {word}; no partial file was left behind\n"), delay
        assert not out.exists() or not list(out.glob(".*.part")), delay
        outcomes.append(returncode)
    assert code in outcomes, outcomes  # the signal did land while it ran
