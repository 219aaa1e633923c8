"""Printed pages: a layout, build options and a page number in, the page as printed on an inkjet (linear RGB floats, mm scale) out.

Pads are built with the `printgen build` command line and rasterised by
Ghostscript (`gs -sDEVICE=png16m`); both are cached in
~/.cache/printgen-photoset-fourth/, keyed by the options and a digest of the
layout file and printgen's drawing code. A build goes to a temporary folder
that is renamed into place, and a render to a temporary file that is
replaced, so two processes can share the cache.
"""

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

ROOT = Path(__file__).resolve().parents[3]
CACHE = Path.home() / ".cache" / "printgen-photoset-fourth"
DPIS = (300, 450)
"""Ghostscript renders at one of these; the page is then resampled to the photo's need."""


@dataclass(frozen=True)
class Pad:
    """One `printgen build` of a score-sheet pad."""

    layout: str
    lang: str = "en"
    symbols: bool = False
    seed: int = 1
    sheets: int = 8
    per_page: int = 1
    shuffle: bool = False

    def arguments(self) -> list[str]:
        args = [self.layout, "-n", str(self.sheets), "--per-page", str(self.per_page), "-l", self.lang, "-q",
                "--no-index", "-o", "pad"]
        if self.per_page == 2:
            args += ["-p", "a4"]
        if self.symbols:
            args.append("--symbols")
        if self.layout == "qwixx-big-points" or self.layout == "qwixx-gemixxt-b" and self.shuffle:
            args += ["--seed", str(self.seed)]  # (printgen refuses a seed that changes nothing)
        if self.shuffle:
            args.append("--shuffle")
        return args


@cache
def code_digest(layout: str) -> str:
    """A digest of the layout file, of the printgen code that draws a sheet and of its fonts' names and sizes."""
    digest = hashlib.sha256()
    package = ROOT / "printgen"
    files = sorted((ROOT / "layouts").glob(f"{layout}.toml"))
    for folder in ("builders", "render", "printing", "marks", "kinds", "labels", "layouts"):
        files += sorted((package / folder).rglob("*.py"))
    files += [package / "page.py", package / "fonts.py", package / "colours.py"]
    for path in files:
        if path.exists():
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for path in sorted((ROOT / "fonts").glob("*")):  # the fonts by name and size (they are large)
        digest.update(f"{path.name}:{path.stat().st_size}".encode())
    return digest.hexdigest()[:16]


def _folder(pad: Pad) -> Path:
    key = "-".join(str(part) for part in (pad.layout, pad.lang, int(pad.symbols), pad.seed, pad.sheets, pad.per_page,
                                          int(pad.shuffle), code_digest(pad.layout)))
    return CACHE / key


def pdf(pad: Pad) -> Path:
    """The pad's PDF, built once."""
    folder = _folder(pad)
    target = folder / "pad.pdf"
    if target.exists():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=CACHE))
    try:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, "-m", "printgen", "build", *pad.arguments(), "--out", str(work)],
                       check=True, env=env, cwd=work, capture_output=True)
        if not (work / "pad.pdf").exists():
            raise RuntimeError(f"printgen build wrote no pad.pdf for {pad}")
        try:
            work.rename(folder)
        except OSError:  # another process got there first
            pass
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return target


