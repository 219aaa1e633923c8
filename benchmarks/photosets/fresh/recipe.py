"""Recipes: a family and a seed in, the settings of every stage of one photo out."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-bonus-a", "qwixx-bonus-b", "qwixx-cards",
           "qwixx-gemixxt-a", "qwixx-gemixxt-b")
LANGS = ("en", "en", "de", "fr", "it", "pl")
EVERYDAY = {"x": 0.75, "x-long": 0.05, "slash": 0.1, "tick": 0.05, "circle": 0.02, "scribble": 0.02, "blob": 0.01}
ANY_MARK = {"x": 0.25, "x-long": 0.15, "slash": 0.15, "tick": 0.12, "circle": 0.12, "scribble": 0.11, "blob": 0.1}


@dataclass
class Recipe:
    """Everything one photo is made with."""

    layout: str
    lang: str
    symbols: bool
    pad_seed: int
    sheet: int
    sheets: int = 1
    pen: str | None = None
    mix: float = 0.3
    styles: dict[str, float] = field(default_factory=lambda: dict(EVERYDAY))
    width: int = 4000
    portrait: bool = False
    tilt: float = 5.0
    fill: float = 0.7
    distortion: float = 0.0
    bend: float = 1.0
    curl: float = 0.0
    table: str = "wood"
    clutter: bool = True
    cast: str = "led"
    window: float = 0.2
    shadows: int = 0
    hardness: float = 0.3
    bounce: float = 0.0
    glare: float = 0.0
    occluders: int = 0
    blur: float = 0.8
    motion: float = 0.0
    photons: float = 2000.0
    quality: int = 90
    orientation: int = 1
    local: float = 0.4
    sharpen: float = 0.6
    light: float = 1.0


def recipe(family: str, rng: np.random.Generator) -> Recipe:
    """The settings for one photo of `family`: ordinary room conditions, then the family's own."""
    r = Recipe(layout=str(rng.choice(LAYOUTS)), lang=str(rng.choice(LANGS)), symbols=bool(rng.random() < 0.2),
               pad_seed=int(rng.integers(1, 9)), sheet=int(rng.integers(0, 7)))
    r.width = int(rng.integers(1500, 2001)) * 2
    r.portrait = bool(rng.random() < 0.35)
    r.tilt = float(rng.uniform(0, 15))
    r.fill = float(rng.uniform(0.45, 0.85))
    r.distortion = float(rng.uniform(-0.05, 0.02))
    r.bend = float(rng.uniform(0.3, 2.5))
    r.curl = float(rng.choice([0.0, 0.0, rng.uniform(1, 5)]))
    r.table = str(rng.choice(("wood", "wood", "laminate", "cloth", "stone", "dark")))
    r.cast = str(rng.choice(("led", "warm", "daylight", "cool", "tungsten"), p=[0.3, 0.3, 0.2, 0.1, 0.1]))
    r.window = float(rng.uniform(0, 0.45))
    r.shadows = int(rng.random() < 0.3)
    r.hardness = float(rng.uniform(0.0, 0.4))
    r.glare = float(rng.choice([0.0, 0.0, 0.0, rng.uniform(0.05, 0.3)]))
    r.blur = float(rng.uniform(0.5, 1.4))
    r.photons = float(rng.uniform(700, 3500))
    r.quality = int(rng.integers(78, 96))
    r.orientation = int(rng.choice([1, 1, 1, 1, 6, 8, 3]))
    r.local = float(rng.uniform(0.15, 0.6))
    r.sharpen = float(rng.uniform(0.3, 1.2))
    if family == "tilt":
        r.tilt = float(rng.uniform(25, 40))
        r.fill = float(rng.uniform(0.5, 0.9))
    elif family == "exif":
        r.orientation = int(rng.integers(2, 9))
    elif family == "light":
        r.cast = str(rng.choice(("warm", "tungsten", "cool", "led")))
        r.window = float(rng.uniform(0.4, 0.9))
        r.shadows = int(rng.integers(1, 3))
        r.hardness = float(rng.uniform(0.6, 1.0))
        r.glare = float(rng.choice([0.0, rng.uniform(0.3, 1.2), rng.uniform(0.3, 1.2)]))
        r.bounce = float(rng.choice([0.0, rng.uniform(0.3, 0.8)]))
    elif family == "lens":
        r.distortion = float(rng.uniform(-0.35, -0.12))
        r.fill = float(rng.uniform(0.65, 0.95))
        r.curl = float(rng.uniform(8, 25))
        r.bend = float(rng.uniform(2, 6))
    elif family == "degraded":
        if rng.random() < 0.5:
            r.blur = float(rng.uniform(2.0, 5.0))
        else:
            r.motion = float(rng.uniform(3, 10))
        r.photons = float(rng.uniform(50, 300))
        r.light = float(rng.uniform(0.2, 0.6))
        r.quality = int(rng.integers(40, 66))
    elif family == "occluded":
        r.occluders = int(rng.integers(1, 4))
    elif family == "pens":
        r.styles = dict(ANY_MARK)
        r.mix = 1.0
        r.pen = str(rng.choice(("ballpoint", "gel", "felt", "pencil")))
    elif family == "twoup":
        r.sheets = 2
        r.tilt = float(rng.uniform(0, 20))
        r.fill = float(rng.uniform(0.55, 0.9))
    return r
