"""Pens: a pen tip as a point mass pulled along a path by a spring and damper, leaving ink by speed and footprint."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

KINDS = ("ballpoint", "gel", "felt", "pencil")
COLOURS = {  # absorbance per unit density, linear RGB
    "blue": (1.6, 1.0, 0.25),
    "black": (1.5, 1.45, 1.35),
    "darkblue": (1.9, 1.6, 0.7),
    "red": (0.15, 1.6, 1.3),
    "green": (1.3, 0.35, 1.2),
    "graphite": (0.9, 0.9, 0.85),
}


@dataclass
class Pen:
    """A pen's tip (width mm, groove), its ink (absorbance, saturation) and the hand's stiffness and tremor."""

    kind: str
    absorbance: np.ndarray
    width: float
    stiffness: float
    damping: float
    tremor: float
    speed: float


def choose(rng: np.random.Generator, kind: str | None = None) -> Pen:
    """A random pen of `kind` (or of any kind) in a random hand."""
    kind = kind or str(rng.choice(KINDS, p=[0.45, 0.2, 0.2, 0.15]))
    colour = "graphite" if kind == "pencil" else str(rng.choice(["blue", "black", "darkblue", "red", "green"],
                                                                 p=[0.45, 0.3, 0.15, 0.05, 0.05]))
    width = {"ballpoint": (0.3, 0.5), "gel": (0.4, 0.65), "felt": (0.6, 1.2), "pencil": (0.35, 0.6)}[kind]
    return Pen(kind, np.array(COLOURS[colour], np.float32), float(rng.uniform(*width)),
               stiffness=float(rng.uniform(2500, 7000)), damping=float(rng.uniform(0.35, 0.8)),
               tremor=float(rng.uniform(0.0, 0.25)), speed=float(rng.uniform(35, 90)))


def trace(pen: Pen, path: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The tip's positions (mm) and speeds (mm/s) every millisecond while a target runs along `path` (mm) at
    the hand's speed; the spring lags on corners and overshoots at the end (hooks)."""
    segments = np.linalg.norm(np.diff(path, axis=0), axis=1)
    length = float(segments.sum())
    dt = 0.001
    steps = max(8, int(length / pen.speed / dt))
    along = np.concatenate([[0.0], np.cumsum(segments)])
    ease = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, steps))  # the hand speeds up and slows down
    s = ease * length
    target = np.stack([np.interp(s, along, path[:, 0]), np.interp(s, along, path[:, 1])], axis=1)
    tail = steps // 2 + 30  # the hand waits at the end while the tip catches up
    target = np.concatenate([target, np.repeat(target[-1:], tail, axis=0)])
    k, c = pen.stiffness, 2 * pen.damping * np.sqrt(pen.stiffness)
    position = path[0] + rng.normal(0, 0.08, 2)
    velocity = rng.normal(0, 8, 2)
    shake = rng.normal(0, pen.tremor * 400, (len(target), 2))
    shake = np.cumsum(shake, axis=0) * 0.02
    out = np.empty_like(target)
    speed = np.empty(len(target))
    for i, goal in enumerate(target):
        force = k * (goal - position) - c * velocity + shake[i] * k * 0.01
        velocity = velocity + force * dt
        position = position + velocity * dt
        out[i] = position
        speed[i] = np.hypot(*velocity)
    lift = steps + int(tail * rng.uniform(0.6, 1.0))  # the pen leaves the paper while settling
    return out[:lift], speed[:lift]


def footprint(pen: Pen, pxmm: float) -> np.ndarray:
    """The tip's footprint kernel: a disc, hollow in the middle for a ballpoint's groove."""
    r = max(0.7, pen.width * pxmm / 2)
    size = int(np.ceil(r)) * 2 + 3
    yy, xx = np.mgrid[0:size, 0:size] - (size - 1) / 2
    d = np.hypot(xx, yy)
    disc = np.clip(r + 0.5 - d, 0, 1)
    if pen.kind == "ballpoint":
        disc *= 1.0 - 0.45 * np.exp(-(d / (0.45 * r)) ** 2)
    elif pen.kind == "felt":
        disc = np.clip(r + 1.2 - d, 0, 1.5) / 1.5
    return (disc / disc.sum()).astype(np.float32)


