"""One photo from a recipe: the printed page filled in, laid on a table, lit, shot and saved with its truth."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks.photosets.dev import camera as cam
from benchmarks.photosets.dev import scene
from benchmarks.photosets.dev.pens import (
    TO_LINEAR,
    Canvas,
    Hand,
    Pen,
    big_cross,
    mark,
    strike,
    write,
    write_name,
)
from benchmarks.photosets.dev.play import Played, play, truth
from benchmarks.photosets.dev.printed import PadKey, PlacedSheet, print_look, render_page
from benchmarks.photosets.dev.recipe import Recipe
from benchmarks.photosets.dev.sensor import Sensor, expose, save, uneven, vignette_field


def fill_in(canvas: Canvas, placed: PlacedSheet, played: Played, hand: Hand) -> list[dict[str, Any]]:
    """Draw `played`'s marks on the sheet at `placed` as `hand` makes them; the fields (page mm) and what is
    in them, for the things that may lie over them later."""
    from printgen import layouts
    from printgen.builders.geometry import sheet_geometry

    rng = canvas.rng
    layout = layouts.load(placed.layout)
    geometry = sheet_geometry(layout)
    sheet = played.sheet
    s = placed.scale
    fields: list[dict[str, Any]] = []

    def at(x: float, y: float) -> tuple[float, float]:
        return placed.to_page(x, y)

    def style_for(allowed: tuple[str, ...]) -> str:
        style = hand.style(rng)
        return style if style in allowed else "x"

    for index, row in enumerate(geometry.rows):
        order = sheet.spec.rows[index].numbers
        if placed.numbers is not None:
            assert tuple(placed.numbers[index]) == tuple(order), "the game was played on another order"
        marked, skipped = set(sheet.marked(index)), set(sheet.skipped(index))
        for position, ((x, y, side), number) in enumerate(zip(row.cells, order)):
            cx, cy = at(x + side / 2, y + side / 2)
            crossed = number in marked
            fields.append({"centre": (cx, cy), "side": side * s, "crossed": crossed})
            if crossed:
                style = hand.style(rng)
                target = None
                if style == "overrun" or rng.random() < hand.overrun:
                    style = "overrun"
                    beside = position + 1 if position + 1 < len(row.cells) else position - 1
                    neighbour = row.cells[beside]
                    nx, ny, nside = neighbour
                    into = rng.uniform(0.15, 0.5)  # of the neighbour's width, from its near edge
                    target = at(nx + nside * (into if beside > position else 1 - into),
                                ny + nside * rng.uniform(0.3, 0.85))
                mark(canvas, hand, style, cx, cy, side * s, target)
            elif number in skipped and rng.random() < hand.strikes_skipped:
                strike(canvas, hand, cx, cy, side * s)
        lx, ly, r = row.lock
        cx, cy = at(lx, ly)
        fields.append({"centre": (cx, cy), "side": 2 * r * s, "crossed": sheet.is_locked(index)})
        if sheet.is_locked(index):
            mark(canvas, hand, style_for(("x", "slash", "tick", "blob", "scribble")), cx, cy, 2 * r * s * 0.9)
        elif sheet.is_closed(index) and rng.random() < hand.strikes_closed:
            strike(canvas, hand, cx, cy, 2 * r * s)
    for k, (x, y, w, h) in enumerate(geometry.penalty_boxes):
        cx, cy = at(x + w / 2, y + h / 2)
        fields.append({"centre": (cx, cy), "side": min(w, h) * s, "crossed": k < sheet.penalties})
        if k < sheet.penalties:
            mark(canvas, hand, style_for(("x", "slash", "tick")), cx, cy, min(w, h) * s)
    for (x, y, w, h), state in zip(geometry.bonus_row, sheet.bonus_row()):
        cx, cy = at(x + w / 2, y + h / 2)
        fields.append({"centre": (cx, cy), "side": min(w, h) * s, "crossed": state == "struck"})
        if state == "struck":
            mark(canvas, hand, style_for(("x", "slash", "tick", "blob")), cx, cy, min(w, h) * s)
    won = set(sheet.bonus_kinds())
    for kind, (x, y, w, h) in enumerate(geometry.bonus_boxes, start=1):
        cx, cy = at(x + w / 2, y + h / 2)
        fields.append({"centre": (cx, cy), "side": h * s, "crossed": kind in won})
        if kind in won:
            how = rng.random()
            if how < 0.55:
                bx, by = at(x, y)
                big_cross(canvas, hand, bx, by, w * s, h * s)
            elif how < 0.8:
                mark(canvas, hand, "x", *at(x + 1.2 + 2.8, y + h / 2), 7.0 * s)
            else:
                mark(canvas, hand, style_for(("tick", "x")), cx, cy, h * s)
    if hand.writes_name:
        x0, base = at(layout.width * 0.5 + rng.uniform(0, 6), geometry.title_baseline - 0.3)
        write_name(canvas, hand, x0, base, rng.uniform(18, 32) * s, rng.uniform(3.5, 5.5) * s)
    if played.finished and hand.writes_totals:
        height = rng.uniform(4.5, 6.5) * s
        for (x, y, w, h), value in zip(geometry.totals, played.totals):
            text = str(value)
            left, base = at(x + w / 2, y + h * 0.78)
            write(canvas, hand, text, left - len(text) * height * 0.4, base, height)
    return fields


def _crease(canvas: Canvas, bend: cam.Bend, size: tuple[float, float]) -> None:
    """The line a soft fold leaves in the paper."""
    w, h = size
    p = bend.params
    centre = np.array([p["x"] * w, p["y"] * h])
    along = np.array([-math.sin(p["angle"]), math.cos(p["angle"])]) * (w + h)
    points = np.array([centre - along, centre + along])
    canvas.stroke(points, Pen("felt", "graphite", 0.35, 0.12), 1.0, 0.2)


def make_photo(recipe: Recipe, rng: np.random.Generator, jpg: Path, truth_path: Path) -> None:
    """Make and write the photo and its truth."""
    from printgen import layouts

    key = PadKey(recipe.layout, recipe.lang, recipe.symbols, recipe.per_page, recipe.shuffle, recipe.pad_seed)
    page = render_page(key, recipe.page, recipe.px_per_mm)
    look = print_look(page, rng)
    who = list(range(len(page.sheets)))
    games = play(layouts.load(recipe.layout).rules, max(recipe.players, len(who)), recipe.game_seed, who,
                 recipe.stop, [s.lucky for s in page.sheets], [s.numbers for s in page.sheets], recipe.strategies)
    canvas = Canvas(page.image, page.px_per_mm, rng)
    truths, fields = [], []
    for placed, played, hand in zip(page.sheets, games, recipe.hands):
        fields += fill_in(canvas, placed, played, hand)
        truths.append(truth(played, placed.layout, placed.lucky, placed.numbers))
    for bend in recipe.bends:
        if bend.kind == "fold":
            _crease(canvas, bend, page.size)

    surface = cam.Surface(page.size[0], page.size[1], recipe.bends)
    camera = cam.place_camera(surface, recipe.size, recipe.focal * max(recipe.size), recipe.k1, recipe.k2,
                              recipe.tilt, recipe.azimuth, recipe.roll, recipe.fill, rng)
    warp = cam.cast(camera, surface, 8)
    light = np.array([math.cos(recipe.light_azimuth) * math.cos(recipe.light_elevation),
                      math.sin(recipe.light_azimuth) * math.cos(recipe.light_elevation),
                      math.sin(recipe.light_elevation)])
    optical = recipe.blur if recipe.blur <= 1.0 else 0.0  # slight: blurred on the flat page (cheaper)
    lit, alpha, picture_ppm = _laid_out(recipe, rng, page.image, page.px_per_mm, surface, camera, warp, light,
                                        optical)
    light2d = (camera.rotation @ -light)[:2]
    light2d = light2d / max(float(np.hypot(*light2d)), 1e-6)
    things = _things(recipe, rng, camera, surface, page, fields, lit, alpha, light2d, picture_ppm)
    shadows = _lit(recipe, rng, lit, camera, surface, warp)
    sensor = Sensor(blur=recipe.blur - optical, motion=recipe.motion, motion_angle=recipe.motion_angle,
                    photons=recipe.photons, read=recipe.read,
                    white_level=recipe.white_level, contrast=recipe.contrast, sharpen=recipe.sharpen,
                    denoise=recipe.denoise, quality=recipe.quality, orientation=recipe.orientation)
    save(expose(lit, sensor, _paper_white(lit, alpha), rng), jpg, sensor)

    hands = "; ".join(f"{h.pen.kind} {h.pen.ink} {h.pen.width:.2f}mm "
                      f"{'/'.join(k for k, v in h.styles.items() if v > 0)}"
                      + (f" overrun {h.overrun:.2f}" if h.overrun else "") for h in recipe.hands[:len(truths)])
    stopped = f"stopped at {recipe.stop:.0%}" if recipe.stop and not games[0].finished else "game over"
    conditions = (
        f"{recipe.layout} {recipe.lang}{' symbols' if recipe.symbols else ''}"
        f"{' shuffled' if recipe.shuffle else ''} {recipe.per_page}-up {recipe.px_per_mm:.1f}px/mm; {stopped}; "
        f"{hands}; {recipe.size[0]}x{recipe.size[1]}, tilt {math.degrees(recipe.tilt):.0f}°, "
        f"roll {math.degrees(recipe.roll) % 360:.0f}°, fill {recipe.fill:.2f}, k1 {recipe.k1:+.3f}, "
        f"paper {surface.describe()}; {recipe.kelvin:.0f}K balanced {recipe.balance:.0%}, "
        f"uneven {recipe.uneven:.0%}"
        + (f", hard shadow {'/'.join(shadows)} light left" if shadows else "")
        + (f", glare {'/'.join(format(g, '.1f') for g in recipe.glare)}" if recipe.glare else "")
        + f"; {recipe.background} table{things}; {recipe.blur:.1f}px blur, {sensor.describe()}; "
        f"print saturation {look['saturation']:.2f}")
    record = {"family": recipe.family, "conditions": conditions, "sheets": truths}
    truth_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _laid_out(recipe: Recipe, rng: np.random.Generator, image: np.ndarray, px_per_mm: float,
              surface: cam.Surface, camera: cam.Camera, warp: cam.Warp, light: np.ndarray, optical: float
              ) -> tuple[np.ndarray, np.ndarray, float]:
    """The page on the table as the camera sees it (linear light before the light's colour and shapes), the
    paper's coverage, and how many picture pixels a mm of paper takes at most."""
    size = recipe.size
    grid_u, grid_v = np.meshgrid(np.linspace(0, surface.width, 9), np.linspace(0, surface.height, 9))
    here = camera.project(cam.on_surface(surface, grid_u, grid_v))
    there = camera.project(cam.on_surface(surface, grid_u + 1, grid_v))
    there_v = camera.project(cam.on_surface(surface, grid_u, grid_v + 1))
    picture_ppm = float(max(np.hypot(*(there - here).T).max(), np.hypot(*(there_v - here).T).max()))
    texture, tex_ppm = image, px_per_mm
    if picture_ppm * 1.2 < tex_ppm:  # the page first shrunk to about the picture's scale
        factor = picture_ppm * 1.2 / tex_ppm
        texture = cv2.resize(texture, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
        tex_ppm = tex_ppm * factor
    rgba = cv2.cvtColor(texture, cv2.COLOR_RGB2RGBA)
    if optical > 0.3:
        rgba = cv2.GaussianBlur(rgba, (0, 0), optical * tex_ppm / picture_ppm * 1.25)
    paper_map = warp.full(np.dstack([warp.paper_u * tex_ppm - 0.5, warp.paper_v * tex_ppm - 0.5]), size)
    paper = cv2.remap(rgba, paper_map, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    del paper_map, rgba

    reach = 4 * max(surface.width, surface.height)
    tu = np.clip(warp.table_u, -reach, surface.width + reach)
    tv = np.clip(warp.table_v, -reach, surface.height + reach)
    u0, v0 = float(tu.min()), float(tv.min())
    extent = max(float(tu.max()) - u0, float(tv.max()) - v0, 1.0)
    table_ppm = max(0.4, min(picture_ppm, 1500 / extent))
    table_shape = (int((float(tv.max()) - v0) * table_ppm) + 2, int((float(tu.max()) - u0) * table_ppm) + 2)
    table = scene.table(recipe.background, rng, table_shape, table_ppm)
    if optical > 0.3:
        table = cv2.GaussianBlur(table, (0, 0), max(optical * table_ppm / picture_ppm * 1.25, 0.3))
    table_map = warp.full(np.dstack([(tu - u0) * table_ppm - 0.5, (tv - v0) * table_ppm - 0.5]), size)
    ground = cv2.remap(table, table_map, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    del table_map

    # the bent paper's shading; the table dark under a lifted paper, a contact shadow round its edge
    flat = recipe.ambient + (1 - recipe.ambient) * light[2]
    paper_shade = (recipe.ambient + (1 - recipe.ambient) * np.clip(warp.normal @ light, 0, 1)) / flat
    outside = np.hypot(np.maximum(np.maximum(-tu, tu - surface.width), 0),
                       np.maximum(np.maximum(-tv, tv - surface.height), 0))
    table_shade = np.where(outside > 0, 1 - 0.35 * np.exp(-outside / (1.0 + 0.3 * surface.z(tu, tv))),
                           0.3 + 0.45 * np.clip(warp.height_on_table / 25, 0, 1))
    alpha = paper[:, :, 3].astype(np.float32) * (1 / 255)
    shades = warp.full(np.dstack([paper_shade, table_shade]), size)
    weight_paper = shades[:, :, 0] * alpha
    weight_table = shades[:, :, 1] * (1 - alpha)
    del shades
    lit = cv2.LUT(paper[:, :, :3], TO_LINEAR)
    lit *= weight_paper[:, :, None]
    floor = cv2.LUT(ground, TO_LINEAR)
    floor *= weight_table[:, :, None]
    lit += floor
    return lit, alpha, picture_ppm


def _lit(recipe: Recipe, rng: np.random.Generator, lit: np.ndarray, camera: cam.Camera, surface: cam.Surface,
         warp: cam.Warp) -> list[str]:
    """The light (in place): its colour (partly balanced), unevenness, vignetting, glare, hard shadows."""
    width, height = recipe.size
    coarse = warp.shape
    residual = scene.cast_colour(recipe.kelvin) ** (1 - recipe.balance)
    residual /= residual[1]
    field = uneven(rng, coarse, recipe.uneven) * vignette_field(coarse, recipe.vignette)
    lit *= warp.full(field[:, :, None] * residual[None, None, :], recipe.size)
    if recipe.glare:  # the lamp's reflection: before the shadows, which block that lamp too
        glare = np.zeros(coarse + (3,), np.float32)
        gy, gx = np.mgrid[0:coarse[0], 0:coarse[1]].astype(np.float32)
        for strength in recipe.glare:
            centre = camera.project(cam.on_surface(surface, np.array(rng.uniform(0.1, 0.9) * surface.width),
                                                   np.array(rng.uniform(0.1, 0.9) * surface.height)))
            cx, cy = centre[0] / warp.step, centre[1] / warp.step
            radius = rng.uniform(0.04, 0.14) * max(coarse)
            angle = rng.uniform(0, math.pi)
            du = (gx - cx) * math.cos(angle) + (gy - cy) * math.sin(angle)
            dv = -(gx - cx) * math.sin(angle) + (gy - cy) * math.cos(angle)
            r2 = (du / radius) ** 2 + (dv / (radius * rng.uniform(0.4, 1.0))) ** 2
            spot = strength * (np.exp(-r2 * 2.5) * 0.7 + np.exp(-r2 * 0.4) * 0.3)
            glare += spot[:, :, None] * residual[None, None, :] * 0.8
        lit += warp.full(glare, recipe.size)
    notes = []
    for level in recipe.shadows:  # a phone's shadow: hard edged (a narrow penumbra), bluish under warm light
        half = (height // 2, width // 2)
        polygon = scene.shadow_polygon(rng, half)
        mask = np.zeros(half, np.uint8)
        cv2.fillPoly(mask, [np.round(polygon * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
        mask = cv2.GaussianBlur(mask, (0, 0), max(recipe.penumbra / 2, 0.5))
        mask = cv2.resize(mask, recipe.size, interpolation=cv2.INTER_LINEAR).astype(np.float32) * (1 / 255)
        tint = np.array([0.94, 1.0, 1.08], np.float32) if recipe.kelvin < 4500 else np.ones(3, np.float32)
        for c in range(3):
            lit[:, :, c] *= 1 - (1 - min(level * tint[c], 1.0)) * mask
        notes.append(f"{level:.0%}")
    return notes


def _paper_white(lit: np.ndarray, alpha: np.ndarray) -> float:
    """The bright paper's level (what auto exposure meters)."""
    sample = lit[::9, ::9].mean(2)
    on_paper = sample[alpha[::9, ::9] > 0.99]
    if on_paper.size < 50:
        on_paper = sample.ravel()
    return float(np.percentile(on_paper, 90))


def _things(recipe: Recipe, rng: np.random.Generator, camera: cam.Camera, surface: cam.Surface, page: Any,
            fields: list[dict[str, Any]], lit: np.ndarray, alpha: np.ndarray, light2d: np.ndarray,
            ppm: float) -> str:
    """Dice on the table, then a pen and a finger over the sheet (never over a corner marker or the code)."""
    from printgen import layouts
    from printgen.builders.geometry import sheet_geometry

    shape = lit.shape[:2]
    notes = []
    for _ in range(recipe.dice):
        for _attempt in range(20):
            centre = np.array([rng.uniform(0.05, 0.95) * shape[1], rng.uniform(0.05, 0.95) * shape[0]])
            side = rng.uniform(14, 17) * ppm * 0.8
            x0, y0 = (centre - side).astype(int)
            x1, y1 = (centre + side).astype(int)
            if x0 < 0 or y0 < 0 or x1 >= shape[1] or y1 >= shape[0] or alpha[y0:y1, x0:x1].max() > 0:
                continue
            layer = scene.die(rng, shape, centre, side, light2d)
            if layer is not None:
                layer.darken(lit, 0.5)
                layer.cover(lit)
                notes.append("die")
            break
    keep_clear = []
    for placed in page.sheets:
        geometry = sheet_geometry(layouts.load(placed.layout))
        for x, y, w, h in (*geometry.markers, geometry.code):
            for fx in (0.0, 0.5, 1.0):
                for fy in (0.0, 0.5, 1.0):
                    keep_clear.append(placed.to_page(x - 1 + (w + 2) * fx, y - 1 + (h + 2) * fy))
    clear = camera.project(cam.on_surface(surface, *np.array(keep_clear).T))
    for thing, over_crossed in sorted(recipe.occluders, key=lambda t: t[0] != "pen"):
        wanted = [f for f in fields if f["crossed"] == over_crossed] or fields
        for _attempt in range(25):
            target = wanted[int(rng.integers(len(wanted)))]
            tx, ty = target["centre"]
            tip = camera.project(cam.on_surface(surface, np.array(tx), np.array(ty)))
            local = float(np.hypot(*(camera.project(cam.on_surface(surface, np.array(tx + 1), np.array(ty)))
                                      - tip)))
            if thing == "finger":
                edges = [np.array([-1.0, 0]), np.array([1.0, 0]), np.array([0, -1.0]), np.array([0, 1.0])]
                distances = [tip[0], shape[1] - tip[0], tip[1], shape[0] - tip[1]]
                nearest = int(np.argmin(np.array(distances) * rng.uniform(0.6, 1.6, 4)))
                direction = edges[nearest] + rng.normal(0, 0.35, 2)
                layer = scene.finger(rng, shape, tip, direction, rng.uniform(15, 21) * local, light2d)
            else:
                angle = rng.uniform(0, 2 * math.pi)
                direction = np.array([math.cos(angle), math.sin(angle)])
                layer = scene.pen(rng, shape, tip - direction * local * 2, direction, rng.uniform(8.5, 11) * local,
                                  light2d)
            if layer is None:
                continue
            x0, y0, x1, y1 = layer.box
            covered = False
            for px, py in clear:
                ix, iy = int(px) - x0, int(py) - y0
                if 0 <= ix < x1 - x0 and 0 <= iy < y1 - y0 and layer.alpha[iy, ix] > 0.02:
                    covered = True
                    break
            if covered:
                continue
            layer.darken(lit, rng.uniform(0.35, 0.65))
            layer.cover(lit)
            alpha_box = alpha[y0:y1, x0:x1]
            alpha_box *= 1 - layer.alpha  # no paper for the auto exposure under it
            notes.append(f"{thing} over {'a crossed' if target['crossed'] else 'an empty'} field")
            break
    return (", " + ", ".join(notes)) if notes else ""
