"""A player's hand: a rules-engine sheet in, the strokes of every cross, strike, name and total on the page out."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.rules.sheet import Sheet

from .pens import Ink, Pen, dense, wobble
from .sheets import Slot

NAMES = ("Anna", "Jonas", "Marek", "Giulia", "Lea", "Tom", "Kasia", "Luca", "Sophie", "Ben", "Ewa", "Marco",
         "Claire", "Piotr", "Mia", "Oma", "Max", "Zoe", "Hugo", "Ida")


@dataclass
class Hand:
    """How one player marks a sheet: the pen, the kinds of mark (with weights), their size and care."""

    pen: Pen
    kinds: dict[str, float] = field(default_factory=lambda: {"x": 1.0})
    size: tuple[float, float] = (0.55, 0.9)
    sloppy: float = 0.05
    overrun: float = 0.0
    strike_skipped: float = 0.0
    strike_closed: float = 0.0
    name: bool = False
    totals: bool = False
    name_pen: Pen | None = None

    def pick(self, rng: np.random.Generator, allowed: tuple[str, ...] | None = None) -> str:
        kinds = {k: w for k, w in self.kinds.items() if allowed is None or k in allowed} or {"x": 1.0}
        names = sorted(kinds)
        weights = np.array([kinds[k] for k in names], float)
        return str(names[int(rng.choice(len(names), p=weights / weights.sum()))])

    def describe(self) -> str:
        kinds = "/".join(k for k, w in sorted(self.kinds.items(), key=lambda kv: -kv[1]) if w > 0)
        worn = ", worn" if self.pen.worn > 0.5 else ""
        return f"{self.pen.colour} {self.pen.kind} {self.pen.width:.2f} mm{worn}, {kinds}"


Stroke = tuple[np.ndarray, float]
"""A dense path in sheet millimetres and how fast it was drawn."""


def _line(p0: np.ndarray, p1: np.ndarray, rng: np.random.Generator, bow: float, hook: float = 0.0) -> np.ndarray:
    points = [p0, p1]
    if hook > 0 and rng.random() < 0.3:
        direction = (p1 - p0) / max(float(np.linalg.norm(p1 - p0)), 1e-6)
        turn = rng.choice((-1.0, 1.0)) * rng.uniform(1.6, 2.4)
        back = np.array([direction[0] * math.cos(turn) - direction[1] * math.sin(turn),
                         direction[0] * math.sin(turn) + direction[1] * math.cos(turn)])
        points.append(p1 + back * hook)
    path = dense(points, 0.08, smooth=0.15)
    length = float(np.linalg.norm(p1 - p0))
    t = np.linspace(0, 1, len(path))[:, None]
    normal = np.array([-(p1 - p0)[1], (p1 - p0)[0]]) / max(length, 1e-6)
    path = path + normal * (np.sin(np.pi * np.clip(t, 0, 1)) * bow * length)
    return wobble(path, rng, 0.04 * length / 8 + 0.02)


def shape(kind: str, cx: float, cy: float, side: float, rng: np.random.Generator, size: float,
          pen_width: float) -> list[Stroke]:
    """The strokes of one mark of `kind` on a field of `side` mm centred at (cx, cy)."""
    c = np.array([cx, cy])
    speed = float(rng.uniform(0.6, 1.4))
    if kind == "x":
        strokes = []
        for angle in (45.0, 135.0):
            a = math.radians(angle + rng.normal(0, 9))
            d = np.array([math.cos(a), math.sin(a)])
            half = side * size / 2 * rng.uniform(0.85, 1.12)
            centre = c + rng.normal(0, 0.04 * side, 2)
            p0, p1 = centre - d * half, centre + d * half
            if rng.random() < 0.2:
                p0, p1 = p1, p0
            strokes.append((_line(p0, p1, rng, rng.normal(0, 0.04), hook=0.5), speed))
        return strokes
    if kind == "slash":
        a = math.radians(-rng.uniform(40, 72))
        d = np.array([math.cos(a), math.sin(a)])
        half = side * rng.uniform(0.35, 0.6) * max(size, 0.6)
        centre = c + rng.normal(0, 0.04 * side, 2)
        return [(_line(centre - d * half, centre + d * half, rng, rng.normal(0, 0.05), hook=0.4), speed)]
    if kind == "tick":
        k = side * size * rng.uniform(0.9, 1.15)
        turn = rng.normal(0, 0.15)
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        local = np.array([(-0.3, -0.02), (-0.06, 0.3), (0.38, -0.42)]) + rng.normal(0, 0.03, (3, 2))
        points = c + (local * k) @ rot.T
        return [(wobble(dense(points, 0.08, smooth=0.25), rng, 0.05), speed)]
    if kind == "scribble":
        r = side * rng.uniform(0.25, 0.4)
        turns = int(rng.integers(5, 10))
        ys = np.linspace(-r, r, turns) + rng.normal(0, 0.05 * r, turns)
        xs = np.where(np.arange(turns) % 2 == 0, -1.0, 1.0) * r * rng.uniform(0.6, 1.0, turns)
        points = c + np.stack([xs, ys], axis=1)
        return [(wobble(dense(points, 0.08, smooth=0.3), rng, 0.1), speed * 1.3)]
    if kind == "blob":
        r = side * rng.uniform(0.28, 0.42)
        spacing = max(pen_width * 0.75, 0.18)
        a = rng.uniform(0, math.pi)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        points = []
        for i, y in enumerate(np.arange(-r, r, spacing)):
            half = math.sqrt(max(r * r - y * y, 0.0)) * rng.uniform(0.85, 1.05)
            ends = [(-half, y), (half, y)]
            points += ends if i % 2 == 0 else ends[::-1]
        path = c + (np.array(points) @ rot.T)
        outline = [c + r * np.array([math.cos(t), math.sin(t)]) for t in np.linspace(0, 2 * math.pi, 40)]
        return [(dense(path, 0.08, smooth=0.1), 1.2), (wobble(dense(outline, 0.08), rng, 0.08), 0.8)]
    if kind == "circle":
        radius = side * rng.uniform(0.42, 0.6)
        aspect = rng.uniform(0.85, 1.15)
        start = rng.uniform(0, 2 * math.pi)
        sweep = 2 * math.pi + rng.uniform(-0.25, 0.7)
        count = int(radius * sweep / 0.08) + 2
        t = np.linspace(start, start + sweep, count)
        r = radius * (1 + 0.05 * np.sin(2 * t + rng.uniform(0, 6)) + np.linspace(0, rng.normal(0, 0.06), count))
        centre = c + rng.normal(0, 0.03 * side, 2)
        path = np.stack([centre[0] + r * np.cos(t) * aspect, centre[1] + r * np.sin(t) / aspect], axis=1)
        if rng.random() < 0.5:
            path = path[::-1]
        return [(wobble(path, rng, 0.1), speed)]
    if kind == "strike":  # a level line through a number: not a mark
        half = side * rng.uniform(0.3, 0.45)
        a = math.radians(rng.normal(0, 2.0))
        d = np.array([math.cos(a), math.sin(a)])
        centre = c + [rng.normal(0, 0.05 * side), rng.normal(0.0, 0.04 * side)]
        return [(_line(centre - d * half, centre + d * half, rng, rng.normal(0, 0.01)), speed)]
    raise ValueError(kind)


def _lay(ink: Ink, strokes: list[Stroke], pen: Pen, slot: Slot) -> None:
    for path, speed in strokes:
        ink.stroke(np.asarray(path) * slot.px_per_mm + [slot.x, slot.y], pen, slot.px_per_mm, speed)


def fill(ink: Ink, layout_name: str, sheet: Sheet, hand: Hand, slot: Slot, rng: np.random.Generator) -> list[str]:
    """Mark `sheet` on the page at `slot` as `hand` would; what was notable, in words."""
    layout = layouts.load(layout_name)
    geometry = sheet_geometry(layout)
    pen = hand.pen
    notes: set[str] = set()

    def mark(cx: float, cy: float, side: float, allowed: tuple[str, ...] | None = None) -> None:
        kind = hand.pick(rng, allowed)
        size = rng.uniform(*hand.size)
        if kind == "x" and rng.random() < hand.overrun:
            size = rng.uniform(1.2, 1.6)
            notes.add("overrunning X")
        notes.add(kind)
        offset = rng.normal(0, hand.sloppy * side, 2)
        _lay(ink, shape(kind, cx + offset[0], cy + offset[1], side, rng, size, pen.width), pen, slot)

    for index, row in enumerate(geometry.rows):
        order = sheet.spec.rows[index].numbers
        marked, skipped = set(sheet.marked(index)), set(sheet.skipped(index))
        for (x, y, side), number in zip(row.cells, order):
            if number in marked:
                mark(x + side / 2, y + side / 2, side)
            elif number in skipped and rng.random() < hand.strike_skipped:
                _lay(ink, shape("strike", x + side / 2, y + side / 2, side, rng, 1.0, pen.width), pen, slot)
                notes.add("skipped struck")
        lx, ly, r = row.lock
        if sheet.is_locked(index):
            mark(lx, ly, 2 * r * 0.95)
        elif sheet.is_closed(index) and rng.random() < hand.strike_closed:
            _lay(ink, shape("strike", lx, ly, 2 * r, rng, 1.0, pen.width), pen, slot)
            notes.add("closed lock struck")
    no_circles = ("x", "slash", "tick", "scribble", "blob")
    for i, (x, y, w, h) in enumerate(geometry.penalty_boxes):
        if i < sheet.penalties:
            mark(x + w / 2, y + h / 2, min(w, h), no_circles)
    for (x, y, w, h), state in zip(geometry.bonus_row, sheet.bonus_row()):
        if state == "struck":
            mark(x + w / 2, y + h / 2, min(w, h), no_circles)
    for kind, (x, y, w, h) in enumerate(geometry.bonus_boxes, start=1):
        if kind in sheet.bonus_kinds():
            style = rng.choice(("cross", "diagonal", "tick"))
            inset = rng.uniform(0.5, 2.0)
            corners = [np.array([x + inset, y + inset]), np.array([x + w - inset, y + h - inset]),
                       np.array([x + inset, y + h - inset]), np.array([x + w - inset, y + inset])]
            if style == "tick":
                strokes = shape("tick", x + w / 2, y + h / 2, h, rng, 0.9, pen.width)
            else:
                strokes = [(_line(corners[0], corners[1], rng, rng.normal(0, 0.02)), 1.2)]
                if style == "cross":
                    strokes.append((_line(corners[2], corners[3], rng, rng.normal(0, 0.02)), 1.2))
            _lay(ink, strokes, pen, slot)
    writer = hand.name_pen or pen
    if hand.name:
        name = str(rng.choice(NAMES))
        left = layout.width * rng.uniform(0.5, 0.56)  # type: ignore[union-attr]
        height = rng.uniform(3.2, 4.8)
        ink.write(name, slot.x + left * slot.px_per_mm, slot.y + (geometry.title_baseline - 0.2) * slot.px_per_mm,
                  height * slot.px_per_mm, writer, slot.px_per_mm, script=rng.random() < 0.6)
        notes.add("name")
    if hand.totals:
        figures = [*(sheet.points(r) for r in range(len(geometry.rows))), sheet.penalty_points(), sheet.total()]
        for (x, y, w, h), value in zip(geometry.totals, figures):
            if rng.random() < 0.08:
                continue
            height = h * rng.uniform(0.4, 0.6)
            left = x + w * rng.uniform(0.2, 0.45)
            base = y + h / 2 + height / 2 + rng.normal(0, 0.6)
            ink.write(str(value), slot.x + left * slot.px_per_mm, slot.y + base * slot.px_per_mm,
                      height * slot.px_per_mm, writer, slot.px_per_mm, script=False)
        notes.add("totals")
    return sorted(notes)
