"""What one photo of a family is made of: a seed in, every choice (sheet, game, hand, camera, light...) out."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from benchmarks.photosets.dev.camera import Bend
from benchmarks.photosets.dev.pens import Hand, Pen, random_pen

LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-gemixxt-a", "qwixx-gemixxt-b", "qwixx-bonus-a",
           "qwixx-bonus-b", "qwixx-cards")
LANGS = ("de", "it", "pl", "fr")
PHONE_SIZES = ((4032, 3024), (4000, 3000), (3264, 2448), (4032, 2268), (3000, 2000), (2592, 1944),
               (2048, 1536))
STYLES = ("x", "slash", "tick", "circle", "scribble", "blob")


@dataclass
class Recipe:
    """Every choice for one photo."""

    family: str
    layout: str = "qwixx-standard"
    lang: str = "en"
    symbols: bool = False
    shuffle: bool = False
    per_page: int = 1
    pad_seed: int = 1
    page: int = 0
    px_per_mm: float = 12.0
    players: int = 3
    strategies: list[str] = field(default_factory=list)
    game_seed: int = 0
    stop: float | None = None
    hands: list[Hand] = field(default_factory=list)
    size: tuple[int, int] = (4032, 3024)
    tilt: float = 0.0
    azimuth: float = 0.0
    roll: float = 0.0
    fill: float = 0.75
    focal: float = 0.8
    k1: float = 0.0
    k2: float = 0.0
    bends: list[Bend] = field(default_factory=list)
    light_elevation: float = 1.2
    light_azimuth: float = 0.0
    ambient: float = 0.55
    kelvin: float = 5000.0
    balance: float = 1.0
    uneven: float = 0.1
    shadows: list[float] = field(default_factory=list)
    """Light left in each hard shadow."""
    penumbra: float = 4.0
    glare: list[float] = field(default_factory=list)
    background: str = "plain"
    dice: int = 0
    occluders: list[tuple[str, bool]] = field(default_factory=list)
    """(finger or pen, over a crossed field?)."""
    blur: float = 0.6
    motion: float = 0.0
    motion_angle: float = 0.0
    photons: float = 20000.0
    read: float = 0.002
    vignette: float = 0.2
    white_level: float = 0.75
    contrast: float = 0.1
    sharpen: float = 0.5
    denoise: float = 0.0
    quality: int = 90
    orientation: int = 1


def _hand(rng: np.random.Generator, pen: Pen, styles: dict[str, float], sloppy: tuple[float, float],
          overrun: float = 0.0) -> Hand:
    strikes = rng.random() < 0.35
    return Hand(pen=pen, styles=styles, size=rng.uniform(0.6, 0.9), sloppy=rng.uniform(*sloppy),
                overrun=overrun, strikes_skipped=rng.uniform(0.6, 1.0) if strikes else 0.0,
                strikes_closed=rng.uniform(0.3, 1.0) if strikes and rng.random() < 0.6 else 0.0,
                writes_totals=rng.random() < 0.6, writes_name=rng.random() < 0.7)


def _pens_hand(rng: np.random.Generator) -> Hand:
    """A hand of the pens family: any pen, a favourite mark with others mixed in, overruns."""
    pen = random_pen(rng, ("ballpoint", "gel", "felt", "pencil"))
    favourite = STYLES[int(rng.integers(len(STYLES)))]
    styles = {s: rng.uniform(0.0, 0.35) for s in STYLES}
    styles[favourite] = 1.0
    if rng.random() < 0.3:
        styles["overrun"] = rng.uniform(0.2, 0.5)
    return _hand(rng, pen, styles, (0.8, 1.6), overrun=rng.uniform(0.05, 0.25))


def recipe(family: str, rng: np.random.Generator) -> Recipe:
    """Mild conditions for every family, then the family's own."""
    r = Recipe(family)
    r.layout = LAYOUTS[int(rng.integers(len(LAYOUTS)))]
    r.lang = "en" if rng.random() < 0.55 else LANGS[int(rng.integers(len(LANGS)))]
    r.symbols = rng.random() < 0.25
    r.shuffle = r.layout == "qwixx-gemixxt-b" and rng.random() < 0.6
    r.pad_seed = int(rng.integers(1, 40)) if r.shuffle or r.layout == "qwixx-big-points" else 1
    r.page = int(rng.integers(8))
    r.px_per_mm = rng.uniform(10, 16)
    r.players = int(rng.integers(2, 6))
    r.strategies = [["greedy", "random"][int(rng.random() < 0.35)] for _ in range(r.players)]
    r.game_seed = int(rng.integers(1 << 30))
    r.stop = rng.uniform(0.3, 0.9) if rng.random() < 0.25 else None
    pen = random_pen(rng, ("ballpoint",) * 8 + ("gel", "felt") if family != "mild" else ("ballpoint",))
    r.hands = [_hand(rng, pen, {"x": 1.0, "slash": 0.06 if family != "mild" else 0.0}, (0.4, 1.0))]
    long_side, short_side = PHONE_SIZES[int(rng.integers(len(PHONE_SIZES)))]
    r.size = (long_side, short_side) if rng.random() < 0.85 else (short_side, long_side)
    r.tilt = math.radians(rng.uniform(0, 12))
    r.azimuth = rng.uniform(0, 2 * math.pi)
    r.roll = math.radians(rng.normal(0, 4))
    r.fill = rng.uniform(0.6, 0.9)
    r.focal = rng.uniform(0.7, 1.0)
    r.k1 = rng.uniform(-0.02, 0.02)
    r.bends = [Bend("wave", rng.uniform(0, 1.5), {"angle": rng.uniform(0, math.pi), "length":
                                                   rng.uniform(150, 400), "phase": rng.uniform(0, 6.3)})]
    r.light_elevation = math.radians(rng.uniform(45, 80))
    r.light_azimuth = rng.uniform(0, 2 * math.pi)
    r.ambient = rng.uniform(0.4, 0.7)
    r.kelvin = rng.uniform(3800, 6500)
    r.balance = rng.uniform(0.8, 1.0)
    r.uneven = rng.uniform(0.03, 0.2)
    r.background = ("plain", "plain", "wood", "stone")[int(rng.integers(4))]
    r.blur = rng.uniform(0.4, 0.9)
    r.photons = rng.uniform(8000, 30000)
    r.read = rng.uniform(0.001, 0.003)
    r.vignette = rng.uniform(0.08, 0.3)
    r.white_level = rng.uniform(0.62, 0.85)
    r.contrast = rng.uniform(0.0, 0.25)
    r.sharpen = rng.uniform(0.2, 0.8)
    r.quality = int(rng.integers(80, 96))
    _family(r, rng)
    return r


