"""Camera: a bent page and a posed phone camera in, per-pixel page and table coordinates (division-model lens) out."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

STEP = 8
"""The rays are cast on a grid this many pixels apart and interpolated between."""


@dataclass
class Shot:
    """Where a photo's pixels look: page mm (u, v; NaN off the page), table mm, the page's tilt of the normal
    towards the light (for shading), and the page's scale in pixels per mm at its middle."""

    page_u: np.ndarray
    page_v: np.ndarray
    table_u: np.ndarray
    table_v: np.ndarray
    slope_x: np.ndarray
    slope_y: np.ndarray
    pxmm: float
    size: tuple[int, int]


def bend(size_mm: tuple[float, float], rng: np.random.Generator, amount: float, curl: float) -> np.ndarray:
    """The page's height field (mm, 1 px/mm): a cloth-like random surface on a coarse mesh plus, for `curl`,
    an edge or corner rolling up."""
    w, h = int(size_mm[0]) + 2, int(size_mm[1]) + 2
    cells = rng.integers(3, 7)
    coarse = rng.standard_normal((cells, cells + 1)).astype(np.float32) * amount
    coarse -= coarse.min()
    height = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    height -= height.min()
    if curl > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        side = rng.integers(4)
        d = [xx, w - xx, yy, h - yy][side] / (w if side < 2 else h)
        if rng.random() < 0.4:  # a corner
            d = np.minimum(d, [yy / h, (h - yy) / h][rng.integers(2)] + 0.1) * 0.5 + d * 0.5
        reach = rng.uniform(0.15, 0.4)
        height += curl * np.clip((reach - d) / reach, 0, 1) ** 2
    return height


def _frame(aim: np.ndarray, centre: np.ndarray, roll: float) -> np.ndarray:
    """World-to-camera rotation rows (right, down, forward) looking from `centre` at `aim`, turned by `roll`."""
    forward = (aim - centre) / np.linalg.norm(aim - centre)
    right = np.cross(forward, np.array([np.cos(roll), np.sin(roll), 0.0]))
    if np.linalg.norm(right) < 1e-6:
        right = np.cross(forward, [0.0, 1.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    return np.stack([-right, down, forward])  # the page's (u, v, up) axes are left-handed: -right un-mirrors


def pose(width: int, height: int, size_mm: tuple[float, float], tilt: float, fill: float,
         rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, float]:
    """A camera centre (mm), rotation (world to camera) and focal length (px): a 26 mm equivalent lens
    looking at the page from `tilt` degrees off its normal, turned any way, framed so that the page spans
    about `fill` of the frame, a little off centre."""
    focal = 26.0 / 36.0 * max(width, height)
    tilt_r = np.deg2rad(tilt)
    azimuth = rng.uniform(0, 2 * np.pi)
    roll = rng.uniform(0, 2 * np.pi)
    direction = np.array([np.sin(tilt_r) * np.cos(azimuth), np.sin(tilt_r) * np.sin(azimuth), np.cos(tilt_r)])
    distance = focal * float(np.hypot(*size_mm)) / (fill * float(np.hypot(width, height)))
    aim = np.zeros(3)
    off_centre = rng.normal(0, 0.03, 2) * (width, height)
    w, h = size_mm[0] / 2, size_mm[1] / 2
    corners = np.array([(-w, -h, 0.0), (w, -h, 0.0), (w, h, 0.0), (-w, h, 0.0)])
    for _ in range(5):
        centre = aim + distance * direction
        rotation = _frame(aim, centre, roll)
        seen = (corners - centre) @ rotation.T
        xy = focal * seen[:, :2] / seen[:, 2:]
        low, high = xy.min(axis=0), xy.max(axis=0)
        extent = max((high[0] - low[0]) / width, (high[1] - low[1]) / height)
        shift = (low + high) / 2 - off_centre
        aim = aim + (shift[0] * rotation[0] + shift[1] * rotation[1]) * (distance / focal)
        aim[2] = 0.0
        distance *= extent / fill
    centre = aim + distance * direction
    return centre, _frame(aim, centre, roll), focal


def _sample(field: np.ndarray, u: np.ndarray, v: np.ndarray, size_mm: tuple[float, float]) -> np.ndarray:
    x = (u + size_mm[0] / 2 + 1).astype(np.float32)
    y = (v + size_mm[1] / 2 + 1).astype(np.float32)
    return cv2.remap(field, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def shoot(size_mm: tuple[float, float], heights: np.ndarray, width: int, height: int, tilt: float, fill: float,
          distortion: float, rng: np.random.Generator) -> Shot:
    """Cast every pixel's ray (through a division-model lens, x_u = x_d / (1 + k r_d^2)) onto the bent page and
    the table under it."""
    centre, rotation, focal = pose(width, height, size_mm, tilt, fill, rng)
    gx = np.arange(0, width + STEP, STEP, dtype=np.float64)
    gy = np.arange(0, height + STEP, STEP, dtype=np.float64)
    xd, yd = np.meshgrid(gx - width / 2, gy - height / 2)
    norm = np.hypot(width, height) / 2
    r2 = (xd ** 2 + yd ** 2) / norm ** 2
    xu, yu = xd / (1 + distortion * r2), yd / (1 + distortion * r2)
    rays = np.stack([xu / focal, yu / focal, np.ones_like(xu)], axis=-1) @ rotation  # camera to world
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(rays[..., 2] < -1e-6, -centre[2] / rays[..., 2], 1e7)
    tu, tv = centre[0] + t * rays[..., 0], centre[1] + t * rays[..., 1]
    pu, pv = tu.copy(), tv.copy()
    for _ in range(4):  # walk up the ray to the page's height there
        z = _sample(heights, pu, pv, size_mm).astype(np.float64)
        t = np.where(rays[..., 2] < -1e-6, (z - centre[2]) / rays[..., 2], 1e7)
        pu, pv = centre[0] + t * rays[..., 0], centre[1] + t * rays[..., 1]
    gy_, gx_ = np.gradient(heights)
    sx, sy = _sample(gx_, pu, pv, size_mm), _sample(gy_, pu, pv, size_mm)

    def up(a: np.ndarray) -> np.ndarray:
        big = cv2.resize(np.clip(a, -1e5, 1e5).astype(np.float32), (len(gx) * STEP, len(gy) * STEP),
                         interpolation=cv2.INTER_LINEAR)
        shift = STEP / 2 - 0.5
        matrix = np.float32([[1, 0, shift], [0, 1, shift]])
        return cv2.warpAffine(big, matrix, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)

    middle = (len(gy) // 2, len(gx) // 2)
    pxmm = STEP / max(1e-6, float(np.hypot(pu[middle[0], middle[1] + 1] - pu[middle], pv[middle[0], middle[1] + 1]
                                           - pv[middle])))
    return Shot(up(pu), up(pv), up(tu), up(tv), up(sx), up(sy), pxmm, (width, height))
