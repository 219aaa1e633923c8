"""Handwriting, simulated: pens, strokes, blobs and words put on a printed sheet in pixels, as players mark it.

Strokes are slightly curved and change pressure along their length; a
ballpoint or pencil leaves a grainy, broken line, a marker a full one; inks
are transparent, so they multiply what is under them. For demo photos
(`printgen.demo.photo`) and the tests and benchmarks of `printgen score`
(`tests/scan/simulator/synthetic`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

STYLES = ("ballpoint", "marker", "pencil", "slash", "blob")
"""How a player marks a field: a thin X, a thick X, a pencil X, a single slash, a filled blob."""


@dataclass(frozen=True, slots=True)
class Pen:
    """A writing instrument: stroke width (mm), the colour it leaves (RGB 0..1), how fully it covers."""

    style: str
    width: float
    colour: tuple[float, float, float]
    density: float
    grain: float


def pen(style: str, rng: random.Random) -> Pen:
    """A random pen of `style`."""
    dark = [(0.08, 0.1, 0.35), (0.05, 0.05, 0.08), (0.1, 0.12, 0.45), (0.35, 0.05, 0.08), (0.05, 0.2, 0.12)]
    if style == "pencil":
        grey = rng.uniform(0.3, 0.5)
        return Pen(style, rng.uniform(0.3, 0.55), (grey, grey, grey * 1.05), rng.uniform(0.7, 0.9), 0.35)
    if style == "marker":
        return Pen(style, rng.uniform(0.7, 1.4), rng.choice(dark[:2] + dark[3:]), rng.uniform(0.9, 1.0), 0.05)
    if style == "blob":
        return Pen(style, rng.uniform(0.5, 1.0), rng.choice(dark), rng.uniform(0.85, 1.0), 0.1)
    return Pen(style, rng.uniform(0.22, 0.45), rng.choice(dark), rng.uniform(0.7, 0.95), 0.25)


class Paper:
    """A printed sheet in pixels that ink can be put on (RGB floats), `px_per_mm` pixels per mm."""

    def __init__(self, pixels: np.ndarray, px_per_mm: float, rng: random.Random) -> None:
        self.pixels = pixels
        self.px_per_mm = px_per_mm
        self.rng = rng

    def stroke(self, points: list[tuple[float, float]], pen: Pen) -> None:
        """A hand-drawn stroke through `points` (mm): slightly curved, its pressure changing along it."""
        (x0, y0), (x1, y1) = points[0], points[-1]
        length = float(np.hypot(x1 - x0, y1 - y0))
        bend = self.rng.uniform(-0.06, 0.06) * length
        nx, ny = (-(y1 - y0) / (length + 1e-9), (x1 - x0) / (length + 1e-9))
        steps = max(8, int(length * 3))
        base = self.rng.uniform(0.8, 1.15)
        area = self._area([(x0, y0), (x1, y1)], abs(bend) + pen.width * 2)
        layer, origin = area
        for i in range(steps):
            t0, t1 = i / steps, (i + 1) / steps
            a = self._along(x0, y0, x1, y1, nx, ny, bend, t0)
            b = self._along(x0, y0, x1, y1, nx, ny, bend, t1)
            pressure = base * (0.75 + 0.25 * np.sin(np.pi * (t0 + 0.1)) + self.rng.uniform(-0.05, 0.05))
            thickness = max(1, round(pen.width * pressure * self.px_per_mm))
            cv2.line(layer, self._px(a, origin), self._px(b, origin), 1.0, thickness, cv2.LINE_AA, shift=4)
        self._ink(layer, origin, pen)

    def blob(self, cx: float, cy: float, radius: float, pen: Pen) -> None:
        """A filled, irregular blob (a field coloured in)."""
        angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        wobble = np.array([self.rng.uniform(0.75, 1.15) for _ in angles])
        squash = self.rng.uniform(0.75, 1.0)
        xs = cx + radius * wobble * np.cos(angles)
        ys = cy + radius * squash * wobble * np.sin(angles)
        layer, origin = self._area(list(zip(xs, ys)), 1.0)
        polygon = np.array([self._px((x, y), origin) for x, y in zip(xs, ys)], np.int32)
        cv2.fillPoly(layer, [polygon], 1.0, cv2.LINE_AA, shift=4)
        if self.rng.random() < 0.5:  # coloured in by zig-zags: a few gaps
            gaps = np.zeros_like(layer)
            for _ in range(self.rng.randint(2, 6)):
                y = cy + self.rng.uniform(-radius, radius)
                cv2.line(gaps, self._px((cx - radius, y), origin),
                         self._px((cx + radius, y + self.rng.uniform(-1, 1)), origin), 1.0,
                         max(1, int(0.25 * self.px_per_mm)), cv2.LINE_AA, shift=4)
            layer *= 1 - 0.7 * gaps
        self._ink(layer, origin, pen)

    def text(self, x: float, baseline: float, words: str, height: float, pen: Pen) -> None:
        """Handwriting-like text with its baseline at (x, baseline) mm, about `height` mm tall."""
        font = self.rng.choice((cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
                                cv2.FONT_HERSHEY_SIMPLEX))
        scale = height * self.px_per_mm / 22.0
        thickness = max(1, round(pen.width * self.px_per_mm))
        (w, h), below = cv2.getTextSize(words, font, scale, thickness)
        pad = int(h)
        canvas = np.zeros((h + below + 2 * pad, w + 2 * pad), np.uint8)
        cv2.putText(canvas, words, (pad, pad + h), font, scale, 255, thickness, cv2.LINE_AA)
        turn = cv2.getRotationMatrix2D((pad, pad + h), self.rng.uniform(-4, 4), 1.0)
        layer = cv2.warpAffine(canvas, turn, canvas.shape[::-1]).astype(np.float32) / 255.0
        origin = (round(x * self.px_per_mm) - pad, round(baseline * self.px_per_mm) - pad - h)
        self._ink(layer, origin, pen)

    def finish(self) -> np.ndarray:
        """The sheet with its ink."""
        return self.pixels

    def _area(self, points: list[tuple[float, float]], margin: float) -> tuple[np.ndarray, tuple[int, int]]:
        """An empty ink layer covering `points` and `margin` mm around them, and its top-left pixel."""
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        x0 = int(np.floor((min(xs) - margin) * self.px_per_mm)) - 2
        y0 = int(np.floor((min(ys) - margin) * self.px_per_mm)) - 2
        x1 = int(np.ceil((max(xs) + margin) * self.px_per_mm)) + 2
        y1 = int(np.ceil((max(ys) + margin) * self.px_per_mm)) + 2
        return np.zeros((y1 - y0, x1 - x0), np.float32), (x0, y0)

    def _ink(self, layer: np.ndarray, origin: tuple[int, int], pen: Pen) -> None:
        """Lay ink where `layer` (0..1) says: inks are transparent, so they multiply what is under them."""
        x0, y0 = origin
        h, w = self.pixels.shape[:2]
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x0 + layer.shape[1], w), min(y0 + layer.shape[0], h)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        layer = layer[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
        if pen.grain:
            noise = np.array([self.rng.random() for _ in range(16)], np.float32).reshape(4, 4)
            grain = cv2.resize(noise, layer.shape[::-1], interpolation=cv2.INTER_CUBIC)
            fine = np.random.default_rng(self.rng.getrandbits(32)).random(layer.shape, np.float32)
            layer = layer * (1 - pen.grain * (0.5 * grain + 0.5 * fine))
        alpha = np.clip(layer * pen.density, 0, 1)[..., None]
        region = self.pixels[cy0:cy1, cx0:cx1]
        self.pixels[cy0:cy1, cx0:cx1] = region * (1 - alpha + alpha * np.array(pen.colour, np.float32))

    def _along(self, x0: float, y0: float, x1: float, y1: float, nx: float, ny: float, bend: float,
               t: float) -> tuple[float, float]:
        curve = 4 * t * (1 - t) * bend
        return (x0 + (x1 - x0) * t + nx * curve, y0 + (y1 - y0) * t + ny * curve)

    def _px(self, point: tuple[float, float], origin: tuple[int, int]) -> tuple[int, int]:
        """`point` (mm) in the 1/16-pixel units of cv2's drawing calls, relative to `origin`."""
        return (round((point[0] * self.px_per_mm - origin[0]) * 16),
                round((point[1] * self.px_per_mm - origin[1]) * 16))


