"""One photo: a printed, marked page, bent, lit and photographed on a table with things about, as linear light."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import scene
from .camera import Camera, Surface, View, frame_page, look, make_camera
from .light import CASTS, Light, glare_lamp, irradiance, shadow_map
from .pens import Ink

STEP = 8
"""The camera is solved every STEP pixels and interpolated between."""

TO_LINEAR = ((np.arange(256) / 255.0) ** 2.2).astype(np.float32)


@dataclass
class Shot:
    """Where the camera is and what the scene holds, apart from the light and the phone."""

    size: tuple[int, int]
    fov: float
    tilt: float
    azimuth: float
    roll: float
    fill: float
    distortion: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    table: str = "wood"
    clutter: int = 0
    second_page: np.ndarray | None = None
    second_ppm: float = 4.0
    things: list[str] = field(default_factory=list)
    """What lies on or over the page: "thumb", "pen", "coin", "die" (repeats allowed)."""
    paper: tuple[float, float, float] = (0.88, 0.88, 0.86)
    printer: tuple[float, float, float] = (1.0, 1.0, 1.0)


@dataclass
class Framing:
    """The camera placed over the page: where the page's outline falls and its scale in the photo."""

    camera: Camera
    view: View
    polygon: np.ndarray
    px_per_mm: float
    notes: list[str]


@dataclass
class Scene:
    """The photo before the phone: linear RGB light, and the exposure's white."""

    image: np.ndarray
    white: float
    notes: list[str]


def place(shot: Shot, surface: Surface, rng: np.random.Generator) -> Framing:
    """Put the camera over the page as `shot` says and find what every pixel sees."""
    w, h = shot.size
    camera = make_camera(shot.size, shot.fov, shot.tilt, shot.azimuth, shot.roll, 400.0, (0.0, 0.0))
    camera.k1, camera.k2, camera.p1, camera.p2 = shot.distortion
    camera = frame_page(camera, surface, shot.fill, rng)
    view = look(camera, surface, STEP)
    polygon = _outline(camera, surface)
    area = abs(cv2.contourArea(polygon))
    px_per_mm = math.sqrt(area / (surface.width * surface.height))
    notes = [f"{w}x{h}", f"tilt {shot.tilt:.0f}", f"turn {shot.roll % 360:.0f}", f"page {px_per_mm:.1f} px/mm",
             f"fills {area / (w * h):.0%}"]
    if any(shot.distortion):
        notes.append("k1 {:.3f} k2 {:.3f} p1 {:.4f} p2 {:.4f}".format(*shot.distortion))
    return Framing(camera, view, polygon, px_per_mm, notes)


def page_texture(page: np.ndarray, ink: Ink, shot: Shot, rng: np.random.Generator) -> np.ndarray:
    """The marked page's reflectance (linear RGB) at the page's own resolution."""
    lut = np.stack([shot.paper[c] * TO_LINEAR ** shot.printer[c] for c in range(3)], axis=1)
    texture = cv2.LUT(page, lut.reshape(256, 1, 3).astype(np.float32))
    _print_grain(texture, page, rng)
    ink.apply(texture)
    return texture


