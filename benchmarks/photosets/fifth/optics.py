"""Paper as a height field, a phone seen as an inverse-mapped pinhole camera, an area light, 3D occluders.

World: X right and Y down the page (mm, the page from (0, 0) to (W, H)),
Z into the table (the table is Z = 0, things above it have Z < 0). For
every output pixel (on a grid every few pixels, interpolated) the lens's
distortion is undone in closed form (the field-of-view model of Devernay and
Faugeras, r_u = tan(r_d w) / (2 tan(w / 2)), with a shifted centre), the ray
is cast and met with the bent paper by Newton steps on
Z(t) + h(X(t), Y(t)) = 0, else with the table. Light is an ambient term plus
a rectangular area light sampled at a dozen points whose visibility is
tested against the occluders (capsules for fingers, hands, pens; boxes for
the phone and dice; a disc for a coin): soft or hard shadows come out of the
light's size. Occluders are really in the scene: the rays meet them first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

# -- the paper's height field --------------------------------------------------


@dataclass
class Paper:
    width: float
    height: float
    parts: list[tuple] = field(default_factory=list)  # ("curl", nx, ny, offset, length, amp) / ("arch", ...) / ("wave", ...)

    def h(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Height above the table (mm) and its gradient at page points (x, y)."""
        h = np.full_like(x, 0.15)
        hx = np.zeros_like(x)
        hy = np.zeros_like(x)
        for part in self.parts:
            if part[0] == "curl":  # an edge or corner lifted: rises as the square of the way past a line
                _, nx, ny, offset, length, amp = part
                s = (x * nx + y * ny - offset) / length
                on = s > 0
                s = np.where(on, s, 0)
                h += amp * s * s
                g = np.where(on, 2 * amp * s / length, 0)
                hx += g * nx
                hy += g * ny
            elif part[0] == "arch":  # the middle raised along one axis
                _, axis, amp = part
                size = self.width if axis == 0 else self.height
                u = (x if axis == 0 else y) / size
                h += amp * np.sin(np.pi * np.clip(u, 0, 1))
                g = amp * np.pi / size * np.cos(np.pi * np.clip(u, 0, 1))
                if axis == 0:
                    hx += g
                else:
                    hy += g
            elif part[0] == "wave":
                _, kx, ky, phase, amp = part
                arg = kx * x + ky * y + phase
                h += amp * (1 + np.sin(arg))
                hx += amp * kx * np.cos(arg)
                hy += amp * ky * np.cos(arg)
        return h, hx, hy


def random_paper(width: float, height: float, rng: np.random.Generator, strength: float) -> tuple[Paper, str]:
    """A paper with gentle waves and (with `strength` 0..1) curls, a lifted corner or an arch."""
    paper = Paper(width, height)
    for _ in range(2):
        angle = rng.uniform(0, np.pi)
        k = 2 * np.pi / rng.uniform(60, 160)
        paper.parts.append(("wave", k * math.cos(angle), k * math.sin(angle), rng.uniform(0, 6),
                            rng.uniform(0.1, 0.6) * (0.5 + strength)))
    said = []
    if strength > 0 and rng.random() < 0.5 + 0.5 * strength:
        kind = str(rng.choice(["edge", "corner", "arch", "two-edges"]))
        if kind in ("edge", "two-edges"):
            sides = [0, 1, 2, 3]
            rng.shuffle(sides)
            for side in sides[: 1 if kind == "edge" else 2] if kind == "edge" else [sides[0], sides[0] ^ 1]:
                length = rng.uniform(20, 60)
                amp = rng.uniform(3, 22) * strength
                nx, ny, off = [(-1, 0, -length), (1, 0, width - length), (0, -1, -length),
                               (0, 1, height - length)][side]
                paper.parts.append(("curl", nx, ny, off, length, amp))
            said.append(f"{kind} curl")
        elif kind == "corner":
            cx, cy = rng.choice([0, width]), rng.choice([0, height])
            nx, ny = (1 if cx else -1) / math.sqrt(2), (1 if cy else -1) / math.sqrt(2)
            length = rng.uniform(25, 70)
            off = cx * nx + cy * ny - length
            paper.parts.append(("curl", nx, ny, off, length, rng.uniform(4, 25) * strength))
            said.append("corner lifted")
        else:
            paper.parts.append(("arch", int(rng.integers(2)), rng.uniform(3, 16) * strength))
            said.append("arched")
    return paper, ", ".join(said) or "flat"


