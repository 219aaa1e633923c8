"""Scene: table coordinates (mm) per photo pixel in, the table's colour there out; and fingers or pens drawn over a photo.

Tables are procedural tiles sampled at each pixel's table coordinates with a
wrapping `cv2.remap`: a felt game mat (fibres and mottle), a newspaper
(columns of word blocks, headlines, a halftone picture), a woven placemat,
or a game box lid (printed stripes and discs) lying on a plain desk. Fingers
and pens are shaded capsules (a cylinder's light across them, a nail or a
metal tip) with a soft shadow, drawn in the photo.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

TABLES = ("felt", "felt", "newspaper", "newspaper", "placemat", "placemat", "gamebox")


def _wrap(tile: np.ndarray, x: np.ndarray, y: np.ndarray, ppm: float) -> np.ndarray:
    return cv2.remap(tile, (x * ppm).astype(np.float32), (y * ppm).astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_WRAP)


def _smooth(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    field = rng.standard_normal((cells, cells)).astype(np.float32)
    field = np.tile(field, (3, 3))
    big = cv2.resize(field, (3 * size, 3 * size), interpolation=cv2.INTER_CUBIC)[size:2 * size, size:2 * size]
    return big / (big.std() + 1e-6)


def felt(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    base = np.array(rng.choice([(0.05, 0.28, 0.12), (0.06, 0.12, 0.32), (0.35, 0.05, 0.08), (0.18, 0.18, 0.2),
                                (0.32, 0.22, 0.12)]), np.float32)
    size = 512
    tile = np.zeros((size, size), np.float32)
    for _ in range(5000):
        px, py = rng.uniform(0, size, 2)
        a = rng.uniform(0, math.pi)
        length = rng.uniform(4, 14)
        p0 = (int(px), int(py))
        p1 = (int(px + length * math.cos(a)), int(py + length * math.sin(a)))
        cv2.line(tile, p0, p1, float(rng.uniform(-1, 1)), 1, cv2.LINE_AA)
    tile = cv2.GaussianBlur(tile, (0, 0), 0.8)
    tile = tile / (tile.std() + 1e-6) * 0.12 + 0.06 * _smooth(rng, size, 6)
    grain = _wrap(tile, x, y, 8.0)
    return base[None, None, :] * (1 + grain)[..., None]


def newspaper(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    ppm, size = 4.0, 1200
    tile = np.full((size, size), 0.86, np.float32)
    gutter = int(ppm * 4)
    columns = (size - gutter) // int(ppm * rng.uniform(45, 60) + gutter)
    column_w = (size - gutter) // columns - gutter  # the columns fill the tile, so it wraps seamlessly
    for left in range(gutter, size - column_w + 1, column_w + gutter):
        top = gutter
        while top < size - gutter:
            roll = rng.random()
            if roll < 0.06:  # headline
                height = int(ppm * rng.uniform(7, 11))
                pos = left
                while pos < left + column_w - 10:
                    word = int(ppm * rng.uniform(8, 25))
                    cv2.rectangle(tile, (pos, top), (min(pos + word, left + column_w), top + height), 0.15, -1)
                    pos += word + int(ppm * 2.5)
                top += height + int(ppm * 3)
            elif roll < 0.09:  # a halftone picture
                height = int(ppm * rng.uniform(30, 60))
                yy, xx = np.mgrid[0:height, 0:column_w].astype(np.float32)
                picture = (0.3 + 0.4 * yy / height + 0.1 * rng.standard_normal()).astype(np.float32)
                for _ in range(int(rng.integers(2, 5))):  # people and things, as grey shapes
                    centre = (int(rng.uniform(0, column_w)), int(rng.uniform(0, height)))
                    axes = (int(rng.uniform(0.08, 0.3) * column_w), int(rng.uniform(0.15, 0.5) * height))
                    cv2.ellipse(picture, centre, axes, rng.uniform(0, 180), 0, 360, float(rng.uniform(0.1, 0.9)), -1)
                picture = cv2.GaussianBlur(picture, (0, 0), ppm * 1.2)
                a = np.radians(45)
                u, v = (xx * np.cos(a) + yy * np.sin(a)) * 1.4, (-xx * np.sin(a) + yy * np.cos(a)) * 1.4
                screen = 0.5 + 0.25 * (np.cos(u) + np.cos(v))  # a 45° dot screen
                block = np.where(picture > screen, 0.86, 0.15).astype(np.float32)
                bottom = min(size, top + height)
                tile[top:bottom, left:left + column_w] = block[:bottom - top]
                top += height + int(ppm * 3)
            else:  # a line of text
                line_h = int(ppm * 1.3)
                pos = left
                while pos < left + column_w - 4:
                    word = int(ppm * rng.uniform(2, 9))
                    cv2.rectangle(tile, (pos, top), (min(pos + word, left + column_w), top + line_h), 0.35, -1)
                    pos += word + int(ppm * 1.2)
                top += int(ppm * 3.2)
    tile = cv2.GaussianBlur(tile, (0, 0), 0.7)
    grey = _wrap(tile, x + rng.uniform(0, 300), y + rng.uniform(0, 300), ppm)
    paper = np.array([0.95, 0.92, 0.84], np.float32) * rng.uniform(0.85, 1.0)
    return paper[None, None, :] * grey[..., None] / 0.86


def placemat(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    ppm, period = 6.0, rng.uniform(6, 12)
    size = round(ppm * period * 8)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / ppm
    cell_x, cell_y = np.floor(xx / period), np.floor(yy / period)
    fx, fy = xx / period - cell_x, yy / period - cell_y
    over = ((cell_x + cell_y) % 2) == 0
    along = np.where(over, fx, fy)
    across = np.where(over, fy, fx)
    shade = 0.75 + 0.25 * np.sin(np.pi * across) - 0.2 * np.abs(along - 0.5) ** 2
    gap = np.clip(np.minimum(across, 1 - across) * period / 0.5, 0, 1)
    a = np.array(rng.choice([(0.75, 0.6, 0.38), (0.7, 0.2, 0.15), (0.25, 0.35, 0.55), (0.55, 0.6, 0.3)]), np.float32)
    b = a * rng.uniform(0.6, 0.9)
    colour = np.where(over[..., None], a, b) * (shade * (0.35 + 0.65 * gap))[..., None]
    tile = colour.astype(np.float32)
    return _wrap(tile, x, y, ppm)


def gamebox(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    desk = np.array(rng.choice([(0.85, 0.84, 0.8), (0.3, 0.3, 0.32), (0.6, 0.5, 0.4)]), np.float32)
    desk_tile = (1 + 0.04 * _smooth(rng, 256, 8)).astype(np.float32)
    out = desk[None, None, :] * _wrap(desk_tile, x, y, 1.0)[..., None]
    # the lid: a rotated rectangle under the sheet, printed in bold colours
    angle = rng.uniform(-0.3, 0.3)
    cx, cy = rng.uniform(-40, 40), rng.uniform(-30, 30)
    c, s = math.cos(angle), math.sin(angle)
    lx, ly = (x - cx) * c + (y - cy) * s, -(x - cx) * s + (y - cy) * c
    half_w, half_h = rng.uniform(140, 170), rng.uniform(140, 170)
    inside = (np.abs(lx) < half_w) & (np.abs(ly) < half_h)
    palettes = [[(0.8, 0.1, 0.12), (0.95, 0.8, 0.1), (0.1, 0.55, 0.25), (0.1, 0.25, 0.6)],
                [(0.05, 0.08, 0.25), (0.75, 0.55, 0.15), (0.05, 0.08, 0.25), (0.6, 0.1, 0.1)],
                [(0.35, 0.1, 0.4), (0.9, 0.45, 0.1), (0.95, 0.85, 0.6), (0.35, 0.1, 0.4)],
                [(0.05, 0.35, 0.35), (0.9, 0.88, 0.75), (0.05, 0.35, 0.35), (0.8, 0.3, 0.2)]]
    palette = np.array(palettes[int(rng.integers(0, len(palettes)))], np.float32)
    stripe = np.floor((lx * rng.uniform(0.3, 1.0) + ly) / rng.uniform(30, 70)).astype(np.int64) % 4
    art = palette[stripe]
    title = np.abs(ly - rng.uniform(-0.6, 0.6) * half_h) < rng.uniform(12, 25)  # a band for the game's name
    art[title] = palette[0] * 0.5
    for _ in range(4):
        dx, dy, r = rng.uniform(-half_w, half_w), rng.uniform(-half_h, half_h), rng.uniform(15, 45)
        disc = (lx - dx) ** 2 + (ly - dy) ** 2 < r * r
        art[disc] = (0.95, 0.95, 0.92)
    edge = np.clip(np.minimum(half_w - np.abs(lx), half_h - np.abs(ly)) / 1.5, 0, 1)
    rim = np.clip(-np.minimum(half_w - np.abs(lx), half_h - np.abs(ly)) / 8, 0, 1)  # the lid's shadow on the desk
    out = out * (0.6 + 0.4 * rim)[..., None]
    out = np.where(inside[..., None], art * (0.85 + 0.15 * edge[..., None]), out)
    return out.astype(np.float32)


def table(kind: str, rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The table's reflectance (RGB) at table points (x, y mm, y down)."""
    return {"felt": felt, "newspaper": newspaper, "placemat": placemat, "gamebox": gamebox}[kind](rng, x, y)


