"""Fine alignment: the flattened photo and the blank sheet in, the photo nudged onto the sheet where curled paper or the lens bent it out.

The markers fix the sheet's corners, but paper is rarely quite flat. Patch
by patch the printed structure (cell edges, numbers, lines) of photo and
blank sheet are matched by phase correlation, which ignores light and
colour; trusted shifts are smoothed into a displacement field that moves the
photo onto the blank sheet.
"""

from __future__ import annotations

from itertools import product

import cv2
import numpy as np

from printgen.scan.raster import luma
from printgen.scan.template import per_blank
from printgen.scan.thresholds import (
    ALIGN_FLAT,
    ALIGN_LIMIT,
    ALIGN_NEIGHBOURS,
    ALIGN_OUTLIER,
    ALIGN_PATCH,
    ALIGN_SMOOTH,
    ALIGN_TRUST,
    STRUCTURE_FLOOR,
    STRUCTURE_SIGMA,
)


def align(photo: np.ndarray, blank: np.ndarray, px_per_mm: float) -> np.ndarray:
    """`photo` (H x W x C floats, sheet pixels) moved so its print lies on `blank`'s (both RGB or both grey)."""
    field = displacement(_structure(_grey(photo)), _blank_structure(blank).copy(), px_per_mm,
                         _patches(blank, px_per_mm))
    if field is None:
        return photo
    dx, dy = field
    h, w = photo.shape[:2]
    xs, ys = np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)[:, None]
    return cv2.remap(photo, xs + dx, ys + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image.astype(np.float32)
    return luma(image).astype(np.float32)


def _structure(grey: np.ndarray) -> np.ndarray:
    """Edges only: light, colour and large marks' interiors do not count."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)
    return magnitude / (cv2.GaussianBlur(magnitude, (0, 0), STRUCTURE_SIGMA) + STRUCTURE_FLOOR)


@per_blank
def _blank_structure(blank: np.ndarray) -> np.ndarray:
    """`blank`'s structure, to be copied before `displacement` (which changes it)."""
    return _structure(_grey(blank))


def _grid(shape: tuple[int, ...], px_per_mm: float) -> tuple[int, int, int, int]:
    """The patches' side and step (px), and how many rows and columns of them a sheet of `shape` is matched in."""
    size = round(ALIGN_PATCH * px_per_mm)
    step = size // 2
    return size, step, max(1, (shape[0] - size) // step + 1), max(1, (shape[1] - size) // step + 1)


@per_blank
def _patches(blank: np.ndarray, px_per_mm: float) -> list[tuple[int, int]]:
    """The patches (row, column) of `blank`'s structure that `displacement` matches, in order: those whole and
    not flat when their turn comes (`phaseCorrelate` windows each in place, so an earlier one's window shows in
    the next's overlap)."""
    structure = _blank_structure(blank).copy()
    size, step, rows, cols = _grid(structure.shape, px_per_mm)
    window = cv2.createHanningWindow((size, size), cv2.CV_32F)
    matched = []
    for r, c in product(range(rows), range(cols)):
        a = structure[r * step:r * step + size, c * step:c * step + size]
        if a.shape == (size, size) and float(a.std()) >= ALIGN_FLAT:
            a *= window  # as phaseCorrelate does
            matched.append((r, c))
    return matched


def displacement(photo: np.ndarray, blank: np.ndarray, px_per_mm: float,
                 patches: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray] | None:
    """Per pixel, where in `photo` each pixel of `blank` is (dx, dy), or None when nothing can be trusted;
    matched at `patches` (`_patches` of the sheet)."""
    h, w = blank.shape
    size, step, rows, cols = _grid(blank.shape, px_per_mm)
    window = cv2.createHanningWindow((size, size), cv2.CV_32F)
    shifts = np.zeros((rows, cols, 2), np.float32)
    weights = np.zeros((rows, cols), np.float32)
    limit = ALIGN_LIMIT * px_per_mm
    for r, c in patches:
        y0, x0 = r * step, c * step
        a = blank[y0:y0 + size, x0:x0 + size]
        b = photo[y0:y0 + size, x0:x0 + size]
        (sx, sy), response = cv2.phaseCorrelate(a, b, window)  # which windows `a` and `b` in place
        if response >= ALIGN_TRUST and abs(sx) <= limit and abs(sy) <= limit:
            shifts[r, c] = (sx, sy)
            weights[r, c] = response
    if not weights.any():
        return None
    shifts = _robust(shifts, weights)
    spread = np.zeros_like(shifts)
    norm = cv2.GaussianBlur(weights, (0, 0), ALIGN_SMOOTH) + 1e-6
    for k in range(2):
        spread[..., k] = cv2.GaussianBlur(shifts[..., k] * weights, (0, 0), ALIGN_SMOOTH) / norm
    full = [cv2.resize(spread[..., k], (w, h), interpolation=cv2.INTER_LINEAR) for k in range(2)]
    return full[0], full[1]


def _robust(shifts: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Shifts that disagree with their neighbours' median by more than ALIGN_OUTLIER lose their weight (in place)."""
    for r, c in zip(*np.nonzero(weights)):  # in order: a shift found wrong no longer counts for those after it
        top, left = max(r - 1, 0), max(c - 1, 0)
        near = weights[top:r + 2, left:c + 2] != 0
        near[r - top, c - left] = False
        count = int(near.sum())
        if count >= ALIGN_NEIGHBOURS:
            ordered = np.sort(shifts[top:r + 2, left:c + 2][near], axis=0)
            median = (ordered[(count - 1) // 2] + ordered[count // 2]) / 2  # as np.median, in float32
            if np.abs(shifts[r, c] - median).max() > ALIGN_OUTLIER:
                weights[r, c] = 0.0
    return shifts
