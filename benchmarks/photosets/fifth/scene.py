"""Tables (cork, marble, brushed metal, herringbone parquet, slate) and the things in the scene, in 3D."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .optics import Box, Capsule, Disc, rotation

TABLES = ("cork", "marble", "metal", "parquet", "slate")


def _noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    small = (max(2, int(shape[0] / cell) + 2), max(2, int(shape[1] / cell) + 2))
    return cv2.resize(rng.standard_normal(small).astype(np.float32), (shape[1], shape[0]),
                      interpolation=cv2.INTER_CUBIC)


def table(kind: str, shape: tuple[int, int], ppm: float, rng: np.random.Generator) -> np.ndarray:
    """A table's linear albedo (RGB float32), `ppm` pixels a millimetre."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / ppm
    if kind == "cork":
        base = np.array([0.32, 0.2, 0.1]) * rng.uniform(0.8, 1.2)
        granules = _noise(rng, shape, max(1.0, 1.5 * ppm)) + 0.6 * rng.standard_normal(shape).astype(np.float32)
        dark = (_noise(rng, shape, max(1.0, 0.8 * ppm)) > 1.4).astype(np.float32)
        value = (1 + 0.18 * granules) * (1 - 0.5 * dark)
        return (base[None, None] * value[..., None]).astype(np.float32)
    if kind == "marble":
        base = np.array([0.75, 0.74, 0.72]) * rng.uniform(0.85, 1.05)
        turb = sum(_noise(rng, shape, max(1.0, s * ppm)) / (i + 1) for i, s in enumerate((160, 70, 25)))
        angle = rng.uniform(0, np.pi)
        phase = (xx * math.cos(angle) + yy * math.sin(angle)) / rng.uniform(40, 90) + 1.6 * turb
        vein = np.exp(-(np.sin(phase) / 0.08) ** 2) * (0.5 + 0.5 * _noise(rng, shape, max(1.0, 50 * ppm)).clip(-1, 1))
        value = (1 - 0.35 * vein.clip(0, 1)) * (1 + 0.04 * _noise(rng, shape, max(1.0, 30 * ppm)))
        tint = np.array([0.9, 0.9, 1.0]) if rng.random() < 0.5 else np.array([1.0, 0.95, 0.88])
        return (base[None, None] * tint * value[..., None]).astype(np.float32)
    if kind == "metal":
        base = np.array([0.42, 0.43, 0.45]) * rng.uniform(0.7, 1.2)
        streak = cv2.resize(rng.standard_normal((h, max(2, w // 40))).astype(np.float32), (w, h),
                            interpolation=cv2.INTER_LINEAR)
        value = 1 + 0.06 * streak + 0.05 * _noise(rng, shape, max(1.0, 60 * ppm))
        out = base[None, None] * value[..., None]
        if rng.random() < 0.5:
            out = cv2.rotate(out.astype(np.float32), cv2.ROTATE_90_CLOCKWISE)
            out = cv2.resize(out, (w, h))
        return out.astype(np.float32)
    if kind == "parquet":
        plank_w, plank_l = rng.uniform(50, 80), rng.uniform(200, 320)
        u, v = (xx + yy), (xx - yy)  # herringbone: planks at +-45 degrees
        cell_u = np.floor(u / (plank_w * math.sqrt(2) * 2))
        along = np.where(((np.floor(v / (plank_l / 2)) + cell_u) % 2) == 0, u, v)
        across = np.where(((np.floor(v / (plank_l / 2)) + cell_u) % 2) == 0, v, u)
        plank = np.floor(across / plank_w) + 7 * np.floor(along / plank_l)
        shade = 0.8 + 0.4 * ((np.sin(plank * 12.9898) * 43758.5453) % 1)
        grain = np.sin(across * rng.uniform(0.6, 1.2) + 2 * _noise(rng, shape, max(1.0, 20 * ppm)))
        seam = (np.abs((across / plank_w) % 1 - 0.5) > 0.48) | (np.abs((along / plank_l) % 1 - 0.5) > 0.495)
        base = np.array([0.45, 0.25, 0.11]) * rng.uniform(0.6, 1.3)
        value = shade * (1 + 0.1 * grain) * np.where(seam, 0.4, 1)
        return (base[None, None] * value[..., None]).astype(np.float32)
    base = np.array([0.06, 0.065, 0.07]) * rng.uniform(0.8, 1.6)  # slate
    value = 1 + 0.25 * _noise(rng, shape, max(1.0, 40 * ppm)) + 0.15 * _noise(rng, shape, max(1.0, 3 * ppm))
    dust = np.clip(_noise(rng, shape, max(1.0, 15 * ppm)) - 1, 0, 1) * 2
    return (base[None, None] * value[..., None] + 0.05 * dust[..., None]).astype(np.float32)


SKIN = [(0.55, 0.33, 0.24), (0.42, 0.24, 0.16), (0.25, 0.14, 0.09), (0.62, 0.42, 0.32), (0.13, 0.07, 0.05)]


def hand(tip: np.ndarray, direction: float, rng: np.random.Generator, fingers: int, lift: float) -> list:
    """A hand as capsules: `fingers` fingers lying towards `tip` (mm, on the paper) from `direction`, the
    palm behind them and the forearm rising away from the page."""
    skin = SKIN[int(rng.integers(len(SKIN)))]
    skin = tuple(c * rng.uniform(0.9, 1.1) for c in skin)
    back = np.array([math.cos(direction), math.sin(direction), 0.0])
    side = np.array([-back[1], back[0], 0.0])
    parts = []
    r = rng.uniform(7, 9)
    length = rng.uniform(50, 70)
    for i in range(fingers):
        offset = (i - (fingers - 1) / 2) * r * 2.05
        a = tip + side * offset + back * (abs(offset) * 0.6 + rng.uniform(0, 6)) + np.array([0, 0, -r - lift])
        b = a + back * length * rng.uniform(0.9, 1.05) + np.array([0, 0, -rng.uniform(3, 10)])
        parts.append(Capsule(a, b, r, skin))
    knuckles = tip + back * (length + 25) + np.array([0, 0, -24.0 - lift])
    width = max(fingers * r * 1.1, 18)
    parts.append(Capsule(knuckles - side * width, knuckles + side * width, 22, skin))
    wrist = knuckles + back * 70 + np.array([0, 0, -25.0])
    parts.append(Capsule(knuckles, wrist, 26, skin))
    sleeve = tuple(c * 0.8 for c in skin) if rng.random() < 0.5 else tuple(rng.uniform(0.05, 0.5, 3))
    parts.append(Capsule(wrist, wrist + back * 260 + np.array([0, 0, -rng.uniform(40, 120)]), 32, sleeve))
    return parts


def hovering(centre: np.ndarray, direction: float, rng: np.random.Generator) -> list:
    """A hand and forearm held above the table (for a shadow; never in the picture)."""
    back = np.array([math.cos(direction), math.sin(direction), 0.0])
    return [Capsule(centre, centre + back * 90, 35, (0.4, 0.3, 0.25)),
            Capsule(centre + back * 90, centre + back * 380 + np.array([0, 0, -80.0]), 38, (0.3, 0.3, 0.3))]


def pen(tip: np.ndarray, direction: float, rng: np.random.Generator) -> list:
    """A pen lying on the page: a body and a metal tip (capsules)."""
    back = np.array([math.cos(direction), math.sin(direction), 0.0])
    r = rng.uniform(4, 6)
    body = tuple(rng.uniform(0.03, 0.7, 3))
    a = tip + np.array([0, 0, -r])
    b = a + back * rng.uniform(120, 150)
    return [Capsule(a + back * 12, b, r, body, 0.5), Capsule(a, a + back * 12, r * 0.5, (0.6, 0.6, 0.62), 1.0)]


def die(centre: np.ndarray, rng: np.random.Generator) -> Box:
    side = rng.uniform(12, 17)
    colour = tuple(rng.choice([(0.8, 0.8, 0.78), (0.6, 0.05, 0.05), (0.05, 0.05, 0.05), (0.9, 0.7, 0.05),
                               (0.05, 0.3, 0.05), (0.05, 0.1, 0.5)]))
    return Box(centre + np.array([0, 0, -side / 2]), np.array([side / 2] * 3),
               rotation(np.array([0, 0, 1.0]), rng.uniform(0, np.pi)), colour)  # type: ignore[arg-type]


def coin(centre: np.ndarray, rng: np.random.Generator) -> Disc:
    colour = (0.55, 0.4, 0.15) if rng.random() < 0.5 else (0.5, 0.5, 0.5)
    return Disc(centre + np.array([0, 0, -2.0]), rng.uniform(9, 13), colour)


def phone_and_hand(camera_pos: np.ndarray, cam_rot: np.ndarray, rng: np.random.Generator) -> list:
    """The phone taking the picture (a box round the camera) and the hand holding it."""
    right, down, forward = cam_rot[:, 0], cam_rot[:, 1], cam_rot[:, 2]
    centre = camera_pos + right * rng.uniform(-40, 40) + down * rng.uniform(-20, 20)
    box = Box(centre, np.array([75, 36, 4.0]) if rng.random() < 0.5 else np.array([36, 75, 4.0]), cam_rot,
              (0.05, 0.05, 0.06))
    grip = centre + down * 60 + forward * -10
    return [box, Capsule(grip, grip + down * 200 - forward * 150, 38, (0.4, 0.25, 0.2))]
