"""Reading a sheet's code in a photo: the photo, a homography and where the code should be in, its text (or None) out.

The code is found near where the layout printed it (a small search for its
three finder patterns absorbs a misjudged position), then every module is
sampled at its known place in the photo itself, so a code whose modules are
only two or three pixels wide still reads. The sampled modules, with the
parts every QR code shares set as they must be, are redrawn crisply and
decoded by OpenCV's QR decoder (which corrects the remaining errors).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from printgen.marks.codes import modules
from printgen.scan.thresholds import (
    CODE_CONTRAST,
    CODE_PX_PER_MM,
    CODE_SEARCH,
    CODE_VERSIONS,
    CODE_WIDE_SEARCH,
    CUT_OFFSETS,
    DEBLUR_MIN_DARK,
    DEBLUR_ROUNDS,
    DEBLUR_SAMPLES,
    FINDER_BLUR,
    FINDER_MATCH,
    MODULE_SHIFTS,
    MODULE_SPREAD,
    REDRAW_PX,
)

QUIET = 4
"""Modules of light margin round a QR code (its quiet zone, as the standard asks)."""


def read_code(gray: np.ndarray, to_photo: np.ndarray, box: tuple[float, float, float, float]) -> str | None:
    """The text of the code printed in `box` (sheet mm) of the photo `gray`, mapped by homography `to_photo`."""
    x, y, size, _ = box
    origin = (x - CODE_SEARCH, y - CODE_SEARCH)
    span = size + 2 * CODE_SEARCH
    crop = _warp(gray, to_photo, origin, span, CODE_PX_PER_MM).astype(np.float32)
    tries = []
    for version in CODE_VERSIONS:
        template, mask = _finders(version, size, CODE_PX_PER_MM)
        scores = cv2.matchTemplate(crop, template, cv2.TM_CCOEFF_NORMED, mask=mask)
        scores = np.nan_to_num(scores, nan=-1.0, posinf=-1.0, neginf=-1.0)
        _, best, _, (bx, by) = cv2.minMaxLoc(scores)
        tries.append((best, version, (origin[0] + bx / CODE_PX_PER_MM, origin[1] + by / CODE_PX_PER_MM)))
    tries.sort(reverse=True)
    for score, version, (cx, cy) in tries:
        if score < FINDER_MATCH:
            break
        text = _sample_and_decode(gray, to_photo, version, (cx, cy), size)
        if text:
            return text
    return _found_anyway(gray, to_photo, box)


def _found_anyway(gray: np.ndarray, to_photo: np.ndarray, box: tuple[float, float, float, float]) -> str | None:
    """The code's text as OpenCV's own QR reader finds it around `box` (each of CODE_WIDE_SEARCH in turn): it
    looks for the code's corners itself, so a code that a curled sheet or a wide lens has moved, turned or bent
    away from where the markers put it is still read (this module's reader samples it where the markers say)."""
    x, y, size, _ = box
    for reach in CODE_WIDE_SEARCH:
        crop = _warp(gray, to_photo, (x - reach, y - reach), size + 2 * reach, CODE_PX_PER_MM)
        try:
            text, _, _ = cv2.QRCodeDetector().detectAndDecode(crop)
        except cv2.error:
            continue
        if text:
            return str(text)
    return None


def _warp(gray: np.ndarray, to_photo: np.ndarray, origin: tuple[float, float], span: float,
          px_per_mm: float) -> np.ndarray:
    """The square of `span` mm at `origin` (sheet mm) of the photo, resampled at `px_per_mm`."""
    scale = np.array([[1 / px_per_mm, 0, origin[0]], [0, 1 / px_per_mm, origin[1]], [0, 0, 1]])
    side = round(span * px_per_mm)
    return cv2.warpPerspective(gray, to_photo @ scale, (side, side), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)


@cache
def _function_modules(version: int) -> tuple[np.ndarray, np.ndarray]:
    """Which modules every code of `version` shares (finders, separators, timing, alignment) and their values."""
    n = 17 + 4 * version
    known = np.zeros((n, n), bool)
    dark = np.zeros((n, n), bool)
    for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):
        for r in range(-1, 8):
            for c in range(-1, 8):
                rr, cc = r0 + r, c0 + c
                if 0 <= rr < n and 0 <= cc < n:
                    known[rr, cc] = True
                    ring = max(abs(r - 3), abs(c - 3))
                    dark[rr, cc] = ring in (0, 1, 3)
    for i in range(8, n - 8):
        known[6, i] = known[i, 6] = True
        dark[6, i] = dark[i, 6] = i % 2 == 0
    if version >= 2:
        centre = n - 7
        for r in range(-2, 3):
            for c in range(-2, 3):
                known[centre + r, centre + c] = True
                dark[centre + r, centre + c] = max(abs(r), abs(c)) != 1
    known[n - 8, 8] = dark[n - 8, 8] = True  # the dark module every code has
    reference = np.array(modules("0", version), bool)  # printgen's codes share one mask and level: one format
    for r, c in [(8, i) for i in (*range(6), 7, 8, *range(n - 8, n))] + \
                [(i, 8) for i in (*range(6), 7, *range(n - 7, n))]:
        known[r, c] = True
        dark[r, c] = reference[r, c]
    return known, dark