def mark(paper: Paper, box: tuple[float, float, float, float], pen: Pen, rng: random.Random) -> None:
    """A player's mark in `box` (x, y, w, h mm) with `pen`: an X, a slash or a blob, a little off."""
    x, y, w, h = box
    size = min(w, h)
    cx = x + w / 2 + rng.uniform(-0.14, 0.14) * size
    cy = y + h / 2 + rng.uniform(-0.14, 0.14) * size
    if pen.style == "blob":
        paper.blob(cx, cy, size * rng.uniform(0.3, 0.5), pen)
        return
    reach = rng.uniform(0.3, 0.6)
    half_x, half_y = reach * w, reach * h
    turn = np.radians(rng.uniform(-12, 12) * size / max(w, h))
    strokes = [(-1, -1, 1, 1), (-1, 1, 1, -1)]
    if pen.style == "slash":  # mostly "/", sometimes "\\"
        strokes = [strokes[1] if rng.random() < 0.75 else strokes[0]]
    for sx0, sy0, sx1, sy1 in strokes:
        ends = []
        for sx, sy in ((sx0, sy0), (sx1, sy1)):
            dx = sx * half_x * rng.uniform(0.8, 1.15)
            dy = sy * half_y * rng.uniform(0.8, 1.15)
            ends.append((cx + dx * np.cos(turn) - dy * np.sin(turn), cy + dx * np.sin(turn) + dy * np.cos(turn)))
        paper.stroke(ends, pen)
