"""Light: the room's illumination over a photo as a per-pixel RGB multiplier, plus glare added on glossy paper."""

from __future__ import annotations

import cv2
import numpy as np

WHITES = {"daylight": (1.0, 1.0, 1.0), "warm": (1.0, 0.78, 0.52), "tungsten": (1.0, 0.66, 0.36),
          "cool": (0.82, 0.92, 1.0), "led": (1.0, 0.93, 0.86)}


def _coarse(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    return xx / max(w - 1, 1), yy / max(h - 1, 1)


def illumination(size: tuple[int, int], slope: tuple[np.ndarray, np.ndarray], on_page: np.ndarray,
                 rng: np.random.Generator, cast: str, window: float, shadows: int, hardness: float,
                 bounce: float) -> tuple[np.ndarray, list[str]]:
    """The light reaching each pixel: a white of `cast`, a window's gradient of `window`, Lambert shading of
    the page's bends, `shadows` cast shadows (phone, hand, cup) sharp as `hardness` (0..1), a coloured
    bounce of `bounce`. Computed at a quarter size and enlarged."""
    w, h = size
    sw, sh = w // 4, h // 4
    xx, yy = _coarse(sh, sw)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx - 0.5) * np.cos(angle) + (yy - 0.5) * np.sin(angle)
    light = 1.0 + window * ramp
    cx, cy = rng.uniform(-0.3, 1.3), rng.uniform(-0.3, 1.3)
    light *= 1.0 - 0.25 * np.clip(np.hypot(xx - cx, yy - cy), 0, 1.5) ** 2 * rng.uniform(0.2, 1.0)
    lx, ly = np.cos(angle) * 0.6, np.sin(angle) * 0.6
    sx = cv2.resize(slope[0], (sw, sh), interpolation=cv2.INTER_AREA)
    sy = cv2.resize(slope[1], (sw, sh), interpolation=cv2.INTER_AREA)
    lambert = np.clip((1 + lx * sx + ly * sy) / np.sqrt(1 + sx ** 2 + sy ** 2) / np.sqrt(1 + lx ** 2 + ly ** 2)
                      * np.sqrt(1 + 0.72), 0.3, 1.2)
    light = light * lambert
    colour = np.ones((sh, sw, 3), np.float32) * np.array(WHITES[cast], np.float32)
    notes = [cast]
    if bounce > 0:
        tint = np.array(rng.choice([(1.0, 0.75, 0.6), (0.7, 0.85, 1.0), (0.75, 1.0, 0.75), (1.0, 0.7, 0.85)]),
                        np.float32)
        weight = np.clip(ramp * -2 * bounce, 0, 1)[..., None]
        colour = colour * (1 - weight) + colour * tint * weight
        notes.append(f"bounce {bounce:.2f}")
    dark = np.zeros((sh, sw), np.float32)
    for i in range(shadows):
        kind = rng.choice(["phone", "hand", "cup"])
        mask = np.zeros((sh, sw), np.float32)
        c = (rng.uniform(0.1, 0.9) * sw, rng.uniform(0.1, 0.9) * sh)
        paper = np.argwhere(on_page[::4, ::4] > 0.5)
        if len(paper) and rng.random() < 0.7:  # the shadow falls on the page, at least in part
            y, x = paper[int(rng.integers(len(paper)))]
            c = (float(x), float(y))
        if kind == "phone":
            box = cv2.boxPoints((c, (rng.uniform(0.3, 0.6) * sw, rng.uniform(0.5, 0.9) * sh), rng.uniform(0, 180)))
            box = box + np.float32([sw, sh]) * rng.uniform(0.1, 0.5) * rng.choice([-1, 1], 2)
            cv2.fillPoly(mask, [np.int32(box)], 1.0, cv2.LINE_AA)
        elif kind == "hand":
            cv2.ellipse(mask, np.int32(c), (int(sw * rng.uniform(0.15, 0.3)), int(sh * rng.uniform(0.2, 0.4))),
                        rng.uniform(0, 180), 0, 360, 1.0, -1, cv2.LINE_AA)
            for _ in range(4):
                end = np.int32(np.array(c) + rng.normal(0, 0.35, 2) * (sw, sh))
                cv2.line(mask, np.int32(c), end, 1.0, int(sw * 0.05), cv2.LINE_AA)
        else:
            cv2.circle(mask, np.int32(c), int(sw * rng.uniform(0.08, 0.18)), 1.0, -1, cv2.LINE_AA)
        blur = 0.5 + (1 - hardness) * sw * 0.05
        mask = cv2.GaussianBlur(mask, (0, 0), blur)
        depth = rng.uniform(0.35, 0.7)
        dark = np.maximum(dark, mask * depth)
        notes.append(f"{kind} shadow {depth:.0%}")
    light = light * (1 - dark)
    out = colour * light[..., None]
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR), notes


def glare(size: tuple[int, int], on_page: np.ndarray, strength: float, rng: np.random.Generator) -> np.ndarray:
    """A specular patch (added light) on the glossy page: a soft ellipse of a lamp's reflection."""
    w, h = size
    sw, sh = w // 4, h // 4
    xx, yy = _coarse(sh, sw)
    cx, cy = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)
    rx, ry = rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.2)
    patch = np.exp(-(((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2) ** rng.uniform(0.7, 1.5))
    patch = cv2.resize(patch.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return (patch * on_page * strength)[..., None]