def _print_grain(texture: np.ndarray, page: np.ndarray, rng: np.random.Generator) -> None:
    """The paper's fibres everywhere and a printer's dither in its tints (strongest half-way to full colour)."""
    h, w = page.shape[:2]
    grain = rng.random((h // 2 + 1, w // 2 + 1), dtype=np.float32)
    grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_LINEAR)[:h, :w] - 0.5
    fine = rng.random((h, w), dtype=np.float32) - 0.5
    level = cv2.cvtColor(page, cv2.COLOR_RGB2GRAY).astype(np.float32) * (1 / 255)
    tint = 4 * level * (1 - level)
    amount = rng.uniform(0.015, 0.035) * grain + rng.uniform(0.04, 0.12) * tint * fine
    texture *= (1 + amount)[..., None]


def render(framing: Framing, page: np.ndarray, ink: Ink, surface: Surface, shot: Shot, light: Light,
           rng: np.random.Generator, glare_at: tuple[float, float] | None = None, vignette: float = 0.0) -> Scene:
    """Photograph the page: the page and the table, light, things on the page and shadows, as linear RGB."""
    w, h = shot.size
    camera, view, polygon, px_per_mm = framing.camera, framing.view, framing.polygon, framing.px_per_mm
    notes = list(framing.notes)
    if glare_at is not None:
        at = np.array(surface.world(np.array(glare_at[0]), np.array(glare_at[1])), float)
        light.lamp = glare_lamp(camera, at, rng.uniform(500, 1200))
    texture = page_texture(page, ink, shot, rng)
    graphite = ink.graphite()
    tex_ppm = page.shape[1] / surface.width
    if tex_ppm > 1.7 * px_per_mm:
        ratio = 1.3 * px_per_mm / tex_ppm
        size = (max(8, int(texture.shape[1] * ratio)), max(8, int(texture.shape[0] * ratio)))
        texture = cv2.resize(texture, size, interpolation=cv2.INTER_AREA)
        graphite = None if graphite is None else cv2.resize(graphite, size, interpolation=cv2.INTER_AREA)
        tex_ppm = size[0] / surface.width
    u = np.where(view.solved, view.u, -1e4)
    v = np.where(view.solved, view.v, -1e4)
    maps = cv2.convertMaps(view.full(u * tex_ppm - 0.5, (w, h)), view.full(v * tex_ppm - 0.5, (w, h)),
                           cv2.CV_16SC2)
    warped = cv2.remap(texture, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    cover = np.full(texture.shape[:2], 255, np.uint8)
    alpha = cv2.remap(cover, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = alpha.astype(np.float32) * (1 / 255)
    shine = None
    if graphite is not None:
        shine = cv2.remap(graphite, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=0)
    del texture, maps, cover
    image = _table(view, shot, px_per_mm, rng, notes)
    cv2.blendLinear(warped, image, alpha, 1 - alpha, dst=image)
    del warped
    page_light, table_light, glare = irradiance(view, light, camera)
    on_page = view.on_page.astype(np.float32)
    lit = table_light + (page_light - table_light) * on_page[..., None]
    lit *= _lift_shadow(on_page, light, px_per_mm * STEP, surface)[..., None]
    if vignette:
        gh, gw = on_page.shape
        yy, xx = np.mgrid[0:gh, 0:gw].astype(np.float32)
        r2 = ((xx - gw / 2) / (gw / 2)) ** 2 + ((yy - gh / 2) / (gw / 2)) ** 2
        lit *= (1 - vignette * np.clip(r2, 0, 2) / 1.6)[..., None]
    lit_full = view.full(lit, (w, h))
    glare_full = view.full(glare * on_page, (w, h))
    glare_full *= alpha
    if shine is not None:
        glare_full *= 1 + 4 * shine
    for thing in _things(shot, rng, polygon, px_per_mm, (w, h), notes):
        _place(thing, image, lit_full, glare_full, px_per_mm, light)
    box = (float(polygon[:, 0].min()), float(polygon[:, 1].min()), float(polygon[:, 0].max()),
           float(polygon[:, 1].max()))
    shadows = shadow_map(light, (w, h), box, px_per_mm, rng)
    image *= lit_full
    del lit_full
    if shadows is not None:
        image *= shadows[..., None]
        glare_full *= shadows
    if float(glare_full[::16, ::16].max()) > 1e-3:
        cast = np.array(CASTS[light.cast], np.float32)
        image += cv2.merge([glare_full * cast[0], glare_full * cast[1], glare_full * cast[2]])
    inside = alpha[::8, ::8] > 0.5
    brightness = image[::8, ::8, 1][inside] if inside.any() else image[::8, ::8, 1].ravel()
    white = float(np.percentile(brightness, 92))
    return Scene(image, white, notes)


def _outline(camera: Camera, surface: Surface) -> np.ndarray:
    t = np.linspace(0, 1, 30)
    u = np.concatenate([t * surface.width, np.full(30, surface.width), (1 - t) * surface.width, np.zeros(30)])
    v = np.concatenate([np.zeros(30), t * surface.height, np.full(30, surface.height), (1 - t) * surface.height])
    px, py = camera.project(*surface.world(u, v))
    return np.stack([px, py], axis=1).astype(np.float32)


def _table(view: View, shot: Shot, px_per_mm: float, rng: np.random.Generator, notes: list[str]) -> np.ndarray:
    w, h = shot.size
    xs, ys = view.table_x, view.table_y
    x0, x1 = max(float(xs.min()), -1500.0) - 5, min(float(xs.max()), 1500.0) + 5
    y0, y1 = max(float(ys.min()), -1500.0) - 5, min(float(ys.max()), 1500.0) + 5
    ppm = min(5.0, px_per_mm, 1800.0 / max(x1 - x0, y1 - y0))
    table = scene.table(shot.table, rng, (x0, y0, x1, y1), ppm)
    notes.append(f"{shot.table} table")
    if shot.second_page is not None:
        angle = rng.uniform(0, 360)
        ph, pw = shot.second_page.shape[:2]
        reach = math.hypot(pw, ph) / shot.second_ppm / 2
        side = rng.uniform(0, 2 * math.pi)
        edge_x = (x1 - x0) / 2 * 0.95
        edge_y = (y1 - y0) / 2 * 0.95
        centre = ((x0 + x1) / 2 + math.cos(side) * (min(edge_x, 400) + reach * 0.55),
                  (y0 + y1) / 2 + math.sin(side) * (min(edge_y, 300) + reach * 0.55))
        centre = (float(np.clip(centre[0], -250 - reach * 0.4, 250 + reach * 0.4)),
                  float(np.clip(centre[1], -200 - reach * 0.4, 200 + reach * 0.4)))
        scene.paste(table, shot.second_page, centre, angle, shot.second_ppm, shadow=0.2)
        notes.append("a second page")
    if shot.clutter:
        scene.clutter(table, rng, (-110, -75, 110, 75), shot.clutter)
        notes.append(f"{shot.clutter} things on the table")
    maps = cv2.convertMaps(view.full((view.table_x - table.x0) * table.ppm - 0.5, (w, h)),
                           view.full((view.table_y - table.y0) * table.ppm - 0.5, (w, h)), cv2.CV_16SC2)
    return cv2.remap(table.texture, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _lift_shadow(on_page: np.ndarray, light: Light, px_per_mm: float, surface: Surface) -> np.ndarray:
    """The soft shadow the page (lying, and curling up at its edges) casts on the table around itself, on the
    coarse grid (`px_per_mm` of that grid)."""
    edge_u = np.array([0.0, surface.width, 0.0, surface.width, surface.width / 2, surface.width / 2])
    edge_v = np.array([0.0, 0.0, surface.height, surface.height, 0.0, surface.height])
    lift = max(float(-surface.world(edge_u, edge_v)[2].mean()), 0.6)
    direction = -light.lamp[:2] / max(float(np.linalg.norm(light.lamp[:2])), 1e-6)
    offset = direction * lift * 0.5 * px_per_mm
    h, w = on_page.shape
    moved = cv2.warpAffine(on_page, np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32), (w, h))
    soft = cv2.GaussianBlur(moved, (0, 0), max(0.4, lift * 0.4 * px_per_mm))
    return (1 - 0.15 * soft * (1 - on_page)).astype(np.float32)


def _things(shot: Shot, rng: np.random.Generator, polygon: np.ndarray, px_per_mm: float, size: tuple[int, int],
            notes: list[str]) -> list[scene.Thing]:
    found: list[scene.Thing] = []
    centre = polygon.mean(axis=0)
    for name in shot.things:
        if name == "thumb":
            i = int(rng.integers(len(polygon)))
            if rng.random() < 0.75:  # mostly held along an edge, clear of the corners
                i = int(rng.integers(4)) * 30 + int(rng.integers(6, 24))
            edge = polygon[i]
            inward = centre - edge
            inward /= np.linalg.norm(inward)
            turn = rng.normal(0, 0.35)
            direction = np.array([inward[0] * math.cos(turn) - inward[1] * math.sin(turn),
                                  inward[0] * math.sin(turn) + inward[1] * math.cos(turn)])
            tip = edge + direction * rng.uniform(3, 22) * px_per_mm
            found += scene.finger(rng, tip, direction, px_per_mm, size)
        elif name == "pen":
            at = centre + rng.uniform(-0.4, 0.4, 2) * (polygon.max(axis=0) - polygon.min(axis=0))
            found += scene.pen(rng, at, rng.uniform(0, math.pi), px_per_mm, size)
        elif name in ("coin", "die"):
            on_page = rng.random() < 0.4
            spread = 0.45 if on_page else 0.9
            at = centre + rng.uniform(-spread, spread, 2) * (polygon.max(axis=0) - polygon.min(axis=0))
            make = scene.coin if name == "coin" else scene.die
            found += make(rng, at, px_per_mm, size)
    if shot.things:
        notes.append("+".join(sorted({t.name for t in found})) + " over the picture")
    return found


def _place(thing: scene.Thing, reflect: np.ndarray, lit: np.ndarray, glare: np.ndarray, px_per_mm: float,
           light: Light) -> None:
    """Lay a thing over the picture with the soft shadow it casts beside it."""
    h, w = reflect.shape[:2]
    th, tw = thing.alpha.shape
    height = {"thumb": 14.0, "hand": 25.0, "pen": 5.0, "pencil": 4.0, "coin": 1.5, "die": 8.0}.get(thing.name, 4.0)
    direction = -light.lamp[:2] / max(np.linalg.norm(light.lamp[:2]), 1e-6)
    offset = direction * height * 0.6 * px_per_mm
    pad = int(abs(offset).max() + height * px_per_mm) + 4
    x0, y0 = max(thing.x - pad, 0), max(thing.y - pad, 0)
    x1, y1 = min(thing.x + tw + pad, w), min(thing.y + th + pad, h)
    if x1 <= x0 or y1 <= y0:
        return
    alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
    ax0, ay0 = thing.x - x0, thing.y - y0
    cx0, cy0 = max(ax0, 0), max(ay0, 0)
    cx1, cy1 = min(ax0 + tw, x1 - x0), min(ay0 + th, y1 - y0)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    sub = (slice(cy0 - ay0, cy1 - ay0), slice(cx0 - ax0, cx1 - ax0))
    alpha[cy0:cy1, cx0:cx1] = thing.alpha[sub]
    colour = np.zeros((*alpha.shape, 3), np.float32)
    colour[cy0:cy1, cx0:cx1] = thing.colour[sub]
    shine = np.zeros(alpha.shape, np.float32)
    shine[cy0:cy1, cx0:cx1] = thing.shine[sub]
    shadow = cv2.warpAffine(alpha, np.array([[1, 0, offset[0]], [0, 1, offset[1]]], np.float32), alpha.shape[::-1])
    shadow = scene.soften(shadow, max(0.7, height * 0.25 * px_per_mm))
    region = (slice(y0, y1), slice(x0, x1))
    lit[region] *= (1 - 0.55 * shadow * (1 - alpha))[..., None]
    reflect[region] += (colour - reflect[region]) * alpha[..., None]
    glare[region] += (shine - glare[region]) * alpha
