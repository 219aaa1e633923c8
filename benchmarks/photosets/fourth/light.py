"""Light: surface points, normals and the camera's position in, the light they receive (and the glare they send back) out.

Room light is a low-order spherical-harmonic environment (a constant, a
linear term towards the brighter side of the room and a quadratic term for
light from above versus the walls) with a slow gradient across the table,
plus one lamp (a point light with inverse-square fall-off and Lambert's
cosine) whose Blinn-Phong highlight is the glare on the paper. Cast shadows
come from a polygon occluder (a phone, a hand with its arm, a cup's round
foot) rasterised in table coordinates; the shadow's edge is a penumbra that
widens with the occluder's height over the table (a distance field, not a
blur).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

WHITES = {  # the light's colour (linear RGB), before the phone's white balance
    "daylight": (1.0, 1.0, 1.0),
    "overcast": (0.9, 0.97, 1.08),
    "warm LED": (1.0, 0.88, 0.72),
    "tungsten": (1.0, 0.74, 0.45),
    "fluorescent": (0.93, 1.0, 0.9),
    "shade": (0.82, 0.93, 1.12),
}


@dataclass
class Room:
    """The room's light: environment coefficients, a lamp and its colour, a shadow."""

    white: str = "daylight"
    ambient: float = 0.75
    side: tuple[float, float, float] = (0.0, 0.0, 0.0)
    above: float = 0.05
    gradient: tuple[float, float] = (0.0, 0.0)
    lamp: tuple[float, float, float] = (200.0, 300.0, 900.0)
    lamp_power: float = 0.35
    gloss: float = 0.0
    shine: float = 40.0
    bounce: tuple[float, float, float] = (1.0, 1.0, 1.0)
    shadows: list[Shadow] = field(default_factory=list)

    def colour(self) -> np.ndarray:
        return np.array(WHITES[self.white], np.float32)


@dataclass
class Shadow:
    """A polygon (table mm, y down) held `height` mm over the table; `depth` how much light it takes away."""

    polygon: np.ndarray
    height: float
    depth: float
    kind: str


