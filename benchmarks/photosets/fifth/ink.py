"""Pens as variable-width vector outlines, and the marks a player makes with them.

A stroke's skeleton (a polyline in mm, bent by a smooth random wobble) is
offset to each side by a half-width that follows the pen's pressure
(touch-down, swell, lift-off); the outline is filled as convex quads and
round joints on a 4x supersampled patch, each piece with the ink flow of its
place on the stroke (a ballpoint skips), and averaged down. Ink is optical
density per RGB channel added to the page's density map.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from printgen import layouts
from printgen.builders.geometry import sheet_geometry

S = 4  # supersampling


@dataclass(frozen=True)
class Pen:
    kind: str  # ballpoint, gel, felt, pencil, marker
    colour: str
    width: float  # mm
    absorb: tuple[float, float, float]  # optical density per R, G, B at full coverage


INKS = {"blue": (0.95, 0.7, 0.15), "black": (1.15, 1.15, 1.1), "red": (0.12, 0.95, 0.85),
        "green": (0.85, 0.25, 0.75), "violet": (0.55, 0.9, 0.2), "grey": (0.5, 0.5, 0.47)}


def pick_pen(rng: np.random.Generator, wide: bool = False) -> Pen:
    kinds = ["ballpoint", "ballpoint", "gel", "felt", "pencil", "marker"] if wide else ["ballpoint", "ballpoint",
                                                                                        "gel", "felt"]
    kind = str(rng.choice(kinds))
    if kind == "pencil":
        return Pen(kind, "grey", float(rng.uniform(0.35, 0.6)), INKS["grey"])
    colours = ["blue", "black", "red", "green", "violet"] if wide else ["blue", "blue", "black"]
    colour = str(rng.choice(colours))
    width = {"ballpoint": (0.28, 0.45), "gel": (0.4, 0.65), "felt": (0.6, 1.0), "marker": (1.0, 1.8)}[kind]
    strength = {"ballpoint": 0.85, "gel": 1.05, "felt": 0.8, "marker": 0.7}[kind]
    absorb = tuple(a * strength * float(rng.uniform(0.85, 1.1)) for a in INKS[colour])
    return Pen(kind, colour, float(rng.uniform(*width)), absorb)  # type: ignore[arg-type]


class Canvas:
    """The page's ink: optical density per channel at `ppm` pixels a millimetre."""

    def __init__(self, shape: tuple[int, int], ppm: float, tooth: np.ndarray) -> None:
        self.density = np.zeros((*shape, 3), np.float32)
        self.ppm = ppm
        self.tooth = tooth

    def stroke(self, pen: Pen, points: np.ndarray, rng: np.random.Generator, pressure: float = 1.0) -> None:
        pts = _densify(np.asarray(points, np.float64), 0.25)
        if len(pts) < 2:
            return
        pts = pts + _wobble(len(pts), rng, 0.06 + 0.04 * pen.width)
        n = len(pts)
        t = np.linspace(0, 1, n)
        env = np.minimum(1, np.minimum(t / 0.12, (1 - t) / 0.18) * 0.6 + 0.4)
        press = pressure * env * (1 + 0.15 * np.sin(t * rng.uniform(3, 9) + rng.uniform(0, 6)))
        half = 0.5 * pen.width * (0.55 + 0.45 * press.clip(0, 1.3))
        flow = np.ones(n)
        if pen.kind == "ballpoint":
            phase = rng.uniform(0, 6, 2)
            s = np.cumsum(np.r_[0, np.hypot(*np.diff(pts, axis=0).T)])
            skip = np.sin(s * rng.uniform(1.5, 4) + phase[0]) + np.sin(s * rng.uniform(5, 11) + phase[1])
            flow = np.where(skip > rng.uniform(1.3, 1.9), 0.35, 1.0) * (0.8 + 0.2 * env)
        elif pen.kind == "felt":
            flow = 0.85 + 0.15 * (1 - env)  # pools where it touches down and lifts
        self._fill(pen, pts, half, flow.clip(0, 1))

    def blob(self, pen: Pen, centre: tuple[float, float], rx: float, ry: float, rng: np.random.Generator) -> None:
        """A filled blob: an irregular outline filled, then gone round."""
        a = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        r = 1 + 0.12 * np.sin(a * 3 + rng.uniform(0, 6)) + 0.06 * np.sin(a * 5 + rng.uniform(0, 6))
        pts = np.c_[centre[0] + rx * r * np.cos(a), centre[1] + ry * r * np.sin(a)]
        self._polygon(pen, pts, 0.92)
        self.stroke(pen, np.r_[pts, pts[:3]], rng)

    def _box(self, pts: np.ndarray, margin: float) -> tuple[int, int, int, int] | None:
        h, w = self.density.shape[:2]
        p = pts * self.ppm
        x0, y0 = np.floor(p.min(axis=0) - margin - 2).astype(int)
        x1, y1 = np.ceil(p.max(axis=0) + margin + 2).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def _fill(self, pen: Pen, pts: np.ndarray, half: np.ndarray, flow: np.ndarray) -> None:
        box = self._box(pts, half.max() * self.ppm)
        if box is None:
            return
        x0, y0, x1, y1 = box
        patch = np.zeros(((y1 - y0) * S, (x1 - x0) * S), np.float32)
        q = (pts * self.ppm - (x0, y0)) * S
        d = np.gradient(q, axis=0)
        d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)[:, None]
        normal = np.c_[-d[:, 1], d[:, 0]]
        r = half * self.ppm * S
        left, right = q + normal * r[:, None], q - normal * r[:, None]
        qi, ri = np.rint(q).astype(int).tolist(), np.rint(r).astype(int).tolist()
        for i in range(len(q) - 1):
            quad = np.rint(np.array([left[i], left[i + 1], right[i + 1], right[i]])).astype(np.int32)
            value = float((flow[i] + flow[i + 1]) / 2)
            cv2.fillConvexPoly(patch, quad, value, cv2.LINE_8)
            cv2.circle(patch, tuple(qi[i + 1]), ri[i + 1], value, -1)
        cv2.circle(patch, tuple(qi[0]), ri[0], float(flow[0]), -1)
        self._lay(pen, patch, box)

    def _polygon(self, pen: Pen, pts: np.ndarray, value: float) -> None:
        box = self._box(pts, 1)
        if box is None:
            return
        x0, y0, x1, y1 = box
        patch = np.zeros(((y1 - y0) * S, (x1 - x0) * S), np.float32)
        q = np.round((pts * self.ppm - (x0, y0)) * S).astype(np.int32)
        cv2.fillPoly(patch, [q], value)
        self._lay(pen, patch, box)

    def _lay(self, pen: Pen, patch: np.ndarray, box: tuple[int, int, int, int]) -> None:
        x0, y0, x1, y1 = box
        cover = cv2.resize(patch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        if pen.kind == "pencil":
            cover = cover * (0.35 + 0.65 * self.tooth[y0:y1, x0:x1])
        absorb = np.array(pen.absorb, np.float32)
        region = self.density[y0:y1, x0:x1]
        if pen.kind in ("felt", "marker"):  # dye adds up where strokes cross
            region += cover[..., None] * absorb * 0.85
        else:  # a ballpoint or gel line over a line darkens less
            region += cover[..., None] * absorb * np.exp(-region / (absorb + 1e-3) * 0.6)


def _densify(pts: np.ndarray, step: float) -> np.ndarray:
    out = [pts[0]]
    for a, b in itertools.pairwise(pts):
        k = max(1, math.ceil(float(np.hypot(*(b - a))) / step))
        out += [a + (b - a) * (i / k) for i in range(1, k + 1)]
    return np.array(out)


def _wobble(n: int, rng: np.random.Generator, amount: float) -> np.ndarray:
    knots = max(3, n // 12)
    coarse = rng.standard_normal((knots, 2)) * amount
    x = np.linspace(0, knots - 1, n)
    return np.c_[np.interp(x, np.arange(knots), coarse[:, 0]), np.interp(x, np.arange(knots), coarse[:, 1])]


# -- marks ---------------------------------------------------------------------

MARKS = ("x", "x", "wide-x", "overrun-x", "slash", "tick", "scribble", "blob", "circle")


class Hand:
    """A player's hand: a pen, a habit (a mark kind or any), a size and sloppiness."""

    def __init__(self, rng: np.random.Generator, wide: bool) -> None:
        self.rng = rng
        self.pen = pick_pen(rng, wide)
        self.vary = wide
        self.habit = str(rng.choice(MARKS)) if wide or rng.random() < 0.35 else "x"
        self.size = rng.uniform(0.55, 0.9)
        self.slop = rng.uniform(0.03, 0.12)

    def kind(self) -> str:
        if self.vary and self.rng.random() < 0.7:
            return str(self.rng.choice(MARKS))
        return self.habit

    def mark(self, canvas: Canvas, cx: float, cy: float, side: float, pitch: float, kind: str | None = None,
             toward: int = 1) -> str:
        """A cross of the field centred (cx, cy) of size `side` (mm); neighbours `pitch` away."""
        rng = self.rng
        kind = kind or self.kind()
        cx += rng.normal(0, self.slop * side * 0.5)
        cy += rng.normal(0, self.slop * side * 0.5)
        h = side * self.size / 2 * rng.uniform(0.85, 1.1)
        turn = rng.normal(0, 0.12)
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])

        def put(points: Any) -> np.ndarray:
            return np.asarray(points, np.float64) @ rot.T + (cx, cy)

        pen = self.pen
        if kind in ("x", "wide-x", "overrun-x"):
            wx = h * (1.35 if kind == "wide-x" else 1.0)
            far = wx + (pitch * rng.uniform(0.25, 0.55) if kind == "overrun-x" else 0)
            canvas.stroke(pen, put([(-wx, -h), (far * toward if toward > 0 else wx, h)]), rng)
            canvas.stroke(pen, put([(wx, -h), (-far if toward < 0 else -wx, h)]), rng)
        elif kind == "slash":
            canvas.stroke(pen, put([(h * 0.8, -h * 1.05), (-h * 0.8, h * 1.05)]), rng)
        elif kind == "tick":
            canvas.stroke(pen, put([(-h * 0.8, -h * 0.05), (-h * 0.2, h * 0.8), (h * 0.9, -h * 1.0)]), rng)
        elif kind == "scribble":
            k = int(rng.integers(4, 8))
            ys = np.linspace(-h * 0.8, h * 0.8, k)
            pts = [((-1) ** i * h * 0.85 + rng.normal(0, h * 0.1), y) for i, y in enumerate(ys)]
            canvas.stroke(pen, put(pts), rng)
        elif kind == "blob":
            canvas.blob(pen, (cx, cy), h * 0.75, h * 0.65, rng)
        elif kind == "circle":
            a = np.linspace(0, 2 * np.pi * rng.uniform(1.05, 1.2), 48) + rng.uniform(0, 6)
            r = side * rng.uniform(0.4, 0.48)
            canvas.stroke(pen, put(np.c_[r * 1.08 * np.cos(a), r * np.sin(a) * (1 + 0.05 * np.sin(3 * a))]), rng)
        return kind

    def strike(self, canvas: Canvas, cx: float, cy: float, side: float) -> None:
        """A level line through a number (skipped, or a row closed by another player): not a cross."""
        rng = self.rng
        half = side * rng.uniform(0.35, 0.5)
        y = cy + rng.normal(0, side * 0.05)
        canvas.stroke(self.pen, [(cx - half, y + rng.normal(0, 0.15)), (cx + half, y + rng.normal(0, 0.15))], rng)

    def write(self, canvas: Canvas, text: str, x: float, y: float, height: float) -> None:
        """Digits (and a minus) written from (x, baseline y) in a hand-made single-stroke font."""
        rng = self.rng
        for ch in text:
            glyph = GLYPHS.get(ch)
            if glyph is None:
                x += height * 0.5
                continue
            slant = rng.normal(0.15, 0.05)
            for line in glyph:
                p = np.array(line, np.float64)
                pts = np.c_[x + (p[:, 0] - p[:, 1] * slant + slant) * height * 0.55, y - (1 - p[:, 1]) * height]
                canvas.stroke(self.pen, pts + rng.normal(0, height * 0.02, pts.shape), rng, 0.8)
            x += height * rng.uniform(0.62, 0.75)

    def name(self, canvas: Canvas, x: float, y: float, width: float, height: float) -> None:
        """A scrawled name: loops along the line."""
        rng = self.rng
        t = np.linspace(0, 1, 120)
        loops = rng.uniform(5, 9)
        xs = x + t * width + 0.25 * height * np.sin(2 * np.pi * loops * t + 1.5)
        ys = y - height * (0.45 + 0.4 * np.sin(2 * np.pi * loops * t) * (0.6 + 0.4 * np.sin(7 * t + rng.uniform(0, 6))))
        canvas.stroke(self.pen, np.c_[xs, ys], rng, 0.8)


