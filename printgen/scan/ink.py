"""Deciding each field: the photo (rectified to sheet mm) and the blank sheet in, for every field crossed, empty or uncertain out.

The photo is compared with the blank sheet pixel by pixel. First the light
is evened out: wherever the blank sheet is plain paper, the photo shows how
bright the paper is there, and a smooth gain map spreads that over the
sheet. Then the printer's and camera's colours are learnt: each colour the
blank sheet prints is looked up in the photo (its most common value there),
within limits, so a darker or greyer print is not mistaken for ink. What
remains darker than expected is ink. A field counts the ink in its middle
(less towards its edges, so a neighbour's overrunning cross or a name's
descender barely counts), relative to its area; a thin horizontal line
through a field (a struck skipped number, a row closed by another player)
is recognised by its shape and not counted as a cross.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from printgen.scan.align import align
from printgen.scan.light import light
from printgen.scan.raster import luma
from printgen.scan.template import Field
from printgen.scan.thresholds import (
    BLUR_EDGE,
    BLUR_MIN_EDGE_PIXELS,
    BLURS,
    CLIPPED,
    COLOUR_INNER,
    COLOUR_MIN_AREA,
    COLOUR_MIN_PIXELS,
    COLOUR_SHIFT,
    COLOUR_STEPS,
    COVER_HALF,
    CURVE_MIN_SPREAD,
    CURVE_OUTLIER,
    CURVE_OUTLIER_WEIGHT,
    CURVE_ROUNDS,
    DARK_PRINT_STROKE,
    EDGE,
    FAINT,
    FOREIGN_REACH,
    GAIN_FILL,
    GAIN_SMOOTH,
    INKED,
    LEVEL,
    LIGHT_BLOCK,
    LIGHT_BLOCK_MIN,
    LIGHT_BLOCK_PARTS,
    LIGHT_COLOURS,
    LIGHT_PASSES,
    LINE_FAINT,
    LINE_HALF,
    LINE_WIDTH,
    MIN_GAIN,
    MODE_BINS,
    MODE_RANGE,
    MODE_SMOOTHING,
    NEAR_MIDDLE,
    NO_LIGHT_PERCENTILE,
    NOISE,
    NOISE_FLOOR,
    NOISE_MIN_PIXELS,
    NOISE_SPREADS,
    OWN_REACH,
    OWN_SHARE,
    PAPER_CLEARANCE,
    PAPER_PERCENTILE,
    PAPER_WHITE,
    PLAIN,
    PX_PER_MM,
    RING_BINS,
    RING_HALF,
    RING_INK,
    RING_INNER,
    RING_OUTER,
    SEEN_BLUR,
    SLASH_ANGLES,
    STREAK_BAND,
    STREAK_LENGTH,
    STREAK_SHARE,
    STREAK_TILT,
    STREAK_TILT_STEP,
    SURE_CROSSED,
    SURE_EMPTY,
    TOLERANCE,
    WEIGHT_FULL,
    WEIGHT_RAMP,
    WEIGHT_START,
)

CIRCLED = ("number",)
"""Fields that players may mark by drawing a circle round them (a circle counts as a cross: see README)."""
STRUCK_THROUGH = ("number", "lock")
"""Fields where a level line means something else than a cross (a skipped number, a row closed by another
player); on penalty and bonus boxes any line is a mark."""


class State(Enum):
    """What a field shows."""

    CROSSED = "crossed"
    EMPTY = "empty"
    UNCERTAIN = "uncertain"


@dataclass(frozen=True, slots=True)
class Reading:
    """One field as read: its state, its best guess, and the measures behind them."""

    field: Field
    state: State
    cover: float
    streak: bool
    """True when most of the ink is one thin level line (a strike-through, not a cross): the cover leaves it out."""
    line: float = 0.0
    """The darkest slanted line through the field's middle: its mean darkening (a faint slash shows here)."""
    ring: float = 0.0
    """The share of directions round the field's middle in which ink lies at about the field's edge (a circle
    drawn round the number shows here)."""
    settled: bool | None = None
    """For an uncertain field: crossed or not as the rules decided (see `printgen.scan.settle`)."""

    @property
    def evidence(self) -> float:
        """The ink as one number: 1 halfway between empty and crossed, by cover or by the slanted line."""
        return evidence(self.cover, self.line, self.ring)

    @property
    def crossed(self) -> bool:
        """The best guess: crossed or not (an uncertain field as settled by the rules, else by which side of
        halfway its ink is)."""
        if self.state is State.UNCERTAIN:
            return self.settled if self.settled is not None else self.evidence >= 1
        return self.state is State.CROSSED

    @property
    def doubt(self) -> float:
        """How far an uncertain field's ink is from halfway between empty and crossed (0 = right there)."""
        return abs(self.evidence - 1)


