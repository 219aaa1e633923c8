"""Benchmark of issue 23: the commands a person types, each timed as a whole process, in CPU and wall seconds and as
ratios to a yardstick measured in the same run.

Run from a checkout: python benchmarks/commands.py [--repeat 5] [--only build-standard simulate ...]

Every command runs `--repeat` times (at least 5 for the figures in the README) in a fresh process, from an empty
working folder with no printgen.toml, no PRINTGEN_* variables and no terminal (so no progress bars); the figure
is the median. CPU is user + sys of the whole process and every process it started (os.wait4); wall is the
elapsed time. The yardstick is `python -c "import reportlab.pdfgen.canvas"`, run `--repeat` times before the
commands and again after them. Python writes bytecode (as after `pip install`, which compiles it) and one
unmeasured run of each command comes first. On a machine shared with other work, trust the CPU ratios: wall time
also counts the time spent waiting for a core.

`score` needs the scan extra: its photos are made first by the photo simulator of the tests
(tests/scan/simulator, hence "from a checkout"); `--photos DIR` keeps them for the next run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
YARDSTICK = [sys.executable, "-c", "import reportlab.pdfgen.canvas"]
SCORE_PHOTOS = 6
"""Photos in the folder that `score` reads (the figure is per photo beyond the first)."""
SCORE_LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-gemixxt-b", "qwixx-bonus-a", "qwixx-bonus-b",
                 "qwixx-cards")


@dataclass
class Run:
    """Median CPU and wall seconds of one command's runs."""

    cpu: float
    wall: float


@dataclass
class Case:
    """One row: what it measures, how it runs, and its target (a ratio to the yardstick, or CPU seconds)."""

    key: str
    label: str
    command: list[str]
    target: str
    prepare: Callable[[], None] = lambda: None
    """Run (unmeasured) before each measured run: e.g. remove the output folder for a build into a new one."""
    ratio_target: float | None = None
    cpu_target: float | None = None
    runs: list[Run] = field(default_factory=list)


def environment(home: Path) -> dict[str, str]:
    """The commands' environment: no user defaults, bytecode written like an installed package's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRINTGEN_") and k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config")}
    return env


def measure(command: list[str], cwd: Path, env: dict[str, str]) -> Run:
    """CPU (user + sys, with every process it started) and wall seconds of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if process.returncode not in (0, 1) or (process.returncode == 1 and b"could not be read" not in errors):
        raise SystemExit(f"{' '.join(command)} failed (exit {process.returncode}): {errors.decode()[-500:]}")
    return Run(usage.ru_utime + usage.ru_stime, wall)


def median(runs: list[Run]) -> Run:
    return Run(statistics.median(r.cpu for r in runs), statistics.median(r.wall for r in runs))


def printgen() -> list[str]:
    """The `printgen` program beside this Python (else `python -m printgen`)."""
    script = Path(sys.executable).with_name("printgen")
    return [str(script)] if script.exists() else [sys.executable, "-m", "printgen"]


def make_photos(folder: Path, count: int) -> list[Path]:
    """`count` photo-like JPEGs of filled sheets (made once; kept in `folder`)."""
    sys.path.insert(0, str(ROOT))
    from printgen import layouts
    from tests.scan.simulator.synthetic import sample

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = folder / f"photo-{index:02d}.jpg"
        if not path.exists():
            name = SCORE_LAYOUTS[index % len(SCORE_LAYOUTS)]
            picture = sample([layouts.load(name)], 9000 + index, two_up=False, widest=3000)  # type: ignore[list-item]
            path.write_bytes(picture.jpeg)
        paths.append(path)
    return paths