def _family(r: Recipe, rng: np.random.Generator) -> None:
    family = r.family
    if family == "tilt":
        r.tilt = math.radians(rng.uniform(18, 35))
        r.roll = rng.uniform(0, 2 * math.pi)
        r.fill = rng.uniform(0.45, 0.85)
    elif family == "exif":
        r.orientation = int(rng.integers(2, 9))
        r.roll = math.radians(rng.normal(0, 6)) + (math.pi if rng.random() < 0.2 else 0.0)
    elif family == "light":
        warm = rng.random() < 0.55
        r.kelvin = rng.uniform(2300, 3200) if warm else rng.uniform(7000, 10000)
        r.balance = rng.uniform(0.15, 0.7)
        r.uneven = rng.uniform(0.2, 0.6)
        shadows = rng.random() < 0.65
        if shadows:
            r.shadows = [rng.uniform(0.4, 0.8) for _ in range(int(rng.integers(1, 3)))]
            r.penumbra = rng.uniform(1.5, 10)
        if not shadows or rng.random() < 0.35:
            r.glare = [rng.uniform(0.3, 1.5) for _ in range(int(rng.integers(1, 3)))]
        r.light_elevation = math.radians(rng.uniform(25, 70))
    elif family == "lens":
        r.k1 = rng.uniform(-0.12, 0.1)
        r.k2 = rng.uniform(-0.02, 0.02)
        r.focal = rng.uniform(0.6, 0.85)
        r.tilt = math.radians(rng.uniform(0, 22))
        r.roll = rng.uniform(0, 2 * math.pi) if rng.random() < 0.3 else r.roll
        r.bends += _bends(rng, 1 if rng.random() < 0.6 else 2)
    elif family == "degraded":
        long_side = int(rng.uniform(1400, 2300))
        short_side = int(long_side * (0.75 if rng.random() < 0.8 else 0.5625))
        r.size = (long_side, short_side) if rng.random() < 0.85 else (short_side, long_side)
        r.fill = rng.uniform(0.45, 0.8)
        what = set(rng.choice(["defocus", "motion", "dark", "jpeg"], size=int(rng.integers(1, 4)), replace=False))
        if "defocus" in what:
            r.blur = rng.uniform(1.2, 2.8)
        if "motion" in what:
            r.motion = rng.uniform(3, 10)
            r.motion_angle = rng.uniform(0, math.pi)
        if "dark" in what:
            r.photons = rng.uniform(150, 1200)
            r.read = rng.uniform(0.004, 0.012)
            r.denoise = rng.uniform(0.3, 1.0)
            r.kelvin = rng.uniform(2600, 4000)
            r.balance = rng.uniform(0.5, 0.9)
        poor = "jpeg" in what or rng.random() < 0.5
        r.quality = int(rng.integers(40, 61)) if poor else int(rng.integers(60, 80))
    elif family == "occluded":
        r.background = ("wood", "cloth", "newspaper", "stone", "dots")[int(rng.integers(5))]
        r.dice = int(rng.integers(0, 4))
        things = []
        if rng.random() < 0.6:
            things.append("finger")
        if rng.random() < 0.55 or not things:
            things.append("pen")
        r.occluders = [(thing, bool(rng.random() < 0.5)) for thing in things]
        r.fill = rng.uniform(0.5, 0.8)
    elif family == "pens":
        r.hands = [_pens_hand(rng)]
    elif family == "twoup":
        r.per_page = 2
        r.page = int(rng.integers(4))
        r.px_per_mm = rng.uniform(10, 13)
        r.size = (r.size[1], r.size[0]) if rng.random() < 0.85 else r.size
        r.fill = rng.uniform(0.72, 0.94)
        r.roll = math.radians(rng.normal(0, 5)) + (math.pi / 2 * int(rng.integers(4)) if rng.random() < 0.3 else 0)
        pen = random_pen(rng, ("ballpoint",) * 6 + ("gel", "felt", "pencil"))
        r.hands.append(_hand(rng, pen, {"x": 1.0, "slash": 0.1}, (0.4, 1.2)))


def _bends(rng: np.random.Generator, count: int) -> list[Bend]:
    found = []
    for kind in rng.choice(["curl", "arch", "bump", "fold"], size=count, replace=False):
        amount = rng.uniform(5, 20)
        if kind == "curl":
            found.append(Bend("curl", amount, {"edge": int(rng.integers(8)), "length": rng.uniform(20, 60)}))
        elif kind == "arch":
            found.append(Bend("arch", amount, {"axis": float(rng.random() < 0.5)}))
        elif kind == "bump":
            found.append(Bend("bump", amount, {"x": rng.uniform(0.3, 0.7), "y": rng.uniform(0.3, 0.7),
                                               "sigma": rng.uniform(30, 70)}))
        else:
            found.append(Bend("fold", rng.uniform(3, 10), {
                "x": rng.uniform(0.35, 0.65), "y": rng.uniform(0.35, 0.65),
                "angle": rng.choice([0.0, math.pi / 2, rng.uniform(0, math.pi)]),
                "round": rng.uniform(1.5, 5), "reach": rng.uniform(60, 110), "ridge": float(rng.random() < 0.5)}))
    return found
