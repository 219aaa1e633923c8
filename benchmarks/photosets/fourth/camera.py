"""Camera: the page's size, a bend, a pose and a lens in, per photo pixel the page point (mm) or table point it sees out.

The paper is bent as a developable surface: flat, an edge or corner rolled
onto a cylinder (arc length kept), a cone-shaped corner lift, both ends
rolled up, or a hump. A pinhole at a pose (tilt from the page's normal,
azimuth, roll) looks at it through a lens whose image radius is a polynomial
in the ray's angle (between rectilinear f tan θ and equidistant f θ, with a
θ² term), projected forwards. The photo is made by a forward triangle-mesh
warp: the mesh's vertices are projected into the photo, each triangle is
rasterised (nearer ones over farther ones) into a triangle-id image, and the
affine map of its triangle carries every pixel back to page or table
coordinates for `cv2.remap`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class Bend:
    """How the paper lies: kind (flat, curl, cone, rolled, hump), the axis pointing to the lifted part (unit,
    page coords), where the bend starts (mm from the page's middle along the axis) and its radius (mm)."""

    kind: str = "flat"
    axis: tuple[float, float] = (1.0, 0.0)
    start: float = 60.0
    radius: float = 80.0
    taper: float = 0.0

    def lift(self, u: np.ndarray, v: np.ndarray, width: float, height: float) -> np.ndarray:
        """World points (..., 3) of page points (u right, v down, mm); the page's middle at the origin, Y up."""
        x, y = u - width / 2, v - height / 2
        z = np.zeros_like(x)
        if self.kind == "flat":
            return np.stack([x, -y, z], -1)
        nx, ny = self.axis
        t = x * nx + y * ny
        s = -x * ny + y * nx
        radius = self.radius * (1 + self.taper * s / max(width, height))
        if self.kind == "hump":
            phi = t / radius
            new_t = radius * np.sin(phi)
            z = radius * (np.cos(phi) - np.cos(self.start / radius))
        else:
            new_t = t.copy()
            ends = [1.0, -1.0] if self.kind == "rolled" else [1.0]
            for sign in ends:
                over = np.maximum(sign * t - self.start, 0)
                phi = over / radius
                new_t = np.where(over > 0, sign * (self.start + radius * np.sin(phi)), new_t)
                z = z + radius * (1 - np.cos(phi))
        x2 = x + nx * (new_t - t)
        y2 = y + ny * (new_t - t)
        return np.stack([x2, -y2, np.maximum(z, 0)], -1)


@dataclass
class Camera:
    """A posed camera and its lens: world to photo pixels."""

    position: np.ndarray
    rotation: np.ndarray
    focal: float
    centre: tuple[float, float]
    mix: float
    k1: float

    def project(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Photo pixel (..., 2) and depth along the axis (...) of world points (..., 3)."""
        p = (points - self.position) @ self.rotation.T
        rho = np.hypot(p[..., 0], p[..., 1])
        theta = np.arctan2(rho, p[..., 2])
        radial = ((1 - self.mix) * np.tan(np.minimum(theta, 1.45)) + self.mix * theta) * (1 + self.k1 * theta ** 2)
        scale = np.where(rho > 1e-9, self.focal * radial / np.maximum(rho, 1e-9), 0)
        return np.stack([self.centre[0] + p[..., 0] * scale, self.centre[1] + p[..., 1] * scale], -1), p[..., 2]


def pose(tilt: float, azimuth: float, roll: float, distance: float, target: np.ndarray, focal: float,
         size: tuple[int, int], mix: float, k1: float) -> Camera:
    """A camera `distance` mm from `target`, tilted `tilt` degrees from the table's normal towards `azimuth`,
    turned by `roll` about its axis."""
    t, a = math.radians(tilt), math.radians(azimuth)
    direction = np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)])
    position = target + distance * direction
    forward = -direction
    down_guess = np.array([0.0, -1.0, 0.0])
    right = np.cross(down_guess, forward)
    if np.linalg.norm(right) < 1e-6:
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    r = math.radians(roll)
    right, down = right * math.cos(r) + down * math.sin(r), -right * math.sin(r) + down * math.cos(r)
    rotation = np.stack([right, down, forward])
    return Camera(position, rotation, focal, ((size[0] - 1) / 2, (size[1] - 1) / 2), mix, k1)


def frame(bend: Bend, width: float, height: float, tilt: float, azimuth: float, roll: float, fill: float,
          size: tuple[int, int], mix: float, k1: float, offset: tuple[float, float]) -> Camera:
    """The camera that shows the bent page filling `fill` of the photo's limiting side, its middle moved by
    `offset` (fractions of the page)."""
    focal = 0.78 * max(size) / (1 + 0.25 * mix)
    u = np.concatenate([np.linspace(0, width, 20), np.full(20, width), np.linspace(width, 0, 20), np.zeros(20)])
    v = np.concatenate([np.zeros(20), np.linspace(0, height, 20), np.full(20, height), np.linspace(height, 0, 20)])
    edge = bend.lift(u, v, width, height)
    target = np.array([offset[0] * width, offset[1] * height, 0.0])
    distance = focal * max(width, height) / (fill * max(size))
    camera = pose(tilt, azimuth, roll, distance, target, focal, size, mix, k1)
    for _ in range(5):
        camera = pose(tilt, azimuth, roll, distance, target, focal, size, mix, k1)
        pixels, _ = camera.project(edge)
        spread = max((pixels[:, 0].max() - pixels[:, 0].min()) / size[0],
                     (pixels[:, 1].max() - pixels[:, 1].min()) / size[1])
        distance *= spread / fill
    for _ in range(12):  # back off until the whole page is in the frame
        camera = pose(tilt, azimuth, roll, distance, target, focal, size, mix, k1)
        pixels, _ = camera.project(edge)
        margin = 0.01 * min(size)
        if (pixels.min(axis=0) > margin).all() and (pixels[:, 0].max() < size[0] - margin
                                                    and pixels[:, 1].max() < size[1] - margin):
            break
        distance *= 1.04
    return camera


def _affines(image_pts: np.ndarray, source_pts: np.ndarray, triangles: np.ndarray) -> np.ndarray:
    """Per triangle, the 2x3 affine carrying photo pixels to source coordinates."""
    a = image_pts[triangles]  # (M, 3, 2)
    b = source_pts[triangles]
    ones = np.ones((*a.shape[:2], 1))
    m = np.concatenate([a, ones], -1)  # (M, 3, 3)
    det = np.linalg.det(m)
    good = np.abs(det) > 1e-6
    m[~good] = np.eye(3)
    inv = np.linalg.inv(m)  # rows: solve m @ coef = b
    coef = inv @ b  # (M, 3, 2): x, y, 1 weights per output coordinate
    coef[~good] = 0
    return coef


def mesh_map(image_pts: np.ndarray, source_pts: np.ndarray, depth: np.ndarray, cols: int, rows: int,
             size: tuple[int, int], step: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grid mesh of rows x cols vertices (row-major) warped forwards: per photo pixel the source coordinates
    (map_x, map_y) and whether the mesh covers it (float 0..1)."""
    index = np.arange(rows * cols).reshape(rows, cols)
    quads = np.stack([index[:-1, :-1], index[:-1, 1:], index[1:, 1:], index[1:, :-1]], -1).reshape(-1, 4)
    triangles = np.concatenate([quads[:, [0, 1, 2]], quads[:, [0, 2, 3]]])
    tri_depth = depth[triangles].min(axis=1)
    corners = image_pts[triangles]
    inside = ((corners[..., 0].max(1) >= -step) & (corners[..., 0].min(1) <= size[0] + step)
              & (corners[..., 1].max(1) >= -step) & (corners[..., 1].min(1) <= size[1] + step))
    triangles = triangles[(tri_depth > 5.0) & inside]
    order = np.argsort(-depth[triangles].mean(axis=1))  # far ones first, near ones drawn over them
    triangles = triangles[order]
    coef = _affines(image_pts, source_pts, triangles)
    w, h = (size[0] + step - 1) // step, (size[1] + step - 1) // step
    ids = np.full((h, w), -1, np.int32)
    shift = 4
    scaled = np.round((image_pts + 0.5) / step * (1 << shift) - 0.5 * (1 << shift)).astype(np.int64)
    limit = 1 << 28
    for number, tri in enumerate(triangles):
        pts = scaled[tri]
        if np.abs(pts).max() > limit:
            continue
        cv2.fillConvexPoly(ids, pts.astype(np.int32), int(number), lineType=cv2.LINE_8, shift=shift)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    xs = xs * step + (step - 1) / 2
    ys = ys * step + (step - 1) / 2
    valid = ids >= 0
    index = np.maximum(ids, 0)
    c = coef.astype(np.float32)
    map_x = c[:, 0, 0][index] * xs + c[:, 1, 0][index] * ys + c[:, 2, 0][index]
    map_y = c[:, 0, 1][index] * xs + c[:, 1, 1][index] * ys + c[:, 2, 1][index]
    cover = valid.astype(np.float32)
    # keep the maps smooth across the mesh's border before upsampling (pixels outside take their neighbours')
    if step > 1:
        grown_x = cv2.dilate(np.where(valid, map_x, -1e9).astype(np.float32), np.ones((3, 3), np.uint8))
        grown_y = cv2.dilate(np.where(valid, map_y, -1e9).astype(np.float32), np.ones((3, 3), np.uint8))
        map_x = np.where(valid, map_x, grown_x)
        map_y = np.where(valid, map_y, grown_y)
        map_x = cv2.resize(map_x, size, interpolation=cv2.INTER_LINEAR)
        map_y = cv2.resize(map_y, size, interpolation=cv2.INTER_LINEAR)
        cover = cv2.resize(cover, size, interpolation=cv2.INTER_LINEAR)
    return map_x, map_y, cover


def page_mesh(bend: Bend, width: float, height: float, camera: Camera, cols: int = 49,
              rows: int = 33) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The page's mesh: photo pixels, page coordinates (mm), depths and world points of its vertices."""
    u, v = np.meshgrid(np.linspace(0, width, cols), np.linspace(0, height, rows))
    world = bend.lift(u, v, width, height).reshape(-1, 3)
    pixels, depth = camera.project(world)
    return pixels, np.stack([u.ravel(), v.ravel()], -1), depth, world


def table_mesh(camera: Camera, reach: float, cols: int = 41) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The table plane's mesh around the page: photo pixels, table coordinates (mm, Y down) and depths."""
    s = np.linspace(-1, 1, cols)
    s = reach * np.sign(s) * np.abs(s) ** 1.8  # dense near the page, where the table shows large
    x, y = np.meshgrid(s, s)
    world = np.stack([x.ravel(), -y.ravel(), np.zeros(x.size)], -1)
    pixels, depth = camera.project(world)
    return pixels, np.stack([x.ravel(), y.ravel()], -1), depth
