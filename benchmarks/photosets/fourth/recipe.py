"""Recipe: a photo's index, seed and family in, the photo (JPEG) and its truth (JSON) written to a folder out.

Every family starts from ordinary conditions (a table, room light, a held
phone) and changes what it is about; everything follows from the seed.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.photosets.fourth import brush, camera, game, light, marks, phone, printing, scene
from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.builders.scoresheet import _line_end
from printgen.labels import catalogue
from printgen.printing.imposition import plan_grid

LAYOUTS = ("qwixx-standard", "qwixx-big-points", "qwixx-bonus-a", "qwixx-bonus-b", "qwixx-cards",
           "qwixx-gemixxt-a", "qwixx-gemixxt-b")
LANGS = ("en", "en", "en", "de", "fr", "it", "pl")
A4 = (210.0, 297.0)
SIZES = (2560, 2592, 2816, 3000, 3000, 3264, 3264, 3264, 4000)
"""The photo's long side (4:3 frames)."""


@dataclass
class Shot:
    """What a family sets."""

    tilt: tuple[float, float] = (0.0, 15.0)
    roll_any: float = 0.12
    fill: tuple[float, float] = (0.5, 0.88)
    bends: tuple[str, ...] = ("flat", "flat", "curl", "hump")
    radius: tuple[float, float] = (150.0, 400.0)
    mix: tuple[float, float] = (0.0, 0.08)
    k1: tuple[float, float] = (-0.03, 0.03)
    whites: tuple[str, ...] = ("daylight", "overcast", "warm LED", "fluorescent")
    balance: tuple[float, float] = (0.6, 0.95)
    shadows: tuple[int, int] = (0, 0)
    gloss: tuple[float, float] = (0.0, 0.08)
    gradient: float = 0.15
    blur: tuple[float, float] = (0.0, 1.2)
    motion: tuple[float, float] = (0.0, 0.0)
    photons: tuple[float, float] = (2500.0, 9000.0)
    quality: tuple[int, int] = (78, 95)
    occluders: tuple[int, int] = (0, 0)
    orientation: bool = False
    varied_pens: bool = False
    twoup: bool = False


FAMILIES_SHOTS = {
    "mild": Shot(),
    "tilt": Shot(tilt=(25.0, 40.0), roll_any=0.25, fill=(0.45, 0.8)),
    "exif": Shot(orientation=True, roll_any=0.0),
    "light": Shot(whites=("tungsten", "shade", "warm LED", "fluorescent", "tungsten"), balance=(0.15, 0.6),
                  shadows=(1, 2), gloss=(0.25, 0.9), gradient=0.45),
    "lens": Shot(bends=("curl", "cone", "rolled", "hump", "curl"), radius=(35.0, 110.0), mix=(0.45, 1.0),
                 k1=(-0.12, 0.12), fill=(0.6, 0.9), tilt=(0.0, 25.0)),
    "degraded": Shot(blur=(1.5, 4.5), motion=(0.0, 22.0), photons=(120.0, 600.0), quality=(40, 60)),
    "occluded": Shot(occluders=(1, 3)),
    "pens": Shot(varied_pens=True),
    "twoup": Shot(twoup=True, fill=(0.55, 0.9)),
}


def _u(rng: np.random.Generator, span: tuple[float, float]) -> float:
    return float(rng.uniform(*span))


