"""Marks: a rules-engine sheet, its field geometry (mm) and a player's habits in, pen strokes on the page out.

Every field the engine marked gets a deliberate mark of the player's kind
(X of any size and aspect, an X with an arm overrunning into the neighbour,
slash, tick, scribble, filled blob, circle round the number); skipped
numbers and the lock of a row closed by another player get a level strike
(not a cross); totals and a name are handwritten with a small set of
hand-made glyphs. Each mark's control points are jittered as a hand would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from benchmarks.photosets.fourth.brush import Curve, Pen, Point, Sheetink
from printgen.builders.geometry import sheet_geometry
from printgen.rules.sheet import Sheet

KINDS = ("x", "x", "x", "x", "x-wide", "x-over", "slash", "tick", "scribble", "blob", "circle")
ALL_KINDS = ("x", "x-wide", "x-over", "slash", "tick", "scribble", "blob", "circle")


@dataclass
class Hand:
    """A player's habits: the usual mark, how big, how sloppy, with which pen."""

    kind: str
    size: float
    slop: float
    pen: Pen
    varied: bool = False


def _line(a: Point, b: Point, bow: float, rng: np.random.Generator) -> Curve:
    """A slightly bowed straight stroke from a to b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    nx, ny = -dy, dx
    k1, k2 = bow * rng.uniform(0.5, 1.2), bow * rng.uniform(0.3, 1.0)
    return (a, (a[0] + dx / 3 + nx * k1, a[1] + dy / 3 + ny * k1), (a[0] + 2 * dx / 3 + nx * k2, a[1] + 2 * dy / 3 + ny * k2),
            b)


def _through(points: list[Point]) -> list[Curve]:
    """Smooth pieces through the midpoints of `points` (the points pull the curve, as a quadratic B-spline)."""
    if len(points) == 2:
        a, b = points
        return [(a, a, b, b)]
    curves: list[Curve] = []
    mids = [points[0]] + [((points[i][0] + points[i + 1][0]) / 2, (points[i][1] + points[i + 1][1]) / 2)
                          for i in range(1, len(points) - 2)] + [points[-1]]
    for i in range(len(mids) - 1):
        a, c, b = mids[i], points[i + 1], mids[i + 1]
        curves.append((a, (a[0] + 2 / 3 * (c[0] - a[0]), a[1] + 2 / 3 * (c[1] - a[1])),
                       (b[0] + 2 / 3 * (c[0] - b[0]), b[1] + 2 / 3 * (c[1] - b[1])), b))
    return curves


def field_mark(ink: Sheetink, hand: Hand, kind: str, cx: float, cy: float, side: float,
               rng: np.random.Generator, pitch: float = 0.0) -> None:
    """One deliberate mark in a field of `side` mm centred at (cx, cy); `pitch`: the distance to the next field
    (an overrunning arm reaches into it)."""
    j = hand.slop * side
    cx, cy = cx + rng.normal(0, 0.06 * j), cy + rng.normal(0, 0.06 * j)
    pen = hand.pen
    size = hand.size * rng.uniform(0.9, 1.1)
    if kind in ("x", "x-wide", "x-over"):
        aspect = rng.uniform(0.75, 1.3) * (1.45 if kind == "x-wide" else 1.0)
        hw, hh = side * size * 0.5 * math.sqrt(aspect), side * size * 0.5 / math.sqrt(aspect)
        hw = min(hw, side * 0.62)
        turn = rng.normal(0, 0.12)
        c, s = math.cos(turn), math.sin(turn)

        def at(px: float, py: float) -> Point:
            return (cx + px * c - py * s + rng.normal(0, 0.05 * j), cy + px * s + py * c + rng.normal(0, 0.05 * j))

        first = [at(-hw, -hh), at(hw, hh)]
        second = [at(hw, -hh), at(-hw, hh)]
        if kind == "x-over":  # one arm runs on into the neighbouring field
            arm = int(rng.integers(0, 4))
            stroke = (first, second)[arm // 2]
            end = arm % 2
            reach = (pitch or side) * rng.uniform(0.3, 0.55)
            px, py = stroke[end]
            dx, dy = px - cx, py - cy
            k = 1 + reach / max(abs(dx), 1e-3)
            stroke[end] = (cx + dx * k, cy + dy * min(k, 1.25))
        ink.stroke(pen, [_line(first[0], first[1], rng.normal(0, 0.06), rng)], rng.uniform(0.85, 1.2))
        ink.stroke(pen, [_line(second[0], second[1], rng.normal(0, 0.06), rng)], rng.uniform(0.85, 1.2))
    elif kind == "slash":
        h = side * size * 0.55
        lean = rng.uniform(0.5, 0.9)
        ink.stroke(pen, [_line((cx + h * lean, cy - h), (cx - h * lean, cy + h), rng.normal(0, 0.05), rng)],
                   rng.uniform(0.95, 1.25))
    elif kind == "tick":
        h = side * size * 0.5
        a, b, c = (cx - h * 0.7, cy), (cx - h * 0.15, cy + h * 0.7), (cx + h * 0.8, cy - h * 0.9)
        ink.stroke(pen, _through([a, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 + 0.1), b, c]), rng.uniform(0.95, 1.2))
    elif kind == "scribble":
        h = side * max(size, 0.7) * 0.45
        turns = int(rng.integers(6, 11))
        pts = [(cx - h + 2 * h * (i % 2) + rng.normal(0, 0.08 * h), cy - h + 2 * h * i / turns + rng.normal(0, 0.1 * h))
               for i in range(turns + 1)]
        ink.stroke(pen, _through(pts), rng.uniform(0.95, 1.2))
    elif kind == "blob":
        h = side * rng.uniform(0.28, 0.4)
        step = max(pen.width * 0.7, 0.3)
        pts = []
        y = cy - h
        i = 0
        while y <= cy + h:
            half = h * math.sqrt(max(0.0, 1 - ((y - cy) / h) ** 2)) + 0.2
            pts.append((cx + (half if i % 2 else -half), y))
            y += step
            i += 1
        if len(pts) >= 2:
            ink.stroke(pen, _through(pts), 1.3)
            ink.stroke(pen, _through(pts[::-1]), 1.2)
    elif kind == "circle":
        rx, ry = side * rng.uniform(0.45, 0.6), side * rng.uniform(0.42, 0.58)
        start = rng.uniform(0, 2 * math.pi)
        sweep = 2 * math.pi * rng.uniform(1.02, 1.15)
        pts = [(cx + rx * math.cos(start + sweep * t / 10) * rng.uniform(0.96, 1.04),
                cy + ry * math.sin(start + sweep * t / 10) * rng.uniform(0.96, 1.04)) for t in range(11)]
        ink.stroke(pen, _through(pts), rng.uniform(0.9, 1.1))


def strike(ink: Sheetink, pen: Pen, cx: float, cy: float, half: float, rng: np.random.Generator) -> None:
    """A level line struck through (not a cross)."""
    slope = rng.normal(0, 0.03)
    a = (cx - half, cy + rng.normal(0, 0.2) - slope * half)
    b = (cx + half, cy + rng.normal(0, 0.2) + slope * half)
    ink.stroke(pen, [_line(a, b, rng.normal(0, 0.01), rng)], rng.uniform(0.7, 1.0))


GLYPHS: dict[str, list[list[Point]]] = {  # in a box 0..1 wide, 0..1 high (y down)
    "0": [[(0.5, 0.0), (0.05, 0.2), (0.1, 0.9), (0.5, 1.0), (0.95, 0.8), (0.9, 0.1), (0.45, 0.0)]],
    "1": [[(0.2, 0.25), (0.55, 0.0), (0.5, 1.0)]],
    "2": [[(0.1, 0.25), (0.5, -0.05), (0.9, 0.3), (0.05, 1.0), (0.95, 0.98)]],
    "3": [[(0.1, 0.1), (0.8, 0.0), (0.4, 0.45), (0.95, 0.7), (0.5, 1.05), (0.05, 0.85)]],
    "4": [[(0.7, 1.0), (0.65, 0.0), (0.0, 0.7), (1.0, 0.7)]],
    "5": [[(0.9, 0.0), (0.2, 0.0), (0.15, 0.45), (0.9, 0.5), (0.7, 1.0), (0.05, 0.9)]],
    "6": [[(0.8, 0.0), (0.1, 0.5), (0.3, 1.0), (0.9, 0.75), (0.5, 0.45), (0.1, 0.65)]],
    "7": [[(0.05, 0.0), (0.95, 0.0), (0.35, 1.0)]],
    "8": [[(0.5, 0.45), (0.1, 0.2), (0.5, 0.0), (0.9, 0.2), (0.1, 0.8), (0.5, 1.0), (0.9, 0.8), (0.5, 0.45)]],
    "9": [[(0.9, 0.3), (0.5, 0.0), (0.1, 0.3), (0.5, 0.55), (0.9, 0.3), (0.75, 1.0)]],
    "-": [[(0.1, 0.5), (0.8, 0.5)]],
    "+": [[(0.1, 0.5), (0.9, 0.5)], [(0.5, 0.15), (0.5, 0.85)]],
}


def write(ink: Sheetink, pen: Pen, text: str, x: float, baseline: float, height: float,
          rng: np.random.Generator) -> None:
    """Handwritten figures starting at x on `baseline`, `height` mm tall."""
    slant = rng.uniform(0.05, 0.25)
    for char in text:
        width = height * (0.35 if char == "1" else 0.6)
        for stroke in GLYPHS.get(char, []):
            pts = [(x + (px + rng.normal(0, 0.04)) * width + slant * height * (1 - py),
                    baseline - height + (py + rng.normal(0, 0.03)) * height) for px, py in stroke]
            ink.stroke(pen, _through(pts), rng.uniform(0.9, 1.1))
        x += width + height * rng.uniform(0.15, 0.3)


def scrawl(ink: Sheetink, pen: Pen, x: float, baseline: float, length: float, height: float,
           rng: np.random.Generator) -> None:
    """A scrawled name: a capital-ish loop then running loops of the x-height."""
    pts = [(x, baseline), (x + height * 0.2, baseline - height), (x + height * 0.5, baseline - height * 0.4),
           (x + height * 0.1, baseline - height * 0.5)]
    ink.stroke(pen, _through(pts), 1.0)
    pos = x + height * 0.6
    while pos < x + length:  # words of running loops, a lift between them
        pts = [(pos, baseline)]
        end = min(pos + height * rng.uniform(2.0, 5.0), x + length)
        while pos < end - height * 0.3:
            step = min(height * rng.uniform(0.3, 0.55), end - pos)
            tall = rng.random() < 0.25
            top = baseline - height * (rng.uniform(0.85, 1.05) if tall else rng.uniform(0.35, 0.6))
            pts.append((pos + step * (0.7 if tall else 0.45), top))
            pts.append((pos + step * (0.3 if tall else 0.55), top + height * 0.15))
            pts.append((pos + step, baseline - rng.uniform(0.0, 0.12)))
            pos += step
        if len(pts) >= 3:
            ink.stroke(pen, _through(pts), 1.0)
        pos += height * rng.uniform(0.6, 1.0)


def draw_sheet(ink: Sheetink, layout: object, sheet: Sheet, origin: Point, scale: float, hand: Hand,
               name_line: tuple[float, float, float] | None, rng: np.random.Generator) -> list[str]:
    """Every mark of `sheet` drawn on the page, the sheet's top left at `origin` (mm) and scaled by `scale`;
    the mark kinds used."""
    g = sheet_geometry(layout)  # type: ignore[arg-type]
    ox, oy = origin

    def at(x: float, y: float) -> tuple[float, float]:
        return ox + x * scale, oy + y * scale

    used: set[str] = set()

    def mark(cx: float, cy: float, side: float, pitch: float = 0.0) -> None:
        kind = str(rng.choice(ALL_KINDS)) if hand.varied else hand.kind
        if kind == "x-over" and not hand.varied and rng.random() < 0.5:  # a sloppy hand overruns now and then
            kind = "x"
        used.add(kind)
        px, py = at(cx, cy)
        field_mark(ink, hand, kind, px, py, side * scale, rng, pitch * scale)

    strike_pen = hand.pen
    for index, row in enumerate(g.rows):
        order = sheet.spec.rows[index].numbers
        marked, skipped = set(sheet.marked(index)), set(sheet.skipped(index))
        for (x, y, side), number in zip(row.cells, order):
            if number in marked:
                mark(x + side / 2, y + side / 2, side, row.pitch)
            elif number in skipped and rng.random() < 0.6:
                px, py = at(x + side / 2, y + side / 2)
                strike(ink, strike_pen, px, py, side * scale * rng.uniform(0.3, 0.45), rng)
        lx, ly, r = row.lock
        if sheet.is_locked(index):
            mark(lx, ly, 2 * r)
        elif sheet.is_closed(index) and rng.random() < 0.8:
            px, py = at(lx, ly)
            strike(ink, strike_pen, px, py, r * scale * rng.uniform(0.6, 0.95), rng)
    for i, (x, y, w, h) in enumerate(g.penalty_boxes):
        if i < sheet.penalties:
            mark(x + w / 2, y + h / 2, min(w, h))
    for (x, y, w, h), state in zip(g.bonus_row, sheet.bonus_row()):
        if state == "struck":
            mark(x + w / 2, y + h / 2, min(w, h))
    won = set(sheet.bonus_kinds())
    for kind, (x, y, w, h) in enumerate(g.bonus_boxes, start=1):
        if kind in won:
            mark(x + w / 2, y + h / 2, min(w, h))
    if rng.random() < 0.7:  # totals written in
        figures = [*(sheet.points(r) for r in range(len(g.rows))), sheet.penalty_points(), sheet.total()]
        for (x, y, w, h), value in zip(g.totals, figures):
            text = str(value)
            height = h * rng.uniform(0.45, 0.6)
            px, py = at(x + w * rng.uniform(0.2, 0.35), y + h * 0.5 + height / 2)
            write(ink, hand.pen, text, px, py, height * scale, rng)
    if name_line and rng.random() < 0.75:
        x0, x1, baseline = name_line
        length = (x1 - x0) * rng.uniform(0.4, 0.8)
        px, py = at(x0 + rng.uniform(0.5, 3), baseline - 0.5)
        scrawl(ink, hand.pen, px, py, length * scale, 4.0 * scale, rng)
    return sorted(used)
