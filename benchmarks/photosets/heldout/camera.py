"""The page as a bent sheet seen through a phone lens: a height field, a pinhole camera and Brown-Conrady distortion.

World coordinates are millimetres: X to the right of the page, Y down the
page, Z into the table (so heights above the table are negative Z). The page
is bent without stretching along its curl (arc length is kept); the lifted
middle, the fold and the ripples are small and only lift it. For every pixel
the page point it sees is found by undistorting the pixel to a ray and
solving for where the ray meets the page (Newton's method on a coarse grid,
interpolated to every pixel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Surface:
    """A `width` x `height` mm page lying on the table, bent: heights in mm above the table at page points."""

    width: float
    height: float
    curl_axis: int = 0
    curl: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    """(arc length, flat position, height) tables along the curled axis."""
    bump: tuple[float, float, float, float, float] | None = None
    fold: tuple[float, float, float, float, float] | None = None
    ripples: list[tuple[float, float, float, float]] = field(default_factory=list)

    def describe(self) -> str:
        parts = []
        if self.curl is not None:
            length = self.width if self.curl_axis == 0 else self.height
            edges = np.interp([-length / 2, length / 2], self.curl[0], self.curl[2])
            parts.append(f"curl {float(edges.max()):.0f} mm along {'xy'[self.curl_axis]}")
        if self.bump:
            parts.append(f"lifted middle {self.bump[0]:.0f} mm")
        if self.fold:
            parts.append(f"fold {self.fold[0]:.1f} mm")
        if self.ripples:
            parts.append("ripples")
        return ", ".join(parts) or "flat"

    def world(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The world point (X, Y, Z) of page point (u, v) (mm from the page's top left)."""
        x, y = u - self.width / 2, v - self.height / 2
        lift = np.zeros_like(x)
        if self.curl is not None:
            arc, flat, heights = self.curl
            along = x if self.curl_axis == 0 else y
            moved = np.interp(along, arc, flat)
            lift = lift + np.interp(along, arc, heights)
            if self.curl_axis == 0:
                x = moved
            else:
                y = moved
        if self.bump is not None:
            amp, bx, by, sx, sy = self.bump
            lift = lift + amp * np.exp(-0.5 * (((x - bx) / sx) ** 2 + ((y - by) / sy) ** 2))
        if self.fold is not None:
            amp, nx, ny, offset, spread = self.fold
            distance = np.abs(x * nx + y * ny - offset)
            lift = lift + amp * np.exp(-distance / spread)
        for amp, kx, ky, phase in self.ripples:
            lift = lift + amp * (1.0 + np.sin(kx * x + ky * y + phase))
        return x, y, -lift


