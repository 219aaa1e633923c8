"""Scene: procedural tables with papers and dice on them, and things between the camera and the page (fingers, pens)."""

from __future__ import annotations

import cv2
import numpy as np

from .paper import smooth_noise, soft

TABLES = ("wood", "laminate", "cloth", "stone", "dark")


def table(kind: str, bounds: tuple[float, float, float, float], pxmm: float,
          rng: np.random.Generator) -> np.ndarray:
    """A table top (linear RGB) covering `bounds` (u0, v0, u1, v1 mm) at `pxmm`."""
    u0, v0, u1, v1 = bounds
    w, h = max(8, int((u1 - u0) * pxmm)), max(8, int((v1 - v0) * pxmm))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / pxmm
    noise = smooth_noise((h, w), int(max(w, h) / pxmm / 15) + 4, rng)  # blotches of some 15 mm
    if kind == "wood":
        angle = rng.uniform(0, np.pi)
        along = xx * np.cos(angle) + yy * np.sin(angle)
        across = -xx * np.sin(angle) + yy * np.cos(angle)
        lines = np.linspace(across.min() - 1, across.max() + 1, int(np.ptp(across) * 3) + 4)
        streaks = np.interp(across + 0.3 * noise, lines, rng.random(len(lines))).astype(np.float32)
        rings = np.sin(across * rng.uniform(0.08, 0.25) + 0.5 * noise + 0.004 * along) * 0.5 + 0.5
        grain = 0.3 * rings ** 2 + 0.7 * streaks
        base = np.array(rng.choice([(0.35, 0.18, 0.08), (0.55, 0.33, 0.16), (0.22, 0.12, 0.06)]), np.float32)
        out = base * (0.75 + 0.4 * grain[..., None]) * (1 + 0.05 * noise[..., None])
        plank = rng.uniform(80, 200)
        seam = (np.abs(((across + 1000) % plank) - plank / 2) > plank / 2 - 0.6).astype(np.float32)
        out *= (1 - 0.6 * seam)[..., None]
    elif kind == "laminate":
        base = np.array(rng.choice([(0.75, 0.75, 0.72), (0.6, 0.65, 0.7), (0.8, 0.72, 0.6)]), np.float32)
        out = base * (1 + 0.04 * noise[..., None] + 0.02 * rng.standard_normal((h, w, 1)).astype(np.float32))
    elif kind == "cloth":
        period = rng.uniform(8, 25)
        check = ((xx // period + yy // period) % 2).astype(np.float32)
        weave = 0.9 + 0.1 * np.sin(xx * 12) * np.sin(yy * 12)
        colour = np.array(rng.choice([(0.6, 0.05, 0.05), (0.05, 0.15, 0.5), (0.1, 0.35, 0.12)]), np.float32)
        out = (0.8 * (1 - check[..., None]) + colour * check[..., None]) * weave[..., None]
    elif kind == "stone":
        base = np.array(rng.uniform(0.25, 0.6) * np.array([1, 0.97, 0.92]), np.float32)
        specks = (rng.random((h, w)) < 0.04).astype(np.float32)
        specks = cv2.GaussianBlur(specks, (0, 0), 0.8) * rng.choice([-2.0, 2.0])
        out = base * (1 + 0.04 * noise[..., None] + 0.25 * specks[..., None])
    else:
        out = np.array([0.04, 0.04, 0.045], np.float32) * (1 + 0.06 * noise[..., None] + 0.05 * rng.standard_normal(
            (h, w, 1)).astype(np.float32))
    return np.clip(out, 0, 2).astype(np.float32)


def clutter(top: np.ndarray, bounds: tuple[float, float, float, float], pxmm: float, page: tuple[float, float],
            rng: np.random.Generator) -> list[str]:
    """Put other papers and dice on the table, beside or under the page (the page is centred on 0)."""
    u0, v0 = bounds[0], bounds[1]
    done = []

    def px(u: float, v: float) -> tuple[int, int]:
        return int((u - u0) * pxmm), int((v - v0) * pxmm)

    if rng.random() < 0.4:  # another page under this one, peeking out
        angle = rng.normal(0, 12)
        centre = (rng.normal(0, 40), rng.normal(0, 40))
        box = cv2.boxPoints(((px(*centre)), (210 * pxmm, 297 * pxmm), angle))
        shade = rng.uniform(0.75, 0.9)
        cv2.fillPoly(top, [np.int32(box)], (shade, shade * 0.99, shade * 0.95), cv2.LINE_AA)
        for i in range(12):  # ruled or printed lines on it
            a, b = box[0] + (box[1] - box[0]) * (i + 1) / 13, box[3] + (box[2] - box[3]) * (i + 1) / 13
            cv2.line(top, np.int32(a), np.int32(b), (shade * 0.6, shade * 0.65, shade * 0.8), 1, cv2.LINE_AA)
        done.append("paper under")
    for _ in range(int(rng.integers(0, 3))):  # dice
        side = rng.uniform(12, 17)
        angle = rng.uniform(0, 90)
        ring = rng.uniform(0.55, 0.8) * np.array(page) * rng.choice([-1, 1], 2)
        where = px(float(ring[0]), float(ring[1]))
        colour = np.array(rng.choice([(0.85, 0.85, 0.82), (0.7, 0.05, 0.05), (0.8, 0.7, 0.05), (0.05, 0.3, 0.1),
                                      (0.05, 0.1, 0.5)]), np.float32)
        shadow = cv2.boxPoints(((where[0] + side * pxmm * 0.25, where[1] + side * pxmm * 0.25),
                                (side * pxmm, side * pxmm), angle))
        cv2.fillPoly(top, [np.int32(shadow)], (0.02, 0.02, 0.02), cv2.LINE_AA)
        box = cv2.boxPoints((where, (side * pxmm, side * pxmm), angle))
        cv2.fillPoly(top, [np.int32(box)], tuple(float(c) for c in colour), cv2.LINE_AA)
        pips = int(rng.integers(1, 7))
        for k in range(pips):
            offset = np.array([(k % 3) - 1, (k // 3) - 0.5]) * side * pxmm * 0.28
            cv2.circle(top, (int(where[0] + offset[0]), int(where[1] + offset[1])), max(1, int(side * pxmm * 0.08)),
                       (0.02, 0.02, 0.02) if colour.mean() > 0.5 else (0.9, 0.9, 0.9), -1, cv2.LINE_AA)
        done.append("die")
    return done


def occluders(image: np.ndarray, shade: np.ndarray, rng: np.random.Generator, count: int,
              spots: list[tuple[float, float]], pxmm: float) -> list[str]:
    """Fingers and pens over the photo (drawn into linear `image`), with their shadows multiplied into
    `shade`; each reaches in from outside towards one of `spots` (pixel positions)."""
    h, w = image.shape[:2]
    done = []
    for i in range(count):
        tip = np.array(spots[i % len(spots)], float) + rng.normal(0, 4 * pxmm, 2)
        finger = rng.random() < 0.6
        width = (rng.uniform(15, 19) if finger else rng.uniform(7, 10)) * pxmm
        if finger:  # a thumb or finger from the nearest side of the frame, the hand beyond it
            sides = np.array([tip[0], w - tip[0], tip[1], h - tip[1]])
            away = [np.array([-1.0, 0]), np.array([1.0, 0]), np.array([0, -1.0]), np.array([0, 1.0])][
                int(np.argmin(sides))]
            away = away + rng.normal(0, 0.35, 2)
            start = tip + away / np.linalg.norm(away) * (sides.min() + 0.1 * max(w, h) + 40 * pxmm)
        else:  # a pen lying across, 14 cm long
            angle = rng.uniform(0, 2 * np.pi)
            start = tip + np.array([np.cos(angle), np.sin(angle)]) * 140 * pxmm
        direction = (tip - start) / np.linalg.norm(tip - start)
        lift = rng.uniform(4, 25) * pxmm
        drop = np.array([lift * rng.uniform(-0.7, 0.7), lift * rng.uniform(0.2, 1.0)])
        reach = width + abs(drop).max() + 3 * lift
        ends = np.array([start, tip])
        x0, y0 = np.clip(ends.min(axis=0) - reach, 0, (w, h)).astype(int)
        x1, y1 = np.clip(ends.max(axis=0) + reach, 0, (w, h)).astype(int)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        corner = np.array([x0, y0], float)
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        normal = np.array([-direction[1], direction[0]])
        widen = 2.6 if finger else 1.0  # the finger runs into the hand
        outline = [tip - corner + normal * width / 2, tip - corner - normal * width / 2,
                   start - corner - normal * width * widen / 2, start - corner + normal * width * widen / 2]
        cv2.fillPoly(mask, [np.int32(outline)], 1.0, cv2.LINE_AA)
        cv2.circle(mask, np.int32(tip - corner), int(width / 2), 1.0, -1, cv2.LINE_AA)
        if not finger:  # the pen's cone and point
            point = tip - corner + direction * width * 1.6
            cv2.fillPoly(mask, [np.int32([tip - corner + normal * width / 2, tip - corner - normal * width / 2,
                                          point])], 1.0, cv2.LINE_AA)
        shadow = cv2.warpAffine(mask, np.float32([[1, 0, drop[0]], [0, 1, drop[1]]]), mask.shape[::-1])
        shadow = soft(shadow, max(1.0, lift * 0.35))
        shade[y0:y1, x0:x1] *= (1 - 0.6 * shadow)[..., None]
        yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        along = ((xx - tip[0]) * -direction[0] + (yy - tip[1]) * -direction[1]) / np.linalg.norm(start - tip)
        local_width = width / 2 * (1 + (widen - 1) * np.clip(along, 0, 1))
        across = ((xx - tip[0]) * -direction[1] + (yy - tip[1]) * direction[0]) / local_width
        roundness = np.sqrt(np.clip(1 - across ** 2, 0, 1))
        if finger:
            skin = np.array(rng.choice([(0.62, 0.38, 0.28), (0.45, 0.26, 0.17), (0.25, 0.14, 0.09),
                                        (0.7, 0.5, 0.4)]), np.float32)
            colour = skin * (0.35 + 0.75 * roundness[..., None])
            nail_d = np.hypot(xx - tip[0] + direction[0] * width * 0.2, yy - tip[1] + direction[1] * width * 0.2)
            nail = np.clip((width * 0.28 - nail_d) / 4, 0, 1)[..., None] * 0.3
            colour = colour * (1 - nail) + nail * skin * 1.5
        else:
            body = np.array(rng.choice([(0.05, 0.1, 0.5), (0.8, 0.8, 0.8), (0.02, 0.02, 0.02), (0.7, 0.1, 0.05)]),
                            np.float32)
            colour = body * (0.3 + 0.8 * roundness[..., None]) + 0.5 * (np.abs(across - 0.4) < 0.12)[..., None]
        region = image[y0:y1, x0:x1]
        region[:] = region * (1 - mask[..., None]) + colour * mask[..., None]
        done.append("finger" if finger else "pen")
    return done
