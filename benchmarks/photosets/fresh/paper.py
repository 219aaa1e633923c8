"""Paper: printgen's SVG builds rendered by rsvg-convert, cached, laid out 1-up or 2-up, and printed by a simulated printer."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from printgen import layouts
from printgen.printing.imposition import plan_grid
from printgen.rules import qwixx
from printgen.rules.lucky import deal, parse_pool
from printgen.rules.variants import shuffled_numbers

ROOT = Path(__file__).resolve().parents[3]
CACHE = Path.home() / ".cache" / "printgen-photoset-fresh"
DRAWING = ("builders", "render", "marks", "printing", "labels", "kinds", "layouts")
A4 = (210.0, 297.0)


@dataclass(frozen=True)
class Order:
    """What to ask printgen for: a layout, a language, colour symbols, and one sheet of a seeded pad."""

    layout: str
    lang: str
    symbols: bool
    seed: int
    count: int
    index: int

    @property
    def varied(self) -> bool:
        return self.layout in ("qwixx-big-points", "qwixx-gemixxt-b")


@dataclass
class Placed:
    """One sheet on a page: its order, where its top-left corner is (mm), its scale, its size and what it prints."""

    order: Order
    origin: tuple[float, float]
    scale: float
    size: tuple[float, float]
    lucky: tuple[int, int] | None
    numbers: tuple[tuple[int, ...], ...] | None


@cache
def _digest(layout: str) -> str:
    digest = hashlib.sha256()
    path, _ = layouts.resolve(layout)
    digest.update(Path(path).read_bytes())
    for folder in DRAWING:
        for file in sorted((ROOT / "printgen" / folder).rglob("*.py")):
            digest.update(file.read_bytes())
    for name in ("page.py", "fonts.py", "colours.py", "build.py"):
        digest.update((ROOT / "printgen" / name).read_bytes())
    return digest.hexdigest()[:16]


def _publish(temporary: Path, final: Path) -> None:
    """Move a finished temp file or folder into place; another process may have been first."""
    try:
        os.rename(temporary, final)
    except OSError:
        if temporary.is_dir():
            shutil.rmtree(temporary, ignore_errors=True)
        else:
            temporary.unlink(missing_ok=True)


def build(order: Order) -> Path:
    """The SVG of the ordered sheet, built by `printgen build -f svg` once and cached."""
    shuffle = order.layout == "qwixx-gemixxt-b"
    key = (f"{order.layout}-{order.lang}-{'sym' if order.symbols else 'plain'}"
           f"{f'-seed{order.seed}-n{order.count}' if order.varied else ''}-{_digest(order.layout)}")
    folder = CACHE / key
    if not folder.is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        temporary = Path(tempfile.mkdtemp(dir=CACHE, prefix=".build-"))
        command = [sys.executable, "-m", "printgen", "build", order.layout, "-f", "svg", "--out", str(temporary),
                   "-l", order.lang]
        if order.symbols:
            command.append("--symbols")
        if order.varied:
            command += ["-n", str(order.count), "--seed", str(order.seed)]
        if shuffle:
            command.append("--shuffle")
        subprocess.run(command, check=True, capture_output=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        _publish(temporary, folder)
    svgs = sorted(folder.rglob("*.svg"), key=lambda p: (len(p.stem), p.stem))
    return svgs[order.index if order.varied else 0]


def render(order: Order, dpi: int) -> np.ndarray:
    """The ordered sheet as linear-light RGB float32, rendered by rsvg-convert at `dpi` (cached as PNG)."""
    svg = build(order)
    png = svg.with_name(f"{svg.stem}-{dpi}dpi.png")
    if not png.exists():
        handle, name = tempfile.mkstemp(dir=svg.parent, suffix=".png")
        os.close(handle)
        subprocess.run(["rsvg-convert", "-d", str(dpi), "-p", str(dpi), "-b", "white", "-o", name, str(svg)],
                       check=True, capture_output=True)
        _publish(Path(name), png)
    bgr = cv2.imread(str(png), cv2.IMREAD_COLOR)
    return to_linear(bgr[:, :, ::-1])


def to_linear(srgb: np.ndarray) -> np.ndarray:
    """8-bit sRGB to linear float32 (a lookup table)."""
    table = np.arange(256, dtype=np.float32) / 255
    table = np.where(table <= 0.04045, table / 12.92, ((table + 0.055) / 1.055) ** 2.4).astype(np.float32)
    return table[srgb]


def printed_code(order: Order) -> tuple[tuple[int, int] | None, tuple[tuple[int, ...], ...] | None]:
    """The lucky pair and shuffled order printgen's pad gave sheet `order.index` (dealt again from its seed)."""
    layout = layouts.load(order.layout)
    spec = qwixx.variant(layout.rules)  # type: ignore[union-attr]
    lucky = None
    if layout.lucky_numbers:  # type: ignore[union-attr]
        lucky = tuple(deal(parse_pool("balanced", spec.dice_sides), order.count, order.seed)[order.index])
    numbers = None
    if order.layout == "qwixx-gemixxt-b":
        rng = random.Random(order.seed)
        for _ in range(order.index + 1):
            numbers = shuffled_numbers(spec, rng)
    return lucky, numbers  # type: ignore[return-value]