def _capsule(origin: tuple[int, int], shape: tuple[int, int], a: np.ndarray, b: np.ndarray, radius: float,
             taper: float, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """A capsule from a (tip) to b (photo pixels), its radius growing by `taper` towards b, over the region of
    `shape` whose top left is `origin`, sampled every 1/scale pixels: coverage and the position across (-1..1)."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx = xx / scale + origin[0]
    yy = yy / scale + origin[1]
    d = b - a
    length = float(np.linalg.norm(d)) + 1e-6
    t = np.clip(((xx - a[0]) * d[0] + (yy - a[1]) * d[1]) / (length * length), 0, 1)
    px, py = a[0] + t * d[0], a[1] + t * d[1]
    signed = ((xx - a[0]) * d[1] - (yy - a[1]) * d[0]) / length
    r = radius * (1 + taper * t)
    dist = np.hypot(xx - px, yy - py)
    cover = np.clip((r - dist) * scale + 0.5, 0, 1)
    across = np.clip(signed / r, -1, 1)
    return cover, across


def occluder(image: np.ndarray, kind: str, tip: np.ndarray, base: np.ndarray, px_per_mm: float,
             rng: np.random.Generator, light_side: float, lighting: np.ndarray,
             skin: np.ndarray | None = None, hand_to: np.ndarray | None = None) -> None:
    """A finger or thumb from `base` (its knuckle) to `tip`, with the hand it grows from reaching to `hand_to`, or a
    pen from `base` to `tip`, drawn over the photo (linear RGB, changed in place) in the room's `lighting`, with a
    soft shadow."""
    h, w = image.shape[:2]
    if kind in ("finger", "thumb", "palm"):
        if skin is None:
            skin = np.array(rng.choice([(0.7, 0.45, 0.34), (0.55, 0.35, 0.25), (0.3, 0.18, 0.12),
                                        (0.75, 0.52, 0.45)]), np.float32)
        if kind != "palm":  # the hand from the knuckle (`base`) on, out of the frame
            direction = (base - tip) / (np.linalg.norm(base - tip) + 1e-9)
            end = hand_to if hand_to is not None else base
            end = end + direction * px_per_mm * 60
            occluder(image, "palm", base + direction * px_per_mm * 15, end, px_per_mm, rng, light_side, lighting,
                     skin)
        radius = px_per_mm * {"finger": rng.uniform(8.0, 10.0), "thumb": rng.uniform(10.0, 12.0),
                              "palm": rng.uniform(30.0, 40.0)}[kind]
        taper = rng.uniform(0.1, 0.3)
    else:
        radius = px_per_mm * rng.uniform(4.0, 5.5)
        taper = 0.0
        skin = np.array(rng.choice([(0.1, 0.15, 0.5), (0.05, 0.05, 0.05), (0.8, 0.1, 0.1), (0.9, 0.9, 0.9),
                                    (0.9, 0.7, 0.1)]), np.float32)
    offset = np.array([light_side, 1.0]) * px_per_mm * rng.uniform(4, 10)
    softness = px_per_mm * rng.uniform(2.5, 5)
    pad = radius * (1 + taper) + float(np.abs(offset).max()) + 3 * softness + 4
    x0, x1 = int(max(0, min(tip[0], base[0]) - pad)), int(min(w, max(tip[0], base[0]) + pad))
    y0, y1 = int(max(0, min(tip[1], base[1]) - pad)), int(min(h, max(tip[1], base[1]) + pad))
    if x1 <= x0 or y1 <= y0:
        return
    region = image[y0:y1, x0:x1]
    shape = (y1 - y0, x1 - x0)
    cover, across = _capsule((x0, y0), shape, tip, base, radius, taper)
    small = (max(1, shape[0] // 4), max(1, shape[1] // 4))
    shadow, _ = _capsule((x0, y0), small, tip + offset, base + offset, radius, taper, scale=0.25)
    shadow = cv2.GaussianBlur(shadow, (0, 0), softness / 4)
    shadow = cv2.resize(shadow, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    region *= (1 - rng.uniform(0.3, 0.5) * shadow * (1 - cover))[..., None]
    light = 0.35 + 0.65 * np.sqrt(np.clip(1 - across ** 2, 0, 1)) * (0.8 + 0.2 * light_side * across)
    colour = skin[None, None, :] * light[..., None]
    direction = (base - tip) / (np.linalg.norm(base - tip) + 1e-9)
    if kind == "finger":  # the nail, near the tip
        nail_c = tip + direction * radius * 1.1 - np.array([x0, y0])
        nail = np.zeros(shape, np.float32)
        axes = (int(radius * 0.55), int(radius * 0.8))
        angle = math.degrees(math.atan2(direction[1], direction[0])) + 90
        cv2.ellipse(nail, (int(nail_c[0]), int(nail_c[1])), axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA)
        nail = cv2.GaussianBlur(nail, (0, 0), max(1.0, radius * 0.08))[..., None]
        colour = colour * (1 - 0.5 * nail) + np.array([0.92, 0.8, 0.78], np.float32) * light[..., None] * 0.5 * nail
    elif kind == "pen":  # the metal tip
        cone, _ = _capsule((x0, y0), shape, tip, tip + direction * radius * 3, radius * 0.25, 3.0)
        metal = np.array([0.6, 0.6, 0.62], np.float32) * (0.5 + 0.8 * np.clip(1 - across ** 2, 0, 1))[..., None]
        cover = np.maximum(cover, cone)
        colour = np.where(cone[..., None] > 0, metal, colour)
    highlight = np.exp(-((across + 0.45 * light_side) ** 2) / 0.02) * (0.25 if kind == "pen" else 0.08)
    colour = (colour + highlight[..., None]) * lighting[None, None, :]
    region[:] = region * (1 - cover[..., None]) + colour * cover[..., None]
