"""Photo set `fifth`: held-out phone photos of filled printgen score sheets, made by means of its own.

`make(index, seed, family, folder)` writes folder/NNNNNN.jpg and .json (the truth); see README.md.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.printing.imposition import plan_grid

from . import ink, optics, phone, play, scene, sheets

FAMILIES = ("mild", "tilt", "exif", "light", "lens", "degraded", "occluded", "pens", "twoup")
LANGS = ("en", "en", "de", "fr", "it", "pl")
A4 = (210.0, 297.0)


def make(index: int, seed: int, family: str, folder: Path, debug: Path | None = None) -> None:
    """Write folder/f"{index:06d}.jpg" and .json, reproducibly from `seed` (`debug`: the flat marked page there)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # one core's work, as the benchmark asks of a worker
    try:
        _make(index, seed, family, folder, debug)
    finally:
        cv2.setNumThreads(threads)


def _make(index: int, seed: int, family: str, folder: Path, debug: Path | None) -> None:
    rng = np.random.default_rng([seed, 5])
    prng = random.Random(seed * 7 + 5)
    said: list[str] = []

    # -- the pad, the page and the game --
    layout_name = sheets.LAYOUTS[(index + seed // 1_000_003) % len(sheets.LAYOUTS)]
    if rng.random() < 0.25:
        layout_name = str(rng.choice(sheets.LAYOUTS))
    twoup = family == "twoup"
    pad = sheets.Pad(layout_name, str(rng.choice(LANGS)), bool(rng.random() < 0.3), int(rng.integers(1, 7)),
                     layout_name == "qwixx-gemixxt-b" and rng.random() < 0.7, 2 if twoup else 1)
    layout = layouts.load(layout_name)
    if twoup:
        grid = plan_grid(A4, layout.width, layout.height, 2)  # type: ignore[union-attr]
        page_no = int(rng.integers(1, sheets.PAD // 2 + 1))
        places = [((grid.cell(k)), grid.scale, 2 * (page_no - 1) + k) for k in range(2)]
        page_size = (grid.page_w, grid.page_h)
    else:
        page_no = int(rng.integers(1, sheets.PAD + 1))
        places = [((0.0, 0.0), 1.0, page_no - 1)]
        page_size = (layout.width, layout.height)  # type: ignore[union-attr]
    dealt = [sheets.dealt(pad, position) for _, _, position in places]
    played = play.play(layout_name, dealt, prng)
    truths = [play.truth(layout_name, sheet, numbers) for sheet, (_, numbers) in zip(played, dealt)]
    said.append(f"{layout_name} {pad.lang}{' symbols' if pad.symbols else ''}{' shuffled' if pad.shuffle else ''}"
                f" sheet {page_no}")

    # -- the family's conditions --
    portrait = rng.random() < 0.5
    long_side = int(rng.integers(2400, 3000)) // 64 * 64
    size = (long_side * 3 // 4, long_side) if portrait else (long_side, long_side * 3 // 4)
    tilt = math.radians(rng.uniform(0, 12))
    roll = rng.uniform(-np.pi, np.pi) if rng.random() < 0.5 else rng.normal(0, 0.08) + np.pi / 2 * rng.integers(4)
    fov = math.radians(rng.uniform(66, 76))
    omega = rng.uniform(0, 0.25)
    fill = rng.uniform(0.6, 0.9)
    strength = rng.uniform(0, 0.25)
    temperature = rng.uniform(3800, 6000)
    balance = rng.uniform(0.8, 0.97)
    light_size = rng.uniform(250, 700)
    ambient = rng.uniform(0.25, 0.5)
    gloss = rng.uniform(0, 0.05)
    defocus = rng.uniform(0, 1.0)
    motion = 0.0
    electrons = rng.uniform(4000, 15000)
    quality = int(rng.integers(80, 96))
    orientation = 1
    occluders = 0
    wide_pens = False
    strikes = 0.3
    glare_aim = False
    tint = np.ones(3)
    if family == "tilt":
        tilt = math.radians(rng.uniform(10, 35))
        roll = rng.uniform(-np.pi, np.pi)
    elif family == "exif":
        orientation = int(rng.integers(2, 9))
    elif family == "light":
        temperature = float(rng.choice([rng.uniform(2200, 3200), rng.uniform(7500, 12000), rng.uniform(4000, 5500)]))
        balance = rng.uniform(0.15, 0.6)
        tint = np.array([1.0, 1.0, 1.0]) + rng.normal(0, 0.12, 3) * np.array([1, 0.5, 1])
        light_size = float(rng.choice([rng.uniform(10, 60), rng.uniform(100, 400)]))
        ambient = rng.uniform(0.08, 0.35)
        gloss = rng.uniform(0.2, 0.9) if rng.random() < 0.6 else 0.0
        glare_aim = gloss > 0
    elif family == "lens":
        omega = rng.uniform(0.5, 1.05)
        fov = math.radians(rng.uniform(75, 95))
        strength = rng.uniform(0.6, 1.0)
        fill = rng.uniform(0.6, 0.92)
    elif family == "degraded":
        if rng.random() < 0.6:
            defocus = rng.uniform(1.2, 4.0)
        if rng.random() < 0.6:
            motion = rng.uniform(4, 16)
        electrons = rng.uniform(150, 1200)
        quality = int(rng.integers(40, 66))
    elif family == "occluded":
        occluders = int(rng.integers(1, 4))
    elif family == "pens":
        wide_pens = True
        strikes = 0.8
    elif family == "twoup":
        fill = rng.uniform(0.7, 0.92)
    said.append(f"tilt {math.degrees(tilt):.0f}°, turn {math.degrees(roll) % 360:.0f}°, lens w {omega:.2f}")

    camera = optics.pose(page_size, size, fov, omega, tilt, rng.uniform(0, 2 * np.pi), roll, fill, rng)
    distance = float(np.linalg.norm(camera.pos - np.array([page_size[0] / 2, page_size[1] / 2, 0])))
    photo_ppm = camera.focal / distance
    dpi = int(np.clip(round(photo_ppm * 1.3 * 25.4 / 25) * 25, 150, 350))
    ppm = dpi / 25.4

    # -- the printed, marked page --
    render = sheets.render(pad, page_no, dpi)
    printed, printer = sheets.laser(render, ppm, rng)
    shape = printed.shape[:2]
    canvas = ink.Canvas(shape, ppm, sheets.tooth(shape, ppm, rng))
    kinds: list[str] = []
    hands = [ink.Hand(rng, wide_pens) for _ in places]
    for (origin, scale, _), sheet, (_, numbers), hand in zip(places, played, dealt, hands):
        kinds += ink.ink_sheet(canvas, layout_name, sheet, numbers, origin, scale, hand, rng, strikes)
    page = (printed * np.power(10.0, -canvas.density)).astype(np.float32)
    said.append(f"laser gain {printer['dot_gain']}, {', '.join(sorted({h.pen.kind + ' ' + h.pen.colour for h in hands}))}"
                f", marks {', '.join(sorted(set(kinds)))}")
    if debug is not None:
        _debug(page, ppm, places, layout_name, truths, debug)

    # -- the paper, the scene and the light --
    paper, bend = optics.random_paper(page_size[0], page_size[1], rng, strength)
    said.append(bend)
    things: list[Any] = []
    if occluders:
        things, what = _occluders(camera, paper, page_size, places, layout_name, occluders, rng)
        said.append(what)
    elif rng.random() < 0.3:  # a die or a coin on the table beside the page
        side = rng.choice([-1, 1])
        spot = np.array([page_size[0] / 2 + side * (page_size[0] / 2 + rng.uniform(20, 60)),
                         rng.uniform(0, page_size[1]), 0])
        things = [scene.die(spot, rng)] if rng.random() < 0.5 else [scene.coin(spot, rng)]
    casters = things + scene.phone_and_hand(camera.pos, camera.rot, rng)
    if family == "light" and rng.random() < 0.7:
        extra = _off_frame(camera, page_size, rng)
        casters += extra
        said.append(f"{'an' if extra else 'no'} off-frame hand's shadow")
    spot = np.array([rng.uniform(0.2, 0.8) * page_size[0], rng.uniform(0.2, 0.8) * page_size[1], 0.0])
    if glare_aim:  # the light where its mirror image lands on the page
        view = camera.pos - spot
        light_at = spot + np.array([-view[0], -view[1], view[2]]) * rng.uniform(1.5, 3)
    else:
        light_at = spot + np.array([rng.normal(0, 300), rng.normal(0, 300), -rng.uniform(700, 1500)])
    u_axis = np.array([1.0, 0, 0]) * light_size / 2
    v_axis = np.array([0, 1.0, 0]) * light_size / 2 * rng.uniform(0.3, 1)
    colour = optics.kelvin(temperature) * tint
    light = optics.Light(light_at, u_axis, v_axis, 1.0, colour, ambient,
                         optics.kelvin(rng.uniform(5500, 8000)) * 0.6 + optics.kelvin(temperature) * 0.4, gloss)
    said.append(f"{temperature:.0f} K balanced {balance:.0%}, light {light_size:.0f} mm, ambient {ambient:.2f}"
                + (f", glare {gloss:.2f}" if gloss > 0.1 else ""))
    radiance, table_kind = _picture(camera, paper, page, ppm, page_size, things, casters, light, rng)
    said.append(f"{table_kind} table")

    # -- the phone --
    picture = phone.develop(radiance, rng, light.colour, defocus=defocus, motion=motion, electrons=electrons,
                            balance=balance, vignette=rng.uniform(0.1, 0.4), sharpen=rng.uniform(0.3, 0.9))
    data = phone.jpeg(picture, quality, orientation, 2 if rng.random() < 0.8 else 1)
    said.append(f"defocus {defocus:.1f} px, motion {motion:.0f} px, {electrons:.0f} e-, JPEG {quality}"
                + (f", EXIF orientation {orientation}" if orientation != 1 else ""))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{index:06d}.jpg").write_bytes(data)
    truth = {"family": family, "conditions": "; ".join(said), "sheets": truths}
    (folder / f"{index:06d}.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")


def _off_frame(camera: optics.Camera, page_size: tuple[float, float], rng: np.random.Generator) -> list[Any]:
    """A hand held above the table outside the camera's view (it only casts a shadow), or nothing."""
    w, h = camera.size
    for _attempt in range(30):
        centre = np.array([rng.uniform(-0.3, 1.3) * page_size[0], rng.uniform(-0.3, 1.3) * page_size[1],
                           camera.pos[2] * rng.uniform(0.2, 0.6)])
        parts = scene.hovering(centre, rng.uniform(0, 2 * np.pi), rng)
        samples = np.concatenate([np.linspace(p.a, p.b, 12) for p in parts])
        local = (samples - camera.pos) @ camera.rot
        if (local[:, 2] < 30).any():
            continue
        pixels = camera.project(samples)
        margin = 45 * camera.focal / local[:, 2]
        seen = ((pixels[:, 0] > -margin) & (pixels[:, 0] < w + margin) & (pixels[:, 1] > -margin) &
                (pixels[:, 1] < h + margin))
        if not seen.any():
            return parts
    return []


def _occluders(camera: optics.Camera, paper: optics.Paper, page_size: tuple[float, float], places: list,
               layout_name: str, count: int, rng: np.random.Generator) -> tuple[list[Any], str]:
    """1-3 things lying over the page (fingers with their hand, a pen, dice, a coin), never over more than one
    corner marker nor over any sheet's code."""
    geo = sheet_geometry(layouts.load(layout_name))  # type: ignore[arg-type]
    keep: list[np.ndarray] = []
    code: list[np.ndarray] = []
    for (ox, oy), scale, _ in places:
        for x, y, w, h in geo.markers:
            keep.append(np.array([ox + (x + w / 2) * scale, oy + (y + h / 2) * scale]))
        x, y, w, h = geo.code
        code += [np.array([ox + (x + a * w) * scale, oy + (y + b * h) * scale]) for a in (0, 0.5, 1) for b in (0, 0.5, 1)]
    things: list[Any] = []
    names = []
    for _ in range(count):
        for _attempt in range(25):
            kind = str(rng.choice(["hand", "hand", "pen", "die", "coin"]))
            tip = np.array([rng.uniform(0.05, 0.95) * page_size[0], rng.uniform(0.1, 0.9) * page_size[1], 0.0])
            edge = np.argmin([tip[0], page_size[0] - tip[0], tip[1], page_size[1] - tip[1]])
            direction = [np.pi, 0, -np.pi / 2, np.pi / 2][edge] + rng.normal(0, 0.4)
            h = float(paper.h(np.array([tip[0]]), np.array([tip[1]]))[0][0])
            tip[2] = -h
            if kind == "hand":
                new = scene.hand(tip, direction, rng, int(rng.integers(1, 3)), 0.3)
            elif kind == "pen":
                new = scene.pen(tip, direction + np.pi / 2 * rng.choice([-1, 1]) * rng.uniform(0, 1), rng)
            elif kind == "die":
                new = [scene.die(tip, rng)]
            else:
                new = [scene.coin(tip, rng)]
            trial = things + new
            if _covered(camera, paper, keep, trial) <= 1 and _covered(camera, paper, code, trial) == 0:
                things = trial
                names.append(kind)
                break
    return things, "over the page: " + (", ".join(names) or "nothing")


def _covered(camera: optics.Camera, paper: optics.Paper, points: list[np.ndarray], things: list[Any]) -> int:
    """How many of the page points (mm) are hidden from the camera (or lie close to a hidden spot)."""
    hidden = 0
    for p in points:
        for dx, dy in ((0, 0), (-6, -6), (6, -6), (-6, 6), (6, 6)):
            q = np.array([p[0] + dx, p[1] + dy])
            z = -paper.h(q[:1], q[1:])[0][0]
            world = np.array([[q[0], q[1], z]])
            d = world - camera.pos
            d /= np.linalg.norm(d)
            sd, _, _, _ = optics.occlusion(camera.pos, d, things)
            if sd[0] < 3:
                hidden += 1
                break
    return hidden


def _grid(camera: optics.Camera, step: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel centres of a grid every `step` pixels, laid so that cv2.resize brings it back exactly."""
    w, h = camera.size
    return np.meshgrid(np.arange(w // step) * step + (step - 1) / 2, np.arange(h // step) * step + (step - 1) / 2)


def _picture(camera: optics.Camera, paper: optics.Paper, page: np.ndarray, ppm: float,
             page_size: tuple[float, float], things: list, casters: list, light: optics.Light,
             rng: np.random.Generator) -> tuple[np.ndarray, str]:
    """The scene's linear radiance as the lens lays it on the sensor."""
    w, h = camera.size

    def up(coarse: np.ndarray) -> np.ndarray:
        return cv2.resize(np.ascontiguousarray(coarse, np.float32), (w, h), interpolation=cv2.INTER_LINEAR)

    hit = optics.intersect(camera, paper, *_grid(camera, 8))
    px, py = up(hit["x"]), up(hit["y"])
    pixmm = up(hit["t"] / camera.focal)
    inside = np.minimum(np.minimum(px, page_size[0] - px), np.minimum(py, page_size[1] - py))
    mask = np.clip(inside / pixmm + 0.5, 0, 1)[..., None].astype(np.float32)
    albedo_page = cv2.remap(page, px * ppm - 0.5, py * ppm - 0.5, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    tx, ty = hit["tx"], hit["ty"]
    x0, y0 = float(np.clip(tx.min(), -3000, 3000)) - 5, float(np.clip(ty.min(), -3000, 3000)) - 5
    x1, y1 = float(np.clip(tx.max(), -3000, 3000)) + 5, float(np.clip(ty.max(), -3000, 3000)) + 5
    tppm = min(2.0, 1800 / max(x1 - x0, y1 - y0, 1))
    kind = str(rng.choice(scene.TABLES))
    texture = scene.table(kind, (int((y1 - y0) * tppm) + 2, int((x1 - x0) * tppm) + 2), tppm, rng)
    albedo_table = cv2.remap(texture, up((tx - x0) * tppm), up((ty - y0) * tppm), cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REFLECT)
    # light on a coarser grid: the page where the ray meets it, else the table
    lit = optics.intersect(camera, paper, *_grid(camera, 16))
    on_page = (lit["x"] >= 0) & (lit["x"] <= page_size[0]) & (lit["y"] >= 0) & (lit["y"] <= page_size[1])
    d, t = lit["d"], np.where(on_page, lit["t"], lit["t_table"])
    points = camera.pos + t[..., None] * d
    normals = np.where(on_page[..., None], lit["normal"], np.array([0, 0, -1.0]))
    e, seen = optics.irradiance(points, normals, light, casters, rng)
    g = optics.glare(points, normals, camera, light) * on_page * seen  # no glare where the lamp is hidden
    light_map = up(e)
    weight = mask[..., 0]
    contact = 1 - 0.35 * np.exp(np.minimum(inside, 0) / 2.5)  # the table darker right at the page's edge
    surface = cv2.blendLinear(albedo_page, albedo_table, weight, (1 - weight) * contact)
    radiance = cv2.multiply(surface, light_map)
    if g.max() > 1e-3:  # the glare, where there is any
        glow = up(g) * weight
        radiance = cv2.add(radiance, cv2.merge([glow * float(c) for c in light.colour]))
    if things:  # the occluders, met first by the rays (on a grid every 8 px, edges from the signed distance)
        od = camera.rays(*_grid(camera, 8))
        sd, ot, on, oc = optics.occlusion(camera.pos, od, things)
        meets = sd < 0.5
        opoints = camera.pos + np.where(meets, ot, 100.0)[..., None] * od
        oe, _ = optics.irradiance(opoints, on, light, [], rng, 4)
        spec = optics.glare(opoints, on, camera, optics.Light(light.centre, light.u * 3, light.v * 3, 1, light.colour,
                                                               0, light.colour, 0.25))
        orad = oc * oe + spec[..., None] * light.colour
        reach = np.where(meets, ot, -camera.pos[2] / np.maximum(od[..., 2], 0.05))  # a pixel's size there
        soft = up(np.clip(sd, -20, 20) / np.maximum(reach / camera.focal, 0.01))
        cover = np.clip(0.5 - soft, 0, 1)
        radiance = cv2.blendLinear(up(orad), radiance, cover, 1 - cover)
    return radiance.astype(np.float32, copy=False), kind


def _debug(page: np.ndarray, ppm: float, places: list, layout_name: str, truths: list, path: Path) -> None:
    """The flat marked page with every truth field outlined (crossed green, else red), lucky pair and order."""
    path.parent.mkdir(parents=True, exist_ok=True)
    srgb = np.clip(np.power(np.clip(page, 0, 1), 1 / 2.2) * 255, 0, 255).astype(np.uint8)
    out = cv2.cvtColor(srgb, cv2.COLOR_RGB2BGR)
    geo = sheet_geometry(layouts.load(layout_name))  # type: ignore[arg-type]
    green, red = (0, 170, 0), (0, 0, 230)

    def rect(ox: float, oy: float, s: float, x: float, y: float, w: float, h: float, on: bool) -> None:
        a = (int((ox + x * s) * ppm), int((oy + y * s) * ppm))
        b = (int((ox + (x + w) * s) * ppm), int((oy + (y + h) * s) * ppm))
        cv2.rectangle(out, a, b, green if on else red, 2)

    for ((ox, oy), s, _), truth in zip(places, truths):
        for r, row in enumerate(geo.rows):
            numbers = truth["numbers"][r] if truth["numbers"] else list(layouts.load(layout_name).rows[r].numbers)  # type: ignore[union-attr]
            for (x, y, side), n in zip(row.cells, numbers):
                rect(ox, oy, s, x, y, side, side, n in truth["rows"][r]["crossed"])
                cv2.putText(out, str(n), (int((ox + x * s) * ppm), int((oy + (y + side) * s) * ppm)),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
            lx, ly, lr = row.lock
            rect(ox, oy, s, lx - lr, ly - lr, 2 * lr, 2 * lr, truth["rows"][r]["lock"])
        for i, (x, y, w, h) in enumerate(geo.penalty_boxes):
            rect(ox, oy, s, x, y, w, h, i < truth["penalties"])
        bonus = truth["bonus"] or {}
        for (x, y, w, h), on in zip(geo.bonus_row, bonus.get("row", [])):
            rect(ox, oy, s, x, y, w, h, on)
        for (x, y, w, h), letter in zip(geo.bonus_boxes, "ABCDE"):
            rect(ox, oy, s, x, y, w, h, bonus.get("boxes", {}).get(letter, False))
        cv2.putText(out, f"lucky {truth['lucky']}", (int((ox + 40 * s) * ppm), int((oy + 12 * s) * ppm)),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 0, 255), 2)
    cv2.imwrite(str(path), out)
