"""The printed paper: real `printgen build` pads (cached), pages rendered by pdfium, sheets' places and data."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium

PAD_SHEETS = 8
"""Sheets in every cached pad (a 2-up pad: 4 pages)."""
PAPER = (210.0, 297.0)


@dataclass(frozen=True)
class PadKey:
    """What a cached pad was built with."""

    layout: str
    lang: str = "en"
    symbols: bool = False
    per_page: int = 1
    shuffle: bool = False
    seed: int = 1

    @property
    def name(self) -> str:
        return (f"{self.layout}-{self.lang}-{'sym' if self.symbols else 'plain'}-{self.per_page}up-"
                f"{'shuffled' if self.shuffle else 'fixed'}-seed{self.seed}-n{PAD_SHEETS}")


@dataclass(frozen=True)
class PlacedSheet:
    """One sheet on a rendered page: its layout, its top-left corner on the page (mm), its print data."""

    layout: str
    origin: tuple[float, float]
    scale: float
    lucky: tuple[int, int] | None
    numbers: tuple[tuple[int, ...], ...] | None

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A point of the sheet (mm in the sheet) on the page (mm)."""
        return self.origin[0] + self.scale * x, self.origin[1] + self.scale * y


@dataclass
class Page:
    """A rendered page: RGB uint8 (sRGB), px per mm, its size (mm), the sheets on it."""

    image: np.ndarray
    px_per_mm: float
    size: tuple[float, float]
    sheets: list[PlacedSheet]


def cache_folder() -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "printgen-photoset-dev"


def pad_pdf(key: PadKey) -> Path:
    """The PDF of `key`'s pad, built once with printgen's library into the cache (safe between processes)."""
    import printgen
    from printgen import layouts
    from printgen.build import build, options_for
    from printgen.builders.geometry import sheet_geometry
    from printgen.marks.codes import layout_version

    layout = layouts.load(key.layout)
    version = layout_version(layout, sheet_geometry(layout))  # type: ignore[arg-type]
    folder = cache_folder() / f"printgen-{getattr(printgen, '__version__', 'dev')}"
    target = folder / f"{key.name}-v{version}.pdf"
    if target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        values: dict[str, object] = {"out": Path(scratch), "sheets": PAD_SHEETS, "per_page": key.per_page,
                                     "lang": key.lang, "symbols": key.symbols}
        if key.shuffle:
            values["shuffle"] = True
        if key.shuffle or key.layout == "qwixx-big-points":
            values["seed"] = key.seed
        written = [p for p in build(key.layout, options_for(key.layout, **values)) if p.suffix == ".pdf"]
        os.replace(written[0], target)
    return target


@cache
def _printed_data(key: PadKey) -> list[tuple[tuple[int, int] | None, tuple[tuple[int, ...], ...] | None]]:
    """Each sheet's lucky numbers and shuffled order, read back from the items the pad printed."""
    from printgen import layouts
    from printgen.builders.geometry import sheet_geometry
    from printgen.builders.pad import pad_items
    from printgen.page import Use

    layout = layouts.load(key.layout)
    geometry = sheet_geometry(layout)
    found: list[tuple[tuple[int, int] | None, tuple[tuple[int, ...], ...] | None]] = []
    items = pad_items(layout, PAD_SHEETS, seed=key.seed, lang=key.lang, symbols=key.symbols, shuffle=key.shuffle)
    for item in items:
        stamps = []
        for element in item.extras:
            if isinstance(element, Use) and element.symbol.id.startswith("stamp-"):
                glyph = element.symbol.elements[0]
                x0, y0, x1, y1 = element.bounds()
                stamps.append(((x0 + x1) / 2, (y0 + y1) / 2, int(glyph.text)))
        lucky = None
        if geometry.lucky:
            lucky_pair = [min(stamps, key=lambda s, c=c: (s[0] - c[0]) ** 2 + (s[1] - c[1]) ** 2)[2]
                          for c in geometry.lucky]
            lucky = (lucky_pair[0], lucky_pair[1])
        numbers = None
        if key.shuffle:
            rows: list[list[tuple[float, int]]] = [[] for _ in geometry.rows]
            for x, y, value in stamps:
                index = min(range(len(geometry.rows)), key=lambda i: abs(geometry.rows[i].centre_y - y))
                rows[index].append((x, value))
            numbers = tuple(tuple(v for _, v in sorted(row)) for row in rows)
            for row, geo in zip(numbers, geometry.rows):
                assert len(row) == len(geo.cells), "a shuffled row read back with a wrong count"
        found.append((lucky, numbers))
    return found


