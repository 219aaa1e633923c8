"""What else is in the picture: procedural tables (wood, tiles, cloth, plain), a second page, clutter, and the
things lying on or over the page (fingers, a pen or pencil, coins, dice), each with its shadow."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def noise(rng: np.random.Generator, shape: tuple[int, int], cell: float, octaves: int = 3) -> np.ndarray:
    """Smooth value noise in about [0, 1] over `shape`, features about `cell` pixels apart."""
    h, w = shape
    total = np.zeros(shape, np.float32)
    weight = 0.0
    for octave in range(octaves):
        size = max(cell / 2 ** octave, 2.0)
        gh, gw = int(h / size) + 3, int(w / size) + 3
        small = rng.random((gh, gw), dtype=np.float32)
        big = cv2.resize(small, (int(gw * size), int(gh * size)), interpolation=cv2.INTER_CUBIC)
        total += big[:h, :w] * 0.5 ** octave
        weight += 0.5 ** octave
    return total / weight


def soften(mask: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of a single-plane float picture; wide ones are made on a smaller copy."""
    if sigma <= 6:
        return cv2.GaussianBlur(mask, (0, 0), max(sigma, 0.3))
    h, w = mask.shape
    shrink = sigma / 3
    small = cv2.resize(mask, (max(2, int(w / shrink)), max(2, int(h / shrink))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 3.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def srgb(hex_or_rgb: tuple[float, float, float]) -> np.ndarray:
    """An sRGB colour (0..1 values) as linear reflectance."""
    return np.array(hex_or_rgb, np.float32) ** 2.2


@dataclass
class Table:
    """The table's reflectance as a texture over [x0, x0 + w/ppm] x [y0, y0 + h/ppm] mm of the table."""

    texture: np.ndarray
    x0: float
    y0: float
    ppm: float
    kind: str


def table(kind: str, rng: np.random.Generator, box: tuple[float, float, float, float], ppm: float) -> Table:
    """A table of `kind` (wood, tiles, cloth, plain) covering `box` (x0, y0, x1, y1 in mm)."""
    x0, y0, x1, y1 = box
    w, h = max(8, int((x1 - x0) * ppm)), max(8, int((y1 - y0) * ppm))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xx, yy = xx / ppm + x0, yy / ppm + y0
    angle = rng.uniform(0, math.pi)
    along = xx * math.cos(angle) + yy * math.sin(angle)
    across = -xx * math.sin(angle) + yy * math.cos(angle)
    if kind == "wood":
        texture = _wood(rng, (h, w), ppm, angle)
    elif kind == "tiles":
        size = rng.uniform(90, 310)
        grout = rng.uniform(1.5, 5)
        base = _pick(rng, ((0.85, 0.84, 0.8), (0.6, 0.62, 0.64), (0.3, 0.32, 0.35), (0.72, 0.55, 0.42),
                           (0.9, 0.9, 0.9)))
        gx, gy = (along % size), (across % size)
        tile_id = np.floor(along / size) * 7.31 + np.floor(across / size) * 3.17
        vary = (np.sin(tile_id * 12.9898) * 43758.5453 % 1.0 - 0.5) * 0.12
        mottle = noise(rng, (h, w), 25 * ppm) - 0.5
        speckle = rng.random((h, w), dtype=np.float32) - 0.5
        texture = srgb(base) * (1 + vary + 0.12 * mottle + 0.05 * speckle)[..., None]
        joint = (gx < grout) | (gy < grout)
        texture[joint] = srgb(_pick(rng, ((0.55, 0.55, 0.52), (0.25, 0.25, 0.25), (0.8, 0.8, 0.78))))
    elif kind == "cloth":
        base = _pick(rng, ((0.75, 0.15, 0.15), (0.2, 0.35, 0.6), (0.3, 0.5, 0.3), (0.85, 0.8, 0.7), (0.5, 0.5, 0.55)))
        second = _pick(rng, ((0.95, 0.95, 0.93), (0.15, 0.15, 0.2), (0.85, 0.75, 0.4)))
        period = rng.uniform(8, 30)
        pattern = rng.choice(("plain", "gingham", "stripes"))
        check = np.zeros((h, w), np.float32)
        if pattern == "gingham":
            check = 0.5 * ((along % period) < period / 2) + 0.5 * ((across % period) < period / 2)
        elif pattern == "stripes":
            check = ((along % period) < period * rng.uniform(0.2, 0.5)).astype(np.float32)
        weave = 0.92 + 0.08 * np.sin(2 * np.pi * xx / rng.uniform(0.7, 1.6)) * np.sin(2 * np.pi * yy / 1.1)
        folds = 0.85 + 0.3 * noise(rng, (h, w), 90 * ppm, octaves=2)
        texture = (srgb(base) * (1 - check[..., None]) + srgb(second) * check[..., None])
        texture *= (weave * folds)[..., None]
    else:
        base = _pick(rng, ((0.92, 0.92, 0.9), (0.55, 0.55, 0.55), (0.08, 0.08, 0.09), (0.75, 0.68, 0.55),
                           (0.25, 0.3, 0.35)))
        texture = srgb(base) * (0.95 + 0.1 * noise(rng, (h, w), 50 * ppm))[..., None]
    return Table(np.clip(texture, 0, 1).astype(np.float32), x0, y0, ppm, kind)


def _wood(rng: np.random.Generator, shape: tuple[int, int], ppm: float, angle: float) -> np.ndarray:
    """Planks of wood: grain lines running along each plank, drawn along the x axis and then turned."""
    h, w = shape
    fine = 2.0  # drawn at half the table's resolution, enlarged when turned
    ppm /= fine
    side = int(math.hypot(h, w) / fine) + 4
    light, dark = _pick(rng, (((0.78, 0.6, 0.42), (0.52, 0.34, 0.2)), ((0.5, 0.32, 0.18), (0.3, 0.17, 0.08)),
                              ((0.86, 0.74, 0.58), (0.66, 0.5, 0.34)), ((0.38, 0.25, 0.16), (0.22, 0.13, 0.07))))
    plank = rng.uniform(80, 190) * ppm
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    index = np.floor(yy / plank)
    phase = (np.sin(index * 12.9898 + 1.7) * 43758.5453) % 1.0
    wave = cv2.resize(rng.random((max(2, int(side / (35 * ppm))), max(2, int(side / (250 * ppm)))),
                                 dtype=np.float32), (side, side), interpolation=cv2.INTER_CUBIC)
    spacing = rng.uniform(2.5, 7) * ppm
    pith_y = (index + 0.5 + (phase - 0.5) * 3) * plank  # each plank sawn at its own distance from the pith
    pith_x = ((np.sin(index * 78.233) * 43758.5453) % 1.0) * side
    bend = rng.uniform(0.02, 0.08)
    radius = np.sqrt((yy - pith_y) ** 2 + (bend * (xx - pith_x)) ** 2)
    rings = ((radius + wave * rng.uniform(8, 25) * ppm) / spacing) % 1.0
    late = np.clip((rings - 0.72) / 0.12, 0, 1) * np.clip((1.0 - rings) / 0.1, 0, 1)
    streak = cv2.resize(rng.random((side, max(2, int(side / (40 * ppm)))), dtype=np.float32), (side, side),
                        interpolation=cv2.INTER_LINEAR)
    mix = np.clip(0.6 * late + 0.25 * streak + 0.25 * phase, 0, 1)
    texture = srgb(light) * (1 - mix[..., None]) + srgb(dark) * mix[..., None]
    texture *= (0.88 + 0.2 * phase)[..., None]
    seam = np.abs(((yy + plank / 2) % plank) - plank / 2) < max(0.6 * ppm, 0.7)
    texture[seam] *= 0.35
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), math.degrees(angle), fine)
    turn[:, 2] += [w / 2 - side / 2, h / 2 - side / 2]
    return cv2.warpAffine(texture.astype(np.float32), turn, (w, h), flags=cv2.INTER_LINEAR)


