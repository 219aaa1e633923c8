"""Pens and hands: stroke model (jittered curves, varying width, ink absorption) and the marks players make."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

_LEVELS = np.arange(256) / 255.0
TO_LINEAR = np.where(_LEVELS <= 0.04045, _LEVELS / 12.92, ((_LEVELS + 0.055) / 1.055) ** 2.4).astype(np.float32)
_FINE = np.linspace(0.0, 1.0, 4096)
TO_SRGB = np.clip(255 * np.where(_FINE <= 0.0031308, 12.92 * _FINE, 1.055 * _FINE ** (1 / 2.4) - 0.055) + 0.5,
                  0, 255).astype(np.uint8)

INKS = {  # how each ink looks at full strength on white paper (sRGB)
    "blue": (32, 44, 138), "black": (38, 38, 46), "gel-black": (18, 18, 24), "gel-blue": (22, 38, 160),
    "felt-black": (24, 24, 30), "felt-blue": (18, 52, 165), "red": (185, 32, 40), "green": (24, 112, 56),
    "purple": (88, 40, 140), "graphite": (82, 82, 88),
}


@dataclass
class Pen:
    """A pen: what it is, its ink's colour name, its line width (mm), how strongly it inks (0..1)."""

    kind: str
    ink: str
    width: float
    density: float
    wobble: float = 1.0

    @property
    def transmittance(self) -> np.ndarray:
        return TO_LINEAR[np.array(INKS[self.ink])]


def random_pen(rng: np.random.Generator, kinds: tuple[str, ...]) -> Pen:
    """A pen of one of `kinds` (ballpoint, gel, felt, pencil)."""
    kind = kinds[int(rng.integers(len(kinds)))]
    if kind == "ballpoint":
        return Pen(kind, "blue" if rng.random() < 0.6 else "black", rng.uniform(0.3, 0.5), rng.uniform(0.82, 1.0))
    if kind == "gel":
        ink = ["gel-black", "gel-blue", "gel-blue", "purple", "green"][int(rng.integers(5))]
        return Pen(kind, ink, rng.uniform(0.45, 0.75), rng.uniform(0.88, 0.98))
    if kind == "felt":
        ink = ["felt-black", "felt-blue", "felt-black", "red", "green"][int(rng.integers(5))]
        return Pen(kind, ink, rng.uniform(0.9, 1.6), rng.uniform(0.8, 0.95))
    return Pen("pencil", "graphite", rng.uniform(0.35, 0.7), rng.uniform(0.5, 0.85))


def _smooth_noise(rng: np.random.Generator, n: int, scale: float) -> np.ndarray:
    """`n` values of a smooth random function with features about `scale` samples long (-1..1)."""
    knots = max(2, int(n / max(scale, 1.0)) + 2)
    values = rng.uniform(-1, 1, knots)
    return np.interp(np.linspace(0, knots - 1, n), np.arange(knots), values)


def catmull_rom(points: np.ndarray, step: float) -> np.ndarray:
    """A centripetal-ish Catmull-Rom curve through `points` (k, 2), sampled about every `step` units."""
    if len(points) == 2:
        length = float(np.hypot(*(points[1] - points[0])))
        t = np.linspace(0, 1, max(2, int(length / step) + 1))[:, None]
        return points[0] * (1 - t) + points[1] * t
    padded = np.vstack([2 * points[0] - points[1], points, 2 * points[-1] - points[-2]])
    out = []
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1], padded[i], padded[i + 1], padded[i + 2]
        length = float(np.hypot(*(p2 - p1)))
        t = np.linspace(0, 1, max(2, int(length / step) + 1), endpoint=i == len(padded) - 3)[:, None]
        t2, t3 = t * t, t * t * t
        out.append(0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2
                          + (3 * p1 - p0 - 3 * p2 + p3) * t3))
    return np.vstack(out)


