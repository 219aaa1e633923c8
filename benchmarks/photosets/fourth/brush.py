"""Pens: strokes (cubic Bézier pieces in mm) and a pen in, ink as optical density on the page's pixel grid out.

A stroke is stamped as a sequence of brush dabs: the curve is walked by arc
length and a dab is stamped every fraction of the tip's radius, so ink is
laid per distance travelled (not per time). Each dab's radius and load follow
the pressure (a rise, a plateau with a slow swell, a lift) and the pen's
flow; a ballpoint's flow fails in short gaps and leaves a dark seed where it
starts, felt tips are soft-edged and spread, graphite is grey, grainy on the
paper's tooth and sheens in glare.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

Point = tuple[float, float]
Curve = tuple[Point, Point, Point, Point]
"""A cubic Bézier piece: start, two controls, end (mm)."""

COLOURS = {  # optical density per mm of full load, R G B
    "blue": (2.3, 1.5, 0.45),
    "black": (2.4, 2.3, 2.1),
    "red": (0.2, 2.1, 1.8),
    "green": (1.9, 0.6, 1.5),
    "pencil": (1.0, 1.0, 0.92),
}


@dataclass(frozen=True)
class Pen:
    """What writes: a kind (ballpoint, gel, felt, pencil), a colour and a tip width (mm)."""

    kind: str
    colour: str
    width: float
    load: float = 1.0

    @property
    def absorbance(self) -> np.ndarray:
        return np.array(COLOURS[self.colour], np.float32) * self.load


def random_pen(rng: np.random.Generator, colour: str | None = None, kind: str | None = None) -> Pen:
    """A pen someone at a game table might hold."""
    colour = colour or str(rng.choice(["blue", "blue", "black", "black", "red", "green", "pencil"]))
    if colour == "pencil":
        kind = "pencil"
    kind = kind or str(rng.choice(["ballpoint", "ballpoint", "gel", "felt"]))
    width = {"ballpoint": (0.35, 0.55), "gel": (0.45, 0.7), "felt": (0.7, 1.2), "pencil": (0.4, 0.7)}[kind]
    load = {"ballpoint": (0.75, 1.1), "gel": (0.95, 1.25), "felt": (0.85, 1.15), "pencil": (0.7, 1.0)}[kind]
    return Pen(kind, colour, float(rng.uniform(*width)), float(rng.uniform(*load)))


def bezier(curve: Curve, steps: int) -> np.ndarray:
    """Points along a cubic piece (steps + 1, 2)."""
    t = np.linspace(0, 1, steps + 1)[:, None]
    p = np.array(curve, np.float64)
    return ((1 - t) ** 3) * p[0] + 3 * ((1 - t) ** 2) * t * p[1] + 3 * (1 - t) * t * t * p[2] + t ** 3 * p[3]


@cache
def dab(radius_q: int, hardness_q: int) -> np.ndarray:
    """A round dab of radius radius_q/4 px, its edge as soft as hardness_q/10 says (1 in the middle)."""
    radius = radius_q / 4
    hardness = hardness_q / 10
    size = int(np.ceil(radius + 1.5))
    y, x = np.mgrid[-size:size + 1, -size:size + 1].astype(np.float32)
    r = np.sqrt(x * x + y * y) / max(radius, 0.3)
    edge = np.clip((1 - r) / max(1 - hardness, 0.05), 0, 1)
    return (edge * edge * (3 - 2 * edge)).astype(np.float32)


class Sheetink:
    """The ink laid on one page: a density layer per pen, then combined into RGB density."""

    def __init__(self, shape: tuple[int, int], px_per_mm: float, rng: np.random.Generator) -> None:
        self.shape = shape
        self.ppm = px_per_mm
        self.rng = rng
        self.layers: dict[Pen, np.ndarray] = {}

    def stroke(self, pen: Pen, curves: list[Curve], pressure: float = 1.0) -> None:
        """Stamp dabs along the chained pieces `curves` (one pen-down)."""
        points = np.concatenate([bezier(c, 24) for c in curves]) * self.ppm
        seg = np.linalg.norm(np.diff(points, axis=0), axis=1)
        length = float(seg.sum())
        if length < 1e-3:
            return
        along = np.concatenate([[0.0], np.cumsum(seg)])
        radius = pen.width * self.ppm / 2
        spacing = max(0.25, radius * (0.2 if pen.kind == "felt" else 0.3))
        count = max(2, int(length / spacing) + 1)
        s = np.linspace(0, length, count)
        xs, ys = np.interp(s, along, points[:, 0]), np.interp(s, along, points[:, 1])
        u = s / length
        rise = min(0.25, 1.2 * self.ppm / length)
        envelope = np.clip(u / max(rise, 1e-3), 0, 1) ** 0.6 * np.clip((1 - u) / max(rise * 1.6, 1e-3), 0, 1) ** 0.8
        swell = 1 + 0.15 * np.sin(2 * np.pi * (u * self.rng.uniform(0.5, 1.5) + self.rng.uniform()))
        press = pressure * (0.55 + 0.45 * envelope) * swell
        flow = np.ones(count)
        if pen.kind == "ballpoint":
            mm = s / self.ppm
            phase = self.rng.uniform(0, 100)
            skip = np.sin(mm * self.rng.uniform(2, 5) + phase) + 0.8 * np.sin(mm * self.rng.uniform(7, 13) + phase * 2)
            flow = np.where(skip > self.rng.uniform(1.2, 1.75), 0.12, 1.0)
            flow[: max(1, count // 30)] *= 1.6  # the ball's seed of ink where it touches down
        hardness = {"ballpoint": 8, "gel": 7, "felt": 4, "pencil": 5}[pen.kind]
        layer = self.layers.setdefault(pen, np.zeros(self.shape, np.float32))
        deposit = spacing / max(radius, 0.5) * (2.0 if pen.kind != "felt" else 1.2)
        h, w = self.shape
        for x, y, p, f in zip(xs, ys, press, flow):
            r = radius * (0.65 + 0.35 * min(p, 1.4))
            kernel = dab(max(1, round(r * 4)), hardness)
            k = kernel.shape[0] // 2
            cx, cy = round(x), round(y)
            x0, y0, x1, y1 = cx - k, cy - k, cx + k + 1, cy + k + 1
            if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
                continue
            kx0, ky0 = max(0, -x0), max(0, -y0)
            kx1, ky1 = kernel.shape[1] - max(0, x1 - w), kernel.shape[0] - max(0, y1 - h)
            layer[max(0, y0):min(h, y1), max(0, x0):min(w, x1)] += kernel[ky0:ky1, kx0:kx1] * (deposit * p * f)

    def density(self) -> tuple[np.ndarray, np.ndarray]:
        """RGB optical density of all the ink, and the graphite's share (for its sheen)."""
        total = np.zeros((*self.shape, 3), np.float32)
        graphite = np.zeros(self.shape, np.float32)
        for pen, layer in self.layers.items():
            amount = layer
            if pen.kind == "felt":
                amount = cv2.GaussianBlur(layer, (0, 0), max(0.6, 0.05 * self.ppm))
            if pen.kind == "pencil":
                tooth = self.rng.random(self.shape).astype(np.float32)
                tooth = cv2.GaussianBlur(tooth, (0, 0), max(0.5, 0.02 * self.ppm))
                tooth = np.clip((tooth - tooth.mean()) / (tooth.std() + 1e-6) * 0.35 + 0.75, 0.15, 1.2)
                amount = layer * tooth
                graphite += np.clip(amount, 0, 1)
            saturated = 1 - np.exp(-amount * 1.4)
            total += saturated[..., None] * pen.absorbance[None, None, :]
        return total, graphite
