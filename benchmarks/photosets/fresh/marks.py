"""Marks: a rules-engine sheet in, every stroke a player draws on its printed fields (page mm) out."""

from __future__ import annotations

import numpy as np

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.rules.sheet import Sheet

from .paper import Placed
from .pen import Ink, Pen

CROSSES = ("x", "x-long", "slash", "tick", "circle", "scribble", "blob")
DIGITS = {
    "0": [[(0.5, 0), (0.1, 0.3), (0.15, 0.8), (0.5, 1), (0.88, 0.75), (0.85, 0.2), (0.5, 0), (0.4, 0.05)]],
    "1": [[(0.25, 0.25), (0.55, 0), (0.55, 1)]],
    "2": [[(0.1, 0.25), (0.35, 0.02), (0.75, 0.05), (0.85, 0.3), (0.1, 1), (0.95, 0.98)]],
    "3": [[(0.1, 0.1), (0.8, 0.05), (0.45, 0.45), (0.9, 0.7), (0.6, 1), (0.1, 0.9)]],
    "4": [[(0.6, 0), (0.05, 0.7), (0.95, 0.7)], [(0.7, 0.3), (0.7, 1)]],
    "5": [[(0.85, 0), (0.2, 0), (0.15, 0.45), (0.7, 0.4), (0.9, 0.7), (0.6, 1), (0.1, 0.9)]],
    "6": [[(0.8, 0.05), (0.3, 0.3), (0.12, 0.75), (0.4, 1), (0.8, 0.85), (0.75, 0.55), (0.2, 0.6)]],
    "7": [[(0.05, 0), (0.95, 0), (0.35, 1)]],
    "8": [[(0.5, 0.5), (0.15, 0.25), (0.5, 0), (0.85, 0.25), (0.5, 0.5), (0.1, 0.78), (0.5, 1), (0.9, 0.78),
           (0.5, 0.5)]],
    "9": [[(0.85, 0.35), (0.5, 0.5), (0.15, 0.3), (0.5, 0), (0.85, 0.25), (0.75, 1)]],
    "-": [[(0.1, 0.5), (0.8, 0.5)]],
}