def page(orders: list[Order], dpi: int) -> tuple[np.ndarray, list[Placed], tuple[float, float]]:
    """One page: a sheet alone (its own size, `--per-page 1`) or two sheets on A4 as printgen imposes them."""
    pxmm = dpi / 25.4
    sheets = [render(order, dpi) for order in orders]
    if len(orders) == 1:
        layout = layouts.load(orders[0].layout)
        size = (layout.width, layout.height)  # type: ignore[union-attr]
        placed = [Placed(orders[0], (0.0, 0.0), 1.0, size, *printed_code(orders[0]))]
        return sheets[0], placed, size
    layout = layouts.load(orders[0].layout)
    grid = plan_grid(A4, layout.width, layout.height, 2)  # type: ignore[union-attr]
    canvas = np.ones((round(grid.page_h * pxmm), round(grid.page_w * pxmm), 3), np.float32)
    placed = []
    for slot, (order, sheet) in enumerate(zip(orders, sheets)):
        x, y = grid.cell(slot)
        w, h = round(grid.item_w * grid.scale * pxmm), round(grid.item_h * grid.scale * pxmm)
        resized = cv2.resize(sheet, (w, h), interpolation=cv2.INTER_AREA)
        x0, y0 = round(x * pxmm), round(y * pxmm)
        canvas[y0:y0 + h, x0:x0 + w] = resized[:canvas.shape[0] - y0, :canvas.shape[1] - x0]
        placed.append(Placed(order, (x, y), grid.scale, (grid.item_w, grid.item_h), *printed_code(order)))
    _crop_marks(canvas, grid, pxmm)
    return canvas, placed, (grid.page_w, grid.page_h)


def _crop_marks(canvas: np.ndarray, grid: object, pxmm: float) -> None:
    """Short hairlines outside the block at both ends of every cut line."""
    x0, y0 = grid.origin  # type: ignore[attr-defined]
    w, h = grid.item_w * grid.scale, grid.item_h * grid.scale  # type: ignore[attr-defined]
    xs = [x0 + c * w for c in range(grid.cols + 1)]  # type: ignore[attr-defined]
    ys = [y0 + r * h for r in range(grid.rows + 1)]  # type: ignore[attr-defined]
    thick = max(1, round(0.12 * pxmm))

    def line(a: tuple[float, float], b: tuple[float, float]) -> None:
        cv2.line(canvas, (round(a[0] * pxmm), round(a[1] * pxmm)), (round(b[0] * pxmm), round(b[1] * pxmm)),
                 (0.0, 0.0, 0.0), thick, cv2.LINE_AA)

    for x in xs:
        line((x, ys[0] - 2.0), (x, ys[0] - 6.0))
        line((x, ys[-1] + 2.0), (x, ys[-1] + 6.0))
    for y in ys:
        line((xs[0] - 2.0, y), (xs[0] - 6.0, y))
        line((xs[-1] + 2.0, y), (xs[-1] + 6.0, y))


INKS = {  # transmittance of a full layer of each process ink, linear RGB
    "c": np.array([0.05, 0.55, 0.90], np.float32),
    "m": np.array([0.85, 0.10, 0.45], np.float32),
    "y": np.array([0.97, 0.88, 0.08], np.float32),
    "k": np.array([0.06, 0.06, 0.07], np.float32),
}
ANGLES = {"c": 15.0, "m": 75.0, "y": 0.0, "k": 45.0}


def smooth_noise(shape: tuple[int, int], cells: int, rng: np.random.Generator) -> np.ndarray:
    """Smooth random field in -1..1-ish: a coarse grid of normals upsampled bicubically."""
    h, w = shape
    gh, gw = max(2, round(cells * h / max(h, w))) + 2, max(2, round(cells * w / max(h, w))) + 2
    coarse = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)


