"""Benchmarks of issue 6: start-up, a 1,000-sheet Big Points pad, memory of huge pads, the print pack, SVG.

Run: python benchmarks/issue6.py
Each figure is printed beside a baseline measured in the same run (these machines are noisy).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import best_time, row, run_python

HEADER = f"{'measure':<44} {'printgen':>12} {'baseline':>12} {'ratio':>9}   target"


def startup() -> str:
    printgen = best_time(lambda: subprocess.run([sys.executable, "-m", "printgen", "--help"], check=True,
                                                capture_output=True), 5)
    python = best_time(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), 5)
    return row("printgen --help vs bare python start", f"{printgen:.3f} s", f"{python:.3f} s", printgen / python,
               "--help < 0.3 s")


def big_points_pad(out: Path) -> list[str]:
    from reportlab.pdfgen.canvas import Canvas

    from printgen.build import build, options_for
    from printgen.page import PT_PER_MM

    options = options_for("qwixx-big-points", out=out, sheets=1000, per_page=2)
    build("qwixx-big-points", options_for("qwixx-big-points", out=out, sheets=2))  # warm-up
    ours = best_time(lambda: build("qwixx-big-points", options))
    size = (out / "qwixx-big-points.pdf").stat().st_size

    def floor() -> None:  # reportlab's floor: 500 pages that each only place one prepared form
        canvas = Canvas(str(out / "floor.pdf"), invariant=1, pageCompression=1)
        canvas.beginForm("sheet")
        canvas.rect(0, 0, 100, 100)
        canvas.endForm()
        for _ in range(500):
            canvas.setPageSize((210 * PT_PER_MM, 297 * PT_PER_MM))
            canvas.doForm("sheet")
            canvas.showPage()
        canvas.save()

    base = best_time(floor)
    base_size = (out / "floor.pdf").stat().st_size
    return [
        row("1,000-sheet big-points pad: time", f"{ours:.3f} s", f"{base:.3f} s", ours / base,
            "< 1.5 s, within 2x of reportlab's floor"),
        row("1,000-sheet big-points pad: size", f"{size / 1000:.0f} KB", f"{base_size / 1000:.0f} KB",
            size / base_size, "< 400 KB"),
    ]


def memory(out: Path) -> str:
    code = ("from pathlib import Path; from printgen.build import build, options_for; "
            f"build('qwixx-big-points', options_for('qwixx-big-points', out=Path(r'{out}'), sheets={{n}}))")
    _, small = run_python(code.format(n=100))
    _, large = run_python(code.format(n=10_000))
    return row("peak memory: 10,000-sheet vs 100-sheet pad", f"{large / 1000:.0f} MB", f"{small / 1000:.0f} MB",
               large / small, "within 1.2x")


def pack(out: Path) -> str:
    def build_all(jobs: int) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "printgen", "build", "--all", "--out", str(out / f"pack{jobs}"),
                        "--jobs", str(jobs), "--quiet"], check=True, capture_output=True)
        return time.perf_counter() - start

    two = min(build_all(2) for _ in range(2))
    one = min(build_all(1) for _ in range(2))
    return row("build --all: 2 jobs vs 1 job", f"{two:.2f} s", f"{one:.2f} s", two / one,
               "< 10 s with 2 jobs, faster than 1")


def svg(out: Path) -> list[str]:
    from printgen.build import build, options_for

    (sheet,) = build("qwixx-standard", options_for("qwixx-standard", out=out / "svg", formats=("svg",)))
    pdf = build("qwixx-standard", options_for("qwixx-standard", out=out / "svg"))[0]
    code = ("import time; from pathlib import Path; from printgen.build import build, options_for; "
            "import printgen.render.svg, printgen.render.pdf, printgen.builders.card_faces; t = time.perf_counter(); "
            f"build('one-to-9-deck', options_for('one-to-9-deck', out=Path(r'{out / 'deck'}'), formats=('{{fmt}}',))); "
            f"open(r'{out / 'deck.time'}', 'w').write(str(time.perf_counter() - t))")
    times = {}
    for fmt in ("svg", "pdf"):  # fresh processes: nothing cached from earlier builds
        run_python(code.format(fmt=fmt))
        times[fmt] = float((out / "deck.time").read_text())
    deck, deck_pdf = times["svg"], times["pdf"]
    return [
        row("a sheet's SVG vs its 1-page PDF", f"{sheet.stat().st_size / 1000:.1f} KB",
            f"{pdf.stat().st_size / 1000:.1f} KB", sheet.stat().st_size / pdf.stat().st_size, "SVG < 60 KB"),
        row("98-card deck: its SVGs vs its PDF", f"{deck:.2f} s", f"{deck_pdf:.2f} s", deck / deck_pdf,
            "SVGs < 2 s"),
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        print(HEADER)
        for line in [startup(), *big_points_pad(out), memory(out), pack(out), *svg(out)]:
            print(line, flush=True)


if __name__ == "__main__":
    main()