class Ink:
    """Ink density on a page (pixels at `pxmm` per mm), one layer per pen."""

    def __init__(self, shape: tuple[int, int], pxmm: float, rng: np.random.Generator) -> None:
        self.shape, self.pxmm, self.rng = shape, pxmm, rng
        self.layers: list[tuple[Pen, np.ndarray]] = []
        self.tooth = None

    def _layer(self, pen: Pen) -> np.ndarray:
        for known, layer in self.layers:
            if known is pen:
                return layer
        layer = np.zeros(self.shape, np.float32)
        self.layers.append((pen, layer))
        return layer

    def stroke(self, pen: Pen, path_mm: np.ndarray) -> None:
        """Draw one stroke along `path_mm` (page mm) with `pen`."""
        points, speed = trace(pen, path_mm, self.rng)
        px = points * self.pxmm
        if pen.kind in ("ballpoint", "pencil"):  # a rolling ball and wearing graphite leave ink per mm travelled
            flow = (speed + 15.0) / 7500.0  # (as the per-time flow below at 60 mm/s)
        else:  # gel and felt flow out of the tip while it touches: a slow tip, more ink
            flow = 1.0 / (speed + 40.0)
        if pen.kind == "ballpoint":  # skips: the ball runs dry now and then
            flow *= np.clip(1.0 + 0.9 * np.convolve(self.rng.normal(0, 1, len(flow)), np.ones(15) / 15, "same") * 3,
                            0.15, 1.3)
        step = np.linalg.norm(np.diff(px, axis=0), axis=1)
        pieces = [np.linspace(px[i], px[i + 1], max(1, int(step[i] / 0.4)) + 1)[:-1] for i in range(len(step))]
        weights = [np.full(len(p), flow[i] / len(p)) for i, p in enumerate(pieces)]
        if not pieces:
            return
        dense, dense_w = np.concatenate(pieces), np.concatenate(weights)
        kernel = footprint(pen, self.pxmm)
        pad = kernel.shape[0] + 2
        x0, y0 = int(dense[:, 0].min()) - pad, int(dense[:, 1].min()) - pad
        x1, y1 = int(dense[:, 0].max()) + pad + 2, int(dense[:, 1].max()) + pad + 2
        h, w = self.shape
        if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
            return
        acc = np.zeros((y1 - y0, x1 - x0), np.float32)
        fx, fy = dense[:, 0] - x0, dense[:, 1] - y0
        ix, iy = np.floor(fx).astype(int), np.floor(fy).astype(int)
        ax, ay = fx - ix, fy - iy
        for dx, dy, share in ((0, 0, (1 - ax) * (1 - ay)), (1, 0, ax * (1 - ay)), (0, 1, (1 - ax) * ay),
                              (1, 1, ax * ay)):
            np.add.at(acc, (iy + dy, ix + dx), dense_w * share)
        acc = cv2.filter2D(acc, -1, kernel) * (self.pxmm * 60.0)
        gain = {"ballpoint": 1.1, "gel": 1.6, "felt": 3.0, "pencil": 1.8}[pen.kind]
        density = 1.0 - np.exp(-gain * acc)  # felt saturates soonest
        layer = self._layer(pen)
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x1, w), min(y1, h)
        region = density[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
        if pen.kind == "pencil":  # graphite catches on the paper's tooth
            if self.tooth is None:
                self.tooth = (self.rng.random(self.shape, dtype=np.float32) ** 2.2).astype(np.float32)
            region = region * (0.25 + 0.75 * self.tooth[cy0:cy1, cx0:cx1])
        np.maximum(layer[cy0:cy1, cx0:cx1], region * 1.0, out=layer[cy0:cy1, cx0:cx1])
        layer[cy0:cy1, cx0:cx1] += region * 0.15  # overlapping strokes darken a little

    def apply(self, rgb: np.ndarray) -> np.ndarray:
        """The page with every pen's ink (absorption in linear light)."""
        out = rgb
        for pen, layer in self.layers:
            out = out * np.exp(-layer[..., None] * pen.absorbance[None, None, :])
            if pen.kind == "pencil":  # graphite's sheen lifts it a little
                out = out + 0.04 * layer[..., None]
        return out