def _pick(rng: np.random.Generator, options: tuple) -> tuple:  # type: ignore[type-arg]
    return options[int(rng.integers(len(options)))]


def paste(target: Table, image: np.ndarray, centre: tuple[float, float], angle: float, ppm: float,
          shadow: float = 0.25) -> None:
    """Lay a flat picture (linear RGB, `ppm` pixels a mm) on the table, centred at `centre` mm, turned `angle` deg."""
    scale = target.ppm / ppm
    h, w = image.shape[:2]
    cx, cy = (centre[0] - target.x0) * target.ppm, (centre[1] - target.y0) * target.ppm
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, scale)
    matrix[:, 2] += [cx - w / 2, cy - h / 2]
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64) @ matrix.T
    th, tw = target.texture.shape[:2]
    blur = 1.5 * target.ppm if shadow else 0.0
    x0, y0 = (int(max(np.floor(corners.min(axis=0)[i] - 3 * blur - 2), 0)) for i in (0, 1))
    x1 = int(min(np.ceil(corners[:, 0].max() + 3 * blur + 2), tw))
    y1 = int(min(np.ceil(corners[:, 1].max() + 3 * blur + 2), th))
    if x1 <= x0 or y1 <= y0:
        return
    matrix[:, 2] -= [x0, y0]
    size = (x1 - x0, y1 - y0)
    region = target.texture[y0:y1, x0:x1]
    alpha = cv2.warpAffine(np.ones((h, w), np.float32), matrix, size)
    if shadow:
        soft = soften(alpha, blur)
        region *= (1 - shadow * soft * (1 - alpha))[..., None]
    picture = cv2.warpAffine(image, matrix, size, flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    region[:] = region * (1 - alpha[..., None]) + picture * alpha[..., None]


def clutter(target: Table, rng: np.random.Generator, keep_out: tuple[float, float, float, float], count: int) -> None:
    """Flat things lying about on the table: a notepad, a coaster, a phone, a receipt (not on the page's box)."""
    kx0, ky0, kx1, ky1 = keep_out
    h, w = target.texture.shape[:2]
    for _ in range(count):
        kind = rng.choice(("notepad", "coaster", "phone", "receipt"))
        size = {"notepad": (100, 140), "coaster": (95, 95), "phone": (72, 150), "receipt": (60, 170)}[str(kind)]
        picture = np.ones((int(size[1] * 2), int(size[0] * 2), 3), np.float32)
        ph, pw = picture.shape[:2]
        if kind == "notepad":
            picture *= srgb((0.97, 0.93, 0.6) if rng.random() < 0.5 else (0.93, 0.93, 0.9))
            for y in range(20, ph, 14):
                picture[y:y + 1] *= 0.7
        elif kind == "coaster":
            picture[:] = srgb(_pick(rng, ((0.6, 0.45, 0.3), (0.2, 0.2, 0.25), (0.8, 0.3, 0.2))))
            mask = np.zeros((ph, pw), np.uint8)
            cv2.circle(mask, (pw // 2, ph // 2), pw // 2 - 1, 1, -1)
            picture[mask == 0] = 0
        elif kind == "phone":
            picture[:] = srgb((0.05, 0.05, 0.06))
            picture[8:-8, 5:-5] = srgb((0.1, 0.12, 0.16)) * (0.8 + 0.4 * noise(rng, (ph - 16, pw - 10), 40))[..., None]
        else:
            picture *= srgb((0.95, 0.95, 0.93))
            for y in range(16, ph - 16, 9):
                length = int(rng.uniform(0.3, 0.85) * pw)
                picture[y:y + 3, 12:12 + length] *= 0.45
        for _ in range(20):
            x = rng.uniform(target.x0, target.x0 + w / target.ppm)
            y = rng.uniform(target.y0, target.y0 + h / target.ppm)
            if not (kx0 - 90 < x < kx1 + 90 and ky0 - 90 < y < ky1 + 90):
                paste(target, picture, (x, y), rng.uniform(0, 360), 2.0, shadow=0.3)
                break


@dataclass
class Thing:
    """Something drawn over the photo: its reflectance, coverage (alpha) and how bright it shines, in a pixel box."""

    x: int
    y: int
    colour: np.ndarray
    alpha: np.ndarray
    shine: np.ndarray
    name: str


def _capsule(shape: tuple[int, int], start: np.ndarray, end: np.ndarray, radius: np.ndarray | float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distance across (signed, -1..1 of the radius), position along (0..1) and coverage of a tapered capsule."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = end - start
    length2 = float(d @ d)
    t = np.clip(((xx - start[0]) * d[0] + (yy - start[1]) * d[1]) / length2, 0, 1)
    nx, ny = xx - (start[0] + t * d[0]), yy - (start[1] + t * d[1])
    dist = np.hypot(nx, ny)
    r = radius(t) if callable(radius) else np.full_like(t, radius)
    side = np.sign(nx * -d[1] + ny * d[0])
    across = np.clip(dist / np.maximum(r, 1e-3), 0, 1.5) * side
    cover = np.clip(r - dist + 0.5, 0, 1)
    return across, t, cover


def finger(rng: np.random.Generator, tip: np.ndarray, direction: np.ndarray, px_per_mm: float,
           image: tuple[int, int]) -> list[Thing]:
    """A thumb resting on the page with its tip at `tip` (pixels), pointing along `direction`, the hand behind it."""
    skin = srgb(_pick(rng, ((0.93, 0.76, 0.65), (0.85, 0.64, 0.5), (0.68, 0.48, 0.35), (0.45, 0.3, 0.22),
                            (0.3, 0.2, 0.15))))
    things = []
    width = rng.uniform(16, 22) * px_per_mm
    length = rng.uniform(45, 70) * px_per_mm
    back = tip - direction * length
    palm_far = back - direction * 400 * px_per_mm
    for start, end, radius, name in ((back, tip, width / 2, "thumb"),
                                     (palm_far, back - direction * 10 * px_per_mm + _normal(direction) *
                                      rng.uniform(-20, 20) * px_per_mm, rng.uniform(32, 45) * px_per_mm, "hand")):
        lo = np.floor(np.minimum(start, end) - radius - 2).astype(int)
        hi = np.ceil(np.maximum(start, end) + radius + 2).astype(int)
        lo = np.maximum(lo, 0)
        hi = np.minimum(hi, [image[0], image[1]])
        if np.any(hi - lo < 2):
            continue
        shape = (int(hi[1] - lo[1]), int(hi[0] - lo[0]))
        rad = (lambda t, r=radius: r * (0.82 + 0.18 * np.sqrt(np.clip(t * 1.3, 0, 1)))) if name == "thumb" else radius
        across, t, cover = _capsule(shape, start - lo, end - lo, rad)
        bulge = np.sqrt(np.clip(1 - across ** 2, 0, 1))
        shade = 0.55 + 0.45 * bulge * (1 - 0.25 * across)
        colour = skin * shade[..., None]
        edge = np.clip(1 - bulge, 0, 1) ** 2  # light through the skin's edge: redder, a little see-through
        colour = colour * (1 - 0.4 * edge[..., None]) + srgb((0.85, 0.35, 0.3)) * 0.5 * edge[..., None]
        alpha = cover * (1 - 0.35 * edge)
        shine = 0.04 * bulge ** 8
        colour *= (0.93 + 0.14 * noise(rng, shape, max(radius / 3, 2.0)))[..., None]
        if name == "thumb":
            length_px = float(np.linalg.norm(end - start))
            tip_t = 1 - radius * 0.55 / length_px
            nail_len = radius * 1.5 / length_px
            nail = np.clip(1 - ((t - tip_t) / nail_len) ** 2 - (across / 0.62) ** 2, 0, 1)
            nail = np.clip(nail * 6, 0, 1) * (t < tip_t + nail_len * 0.6)
            colour = colour * (1 - 0.5 * nail[..., None]) + srgb((0.97, 0.85, 0.82)) * shade[..., None] * 0.5 * nail[
                ..., None]
            crease = np.exp(-(((t - (tip_t - 2.6 * nail_len)) * length_px / (radius * 0.06)) ** 2))
            colour *= (1 - 0.25 * crease * (np.abs(across) < 0.8))[..., None]
            shine = shine + 0.06 * nail * bulge ** 4
        things.append(Thing(int(lo[0]), int(lo[1]), colour.astype(np.float32), alpha.astype(np.float32),
                            shine.astype(np.float32), name))
    return things[::-1]


def _normal(d: np.ndarray) -> np.ndarray:
    return np.array([-d[1], d[0]])


def pen(rng: np.random.Generator, centre: np.ndarray, angle: float, px_per_mm: float,
        image: tuple[int, int]) -> list[Thing]:
    """A ballpoint pen or a pencil lying with its middle at `centre` (pixels)."""
    pencil = rng.random() < 0.4
    length = rng.uniform(135, 175) * px_per_mm
    radius = (3.6 if pencil else rng.uniform(4, 5.5)) * px_per_mm
    d = np.array([math.cos(angle), math.sin(angle)])
    start, end = centre - d * length / 2, centre + d * length / 2
    lo = np.maximum(np.floor(np.minimum(start, end) - radius - 2).astype(int), 0)
    hi = np.minimum(np.ceil(np.maximum(start, end) + radius + 2).astype(int), [image[0], image[1]])
    if np.any(hi - lo < 2):
        return []
    shape = (int(hi[1] - lo[1]), int(hi[0] - lo[0]))
    cone = rng.uniform(0.08, 0.12)

    def profile(t: np.ndarray) -> np.ndarray:
        return radius * np.clip(t / cone, 0.12, 1.0)

    across, t, cover = _capsule(shape, start - lo, end - lo, profile)
    if pencil:
        body = srgb(_pick(rng, ((0.95, 0.75, 0.1), (0.2, 0.3, 0.7), (0.15, 0.5, 0.25))))
        facets = 0.75 + 0.25 * np.cos(np.round(across * 2) / 2 * np.pi / 2)
        colour = body * facets[..., None]
        wood = t < cone
        colour[wood] = srgb((0.85, 0.7, 0.5))
        colour[t < cone * 0.35] = srgb((0.15, 0.15, 0.16))
    else:
        body = srgb(_pick(rng, ((0.1, 0.2, 0.6), (0.05, 0.05, 0.05), (0.9, 0.5, 0.1), (0.85, 0.85, 0.85))))
        bulge = np.sqrt(np.clip(1 - across ** 2, 0, 1))
        colour = body * (0.5 + 0.5 * bulge)[..., None]
        colour[t < cone] = srgb((0.75, 0.75, 0.78)) * (0.4 + 0.6 * bulge[t < cone])[..., None]
        clip = (t > 0.72) & (t < 0.95) & (np.abs(across + 0.1) < 0.25)
        colour[clip] = srgb((0.8, 0.8, 0.82))
    shine = 0.25 * np.exp(-((across + 0.35) / 0.12) ** 2) * (t > cone)
    return [Thing(int(lo[0]), int(lo[1]), colour.astype(np.float32), cover.astype(np.float32),
                  shine.astype(np.float32), "pencil" if pencil else "pen")]


def coin(rng: np.random.Generator, centre: np.ndarray, px_per_mm: float, image: tuple[int, int]) -> list[Thing]:
    """A coin lying flat at `centre` (pixels)."""
    r = rng.uniform(9, 13) * px_per_mm
    metal = srgb(_pick(rng, ((0.85, 0.7, 0.35), (0.78, 0.78, 0.76), (0.72, 0.45, 0.3))))
    lo = np.maximum((centre - r - 2).astype(int), 0)
    hi = np.minimum((centre + r + 2).astype(int), [image[0], image[1]])
    if np.any(hi - lo < 2):
        return []
    yy, xx = np.mgrid[lo[1]:hi[1], lo[0]:hi[0]].astype(np.float32)
    dist = np.hypot(xx - centre[0], yy - centre[1]) / r
    cover = np.clip((1 - dist) * r + 0.5, 0, 1)
    emboss = noise(rng, dist.shape, max(r / 6, 1.0))
    rim = (dist > 0.86).astype(np.float32)
    shade = 0.6 + 0.3 * emboss + 0.15 * rim - 0.2 * (xx - centre[0]) / r * 0.5
    colour = metal * shade[..., None]
    shine = 0.15 * np.clip(emboss - 0.6, 0, 1) * 3
    return [Thing(int(lo[0]), int(lo[1]), colour.astype(np.float32), cover.astype(np.float32),
                  shine.astype(np.float32), "coin")]


def die(rng: np.random.Generator, centre: np.ndarray, px_per_mm: float, image: tuple[int, int]) -> list[Thing]:
    """A die (white or coloured) seen from above, with its pips."""
    side = rng.uniform(14, 17) * px_per_mm
    body, pip = _pick(rng, (((0.95, 0.95, 0.93), (0.05, 0.05, 0.05)), ((0.85, 0.1, 0.12), (0.95, 0.95, 0.95)),
                            ((0.95, 0.8, 0.1), (0.1, 0.1, 0.1)), ((0.1, 0.55, 0.25), (0.95, 0.95, 0.95)),
                            ((0.1, 0.25, 0.65), (0.95, 0.95, 0.95))))
    size = int(side * 1.6) + 4
    lo = (centre - size / 2).astype(int)
    if lo[0] < 0 or lo[1] < 0 or lo[0] + size > image[0] or lo[1] + size > image[1]:
        return []
    angle = rng.uniform(0, 90)
    mask = np.zeros((size * 4, size * 4), np.float32)
    box = cv2.boxPoints(((size * 2, size * 2), (side * 4, side * 4), angle)).astype(np.int32)
    cv2.fillConvexPoly(mask, box, 1.0)
    mask = soften(mask, side * 0.5)  # rounded edges
    cover = cv2.resize((mask > 0.5).astype(np.float32), (size, size), interpolation=cv2.INTER_AREA)
    edge = cv2.resize(np.clip((mask - 0.5) * 2, 0, 1), (size, size), interpolation=cv2.INTER_AREA)
    colour = srgb(body) * (0.55 + 0.45 * edge ** 0.5)[..., None] * np.ones((size, size, 1), np.float32)
    value = int(rng.integers(1, 7))
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
             5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)], 6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}
    turn = math.radians(-angle)
    for sx, sy in spots[value]:
        ox, oy = sx * side * 0.27, sy * side * 0.27
        px = size / 2 + ox * math.cos(turn) - oy * math.sin(turn)
        py = size / 2 + ox * math.sin(turn) + oy * math.cos(turn)
        cv2.circle(colour, (int(px * 16), int(py * 16)), int(side * 0.09 * 16), srgb(pip).tolist(), -1,
                   cv2.LINE_AA, 4)
    shine = (0.06 * edge ** 4).astype(np.float32)
    return [Thing(int(lo[0]), int(lo[1]), colour.astype(np.float32), cover.astype(np.float32), shine, "die")]