# A glyph: polylines in a box 0..1 wide and 0..1 high (0 at the top).
GLYPHS: dict[str, list[list[tuple[float, float]]]] = {
    "0": [[(0.5, 0), (0.1, 0.2), (0.05, 0.6), (0.3, 1), (0.75, 0.95), (0.95, 0.5), (0.85, 0.1), (0.5, 0)]],
    "1": [[(0.2, 0.25), (0.6, 0), (0.6, 1)]],
    "2": [[(0.1, 0.25), (0.4, 0), (0.85, 0.1), (0.85, 0.4), (0.1, 1), (0.95, 1)]],
    "3": [[(0.1, 0.1), (0.8, 0.05), (0.45, 0.45), (0.9, 0.65), (0.7, 1), (0.1, 0.9)]],
    "4": [[(0.65, 1), (0.65, 0), (0.05, 0.7), (0.95, 0.7)]],
    "5": [[(0.9, 0), (0.2, 0), (0.15, 0.45), (0.7, 0.4), (0.9, 0.75), (0.6, 1), (0.1, 0.9)]],
    "6": [[(0.8, 0.05), (0.3, 0.25), (0.1, 0.7), (0.4, 1), (0.85, 0.8), (0.6, 0.5), (0.15, 0.65)]],
    "7": [[(0.05, 0), (0.95, 0), (0.35, 1)]],
    "8": [[(0.5, 0.45), (0.15, 0.2), (0.5, 0), (0.85, 0.2), (0.5, 0.45), (0.1, 0.75), (0.5, 1), (0.9, 0.75),
           (0.5, 0.45)]],
    "9": [[(0.85, 0.35), (0.5, 0.5), (0.15, 0.3), (0.45, 0), (0.85, 0.25), (0.75, 1)]],
    "-": [[(0.15, 0.55), (0.8, 0.55)]],
}