def render(pad: Pad, page: int, dpi: int) -> np.ndarray:
    """Page `page` (from 1) of the pad rendered by Ghostscript at `dpi`, as 8-bit RGB."""
    source = pdf(pad)
    target = source.parent / f"page{page}-{dpi}.png"
    if not target.exists():
        handle, temporary = tempfile.mkstemp(suffix=".png", dir=source.parent)
        os.close(handle)
        try:
            subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=png16m", f"-r{dpi}",
                            "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4", f"-dFirstPage={page}",
                            f"-dLastPage={page}", f"-sOutputFile={temporary}", str(source)],
                           check=True, capture_output=True)
            os.replace(temporary, target)
        finally:
            if os.path.exists(temporary):
                os.unlink(temporary)
    image = cv2.imread(str(target), cv2.IMREAD_COLOR)
    if image is None:
        raise RuntimeError(f"Ghostscript wrote no page {page} of {source}")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def page_pixels(pad: Pad, page: int, size_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """The page as linear RGB floats 0..1 (the render's sRGB decoded), exactly round(size * px_per_mm) pixels."""
    need = px_per_mm * 25.4
    dpi = next((d for d in DPIS if d >= need * 0.95), DPIS[-1])
    rgb = render(pad, page, dpi)
    size = (round(size_mm[0] * px_per_mm), round(size_mm[1] * px_per_mm))
    interpolation = cv2.INTER_AREA if size[0] < rgb.shape[1] else cv2.INTER_CUBIC
    rgb = cv2.resize(rgb, size, interpolation=interpolation)
    return LINEAR[rgb]


LINEAR = np.array([(c / 255) / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in range(256)],
                  np.float32)


def inkjet(rgb: np.ndarray, px_per_mm: float, rng: np.random.Generator,
           marks: np.ndarray | None = None) -> tuple[np.ndarray, str]:
    """An inkjet print of the page (linear RGB), with `marks` (optical density) written on it afterwards: the
    ink, as optical density, wicks into the paper's fibres (feathering), the head's passes leave bands, the ink
    is a little less dense than on screen; the paper is off-white with mottle."""
    h, w = rgb.shape[:2]
    density = cv2.log(np.maximum(rgb, 1e-3))
    density *= -1
    # feathering: density spreads along the fibres, more where the paper is absorbent
    sigma = px_per_mm * rng.uniform(0.03, 0.07)
    angle = rng.uniform(0, 180)
    kernel_size = max(3, int(sigma * 6) | 1)
    kernel = np.zeros((kernel_size, kernel_size), np.float32)
    c = kernel_size // 2
    dx, dy = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    cv2.line(kernel, (round(c - dx * c), round(c - dy * c)), (round(c + dx * c), round(c + dy * c)), 1.0, 1)
    kernel = cv2.GaussianBlur(kernel, (0, 0), max(sigma * 0.6, 0.5))
    kernel /= kernel.sum()
    spread = cv2.filter2D(density, -1, kernel)
    spread -= density
    mix = np.clip(0.55 + 0.35 * _noise((h, w), px_per_mm * 0.35, rng), 0, 1)
    spread *= mix[..., None]
    density += spread
    # banding: each pass of the head lays slightly more or less ink, fine lines where nozzles misfire
    swath = px_per_mm * rng.uniform(6.0, 14.0)
    y = np.arange(h, dtype=np.float32)
    band = 1 + rng.uniform(0.02, 0.06) * np.sin(2 * np.pi * y / swath + rng.uniform(0, 6.3))
    for _ in range(rng.integers(2, 9)):
        row = rng.integers(0, h)
        band[row:row + max(1, round(px_per_mm * 0.08))] *= rng.uniform(0.75, 0.92)
    band *= rng.uniform(0.84, 0.95)
    density *= band.astype(np.float32)[:, None, None]
    # paper: off-white, mottled, with a fine tooth
    tint = np.array([1.0, rng.uniform(0.985, 1.0), rng.uniform(0.955, 0.99)], np.float32) * rng.uniform(0.9, 0.97)
    mottle = 0.008 * _noise((h, w), px_per_mm * 3, rng) + 0.006 * _noise((h, w), 1.5, rng)
    if marks is not None:
        density += marks
    density -= mottle[..., None]
    density *= -1
    out = cv2.exp(density)
    out *= tint[None, None, :]
    return out, f"inkjet (feather {sigma / px_per_mm:.2f} mm, bands {swath / px_per_mm:.0f} mm)"


def _noise(shape: tuple[int, int], scale: float, rng: np.random.Generator) -> np.ndarray:
    """Smooth noise of about unit spread with features of `scale` pixels."""
    small = (max(2, round(shape[1] / max(scale, 1))), max(2, round(shape[0] / max(scale, 1))))
    field = rng.standard_normal((small[1], small[0])).astype(np.float32)
    field = cv2.resize(field, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return field / (field.std() + 1e-6)
