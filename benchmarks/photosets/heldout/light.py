"""Light: a lamp and the room's diffuse light on the bent page and the table, a window's gradient, colour casts,
hard-edged shadows (a phone's, a hand's) and glare."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .camera import Camera, View

CASTS = {  # the illuminant's colour, linear RGB relative to green
    "daylight": (1.0, 1.0, 1.0),
    "tungsten": (1.0, 0.74, 0.42),
    "warm LED": (1.0, 0.85, 0.65),
    "shade": (0.8, 0.93, 1.12),
    "fluorescent green": (0.86, 1.0, 0.8),
}


@dataclass
class Light:
    """How the scene is lit."""

    lamp: np.ndarray
    ambient: float
    cast: str = "daylight"
    gloss: float = 0.02
    shininess: float = 30.0
    window: tuple[float, float, str] | None = None
    """Strength (share of the light), direction (radians, in the image) and colour of light from a window."""
    shadows: list[tuple[str, float, float]] = field(default_factory=list)
    """Hard shadows: whose ("phone", "hand"), light left there (0..1), penumbra (pixels)."""

    def describe(self) -> str:
        parts = [f"{self.cast} light", f"ambient {self.ambient:.0%}"]
        if self.gloss > 0.1:
            parts.append(f"glare {self.gloss:.1f}")
        if self.window:
            parts.append(f"window {self.window[0]:.0%} {self.window[2]}")
        parts += [f"{kind}'s hard shadow {left:.0%} left" for kind, left, _ in self.shadows]
        return ", ".join(parts)


def glare_lamp(camera: Camera, at: np.ndarray, distance: float) -> np.ndarray:
    """Where a lamp must hang for its mirror image in the (flat) page to be seen at page point `at`."""
    view = camera.centre - at
    view /= np.linalg.norm(view)
    return at + np.array([-view[0], -view[1], view[2]]) * distance


def irradiance(view: View, light: Light, camera: Camera) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Light falling on the page and on the table (RGB), and the page's glare, on the view's coarse grid."""
    cast = np.array(CASTS[light.cast], np.float32)

    def lamp_on(points: np.ndarray, normals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        to_lamp = light.lamp - points
        distance = np.linalg.norm(to_lamp, axis=-1)
        to_lamp = to_lamp / distance[..., None]
        reference = np.linalg.norm(light.lamp - np.array([0.0, 0.0, 0.0]))
        direct = np.clip(np.sum(normals * to_lamp, axis=-1), 0, None) * (reference / distance) ** 2
        return direct, to_lamp

    page_direct, to_lamp = lamp_on(view.point, view.normal)
    up = np.zeros_like(view.point)
    up[..., 2] = -1.0
    table_points = np.stack([view.table_x, view.table_y, np.zeros_like(view.table_x)], axis=-1)
    table_direct, _ = lamp_on(table_points, up)
    flat = np.clip(-light.lamp[2] / np.linalg.norm(light.lamp), 0.2, 1.0)
    page = light.ambient + (1 - light.ambient) * page_direct / flat
    table = light.ambient + (1 - light.ambient) * table_direct / flat
    to_camera = camera.centre - view.point
    to_camera /= np.linalg.norm(to_camera, axis=-1, keepdims=True)
    half = to_lamp + to_camera
    half /= np.linalg.norm(half, axis=-1, keepdims=True)
    glare = light.gloss * np.clip(np.sum(view.normal * half, axis=-1), 0, None) ** light.shininess
    page_rgb = page[..., None] * cast
    table_rgb = table[..., None] * cast
    if light.window:
        strength, angle, colour = light.window
        h, w = page.shape
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        along = ((xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle)) + 0.5
        ramp = np.clip(along, 0, 1) ** 2
        extra = strength * 2.2 * ramp[..., None] * np.array(CASTS[colour], np.float32)
        page_rgb = page_rgb * (1 - strength) + extra
        table_rgb = table_rgb * (1 - strength) + extra
    return page_rgb.astype(np.float32), table_rgb.astype(np.float32), glare.astype(np.float32)


def shadow_map(light: Light, size: tuple[int, int], page_box: tuple[float, float, float, float], px_per_mm: float,
               rng: np.random.Generator) -> np.ndarray | None:
    """How much light the hard shadows leave at every pixel (None without shadows)."""
    if not light.shadows:
        return None
    w, h = size
    factor = np.ones((h // 2, w // 2), np.float32)
    for kind, left, penumbra in light.shadows:
        caster = phone_shadow if kind == "phone" else hand_shadow
        polygon = caster(rng, page_box, px_per_mm, size) / 2
        mask = np.zeros((h // 2, w // 2), np.float32)
        cv2.fillPoly(mask, [np.round(polygon * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        if penumbra > 0.5:
            mask = cv2.GaussianBlur(mask, (0, 0), penumbra / 2)
        factor *= 1 - (1 - left) * mask
    return cv2.resize(factor, (w, h), interpolation=cv2.INTER_LINEAR)


def phone_shadow(rng: np.random.Generator, page_box: tuple[float, float, float, float], px_per_mm: float,
                 size: tuple[int, int]) -> np.ndarray:
    """The shadow of a phone held over the page: a rounded rectangle reaching in from one side (pixels)."""
    x0, y0, x1, y1 = page_box
    w, h = rng.uniform(70, 80) * px_per_mm * rng.uniform(1, 1.6), rng.uniform(145, 165) * px_per_mm
    angle = rng.uniform(0, 2 * np.pi)
    d = np.array([np.cos(angle), np.sin(angle)])
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2]) + d * rng.uniform(0.3, 0.7) * max(x1 - x0, y1 - y0)
    corners = cv2.boxPoints(((float(centre[0]), float(centre[1])), (float(w), float(h)), float(rng.uniform(0, 180))))
    return _rounded(corners, 8 * px_per_mm)


def hand_shadow(rng: np.random.Generator, page_box: tuple[float, float, float, float], px_per_mm: float,
                size: tuple[int, int]) -> np.ndarray:
    """The shadow of a hand and arm reaching over the page from the frame's edge (pixels)."""
    x0, y0, x1, y1 = page_box
    target = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
    angle = rng.uniform(0, 2 * np.pi)
    d = np.array([np.cos(angle), np.sin(angle)])
    n = np.array([-d[1], d[0]])
    palm = rng.uniform(75, 100) * px_per_mm
    arm = rng.uniform(60, 80) * px_per_mm
    far = target - d * 3 * max(size)
    points = [far + n * arm / 2, target - d * palm * 0.3 + n * palm / 2]
    for k in range(4):  # fingers
        base = target + n * palm * (0.35 - 0.23 * k)
        reach = palm * rng.uniform(0.5, 0.9)
        width = palm * 0.09
        points += [base + n * width, base + d * reach + n * width, base + d * (reach + width), base + d * reach - n * width,
                   base - n * width]
    points += [target - d * palm * 0.3 - n * palm / 2, far - n * arm / 2]
    return np.array(points, np.float32)


def _rounded(corners: np.ndarray, radius: float) -> np.ndarray:
    points = []
    for i in range(4):
        p, prev, nxt = corners[i], corners[i - 1], corners[(i + 1) % 4]
        a = p + (prev - p) / np.linalg.norm(prev - p) * radius
        b = p + (nxt - p) / np.linalg.norm(nxt - p) * radius
        for t in np.linspace(0, 1, 6):
            points.append((1 - t) ** 2 * a + 2 * (1 - t) * t * p + t ** 2 * b)
    return np.array(points, np.float32)
