"""The paper as a 3-D surface (flat, curled, lifted, folded) seen by a pinhole camera with lens distortion."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass
class Bend:
    """One shape of the paper: a curled edge or corner, a lifted middle, a soft fold, or gentle waves."""

    kind: str
    amount: float
    """Height (mm) it lifts the paper by."""
    params: dict[str, float] = field(default_factory=dict)

    def height(self, u: np.ndarray, v: np.ndarray, w: float, h: float) -> np.ndarray:
        p = self.params
        if self.kind == "wave":
            phase = (u * math.cos(p["angle"]) + v * math.sin(p["angle"])) * 2 * math.pi / p["length"] + p["phase"]
            return self.amount * 0.5 * (1 + np.sin(phase))
        if self.kind == "curl":
            edge = int(p["edge"])
            d = (u, w - u, v, h - v)[edge] if edge < 4 else np.hypot(
                *((u, v), (w - u, v), (w - u, h - v), (u, h - v))[edge - 4]) / math.sqrt(2)
            s = np.clip((p["length"] - d) / p["length"], 0, 1)
            return self.amount * s ** 2
        if self.kind == "arch":
            q = u / w if p["axis"] < 0.5 else v / h
            return self.amount * np.sin(math.pi * np.clip(q, 0, 1)) ** 1.5
        if self.kind == "bump":
            r2 = (u - p["x"] * w) ** 2 + (v - p["y"] * h) ** 2
            return self.amount * np.exp(-r2 / (2 * p["sigma"] ** 2))
        if self.kind == "fold":
            s = (u - p["x"] * w) * math.cos(p["angle"]) + (v - p["y"] * h) * math.sin(p["angle"])
            soft = np.sqrt(s * s + p["round"] ** 2) - p["round"]
            reach = p["reach"]
            if p["ridge"] > 0.5:
                return self.amount * np.clip(1 - soft / reach, 0, 1)
            return self.amount * np.clip(soft / reach, 0, 1.5)
        raise ValueError(self.kind)


@dataclass
class Surface:
    """The paper (w x h mm) as a height field over the table (mm, up)."""

    width: float
    height: float
    bends: list[Bend]

    def z(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Height above the table; outside the paper, that of its nearest edge (so rays stay continuous)."""
        u = np.clip(u, 0, self.width)
        v = np.clip(v, 0, self.height)
        total = np.zeros(np.broadcast(u, v).shape)
        for bend in self.bends:
            total = total + bend.height(u, v, self.width, self.height)
        return total

    def peak(self) -> float:
        return sum(b.amount * (1.5 if b.kind == "fold" else 1.0) for b in self.bends) + 0.5

    def normal(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """The surface's unit normal (x, y, up)."""
        e = 0.3
        du = (self.z(u + e, v) - self.z(u - e, v)) / (2 * e)
        dv = (self.z(u, v + e) - self.z(u, v - e)) / (2 * e)
        n = np.stack([-du, -dv, np.ones_like(du)], -1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)

    def describe(self) -> str:
        shapes = [f"{b.kind} {b.amount:.0f} mm" for b in self.bends if b.kind != "wave"]
        return ", ".join(shapes) or "flat"


@dataclass
class Camera:
    """A pinhole camera (world: x along the page, y down the page, z into the table) with radial distortion."""

    width: int
    height: int
    focal: float
    k1: float
    k2: float
    rotation: np.ndarray
    centre: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (..., 3) to pixels (..., 2)."""
        pc = (points - self.centre) @ self.rotation.T
        z = np.maximum(pc[..., 2], 1e-6)
        x, y = pc[..., 0] / z, pc[..., 1] / z
        r2 = x * x + y * y
        factor = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return np.stack([self.focal * x * factor + self.width / 2, self.focal * y * factor + self.height / 2], -1)

    def rays(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """Unit world directions of the rays through pixels."""
        xd, yd = (px - self.width / 2) / self.focal, (py - self.height / 2) / self.focal
        x, y = xd.copy(), yd.copy()
        for _ in range(12):
            r2 = x * x + y * y
            factor = 1 + self.k1 * r2 + self.k2 * r2 * r2
            x, y = xd / factor, yd / factor
        d = np.stack([x, y, np.ones_like(x)], -1) @ self.rotation
        return d / np.linalg.norm(d, axis=-1, keepdims=True)


def on_surface(surface: Surface, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Points of the paper in world coordinates."""
    return np.stack([u, v, -surface.z(u, v)], -1)


def _look(tilt: float, azimuth: float, roll: float) -> np.ndarray:
    z = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)])
    x = np.array([1.0, 0, 0]) - z[0] * z
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    xr = math.cos(roll) * x + math.sin(roll) * y
    yr = -math.sin(roll) * x + math.cos(roll) * y
    return np.stack([xr, yr, z])


def _turn_to(d: np.ndarray) -> np.ndarray:
    """The rotation taking the optical axis (0, 0, 1) to unit vector d."""
    axis = np.cross([0.0, 0, 1], d)
    s, c = np.linalg.norm(axis), d[2]
    if s < 1e-9:
        return np.eye(3)
    k = axis / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def outline(surface: Surface, n: int = 24) -> np.ndarray:
    """Points along the paper's edge (world)."""
    w, h = surface.width, surface.height
    t = np.linspace(0, 1, n)
    u = np.concatenate([t * w, np.full(n, w), (1 - t) * w, np.zeros(n)])
    v = np.concatenate([np.zeros(n), t * h, np.full(n, h), (1 - t) * h])
    inner_u, inner_v = np.meshgrid(np.linspace(0, w, 7), np.linspace(0, h, 7))
    u = np.concatenate([u, inner_u.ravel()])
    v = np.concatenate([v, inner_v.ravel()])
    return on_surface(surface, u, v)


