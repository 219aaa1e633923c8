"""Photo set `fresh`: SVG builds printed by a simulated printer, pen-tip physics, a posed phone camera."""

from __future__ import annotations

import json
import random
from pathlib import Path

import cv2
import numpy as np

from . import camera, game, light, marks, paper, phone, scene
from .pen import Ink, choose
from .recipe import recipe

FAMILIES = ("mild", "tilt", "exif", "light", "lens", "degraded", "occluded", "pens", "twoup")


def make(index: int, seed: int, family: str, folder: Path) -> None:
    """Write folder/NNNNNN.jpg and its truth folder/NNNNNN.json, reproducibly from `seed`."""
    rng = np.random.default_rng(seed)
    r = recipe(family, rng)
    if r.sheets == 2:
        sheet = min(r.sheet, 6)
        orders = [paper.Order(r.layout, r.lang, r.symbols, r.pad_seed, 8, sheet + i) for i in range(2)]
        dpi = 220
    else:
        orders = [paper.Order(r.layout, r.lang, r.symbols, r.pad_seed, 8, r.sheet)]
        dpi = 300 if r.fill * r.width < 3000 else 360
    blank, placed, size_mm = paper.page(orders, dpi)
    printed, printing = paper.print_page(blank, dpi, rng)
    pxmm = dpi / 25.4
    played = game.play(r.layout, [(p.lucky, p.numbers) for p in placed], random.Random(int(rng.integers(1 << 30))))
    ink = Ink(printed.shape[:2], pxmm, rng)
    pen = choose(rng, r.pen)
    for place, sheet_state in zip(placed, played):
        marks.fill(ink, place, sheet_state, pen, rng, r.styles, r.mix)
    page = ink.apply(printed)

    width, height = r.width, r.width * 3 // 4
    if r.portrait:
        width, height = height, width
    heights = camera.bend(size_mm, rng, r.bend, r.curl)
    shot = camera.shoot(size_mm, heights, width, height, r.tilt, r.fill, r.distortion, rng)
    ratio = pxmm / max(shot.pxmm, 1e-3)
    if ratio > 1.0:  # the lens and the sensor's pixels average the print's dots
        page = paper.soft(page, 0.6 * ratio)
    map_x = ((shot.page_u + size_mm[0] / 2) * pxmm - 0.5).astype(np.float32)
    map_y = ((shot.page_v + size_mm[1] / 2) * pxmm - 0.5).astype(np.float32)
    seen = cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    edge = np.ones(page.shape[:2], np.float32)
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = 0
    alpha = cv2.remap(edge, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    u0, u1 = np.clip(np.percentile(shot.table_u[::16, ::16], [0, 100]), -1500, 1500)
    v0, v1 = np.clip(np.percentile(shot.table_v[::16, ::16], [0, 100]), -1500, 1500)
    tpx = float(min(4.0, 2000 / max(u1 - u0, v1 - v0, 1)))
    bounds = (float(u0) - 5, float(v0) - 5, float(u1) + 5, float(v1) + 5)
    top = scene.table(r.table, bounds, tpx, rng)
    things = scene.clutter(top, bounds, tpx, size_mm, rng) if r.clutter else []
    footprint = np.zeros(top.shape[:2], np.float32)
    corner = ((-size_mm[0] / 2 - bounds[0]) * tpx, (-size_mm[1] / 2 - bounds[1]) * tpx)
    cv2.rectangle(footprint, (int(corner[0]), int(corner[1])),
                  (int(corner[0] + size_mm[0] * tpx), int(corner[1] + size_mm[1] * tpx)), 1.0, -1)
    footprint = paper.soft(footprint, 2.5 * tpx)
    top *= (1 - 0.35 * footprint)[..., None]
    table = cv2.remap(top, ((shot.table_u - bounds[0]) * tpx).astype(np.float32),
                      ((shot.table_v - bounds[1]) * tpx).astype(np.float32), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REFLECT)
    image = table * (1 - alpha[..., None]) + seen * alpha[..., None]
    del table, seen

    illum, lighting = light.illumination((width, height), (shot.slope_x * alpha, shot.slope_y * alpha), alpha, rng,
                                         r.cast, r.window, r.shadows, r.hardness, r.bounce)
    held = []
    if r.occluders:
        spots = _spots(shot, size_mm, rng, r.occluders)
        held = scene.occluders(image, illum, rng, r.occluders, spots, shot.pxmm)
    image = image * illum * r.light
    if r.glare > 0:
        image = image + light.glare((width, height), alpha, r.glare, rng) * r.light
    jpeg, developing = phone.develop(image, rng, blur=r.blur * shot.pxmm / 10, motion=r.motion, photons=r.photons,
                                     quality=r.quality, orientation=r.orientation, local=r.local, sharpen=r.sharpen)
    name = f"{index:06d}"
    (folder / f"{name}.jpg").write_bytes(jpeg)
    conditions = (f"{r.layout} {r.lang}{' symbols' if r.symbols else ''}, {printing}, {pen.kind} pen, "
                  f"tilt {r.tilt:.0f}°, fill {r.fill:.2f}, k {r.distortion:.2f}, curl {r.curl:.0f} mm, {r.table} "
                  f"table{', ' + ', '.join(things) if things else ''}, {', '.join(lighting)}"
                  f"{f', glare {r.glare:.2f}' if r.glare else ''}{', ' + ', '.join(held) if held else ''}, "
                  f"blur {r.blur:.1f}, motion {r.motion:.0f}, light {r.light:.2f}, {developing}")
    truth = {"family": family, "conditions": conditions,
             "sheets": [game.truth(p.order.layout, s, p.lucky, p.numbers) for p, s in zip(placed, played)]}
    (folder / f"{name}.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")


def _spots(shot: camera.Shot, size_mm: tuple[float, float], rng: np.random.Generator,
           count: int) -> list[tuple[float, float]]:
    """Pixels where fingers and pens reach: the page's edges (holding it) and its fields."""
    u, v = shot.page_u[::16, ::16], shot.page_v[::16, ::16]
    inside = (np.abs(u) < size_mm[0] / 2) & (np.abs(v) < size_mm[1] / 2)
    near_edge = inside & ((np.abs(u) > size_mm[0] / 2 - 12) | (np.abs(v) > size_mm[1] / 2 - 12))
    middle = inside & (np.abs(u) < size_mm[0] / 2 - 15) & (np.abs(v) < size_mm[1] / 2 - 15)
    spots = []
    for i in range(count):
        where = np.argwhere(near_edge if i % 2 == 0 and near_edge.any() else middle if middle.any() else inside)
        if len(where) == 0:
            where = np.array([[u.shape[0] // 2, u.shape[1] // 2]])
        y, x = where[int(rng.integers(len(where)))]
        spots.append((float(x * 16), float(y * 16)))
    return spots