# -- the camera ----------------------------------------------------------------


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    vector = np.asarray(axis, np.float64) / np.linalg.norm(axis) * angle
    return cv2.Rodrigues(vector)[0]


@dataclass
class Camera:
    size: tuple[int, int]  # width, height in pixels
    focal: float  # px
    centre: tuple[float, float]
    omega: float  # FOV-model distortion (0: none)
    rot: np.ndarray  # camera to world (columns: right, down, forward)
    pos: np.ndarray

    def rays(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """World directions (unit) of pixels (u, v)."""
        xd = (u - self.centre[0]) / self.focal
        yd = (v - self.centre[1]) / self.focal
        if self.omega > 1e-4:
            rd = np.hypot(xd, yd)
            ru = np.tan(rd * self.omega) / (2 * math.tan(self.omega / 2))
            scale = np.where(rd > 1e-9, ru / np.maximum(rd, 1e-9), 1 / (2 * math.tan(self.omega / 2) / self.omega))
            xd, yd = xd * scale, yd * scale
        d = np.stack([xd, yd, np.ones_like(xd)], -1) @ self.rot.T
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixels of world points (distortion applied)."""
        local = (points - self.pos) @ self.rot
        xu, yu = local[:, 0] / local[:, 2], local[:, 1] / local[:, 2]
        if self.omega > 1e-4:
            ru = np.hypot(xu, yu)
            rd = np.arctan(2 * ru * math.tan(self.omega / 2)) / self.omega
            scale = np.where(ru > 1e-9, rd / np.maximum(ru, 1e-9), 1)
            xu, yu = xu * scale, yu * scale
        return np.c_[xu * self.focal + self.centre[0], yu * self.focal + self.centre[1]]


def pose(page: tuple[float, float], size: tuple[int, int], fov: float, omega: float, tilt: float, azimuth: float,
         roll: float, fill: float, rng: np.random.Generator) -> Camera:
    """A camera looking at the page from `tilt` (rad) off the table's normal, the page filling `fill` of the frame."""
    w, h = size
    diag = math.hypot(w, h)
    focal = diag / 2 / math.tan(fov / 2)
    if omega > 1e-4:  # keep the same view angle at the frame's corner
        focal = diag / 2 / (math.atan(2 * math.tan(fov / 2) * math.tan(omega / 2)) / omega)
    base = rotation(np.array([0, 0, 1.0]), roll)
    axis = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
    rot = rotation(axis, tilt) @ base
    forward = rot[:, 2]
    target = np.array([page[0] / 2 + rng.normal(0, page[0] * 0.04), page[1] / 2 + rng.normal(0, page[1] * 0.04), 0])
    corners = np.array([[0, 0, 0], [page[0], 0, 0], [page[0], page[1], 0], [0, page[1], 0.0]])
    centre = (w / 2 + rng.normal(0, w * 0.01), h / 2 + rng.normal(0, h * 0.01))
    distance = 400.0
    for _ in range(6):
        camera = Camera(size, focal, centre, omega, rot, target - distance * forward)
        p = camera.project(corners)
        span = max((p[:, 0].max() - p[:, 0].min()) / w, (p[:, 1].max() - p[:, 1].min()) / h)
        distance *= span / fill
    camera = Camera(size, focal, centre, omega, rot, target - distance * forward)
    p = camera.project(corners)  # shift the page into the frame, anywhere in the slack
    slack_x = w - (p[:, 0].max() - p[:, 0].min())
    slack_y = h - (p[:, 1].max() - p[:, 1].min())
    want_x = rng.uniform(0.25, 0.75) * slack_x - p[:, 0].min()
    want_y = rng.uniform(0.25, 0.75) * slack_y - p[:, 1].min()
    shift = (want_x * rot[:, 0] + want_y * rot[:, 1]) * distance / focal
    camera.pos = camera.pos - shift
    return camera


def intersect(camera: Camera, paper: Paper, u: np.ndarray, v: np.ndarray) -> dict[str, np.ndarray]:
    """Rays of pixels (u, v) met with the paper (Newton on the height field) and with the table."""
    d = camera.rays(u, v)
    c = camera.pos
    t_table = -c[2] / d[..., 2]
    t = t_table.copy()
    for _ in range(6):
        x, y = c[0] + t * d[..., 0], c[1] + t * d[..., 1]
        h, hx, hy = paper.h(x, y)
        g = c[2] + t * d[..., 2] + h
        dg = d[..., 2] + hx * d[..., 0] + hy * d[..., 1]
        t = t - g / np.where(np.abs(dg) < 1e-3, 1e-3, dg)
    x, y = c[0] + t * d[..., 0], c[1] + t * d[..., 1]
    h, hx, hy = paper.h(x, y)
    normal = np.stack([hx, hy, -np.ones_like(hx)], -1)  # towards the camera side (Z < 0 is up)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    return {"d": d, "t": t, "x": x, "y": y, "z": -h, "normal": normal, "t_table": t_table,
            "tx": c[0] + t_table * d[..., 0], "ty": c[1] + t_table * d[..., 1]}