class Canvas:
    """The printed page (RGB uint8 sRGB, changed in place) that pens ink, in mm."""

    def __init__(self, image: np.ndarray, px_per_mm: float, rng: np.random.Generator) -> None:
        self.image = image
        self.ppm = px_per_mm
        self.rng = rng

    def stroke(self, points_mm: list[tuple[float, float]] | np.ndarray, pen: Pen, pressure: float = 1.0,
               jitter: float = 1.0) -> None:
        """One stroke through `points_mm` (a curve through them, with the hand's tremor)."""
        rng = self.rng
        control = np.asarray(points_mm, float) * self.ppm
        curve = catmull_rom(control, 0.45)
        n = len(curve)
        if n < 2:
            return
        # hand tremor: a smooth sideways wander
        tangent = np.gradient(curve, axis=0)
        tangent /= np.maximum(np.hypot(tangent[:, 0], tangent[:, 1]), 1e-6)[:, None]
        normal = np.stack([-tangent[:, 1], tangent[:, 0]], 1)
        tremor = _smooth_noise(rng, n, 12 * self.ppm) * 0.1 * self.ppm * jitter * pen.wobble
        curve = curve + normal * tremor[:, None]
        t = np.linspace(0, 1, n)
        radius = np.full(n, pen.width * self.ppm / 2 * pressure)
        density = np.full(n, pen.density)
        if pen.kind == "ballpoint":
            radius *= 1 + 0.25 * _smooth_noise(rng, n, 3 * self.ppm)
            density *= np.clip(0.82 + 0.22 * _smooth_noise(rng, n, 2 * self.ppm), 0.4, 1.0)
            radius *= np.clip(np.minimum(t, 1 - t) * n / (1.5 * self.ppm) + 0.55, 0, 1)
            for _ in range(int(rng.poisson(0.6 * n / (10 * self.ppm)))):  # the ball skips
                at = rng.uniform(0, 1)
                density *= 1 - 0.6 * np.exp(-((t - at) * n / (0.25 * self.ppm)) ** 2)
        elif pen.kind == "pencil":
            radius *= 1 + 0.2 * _smooth_noise(rng, n, 4 * self.ppm)
            density *= np.clip(0.85 + 0.25 * _smooth_noise(rng, n, 3 * self.ppm), 0.3, 1.0)
            radius *= np.clip(np.minimum(t, 1 - t) * n / (1.0 * self.ppm) + 0.6, 0, 1)
        elif pen.kind == "felt":
            radius *= 1 + 0.06 * _smooth_noise(rng, n, 5 * self.ppm)
            radius *= np.clip(np.minimum(t, 1 - t) * n / (0.6 * self.ppm) + 0.75, 0, 1)
        else:
            radius *= 1 + 0.1 * _smooth_noise(rng, n, 4 * self.ppm)
            radius *= np.clip(np.minimum(t, 1 - t) * n / (0.8 * self.ppm) + 0.6, 0, 1)
        radius = np.maximum(radius, 0.35)
        self._ink(curve, radius, density, pen)

    def fill(self, polygon_mm: np.ndarray, pen: Pen) -> None:
        """A filled blob: the area inked (unevenly, as a hand fills it), then its outline."""
        rng = self.rng
        points = np.asarray(polygon_mm, float) * self.ppm
        x0, y0 = np.floor(points.min(0)).astype(int) - 3
        x1, y1 = np.ceil(points.max(0)).astype(int) + 4
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.image.shape[1]), min(y1, self.image.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        scale = 4
        mask = np.zeros(((y1 - y0) * scale, (x1 - x0) * scale), np.uint8)
        cv2.fillPoly(mask, [np.round((points - [x0, y0]) * scale).astype(np.int32)], 255, cv2.LINE_AA)
        cover = cv2.resize(mask, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        h, w = cover.shape
        blotch = cv2.resize(rng.uniform(0.7, 1.0, (max(2, h // 6), max(2, w // 6))).astype(np.float32), (w, h))
        cover *= blotch * pen.density if pen.kind != "felt" else pen.density
        self._apply(cover, x0, y0, pen)
        outline = np.vstack([polygon_mm, polygon_mm[:1]])
        self.stroke(outline, pen, 1.0, 0.5)

    def _ink(self, curve: np.ndarray, radius: np.ndarray, density: np.ndarray, pen: Pen) -> None:
        pad = float(radius.max()) + 3
        x0 = int(max(math.floor(curve[:, 0].min() - pad), 0))
        y0 = int(max(math.floor(curve[:, 1].min() - pad), 0))
        x1 = int(min(math.ceil(curve[:, 0].max() + pad), self.image.shape[1]))
        y1 = int(min(math.ceil(curve[:, 1].max() + pad), self.image.shape[0]))
        if x1 - x0 < 2 or y1 - y0 < 2:
            return
        h, w = y1 - y0, x1 - x0
        ix = np.clip(np.round(curve[:, 0]).astype(int) - x0, 0, w - 1)
        iy = np.clip(np.round(curve[:, 1]).astype(int) - y0, 0, h - 1)
        seeds = np.full((h, w), 255, np.uint8)
        seeds[iy, ix] = 0
        owner = np.full((h, w), -1, np.int32)
        owner[iy, ix] = np.arange(len(curve))
        _, labels = cv2.distanceTransformWithLabels(seeds, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
        zy, zx = np.nonzero(seeds == 0)
        nearest = owner[zy, zx][labels - 1]
        gy, gx = np.mgrid[y0:y1, x0:x1]
        d = np.hypot(gx - curve[nearest, 0], gy - curve[nearest, 1])
        cover = np.clip(radius[nearest] - d + 0.5, 0, 1) * density[nearest]
        if pen.kind == "ballpoint":
            grain = cv2.GaussianBlur(self.rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8)
            cover *= np.clip(0.95 + 0.6 * grain, 0.6, 1)
        elif pen.kind == "pencil":
            tooth = cv2.GaussianBlur(self.rng.standard_normal((h, w)).astype(np.float32), (0, 0),
                                     0.07 * self.ppm + 0.4)
            tooth /= tooth.std() + 1e-6
            cover *= np.clip(0.8 + 0.25 * tooth, 0.3, 1)
        elif pen.kind == "felt":
            cover = cv2.GaussianBlur(cover.astype(np.float32), (0, 0), 0.04 * self.ppm + 0.3)
        self._apply(cover.astype(np.float32), x0, y0, pen)

    def _apply(self, cover: np.ndarray, x0: int, y0: int, pen: Pen) -> None:
        h, w = cover.shape
        patch = self.image[y0:y0 + h, x0:x0 + w]
        linear = TO_LINEAR[patch]
        linear *= 1 - cover[:, :, None] * (1 - pen.transmittance)[None, None, :]
        patch[:] = TO_SRGB[np.clip(linear * 4095 + 0.5, 0, 4095).astype(np.int32)]


# -- marks ------------------------------------------------------------------------------------------------------


def _rotate(points: np.ndarray, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return points @ np.array([[c, s], [-s, c]])


def _bowed(a: np.ndarray, b: np.ndarray, bow: float, rng: np.random.Generator, wiggle: float) -> np.ndarray:
    """A nearly straight stroke from a to b, bowed sideways by `bow` (mm) with a little wiggle."""
    direction = b - a
    normal = np.array([-direction[1], direction[0]]) / max(float(np.hypot(*direction)), 1e-6)
    points = [a]
    for f in (0.33, 0.66):
        points.append(a + direction * f + normal * (bow * math.sin(math.pi * f) + rng.normal(0, wiggle)))
    points.append(b)
    return np.array(points)


@dataclass
class Hand:
    """How one player marks: pen, preferred marks, size, care."""

    pen: Pen
    styles: dict[str, float]
    size: float
    sloppy: float
    overrun: float = 0.0
    strikes_skipped: float = 0.0
    strikes_closed: float = 0.0
    writes_totals: bool = False
    writes_name: bool = False

    def style(self, rng: np.random.Generator) -> str:
        names = list(self.styles)
        weights = np.array([self.styles[n] for n in names], float)
        return names[int(rng.choice(len(names), p=weights / weights.sum()))]


def mark(canvas: Canvas, hand: Hand, style: str, cx: float, cy: float, side: float,
         overrun_to: tuple[float, float] | None = None) -> None:
    """A player's mark of `style` in the field centred on (cx, cy) mm of size `side` mm.

    `overrun_to`: a point in a neighbouring field one stroke of the X runs on to."""
    rng = canvas.rng
    pen = hand.pen
    centre = np.array([cx, cy]) + rng.normal(0, 0.06 * side * hand.sloppy, 2)
    size = side * hand.size * rng.uniform(0.85, 1.15)
    tilt = rng.normal(0, 0.12 * hand.sloppy)
    if style in ("x", "overrun"):
        a = size * 0.5
        ends = [(np.array([-a, -a]), np.array([a, a])), (np.array([a, -a]), np.array([-a, a]))]
        for k, (p, q) in enumerate(ends):
            p = _rotate(p + rng.normal(0, 0.07 * side * hand.sloppy, 2), tilt) + centre
            q = _rotate(q + rng.normal(0, 0.07 * side * hand.sloppy, 2), tilt) + centre
            if style == "overrun" and overrun_to is not None and k == 0:
                q = np.array(overrun_to) + rng.normal(0, 0.05 * side, 2)
            bow = rng.normal(0, 0.05 * side)
            canvas.stroke(_bowed(p, q, bow, rng, 0.02 * side), pen, rng.uniform(0.9, 1.1))
    elif style == "slash":
        a = size * 0.55
        p = _rotate(np.array([-a * 0.8, a]), tilt) + centre
        q = _rotate(np.array([a * 0.8, -a]), tilt) + centre
        canvas.stroke(_bowed(p, q, rng.normal(0, 0.05 * side), rng, 0.02 * side), pen)
    elif style == "tick":
        a = size * 0.5
        points = np.array([[-0.75 * a, 0.0], [-0.2 * a, 0.6 * a], [0.85 * a, -0.9 * a]])
        points += rng.normal(0, 0.06 * a, points.shape)
        canvas.stroke(_rotate(points, tilt) + centre, pen)
    elif style == "circle":
        rx = side * rng.uniform(0.33, 0.46)
        ry = rx * rng.uniform(0.8, 1.08)
        start = rng.uniform(0, 2 * math.pi)
        sweep = rng.uniform(2.05, 2.3) * math.pi * (1 if rng.random() < 0.5 else -1)
        angles = start + np.linspace(0, sweep, 12)
        wobble = 1 + 0.06 * rng.standard_normal(12)
        points = np.stack([rx * wobble * np.cos(angles), ry * wobble * np.sin(angles)], 1)
        points += np.array([0, 0]) + np.linspace(0, 1, 12)[:, None] * rng.normal(0, 0.04 * side, 2)
        canvas.stroke(_rotate(points, tilt) + centre, pen)
    elif style == "scribble":
        a = size * 0.45
        lines = int(rng.integers(5, 10))
        ys = np.linspace(-a, a, lines)
        xs = np.where(np.arange(lines) % 2 == 0, -a, a) * rng.uniform(0.75, 1.05, lines)
        points = np.stack([xs, ys + rng.normal(0, 0.05 * a, lines)], 1)
        canvas.stroke(_rotate(points, tilt + rng.uniform(-0.6, 0.6)) + centre, pen, 1.0, 0.6)
    elif style == "blob":
        r = side * rng.uniform(0.3, 0.48)
        angles = np.linspace(0, 2 * math.pi, 40, endpoint=False)
        radii = r * (1 + sum(rng.normal(0, 0.07) * np.cos(k * angles + rng.uniform(0, 6.3)) for k in (1, 2, 3, 5)))
        polygon = np.stack([radii * np.cos(angles) * rng.uniform(0.85, 1.1), radii * np.sin(angles)], 1)
        canvas.fill(_rotate(polygon, tilt) + centre, pen)
    else:
        raise ValueError(style)


def strike(canvas: Canvas, hand: Hand, cx: float, cy: float, side: float) -> None:
    """A level line struck through the number at (cx, cy): a skipped number, not a cross."""
    rng = canvas.rng
    half = side * rng.uniform(0.3, 0.46)
    dy = rng.normal(0, 0.05 * side)
    slope = rng.normal(0, 0.025 * side)
    p = np.array([cx - half, cy + dy - slope])
    q = np.array([cx + half, cy + dy + slope])
    canvas.stroke(_bowed(p, q, rng.normal(0, 0.015 * side), rng, 0.005 * side), hand.pen, 0.9, 0.3)


def big_cross(canvas: Canvas, hand: Hand, x: float, y: float, w: float, h: float) -> None:
    """A box struck corner to corner (a Bonus B box won)."""
    rng = canvas.rng
    inset = min(w, h) * rng.uniform(0.08, 0.2)
    for p, q in (((x + inset, y + inset), (x + w - inset, y + h - inset)),
                 ((x + w - inset, y + inset), (x + inset, y + h - inset))):
        p = np.array(p) + rng.normal(0, 0.5, 2)
        q = np.array(q) + rng.normal(0, 0.5, 2)
        canvas.stroke(_bowed(p, q, rng.normal(0, 0.6), rng, 0.2), hand.pen)


DIGITS = {
    "0": [(0.5, 0), (0.1, 0.3), (0.15, 0.8), (0.5, 1), (0.88, 0.7), (0.85, 0.2), (0.5, 0), (0.4, 0.05)],
    "1": [(0.2, 0.25), (0.55, 0), (0.55, 1)],
    "2": [(0.1, 0.25), (0.45, 0), (0.85, 0.2), (0.7, 0.55), (0.1, 1), (0.95, 0.98)],
    "3": [(0.1, 0.1), (0.75, 0.08), (0.4, 0.45), (0.85, 0.7), (0.55, 1), (0.1, 0.88)],
    "4": [(0.7, 1), (0.7, 0), (0.05, 0.7), (0.95, 0.7)],
    "5": [(0.85, 0), (0.22, 0), (0.15, 0.45), (0.7, 0.42), (0.85, 0.75), (0.5, 1), (0.1, 0.9)],
    "6": [(0.75, 0.02), (0.3, 0.35), (0.15, 0.78), (0.45, 1), (0.82, 0.8), (0.6, 0.52), (0.2, 0.65)],
    "7": [(0.08, 0), (0.92, 0), (0.35, 1)],
    "8": [(0.5, 0.48), (0.15, 0.25), (0.5, 0), (0.85, 0.25), (0.5, 0.48), (0.1, 0.75), (0.5, 1), (0.9, 0.75),
          (0.5, 0.48)],
    "9": [(0.82, 0.3), (0.5, 0), (0.15, 0.22), (0.5, 0.48), (0.82, 0.3), (0.72, 1)],
}


def write(canvas: Canvas, hand: Hand, text: str, x: float, baseline: float, height: float) -> None:
    """Handwritten figures (digits and a minus), starting at x on `baseline`."""
    rng = canvas.rng
    slant = rng.uniform(0.05, 0.3)
    for char in text:
        h = height * rng.uniform(0.9, 1.1)
        if char == "-":
            y = baseline - h * 0.5
            canvas.stroke([(x, y), (x + h * 0.45, y + rng.normal(0, 0.1))], hand.pen)
            x += h * 0.7
            continue
        points = np.array(DIGITS[char], float) + rng.normal(0, 0.04, (len(DIGITS[char]), 2))
        px = x + points[:, 0] * h * 0.58 + (1 - points[:, 1]) * h * slant
        py = baseline - h + points[:, 1] * h
        canvas.stroke(np.stack([px, py], 1), hand.pen, 1.0, 0.6)
        x += h * rng.uniform(0.72, 0.85)


def write_name(canvas: Canvas, hand: Hand, x: float, baseline: float, width: float, height: float) -> None:
    """A name in joined-up handwriting (loops along the line), then sometimes a second word."""
    rng = canvas.rng
    letters = int(rng.integers(4, 9))
    step = min(width / (letters + 1), height * 0.7)
    points = [(x, baseline - height * 0.3)]
    for i in range(letters):
        tall = rng.random() < 0.3
        top = baseline - height * (1.0 if tall else 0.55) * rng.uniform(0.85, 1.1)
        points.append((x + (i + 0.35) * step, top))
        points.append((x + (i + 0.55) * step, baseline - height * 0.05 * rng.random()))
        if rng.random() < 0.3:
            points.append((x + (i + 0.75) * step, baseline - height * 0.35))
    canvas.stroke(np.array(points), hand.pen, 0.9, 0.4)
