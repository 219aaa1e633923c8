"""Benchmarks of issue 13: memory of the largest pad, what glyph outlines and colour management cost.

Run: python benchmarks/issue13.py
Each figure is printed beside a baseline measured in the same run (these machines are noisy).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from common import best_time, peak_memory, row

HEADER = f"{'measure':<44} {'printgen':>12} {'baseline':>12} {'ratio':>9}   target"
PAD = ("from pathlib import Path; from printgen.build import build, options_for; "
       "build('qwixx-big-points', options_for('qwixx-big-points', out=Path(r'{out}'), sheets={n}))")


def memory(out: Path) -> list[str]:
    small = peak_memory(PAD.format(out=out / "small", n=100))
    start = time.perf_counter()
    large = peak_memory(PAD.format(out=out, n=100_000))
    took = time.perf_counter() - start
    size = (out / "qwixx-big-points.pdf").stat().st_size
    return [
        row("peak memory: 100,000-sheet vs 100-sheet pad", f"{large / 1024:.0f} MiB", f"{small / 1024:.0f} MiB",
            large / small, "within 1.2x"),
        row("100,000-sheet pad (50,000 pages): time, size", f"{took:.1f} s", f"{size / 1e6:.1f} MB", took, ""),
    ]


def svg(out: Path) -> list[str]:
    from printgen.build import build, options_for

    def sheet(mode: str) -> Path:
        (path,) = build("qwixx-standard", options_for("qwixx-standard", out=out / mode, formats=("svg",), svg_text=mode))
        return path

    outline, font = sheet("outline"), sheet("font")
    deck = {}
    for mode in ("font", "outline"):
        options = options_for("qwixx-cards-deck", out=out / f"deck-{mode}", formats=("svg",), svg_text=mode)
        deck[mode] = best_time(lambda options=options: build("qwixx-cards-deck", options))
    return [
        row("sheet SVG: outlines vs editable text", f"{outline.stat().st_size / 1000:.1f} KB",
            f"{font.stat().st_size / 1000:.1f} KB", outline.stat().st_size / font.stat().st_size, "< 80 KB"),
        row("55-card deck, 110 SVGs: outlines vs text", f"{deck['outline']:.2f} s", f"{deck['font']:.2f} s",
            deck["outline"] / deck["font"], "< 2 s"),
    ]


def cmyk(out: Path) -> list[str]:
    from printgen.build import build, options_for

    sizes, times = {}, {}
    for colour in (False, True):
        options = options_for("qwixx-cards-deck", out=out / f"cmyk-{colour}", cmyk=colour)
        written = build("qwixx-cards-deck", options)
        times[colour] = best_time(lambda options=options: build("qwixx-cards-deck", options))
        sizes[colour] = next(path for path in written if path.suffix == ".pdf").stat().st_size
    return [
        row("deck PDF: CMYK (profile embedded) vs RGB", f"{sizes[True] / 1000:.0f} KB", f"{sizes[False] / 1000:.0f} KB",
            sizes[True] / sizes[False], "the profile adds ~95 KB"),
        row("deck PDF: CMYK vs RGB, time", f"{times[True]:.3f} s", f"{times[False]:.3f} s",
            times[True] / times[False], ""),
    ]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        print(HEADER)
        for line in [*memory(out), *svg(out), *cmyk(out)]:
            print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
