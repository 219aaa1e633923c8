"""A phone camera, simulated: a printed document in pixels in, a photo of it (BGR) and its JPEG file out.

The document is turned any way, tilted up to 30 degrees about any axis
(a pinhole camera), slightly curled, laid on a table (a colour, a grain,
some edges), lit unevenly (a gradient and a spot, up to about 40 % either
way, tinted), partly shaded by a soft shadow, blurred, given sensor noise
and compressed as JPEG. For demo photos (`printgen.demo.photo`) and the
tests and benchmarks of `printgen score`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

BAND = 1 << 14
"""At most how many pixels of the photo are worked on at a time, in bands of whole rows that stay in the cache."""


@dataclass(slots=True)
class Shot:
    """How a photo was taken."""

    width: int = 0
    fill: float = 0.0
    tilt: float = 0.0
    blur: float = 0.0
    jpeg: int = 0


def page_of(sheets: list[np.ndarray], px_per_mm: float, heights: list[float]) -> np.ndarray:
    """Sheets (same width) stacked on an A4 page as a 2-up pad prints them, with a dashed cut line."""
    width = 210.0
    w, h = round(width * px_per_mm), round(297.0 * px_per_mm)
    page = np.full((h, w, 3), sheets[0][2, 2], np.float32)
    top = (297.0 - sum(heights)) / 2
    for sheet, height in zip(sheets, heights):
        y0 = round(top * px_per_mm)
        x0 = round((width - sheet.shape[1] / px_per_mm) / 2 * px_per_mm)
        page[y0:y0 + sheet.shape[0], x0:x0 + sheet.shape[1]] = sheet
        top += height
    return page


def photograph(document: np.ndarray, px_per_mm: float, rng: random.Random, smallest: int = 1200,
               least: float = 0.35, widest: int = 4000) -> tuple[np.ndarray, bytes, Shot]:
    """A phone photo of `document` (RGB floats): any turn, tilt, light, shadow, blur, noise and JPEG;
    the picture (BGR), its JPEG file and how it was taken. The photo is `smallest`..`widest` pixels wide
    and the document fills `least`..95 % of it."""
    conditions = Shot()
    landscape = rng.random() < 0.6
    frame_w = rng.randint(smallest, max(smallest, widest))
    aspect = rng.choice((4 / 3, 16 / 9, 3 / 2))
    frame_h = int(frame_w / aspect) if landscape else int(frame_w * aspect)
    conditions.width = frame_w
    document = _curl(document, px_per_mm, rng)
    h, w = document.shape[:2]
    tilt = rng.uniform(0, 30)
    conditions.tilt = tilt
    for _ in range(20):  # a pose in which the document can fill at least 35 % of the frame
        corners = _pose(w, h, tilt, rng, landscape == (w > h))
        area = abs(cv2.contourArea(corners.astype(np.float32)))
        spread = corners.max(axis=0) - corners.min(axis=0)
        largest = min(0.985 * frame_w / spread[0], 0.985 * frame_h / spread[1])
        if largest**2 * area / (frame_w * frame_h) >= least + 0.01:
            break
    fill = rng.uniform(least, 0.95)
    scale = min(np.sqrt(fill * frame_w * frame_h / area), largest)
    conditions.fill = float(scale * scale * area / (frame_w * frame_h))
    placed = (corners - corners.min(axis=0)) * scale
    room = np.array([frame_w, frame_h]) - (placed.max(axis=0))
    placed += np.array([rng.uniform(0, room[0]), rng.uniform(0, room[1])])
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), placed.astype(np.float32))
    background = _background(frame_w, frame_h, rng)
    photo = cv2.warpPerspective(document, matrix, (frame_w, frame_h), flags=cv2.INTER_AREA
                                if scale < 1 else cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones((h, w), np.float32), matrix, (frame_w, frame_h))[..., None]
    light = _light(frame_w, frame_h, rng)
    tint = np.array([rng.uniform(0.88, 1.12) for _ in range(3)], np.float32)
    shadow = _shadow(frame_w, frame_h, rng)
    for rows in _bands(frame_w, frame_h):  # on the table, lit and shaded
        band, ground = photo[rows], background[rows]
        band *= inside[rows]
        ground *= 1 - inside[rows]
        band += ground
        band *= light(rows)[..., None] * tint
        if shadow is not None:
            band *= shadow[rows, :, None]
    blur = rng.uniform(0, 1.5)
    conditions.blur = blur
    if blur > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    noise = np.random.default_rng(rng.getrandbits(32))
    deviation = rng.uniform(1, 4)
    bgr = np.empty(photo.shape, np.uint8)
    bands = _bands(frame_w, frame_h)
    drawn = np.empty((bands[0].stop, frame_w, 3))
    grain = np.empty(drawn.shape, np.float32)
    for rows in bands:  # the noise drawn in the same order as in one piece
        band = photo[rows]
        noise.standard_normal(out=drawn[:len(band)])  # what noise.normal(0, deviation) scales
        np.multiply(drawn[:len(band)], deviation, out=grain[:len(band)])
        band *= 255
        band += grain[:len(band)]
        np.clip(band, 0, 255, out=band)
        cv2.cvtColor(band.astype(np.uint8), cv2.COLOR_RGB2BGR, dst=bgr[rows])
    quality = rng.randint(50, 95)
    conditions.jpeg = quality
    _ok, encoded = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR), encoded.tobytes(), conditions


def _bands(w: int, h: int) -> list[slice]:
    """The rows of a `w` x `h` picture in bands of at most `BAND` pixels (at least a row), top to bottom."""
    rows = max(1, BAND // w)
    return [slice(top, min(top + rows, h)) for top in range(0, h, rows)]


def _pose(w: int, h: int, tilt: float, rng: random.Random, along: bool) -> np.ndarray:
    """The document's corners as a camera sees it: turned (mostly roughly `along` the frame, or across it),
    tilted `tilt` degrees about a random axis."""
    if rng.random() < 0.3:
        turn = np.radians(rng.uniform(0, 360))
    else:
        turn = np.radians(rng.choice((0, 180) if along else (90, 270)) + rng.uniform(-25, 25))
    axis = np.radians(rng.uniform(0, 180))
    corners = np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], float) - [w / 2, h / 2, 0]
    rz = np.array([[np.cos(turn), -np.sin(turn), 0], [np.sin(turn), np.cos(turn), 0], [0, 0, 1]])
    u = np.array([np.cos(axis), np.sin(axis), 0.0])
    t = np.radians(tilt)
    k = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    rt = np.eye(3) + np.sin(t) * k + (1 - np.cos(t)) * k @ k
    points = corners @ rz.T @ rt.T
    distance = max(w, h) * rng.uniform(1.1, 1.8)
    z = points[:, 2] + distance
    return points[:, :2] * distance / z[:, None]


def _curl(document: np.ndarray, px_per_mm: float, rng: random.Random) -> np.ndarray:
    """Paper that is not quite flat: a gentle wave of up to about half a millimetre."""
    h, w = document.shape[:2]
    amplitude = rng.uniform(0, 0.5) * px_per_mm
    if amplitude < 0.5:
        return document
    xs, ys = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)
    wave = rng.uniform(0.5, 1.5) * 2 * np.pi / max(w, h)
    phase = rng.uniform(0, 2 * np.pi)
    across = np.empty((h, w), np.float32)
    across[:] = xs + amplitude * np.sin(xs * wave + phase) * 0.4
    down = np.add.outer(ys * wave * 0.3, xs * wave * 0.7 + phase)
    np.sin(down, out=down)
    down *= amplitude
    down += ys[:, None]
    return cv2.remap(document, across, down, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _background(w: int, h: int, rng: random.Random) -> np.ndarray:
    """A table: a colour, a grain and a few edges."""
    base = np.array([rng.uniform(0.05, 0.8) for _ in range(3)], np.float32)
    small = np.random.default_rng(rng.getrandbits(32)).random((24, 24, 3), np.float32)
    texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    stripes = None
    if rng.random() < 0.5:  # wood-like stripes
        ys = np.arange(h, dtype=np.float32)[:, None, None]
        stripes = 0.5 * (0.5 + 0.5 * np.sin(ys / rng.uniform(6, 30)))
    for rows in _bands(w, h):
        band = texture[rows]
        if stripes is not None:
            band *= 0.5
            band += stripes[rows]
        band *= 0.5
        band += 0.75
        band *= base
        np.clip(band, 0, 1, out=band)
    for _ in range(rng.randint(0, 3)):  # drawn over the clipped table: their colours are within 0..1
        colour = tuple(rng.uniform(0, 1) for _ in range(3))
        p1 = (rng.randint(0, w), rng.randint(0, h))
        p2 = (rng.randint(0, w), rng.randint(0, h))
        cv2.line(texture, p1, p2, colour, rng.randint(2, 20))
    return texture


def _light(w: int, h: int, rng: random.Random) -> Callable[[slice], np.ndarray]:
    """Uneven light: a gradient and a spot, within about 40 % either way of the mean; the light of a band
    of rows (the whole frame's light is never held at once)."""
    xs, ys = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp_x, ramp_y = np.cos(angle) * xs / w, np.sin(angle) * ys / h  # float64 (NumPy's cos and sin)
    sx, sy = rng.uniform(0, w), rng.uniform(0, h)
    spot_x, spot_y = ((xs - sx) / w) ** 2, ((ys - sy) / h) ** 2
    spread, ramp_weight, spot_weight = rng.uniform(0.1, 0.6), rng.uniform(0, 1), rng.uniform(0, 1)

    def field(rows: slice) -> np.ndarray:
        ramp = np.add.outer(ramp_y[rows], ramp_x)
        ramp *= ramp_weight
        spot = np.add.outer(spot_y[rows], spot_x)
        np.negative(spot, out=spot)
        spot /= spread
        np.exp(spot, out=spot)
        spot *= spot_weight
        ramp += spot
        return ramp

    low, high = np.inf, -np.inf
    for rows in _bands(w, h):
        band = field(rows)
        low, high = min(low, band.min()), max(high, band.max())
    span = max(float(high - low), 1e-6)
    strength = rng.uniform(0.0, 0.4)
    brightness = rng.uniform(0.85, 1.0)

    def light(rows: slice) -> np.ndarray:
        band = field(rows)
        band -= low
        band /= span
        band *= 2 * strength
        band += 1 - strength
        band *= brightness
        return band.astype(np.float32)

    return light


def _shadow(w: int, h: int, rng: random.Random) -> np.ndarray | None:
    """A soft shadow (a hand, a phone) over part of the picture, or none (None)."""
    if rng.random() < 0.35:
        return None
    k = 400 / max(w, h)  # drawn small and blurred there: a soft shadow has no detail
    small = np.ones((max(1, int(h * k)), max(1, int(w * k))), np.float32)
    points = np.array([[rng.uniform(-0.3, 1.3) * w * k, rng.uniform(-0.3, 1.3) * h * k] for _ in range(5)], np.int32)
    cv2.fillPoly(small, [cv2.convexHull(points)], rng.uniform(0.55, 0.8))
    small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.015, 0.05) * 400)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def cut(picture: np.ndarray, px_per_mm: float, rng: random.Random) -> np.ndarray:
    """A sheet cut from its page by hand: up to a millimetre more or less paper at each edge."""
    margins = [round(rng.uniform(-1.0, 1.0) * px_per_mm) for _ in range(4)]
    paper = picture[2, 2].copy()
    top, bottom, left, right = (max(m, 0) for m in margins)
    grown = np.pad(picture, ((top, bottom), (left, right), (0, 0)), mode="edge")
    grown[:top], grown[grown.shape[0] - bottom:] = paper, paper
    grown[:, :left], grown[:, grown.shape[1] - right:] = paper, paper
    cut = [max(-m, 0) for m in margins]
    return grown[cut[0]:grown.shape[0] - cut[1], cut[2]:grown.shape[1] - cut[3]]
