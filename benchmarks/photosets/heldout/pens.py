"""Pens: ink laid along perturbed paths, rasterised at 4x and averaged down, with deposition varying along each stroke.

Ink is kept as coverage with an optical density per channel (light left = paper
x exp(-density)), so strokes crossing each other darken as real ink does. Each kind of pen has
its own way of laying ink: a ballpoint skips and blots, felt bleeds and pools
where the pen rests, gel is even and saturated, graphite sits on the paper's
tooth, lets most of the light through and shines.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

SUPER = 4
"""Strokes are drawn at this many times the page's resolution, then averaged down."""

REFLECTANCE = {  # what a full stroke of each ink reflects, per channel (linear RGB)
    ("ballpoint", "blue"): (0.10, 0.14, 0.52),
    ("ballpoint", "black"): (0.09, 0.09, 0.12),
    ("ballpoint", "red"): (0.62, 0.08, 0.10),
    ("felt", "black"): (0.035, 0.035, 0.045),
    ("felt", "blue"): (0.05, 0.10, 0.42),
    ("gel", "red"): (0.70, 0.06, 0.09),
    ("gel", "green"): (0.06, 0.36, 0.13),
    ("gel", "black"): (0.05, 0.05, 0.06),
    ("gel", "blue"): (0.06, 0.09, 0.48),
    ("pencil", "graphite"): (0.5, 0.5, 0.53),
}


@dataclass(frozen=True)
class Pen:
    """A pen: its kind, ink colour, stroke width (mm), how much ink it lays (scales the density) and how worn
    it is (a worn ballpoint skips and starts dry)."""

    kind: str
    colour: str
    width: float
    flow: float
    worn: float = 0.0

    @property
    def density(self) -> np.ndarray:
        reflectance = np.array(REFLECTANCE[(self.kind, self.colour)], np.float32)
        return -np.log(reflectance)


def random_pen(rng: np.random.Generator, kinds: tuple[str, ...], worn: float = 0.3) -> Pen:
    """A pen of one of `kinds`, with its colour, width, flow and wear (up to `worn`) drawn at random."""
    kind = str(rng.choice(kinds))
    colours = sorted(c for k, c in REFLECTANCE if k == kind)
    colour = str(rng.choice(colours))
    if kind == "ballpoint":
        return Pen(kind, colour, float(rng.uniform(0.28, 0.5)), float(rng.uniform(0.65, 1.0)),
                   float(rng.uniform(0, worn)))
    if kind == "felt":
        return Pen(kind, colour, float(rng.uniform(0.7, 1.6)), float(rng.uniform(0.8, 1.1)))
    if kind == "gel":
        return Pen(kind, colour, float(rng.uniform(0.4, 0.75)), float(rng.uniform(0.85, 1.1)))
    # graphite: a pass lets 60-85 % of the light through
    return Pen(kind, colour, float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.6, 1.0)))


def smooth_noise(rng: np.random.Generator, count: int, knots: int) -> np.ndarray:
    """`count` samples of a smooth random curve in about [-1, 1] through `knots` random values."""
    knots = max(2, knots)
    values = rng.uniform(-1.0, 1.0, knots)
    return np.interp(np.linspace(0.0, knots - 1.0, count), np.arange(knots), values).astype(np.float32)


def wobble(points: np.ndarray, rng: np.random.Generator, amount: float, tremor: float = 0.02) -> np.ndarray:
    """Points of a dense path moved sideways by slow noise (`amount` mm) and a little hand tremor."""
    if len(points) < 3:
        return points
    step = np.gradient(points, axis=0)
    length = float(np.sum(np.hypot(*np.diff(points, axis=0).T)))
    normal = np.stack([-step[:, 1], step[:, 0]], axis=1)
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-9)
    slow = smooth_noise(rng, len(points), 2 + int(length / 4.0)) * amount
    fast = smooth_noise(rng, len(points), 2 + int(length / 0.6)) * tremor
    return points + normal * (slow + fast)[:, None]


