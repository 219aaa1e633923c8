"""Printed sheets: `printgen build` pads rendered by MuPDF (`mutool draw`), cached, printed by a laser-toner model.

The lucky pair and the shuffled order of a pad sheet are dealt again from the
pad's seed as printgen's pad does (`rules.lucky.deal` over the pool for the
whole pad, `rules.variants.shuffled_numbers` sheet after sheet from one
`random.Random(seed)`).
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from printgen import layouts
from printgen.rules import qwixx
from printgen.rules.lucky import balanced_pool, deal
from printgen.rules.variants import shuffled_numbers

ROOT = Path(__file__).resolve().parents[3]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "printgen-photoset-fifth"
PAD = 8
LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-bonus-a", "qwixx-bonus-b", "qwixx-cards",
           "qwixx-gemixxt-a", "qwixx-gemixxt-b")


@dataclass(frozen=True)
class Pad:
    layout: str
    lang: str
    symbols: bool
    seed: int
    shuffle: bool
    per_page: int  # 1: the sheet's own page; 2: an A4 page of two

    def args(self) -> list[str]:
        args = [self.layout, "-n", str(PAD), "--per-page", str(self.per_page), "-l", self.lang]
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
def _code_digest() -> str:
    """A digest of what draws a sheet (a change of printgen's drawing code or layouts builds afresh)."""
    digest = hashlib.sha256()
    for folder in ("builders", "render", "printing", "marks", "kinds", "labels", "layouts"):
        for path in sorted((ROOT / "printgen" / folder).rglob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for path in sorted((ROOT / "layouts").glob("*.toml")):
        digest.update(path.read_bytes())
    for path in sorted((ROOT / "fonts").rglob("*")):
        if path.is_file():
            digest.update(f"{path.name}:{path.stat().st_size}".encode())
    return digest.hexdigest()[:16]


def _key(pad: Pad) -> str:
    return hashlib.sha256(("|".join(pad.args()) + _code_digest()).encode()).hexdigest()[:20]


def pdf(pad: Pad) -> Path:
    """The pad's PDF, built once (into a temporary folder renamed into place)."""
    target = CACHE / f"{_key(pad)}.pdf"
    if target.exists():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as temporary:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        subprocess.run([sys.executable, "-m", "printgen", "build", *pad.args(), "--out", temporary, "-o", "pad",
                        "--no-index", "-q"], check=True, env=env, capture_output=True, cwd=temporary)
        os.replace(Path(temporary) / "pad.pdf", target)
    return target


def render(pad: Pad, page: int, dpi: int) -> np.ndarray:
    """Page `page` (1-based) of the pad drawn by MuPDF at `dpi`, as sRGB uint8 RGB."""
    target = CACHE / f"{_key(pad)}-{page}-{dpi}.png"
    if not target.exists():
        source = pdf(pad)
        handle, temporary = tempfile.mkstemp(dir=CACHE, suffix=".png")
        os.close(handle)
        subprocess.run(["mutool", "draw", "-q", "-r", str(dpi), "-c", "rgb", "-o", temporary, str(source),
                        str(page)], check=True, capture_output=True)
        os.replace(temporary, target)
    image = cv2.imread(str(target), cv2.IMREAD_COLOR)
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)


def dealt(pad: Pad, index: int) -> tuple[tuple[int, int] | None, tuple[tuple[int, ...], ...] | None]:
    """The lucky pair and shuffled order printed on sheet `index` (0-based) of the pad."""
    layout = layouts.load(pad.layout)
    spec = qwixx.variant(layout.rules)  # type: ignore[union-attr]
    lucky = None
    if layout.lucky_numbers:  # type: ignore[union-attr]
        lucky = deal(balanced_pool(spec.dice_sides), PAD, pad.seed)[index]
    numbers = None
    if pad.shuffle:
        rng = random.Random(pad.seed)
        for _ in range(index + 1):
            numbers = shuffled_numbers(spec, rng)
    return lucky, numbers


# -- the laser printer ---------------------------------------------------------


_X = np.arange(256, dtype=np.float64) / 255
_LINEAR = np.where(_X <= 0.04045, _X / 12.92, ((_X + 0.055) / 1.055) ** 2.4).astype(np.float32)


def srgb_to_linear(image: np.ndarray) -> np.ndarray:
    return _LINEAR[image]


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> np.ndarray:
    small = (max(2, int(shape[0] / scale) + 2), max(2, int(shape[1] / scale) + 2))
    field = rng.standard_normal(small).astype(np.float32)
    return cv2.resize(field, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def laser(image: np.ndarray, ppm: float, rng: np.random.Generator) -> tuple[np.ndarray, dict[str, float]]:
    """An sRGB render printed by a laser printer: linear reflectance (float32 RGB) out.

    Toner is optical density per channel; the fused toner spreads (dot gain as
    a small blur whose density is lifted in mid tones), the particles make the
    density grainy where the toner is thin (tints, edges), stray toner specks
    land on the paper, and the paper has a tint, a fibrous grain and a
    slight sheen. The toner is 0-10 % weaker than the screen colours.
    """
    h, w = image.shape[:2]
    linear = srgb_to_linear(image)
    density = -np.log10(np.clip(linear, 1e-3, 1.0))
    gain = rng.uniform(0.05, 0.2)
    sigma = rng.uniform(0.03, 0.06) * ppm
    density = cv2.GaussianBlur(density, (0, 0), sigma)
    peak = np.float32(2.0)
    density = density * (1 + gain * (1 - density / peak).clip(0, 1))
    grain = rng.standard_normal((h, w)).astype(np.float32)
    grain = cv2.GaussianBlur(grain, (0, 0), max(0.5, 0.025 * ppm)) * 2.2
    thin = np.exp(-density.max(axis=2) * 2.5)[..., None]  # thin toner is grainy, solid toner is even
    density = density * (1 + 0.35 * thin * grain[..., None]).clip(0.3, 1.8) * rng.uniform(0.9, 1.0)
    specks = (rng.random((h, w)) < rng.uniform(5e-7, 6e-6) * (10 / ppm) ** 2).astype(np.float32)
    specks = cv2.GaussianBlur(cv2.dilate(specks, np.ones((2, 2), np.uint8)), (0, 0), 0.6) * 3
    density += (specks * rng.uniform(0.3, 0.8))[..., None].clip(0, 1)
    tint = np.array([1.0, rng.uniform(0.985, 1.0), rng.uniform(0.94, 0.99)], np.float32) * rng.uniform(0.86, 0.93)
    fibre = _smooth_noise(rng, (h, w), 0.6 * ppm) * 0.012 + _smooth_noise(rng, (h, w), 4 * ppm) * 0.01
    paper = tint[None, None, :] * (1 + fibre[..., None])
    out = paper * np.power(10.0, -density).astype(np.float32)
    return out.astype(np.float32), {"dot_gain": round(gain, 2)}


def tooth(shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> np.ndarray:
    """The paper's tooth (0..1, peaks high) for graphite."""
    t = _smooth_noise(rng, shape, max(1.0, 0.12 * ppm)) + 0.5 * rng.standard_normal(shape).astype(np.float32)
    return (0.5 + 0.25 * t).clip(0, 1)