def soft(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur; wide ones are done on a smaller copy (the result is as smooth)."""
    if sigma <= 6:
        return cv2.GaussianBlur(image, (0, 0), sigma)
    factor = sigma / 3
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(2, int(w / factor)), max(2, int(h / factor))), interpolation=cv2.INTER_AREA)
    return cv2.resize(cv2.GaussianBlur(small, (0, 0), 3.0), (w, h), interpolation=cv2.INTER_LINEAR)


def print_page(rgb: np.ndarray, dpi: int, rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """The page as a printer prints it: CMYK separation, halftone dots, misregistration, dot gain, toner or
    ink scatter, on tinted paper with fibres. Returns linear RGB and a description."""
    h, w = rgb.shape[:2]
    pxmm = dpi / 25.4
    srgb = np.clip(rgb, 0, 1) ** (1 / 2.2)
    cmy = 1.0 - srgb
    k = cmy.min(axis=2)
    under = np.maximum(1.0 - k, 1e-3)[..., None]
    parts = {"c": (cmy[..., 0] - k) / under[..., 0], "m": (cmy[..., 1] - k) / under[..., 0],
             "y": (cmy[..., 2] - k) / under[..., 0], "k": k}
    laser = rng.random() < 0.5
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = pxmm * rng.uniform(0.17, 0.26)  # 100-150 lines per inch
    grain = rng.uniform(0.25, 0.5) if laser else rng.uniform(0.15, 0.35)
    out = np.ones_like(rgb)
    shift_mm = rng.uniform(0.0, 0.12)
    for name, amount in parts.items():
        if laser:
            a = np.deg2rad(ANGLES[name])
            u = (xx * np.cos(a) + yy * np.sin(a)) * (2 * np.pi / period)
            v = (-xx * np.sin(a) + yy * np.cos(a)) * (2 * np.pi / period)
            threshold = 0.5 - 0.25 * (np.cos(u) + np.cos(v))
        else:  # inkjet: stochastic dots, slightly clumped
            threshold = rng.random((h, w), dtype=np.float32)
            threshold = cv2.GaussianBlur(threshold, (0, 0), 0.7)
            threshold = (threshold - threshold.min()) / max(float(np.ptp(threshold)), 1e-6)
        amount = np.clip(amount, 0, 1)
        dots = (amount ** 0.9 > threshold).astype(np.float32)
        dots = amount + (dots - amount) * grain  # real dots are finer than these pixels: part of them averages
        dots = cv2.GaussianBlur(dots, (0, 0), 0.45 * pxmm / 11.8 + 0.35)  # dot gain and the paper's spread
        if name != "k":
            angle = rng.uniform(0, 2 * np.pi)
            matrix = np.float32([[1, 0, np.cos(angle) * shift_mm * pxmm], [0, 1, np.sin(angle) * shift_mm * pxmm]])
            dots = cv2.warpAffine(dots, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)
        else:
            specks = (rng.random((h, w), dtype=np.float32) < 0.0015) & (cv2.blur(dots, (9, 9)) > 0.05)
            dots = np.maximum(dots, specks.astype(np.float32) * 0.8)
        out *= INKS[name][None, None, :] ** np.clip(dots * 0.97, 0, 1)[..., None]
    tint = np.array([1.0, rng.uniform(0.975, 1.0), rng.uniform(0.93, 0.99)], np.float32) * rng.uniform(0.9, 0.97)
    tooth = 1.0 + 0.012 * smooth_noise((h, w), 60, rng)[..., None] + 0.008 * rng.standard_normal((h, w, 1)).astype(
        np.float32)
    paper = tint[None, None, :] * tooth
    for _ in range(int(h * w / 4e4)):  # fibres: short faint curls
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        pts = [(x, y)]
        angle = rng.uniform(0, 2 * np.pi)
        for _ in range(4):
            angle += rng.normal(0, 0.5)
            x, y = x + np.cos(angle) * pxmm * 0.4, y + np.sin(angle) * pxmm * 0.4
            pts.append((x, y))
        shade = float(rng.uniform(0.97, 0.99))
        cv2.polylines(paper, [np.int32(pts)], False, tuple(float(shade * t) for t in tint), 1,
                      cv2.LINE_AA)
    what = f"{'laser' if laser else 'inkjet'} {25.4 / period * pxmm:.0f} lpi, misregistration {shift_mm:.2f} mm"
    return (paper * out).astype(np.float32), what