def render_page(key: PadKey, page: int, px_per_mm: float) -> Page:
    """Page `page` of `key`'s pad rendered by pdfium at `px_per_mm`, with its sheets' places and data."""
    from printgen import layouts
    from printgen.printing.imposition import plan_grid
    from printgen.printing.paper import paper_size

    layout = layouts.load(key.layout)
    document = pdfium.PdfDocument(str(pad_pdf(key)))
    try:
        pdf_page = document[page]
        size = (pdf_page.get_width() * 25.4 / 72, pdf_page.get_height() * 25.4 / 72)
        image = pdf_page.render(scale=px_per_mm * 25.4 / 72, rev_byteorder=True).to_numpy()[:, :, :3].copy()
    finally:
        document.close()
    data = _printed_data(key)
    sheets = []
    if key.per_page == 1:
        lucky, numbers = data[page]
        sheets.append(PlacedSheet(key.layout, (0.0, 0.0), 1.0, lucky, numbers))
    else:
        grid = plan_grid(paper_size("a4"), layout.width, layout.height, key.per_page)
        for slot in range(key.per_page):
            index = page * key.per_page + slot
            lucky, numbers = data[index]
            sheets.append(PlacedSheet(key.layout, grid.cell(slot), grid.scale, lucky, numbers))
    return Page(image, px_per_mm, size, sheets)


def print_look(page: Page, rng: np.random.Generator) -> dict[str, float]:
    """What a printer and paper make of the page (in place): dot gain, a paper tint, muted ink, a slight blur and
    paper grain. Returns what was chosen."""
    image = page.image
    white = np.array([rng.uniform(0.9, 0.98), rng.uniform(0.9, 0.98), rng.uniform(0.86, 0.97)])
    white = white / white.max() * rng.uniform(0.92, 1.0)
    gamma = rng.uniform(0.92, 1.18) * rng.uniform(0.97, 1.03, 3)
    levels = np.arange(256) / 255.0
    lut = np.empty((256, 1, 3), np.uint8)
    for c in range(3):
        linear = np.where(levels <= 0.04045, levels / 12.92, ((levels + 0.055) / 1.055) ** 2.4)
        linear = white[c] * linear ** gamma[c] + rng.uniform(0.005, 0.02)
        srgb = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.clip(linear, 0, 1) ** (1 / 2.4) - 0.055)
        lut[:, 0, c] = np.clip(srgb * 255 + 0.5, 0, 255).astype(np.uint8)
    image[:] = cv2.LUT(image, lut)
    saturation = rng.uniform(0.78, 1.02)
    grey = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    grey3 = cv2.merge([grey, grey, grey])
    image[:] = cv2.addWeighted(image, saturation, grey3, 1 - saturation, 0)
    sigma = rng.uniform(0.03, 0.07) * page.px_per_mm
    image[:] = cv2.GaussianBlur(image, (0, 0), sigma)
    h, w = image.shape[:2]
    hh, ww = (h + 1) // 2, (w + 1) // 2
    grain = np.zeros((hh, ww), np.float32)
    for cell, amount in ((0.3, 0.006), (2.0, 0.004), (12.0, 0.004)):
        small = rng.standard_normal((max(2, int(hh / (cell * page.px_per_mm / 2))),
                                     max(2, int(ww / (cell * page.px_per_mm / 2))))).astype(np.float32)
        grain += cv2.resize(small, (ww, hh), interpolation=cv2.INTER_LINEAR) * amount
    grain = cv2.resize(grain + 1, (w, h), interpolation=cv2.INTER_LINEAR)
    image[:] = cv2.multiply(image, cv2.merge([grain] * 3), dtype=cv2.CV_8U)
    return {"saturation": saturation, "gamma": float(gamma.mean())}