def curl_tables(length: float, lift: float, kind: str, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Arc length, flat position and height along a page side of `length` mm curled by `lift` mm."""
    t = np.linspace(-length, length, 4001)
    half = length / 2
    if kind == "both":
        h = lift * (t / half) ** 2
    else:
        start = half * rng.uniform(-0.2, 0.5)
        power = 2.0 if kind == "one" else 3.0
        h = lift * np.clip((t - start) / (half - start), 0, None) ** power
        if rng.random() < 0.5:
            h = h[::-1]
    slope = np.gradient(h, t)
    arc = np.concatenate([[0.0], np.cumsum(np.sqrt(1 + slope[1:] ** 2) * np.diff(t))])
    arc -= np.interp(0.0, t, arc)
    return arc, t, h


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """The rotation by `angle` (radians) about unit vector `axis` (Rodrigues)."""
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k


@dataclass
class Camera:
    """A pinhole camera with Brown-Conrady distortion producing `size` (width, height) pixel images.

    The distortion's radius is counted in half-diagonals of the image (k1 = -0.1: the corners drawn 10 %
    nearer the centre), as lens profiles give it.
    """

    size: tuple[int, int]
    focal: float
    rotation: np.ndarray
    centre: np.ndarray
    k1: float = 0.0
    k2: float = 0.0
    p1: float = 0.0
    p2: float = 0.0

    @property
    def principal(self) -> tuple[float, float]:
        return (self.size[0] - 1) / 2, (self.size[1] - 1) / 2

    @property
    def half_diagonal(self) -> float:
        return math.hypot(*self.size) / 2 / self.focal

    def distort(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Undistorted normalised image coordinates to distorted ones."""
        scale = self.half_diagonal
        x, y = x / scale, y / scale
        r2 = x * x + y * y
        radial = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return ((x * radial + 2 * self.p1 * x * y + self.p2 * (r2 + 2 * x * x)) * scale,
                (y * radial + self.p1 * (r2 + 2 * y * y) + 2 * self.p2 * x * y) * scale)

    def undistort(self, xd: np.ndarray, yd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Distorted normalised image coordinates to undistorted ones (fixed-point iteration)."""
        scale = self.half_diagonal
        xd, yd = xd / scale, yd / scale
        x, y = xd.copy(), yd.copy()
        for _ in range(15):
            r2 = x * x + y * y
            radial = 1 + self.k1 * r2 + self.k2 * r2 * r2
            dx = 2 * self.p1 * x * y + self.p2 * (r2 + 2 * x * x)
            dy = self.p1 * (r2 + 2 * y * y) + 2 * self.p2 * x * y
            x, y = (xd - dx) / radial, (yd - dy) / radial
        return x * scale, y * scale

    def ideal(self, X: np.ndarray, Y: np.ndarray, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World points to undistorted normalised image coordinates."""
        r, c = self.rotation, self.centre
        dx, dy, dz = X - c[0], Y - c[1], Z - c[2]
        px = r[0, 0] * dx + r[0, 1] * dy + r[0, 2] * dz
        py = r[1, 0] * dx + r[1, 1] * dy + r[1, 2] * dz
        pz = r[2, 0] * dx + r[2, 1] * dy + r[2, 2] * dz
        return px / pz, py / pz

    def project(self, X: np.ndarray, Y: np.ndarray, Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World points to pixel coordinates."""
        x, y = self.distort(*self.ideal(X, Y, Z))
        cx, cy = self.principal
        return x * self.focal + cx, y * self.focal + cy

    def rays(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pixels to undistorted normalised image coordinates."""
        cx, cy = self.principal
        return self.undistort((px - cx) / self.focal, (py - cy) / self.focal)

    def on_table(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where the rays of normalised coordinates (x, y) meet the table (Z = 0)."""
        r = self.rotation
        dx = r[0, 0] * x + r[1, 0] * y + r[2, 0]
        dy = r[0, 1] * x + r[1, 1] * y + r[2, 1]
        dz = np.maximum(r[0, 2] * x + r[1, 2] * y + r[2, 2], 0.05)
        scale = -self.centre[2] / dz
        return self.centre[0] + dx * scale, self.centre[1] + dy * scale


def make_camera(size: tuple[int, int], fov_long: float, tilt: float, azimuth: float, roll: float,
                distance: float, target: tuple[float, float]) -> Camera:
    """A camera `distance` mm from `target` on the table, its axis `tilt` from the vertical (angles in degrees)."""
    focal = max(size) / 2 / math.tan(math.radians(fov_long) / 2)
    axis = np.array([math.cos(math.radians(azimuth)), math.sin(math.radians(azimuth)), 0.0])
    turn = rotation(np.array([0.0, 0.0, 1.0]), math.radians(roll)) @ rotation(axis, math.radians(tilt))
    looking = turn.T @ np.array([0.0, 0.0, 1.0])
    centre = np.array([target[0], target[1], 0.0]) - distance * looking
    return Camera(size, focal, turn, centre)


def frame_page(camera: Camera, surface: Surface, fill: float, rng: np.random.Generator,
               margin: float = 0.03) -> Camera:
    """Move `camera` (keeping its direction) so the page covers `fill` of the frame's area, or as much as fits,
    and lies wholly inside the frame."""
    edge = np.linspace(0, 1, 25)
    u = np.concatenate([edge * surface.width, np.full(25, surface.width), (1 - edge) * surface.width, np.zeros(25)])
    v = np.concatenate([np.zeros(25), edge * surface.height, np.full(25, surface.height), (1 - edge) * surface.height])
    points = surface.world(u, v)
    w, h = camera.size
    where = None
    for step in range(10):
        px, py = camera.project(*points)
        if step < 5:
            span = max((px.max() - px.min()) / w, (py.max() - py.min()) / h) / (1 - 2 * margin)
            area = abs(float(np.sum(px * np.roll(py, -1) - np.roll(px, -1) * py))) / 2 / (w * h)
            grow = min(math.sqrt(fill / max(area, 1e-9)), 1 / span)
            camera.centre = camera.centre + (1 / grow - 1) * (camera.centre - _looked_at(camera))
            continue
        bw, bh = px.max() - px.min(), py.max() - py.min()
        if where is None:
            room_x, room_y = max(w * (1 - 2 * margin) - bw, 0), max(h * (1 - 2 * margin) - bh, 0)
            where = (w * margin + bw / 2 + rng.uniform(0, room_x), h * margin + bh / 2 + rng.uniform(0, room_y))
        shift = np.array([where[0] - (px.max() + px.min()) / 2, where[1] - (py.max() + py.min()) / 2])
        depth = float((camera.rotation @ (np.array([0.0, 0.0, 0.0]) - camera.centre))[2])
        move = camera.rotation.T @ np.array([-shift[0] * depth / camera.focal, -shift[1] * depth / camera.focal, 0])
        camera.centre = camera.centre + move
    return camera


def _looked_at(camera: Camera) -> np.ndarray:
    looking = camera.rotation.T @ np.array([0.0, 0.0, 1.0])
    return camera.centre + looking * (-camera.centre[2] / looking[2])


@dataclass
class View:
    """For a coarse grid of pixels: the page point each sees (nan where it sees the table), the table point,
    the page's normal and world point there."""

    step: int
    u: np.ndarray
    v: np.ndarray
    table_x: np.ndarray
    table_y: np.ndarray
    normal: np.ndarray
    point: np.ndarray
    on_page: np.ndarray
    solved: np.ndarray

    def full(self, values: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """A coarse map interpolated to every pixel of a `size` image."""
        return cv2.resize(values.astype(np.float32), size, interpolation=cv2.INTER_LINEAR)


def look(camera: Camera, surface: Surface, step: int = 8) -> View:
    """Which page and table point every pixel sees (on a grid every `step` pixels, at the pixels' centres)."""
    w, h = camera.size
    gx = (np.arange(w // step) + 0.5) * step - 0.5
    gy = (np.arange(h // step) + 0.5) * step - 0.5
    px, py = np.meshgrid(gx, gy)
    xn, yn = camera.rays(px, py)
    tx, ty = camera.on_table(xn, yn)
    u, v = tx + surface.width / 2, ty + surface.height / 2
    eps = 0.25
    for _ in range(7):
        x0, y0 = camera.ideal(*surface.world(u, v))
        xu, yu = camera.ideal(*surface.world(u + eps, v))
        xv, yv = camera.ideal(*surface.world(u, v + eps))
        a, b = (xu - x0) / eps, (xv - x0) / eps
        c, d = (yu - y0) / eps, (yv - y0) / eps
        det = a * d - b * c
        det = np.where(np.abs(det) < 1e-12, 1e-12, det)
        rx, ry = xn - x0, yn - y0
        du = np.clip((d * rx - b * ry) / det, -40, 40)
        dv = np.clip((a * ry - c * rx) / det, -40, 40)
        u, v = u + du, v + dv
    x0, y0 = camera.ideal(*surface.world(u, v))
    residual = np.hypot(x0 - xn, y0 - yn) * camera.focal
    solved = residual < 0.5
    inside = (u >= -2) & (u <= surface.width + 2) & (v >= -2) & (v <= surface.height + 2) & solved
    point = np.stack(surface.world(u, v), axis=-1)
    du_vec = np.stack(surface.world(u + eps, v), axis=-1) - point
    dv_vec = np.stack(surface.world(u, v + eps), axis=-1) - point
    normal = np.cross(dv_vec, du_vec)  # pointing up, out of the table
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-9)
    return View(step, u, v, tx, ty, normal, point, inside, solved)