# -- occluders -----------------------------------------------------------------


@dataclass
class Capsule:
    a: np.ndarray
    b: np.ndarray
    radius: float
    colour: tuple[float, float, float]
    shiny: float = 0.0


@dataclass
class Box:
    centre: np.ndarray
    half: np.ndarray
    rot: np.ndarray  # box to world
    colour: tuple[float, float, float]
    pips: bool = False


@dataclass
class Disc:
    centre: np.ndarray
    radius: float
    colour: tuple[float, float, float]


def ray_capsule(o: np.ndarray, d: np.ndarray, cap: Capsule) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Signed distance (mm) from each ray to the capsule's surface (< 0: it meets it), the hit's t and normal."""
    ab = cap.b - cap.a
    ab2 = ab @ ab
    ao = o - cap.a
    dd = (d * d).sum(-1)
    dab = d @ ab
    denom = dd * ab2 - dab * dab
    dao = (d * ao).sum(-1) if ao.ndim > 1 else d @ ao
    abao = ao @ ab if ao.ndim == 1 else (ao * ab).sum(-1)
    s = np.where(np.abs(denom) > 1e-9, (dd * abao - dab * dao) / np.where(np.abs(denom) > 1e-9, denom, 1), 0)
    s = np.clip(s, 0, 1)
    seg = cap.a + s[..., None] * ab
    t = ((seg - o) * d).sum(-1) / dd
    t = np.maximum(t, 0)
    near = o + t[..., None] * d
    gap = seg - near
    dist = np.linalg.norm(gap, axis=-1)
    back = np.sqrt(np.maximum(cap.radius ** 2 - dist ** 2, 0))
    hit_t = t - back
    hit = o + hit_t[..., None] * d
    normal = hit - seg
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-6)
    return dist - cap.radius, hit_t, normal


def ray_box(o: np.ndarray, d: np.ndarray, box: Box) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slab test in the box's frame: a soft signed 'how far inside' (mm, < 0 meets), the hit's t and normal."""
    lo = (o - box.centre) @ box.rot
    ld = d @ box.rot
    ld = np.where(np.abs(ld) < 1e-9, 1e-9, ld)
    t1 = (-box.half - lo) / ld
    t2 = (box.half - lo) / ld
    tmin = np.minimum(t1, t2)
    tmax = np.maximum(t1, t2)
    enter = tmin.max(-1)
    leave = tmax.min(-1)
    axis = tmin.argmax(-1)
    local_n = np.zeros(ld.shape)
    np.put_along_axis(local_n, axis[..., None], -np.sign(np.take_along_axis(ld, axis[..., None], -1)), -1)
    normal = local_n @ box.rot.T
    ok = (leave > np.maximum(enter, 0))
    return np.where(ok, -1.0, 1.0), enter, normal


def ray_disc(o: np.ndarray, d: np.ndarray, disc: Disc) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = (disc.centre[2] - o[2]) / d[..., 2]
    p = o + t[..., None] * d
    r = np.hypot(p[..., 0] - disc.centre[0], p[..., 1] - disc.centre[1])
    normal = np.zeros(d.shape)
    normal[..., 2] = -1
    return r - disc.radius, t, normal