def dense(points: list[tuple[float, float]] | np.ndarray, spacing: float = 0.08, smooth: float = 0.0) -> np.ndarray:
    """A polyline through `points` resampled every `spacing` mm, its corners rounded over `smooth` mm."""
    points = np.asarray(points, np.float64)
    seg = np.hypot(*np.diff(points, axis=0).T)
    at = np.concatenate([[0.0], np.cumsum(seg)])
    count = max(2, int(at[-1] / spacing) + 1)
    where = np.linspace(0.0, at[-1], count)
    path = np.stack([np.interp(where, at, points[:, 0]), np.interp(where, at, points[:, 1])], axis=1)
    if smooth > 0 and count > 5:
        sigma = smooth / spacing
        radius = int(3 * sigma) + 1
        kernel = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
        kernel /= kernel.sum()
        padded = np.pad(path, ((radius, radius), (0, 0)), mode="edge")
        path = np.stack([np.convolve(padded[:, i], kernel, mode="valid") for i in range(2)], axis=1)
    return path


class Ink:
    """What pens laid on one page of `shape` pixels: patches of coverage, each with its ink's optical density."""

    def __init__(self, shape: tuple[int, int], rng: np.random.Generator) -> None:
        self.shape = shape
        self.patches: list[tuple[int, int, np.ndarray, np.ndarray, bool]] = []
        """x, y of the top left, coverage, density per channel of full coverage, graphite?"""
        self.rng = rng

    def _lay(self, x0: int, y0: int, cover: np.ndarray, pen: Pen) -> None:
        h, w = self.shape
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x0 + cover.shape[1], w), min(y0 + cover.shape[0], h)
        if cx1 > cx0 and cy1 > cy0:
            self.patches.append((cx0, cy0, np.ascontiguousarray(cover[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]),
                                 pen.density, pen.kind == "pencil"))

    def apply(self, texture: np.ndarray) -> None:
        """Darken a page texture (linear RGB, the page's pixels) by every patch of ink."""
        for x, y, cover, density, _ in self.patches:
            h, w = cover.shape
            texture[y:y + h, x:x + w] *= cv2.exp(cover[..., None] * -density)

    def graphite(self) -> np.ndarray | None:
        """Where graphite lies (0..1) over the page, or None if no pencil was used."""
        if not any(p[4] for p in self.patches):
            return None
        found = np.zeros(self.shape, np.float32)
        for x, y, cover, _, graphite in self.patches:
            if graphite:
                h, w = cover.shape
                np.maximum(found[y:y + h, x:x + w], np.minimum(cover * 1.5, 1), out=found[y:y + h, x:x + w])
        return found

    def _grain(self, shape: tuple[int, int], kind: str) -> np.ndarray:
        """The paper's tooth under a patch, as how much of a full stroke each pixel takes."""
        h, w = shape
        coarse = self.rng.random((h // 2 + 2, w // 2 + 2), dtype=np.float32)
        tooth = cv2.resize(coarse, (w + 4, h + 4), interpolation=cv2.INTER_CUBIC)[2:h + 2, 2:w + 2]
        if kind == "pencil":
            return np.clip((tooth + 0.05) * 1.6, 0.15, 1.0)
        if kind == "ballpoint":
            return np.clip(0.8 + 0.35 * (tooth - 0.5), 0.4, 1.0)
        if kind == "felt":
            return np.clip(0.93 + 0.15 * (tooth - 0.5), 0.7, 1.0)
        return np.clip(0.96 + 0.08 * (tooth - 0.5), 0.8, 1.0)

    def stroke(self, path_px: np.ndarray, pen: Pen, px_per_mm: float, speed: float = 1.0) -> None:
        """Lay one stroke of `pen` along `path_px` (dense points in page pixels); `speed` 0..1+ (fast strokes skip)."""
        rng = self.rng
        count = len(path_px)
        if count < 2:
            return
        t = np.linspace(0.0, 1.0, count, dtype=np.float32)
        length_mm = float(np.sum(np.hypot(*np.diff(path_px, axis=0).T))) / px_per_mm
        # pressure: the pen lands, presses, and (on a quick flick) lifts before the end
        land = float(rng.uniform(0.02, 0.1))
        lift = float(rng.uniform(0.0, 0.25)) * min(1.0, speed)
        pressure = np.clip(t / land, 0.35, 1.0) * np.clip((1.0 - t) / max(lift, 1e-3), 0.3, 1.0)
        pressure *= 1.0 + 0.12 * smooth_noise(rng, count, 3 + int(length_mm))
        width = pen.width * (0.75 + 0.25 * pressure)
        deposit = pen.flow * np.clip(pressure, 0.0, 1.2)
        if pen.kind == "ballpoint":
            # the ball starts dry, skips on quick strokes and now and then leaves a blot
            deposit *= 1.0 - 0.25 * np.abs(smooth_noise(rng, count, 4 + int(length_mm * 2)))
            skips = int(rng.poisson(pen.worn * (0.4 + 1.6 * speed * length_mm / 10.0)))
            for _ in range(skips):
                centre, span = rng.uniform(0, 1), rng.uniform(0.3, 1.8) / max(length_mm, 0.5)
                deposit[np.abs(t - centre) < span / 2] *= rng.uniform(0.05, 0.45)
            deposit[t < land * 0.7] *= 1 - pen.worn * rng.uniform(0.1, 0.7)
        elif pen.kind == "felt":  # wet at once; ink pools where the tip rests
            pooled = np.exp(-((t / 0.03) ** 2)) + np.exp(-(((1 - t) / 0.03) ** 2)) * rng.uniform(0.3, 1.0)
            width = pen.width * (0.92 + 0.08 * pressure) * (1.0 + 0.15 * pooled / max(1.0, speed))
            deposit = pen.flow * (0.9 + 0.1 * pressure) * (1.0 + 0.4 * pooled)
        elif pen.kind == "pencil":
            deposit *= 1.0 - 0.3 * np.abs(smooth_noise(rng, count, 3 + int(length_mm)))
        scale = px_per_mm * SUPER
        margin = pen.width * 2.0 * px_per_mm + 3
        x0 = int(np.floor(path_px[:, 0].min() - margin))
        y0 = int(np.floor(path_px[:, 1].min() - margin))
        x1 = int(np.ceil(path_px[:, 0].max() + margin))
        y1 = int(np.ceil(path_px[:, 1].max() + margin))
        h, w = self.shape
        if min(x1, w) <= max(x0, 0) or min(y1, h) <= max(y0, 0):
            return
        buffer = np.zeros(((y1 - y0) * SUPER, (x1 - x0) * SUPER), np.float32)
        points = np.round((path_px - [x0, y0]) * SUPER * 16).astype(np.int32)
        for i in np.argsort(deposit[:-1], kind="stable"):  # the wettest ink wins where segments overlap
            thickness = max(1, round(float(width[i]) * scale))
            cv2.line(buffer, tuple(points[i]), tuple(points[i + 1]), float(deposit[i]), thickness, cv2.LINE_8, 4)
        if pen.kind == "felt":
            buffer = cv2.GaussianBlur(buffer, (0, 0), 0.05 * scale)
        cover = cv2.resize(buffer, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        cover *= self._grain(cover.shape, pen.kind)
        self._lay(x0, y0, cover, pen)

    def write(self, text: str, left_px: float, baseline_px: float, height_px: float, pen: Pen, px_per_mm: float,
              script: bool) -> None:
        """Handwrite `text` (figures, a name) with its baseline at `baseline_px`, letters `height_px` high."""
        rng = self.rng
        font = cv2.FONT_HERSHEY_SCRIPT_SIMPLEX if script else cv2.FONT_HERSHEY_SIMPLEX
        thickness = max(1, round(pen.width * px_per_mm * SUPER))
        (tw, th), base = cv2.getTextSize(text, font, 1.0, thickness)
        size = height_px * SUPER / max(th, 1)
        (tw, th), base = cv2.getTextSize(text, font, size, thickness)
        pad = int(th * 0.8) + thickness * 2
        glyphs = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
        cv2.putText(glyphs, text, (pad, pad + th), font, size, 255, thickness, cv2.LINE_AA)
        shear, turn = rng.uniform(-0.35, 0.1), rng.uniform(-0.06, 0.06)
        hb, wb = glyphs.shape
        matrix = np.array([[np.cos(turn), -np.sin(turn) + shear, 0], [np.sin(turn), np.cos(turn), 0]], np.float32)
        matrix[:, 2] = [wb / 2, hb / 2] - matrix[:, :2] @ [wb / 2, hb / 2]
        glyphs = cv2.warpAffine(glyphs, matrix, (wb, hb))
        w_out, h_out = max(1, wb // SUPER), max(1, hb // SUPER)
        cover = cv2.resize(glyphs, (w_out, h_out), interpolation=cv2.INTER_AREA).astype(np.float32) * (pen.flow / 255)
        cover *= self._grain(cover.shape, pen.kind)
        self._lay(int(left_px - pad / SUPER), int(baseline_px - (pad + th) / SUPER), cover, pen)