@cache
def _finders(version: int, size: float, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """A picture of the finder patterns of a `version` code `size` mm wide, and the mask that leaves out the rest."""
    n = 17 + 4 * version
    known, dark = _function_modules(version)
    finder = np.zeros((n, n), bool)
    finder[:8, :8] = finder[:8, n - 8:] = finder[n - 8:, :8] = True
    side = round(size * px_per_mm)
    grid = np.where(dark, 0.0, 1.0).astype(np.float32)
    template = cv2.resize(grid, (side, side), interpolation=cv2.INTER_NEAREST)
    template = cv2.GaussianBlur(template, (0, 0), FINDER_BLUR)
    mask = cv2.resize((finder & known).astype(np.float32), (side, side), interpolation=cv2.INTER_NEAREST)
    return (template * 255).astype(np.float32), mask.astype(np.float32)


def _sample_and_decode(gray: np.ndarray, to_photo: np.ndarray, version: int, corner: tuple[float, float],
                       size: float) -> str | None:
    n = 17 + 4 * version
    module = size / n
    known, dark = _function_modules(version)
    tried: set[bytes] = set()
    for shift in MODULE_SHIFTS:
        values = _sample(gray, to_photo, corner, module, n, shift)
        low = float(np.median(values[known & dark]))
        high = float(np.median(values[known & ~dark]))
        if high - low < CODE_CONTRAST:
            return None
        for guess in _guesses(values, known, dark, low, high):
            if (packed := np.packbits(guess).tobytes()) in tried:  # the same grid again: it failed before
                continue
            tried.add(packed)
            text = _decode(guess)
            if text:
                return text
    return None


def _guesses(values: np.ndarray, known: np.ndarray, dark: np.ndarray, low: float, high: float):  # type: ignore[no-untyped-def]
    """Module grids to try: first undoing the blur that mixes each module with its neighbours (its strength
    learnt from the modules every code shares), then plain thresholds."""
    model = _blur_model(values, known, dark)
    if model is not None:
        bits = values < (low + high) / 2
        bits[known] = dark[known]
        for _ in range(DEBLUR_ROUNDS):
            bits = _equalise(values, bits, known, dark, model)
        yield bits
    for offset in CUT_OFFSETS:
        bits = values < (low + high) / 2 + offset * (high - low)
        bits[known] = dark[known]
        yield bits


RINGS = (((1, 0),), ((1, 1),), ((2, 0),), ((2, 1),), ((2, 2),))
"""Neighbours by distance: edge, corner, two away straight, knight's move, two away diagonally."""


def _neighbours(bits: np.ndarray) -> list[np.ndarray]:
    """For each module, how many of its neighbours in each ring are dark (outside the code counts as light)."""
    n = bits.shape[0]
    padded = np.pad(bits.astype(np.float64), 2)
    rings = []
    for ((a, b),) in RINGS:
        offsets = {(sa * a, sb * b) for sa in (1, -1) for sb in (1, -1)} | {(sb * b, sa * a) for sa in (1, -1)
                                                                            for sb in (1, -1)}
        rings.append(sum(padded[2 + dy:2 + dy + n, 2 + dx:2 + dx + n] for dy, dx in offsets))
    return rings


def _blur_model(values: np.ndarray, known: np.ndarray, dark: np.ndarray) -> np.ndarray | None:
    """Least-squares fit of value = c + a * dark + sum of k_ring * dark neighbours in each ring, over shared
    modules whose neighbourhood is shared too."""
    n = known.shape[0]
    full = np.pad(known, 2, constant_values=True)
    use = known.copy()
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            use &= full[2 + dy:2 + dy + n, 2 + dx:2 + dx + n]
    if use.sum() < DEBLUR_SAMPLES * (len(RINGS) + 2):
        return None
    design = np.stack([np.ones(use.sum()), dark[use], *(ring[use] for ring in _neighbours(dark))], axis=1)
    model, *_ = np.linalg.lstsq(design, values[use], rcond=None)
    return model if model[1] < -DEBLUR_MIN_DARK else None


def _equalise(values: np.ndarray, bits: np.ndarray, known: np.ndarray, dark: np.ndarray,
              model: np.ndarray) -> np.ndarray:
    """One round of deciding each module with its neighbours' share of its value taken away."""
    rest = values - model[0] - sum(k * ring for k, ring in zip(model[2:], _neighbours(bits)))
    decided = rest / model[1] > 0.5
    decided[known] = dark[known]
    return decided


def _sample(gray: np.ndarray, to_photo: np.ndarray, corner: tuple[float, float], module: float, n: int,
            shift: tuple[float, float]) -> np.ndarray:
    """Each module's grey value, averaged over the middle of the module in the photo."""
    offsets = np.array([-MODULE_SPREAD, 0.0, MODULE_SPREAD])
    centres = (np.arange(n) + 0.5)
    total = np.zeros((n, n), np.float64)
    for dy in offsets:
        for dx in offsets:
            xs = corner[0] + (centres[None, :] + dx + shift[0]) * module
            ys = corner[1] + (centres[:, None] + dy + shift[1]) * module
            points = np.stack([np.broadcast_to(xs, (n, n)), np.broadcast_to(ys, (n, n))], axis=-1).reshape(-1, 1, 2)
            mapped = cv2.perspectiveTransform(points.astype(np.float64), to_photo).reshape(n, n, 2).astype(np.float32)
            total += cv2.remap(gray, mapped[..., 0], mapped[..., 1], cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    return total / offsets.size**2


def _decode(bits: np.ndarray) -> str | None:
    """Decode a module grid (True = dark) by drawing it crisply with a quiet zone."""
    image = np.where(bits, 0, 255).astype(np.uint8)
    image = np.pad(image, QUIET, constant_values=255)
    image = cv2.resize(image, None, fx=REDRAW_PX, fy=REDRAW_PX, interpolation=cv2.INTER_NEAREST)
    near, far = QUIET * REDRAW_PX, (QUIET + bits.shape[0]) * REDRAW_PX  # the code's corners are known
    corners = np.float32([[near, near], [far, near], [far, far], [near, far]]).reshape(1, 4, 2)
    text, _ = _qr().decode(image, corners)
    return text or None


@cache
def _qr() -> cv2.QRCodeDetector:
    return cv2.QRCodeDetector()