def _turn(points: np.ndarray, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return points @ np.array([[c, s], [-s, c]])


def cross_paths(style: str, half: float, rng: np.random.Generator) -> list[np.ndarray]:
    """The strokes of one mark of `style` for a field of half side `half` (mm), centred on 0."""
    a = half * rng.uniform(0.45, 0.95)
    aspect = rng.uniform(0.7, 1.35)
    b = a * aspect
    if style in ("x", "x-long"):
        one = np.array([(-a, -b), (a, b)])
        two = np.array([(a, -b), (-a, b)])
        if style == "x-long":
            two[1] = two[0] + (two[1] - two[0]) * rng.uniform(1.2, 1.55)
        paths = [one, two] if rng.random() < 0.7 else [two[::-1], one]
    elif style == "slash":
        paths = [np.array([(-0.55 * a, b), (0.55 * a, -b)])]
    elif style == "tick":
        paths = [np.array([(-0.7 * a, 0.0), (-0.15 * a, 0.65 * b), (0.75 * a, -0.9 * b)])]
    elif style == "circle":
        r = half * rng.uniform(0.75, 0.95)
        start = rng.uniform(0, 2 * np.pi)
        t = np.linspace(start, start + 2 * np.pi * rng.uniform(1.02, 1.2), 28)
        paths = [np.stack([r * np.cos(t), r * aspect ** 0.3 * np.sin(t)], axis=1)]
    elif style == "scribble":
        n = int(rng.integers(6, 10))
        ys = np.linspace(-0.55 * a, 0.55 * a, n)
        xs = np.where(np.arange(n) % 2 == 0, -0.6 * a, 0.6 * a) + rng.normal(0, 0.08 * a, n)
        paths = [np.stack([xs, ys], axis=1)]
    else:  # blob: a tight spiral filling the middle
        t = np.linspace(0, 2 * np.pi * 4, 60)
        r = 0.5 * a * (1 - t / t[-1]) + 0.05 * a
        paths = [np.stack([r * np.cos(t), r * np.sin(t)], axis=1)]
    angle = rng.normal(0, 0.15)
    return [_turn(p, angle) + rng.normal(0, 0.05 * half, 2) for p in paths]


def strike(half: float, rng: np.random.Generator) -> list[np.ndarray]:
    """A level line struck through a number (a reminder, not a cross)."""
    length = half * rng.uniform(0.6, 0.9)
    slope = np.tan(np.deg2rad(rng.normal(0, 2.0)))
    dy = rng.normal(0, 0.08 * half)
    return [np.array([(-length, dy - slope * length), (length, dy + slope * length)])]


def writing(text: str, height: float, rng: np.random.Generator) -> list[np.ndarray]:
    """Handwritten figures (from DIGITS) of `height` mm, left at 0, baseline at 0."""
    paths, x = [], 0.0
    slant = rng.uniform(0.0, 0.25)
    for char in text:
        for stroke in DIGITS.get(char, []):
            p = np.array(stroke, float) * (0.6 * height, height) + (x, -height)
            p[:, 0] += (height + p[:, 1]) * -slant + slant * height
            paths.append(p + rng.normal(0, 0.04 * height, p.shape))
        x += 0.75 * height
    return paths


def name(width: float, height: float, rng: np.random.Generator) -> list[np.ndarray]:
    """A scrawled name: loops and humps along a baseline (no real letters)."""
    n = int(rng.integers(10, 22))
    xs = np.linspace(0, width, n) + rng.normal(0, width / n * 0.25, n)
    ys = -np.where(np.arange(n) % 2 == 0, 0.0, height * rng.uniform(0.45, 0.7, n))
    tall = rng.random(n) < 0.15
    ys[tall & (np.arange(n) % 2 == 1)] = -height
    return [np.stack([xs, ys], axis=1)]


def fill(ink: Ink, placed: Placed, sheet: Sheet, pen: Pen, rng: np.random.Generator,
         styles: dict[str, float], mix: float = 0.3, extras: bool = True) -> None:
    """Draw `sheet`'s state onto the page: a mark in each crossed field (styles drawn from `styles`), level
    strikes through skipped numbers and closed locks now and then, and the totals and a name."""
    layout = layouts.load(placed.order.layout)
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    ox, oy = placed.origin
    scale = placed.scale
    names, weights = list(styles), np.array(list(styles.values()), float)
    habit = names[int(rng.choice(len(names), p=weights / weights.sum()))]  # a player's usual mark
    if habit == "x-long":  # an arm running long is a slip, not a habit
        habit = "x"
    varied = rng.random() < mix

    def put(paths: list[np.ndarray], cx: float, cy: float) -> None:
        for path in paths:
            ink.stroke(pen, (path + (cx, cy)) * scale + (ox, oy))

    def cross(cx: float, cy: float, half: float) -> None:
        style = names[int(rng.choice(len(names), p=weights / weights.sum()))] if varied else habit
        put(cross_paths(style, half, rng), cx, cy)

    strikes = rng.random() < 0.5
    for index, row in enumerate(geometry.rows):
        order = sheet.spec.rows[index].numbers
        marked, skipped = set(sheet.marked(index)), set(sheet.skipped(index))
        for (x, y, side), number in zip(row.cells, order):
            if number in marked:
                cross(x + side / 2, y + side / 2, side / 2)
            elif number in skipped and strikes and rng.random() < 0.8:
                put(strike(side / 2, rng), x + side / 2, y + side / 2)
        lx, ly, r = row.lock
        if sheet.is_locked(index):
            cross(lx, ly, r)
        elif sheet.is_closed(index) and rng.random() < 0.6:
            put(strike(r, rng), lx, ly)
    for i, (x, y, w, h) in enumerate(geometry.penalty_boxes):
        if i < sheet.penalties:
            cross(x + w / 2, y + h / 2, w / 2)
    for (x, y, w, h), state in zip(geometry.bonus_row, sheet.bonus_row()):
        if state == "struck":
            cross(x + w / 2, y + h / 2, min(w, h) / 2)
    for kind, (x, y, w, h) in enumerate(geometry.bonus_boxes, start=1):
        if kind in sheet.bonus_kinds():
            cross(x + w / 2, y + h / 2, w / 2)
    if not extras:
        return
    if rng.random() < 0.6:
        figures = [*(sheet.points(r) for r in range(len(geometry.rows))), -sheet.penalty_points(), sheet.total()]
        for (x, y, w, h), value in zip(geometry.totals, figures):
            text = str(value)
            size = h * rng.uniform(0.5, 0.7)
            put(writing(text, size, rng), x + w / 2 - 0.375 * size * len(text), y + h / 2 + size / 2)
    if rng.random() < 0.6:
        put(name(rng.uniform(14, 24), rng.uniform(2.5, 3.6), rng), layout.width * 0.5 + 6,  # type: ignore[union-attr]
            geometry.title_baseline - 0.2)