def occlusion(o: np.ndarray, d: np.ndarray, things: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The nearest occluder of each ray: signed distance (< 0 meets), its t, normal and colour."""
    best_sd = np.full(d.shape[:-1], 1e9)
    best_t = np.full(d.shape[:-1], 1e9)
    normal = np.zeros(d.shape)
    colour = np.zeros(d.shape)
    for thing in things:
        if isinstance(thing, Capsule):
            sd, t, n = ray_capsule(o, d, thing)
        elif isinstance(thing, Box):
            sd, t, n = ray_box(o, d, thing)
        else:
            sd, t, n = ray_disc(o, d, thing)
        take = (sd < 0.5) & (t < best_t) | ((best_sd >= 0.5) & (sd < best_sd))
        best_sd = np.where(take, sd, best_sd)
        best_t = np.where(take & (sd < 0.5), t, best_t)
        normal = np.where(take[..., None], n, normal)
        colour = np.where(take[..., None], _surface_colour(thing, o, d, t), colour)
    return best_sd, best_t, normal, colour


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
        5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)], 6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}


def _surface_colour(thing: Capsule | Box | Disc, o: np.ndarray, d: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The colour where each ray meets `thing`: pips on a die's faces, a rim and relief on a coin."""
    base = np.array(thing.colour)
    t = np.where(np.abs(t) < 1e6, t, 0)
    if isinstance(thing, Box):
        local = ((o + t[..., None] * d) - thing.centre) @ thing.rot / thing.half
        axis = np.abs(local).argmax(-1)
        face = np.take_along_axis(np.sign(local), axis[..., None], -1)[..., 0]
        value = np.where(face > 0, 1 + axis, 6 - axis)  # opposite faces add up to 7
        u = np.take_along_axis(local, ((axis + 1) % 3)[..., None], -1)[..., 0]
        v = np.take_along_axis(local, ((axis + 2) % 3)[..., None], -1)[..., 0]
        pip = np.zeros(t.shape, bool)
        for n, spots in PIPS.items():
            for a, b in spots:
                pip |= (value == n) & ((u - 0.5 * a) ** 2 + (v - 0.5 * b) ** 2 < 0.2 ** 2)
        ink = np.array([0.03, 0.03, 0.03]) if base.mean() > 0.4 else np.array([0.85, 0.85, 0.82])
        return np.where(pip[..., None], ink, base)
    if isinstance(thing, Disc):
        p = o + t[..., None] * d
        r = np.hypot(p[..., 0] - thing.centre[0], p[..., 1] - thing.centre[1]) / thing.radius
        angle = np.arctan2(p[..., 1] - thing.centre[1], p[..., 0] - thing.centre[0])
        relief = 1 + 0.12 * np.sin(9 * r + 3 * np.sin(2 * angle)) * (r < 0.75)
        rim = np.where((r > 0.82) & (r < 0.9), 0.7, 1.0) * np.where(r > 0.95, 0.75, 1.0)
        return base * (relief * rim)[..., None]
    return np.broadcast_to(base, d.shape)


def blocked(points: np.ndarray, light: np.ndarray, things: list) -> np.ndarray:
    """1 where the segment from each point to the light point meets an occluder."""
    d = light - points
    out = np.zeros(points.shape[:-1], bool)
    for thing in things:
        if isinstance(thing, Capsule):
            sd, t, _ = _segment_capsule(points, d, thing)
            out |= sd < 0
        elif isinstance(thing, Box):
            sd, t, _ = _segment_box(points, d, thing)
            out |= sd
        else:
            t = (thing.centre[2] - points[..., 2]) / np.where(np.abs(d[..., 2]) < 1e-9, 1e-9, d[..., 2])
            p = points + t[..., None] * d
            out |= (t > 0) & (t < 1) & (np.hypot(p[..., 0] - thing.centre[0], p[..., 1] - thing.centre[1])
                                         < thing.radius)
    return out


def _segment_capsule(p: np.ndarray, d: np.ndarray, cap: Capsule) -> tuple[np.ndarray, np.ndarray, None]:
    ab = cap.b - cap.a
    ab2 = ab @ ab
    ap = p - cap.a
    dd = (d * d).sum(-1)
    dab = d @ ab
    dap = (d * ap).sum(-1)
    abap = ap @ ab
    denom = dd * ab2 - dab * dab
    safe = np.where(np.abs(denom) > 1e-9, denom, 1)
    t = np.clip((dab * abap - ab2 * dap) / safe, 0, 1)
    s = np.clip((abap + t * dab) / ab2, 0, 1)
    t = np.clip((s * dab - dap) / dd, 0, 1)
    gap = (cap.a + s[..., None] * ab) - (p + t[..., None] * d)
    return np.linalg.norm(gap, axis=-1) - cap.radius, t, None


def _segment_box(p: np.ndarray, d: np.ndarray, box: Box) -> tuple[np.ndarray, None, None]:
    lo = (p - box.centre) @ box.rot
    ld = d @ box.rot
    ld = np.where(np.abs(ld) < 1e-9, 1e-9, ld)
    t1 = (-box.half - lo) / ld
    t2 = (box.half - lo) / ld
    enter = np.minimum(t1, t2).max(-1)
    leave = np.maximum(t1, t2).min(-1)
    return (leave > enter) & (leave > 0) & (enter < 1), None, None


# -- light ---------------------------------------------------------------------


def kelvin(temperature: float) -> np.ndarray:
    """The linear RGB of a black body at `temperature` K, green = 1 (a fit good enough for a cast)."""
    t = temperature / 100
    r = 255 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255 if t >= 66 else (0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    rgb = np.clip(np.array([r, g, b]) / 255, 0.05, 1)
    rgb = rgb ** 2.2
    return rgb / rgb[1]


@dataclass
class Light:
    centre: np.ndarray
    u: np.ndarray  # half extents of the rectangle
    v: np.ndarray
    power: float
    colour: np.ndarray
    ambient: float
    ambient_colour: np.ndarray
    gloss: float

    def samples(self, n: int, rng: np.random.Generator) -> np.ndarray:
        k = int(math.sqrt(n))
        grid = (np.stack(np.meshgrid(np.arange(k), np.arange(k)), -1).reshape(-1, 2) + rng.random((k * k, 2))) / k
        grid = grid * 2 - 1
        return self.centre + grid[:, :1] * self.u + grid[:, 1:] * self.v


def irradiance(points: np.ndarray, normals: np.ndarray, light: Light, things: list, rng: np.random.Generator,
               n: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """RGB light falling on surface points (the ambient plus the area light, shadowed by the occluders), and
    the fraction of the light each point sees."""
    total = np.zeros(points.shape[:-1])
    seen = np.zeros(points.shape[:-1])
    samples = light.samples(n, rng)
    for s in samples:
        to = s - points
        dist2 = (to * to).sum(-1)
        w = to / np.sqrt(dist2)[..., None]
        cos_surface = np.clip((w * normals).sum(-1), 0, 1)
        cos_light = np.clip(-w[..., 2], 0, 1)  # the light faces down (+Z)
        shade = ~blocked(points, s, things) if things else 1
        seen += shade
        total += cos_surface * cos_light * shade * (light.centre[2] ** 2) / dist2
    direct = total / len(samples) * light.power
    sky = light.ambient * (0.6 + 0.4 * np.clip(-normals[..., 2], 0, 1))
    return direct[..., None] * light.colour + sky[..., None] * light.ambient_colour, seen / len(samples)


def glare(points: np.ndarray, normals: np.ndarray, camera: Camera, light: Light) -> np.ndarray:
    """A Blinn-Phong lobe of the light's centre seen mirrored in the (slightly glossy) page."""
    view = camera.pos - points
    view /= np.linalg.norm(view, axis=-1, keepdims=True)
    to = light.centre - points
    to /= np.linalg.norm(to, axis=-1, keepdims=True)
    half = view + to
    half /= np.linalg.norm(half, axis=-1, keepdims=True)
    spread = 40 + 2000 / (1 + np.linalg.norm(light.u) / 50)
    return light.gloss * np.clip((half * normals).sum(-1), 0, 1) ** spread
