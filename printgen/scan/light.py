"""The light on the sheet: the photo's brightness and what the print should look like in, the light falling on every point out.

Light and ink both darken the photo; they differ in shape. Ink is strokes
and blobs the size of a field at most; light changes smoothly or, at a
shadow's edge, sharply along a line that runs on across the print. So the
light is what remains of the photo divided by the print's expected
brightness once everything dark and narrower than LIGHT_REACH is closed
over (a morphological closing: the largest dark stroke or blob vanishes,
a shadow's edge stays where it is). It is measured on a coarse grid where
each point is the median of its pixels (noise, print grain), only where the
print is plain, bright enough to say something and not overexposed; in a
picture overexposed all over (a scan, a render), the clipped paper still
says the light is at least what clips it.

Where the light changes sharply (a shadow's or a glare's edge) a mark
cannot be told from the light with confidence: `edges` says how sharply,
for the fields to be checked by a person.
"""

from __future__ import annotations

import cv2
import numpy as np

from printgen.scan.thresholds import (
    CLIPPED,
    LIGHT_COLOURS,
    LIGHT_GRID,
    LIGHT_REACH,
    MIN_GAIN,
    OVEREXPOSED,
    PLAIN,
)


def plain(expected: np.ndarray) -> np.ndarray:
    """Where the expected sheet is flat (its edges, where a small misalignment changes everything, are not)."""
    gx = cv2.Sobel(expected, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(expected, cv2.CV_32F, 0, 1, ksize=3)
    flat = (np.hypot(gx, gy) < PLAIN).astype(np.uint8)
    return cv2.erode(flat, np.ones((3, 3), np.uint8)).astype(bool)


def light(raw: np.ndarray, expected: np.ndarray, px_per_mm: float, flat: np.ndarray | None = None) -> np.ndarray:
    """The light on every pixel (1 = the light the expected sheet is rendered in), from the photo's luma `raw`
    and the sheet's expected luma under that light (`flat`: `plain(expected)` when already known)."""
    h, w = raw.shape
    cell = max(1, round(px_per_mm / LIGHT_GRID))
    rows, cols = h // cell, w // cell
    ratio = raw / np.maximum(expected, 1e-3)
    telling = (plain(expected) if flat is None else flat) & (expected >= LIGHT_COLOURS)
    clipped = telling & (raw >= CLIPPED)
    usable = telling & ~clipped
    blocks = _blocks(np.where(usable, ratio, np.nan), rows, cols, cell)
    counts = np.sum(~np.isnan(blocks), axis=2)
    coarse = np.zeros((rows, cols), np.float32)
    known = counts * 2 >= cell * cell  # at least half of a point's pixels tell the light
    if known.any():  # each point's median: its values sorted, the unusable (NaN) last
        ordered, count = np.sort(blocks[known], axis=1), counts[known]
        points = np.arange(len(count))
        coarse[known] = (ordered[points, (count - 1) // 2] + ordered[points, count // 2]) / 2
    filled = _filled(coarse, known)
    if np.count_nonzero(clipped) >= OVEREXPOSED * max(int(np.count_nonzero(telling)), 1):
        filled = np.maximum(filled, _floor(ratio, clipped, rows, cols, cell))
    reach = max(1, round(LIGHT_REACH * LIGHT_GRID))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    closed = cv2.erode(cv2.dilate(filled, disc), disc)  # dark and narrower than the disc: closed over
    closed = np.maximum(closed, MIN_GAIN)
    smooth = cv2.GaussianBlur(closed, (0, 0), 0.7)
    return cv2.resize(smooth, (w, h), interpolation=cv2.INTER_LINEAR)


def _blocks(values: np.ndarray, rows: int, cols: int, cell: int) -> np.ndarray:
    """`values` as `rows` x `cols` grid points, each the `cell` x `cell` pixels it covers (flattened)."""
    return values[: rows * cell, : cols * cell].reshape(rows, cell, cols, cell).transpose(0, 2, 1, 3).reshape(
        rows, cols, -1)


def _floor(ratio: np.ndarray, clipped: np.ndarray, rows: int, cols: int, cell: int) -> np.ndarray:
    """The least light each grid point's clipped pixels allow, where they are most of its pixels (else 0): an
    overexposed picture (a scan, a render, a bright photo) shows its paper white, and the light there is at
    least what makes it so; else the light of its white paper would be told by the few pixels ink darkens."""
    blocks = _blocks(np.where(clipped, ratio, np.nan), rows, cols, cell)
    mostly = np.sum(~np.isnan(blocks), axis=2) * 2 >= cell * cell
    floor = np.zeros((rows, cols), np.float32)
    if mostly.any():
        floor[mostly] = np.nanmin(blocks[mostly], axis=1)  # (each pixel says at least its own ratio)
    return floor


def _filled(values: np.ndarray, known: np.ndarray) -> np.ndarray:
    """`values` where `known`, elsewhere spread from the known points around (nearer ones first, then wider),
    so that a shadow's edge across a dark band stays about where the points on either side put it."""
    if not known.any():
        return np.ones(values.shape, np.float32)
    filled = np.where(known, values, 0).astype(np.float32)
    have = known.astype(np.float32)
    for sigma in (1.5, 4.0, 12.0, 40.0):  # grid points
        if have.all():
            break
        spread = cv2.GaussianBlur(filled * have, (0, 0), sigma)
        weight = cv2.GaussianBlur(have, (0, 0), sigma)
        holes = (have == 0) & (weight > 1e-3)
        filled[holes] = spread[holes] / weight[holes]
        have[holes] = 1.0
    filled[have == 0] = float(np.median(values[known]))
    return filled


def edges(gain: np.ndarray, px_per_mm: float) -> np.ndarray:
    """How sharply the light changes at every pixel: the change of its logarithm over a millimetre."""
    log = np.log(np.maximum(gain, MIN_GAIN)).astype(np.float32)
    gx = cv2.Sobel(log, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(log, cv2.CV_32F, 0, 1, ksize=3) / 8
    return np.hypot(gx, gy) * px_per_mm