def irradiance(room: Room, points: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Light (scalar) falling on world points (..., 3) with unit normals (..., 3)."""
    n = normals
    env = (room.ambient + n[..., 0] * room.side[0] + n[..., 1] * room.side[1] + n[..., 2] * room.side[2]
           + room.above * (3 * n[..., 2] ** 2 - 1))
    env = env * (1 + room.gradient[0] * points[..., 0] / 300 + room.gradient[1] * points[..., 1] / 300)
    to_lamp = np.asarray(room.lamp) - points
    d = np.linalg.norm(to_lamp, axis=-1)
    cosine = np.maximum((to_lamp * n).sum(-1) / d, 0)
    reference = room.lamp[2]
    lamp = room.lamp_power * cosine * (reference / d) ** 2
    return np.maximum(env + lamp, 0.02).astype(np.float32)


def irradiance_table(room: Room, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Light falling on the table at (x, y mm, y down): `irradiance` for a flat, upward-facing surface."""
    env = (room.ambient + room.side[2] + 2 * room.above) * (1 + room.gradient[0] * x / 300
                                                             - room.gradient[1] * y / 300)
    dx, dy, dz = room.lamp[0] - x, room.lamp[1] + y, room.lamp[2]
    d2 = dx * dx + dy * dy + dz * dz
    lamp = room.lamp_power * dz / np.sqrt(d2) * (dz * dz / d2)
    return np.maximum(env + lamp, 0.02).astype(np.float32)


def glare(room: Room, points: np.ndarray, normals: np.ndarray, eye: np.ndarray) -> np.ndarray:
    """The lamp's highlight off the paper towards the camera."""
    if room.gloss <= 0:
        return np.zeros(points.shape[:-1], np.float32)
    to_lamp = np.asarray(room.lamp) - points
    to_lamp /= np.linalg.norm(to_lamp, axis=-1, keepdims=True)
    to_eye = eye - points
    to_eye /= np.linalg.norm(to_eye, axis=-1, keepdims=True)
    half = to_lamp + to_eye
    half /= np.linalg.norm(half, axis=-1, keepdims=True)
    return (room.gloss * np.maximum((half * normals).sum(-1), 0) ** room.shine).astype(np.float32)


def shadow_factor(room: Room, x: np.ndarray, y: np.ndarray, reach: float = 450.0) -> np.ndarray:
    """How much light reaches table points (x, y mm, y down) after every cast shadow (1: all of it)."""
    factor = np.ones(x.shape, np.float32)
    ppm = 3.0
    for shadow in room.shadows:
        widest = shadow.height * 0.025 * 1.8 + 2.0
        low = np.maximum(shadow.polygon.min(axis=0) - widest, -reach)
        high = np.minimum(shadow.polygon.max(axis=0) + widest, reach)
        if (high <= low).any():
            continue
        size = np.ceil((high - low) * ppm).astype(int) + 1
        mask = np.zeros((size[1], size[0]), np.uint8)
        pts = np.round((shadow.polygon - low) * ppm * 16).astype(np.int32)
        cv2.fillPoly(mask, [pts], 255, lineType=cv2.LINE_8, shift=4)
        inside = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        outside = cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        signed = (inside - outside) / ppm  # mm, positive inside
        # the penumbra widens along the polygon's main axis (the occluder rises away from the table)
        centre = shadow.polygon.mean(axis=0)
        axis = shadow.polygon[np.argmax(np.linalg.norm(shadow.polygon - centre, axis=1))] - centre
        axis /= np.linalg.norm(axis) + 1e-9
        gy, gx = np.mgrid[0:size[1], 0:size[0]].astype(np.float32) / ppm
        along = (gx + low[0] - centre[0]) * axis[0] + (gy + low[1] - centre[1]) * axis[1]
        span = max(float(np.abs((shadow.polygon - centre) @ axis).max()), 1.0)
        penumbra = np.maximum(1.5, shadow.height * 0.025 * (1 + 0.8 * along / span))
        t = np.clip(0.5 + signed / (2 * penumbra), 0, 1)
        amount = (t * t * (3 - 2 * t) * shadow.depth).astype(np.float32)
        sampled = cv2.remap(amount, ((x - low[0]) * ppm).astype(np.float32), ((y - low[1]) * ppm).astype(np.float32),
                            cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        factor *= 1 - sampled
    return factor


def phone_shadow(rng: np.random.Generator, near: tuple[float, float]) -> Shadow:
    """The phone's (and its holding hand's) shadow: a rounded slab near `near` (mm)."""
    w, h = rng.uniform(70, 80), rng.uniform(145, 165)
    angle = rng.uniform(0, math.pi)
    corners = []
    for cx, cy, a0 in ((w / 2 - 8, h / 2 - 8, 0), (-w / 2 + 8, h / 2 - 8, 90), (-w / 2 + 8, -h / 2 + 8, 180),
                       (w / 2 - 8, -h / 2 + 8, 270)):
        for a in range(a0, a0 + 91, 15):
            corners.append((cx + 8 * math.cos(math.radians(a)), cy + 8 * math.sin(math.radians(a))))
    pts = np.array(corners)
    c, s = math.cos(angle), math.sin(angle)
    pts = pts @ np.array([[c, s], [-s, c]]) + np.array(near)
    return Shadow(pts, rng.uniform(150, 350), rng.uniform(0.35, 0.7), "phone")


def hand_shadow(rng: np.random.Generator, near: tuple[float, float]) -> Shadow:
    """A hand and forearm's shadow reaching in towards `near`."""
    angle = rng.uniform(0, 2 * math.pi)
    direction = np.array([math.cos(angle), math.sin(angle)])
    normal = np.array([-direction[1], direction[0]])
    tip = np.array(near)
    pts = [tip + normal * 12, tip + direction * 70 + normal * 45, tip + direction * 400 + normal * 45,
           tip + direction * 400 - normal * 40, tip + direction * 80 - normal * 42, tip - normal * 15,
           tip - direction * 10]
    return Shadow(np.array(pts), rng.uniform(80, 250), rng.uniform(0.3, 0.6), "hand")


def cup_shadow(rng: np.random.Generator, near: tuple[float, float]) -> Shadow:
    """A mug's long shadow from a low lamp."""
    angle = rng.uniform(0, 2 * math.pi)
    r = rng.uniform(38, 48)
    length = rng.uniform(80, 200)
    d = np.array([math.cos(angle), math.sin(angle)])
    n = np.array([-d[1], d[0]])
    base = np.array(near)
    pts = [base + r * (math.cos(t) * d + math.sin(t) * n) for t in np.linspace(math.pi / 2, 3 * math.pi / 2, 10)]
    pts += [base + length * d + r * (math.cos(t) * d + math.sin(t) * n)
            for t in np.linspace(-math.pi / 2, math.pi / 2, 10)]
    return Shadow(np.array(pts), rng.uniform(60, 120), rng.uniform(0.3, 0.55), "cup")