def ink(photo: np.ndarray, blank: np.ndarray, px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """How much darker than the blank sheet the photo is, per pixel (0..1), after light and colour are matched."""
    photo = align(photo, blank, px_per_mm)
    raw = luma(photo)
    printed = luma(blank)
    gain = light(raw, printed, px_per_mm)
    for _ in range(LIGHT_PASSES):  # the light again, now that the print's own look is known
        expected = _expected(raw / gain, blank, printed, px_per_mm)
        gain = light(raw, expected, px_per_mm)
    seen = raw / gain
    expected = _as_blurred(_expected(seen, blank, printed, px_per_mm), seen, px_per_mm)
    radius = max(1, round(TOLERANCE * px_per_mm))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    tolerant = np.minimum(cv2.erode(expected, disc), CLIPPED / gain)
    seen = cv2.GaussianBlur(seen, (0, 0), SEEN_BLUR * px_per_mm)
    residual = _narrow_on_dark_print(tolerant - seen, printed, px_per_mm)
    return np.clip(residual - _noise(residual, expected), 0.0, 1.0).astype(np.float32)


def _narrow_on_dark_print(residual: np.ndarray, printed: np.ndarray, px_per_mm: float) -> np.ndarray:
    """`residual`, but on dark print (the sheet as printed darker than LIGHT_COLOURS) less what the camera's
    rendering of it explains: how a camera renders a dark colour in a shadow or under a veil of glare differs
    by more than the light explains, evenly over millimetres. On the rows' bands only what is narrower than a
    stroke's reach counts (a cross running over from its field, a circle round it); on a number or a line
    (a dark mark narrower than that) what is darker than that mark on average. Fields are light, so a
    filled field still counts whole."""
    radius = max(1, round(DARK_PRINT_STROKE * px_per_mm))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    dark = (printed < LIGHT_COLOURS).astype(np.uint8)
    bands = cv2.dilate(cv2.erode(dark, disc), disc).astype(bool) & dark.astype(bool)
    narrow = residual - cv2.dilate(cv2.erode(residual, disc), disc)  # a white top hat: only what is narrow
    marks = dark.astype(bool) & ~bands
    count, labels = cv2.connectedComponents(marks.astype(np.uint8), connectivity=8)
    sums = np.bincount(labels[marks], weights=residual[marks], minlength=count)
    sizes = np.maximum(np.bincount(labels[marks], minlength=count), 1)
    baseline = np.clip(sums / sizes, 0.0, None)
    out = residual.copy()
    out[bands] = narrow[bands]
    out[marks] = residual[marks] - baseline[labels[marks]]
    return out.astype(np.float32)

def _noise(residual: np.ndarray, expected: np.ndarray) -> float:
    """How much darkening this photo shows without ink: NOISE_SPREADS spreads of its plain areas, within limits."""
    gx = cv2.Sobel(expected, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(expected, cv2.CV_32F, 0, 1, ksize=3)
    plain = residual[np.hypot(gx, gy) < PLAIN]
    if plain.size < NOISE_MIN_PIXELS:
        return NOISE
    middle = float(np.median(plain))
    spread = 1.4826 * float(np.median(np.abs(plain - middle)))
    return float(np.clip(middle + NOISE_SPREADS * spread, NOISE_FLOOR, NOISE))


def _as_blurred(expected: np.ndarray, seen: np.ndarray, px_per_mm: float) -> np.ndarray:
    """`expected` blurred as much as the photo is (judged along the print's edges, where blur shows)."""
    gx = cv2.Sobel(expected, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(expected, cv2.CV_32F, 0, 1, ksize=3)
    edges = np.hypot(gx, gy) > BLUR_EDGE
    if edges.sum() < BLUR_MIN_EDGE_PIXELS:
        return expected
    best, chosen = np.inf, expected
    for sigma_mm in BLURS:
        candidate = cv2.GaussianBlur(expected, (0, 0), sigma_mm * px_per_mm) if sigma_mm else expected
        error = float(np.median(np.abs(candidate[edges] - seen[edges])))
        if error < best:
            best, chosen = error, candidate
    return chosen


def _paper(blank: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Where the blank sheet is plain paper, well away from anything printed and from its cut edges (a
    sheet cut by hand may show the table there)."""
    white = (blank.min(axis=2) > PAPER_WHITE).astype(np.uint8)
    radius = max(1, round(PAPER_CLEARANCE * px_per_mm))
    paper = cv2.erode(white, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2)).astype(bool)
    edge = round(EDGE * px_per_mm)
    paper[:edge], paper[-edge:], paper[:, :edge], paper[:, -edge:] = False, False, False, False
    return paper


def _gain(seen: np.ndarray, paper: np.ndarray, px_per_mm: float, percentile: float = PAPER_PERCENTILE,
          fallback: np.ndarray | None = None) -> np.ndarray:
    """A smooth map of the light falling on the sheet, from the photo's brightness where it shows `paper`;
    given the photo divided by what the print should look like, blocks without paper use `fallback` pixels
    (every known colour) instead."""
    block = max(LIGHT_BLOCK_MIN, round(LIGHT_BLOCK * px_per_mm))
    h, w = seen.shape
    rows, cols = -(-h // block), -(-w // block)
    values = np.zeros((rows, cols), np.float32)
    valid = np.zeros((rows, cols), bool)
    for mask in (paper, fallback):
        if mask is None:
            continue
        padded = np.full((rows * block, cols * block), np.nan, np.float32)
        padded[:h, :w] = np.where(mask, seen, np.nan)
        blocks = padded.reshape(rows, block, cols, block).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
        enough = (np.sum(~np.isnan(blocks), axis=2) >= block * block // LIGHT_BLOCK_PARTS) & ~valid
        if enough.any():
            values[enough] = _row_percentile(blocks[enough], percentile)
            valid |= enough
    if not valid.any():
        values[:] = float(np.percentile(seen, NO_LIGHT_PERCENTILE))
        valid[:] = True
    weights = valid.astype(np.float32)
    filled = values.copy()
    for sigma in GAIN_FILL:
        spread = cv2.GaussianBlur(values * weights, (0, 0), sigma)
        norm = cv2.GaussianBlur(weights, (0, 0), sigma)
        holes = (~valid) & (norm > 1e-3)
        filled[holes] = (spread[holes] / norm[holes])
        valid = valid | holes
        values, weights = filled.copy(), valid.astype(np.float32)
    smooth = cv2.GaussianBlur(filled, (0, 0), GAIN_SMOOTH)
    gain = cv2.resize(smooth, (cols * block, rows * block), interpolation=cv2.INTER_LINEAR)[:h, :w]
    return np.maximum(gain, MIN_GAIN)


def _row_percentile(rows: np.ndarray, percentile: float) -> np.ndarray:
    """Each row's `percentile` (linear between neighbours, as NumPy's), NaN being no value; every row has one.
    (np.nanpercentile along an axis loops in Python, row by row: this is one sort.)"""
    ordered = np.sort(rows, axis=1)  # NaN sorts last
    count = np.sum(~np.isnan(rows), axis=1)
    position = (count - 1) * (percentile / 100.0)
    low = np.floor(position).astype(np.intp)
    high = np.minimum(low + 1, count - 1)
    below = np.take_along_axis(ordered, low[:, None], axis=1)[:, 0]
    above = np.take_along_axis(ordered, high[:, None], axis=1)[:, 0]
    return below + (above - below) * (position - low)


def _expected(seen: np.ndarray, blank: np.ndarray, printed: np.ndarray, px_per_mm: float) -> np.ndarray:
    """What each pixel of the photo would look like without ink: the printed luma mapped through
    the tone curve learnt from the sheet's own colours, each large colour area corrected within limits."""
    levels = COLOUR_STEPS + 1
    quantised = (np.clip(blank, 0, 1) * COLOUR_STEPS + 0.5).astype(np.int32)
    keys = quantised[..., 0] * levels * levels + quantised[..., 1] * levels + quantised[..., 2]
    square = np.ones((COLOUR_INNER, COLOUR_INNER), np.uint8)
    inner = cv2.erode(keys.astype(np.float32), square) == cv2.dilate(keys.astype(np.float32), square)
    minimum = max(COLOUR_MIN_PIXELS, int(COLOUR_MIN_AREA * px_per_mm * px_per_mm))
    flat_keys = keys[inner]
    order = np.argsort(flat_keys, kind="stable")
    sorted_keys = flat_keys[order]
    sorted_seen = seen[inner][order]
    sorted_printed = printed[inner][order]
    unique, starts, counts = np.unique(sorted_keys, return_index=True, return_counts=True)
    points = []
    for key, start, count in zip(unique, starts, counts):
        if count < minimum:
            continue
        values = sorted_seen[start:start + count]
        points.append((float(np.mean(sorted_printed[start:start + count])), _mode(values), int(count), int(key)))
    if not points:
        return printed.copy()
    points.sort()
    xs = np.array([p[0] for p in points])
    modes = np.array([p[1] for p in points])
    weights = np.array([p[2] for p in points], float)
    for _ in range(CURVE_ROUNDS):  # a colour that ink covers (or a print gone astray) must not bend the curve
        ys = _monotone(modes, weights)
        residual = np.abs(modes - ys)
        scale = max(1.4826 * float(np.median(residual)), CURVE_MIN_SPREAD)
        weights = (np.array([p[2] for p in points], float)
                   * np.where(residual > CURVE_OUTLIER * scale, CURVE_OUTLIER_WEIGHT, 1.0))
    xs = np.concatenate([[0.0], xs, [1.0]])
    ys = np.concatenate([[min(ys[0], xs[1]) * 0.5], ys, [max(ys[-1], 1.0)]])
    expected = np.interp(printed, xs, ys).astype(np.float32)
    correction = np.zeros(levels**3, np.float32)
    for (x, mode, _, key), y in zip(points, ys[1:-1]):
        correction[key] = np.clip(mode - y, -COLOUR_SHIFT, COLOUR_SHIFT)
    return expected + correction[keys]


def _mode(values: np.ndarray) -> float:
    """The most common value (a histogram peak), which ink covering part of a colour does not move."""
    hist, edges = np.histogram(values, bins=MODE_BINS, range=(0.0, MODE_RANGE))
    hist = np.convolve(hist, MODE_SMOOTHING, mode="same")
    peak = int(np.argmax(hist))
    return float((edges[peak] + edges[peak + 1]) / 2)


def _monotone(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weighted non-decreasing fit of `values` (pool adjacent violators)."""
    blocks: list[list[float]] = []
    for value, weight in zip(values, weights):
        blocks.append([value * weight, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, mass, size = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += mass
            blocks[-1][2] += size
    return np.concatenate([[b[0] / b[1]] * int(b[2]) for b in blocks])


def evidence(cover: float, line: float, ring: float = 0.0) -> float:
    """A field's ink as one number, 1 halfway between empty and crossed: by its cover, its slanted line or the
    ring of ink round its middle."""
    return max(cover / COVER_HALF, line / LINE_HALF, ring / RING_HALF)


def read_fields(darkening: np.ndarray, fields: list[Field], px_per_mm: float = PX_PER_MM) -> list[Reading]:
    """Every field's reading from the ink map."""
    return [read_field(darkening, f, px_per_mm) for f in fields]


def read_field(darkening: np.ndarray, field: Field, px_per_mm: float = PX_PER_MM) -> Reading:
    """One field's reading: ink cover of its weighted middle, and whether the ink is a horizontal streak."""
    x, y, w, h = field.box
    x0, y0 = int(np.floor(x * px_per_mm)), int(np.floor(y * px_per_mm))
    x1, y1 = int(np.ceil((x + w) * px_per_mm)), int(np.ceil((y + h) * px_per_mm))
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, darkening.shape[1]), min(y1, darkening.shape[0])
    patch = _own_ink(darkening, (x0, y0, x1, y1), px_per_mm)
    weights = _weights(field, x0, y0, patch.shape, px_per_mm)
    total = float(weights.sum()) * min(w, h) / max(w, h)  # a long box is crossed like a square one
    if total <= 0:
        return Reading(field, State.UNCERTAIN, 0.0, False)
    mass = patch * weights
    cover = float(mass.sum()) / total
    struck = field.kind in STRUCK_THROUGH and cover > FAINT
    share = _streak_share(mass, px_per_mm) if struck else 0.0
    streak = share > 0
    if streak:  # a line through the field: what counts is the ink besides it
        cover *= 1 - share
    line = _slanted_line(mass, weights) if cover > LINE_FAINT and not streak else 0.0
    ring = _ring(darkening, field, px_per_mm) if field.kind in CIRCLED else 0.0
    seen = evidence(cover, line, ring)
    if seen >= SURE_CROSSED:
        state = State.CROSSED
    elif seen <= SURE_EMPTY:
        state = State.EMPTY
    else:
        state = State.UNCERTAIN
    return Reading(field, state, cover, streak, line, ring)


def _own_ink(darkening: np.ndarray, box: tuple[int, int, int, int], px_per_mm: float) -> np.ndarray:
    """The ink in `box` without strokes that only reach into it from outside (a neighbour's cross running over):
    a stroke counts when at least a third of it lies inside or when it comes near the field's middle (a cross
    that runs into its neighbours' crosses is still its field's own)."""
    x0, y0, x1, y1 = box
    grow = round(FOREIGN_REACH * px_per_mm)
    gx0, gy0 = max(x0 - grow, 0), max(y0 - grow, 0)
    gx1, gy1 = min(x1 + grow, darkening.shape[1]), min(y1 + grow, darkening.shape[0])
    window = darkening[gy0:gy1, gx0:gx1]
    patch = darkening[y0:y1, x0:x1].copy()
    count, labels = cv2.connectedComponents((window > INKED).astype(np.uint8), connectivity=8)
    if count <= 1:
        return patch
    inside = np.zeros(window.shape, bool)
    inside[y0 - gy0:y1 - gy0, x0 - gx0:x1 - gx0] = True
    totals = np.bincount(labels.ravel(), weights=window.ravel(), minlength=count)
    within = np.bincount(labels[inside].ravel(), weights=window[inside].ravel(), minlength=count)
    own = labels[y0 - gy0:y1 - gy0, x0 - gx0:x1 - gx0]
    ys, xs = np.mgrid[0:own.shape[0], 0:own.shape[1]]
    distance = np.hypot(xs - own.shape[1] / 2, ys - own.shape[0] / 2)
    nearest = np.full(count, np.inf)
    np.minimum.at(nearest, own.ravel(), distance.ravel())
    foreign = (within < OWN_SHARE * totals) & (nearest > OWN_REACH * min(own.shape))
    foreign[0] = False
    patch[foreign[own]] = 0.0
    return patch


def _angle(mass: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> float:
    """The direction (degrees from level) in which the ink spreads most."""
    total = float(mass.sum())
    mx, my = float((mass * xs).sum() / total), float((mass * ys).sum() / total)
    cxx = float((mass * (xs - mx) ** 2).sum())
    cyy = float((mass * (ys - my) ** 2).sum())
    cxy = float((mass * (xs - mx) * (ys - my)).sum())
    return float(np.degrees(0.5 * np.arctan2(2 * cxy, cxx - cyy)))


def _slanted_line(mass: np.ndarray, weights: np.ndarray) -> float:
    """The highest mean darkening along a straight band (about half a mm wide) slanted 25 to 65 degrees
    either way and passing near the field's middle: a stroke's faint pieces add up along its line, noise does
    not, and a neighbour's cross overrunning a corner does not pass near the middle."""
    h, w = mass.shape
    centre = (w / 2, h / 2)
    near = round(NEAR_MIDDLE * min(h, w))
    middle = h // 2
    best = 0.0
    for angle in SLASH_ANGLES:
        turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
        ink_rows = cv2.warpAffine(mass, turn, (w, h), flags=cv2.INTER_LINEAR).sum(axis=1)
        weight_rows = cv2.warpAffine(weights, turn, (w, h), flags=cv2.INTER_LINEAR).sum(axis=1)
        ink_rows = np.convolve(ink_rows, np.ones(LINE_WIDTH), mode="same")
        weight_rows = np.convolve(weight_rows, np.ones(LINE_WIDTH), mode="same")
        if weight_rows.max() > 0:  # a line's ink against a whole line's length: short pieces count less
            band = ink_rows[max(middle - near, 0):middle + near + 1]
            best = max(best, float(band.max() / weight_rows.max()))
    return best


def _ring(darkening: np.ndarray, field: Field, px_per_mm: float) -> float:
    """The share of RING_BINS directions round the field's middle in which ink lies between RING_INNER and
    RING_OUTER of the field's size from it (a hand-drawn circle round a number reaches most of them; a cross,
    a neighbour's overrunning stroke or a strike-through only a few)."""
    x, y, w, h = field.box
    size = min(w, h)
    cx, cy = (x + w / 2) * px_per_mm, (y + h / 2) * px_per_mm
    outer = RING_OUTER * size * px_per_mm
    x0, y0 = max(int(cx - outer), 0), max(int(cy - outer), 0)
    x1, y1 = min(int(cx + outer) + 1, darkening.shape[1]), min(int(cy + outer) + 1, darkening.shape[0])
    patch = darkening[y0:y1, x0:x1]
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    dx, dy = xs + 0.5 - cx, ys + 0.5 - cy
    radius = np.hypot(dx, dy) / (size * px_per_mm)
    inside = (radius >= RING_INNER) & (radius <= RING_OUTER) & (patch > RING_INK)
    if not inside.any():
        return 0.0
    bins = ((np.arctan2(dy[inside], dx[inside]) + np.pi) / (2 * np.pi) * RING_BINS).astype(np.int32) % RING_BINS
    return float(len(np.unique(bins))) / RING_BINS


def _weights(field: Field, x0: int, y0: int, shape: tuple[int, ...], px_per_mm: float) -> np.ndarray:
    """1 in the field's middle, falling to 0 at its edge: from WEIGHT_START inside the edge to WEIGHT_FULL of the
    field in."""
    x, y, w, h = field.box
    xs = (np.arange(shape[1]) + x0 + 0.5) / px_per_mm
    ys = (np.arange(shape[0]) + y0 + 0.5) / px_per_mm
    if field.round:
        r = w / 2
        inside = r - np.hypot(xs[None, :] - (x + r), ys[:, None] - (y + r))
        size = w
    else:
        inside = np.minimum(np.minimum(xs[None, :] - x, x + w - xs[None, :]),
                            np.minimum(ys[:, None] - y, y + h - ys[:, None]))
        size = min(w, h)
    start, full = WEIGHT_START, max(WEIGHT_START + WEIGHT_RAMP, size * WEIGHT_FULL)
    return np.clip((inside - start) / (full - start), 0.0, 1.0).astype(np.float32)


def _streak_share(mass: np.ndarray, px_per_mm: float) -> float:
    """The share of the ink that lies along one thin line within STREAK_TILT degrees of level and across much of
    the field (a skipped number struck through, a row closed by someone else), or 0 when it does not."""
    total = float(mass.sum())
    if total <= 0:
        return 0.0
    ys, xs = np.mgrid[0:mass.shape[0], 0:mass.shape[1]].astype(np.float32)
    cx = float((mass * xs).sum() / total)
    band = STREAK_BAND * px_per_mm
    best = 0.0
    for slope in np.tan(np.radians(np.arange(-STREAK_TILT, STREAK_TILT + 1, STREAK_TILT_STEP))):
        level = ys - slope * (xs - cx)
        bins = np.floor(level / (band / 2)).astype(np.int32)
        bins -= bins.min()
        profile = np.bincount(bins.ravel(), weights=mass.ravel())
        pairs = profile[:-1] + profile[1:] if len(profile) > 1 else profile
        peak = int(np.argmax(pairs))
        share = float(pairs[peak]) / total
        if share < STREAK_SHARE or share <= best:
            continue
        inside = (bins == peak) | (bins == peak + 1)
        along = xs[inside & (mass > INKED)]
        if along.size and float(along.max() - along.min()) >= STREAK_LENGTH * mass.shape[1] \
                and abs(_angle(np.where(inside, mass, 0.0), xs, ys)) <= LEVEL:
            best = share
    return best