def cases(work: Path, photos: Path | None) -> list[Case]:
    """Every row of the table (the folders they write are under `work`)."""
    program = printgen()
    helped = subprocess.run([*program, "build", "--help"], capture_output=True, text=True, check=True).stdout
    no_index = ["--no-index"] if "--no-index" in helped else []  # (printgen before issue 23 has no such option)

    def fresh(folder: Path) -> Callable[[], None]:
        return lambda: shutil.rmtree(folder, ignore_errors=True)

    rows = [
        Case("help", "printgen --help", [*program, "--help"], "<= 1.5x", ratio_target=1.5),
        Case("list", "printgen list", [*program, "list"], "<= 2x", ratio_target=2.0),
        Case("build-standard", "build qwixx-standard -n 1 (new folder)",
             [*program, "build", "qwixx-standard", "-n", "1", "--out", str(work / "standard")], "<= 3x",
             fresh(work / "standard"), ratio_target=3.0),
        Case("build-big", "build qwixx-big-points -n 1000 (new folder)",
             [*program, "build", "qwixx-big-points", "-n", "1000", "--out", str(work / "big")], "<= 5x",
             fresh(work / "big"), ratio_target=5.0),
        Case("build-again", "the same build again, same folder",
             [*program, "build", "qwixx-big-points", "-n", "1000", "--out", str(work / "again")], "<= 5x",
             ratio_target=5.0),
        Case("build-huge", f"build qwixx-big-points -n 100000 -f pdf {' '.join(no_index)}".rstrip(),
             [*program, "build", "qwixx-big-points", "-n", "100000", "-f", "pdf", *no_index, "--out",
              str(work / "huge")], "<= 2.6 s CPU", fresh(work / "huge"), cpu_target=2.6),
        Case("simulate", "simulate one-to-9 --players 3 --games 1000",
             [*program, "simulate", "one-to-9", "--players", "3", "--games", "1000"], "<= 100x", ratio_target=100),
        Case("pack-1", "build --all -j 1 (new folder)",
             [*program, "build", "--all", "-j", "1", "--out", str(work / "pack1")], "", fresh(work / "pack1")),
        Case("pack-2", "build --all -j 2 (new folder)",
             [*program, "build", "--all", "-j", "2", "--out", str(work / "pack2")], "wall < -j 1",
             fresh(work / "pack2")),
    ]
    if photos is not None:
        pictures = make_photos(photos, SCORE_PHOTOS)
        one, many = work / "score-one", work / "score-many"
        one.mkdir(exist_ok=True)
        many.mkdir(exist_ok=True)
        shutil.copy(pictures[0], one)
        for picture in pictures:
            shutil.copy(picture, many)
        rows += [
            Case("score-1", "score: a folder of 1 photo", [*program, "score", str(one)], ""),
            Case("score-n", f"score: a folder of {SCORE_PHOTOS} photos", [*program, "score", str(many)], ""),
        ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each command (the median counts)")
    parser.add_argument("--only", nargs="*", default=None, help="keys of the rows to run (default: all)")
    parser.add_argument("--photos", type=Path, default=None, help="keep score's photos here (made if missing)")
    args = parser.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        home, cwd = work / "home", work / "cwd"
        home.mkdir()
        cwd.mkdir()
        env = environment(home)
        want_score = args.only is None or any(key.startswith("score") for key in args.only)
        photos = None
        if want_score:
            try:
                import cv2  # noqa: F401
                photos = args.photos or work / "photos"
            except ImportError:
                print("(no scan extra: score is not measured)")
        every = cases(work, photos)
        unknown = sorted(set(args.only or ()) - {case.key for case in every})
        if unknown:
            parser.error(f"--only: no row {', '.join(unknown)} (the rows: {', '.join(c.key for c in every)})")
        rows = [case for case in every if args.only is None or case.key in args.only]
        measure(YARDSTICK, cwd, env)
        yardstick = [measure(YARDSTICK, cwd, env) for _ in range(args.repeat)]
        for case in rows:
            case.prepare()
            measure(case.command, cwd, env)  # unmeasured: bytecode written, caches of a first run made
            for _ in range(args.repeat):
                case.prepare()
                case.runs.append(measure(case.command, cwd, env))
            print(f"  measured {case.label}", file=sys.stderr, flush=True)
        yardstick += [measure(YARDSTICK, cwd, env) for _ in range(args.repeat)]
    for line in table(rows, median(yardstick), args.repeat, time.perf_counter() - began):
        print(line)


def table(rows: list[Case], yardstick: Run, repeat: int, took: float) -> list[str]:
    """The printed table: each row's medians and ratios to the yardstick, its target and whether it is met."""
    lines = [(f"yardstick `python -c \"import reportlab.pdfgen.canvas\"`: {yardstick.cpu:.3f} s CPU, "
              f"{yardstick.wall:.3f} s wall (median of {2 * repeat})"),
             "",
             "| command | CPU s | CPU ratio | wall s | wall ratio | target | met |",
             "| --- | ---: | ---: | ---: | ---: | --- | --- |"]
    found = {case.key: median(case.runs) for case in rows}
    for case in rows:
        run = found[case.key]
        met = ""
        if case.ratio_target is not None:
            met = "yes" if run.cpu / yardstick.cpu <= case.ratio_target else "no"
        elif case.cpu_target is not None:
            met = "yes" if run.cpu <= case.cpu_target else "no"
        elif case.key == "pack-2" and "pack-1" in found:
            met = "yes" if run.wall < found["pack-1"].wall else "no"
        lines.append(f"| {case.label} | {run.cpu:.3f} | {run.cpu / yardstick.cpu:.1f}x | {run.wall:.3f} | "
                     f"{run.wall / yardstick.wall:.1f}x | {case.target} | {met} |")
    if "score-1" in found and "score-n" in found:
        one, many = found["score-1"], found["score-n"]
        cpu, wall = (many.cpu - one.cpu) / (SCORE_PHOTOS - 1), (many.wall - one.wall) / (SCORE_PHOTOS - 1)
        lines.append(f"| score: each photo beyond the first | {cpu:.3f} | {cpu / yardstick.cpu:.1f}x | {wall:.3f} | "
                     f"{wall / yardstick.wall:.1f}x | <= 0.25 s CPU | {'yes' if cpu <= 0.25 else 'no'} |")
        lines.append(f"| score: CPU / wall of the {SCORE_PHOTOS}-photo folder (cores used) | | | | "
                     f"{many.cpu / many.wall:.2f} | all cores | |")
    lines += ["", (f"{os.cpu_count()} cores; each command run {repeat} times (median); the whole benchmark took "
                   f"{took:.0f} s")]
    return lines


if __name__ == "__main__":
    main()