def ink_sheet(canvas: Canvas, layout_name: str, sheet: Any, numbers: Any, origin: tuple[float, float],
              scale: float, hand: Hand, rng: np.random.Generator, strikes: float) -> list[str]:
    """Every mark of `sheet` (an engine Sheet) on the sheet placed at `origin` (mm) scaled by `scale`."""
    layout = layouts.load(layout_name)
    geo = sheet_geometry(layout)  # type: ignore[arg-type]
    ox, oy = origin
    kinds = []

    def at(x: float, y: float) -> tuple[float, float]:
        return ox + x * scale, oy + y * scale

    for r, row in enumerate(geo.rows):
        printed = numbers[r] if numbers else sheet.spec.rows[r].numbers
        crossed = set(sheet.marked(r))
        skipped = set(sheet.skipped(r))
        for i, (x, y, side) in enumerate(row.cells):
            cx, cy = at(x + side / 2, y + side / 2)
            number = printed[i]
            if number in crossed:
                toward = 1 if i < len(row.cells) - 1 else -1
                kinds.append(hand.mark(canvas, cx, cy, side * scale, row.pitch * scale, toward=toward))
            elif number in skipped and rng.random() < strikes:
                hand.strike(canvas, cx, cy, side * scale)
        lx, ly, lr = row.lock
        if sheet.is_locked(r):
            hand.mark(canvas, *at(lx, ly), 2 * lr * scale * 0.9, row.pitch * scale, kind="x")
        elif sheet.is_closed(r) and rng.random() < strikes:
            hand.strike(canvas, *at(lx, ly), 2 * lr * scale)
    for b in range(sheet.penalties):
        x, y, w, h = geo.penalty_boxes[b]
        hand.mark(canvas, *at(x + w / 2, y + h * 0.42), min(w, h) * scale * 0.8, 0, kind=str(
            rng.choice(("x", "x", "slash"))))
    if geo.bonus_row:
        for state, (x, y, w, h) in zip(sheet.bonus_row(), geo.bonus_row):
            if state == "struck":
                hand.mark(canvas, *at(x + w / 2, y + h / 2), min(w, h) * scale, 0, kind="x")
    if geo.bonus_boxes:
        for kind in sheet.bonus_kinds():
            x, y, w, h = geo.bonus_boxes[kind - 1]
            hand.mark(canvas, *at(x + w / 2, y + h / 2), min(w, h) * scale, 0, kind="x")
    over = sheet.outcome_over if hasattr(sheet, "outcome_over") else rng.random() < 0.5
    if over:  # totals written in their boxes
        values = [sheet.points(r) for r in range(len(sheet.spec.rows))] + [sheet.penalty_points(), sheet.total()]
        for value, (x, y, w, h) in zip(values, geo.totals):
            text = str(value)
            size = h * scale * rng.uniform(0.42, 0.55)
            bx, by = at(x + w * 0.3, y + h * 0.8)
            hand.write(canvas, text, bx, by, size)
    if rng.random() < 0.7:
        nx, ny = at(layout.width * (0.49 if layout.lucky_numbers else 0.5), geo.title_baseline + 0.3)  # type: ignore
        hand.name(canvas, nx, ny, layout.width * (0.14 if layout.lucky_numbers else 0.2) * scale, 4.5 * scale)  # type: ignore[union-attr]
    return kinds
