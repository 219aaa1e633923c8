"""Printed pages: real `printgen build` PDFs rendered by poppler's pdftoppm, cached by their options."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

import printgen
from printgen import layouts
from printgen.printing.imposition import plan_grid
from printgen.printing.paper import paper_size

CACHE = Path.home() / ".cache" / "printgen-photoset-heldout"
SEEDED = ("qwixx-big-points",)
PAD_SHEETS = 6
"""Sheets in a pad whose sheets differ (lucky numbers, a shuffled order); statics are built as one page."""


@dataclass(frozen=True)
class Build:
    """One `printgen build` of a score-sheet pad."""

    layout: str
    lang: str = "en"
    symbols: bool = False
    shuffle: bool = False
    seed: int = 1
    per_page: int = 1
    scan_marks: bool = True

    @property
    def varied(self) -> bool:
        return self.layout in SEEDED or self.shuffle

    @property
    def sheets(self) -> int:
        return PAD_SHEETS if self.varied else self.per_page

    @property
    def key(self) -> str:
        """The cache folder's name: the options, and a digest of what printgen draws them with."""
        parts = [self.layout, self.lang, f"pp{self.per_page}", f"n{self.sheets}"]
        parts += ["symbols"] if self.symbols else []
        parts += ["shuffled"] if self.shuffle else []
        parts += [f"seed{self.seed}"] if self.varied else []
        parts += ["unmarked"] if not self.scan_marks else []
        return "-".join([*parts, _source_digest(self.layout)])

    def arguments(self) -> list[str]:
        args = ["build", self.layout, "-n", str(self.sheets), "--per-page", str(self.per_page), "-l", self.lang]
        args += ["--symbols"] if self.symbols else []
        args += ["--shuffle"] if self.shuffle else []
        args += ["--seed", str(self.seed)] if self.varied else []
        args += ["--no-scan-marks"] if not self.scan_marks else []
        return args


@cache
def _source_digest(layout: str) -> str:
    """A digest of printgen's drawing code (the reader left out) and the layout file: a change rebuilds."""
    root = Path(printgen.__file__).parent
    digest = hashlib.sha1(printgen.__version__.encode())
    for path in sorted(root.rglob("*")):
        inside = path.relative_to(root).parts
        if path.is_file() and path.suffix in (".py", ".toml", ".j2") and inside[0] != "scan":
            digest.update("/".join(inside).encode() + path.read_bytes())
    digest.update(layouts.resolve(layout)[0].read_bytes())
    return digest.hexdigest()[:8]


@dataclass(frozen=True)
class Slot:
    """Where one sheet sits on a rendered page: top left in pixels and pixels a millimetre."""

    x: float
    y: float
    px_per_mm: float


def _atomic_folder(target: Path, fill: object) -> None:
    """Make `target` by filling a temporary folder beside it and renaming it (workers may race)."""
    if target.exists():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        fill(work)  # type: ignore[operator]
        try:
            os.rename(work, target)
        except OSError:
            if not target.exists():
                raise
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)


def pdf(build: Build) -> Path:
    """The build's PDF (built once into the cache)."""
    folder = CACHE / build.key

    def run(work: Path) -> None:
        command = [sys.executable, "-m", "printgen", *build.arguments(), "--out", str(work), "-o", "pad", "-q"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode or not (work / "pad.pdf").exists():
            raise RuntimeError(f"printgen {' '.join(build.arguments())} failed: {done.stderr.strip()[-400:]}")

    _atomic_folder(folder, run)
    return folder / "pad.pdf"


def page_image(build: Build, page: int, dpi: int) -> np.ndarray:
    """Page `page` (from 0) of the build rendered at `dpi` by pdftoppm, as 8-bit RGB."""
    path = pdf(build)
    png = path.parent / f"page{page + 1}-{dpi}dpi.png"
    if not png.exists():
        if shutil.which("pdftoppm") is None:
            raise RuntimeError("the heldout photo set needs poppler's pdftoppm (Debian: apt-get install poppler-utils)")
        with tempfile.TemporaryDirectory(dir=path.parent) as work:
            prefix = Path(work) / "page"
            subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", "-f", str(page + 1), "-l",
                            str(page + 1), str(path), str(prefix)], check=True, capture_output=True)
            os.replace(prefix.with_suffix(".png"), png)
    image = cv2.imread(str(png), cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError(f"cannot read {png}")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def slots(build: Build, page_shape: tuple[int, int], dpi: int) -> list[Slot]:
    """Where the sheets of a page sit (one slot for --per-page 1, where the page is the sheet)."""
    px_per_mm = dpi / 25.4
    if build.per_page == 1:
        return [Slot(0.0, 0.0, px_per_mm)]
    layout = layouts.load(build.layout)
    grid = plan_grid(paper_size("a4"), layout.width, layout.height, build.per_page)  # type: ignore[union-attr]
    height, width = page_shape
    if (grid.page_w > grid.page_h) != (width > height):
        raise RuntimeError("the rendered page is not oriented as printgen planned it")
    return [Slot(x * px_per_mm, y * px_per_mm, px_per_mm * grid.scale)
            for x, y in (grid.cell(i) for i in range(build.per_page))]


def page_size_mm(build: Build) -> tuple[float, float]:
    """Width and height of a page of the build in millimetres."""
    layout = layouts.load(build.layout)
    if build.per_page == 1:
        return layout.width, layout.height  # type: ignore[union-attr]
    grid = plan_grid(paper_size("a4"), layout.width, layout.height, build.per_page)  # type: ignore[union-attr]
    return grid.page_w, grid.page_h