def make(index: int, seed: int, family: str, folder: Path, debug: Path | None = None) -> None:
    """Write the photo and its truth (`debug`: also the flat marked page with the truth's fields drawn on it)."""
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    shot = FAMILIES_SHOTS[family]
    layout_name = LAYOUTS[(index + int(rng.integers(0, 7))) % len(LAYOUTS)]
    layout: Any = layouts.load(layout_name)
    varied = layout_name in ("qwixx-big-points", "qwixx-gemixxt-b")
    shuffle = layout_name == "qwixx-gemixxt-b" and rng.random() < 0.75
    pad = printing.Pad(layout_name, lang=str(rng.choice(LANGS)), symbols=bool(rng.random() < 0.25),
                       seed=int(rng.integers(1, 7)) if varied else 1, sheets=8, per_page=2 if shot.twoup else 1,
                       shuffle=shuffle)
    dealt = game.printed(layout_name, pad.seed, pad.sheets, shuffle)
    if shot.twoup:
        grid = plan_grid(A4, layout.width, layout.height, 2)
        page_size = (grid.page_w, grid.page_h)
        page_number = int(rng.integers(0, 4))
        sheet_numbers = [2 * page_number, 2 * page_number + 1]
        places = [(grid.cell(i), grid.scale) for i in range(2)]
        page_number += 1
    else:
        page_size = (layout.width, layout.height)
        sheet_numbers = [int(rng.integers(0, pad.sheets))]
        page_number = sheet_numbers[0] + 1
        places = [((0.0, 0.0), 1.0)]
    tracked = [dealt[n] for n in sheet_numbers]
    sheets, how = game.play(layout_name, tracked, prng)
    truths = [game.truth(layout_name, s, t["lucky"], t["numbers"]) for s, t in zip(sheets, tracked)]

    # the camera
    landscape_page = page_size[0] > page_size[1]
    big = int(rng.choice(SIZES))
    tilt = _u(rng, shot.tilt)
    azimuth = float(rng.uniform(0, 360))
    if rng.random() < shot.roll_any:
        roll = float(rng.choice([90.0, 180.0, -90.0])) + float(rng.normal(0, 6))
    else:
        roll = float(rng.normal(0, 5))
    turned = abs(((roll + 45) % 180) - 45) > 45  # the page lies across the frame
    portrait = landscape_page == turned
    orientation = int(rng.integers(2, 9)) if shot.orientation else 1
    if portrait != (orientation >= 5):  # the stored photo stands upright: still at least 2500 px wide
        big = max(big, 3344)
    size = (big * 3 // 4, big) if portrait else (big, big * 3 // 4)
    bend_kind = str(rng.choice(shot.bends))
    angle = float(rng.uniform(0, 2 * math.pi))
    if bend_kind in ("rolled", "hump"):
        angle = float(rng.choice([0.0, math.pi / 2]))
    axis = (math.cos(angle), math.sin(angle))
    extent = abs(axis[0]) * page_size[0] / 2 + abs(axis[1]) * page_size[1] / 2
    radius = _u(rng, shot.radius)
    taper = float(rng.uniform(-0.5, 0.5)) if bend_kind == "cone" else 0.0
    start = extent * float(rng.uniform(0.35, 0.85))
    start = max(start, extent - 1.4 * radius * (1 - abs(taper)))  # never rolled past 80°: the back stays unseen
    bend = camera.Bend(bend_kind, axis, start=start, radius=radius, taper=taper)
    if bend_kind == "hump":
        bend.start = extent
        bend.radius = max(radius, extent * 2.2)
    fill = _u(rng, shot.fill)
    mix, k1 = _u(rng, shot.mix), _u(rng, shot.k1)
    room_left = min(0.08, (1 - fill) / (2 * fill) * 0.8)  # the whole page stays in the frame
    offset = (float(rng.uniform(-room_left, room_left)), float(rng.uniform(-room_left, room_left)))
    cam = camera.frame(bend, *page_size, tilt, azimuth, roll, fill, size, mix, k1, offset)

    # the page, printed, marked
    mesh_px, mesh_mm, mesh_depth, mesh_world = camera.page_mesh(bend, *page_size, cam)
    span = np.linalg.norm(mesh_px[1] - mesh_px[0]) / (mesh_mm[1, 0] - mesh_mm[0, 0])
    spans = np.linalg.norm(np.diff(mesh_px.reshape(33, 49, 2), axis=1), axis=2) / (page_size[0] / 48)
    ppm = float(np.clip(max(span, float(spans.max())) * 1.1, 7.0, 14.0))
    printed = printing.page_pixels(pad, page_number, page_size, ppm)
    ink = brush.Sheetink(printed.shape[:2], ppm, rng)
    kinds: set[str] = set()
    for sheet, ((ox, oy), scale) in zip(sheets, places):
        if shot.varied_pens:
            pen = brush.random_pen(rng, str(rng.choice(["blue", "black", "red", "green", "pencil"])))
        else:
            pen = brush.random_pen(rng)
        habit = str(rng.choice(marks.KINDS))
        hand = marks.Hand(habit, float(rng.uniform(0.55, 0.95)), float(rng.uniform(0.3, 1.0)), pen,
                          varied=shot.varied_pens)
        labels = catalogue(pad.lang)
        g = sheet_geometry(layout)
        end = _line_end(layout, labels)
        name_line = (end - 38.0, end - 2.0, g.title_baseline)
        kinds.update(marks.draw_sheet(ink, layout, sheet, (ox, oy), scale, hand, name_line, rng))
        kinds.add(f"{pen.colour} {pen.kind}")
    density, graphite = ink.density()
    paper, print_note = printing.inkjet(printed, ppm, rng, density)
    del printed, density
    if debug is not None:
        _debug(debug, paper, ppm, layout, places, truths)

    # the light on the page (coarse, page coordinates)
    room = _room(rng, shot, page_size)
    if room.gloss > 0.2:  # the lamp placed where its mirror image lands on the page
        spot = np.array([rng.uniform(-0.4, 0.4) * page_size[0], rng.uniform(-0.4, 0.4) * page_size[1], 0.0])
        mirrored = cam.position * np.array([1.0, 1.0, -1.0])
        way = (spot - mirrored) / np.linalg.norm(spot - mirrored)
        lamp = spot + way * rng.uniform(500, 1300) / way[2]
        room.lamp = (float(lamp[0]), float(lamp[1]), float(lamp[2]))
    rows, cols = 33, 49
    world = mesh_world.reshape(rows, cols, 3)
    du = np.gradient(world, axis=1)
    dv = np.gradient(world, axis=0)
    normals = np.cross(dv, du)
    normals /= np.linalg.norm(normals, axis=-1, keepdims=True)
    normals *= np.sign(normals[..., 2:3] + 1e-9)
    page_light = light.irradiance(room, world, normals)
    page_glare = light.glare(room, world, normals, cam.position)

    # the photo: paper and table through the mesh warp
    mx, my, cover = camera.mesh_map(mesh_px, mesh_mm, mesh_depth, cols, rows, size, step=2)
    image = cv2.remap(paper, mx * ppm - 0.5, my * ppm - 0.5, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gx = mx / page_size[0] * (cols - 1)
    gy = my / page_size[1] * (rows - 1)
    lit = cv2.remap(page_light, gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    shine = cv2.remap(page_glare, gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if graphite.any() and room.gloss > 0:
        sheen = cv2.remap(graphite, mx * ppm - 0.5, my * ppm - 0.5, cv2.INTER_LINEAR)
        shine = shine * (1 + 2.0 * sheen)
    image *= lit[..., None]
    image += shine[..., None]

    reach = float(np.linalg.norm(cam.position)) * 4.0 + max(page_size)
    t_px, t_mm, t_depth = camera.table_mesh(cam, reach)
    half = ((size[0] + 1) // 2, (size[1] + 1) // 2)
    tx, ty, t_cover = camera.mesh_map(t_px / 2, t_mm, t_depth, 41, 41, half, step=2)
    kind = str(rng.choice(scene.TABLES))
    table = scene.table(kind, rng, tx, ty)
    if t_cover.min() < 1:  # past the table's mesh (a wide lens's corners): the table's own mean colour
        table[t_cover < 0.5] = table[t_cover >= 0.5].mean(axis=0) if (t_cover >= 0.5).any() else 0.3
    table_light = light.irradiance_table(room, tx, ty)
    dx = np.maximum(np.abs(tx) - page_size[0] / 2, 0)
    dy = np.maximum(np.abs(ty) - page_size[1] / 2, 0)
    contact = 1 - 0.35 * np.exp(-np.hypot(dx, dy) / (2.0 + 0.1 * bend.radius * (bend.kind != "flat")))
    table = table * (table_light * contact)[..., None]
    table = cv2.resize(table, size, interpolation=cv2.INTER_LINEAR)
    image -= table
    image *= cover[..., None]
    image += table
    del table

    # cast shadows (in table coordinates; the paper's own points lie over the table's)
    if room.shadows:
        sx = np.where(cover[::2, ::2] > 0.5, mx[::2, ::2] - page_size[0] / 2, cv2.resize(tx, (mx[::2, ::2].shape[1],
                                                                                                mx[::2, ::2].shape[0])))
        sy = np.where(cover[::2, ::2] > 0.5, my[::2, ::2] - page_size[1] / 2, cv2.resize(ty, (sx.shape[1],
                                                                                                sx.shape[0])))
        factor = light.shadow_factor(room, sx.astype(np.float32), sy.astype(np.float32))
        image *= cv2.resize(factor, size, interpolation=cv2.INTER_LINEAR)[..., None]
    image *= room.colour()[None, None, :]

    # fingers and pens over the page
    occluders = []
    count = int(rng.integers(shot.occluders[0], shot.occluders[1] + 1))
    if count:
        px_per_mm = float(span)
        occluders = _occlude(image, rng, count, layout, places, bend, page_size, cam, px_per_mm, size,
                             room.colour() * float(np.median(page_light)))

    # the phone
    photons = math.exp(_u(rng, (math.log(shot.photons[0]), math.log(shot.photons[1]))))
    blur = _u(rng, shot.blur)
    motion = _u(rng, shot.motion) if rng.random() < 0.6 else 0.0
    rgb, phone_note = phone.develop(image, rng, blur=blur, motion=motion, photons=photons,
                                    balance=_u(rng, shot.balance), sharpen=float(rng.uniform(0.2, 1.0)),
                                    vignette=float(rng.uniform(0.05, 0.35)))
    quality = int(rng.integers(shot.quality[0], shot.quality[1] + 1))
    data = phone.jpeg(rgb, quality, orientation)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{index:06d}.jpg").write_bytes(data)
    conditions = (f"{layout_name} {pad.lang}{' symbols' if pad.symbols else ''}, {how}; {print_note}; "
                  f"tilt {tilt:.0f}° roll {roll:.0f}°, {bend.kind} r {bend.radius:.0f} mm, lens mix {mix:.2f} "
                  f"k1 {k1:+.2f}, fill {fill:.2f}; {kind} table, {room.white}, "
                  f"shadows {[s.kind for s in room.shadows]}, gloss {room.gloss:.2f}; "
                  f"{'occluders ' + ', '.join(occluders) + '; ' if occluders else ''}marks {sorted(kinds)}; "
                  f"{phone_note}, JPEG {quality}, EXIF {orientation}; {size[0]}x{size[1]}")
    truth = {"family": family, "conditions": conditions, "sheets": truths}
    (folder / f"{index:06d}.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")


def _room(rng: np.random.Generator, shot: Shot, page_size: tuple[float, float]) -> light.Room:
    side = rng.normal(0, 0.12, 3)
    side[2] = abs(side[2])
    lamp_angle = rng.uniform(0, 2 * math.pi)
    lamp_far = rng.uniform(150, 700)
    room = light.Room(
        white=str(rng.choice(shot.whites)), ambient=float(rng.uniform(0.55, 0.8)), side=tuple(side),
        above=float(rng.uniform(0.0, 0.1)),
        gradient=(float(rng.normal(0, shot.gradient)), float(rng.normal(0, shot.gradient))),
        lamp=(lamp_far * math.cos(lamp_angle), lamp_far * math.sin(lamp_angle), float(rng.uniform(600, 1500))),
        lamp_power=float(rng.uniform(0.2, 0.5)), gloss=_u(rng, shot.gloss), shine=float(rng.uniform(15, 80)))
    for _ in range(int(rng.integers(shot.shadows[0], shot.shadows[1] + 1))):
        near = (float(rng.uniform(-0.5, 0.5) * page_size[0]), float(rng.uniform(-0.5, 0.5) * page_size[1]))
        maker = [light.phone_shadow, light.hand_shadow, light.cup_shadow][int(rng.integers(0, 3))]
        room.shadows.append(maker(rng, near))
    if not room.shadows and rng.random() < 0.3:  # ordinary rooms: now and then a faint, soft shadow
        near = (float(rng.uniform(-0.6, 0.6) * page_size[0]), float(rng.uniform(-0.6, 0.6) * page_size[1]))
        shadow = light.hand_shadow(rng, near)
        shadow.height, shadow.depth = float(rng.uniform(300, 600)), float(rng.uniform(0.1, 0.25))
        room.shadows.append(shadow)
    return room


def _occlude(image: np.ndarray, rng: np.random.Generator, count: int, layout: Any,
             places: list[tuple[tuple[float, float], float]], bend: camera.Bend, page_size: tuple[float, float],
             cam: camera.Camera, px_per_mm: float, size: tuple[int, int], tint: np.ndarray) -> list[str]:
    """Fingers, thumbs and pens reaching in from the frame's edge to a field, clear of the scan marks."""
    g = sheet_geometry(layout)
    (ox, oy), scale = places[int(rng.integers(0, len(places)))]
    keep_out = [(x + w / 2, y + h / 2, max(w, h) * 0.85) for x, y, w, h in (*g.markers, g.code)]
    keep = []
    for (px, py), s in places:
        keep += [(px + cx * s, py + cy * s, r * s) for cx, cy, r in keep_out]
    keep_u = np.array([k[0] for k in keep])
    keep_v = np.array([k[1] for k in keep])
    keep_px, _ = cam.project(bend.lift(keep_u, keep_v, *page_size))
    keep_r = np.array([k[2] for k in keep]) * px_per_mm + px_per_mm * 12
    targets = [(x + side / 2, y + side / 2) for row in g.rows for x, y, side in row.cells]
    targets += [(x + w / 2, y + h / 2) for x, y, w, h in g.penalty_boxes]
    drawn = []
    light_side = float(rng.choice([-1.0, 1.0]))
    for _ in range(count):
        for _attempt in range(12):
            fx, fy = targets[int(rng.integers(0, len(targets)))]
            u, v = ox + fx * scale, oy + fy * scale
            tip, _ = cam.project(bend.lift(np.array([u]), np.array([v]), *page_size))
            tip = tip[0] + rng.normal(0, px_per_mm * 3, 2)
            edges = [np.array([tip[0], -size[1] * 0.1]), np.array([tip[0], size[1] * 1.1]),
                     np.array([-size[0] * 0.1, tip[1]]), np.array([size[0] * 1.1, tip[1]])]
            nearest = min(edges, key=lambda e: float(np.linalg.norm(e - tip)))
            base = nearest + rng.normal(0, size[0] * 0.08, 2)
            kind = str(rng.choice(["finger", "finger", "thumb", "pen"]))
            knuckle = base
            if kind != "pen":  # a finger is 60-80 mm long; the hand behind it reaches out of the frame
                length = float(np.linalg.norm(base - tip))
                knuckle = tip + (base - tip) * min(1.0, px_per_mm * rng.uniform(60, 80) / max(length, 1.0))
            if _clear(tip, knuckle, keep_px, keep_r) and (kind == "pen" or _clear(knuckle, base, keep_px,
                                                                                  keep_r + px_per_mm * 35)):
                break
        else:
            continue
        scene.occluder(image, kind, tip, knuckle, px_per_mm, rng, light_side, tint, hand_to=base)
        drawn.append(kind)
    return drawn


def _clear(tip: np.ndarray, base: np.ndarray, points: np.ndarray, radii: np.ndarray) -> bool:
    d = base - tip
    length2 = float(d @ d) + 1e-9
    t = np.clip(((points - tip) @ d) / length2, 0, 1)
    nearest = tip + t[:, None] * d
    return bool((np.linalg.norm(points - nearest, axis=1) > radii).all())


def _debug(path: Path, paper: np.ndarray, ppm: float, layout: Any, places: list[tuple[tuple[float, float], float]],
           truths: list[dict[str, Any]]) -> None:
    """The flat page with every truth field outlined: green crossed, red not; the truth's code written beside."""
    from printgen.marks.codes import SheetCode
    from printgen.scan.template import fields

    shown = np.clip(paper ** (1 / 2.2) * 255, 0, 255).astype(np.uint8)[..., ::-1].copy()
    for ((ox, oy), scale), truth in zip(places, truths):
        numbers = tuple(tuple(row) for row in truth["numbers"]) if truth["numbers"] else None
        code = SheetCode(layout.name, "1", "en", False, tuple(truth["lucky"]) if truth["lucky"] else None, numbers)
        for field in fields(layout, code):
            if field.kind == "number":
                crossed = field.number in truth["rows"][field.index]["crossed"]
            elif field.kind == "lock":
                crossed = truth["rows"][field.index]["lock"]
            elif field.kind == "penalty":
                crossed = field.index < truth["penalties"]
            elif field.kind == "bonus-row":
                crossed = truth["bonus"]["row"][field.index]
            else:
                crossed = truth["bonus"]["boxes"]["ABCDE"[field.index - 1]]
            x, y, w, h = field.box
            p0 = (round((ox + x * scale) * ppm), round((oy + y * scale) * ppm))
            p1 = (round((ox + (x + w) * scale) * ppm), round((oy + (y + h) * scale) * ppm))
            cv2.rectangle(shown, p0, p1, (0, 200, 0) if crossed else (0, 0, 255), 3 if crossed else 1)
            if field.kind == "number":
                cv2.putText(shown, str(field.number), (p0[0] + 2, p1[1] - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                            (255, 0, 255), 1)
        label = f"lucky {truth['lucky']} numbers {truth['numbers']}"
        cv2.putText(shown, label, (round(ox * ppm) + 10, round((oy + 3 * scale) * ppm)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.7, (255, 0, 255), 2)
    cv2.imwrite(str(path), shown)
