"""The held-out photo set: phone photos of real printgen sheets, marked by played games, for reporting only."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from . import games, marks, pens, photo, sheets
from . import light as lighting
from . import phone as phones
from .camera import Surface, curl_tables
from .light import Light
from .photo import Shot

FAMILIES = ("mild", "tilt", "exif", "light", "lens", "degraded", "occluded", "pens", "twoup")

LAYOUTS = {"qwixx-standard": 2.0, "qwixx-big-points": 2.0, "qwixx-gemixxt-a": 1.0, "qwixx-gemixxt-b": 1.5,
           "qwixx-bonus-a": 1.2, "qwixx-bonus-b": 1.2, "qwixx-cards": 1.0}
LANGS = ("en", "en", "en", "en", "en", "en", "de", "it", "pl", "fr")
SIZES = ((4000, 3000), (4000, 3000), (3264, 2448), (4000, 2256), (2048, 1536), (1600, 1200), (1920, 1080))
SMALL_SIZES = ((1600, 1200), (1280, 960), (1200, 896), (2048, 1536), (1920, 1080))


def make(index: int, seed: int, family: str, folder: Path) -> None:
    """Write folder/NNNNNN.jpg (the photo) and folder/NNNNNN.json (its truth), reproducibly from `seed`."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} (known: {', '.join(FAMILIES)})")
    cv2.setNumThreads(1)
    rng = np.random.default_rng([seed, FAMILIES.index(family)])
    play_rng = random.Random(int(rng.integers(2**62)))
    build = _build(family, rng)
    printed = games.printed_sheets(build)
    first = int(rng.integers(len(printed) // build.per_page)) * build.per_page
    on_page = printed[first:first + build.per_page]
    partial = rng.random() < (0.1 if family == "mild" else 0.15)
    played, how = games.play(on_page, play_rng, partial)
    filled: list[Any] = list(played)
    if family == "twoup" and rng.random() < 0.15:
        filled[int(rng.integers(2))] = None
    shot, light, phone, surface_kind, glare_at = _conditions(family, rng, build)
    page_mm = sheets.page_size_mm(build)
    surface = _surface(surface_kind, page_mm, rng)
    framing = photo.place(shot, surface, rng)
    dpi = int(np.clip(math.ceil(framing.px_per_mm * 25.4 * 1.25 / 50) * 50, 250, 450))
    page = sheets.page_image(build, first // build.per_page, dpi)
    slots = sheets.slots(build, page.shape[:2], dpi)
    ink = pens.Ink(page.shape[:2], rng)
    notes = [f"{build.key} sheet {first + 1}", how, f"{dpi} dpi"]
    for slot, sheet in zip(slots, filled):
        if sheet is None:
            notes.append("one sheet blank")
            continue
        hand = _hand(family, rng, finished=not partial)
        done = marks.fill(ink, build.layout, sheet, hand, slot, rng)
        notes.append(f"{hand.describe()} ({', '.join(done)})")
    if family == "occluded" and rng.random() < 0.5:
        other = sheets.Build(str(rng.choice(sorted(LAYOUTS))), str(rng.choice(LANGS)), scan_marks=False)
        shot.second_page = photo.TO_LINEAR[sheets.page_image(other, 0, 100)] * 0.86
        shot.second_ppm = 100 / 25.4
    scene = photo.render(framing, page, ink, surface, shot, light, rng, glare_at, phone.vignette)
    del page, ink
    image = phones.optics(scene.image, phone)
    raw = phones.sensor(image, phone, rng, scene.white, light.cast)
    del image, scene.image
    picture = phones.develop(raw, phone)
    folder.mkdir(parents=True, exist_ok=True)
    phones.save(picture, phone, folder / f"{index:06d}.jpg")
    conditions = "; ".join([*notes, *scene.notes, surface.describe(), light.describe(), phone.describe()])
    truth = {"family": family, "conditions": conditions,
             "sheets": [games.truth(p, s) for p, s in zip(on_page, filled)]}
    (folder / f"{index:06d}.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")


def _build(family: str, rng: np.random.Generator) -> sheets.Build:
    names = sorted(LAYOUTS)
    weights = np.array([LAYOUTS[n] for n in names])
    layout = str(names[int(rng.choice(len(names), p=weights / weights.sum()))])
    shuffle = layout == "qwixx-gemixxt-b" and rng.random() < 0.6
    return sheets.Build(layout, str(rng.choice(LANGS)), symbols=bool(rng.random() < 0.2), shuffle=shuffle,
                        seed=int(rng.integers(1, 9)), per_page=2 if family == "twoup" else 1)


def _hand(family: str, rng: np.random.Generator, finished: bool) -> marks.Hand:
    """How this player marks: pen, kinds of mark and care (every pen and kind in the pens family)."""
    if family == "pens":
        pen = pens.random_pen(rng, ("ballpoint", "felt", "gel", "pencil"), worn=1.0)
        main = str(rng.choice(("x", "x", "slash", "tick", "scribble", "blob", "circle", "circle")))
        kinds = {main: 1.0}
        for other in ("x", "slash", "tick", "scribble", "blob", "circle"):
            if other != main and rng.random() < 0.4:
                kinds[other] = float(rng.uniform(0.05, 0.4))
        size_lo = float(rng.uniform(0.33, 0.7))
        return marks.Hand(pen, kinds, (size_lo, size_lo + float(rng.uniform(0.1, 0.5))),
                          sloppy=float(rng.uniform(0.03, 0.12)), overrun=float(rng.uniform(0.05, 0.35)),
                          strike_skipped=float(rng.choice((0.0, 0.5, 1.0))), strike_closed=float(rng.uniform(0, 1)),
                          name=bool(rng.random() < 0.6), totals=finished and bool(rng.random() < 0.6),
                          name_pen=pens.random_pen(rng, ("ballpoint", "pencil", "felt")) if rng.random() < 0.3
                          else None)
    pen = pens.random_pen(rng, ("ballpoint", "ballpoint", "ballpoint", "ballpoint", "gel"))
    if pen.colour == "red" and rng.random() < 0.7:
        pen = pens.Pen(pen.kind, "blue", pen.width, pen.flow, pen.worn)
    kinds = {"x": 1.0}
    if rng.random() < 0.15:
        kinds = {"slash": 1.0, "x": 0.1}
    lo = float(rng.uniform(0.5, 0.75))
    return marks.Hand(pen, kinds, (lo, lo + float(rng.uniform(0.1, 0.3))), sloppy=float(rng.uniform(0.02, 0.07)),
                      overrun=0.02, strike_skipped=0.8 if rng.random() < 0.2 else 0.0,
                      strike_closed=0.5 if rng.random() < 0.2 else 0.0, name=bool(rng.random() < 0.4),
                      totals=finished and bool(rng.random() < 0.4))


def _surface(kind: dict[str, Any], page_mm: tuple[float, float], rng: np.random.Generator) -> Surface:
    width, height = page_mm
    surface = Surface(width, height)
    curl = kind.get("curl", 0.0)
    if curl > 0.3:
        surface.curl_axis = int(rng.integers(2))
        length = width if surface.curl_axis == 0 else height
        surface.curl = curl_tables(length, curl, str(rng.choice(("both", "one", "roll"))), rng)
    if kind.get("bump"):
        surface.bump = (kind["bump"], rng.uniform(-0.2, 0.2) * width, rng.uniform(-0.2, 0.2) * height,
                        rng.uniform(0.2, 0.4) * width, rng.uniform(0.2, 0.45) * height)
    if kind.get("fold"):
        angle = rng.choice((0.0, math.pi / 2)) + rng.normal(0, 0.05)
        span = width if abs(math.cos(angle)) > 0.5 else height
        surface.fold = (kind["fold"], math.cos(angle), math.sin(angle), rng.uniform(-0.15, 0.15) * span,
                        rng.uniform(15, 45))
    for _ in range(kind.get("ripples", 0)):
        a = rng.uniform(0, math.pi)
        k = 2 * math.pi / rng.uniform(25, 90)
        surface.ripples.append((rng.uniform(0.2, 0.8), k * math.cos(a), k * math.sin(a), rng.uniform(0, 6.3)))
    return surface


def _conditions(family: str, rng: np.random.Generator, build: sheets.Build
                ) -> tuple[Shot, Light, phones.Phone, dict[str, Any], tuple[float, float] | None]:
    """The mild conditions of a photo at a table, then the family's own condition varied over them."""
    size = SIZES[int(rng.integers(len(SIZES)))]
    if rng.random() < 0.4:
        size = (size[1], size[0])
    page_w, page_h = sheets.page_size_mm(build)
    along = (size[0] > size[1]) == (page_w > page_h)  # the phone turned to the page, mostly
    if rng.random() < 0.15:
        along = not along
    square = float(rng.choice((0.0, 180.0), p=(0.7, 0.3)) + (0.0 if along else 90.0))
    shot = Shot(size=size, fov=float(rng.uniform(62, 76)), tilt=float(min(abs(rng.normal(0, 5)), 12.0)),
                azimuth=float(rng.uniform(0, 360)), roll=float(square + rng.normal(0, 4)),
                fill=float(rng.uniform(0.35, 0.9)), distortion=(float(rng.normal(0, 0.008)), 0.0, 0.0, 0.0),
                table=str(rng.choice(("wood", "wood", "plain", "cloth", "tiles"))),
                paper=tuple(float(x) for x in np.array([0.88, 0.88, 0.86]) * rng.uniform(0.95, 1.03)
                            + rng.normal(0, 0.01, 3)),  # type: ignore[arg-type]
                printer=tuple(float(x) for x in rng.uniform(0.9, 1.12, 3)))  # type: ignore[arg-type]
    lamp_angle = rng.uniform(0, 2 * math.pi)
    lamp_far = rng.uniform(150, 900)
    light = Light(lamp=np.array([math.cos(lamp_angle) * lamp_far, math.sin(lamp_angle) * lamp_far,
                                 -rng.uniform(700, 1800)]),
                  ambient=float(rng.uniform(0.4, 0.7)), cast=str(rng.choice(("daylight", "warm LED", "daylight"))),
                  gloss=float(rng.uniform(0.0, 0.04)), shininess=float(rng.uniform(10, 40)))
    if rng.random() < 0.3:
        light.window = (float(rng.uniform(0.08, 0.2)), float(rng.uniform(0, 2 * math.pi)), "daylight")
    phone = phones.Phone(aberration=float(rng.uniform(0.0002, 0.0008)), defocus=float(rng.uniform(0.3, 1.0)),
                         vignette=float(rng.uniform(0.1, 0.3)), photons=float(rng.uniform(3000, 15000)),
                         read_noise=float(rng.uniform(2, 4)), exposure=float(rng.uniform(0.82, 0.95)),
                         white_balance=float(rng.uniform(0.85, 1.0)), saturation=float(rng.uniform(1.05, 1.25)),
                         contrast=float(rng.uniform(0.1, 0.35)), denoise=float(rng.uniform(0.2, 0.6)),
                         sharpen=float(rng.uniform(0.3, 0.9)), quality=int(rng.integers(80, 93)),
                         orientation=1 if rng.random() < 0.7 else None)
    surface: dict[str, Any] = {"curl": float(rng.uniform(0, 4)), "ripples": int(rng.random() < 0.2)}
    glare_at = None
    width, height = sheets.page_size_mm(build)
    if family == "tilt":
        shot.tilt = float(rng.uniform(15, 40))
        shot.roll = float(rng.uniform(0, 360))
        shot.fill = float(rng.uniform(0.3, 0.85))
        shot.fov = float(rng.uniform(60, 80))
    elif family == "exif":
        phone.orientation = int(rng.integers(2, 9))
    elif family == "light":
        light.cast = str(rng.choice(tuple(lighting.CASTS)))
        phone.white_balance = float(rng.uniform(0.3, 0.9))
        light.ambient = float(rng.uniform(0.2, 0.6))
        chosen = [c for c in ("shadow", "glare", "window") if rng.random() < 0.5] or ["shadow"]
        if "window" in chosen:
            light.window = (float(rng.uniform(0.3, 0.65)), float(rng.uniform(0, 2 * math.pi)),
                            str(rng.choice(("daylight", "shade"))))
        if "glare" in chosen:
            light.gloss = float(rng.uniform(0.2, 0.9))
            light.shininess = float(rng.uniform(30, 160))
            glare_at = (float(rng.uniform(0.15, 0.85) * width), float(rng.uniform(0.15, 0.85) * height))
        if "shadow" in chosen:
            for kind in ("phone", "hand") if rng.random() < 0.3 else (str(rng.choice(("phone", "hand"))),):
                light.shadows.append((kind, float(rng.uniform(0.35, 0.8)), float(rng.uniform(1, 6))))
    elif family == "lens":
        k1 = float(rng.uniform(0.03, 0.13)) * float(rng.choice((-1.0, 1.0)))  # barrel or pincushion at the corners
        k1 = k1 if k1 < 0 else k1 * 0.7
        shot.distortion = (k1, float(rng.normal(0, 0.015)), float(rng.normal(0, 0.002)), float(rng.normal(0, 0.002)))
        shot.fov = float(rng.uniform(65, 85))
        surface = {"curl": float(rng.uniform(6, 25)), "ripples": int(rng.integers(0, 3)),
                   "bump": float(rng.uniform(3, 12)) if rng.random() < 0.4 else 0.0,
                   "fold": float(rng.uniform(2, 8)) if rng.random() < 0.4 else 0.0}
        shot.tilt = float(abs(rng.normal(0, 10)))
    elif family == "degraded":  # one main trouble, now and then another with it
        if rng.random() < 0.5:
            shot.size = SMALL_SIZES[int(rng.integers(len(SMALL_SIZES)))]
            if rng.random() < 0.4:
                shot.size = (shot.size[1], shot.size[0])
        shot.fill = float(rng.uniform(0.3, 0.8))
        main = str(rng.choice(("defocus", "motion", "dark", "jpeg")))
        if main == "defocus" or rng.random() < 0.25:
            phone.defocus = float(rng.uniform(1.2, 4.0))
        if main == "motion" or rng.random() < 0.25:
            phone.motion = (float(rng.uniform(2, 9)), float(rng.uniform(0, math.pi)))
        if main == "dark" or rng.random() < 0.25:
            phone.photons = float(rng.uniform(120, 900))
            phone.read_noise = float(rng.uniform(3, 8))
            light.cast = str(rng.choice(("tungsten", "warm LED", "daylight")))
        phone.quality = int(rng.integers(40, 56)) if main == "jpeg" else int(rng.integers(40, 76))
        phone.denoise = float(rng.uniform(0.4, 1.2))
        phone.sharpen = float(rng.uniform(0.4, 1.5))
    elif family == "occluded":
        shot.table = str(rng.choice(("wood", "tiles", "cloth")))
        shot.clutter = int(rng.integers(2, 6))
        things = []
        things += ["thumb"] * int(rng.choice((0, 1, 1, 2)))
        things += ["pen"] * int(rng.random() < 0.45)
        things += ["coin"] * int(rng.choice((0, 0, 1, 2)))
        things += ["die"] * int(rng.choice((0, 0, 1, 2, 3)))
        shot.things = things or ["thumb"]
        shot.fill = float(rng.uniform(0.3, 0.8))
    elif family == "twoup":
        shot.fill = float(rng.uniform(0.4, 0.9))
    return shot, light, phone, surface, glare_at
