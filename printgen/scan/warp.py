"""Flattening a sheet that is not flat: a photo, the markers' homography and the blank sheet in, a smooth map of sheet millimetres to photo pixels out.

Four corner markers fix a flat sheet; a curled, lifted or folded one, or a
phone's wide-angle lens, moves the print between them by millimetres. The
printed structure itself (cell edges, numbers, bands, tables) is matched
against the blank sheet, patch by patch and coarse to fine: first large
patches searched far, fitted by a smooth polynomial (with the markers'
corners, which are known exactly); then smaller patches searched near the
first guess, their shifts spread into a smooth displacement field. Matching
uses edge structure, so light and colour do not matter, and shifts that
disagree with their neighbours are not believed. What the field cannot
explain, `align` and the ink measure see as print that does not match.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import cv2
import numpy as np

from printgen.scan.raster import luma
from printgen.scan.template import per_blank
from printgen.scan.thresholds import (
    WARP_DEGREE,
    WARP_LEVELS,
    WARP_MATCH,
    WARP_PX_PER_MM,
    WARP_RANGE,
    WARP_SMOOTH,
    WARP_STRIDE,
    WARP_STRUCTURE_SIGMA,
)


@dataclass(frozen=True)
class Warp:
    """Where the print of each point of the sheet lies in the markers' frame: sheet (u, v) mm is seen at
    (u + dx, v + dy) of the flat sheet the markers' homography describes. `dx`, `dy` are sampled every
    `step` mm from the sheet's top left; `points` says how many patches the fit rests on."""

    dx: np.ndarray
    dy: np.ndarray
    step: float
    points: int

    def at(self, u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The displacement (mm) at sheet points `u`, `v` (any shape), interpolated."""
        mx = (u / self.step).astype(np.float32)
        my = (v / self.step).astype(np.float32)
        dx = cv2.remap(self.dx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        dy = cv2.remap(self.dy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return dx, dy


FLAT = None
"""No warp: the markers' homography alone."""


def flatten(photo: np.ndarray, to_photo: np.ndarray, width: float, height: float, px_per_mm: float,
            warp: Warp | None = FLAT, extend: float = 0.0) -> np.ndarray:
    """The sheet (`width` x `height` mm, `extend` mm more on every side) cut out of `photo` at `px_per_mm`,
    through the homography `to_photo` (sheet mm to photo pixels) and `warp`; pixel (i, j) covers the
    sheet's millimetres from (j, i) / px_per_mm - extend. A photo much finer than that is shrunk first."""
    return _cut(*shrunk(photo, to_photo, width, height, px_per_mm), width, height, px_per_mm, warp, extend)


def shrunk(photo: np.ndarray, to_photo: np.ndarray, width: float, height: float,
          px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """`photo` shrunk when it is much finer over the sheet than `px_per_mm` needs, and the homography (sheet mm
    to its pixels) that goes with it."""
    local = _local_scale(to_photo, width, height)
    if local <= 1.6 * px_per_mm:
        return photo, to_photo
    shrink = 1.25 * px_per_mm / local
    if abs(1 / shrink - round(1 / shrink)) < 1e-6:  # a whole factor (a photo shrunk for a finer scale): block means
        shrink = 1 / round(1 / shrink)
    image = cv2.resize(photo, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return image, np.array([[shrink, 0, 0.5 * shrink - 0.5], [0, shrink, 0.5 * shrink - 0.5], [0, 0, 1]]) @ to_photo


def _cut(image: np.ndarray, matrix: np.ndarray, width: float, height: float, px_per_mm: float, warp: Warp | None,
         extend: float) -> np.ndarray:
    """`flatten` from an image already shrunk and its homography `matrix`."""
    margin = 2 * round(extend * px_per_mm)  # whole pixels each side, as `_shifts` counts them
    cols, rows = round(width * px_per_mm) + margin, round(height * px_per_mm) + margin
    u = (np.arange(cols, dtype=np.float32) + 0.5) / px_per_mm - extend
    v = (np.arange(rows, dtype=np.float32) + 0.5) / px_per_mm - extend
    uu, vv = np.meshgrid(u, v)
    if warp is not None:
        dx, dy = warp.at(np.clip(uu, 0, width), np.clip(vv, 0, height))
        uu, vv = uu + dx, vv + dy
    w = matrix[2, 0] * uu + matrix[2, 1] * vv + matrix[2, 2]
    x = (matrix[0, 0] * uu + matrix[0, 1] * vv + matrix[0, 2]) / w
    y = (matrix[1, 0] * uu + matrix[1, 1] * vv + matrix[1, 2]) / w
    return cv2.remap(image, x.astype(np.float32), y.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _local_scale(to_photo: np.ndarray, width: float, height: float) -> float:
    """The photo's smallest resolution over the sheet, in pixels per mm."""
    scales = []
    for x, y in ((0, 0), (width, 0), (width, height), (0, height), (width / 2, height / 2)):
        points = np.float64([[[x, y]], [[x + 1, y]], [[x, y + 1]]])
        p = cv2.perspectiveTransform(points, to_photo).reshape(3, 2)
        scales.append(min(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0])))
    return float(min(scales))


def structure(grey: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Edges only, each against the edges around it: light, colour and the inside of large marks drop out."""
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.sqrt(gx * gx + gy * gy)
    around = cv2.GaussianBlur(magnitude, (0, 0), WARP_STRUCTURE_SIGMA * px_per_mm)
    return magnitude / (around + 0.02)


def find_warp(photo: np.ndarray, to_photo: np.ndarray, blank: np.ndarray, width: float, height: float,
              markers: list[tuple[tuple[float, float], tuple[float, float]]]) -> Warp | None:
    """The warp that lays the print of `photo` (BGR) on `blank` (RGB floats at WARP_PX_PER_MM), from the
    printed structure and the markers' corners (pairs of sheet mm and where the markers' frame sees them),
    coarse to fine; None when too little of the print could be matched to trust any."""
    px = WARP_PX_PER_MM
    template = _template(blank)
    markers_found = [(u, v, ox - u, oy - v, 1.0) for (u, v), (ox, oy) in markers]
    step = WARP_SMOOTH[-1] / 2
    grid_u = np.arange(0.0, width + step, step)
    grid_v = np.arange(0.0, height + step, step)
    gu, gv = np.meshgrid(grid_u, grid_v)
    dx = np.zeros(gu.shape, np.float32)
    dy = np.zeros(gu.shape, np.float32)
    warp: Warp | None = FLAT  # (a warp of nothing but zeros moves no point, and costs an interpolation)
    used = 0
    image, matrix = shrunk(photo, to_photo, width, height, px)
    for level, (patch, search, stride) in enumerate(zip(WARP_LEVELS, WARP_RANGE, WARP_STRIDE)):
        search = round(search * px) / px  # whole pixels: the photo's cut and the search must agree to the pixel
        seen = _cut(image, matrix, width, height, px, warp, search)
        grey = luma(np.divide(seen[..., ::-1], np.float32(255), dtype=np.float32)).astype(np.float32)
        found = _shifts(structure(grey, px), template, px, patch, search, stride)
        if level == 0:
            found += markers_found
        found = _trusted(found, patch)
        if len(found) < 4:
            if level == 0:
                return None
            break
        used = max(used, len(found))
        ru, rv = (np.array([f[k] for f in found], np.float32) for k in (0, 1))
        sx, sy, weight = (np.array([f[k] for f in found], np.float32) for k in (2, 3, 4))
        if level == 0:
            fx, fy = _polynomial(ru, rv, sx, sy, weight, width, height, gu, gv)
        else:
            fx, fy = _spread(ru, rv, sx, sy, weight, gu, gv, WARP_SMOOTH[level])
        dx, dy = dx + fx, dy + fy
        warp = Warp(dx, dy, step, used)
    return warp


@per_blank
def _template(blank: np.ndarray) -> np.ndarray:
    """The blank sheet's structure (`blank` at WARP_PX_PER_MM)."""
    return structure(luma(blank).astype(np.float32), WARP_PX_PER_MM)


@per_blank
def _textured(template: np.ndarray, size: int, stride: int) -> list[tuple[int, int]]:
    """The top left corners of the patches of `size` px (every `stride` px) that show enough of the print to be
    matched."""
    h, w = template.shape
    ys, xs = range(0, max(h - size, 0) + 1, stride), range(0, max(w - size, 0) + 1, stride)
    if h < size or w < size:
        return [(y0, x0) for y0 in ys for x0 in xs if float(template[y0:y0 + size, x0:x0 + size].std()) >= 0.05]
    sums, squares = cv2.integral2(template, sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)  # every patch's at once
    top, left = np.array(ys)[:, None], np.array(xs)[None, :]

    def total(table: np.ndarray) -> np.ndarray:
        return table[top + size, left + size] - table[top, left + size] - table[top + size, left] + table[top, left]

    mean = total(sums) / (size * size)
    spread = np.sqrt(np.maximum(total(squares) / (size * size) - mean * mean, 0.0))
    return [(y0, x0) for (i, y0), (j, x0) in product(enumerate(ys), enumerate(xs))  # near the line: as NumPy has it
            if (spread[i, j] >= 0.05 if abs(spread[i, j] - 0.05) > 1e-4
                else float(template[y0:y0 + size, x0:x0 + size].std()) >= 0.05)]


def _shifts(seen: np.ndarray, template: np.ndarray, px: float, patch: float,
            search: float, stride: float) -> list[tuple[float, float, float, float, float]]:
    """Each patch of the blank sheet's structure (patches `stride` of a patch apart) found in the photo's (which is
    `search` mm larger on every side): (u, v) its middle in sheet mm, (sx, sy) how far the photo's print lies from
    it, and the match."""
    size = round(patch * px)
    reach = round(search * px)
    found = []
    for y0, x0 in _textured(template, size, max(1, int(stride * size))):
        part = template[y0:y0 + size, x0:x0 + size]
        region = seen[y0:y0 + size + 2 * reach, x0:x0 + size + 2 * reach]
        if region.shape[0] < size or region.shape[1] < size:
            continue
        scores = cv2.matchTemplate(region, part, cv2.TM_CCOEFF_NORMED)
        _, best, _, (bx, by) = cv2.minMaxLoc(scores)
        if best < WARP_MATCH:
            continue
        ox, oy = _subpixel(scores, bx, by)
        found.append(((x0 + size / 2) / px, (y0 + size / 2) / px, (ox - reach) / px, (oy - reach) / px,
                      float(best)))
    return found


def _subpixel(scores: np.ndarray, x: int, y: int) -> tuple[float, float]:
    """The peak of `scores` at (x, y) to a fraction of a pixel (a parabola through it and its neighbours)."""
    def refine(minus: float, middle: float, plus: float) -> float:
        bend = minus - 2 * middle + plus
        return 0.0 if bend >= 0 else float(min(max(0.5 * (minus - plus) / bend, -0.5), 0.5))

    h, w = scores.shape
    dx = refine(*scores[y, x - 1:x + 2]) if 0 < x < w - 1 else 0.0
    dy = refine(*scores[y - 1:y + 2, x]) if 0 < y < h - 1 else 0.0
    return x + dx, y + dy


def _trusted(found: list[tuple[float, float, float, float, float]],
             patch: float) -> list[tuple[float, float, float, float, float]]:
    """The shifts that agree with their neighbours' (within about a patch): one found in the wrong place (a
    repeating cell, a mark) disagrees with the print around it."""
    if len(found) < 4:
        return found
    points = np.array([(f[0], f[1]) for f in found])
    shifts = np.array([(f[2], f[3]) for f in found])
    distance = np.hypot(points[None, :, 0] - points[:, None, 0], points[None, :, 1] - points[:, None, 1])
    near = (distance > 0) & (distance <= 2.5 * patch)
    count = near.sum(axis=1)
    rows = np.arange(len(found))
    owner, neighbour = np.nonzero(near)  # row by row
    slot = np.arange(len(owner)) - np.repeat(np.cumsum(count) - count, count)
    median = np.empty_like(shifts)
    for k in range(2):  # each point's neighbours' median: theirs sorted first, then inf (as many as the most have)
        ordered = np.full((len(found), max(int(count.max()), 1)), np.inf)
        ordered[owner, slot] = shifts[neighbour, k]
        ordered.sort(axis=1)
        low, high = ordered[rows, np.maximum(count - 1, 0) // 2], ordered[rows, count // 2]
        median[:, k] = (low + high) / 2
    agrees = np.hypot(shifts[:, 0] - median[:, 0], shifts[:, 1] - median[:, 1]) <= max(1.0, 0.12 * patch)
    return [f for f, few, good in zip(found, count < 2, agrees) if few or good]


def _polynomial(u: np.ndarray, v: np.ndarray, sx: np.ndarray, sy: np.ndarray, weight: np.ndarray,
                width: float, height: float, gu: np.ndarray, gv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A smooth fit (a polynomial of WARP_DEGREE in the sheet's coordinates, robust to outliers) of the shifts,
    evaluated on the grid."""
    def terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        x, y = x / width * 2 - 1, y / height * 2 - 1
        return np.stack([x**i * y**j for i in range(WARP_DEGREE + 1) for j in range(WARP_DEGREE + 1 - i)], axis=-1)

    basis = terms(u, v)
    if len(u) < basis.shape[1] + 2:  # too few points for the full polynomial: a plane
        basis = basis[:, :3]
    w = weight.astype(np.float64).copy()
    coefficients = []
    for target in (sx, sy):
        robust = w.copy()
        for _ in range(4):
            solution, *_ = np.linalg.lstsq(basis * robust[:, None], target * robust, rcond=None)
            residual = np.abs(basis @ solution - target)
            scale = max(1.4826 * float(np.median(residual)), 0.3)
            robust = w * np.clip(1 - (residual / (4 * scale)) ** 2, 0, 1) ** 2
        coefficients.append(solution)
    grid = terms(gu, gv)[..., : basis.shape[1]]
    return (grid @ coefficients[0]).astype(np.float32), (grid @ coefficients[1]).astype(np.float32)


def _spread(u: np.ndarray, v: np.ndarray, sx: np.ndarray, sy: np.ndarray, weight: np.ndarray, gu: np.ndarray,
            gv: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The shifts spread over the grid by a Gaussian of `sigma` mm (weighted; far from every patch: none)."""
    # the grid is a mesh (gu varies along columns, gv along rows) and a Gaussian splits into one along each
    # axis, so every sum over the patches is a product of two small matrices (by einsum's own loop: BLAS's
    # threads would spin on other cores after so little work, costing more CPU than they save)
    across = np.exp(-((gu[0][:, None] - u[None, :]) ** 2) / (2 * sigma * sigma))  # columns x patches
    down = np.exp(-((gv[:, 0][:, None] - v[None, :]) ** 2) / (2 * sigma * sigma))  # rows x patches
    w = weight.astype(np.float64)
    total, fx, fy = (np.einsum("rp,cp->rc", down * (w * part)[None, :], across) for part in (1.0, sx, sy))
    norm = total + 1e-3
    fade = np.clip(total / (total.max() * 0.05 + 1e-9), 0, 1)  # far from all patches the shift fades to none
    return (fx / norm * fade).astype(np.float32), (fy / norm * fade).astype(np.float32)