def place_camera(surface: Surface, size: tuple[int, int], focal: float, k1: float, k2: float, tilt: float,
                 azimuth: float, roll: float, fill: float, rng: np.random.Generator) -> Camera:
    """A camera that sees the whole paper at this tilt and roll, filling `fill` of the frame (its larger
    extent), placed at a random spot of the frame."""
    width, height = size
    base = _look(tilt, azimuth, roll)
    target = np.array([surface.width / 2, surface.height / 2, -surface.peak() / 2])
    axis = base[2]
    edge = outline(surface)
    distance = 1000.0
    camera = Camera(width, height, focal, k1, k2, base, target - distance * axis)
    for _ in range(4):
        camera.centre = target - distance * axis
        p = camera.project(edge)
        extent = max(np.ptp(p[:, 0]) / width, np.ptp(p[:, 1]) / height)
        distance *= extent / fill
    camera.centre = target - distance * axis
    margin = 0.03 * min(width, height)
    shift = rng.uniform(-1, 1, 2)
    for attempt in range(30):
        p = camera.project(edge)
        slack_x = max(0.0, (width - np.ptp(p[:, 0])) / 2 - margin)
        slack_y = max(0.0, (height - np.ptp(p[:, 1])) / 2 - margin)
        want = np.array([width / 2 + shift[0] * slack_x * 0.85, height / 2 + shift[1] * slack_y * 0.85])
        middle = (p.min(0) + p.max(0)) / 2
        aim = np.array([(want[0] - middle[0]) / focal, (want[1] - middle[1]) / focal])
        turn = _turn_to(np.array([aim[0], aim[1], 1.0]) / math.hypot(aim[0], aim[1], 1.0))
        moved = Camera(width, height, focal, k1, k2, turn @ camera.rotation, camera.centre)
        q = moved.project(edge)
        if (q[:, 0].min() >= margin and q[:, 0].max() <= width - margin and q[:, 1].min() >= margin
                and q[:, 1].max() <= height - margin):
            return moved
        camera = moved if attempt < 3 else camera
        shift *= 0.7
        if attempt > 5:
            distance *= 1.04
            camera.centre = target - distance * camera.rotation[2]
    return camera


@dataclass
class Warp:
    """Per coarse pixel: where its ray meets the paper (mm, extended past the edges) and the table."""

    step: int
    shape: tuple[int, int]
    """The coarse grid's (rows, columns)."""
    paper_u: np.ndarray
    paper_v: np.ndarray
    table_u: np.ndarray
    table_v: np.ndarray
    normal: np.ndarray
    height_on_table: np.ndarray
    """Height of the paper above the table point a ray meets (0 outside the paper)."""

    def full(self, coarse: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """A coarse field at every pixel (bilinear)."""
        return cv2.resize(coarse.astype(np.float32), size, interpolation=cv2.INTER_LINEAR)


def cast(camera: Camera, surface: Surface, step: int = 8) -> Warp:
    """Cast a coarse grid of rays (laid out as cv2.resize samples them) onto the paper and the table."""
    w, h = camera.width, camera.height
    nx, ny = -(-w // step) + 1, -(-h // step) + 1
    xs = (np.arange(nx) + 0.5) * w / nx - 0.5
    ys = (np.arange(ny) + 0.5) * h / ny - 0.5
    px, py = np.meshgrid(xs, ys)
    d = camera.rays(px, py)
    c = camera.centre
    dz = np.maximum(d[..., 2], 1e-6)
    t_table = -c[2] / dz
    top = surface.peak() + 1.0
    t_top = (-top - c[2]) / dz

    def gap(t: np.ndarray) -> np.ndarray:
        u, v = c[0] + t * d[..., 0], c[1] + t * d[..., 1]
        return c[2] + t * d[..., 2] + surface.z(u, v)

    steps = 12 if surface.peak() > 3 else 2
    lo = t_top.copy()
    hi = t_table.copy()
    found = np.zeros(px.shape, bool)
    previous = t_top
    for k in range(1, steps + 1):
        t = t_top + (t_table - t_top) * k / steps
        g = gap(t)
        hit = (g >= 0) & ~found
        lo[hit], hi[hit] = previous[hit], t[hit]
        found |= hit
        previous = t
    for _ in range(14 if surface.peak() > 3 else 8):
        mid = (lo + hi) / 2
        below = gap(mid) >= 0
        hi = np.where(below, mid, hi)
        lo = np.where(below, lo, mid)
    t = (lo + hi) / 2
    u, v = c[0] + t * d[..., 0], c[1] + t * d[..., 1]
    tu, tv = c[0] + t_table * d[..., 0], c[1] + t_table * d[..., 1]
    inside = (tu >= 0) & (tu <= surface.width) & (tv >= 0) & (tv <= surface.height)
    under = np.where(inside, surface.z(tu, tv), 0.0)
    return Warp(step, px.shape, u, v, tu, tv, surface.normal(u, v), under)
