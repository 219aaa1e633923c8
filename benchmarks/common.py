"""Benchmark helpers: a command or callable in, its best wall time, peak memory or size out."""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Callable


def best_time(action: Callable[[], object], repeat: int = 3) -> float:
    """The fastest of `repeat` runs of `action`, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def run_python(code: str) -> tuple[float, int]:
    """Run `code` in a fresh Python process; its wall time (s) and peak RSS (KB)."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-c", code], check=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return time.perf_counter() - start, max(peak, before)


def peak_memory(code: str) -> int:
    """Run `code` in a fresh Python process; the peak RSS (KB) of that process alone (it reports its own)."""
    report = "import resource\nprint(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    done = subprocess.run([sys.executable, "-c", f"{code}\n{report}"], check=True, capture_output=True, text=True)
    return int(done.stdout.split()[-1])


def row(label: str, value: str, baseline: str, ratio: float, target: str) -> str:
    """One printed line: what, measured, baseline from the same run, ratio, target."""
    return f"{label:<44} {value:>12} {baseline:>12} {ratio:>8.2f}x   {target}"
