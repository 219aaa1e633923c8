"""Benchmark: a 1,000-sheet standard pad, printgen's way (forms) against a naive redraw of every page.

Run: python benchmarks/pad.py [--sheets N] [--repeat R]
Both are measured in the same run; the ratios are what count (machines are noisy).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from common import best_time

from printgen.build import build, options_for
from printgen.builders.scoresheet import build_sheet
from printgen.layouts import load
from printgen.page import PT_PER_MM, Use
from printgen.printing.imposition import impose, plan_grid
from printgen.printing.paper import paper_size
from printgen.render.pdf import PdfRenderer


class RedrawRenderer(PdfRenderer):
    """The naive baseline: every placement is drawn out in full instead of placing a form."""

    def use(self, use: Use) -> None:
        c = self.canvas
        c.saveState()
        c.translate(use.x, use.y)
        c.scale(use.scale, use.scale)
        self.draw(use.symbol.elements)
        c.restoreState()


def naive_pad(sheets: int, per_page: int, target: Path) -> None:
    """Plain reportlab, every page drawn from scratch."""
    from reportlab.pdfgen.canvas import Canvas

    sheet = build_sheet(load("qwixx-standard"))
    grid = plan_grid(paper_size("a4"), sheet.width, sheet.height, per_page)
    canvas = Canvas(str(target), invariant=1, pageCompression=1)
    renderer = RedrawRenderer(canvas)
    for page in impose((sheet for _ in range(sheets)), grid):
        canvas.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        canvas.translate(0, page.height * PT_PER_MM)
        canvas.scale(PT_PER_MM, -PT_PER_MM)
        renderer.draw(page.elements)
        canvas.showPage()
    canvas.save()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sheets", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        options = options_for("qwixx-standard", out=out, sheets=args.sheets, per_page=2)
        build("qwixx-standard", options_for("qwixx-standard", out=out, sheets=2))  # warm-up: imports, font registration
        fast_time = best_time(lambda: build("qwixx-standard", options), args.repeat)
        fast_size = (out / "qwixx-standard.pdf").stat().st_size
        naive_path = out / "naive.pdf"
        naive_time = best_time(lambda: naive_pad(args.sheets, 2, naive_path), args.repeat)
        naive_size = naive_path.stat().st_size
    print(f"{args.sheets}-sheet standard pad, 2 per A4 page, best of {args.repeat}")
    print(f"{'':<28}{'time':>10}{'size':>14}")
    print(f"{'printgen (forms)':<28}{fast_time:>9.3f}s{fast_size / 1000:>11.1f} KB")
    print(f"{'naive (every page redrawn)':<28}{naive_time:>9.3f}s{naive_size / 1000:>11.1f} KB")
    print(f"{'ratio naive / printgen':<28}{naive_time / fast_time:>9.1f}x{naive_size / fast_size:>12.1f}x")


if __name__ == "__main__":
    main()
