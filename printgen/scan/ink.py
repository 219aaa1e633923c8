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

from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache

import cv2
import numpy as np

from printgen.scan.align import align
from printgen.scan.doubt import COVERED, LINE, NONE, REASONS, SHADOW, VEILED, disc, doubts
from printgen.scan.light import light, plain
from printgen.scan.raster import luma
from printgen.scan.template import Field, per_blank
from printgen.scan.thresholds import (
    BLUR_EDGE,
    BLUR_MIN_EDGE_PIXELS,
    BLURS,
    CAST_COVER,
    CAST_GRID,
    CLIPPED,
    COLOUR_INNER,
    COLOUR_MIN_AREA,
    COLOUR_MIN_PIXELS,
    COLOUR_SHIFT,
    COLOUR_STEPS,
    COVER_HALF,
    COVERED_SHARE,
    CURVE_MIN_SPREAD,
    CURVE_OUTLIER,
    CURVE_OUTLIER_WEIGHT,
    CURVE_ROUNDS,
    DARK_PRINT_STROKE,
    EDGE_DROP,
    EVEN_FAINT,
    EVEN_PAPER,
    EVEN_SHARE,
    FOREIGN_REACH,
    HUE_RANGE,
    INKED,
    LEVEL,
    LEVEL_BEND,
    LEVEL_EDGE,
    LEVEL_FILL,
    LEVEL_PIECE,
    LEVEL_WIDEST,
    LIGHT_COLOURS,
    LIGHT_PASSES,
    LINE_FLANK,
    LINE_HALF,
    LINE_WIDTH,
    MISPLACED_BACK,
    MISPLACED_MARGIN,
    MISPLACED_PRINT,
    MISPLACED_SHARE,
    MISPLACED_SHARE_BENT,
    MODE_BINS,
    MODE_RANGE,
    MODE_SMOOTHING,
    NEAR_MIDDLE,
    NOISE,
    NOISE_FLOOR,
    NOISE_MIN_PIXELS,
    NOISE_SPREADS,
    ONE_LINE,
    OVERRUN_GAP,
    OVERRUN_REACH,
    OWN_REACH,
    OWN_SHARE,
    PEN_CLEAR,
    PEN_CROSSED,
    PEN_EMPTY,
    PEN_LOWEST,
    PEN_SAMPLE,
    PLAIN,
    PRINT_WEIGHTS,
    PX_PER_MM,
    RING_BINS,
    RING_HALF,
    RING_INK,
    RING_INNER,
    RING_OUTER,
    SEEN_BLUR,
    SHADOW_FILLED,
    SHADOW_NEAR,
    SHADOW_SURE,
    SHIFTED_DISTANCE,
    SHIFTED_GAIN,
    SHIFTED_SEARCH,
    SHIFTED_WINDOW,
    SLASH_ANGLES,
    STREAK_BAND,
    STREAK_LENGTH,
    STREAK_MARGIN,
    STREAK_MIDDLE,
    STREAK_SHARE,
    STREAK_SLENDER,
    STREAK_SPILL,
    STREAK_SURE,
    STREAK_TILT,
    STREAK_TILT_STEP,
    STREAK_WIDEST,
    STROKE_AWAY,
    STROKE_BEND,
    STROKE_LEAN,
    STROKE_PIECE,
    STROKE_REACH,
    STROKE_SWAY,
    SURE_CROSSED,
    SURE_EMPTY,
    TOLERANCE,
    TRACE_FLOOR,
    UNCLEAR_GUESS,
    VEIL_AROUND,
    VEIL_CONTRAST,
    VEIL_HIDDEN,
    VEIL_LOWEST,
    VEIL_PIXELS,
    VEIL_SHARE,
    VEILED_HALFWAY,
    WEIGHT_FULL,
    WEIGHT_FULL_ROUND,
    WEIGHT_GAIN,
    WEIGHT_RAMP,
    WEIGHT_START,
)

CIRCLED = ("number", "bonus-row")
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
    reason: str = ""
    """Why the field is uncertain, in words for the person who checks it (UNCLEAR, or why the photo cannot be
    trusted over it); empty when it is not."""
    settled: bool | None = None
    """For an uncertain field: crossed or not as the rules decided (see `printgen.scan.settle`)."""
    pen: float = 1.0
    """The evidence halfway between empty and crossed for this sheet's pen (below 1 where its clear crosses are
    faint: see `pen_halfway`)."""
    veil: float | None = None
    """Where glare pales the print over the field: the share of the print's contrast left around it (`_veil`);
    None where it was not measured."""

    @property
    def evidence(self) -> float:
        """The ink as one number: 1 halfway between empty and crossed, by cover or by the slanted line."""
        return evidence(self.cover, self.line, self.ring)

    @property
    def crossed(self) -> bool:
        """The best guess: crossed or not (an uncertain field as settled by the rules, else by which side of
        halfway its ink is)."""
        if self.state is State.UNCERTAIN:
            return self.settled if self.settled is not None else self.evidence >= self.guessed_at
        return self.state is State.CROSSED

    @property
    def halfway(self) -> float:
        """The evidence halfway between empty and crossed: the sheet's pen's; where glare pales the print, its
        share of the print's contrast left (`veil`) times VEIL_SHARE, within VEIL_LOWEST and the pen's
        (VEILED_HALFWAY where that share could not be measured)."""
        if self.reason != REASONS[VEILED]:
            return self.pen
        if self.veil is None:
            return VEILED_HALFWAY
        return min(max(VEIL_SHARE * self.veil, VEIL_LOWEST), self.pen)

    @property
    def guessed_at(self) -> float:
        """The evidence from which an uncertain field is guessed crossed: halfway, or UNCLEAR_GUESS of it for a
        field uncertain only for its ink (a faint cross more often than a smudge)."""
        return self.halfway * (UNCLEAR_GUESS if self.reason == UNCLEAR else 1.0)

    @property
    def doubt(self) -> float:
        """How far an uncertain field's ink is from where it is guessed crossed (0 = right there)."""
        return abs(self.evidence - self.guessed_at)


@dataclass(frozen=True, slots=True)
class Measured:
    """The photo against its blank sheet, pixel by pixel (sheet pixels, luma 0..1 of the light on the sheet)."""

    seen: np.ndarray
    """The photo's luma divided by the light, softened a little."""
    expected: np.ndarray
    """What `seen` would be without ink (the print as this camera renders it, blurred as the photo is)."""
    gain: np.ndarray
    """The light falling on every pixel."""
    darkening: np.ndarray
    """How much darker than expected each pixel is, beyond the photo's noise (0..1): the ink."""
    residual: np.ndarray
    """How much darker than expected each pixel is, noise included (signed)."""
    noise: float
    doubt: np.ndarray
    """Per pixel why the photo cannot be trusted there (a code of `printgen.scan.doubt`, 0 for none)."""


def ink(photo: np.ndarray, blank: np.ndarray, px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """How much darker than the blank sheet the photo is, per pixel (0..1), after light and colour are matched."""
    return measure(photo, blank, px_per_mm).darkening


def measure(photo: np.ndarray, blank: np.ndarray, px_per_mm: float = PX_PER_MM) -> Measured:
    """The photo (RGB floats, sheet pixels) aligned to `blank` and compared with it after light and colour are matched."""
    photo = align(photo, blank, px_per_mm)
    raw = luma(photo)
    printed, flat = _print_of(blank, px_per_mm)
    palette = colours(blank, px_per_mm)
    gain = light(raw, printed, px_per_mm, flat)
    for _ in range(LIGHT_PASSES):  # the light again, now that the print's own look is known
        expected = _expected(raw / gain, palette, printed)
        gain = light(raw, expected, px_per_mm)
    seen = raw / gain
    expected = _as_printed(_expected(seen, palette, printed), seen, px_per_mm)
    tolerant = np.minimum(cv2.erode(expected, disc(TOLERANCE, px_per_mm)), CLIPPED / gain)
    seen = cv2.GaussianBlur(seen, (0, 0), SEEN_BLUR * px_per_mm)
    darker = tolerant - seen
    residual = _narrow_on_dark_print(darker, printed, px_per_mm)
    noise = _noise(residual, expected)
    darkening = np.clip(residual - noise, 0.0, 1.0).astype(np.float32)
    return Measured(seen, expected, gain, darkening, residual, noise,
                    doubts(seen, expected, gain, darker, noise, *_hue_off(photo, gain, palette, px_per_mm), px_per_mm))


def _narrow_on_dark_print(residual: np.ndarray, printed: np.ndarray, px_per_mm: float) -> np.ndarray:
    """`residual`, but on dark print (the sheet as printed darker than LIGHT_COLOURS) less what the camera's
    rendering of it explains: how a camera renders a dark colour in a shadow or under a veil of glare differs
    by more than the light explains, evenly over millimetres. On the rows' bands only what is narrower than a
    stroke's reach counts (a cross running over from its field, a circle round it); on a number or a line
    (a dark mark narrower than that) what is darker than the middle of that mark (its median away from its
    edges, where blur makes it lighter). Fields are light, so a
    filled field still counts whole."""
    reach, bands, core, marks, inner, labels, count = _dark_print(printed, px_per_mm)
    darker = np.maximum(residual, 0.0)  # lighter than the print is no ink, and must not lift what is beside it
    # a white top hat over the bands' cores alone: only what is narrow there (a band's strip between two fields,
    # as wide as a stroke's reach, is measured along the strip, not against the paper or its blurred edge beside)
    opened = cv2.dilate(np.where(core, cv2.erode(np.where(core, darker, np.float32(OFF_BAND)), reach), 0.0), reach)
    narrow = darker - opened
    baseline = np.clip(_medians(labels[inner], residual.ravel()[inner], count), 0.0, None)
    out = residual.copy()
    out.ravel()[bands] = narrow.ravel()[bands]
    out.ravel()[marks] = residual.ravel()[marks] - baseline[labels[marks]]
    return out.astype(np.float32)


@per_blank
def _print_of(blank: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The blank sheet's luma, and where it is plain (`printgen.scan.light.plain`)."""
    printed = luma(blank)
    return printed, plain(printed)


@per_blank
def _dark_print(printed: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                                 np.ndarray, np.ndarray, int]:
    """The dark print of the blank sheet's luma `printed`, as `_narrow_on_dark_print` needs it: the disc of a
    stroke's reach; the flat indices of its bands and where their cores are (an image: BAND_EDGE in from their
    edges, which the photo's blur mixes with what is beside them); the flat indices of its marks
    and of the marks' insides (a mark too thin for an inside: all of it); every pixel's mark label (flat) and
    how many labels there are."""
    reach = disc(DARK_PRINT_STROKE, px_per_mm)
    dark = (printed < LIGHT_COLOURS).astype(np.uint8)
    bands = cv2.dilate(cv2.erode(dark, reach), reach).astype(bool) & dark.astype(bool)
    marks = dark.astype(bool) & ~bands
    count, labels = cv2.connectedComponents(marks.astype(np.uint8), connectivity=8)
    inner = cv2.erode(marks.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    inner |= marks & ~np.isin(labels, np.unique(labels[inner]))
    core = cv2.erode(bands.astype(np.uint8), disc(BAND_EDGE, px_per_mm)).astype(bool)
    return (reach, np.flatnonzero(bands), core, np.flatnonzero(marks), np.flatnonzero(inner), labels.ravel(),
            count)


BAND_EDGE = 0.4
"""mm in from a band's edge where its core starts (a photo's blur reaches about this far)."""
OFF_BAND = 10.0
"""Far above any darkening: what lies off the bands, so their top hat's erosion never takes it."""


def _medians(labels: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """The median of `values` for each label 0..count-1 (0 for a label without values)."""
    order = np.lexsort((values, labels))
    labels, values = labels[order], values[order]
    starts = np.searchsorted(labels, np.arange(count))
    ends = np.searchsorted(labels, np.arange(count), side="right")
    medians = np.zeros(count, np.float32)
    have = ends > starts
    middle = (starts + ends - 1) // 2
    medians[have] = (values[middle[have]] + values[(starts + ends)[have] // 2]) / 2
    return medians


def _noise(residual: np.ndarray, expected: np.ndarray) -> float:
    """How much darkening this photo shows without ink: NOISE_SPREADS spreads of its plain areas, within limits."""
    plain = residual[_gradient(expected) < PLAIN]
    if plain.size < NOISE_MIN_PIXELS:
        return NOISE
    middle = float(np.median(plain))
    spread = 1.4826 * float(np.median(np.abs(plain - middle)))
    return float(np.clip(middle + NOISE_SPREADS * spread, NOISE_FLOOR, NOISE))


def _as_printed(expected: np.ndarray, seen: np.ndarray, px_per_mm: float) -> np.ndarray:
    """`expected` blurred as much as the photo is, and its print as much heavier as the photo's (a printer's type
    spreads; judged along the print's edges, where both show): the blur first, then the weight at that blur."""
    edges = np.flatnonzero(_gradient(expected) > BLUR_EDGE)
    if edges.size < BLUR_MIN_EDGE_PIXELS:
        return expected
    looks = seen.ravel()[edges]

    def blurred(image: np.ndarray, sigma_mm: float) -> np.ndarray:
        return cv2.GaussianBlur(image, (0, 0), sigma_mm * px_per_mm) if sigma_mm else image

    def error(candidate: np.ndarray) -> float:
        return float(np.median(np.abs(candidate.ravel()[edges] - looks)))

    best, sigma, chosen = min(((error(c), s, c) for s in BLURS for c in (blurred(expected, s),)),
                              key=lambda found: found[0])
    best *= 1 - WEIGHT_GAIN
    for spread in PRINT_WEIGHTS:
        candidate = blurred(cv2.erode(expected, disc(spread, px_per_mm)), sigma)
        if (found := error(candidate)) < best:
            best, chosen = found * (1 - WEIGHT_GAIN), candidate
    return chosen


@dataclass(frozen=True, slots=True)
class Colours:
    """The blank sheet's printed colours large enough to learn from: each pixel's colour key, and for each
    colour learnt, the pixels well inside its areas (flat indices, in key order)."""

    keys: np.ndarray
    """Per pixel the key of its printed colour."""
    learnt: list[tuple[int, np.ndarray]]
    """(key, flat indices of the pixels well inside that colour's areas) for every colour large enough."""
    means: list[float]
    """For each learnt colour, the blank sheet's mean luma over its pixels."""


@per_blank
def colours(blank: np.ndarray, px_per_mm: float) -> Colours:
    """The printed colours of `blank` (RGB 0..1) to learn the camera's rendering from."""
    levels = COLOUR_STEPS + 1
    quantised = (np.clip(blank, 0, 1) * COLOUR_STEPS + 0.5).astype(np.int32)
    keys = quantised[..., 0] * levels * levels + quantised[..., 1] * levels + quantised[..., 2]
    square = np.ones((COLOUR_INNER, COLOUR_INNER), np.uint8)
    small = keys.astype(np.uint16)  # (COLOUR_STEPS + 1) ** 3 keys fit 16 bits: OpenCV's 16-bit morphology
    inner = cv2.erode(small, square) == cv2.dilate(small, square)
    minimum = max(COLOUR_MIN_PIXELS, int(COLOUR_MIN_AREA * px_per_mm * px_per_mm))
    where = np.flatnonzero(inner)
    flat_keys = small.ravel()[where]
    counts = np.bincount(flat_keys, minlength=levels ** 3)
    learnt = [(int(key), where[flat_keys == key]) for key in np.flatnonzero(counts >= minimum)]  # (a few colours)
    printed = luma(blank).ravel()
    return Colours(keys, learnt, [float(np.mean(printed[pixels])) for _, pixels in learnt])


def _expected(seen: np.ndarray, palette: Colours, printed: np.ndarray) -> np.ndarray:
    """What each pixel of the photo would look like without ink: the printed luma (the blank sheet's that
    `palette` was learnt from) mapped through the tone curve learnt from the sheet's own colours, each large
    colour area corrected within limits."""
    flat_seen = seen.ravel()
    points = [(mean, _mode(flat_seen[pixels]), len(pixels), key)
              for (key, pixels), mean in zip(palette.learnt, palette.means)]
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
    correction = np.zeros((COLOUR_STEPS + 1) ** 3, np.float32)
    for (x, mode, _, key), y in zip(points, ys[1:-1]):
        correction[key] = np.clip(mode - y, -COLOUR_SHIFT, COLOUR_SHIFT)
    return expected + correction[palette.keys]


def _hue(photo: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two opponent colour channels of an RGB photo under even light (red against green, yellow against
    blue), in shares of the light."""
    r, g, b = (photo[..., k] / gain for k in range(3))
    return r - g, (r + g) / 2 - b


def _hue_off(photo: np.ndarray, gain: np.ndarray, palette: Colours,
             px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """How far each pixel's colour is from the colour its print shows everywhere else on the sheet (the
    most common look of each printed colour, in `_hue`'s channels), less the light's own colour there (a cast
    that changes slowly over the sheet); and how much more colourful than its print it is (something coloured
    lies there; glare only pales). Both 0 where the printed colour is too small to learn."""
    size = (COLOUR_STEPS + 1) ** 3
    known = np.zeros(size, bool)
    known[[key for key, _ in palette.learnt]] = True
    mask = known[palette.keys]
    off = np.zeros(photo.shape[:2], np.float32)
    tint = np.zeros(photo.shape[:2], np.float32)
    for channel in _hue(photo, gain):
        looks = np.zeros(size, np.float32)
        flat = channel.ravel()
        for key, pixels in palette.learnt:
            looks[key] = _mode(flat[pixels], -HUE_RANGE, HUE_RANGE)
        look = looks[palette.keys]
        shift = (channel - look).astype(np.float32)
        cast = _cast(shift, mask, px_per_mm)
        off += np.abs(shift - cast)
        tint += np.abs(channel - cast) - np.abs(look)
    return np.where(mask, off, 0.0).astype(np.float32), np.where(mask, tint, 0.0).astype(np.float32)


def _cast(shift: np.ndarray, mask: np.ndarray, px_per_mm: float) -> np.ndarray:
    """The slowly changing part of `shift` (where `mask`): its means over CAST_GRID squares, the median of
    each 5 x 5 of them (so what lies on the sheet, narrower than half of that, does not count), spread back
    over the pixels."""
    cell = max(1, round(CAST_GRID * px_per_mm))
    h, w = shift.shape
    rows, cols = -(-h // cell), -(-w // cell)
    padded = np.zeros((rows * cell, cols * cell), np.float32)
    weight = np.zeros_like(padded)
    padded[:h, :w] = np.where(mask, shift, 0.0)
    weight[:h, :w] = mask
    sums = padded.reshape(rows, cell, cols, cell).sum(axis=(1, 3))
    counts = weight.reshape(rows, cell, cols, cell).sum(axis=(1, 3))
    seen = counts >= CAST_COVER * cell * cell
    if not seen.any():
        return np.zeros_like(shift)
    means = np.where(seen, sums / np.maximum(counts, 1), float(np.median(sums[seen] / counts[seen])))
    smooth = cv2.medianBlur(means.astype(np.float32), 5) if min(rows, cols) >= 3 else means.astype(np.float32)
    return cv2.resize(smooth, (cols * cell, rows * cell), interpolation=cv2.INTER_LINEAR)[:h, :w]


def _mode(values: np.ndarray, low: float = 0.0, high: float = MODE_RANGE) -> float:
    """The most common value between `low` and `high` (a histogram peak), which ink covering part of a colour
    does not move."""
    hist, edges = np.histogram(values, bins=MODE_BINS, range=(low, high))
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


UNCLEAR = "too much ink for an empty field, too little for a cross"
OVERRUN = "a stroke from outside runs into it (whose cross is it?)"
GRAINY = "the photo is too dark or grainy to be sure it is empty (more light; come closer rather than zoom)"
"""Why a field whose ink lies between SURE_EMPTY and SURE_CROSSED is uncertain, and why an empty-looking one
in a grainy photo is."""
LEVEL_STROKE = "only a level line crosses it (a strike-through off its middle, or a pen or a cable's edge?)"
"""Why a field that only level lines would make crossed is uncertain (a level line is no cross)."""
STUBBY = "a short, thick level stroke over the number (struck through, or filled in?)"
"""Why a field whose strike-through runs less than STREAK_SURE times as far as it is thick is uncertain."""
OUTSIDE = "the field lies outside the photo"
MISPLACED = "the print is not where it should be (is the sheet bent there?)"
"""Why a field that the picture's edge cuts (or that lies beyond it) is uncertain."""
LEFT_OUT = "the marker of this corner does not fit the other three (is the corner bent up, or another sheet over it?)"
"""Why a field beside the corner of a sheet read from three markers is uncertain where that corner's own marker
was found but left out (`printgen.scan.reader`)."""


def evidence(cover: float, line: float, ring: float = 0.0) -> float:
    """A field's ink as one number, 1 halfway between empty and crossed: by its cover, its slanted line or the
    ring of ink round its middle."""
    return max(cover / COVER_HALF, line / LINE_HALF, ring / RING_HALF)


def read_fields(measured: Measured, fields: list[Field], px_per_mm: float = PX_PER_MM,
                bent: bool = False) -> list[Reading]:
    """Every field's reading from the measured photo; on a sheet crossed with a faint pen (`pen_halfway` below
    1) a field is empty only at that share of SURE_EMPTY, and where all its empty fields are clearly so (none
    above PEN_CLEAR of that bar) a field uncertain only for its ink (UNCLEAR) is crossed at that share of
    SURE_CROSSED; in a photo too grainy to tell (its
    noise as high as NOISE allows) no field is surely empty: a thin stroke may be lost in the grain. A field
    under glare (VEILED) has the share of its print's contrast that the glare leaves measured, for its best
    guess's halfway, or is taken for hidden where that share is all but none (`_veiled`). On a `bent`
    sheet (its markers fit one flat sheet only loosely) a field's print counts as misplaced sooner
    (MISPLACED_SHARE_BENT)."""
    edges = _print_edges(measured.seen, measured.expected, px_per_mm)
    share = MISPLACED_SHARE_BENT if bent else MISPLACED_SHARE

    def read(field: Field, crossed_at: float = SURE_CROSSED) -> Reading:
        return read_field(measured.darkening, field, px_per_mm, measured.doubt, measured.residual, measured.expected,
                          edges, share, crossed_at)

    readings = [read(f) for f in fields]
    pen = pen_halfway(readings)
    if pen != 1.0:
        empty = [r.evidence for r in readings if r.state is State.EMPTY]
        if max(empty, default=0.0) <= PEN_CLEAR * SURE_EMPTY * pen:  # a faint pen's crosses are as sure at its own
            # share of SURE_CROSSED, where no empty field of the sheet comes near its bar (a cross missed there
            # would leave the sheet without a flag)
            readings = [read(r.field, SURE_CROSSED * pen) if r.reason == UNCLEAR
                        and r.evidence >= SURE_CROSSED * pen else r for r in readings]
        # a faint pen's empty fields are sure only at its share of SURE_EMPTY (its faintest cross may look as empty
        # as another pen's speck)
        readings = [replace(r, state=State.UNCERTAIN, reason=UNCLEAR, pen=pen) if r.state is State.EMPTY
                    and r.evidence > SURE_EMPTY * pen else replace(r, pen=pen) for r in readings]
    readings = [_veiled(r, measured, px_per_mm) if r.reason == REASONS[VEILED] else r for r in readings]
    if measured.noise < NOISE:
        return readings
    return [replace(r, state=State.UNCERTAIN, reason=GRAINY) if r.state is State.EMPTY else r for r in readings]


def _veiled(reading: Reading, measured: Measured, px_per_mm: float) -> Reading:
    """A field under glare with the share of its print's contrast that the glare leaves (`_veil`); where that
    share is below VEIL_HIDDEN, something lying there hides the print rather than glare pales it (a coin, a
    phone's shiny back): the field is uncertain as a hidden one (COVERED's reason, the pen's halfway)."""
    veil = _veil(measured.seen, measured.expected, reading.field, px_per_mm)
    if veil is not None and veil < VEIL_HIDDEN:
        return replace(reading, reason=REASONS[COVERED])
    return replace(reading, veil=veil)


def _veil(seen: np.ndarray, expected: np.ndarray, field: Field, px_per_mm: float) -> float | None:
    """The share of the print's contrast that the photo still shows round `field` (1 as expected, less where
    glare's added light pales it), within VEIL_AROUND mm of its box: between its lightest print (the lightest
    tenth of the print's span; the upper quartile of what the photo shows there, which a stroke over part of
    it does not move) and its darkest (the darkest 30 %, the photo's median there). None where the print
    there spans too little to judge (VEIL_CONTRAST, VEIL_PIXELS)."""
    x0, y0, x1, y1 = _pixels(field, px_per_mm, seen.shape)
    grow = round(VEIL_AROUND * px_per_mm)
    window = np.s_[max(0, y0 - grow):y1 + grow, max(0, x0 - grow):x1 + grow]
    printed, looks = expected[window], seen[window]
    top, bottom = float(np.percentile(printed, 90)), float(np.percentile(printed, 1))
    if top - bottom < VEIL_CONTRAST:
        return None
    dark, light_ = printed < bottom + 0.3 * (top - bottom), printed > top - 0.1 * (top - bottom)
    if min(np.count_nonzero(dark), np.count_nonzero(light_)) < VEIL_PIXELS:
        return None
    span = float(np.median(printed[light_]) - np.median(printed[dark]))
    return float(np.percentile(looks[light_], 75) - np.median(looks[dark])) / span


def pen_halfway(readings: list[Reading]) -> float:
    """The evidence halfway between empty and crossed on one sheet, from its clear fields: the geometric mean of
    its typical empty field's and its faint cross's (PEN_EMPTY, PEN_CROSSED), within PEN_LOWEST and 1; 1 when
    it has too few clear fields of either kind (PEN_SAMPLE)."""
    empty = [r.evidence for r in readings if r.state is State.EMPTY]
    crossed = [r.evidence for r in readings if r.state is State.CROSSED]
    if len(empty) < PEN_SAMPLE[0] or len(crossed) < PEN_SAMPLE[1]:
        return 1.0
    typical = max(float(np.percentile(empty, PEN_EMPTY)), 0.0) * float(np.percentile(crossed, PEN_CROSSED))
    return float(np.clip(np.sqrt(typical), PEN_LOWEST, 1.0))


def read_field(darkening: np.ndarray, field: Field, px_per_mm: float = PX_PER_MM,
               doubt: np.ndarray | None = None, residual: np.ndarray | None = None,
               expected: np.ndarray | None = None, edges: tuple[np.ndarray, np.ndarray] | None = None,
               misplaced: float = MISPLACED_SHARE, crossed_at: float = SURE_CROSSED) -> Reading:
    """One field's reading: ink cover of its weighted middle, whether the ink is a horizontal streak, and the
    darkest slanted line (looked for in `residual`, the darkening with the noise still in it, where the print
    as `expected` leaves ink visible; `darkening` and a plain sheet when not given), both above the faint
    darkening of the field's paper that changes only slowly across it (`_even`), and by the print's edges
    lighter than expected counts as nothing in the line (`_clear_of_print`); where `doubt` says the
    photo cannot be trusted over much of the field, uncertain, its best guess from the ink that shows besides
    what covers it or away from a shadow's edge (but crossed when its ink is far more than an edge or glare
    could make, SHADOW_SURE, or it is filled all over, SHADOW_FILLED); so is a field beside a shadow's edge that
    only the ink by the edge makes crossed, and a field whose print the photo shows elsewhere (`_misplaced` at
    least `misplaced`, and `_shifted` where the print's `edges` are given), and one that only level lines
    running in from its side would make crossed (LEVEL_STROKE, its best guess from the rest of its ink).
    Crossed at `crossed_at` evidence or more, empty at SURE_EMPTY or less, else uncertain (UNCLEAR); uncertain
    too (STUBBY) where a level stroke too thick for a strike-through would make it crossed, or one only a little
    slenderer (under STREAK_SURE) leaves it empty."""
    _, _, w, h = field.box
    x0, y0, x1, y1 = _pixels(field, px_per_mm, darkening.shape)
    patch = _own_ink(darkening, (x0, y0, x1, y1), px_per_mm)
    weights = _weights(field, x0, y0, patch.shape, px_per_mm)
    total = float(weights.sum()) * min(w, h) / max(w, h)  # a long box is crossed like a square one
    if total <= 0:
        return Reading(field, State.UNCERTAIN, 0.0, False, reason=OUTSIDE)
    shows = np.ones_like(weights) if expected is None else _visible(expected[y0:y1, x0:x1], weights)
    visible = weights * shows
    paper = (weights > 0) & (shows >= EVEN_PAPER)
    raw = (darkening if residual is None else residual)[y0:y1, x0:x1]
    trace = np.maximum(raw - _even(raw, paper), -TRACE_FLOOR)
    trace = np.where((patch <= 0) & (darkening[y0:y1, x0:x1] > 0), 0.0, trace)  # a foreign stroke's too
    patch = np.maximum(patch - _even(patch, paper), 0.0)
    if expected is not None:
        trace = np.where(_clear_of_print(expected[y0:y1, x0:x1], px_per_mm), trace, np.maximum(trace, 0.0))
    reason, worst, whole = "", NONE, (patch, trace)  # (the ink before a shadow's edge is left out)
    if doubt is not None:
        codes = doubt[y0:y1, x0:x1]
        shares = np.bincount(codes.ravel(), weights=weights.ravel(), minlength=max(REASONS) + 1) / max(
            float(weights.sum()), 1e-9)
        worst = int(np.argmax(shares[1:])) + 1
        if shares[worst] >= COVERED_SHARE:
            reason = REASONS[worst]
            if worst in (COVERED, LINE):  # its best guess from the ink besides what lies over it
                patch = np.where(codes == worst, 0.0, patch)
                trace = np.where(codes == worst, 0.0, trace)
            elif worst == SHADOW:  # its best guess from the ink away from the edge (the light is unsure there)
                near = _near_edge(doubt, (x0, y0, x1, y1), px_per_mm)
                patch = np.where(near, 0.0, patch)
                trace = np.where(near, 0.0, trace)
    cover, streak, line = _ink_in(patch, weights, total, field, px_per_mm, trace, visible)
    ring = _ring(darkening, field, px_per_mm) if field.kind in CIRCLED and not reason else 0.0
    seen = evidence(cover, line, ring)
    if reason and worst == SHADOW and seen < SHADOW_SURE:  # a field filled all over is crossed, edge or not
        full = _ink_in(whole[0], weights, total, field, px_per_mm, whole[1], visible)
        if full[0] >= SHADOW_FILLED:
            (cover, streak, line), seen = full, evidence(full[0], full[2])
    if worst in (SHADOW, VEILED, LINE) and seen >= SHADOW_SURE:  # (a line's darkening is left out of `seen`)
        reason = ""
    if not reason and doubt is not None and SURE_EMPTY < seen < SHADOW_SURE:
        # an edge by it, over too little of it to doubt it: is its ink only the light's smoothed edge? Then it is
        # doubtful, its best guess from the ink away from the edge
        near = _near_edge(doubt, (x0, y0, x1, y1), px_per_mm)
        if near.any():
            apart = _ink_in(np.where(near, 0.0, patch), weights, total, field, px_per_mm, np.where(near, 0.0, trace),
                            visible)
            if evidence(apart[0], apart[2]) < min(seen, SURE_CROSSED):  # (a ring is measured with the edge in it)
                reason, (cover, streak, line), ring = REASONS[SHADOW], apart, 0.0
                seen = evidence(cover, line)
    if not reason and (residual is not None and expected is not None
                       and _misplaced(residual, expected, field, px_per_mm) >= misplaced
                       or edges is not None and _shifted(edges, field, px_per_mm)):
        reason = MISPLACED
    if not reason and seen >= crossed_at and field.kind in STRUCK_THROUGH:  # crossed: by level lines alone? (no
        level = _level_pieces(patch, px_per_mm)  # cross: `_level_pieces`; on a box, any line is a mark)
        if level is not None:
            apart = _ink_in(np.where(level, 0.0, patch), weights, total, field, px_per_mm, np.where(level, 0.0, trace),
                            visible)
            if evidence(apart[0], apart[2], ring) < crossed_at:  # its best guess from the ink besides them (the
                reason, (cover, streak, line), ring = LEVEL_STROKE, apart, 0.0  # ring was measured with them)
    if not reason and seen >= crossed_at and doubt is not None:  # crossed: by a long line's ink alone?
        along = _on_long_lines(patch, codes == LINE)  # (one reaching in: too little of it to doubt it whole)
        if along.any():
            apart = _ink_in(np.where(along, 0.0, patch), weights, total, field, px_per_mm, np.where(along, 0.0, trace),
                            visible)
            if evidence(apart[0], apart[2]) < crossed_at:  # its best guess from the ink beside the line
                reason, (cover, streak, line), ring = REASONS[LINE], apart, 0.0
    if not reason and seen >= crossed_at:  # crossed: is it by a stroke borrowed from outside?
        borrowed = _borrowed(darkening, (x0, y0, x1, y1), patch, px_per_mm)
        if borrowed.any():
            alone = _ink_in(np.where(borrowed, 0.0, patch), weights, total, field, px_per_mm,
                            np.where(borrowed, 0.0, trace), visible)
            if evidence(alone[0], alone[2], ring) < crossed_at:
                reason = OVERRUN
    stubby = 0.0 < streak < STREAK_SURE  # (a level stroke: a short strike-through, or a filled blob's edge?)
    if reason:
        state = State.UNCERTAIN
    elif seen >= crossed_at and stubby and streak < STREAK_SLENDER:  # counted, too thick for a line
        state, reason = State.UNCERTAIN, STUBBY
    elif seen >= crossed_at:
        state = State.CROSSED
    elif seen <= SURE_EMPTY and stubby and streak >= STREAK_SLENDER:  # left out as a strike-through
        state, reason = State.UNCERTAIN, STUBBY
    elif seen <= SURE_EMPTY:
        state = State.EMPTY
    else:
        state, reason = State.UNCERTAIN, UNCLEAR
    return Reading(field, state, cover, streak >= STREAK_SLENDER, line, ring, reason=reason)


def _pixels(field: Field, px_per_mm: float, shape: tuple[int, ...],
            margin: float = 0.0) -> tuple[int, int, int, int]:
    """The pixels (x0, y0, x1, y1) that `field`'s box, `margin` mm larger on every side, touches in an image of
    `shape` at `px_per_mm`."""
    x, y, w, h = field.box
    x0, y0 = max(int(np.floor((x - margin) * px_per_mm)), 0), max(int(np.floor((y - margin) * px_per_mm)), 0)
    x1 = min(int(np.ceil((x + w + margin) * px_per_mm)), shape[1])
    y1 = min(int(np.ceil((y + h + margin) * px_per_mm)), shape[0])
    return x0, y0, x1, y1


def _misplaced(residual: np.ndarray, expected: np.ndarray, field: Field, px_per_mm: float) -> float:
    """The share of the print in and around `field` (MISPLACED_MARGIN beyond its box; what `expected` has
    darker than MISPLACED_PRINT) that the photo shows at least MISPLACED_BACK of the way back to paper: the
    sheet's own print is not where the alignment put it (a box's border then lies inside the field and reads as
    ink), as where a bent corner's warp found too little print to follow."""
    x0, y0, x1, y1 = _pixels(field, px_per_mm, expected.shape, MISPLACED_MARGIN)
    printed = expected[y0:y1, x0:x1]
    dark = printed < MISPLACED_PRINT
    if not dark.any():
        return 0.0
    lighter = -residual[y0:y1, x0:x1]  # (the residual is how much darker than expected)
    return float(np.mean(lighter[dark] > MISPLACED_BACK * (1.0 - printed[dark])))


def _print_edges(seen: np.ndarray, expected: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The edges (`_gradient`) of the photo as `seen` (`Measured.seen`), SHIFTED_SEARCH wider on every side
    (nothing there), and of the print as `expected`: what `_shifted` matches."""
    reach = round(SHIFTED_SEARCH * px_per_mm)
    return (cv2.copyMakeBorder(_gradient(seen), reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0),
            _gradient(expected))


def _gradient(image: np.ndarray) -> np.ndarray:
    """How steeply `image` changes at each pixel (its Sobel gradient's length)."""
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(np.hypot(gx, gy))


def _shifted(edges: tuple[np.ndarray, np.ndarray], field: Field, px_per_mm: float) -> bool:
    """Whether the photo shows `field`'s print (its `edges` from `_print_edges`, SHIFTED_WINDOW beyond its box:
    its border, its neighbours', its band) best at least SHIFTED_DISTANCE from where the alignment put it, within
    SHIFTED_SEARCH, and better there by SHIFTED_GAIN: where a bent sheet's print could not be followed, a box
    lies a millimetre off and its neighbour's edge reads as ink."""
    seen, printed = edges
    x0, y0, x1, y1 = _pixels(field, px_per_mm, printed.shape, SHIFTED_WINDOW)
    template = printed[y0:y1, x0:x1]
    if min(template.shape) < 3 or float(template.std()) < 1e-3:  # nothing printed to match
        return False
    reach = round(SHIFTED_SEARCH * px_per_mm)
    scores = cv2.matchTemplate(seen[y0:y1 + 2 * reach, x0:x1 + 2 * reach], template, cv2.TM_CCOEFF_NORMED)
    _, best, _, (bx, by) = cv2.minMaxLoc(scores)
    return bool(np.hypot(bx - reach, by - reach) >= SHIFTED_DISTANCE * px_per_mm
                and best - float(scores[reach, reach]) >= SHIFTED_GAIN)


def _even(values: np.ndarray, paper: np.ndarray) -> np.ndarray | float:
    """The faint darkening of a field's `paper` (a mask) in `values` that changes only slowly across it: the
    light or the camera's tone misjudged there (beside a streak of glare, a white circle in a dark band), not
    ink. Per third of the field each way the EVEN_SHARE percentile of its paper's values where between 0 and
    EVEN_FAINT (an X's or a tick's strokes cover little of any third; a blob is darker); 0 where none is."""
    h, w = values.shape
    if h < 3 or w < 3:
        return 0.0
    thirds = _thirds(h, w)[paper]
    counts = np.bincount(thirds, minlength=9)
    if not counts.any():
        return 0.0
    # every third's values sorted at once: each third's own range of keys (its values lie within -1..1)
    ordered = np.sort(thirds * 4.0 + np.clip(values[paper], -1.0, 1.0)) - np.repeat(np.arange(9) * 4.0, counts)
    starts = np.cumsum(counts) - counts
    rank = EVEN_SHARE / 100 * np.maximum(counts - 1, 0)  # the percentile between two ranks, as NumPy's linear one
    low = np.floor(rank).astype(np.int64)
    high = np.minimum(low + 1, np.maximum(counts - 1, 0))
    last = len(ordered) - 1
    first, second = ordered[np.minimum(starts + low, last)], ordered[np.minimum(starts + high, last)]
    levels = np.where(counts > 0, first + (second - first) * (rank - low), 0.0)
    levels = np.where((levels > 0) & (levels < EVEN_FAINT), levels, 0.0).astype(np.float32)
    if not levels.any():
        return 0.0
    return cv2.resize(levels.reshape(3, 3), (w, h), interpolation=cv2.INTER_LINEAR)


@lru_cache(maxsize=64)
def _thirds(h: int, w: int) -> np.ndarray:
    """Which third of an `h` x `w` field each pixel lies in, each way (0..8, row by row; read-only)."""
    rows = np.repeat(np.arange(3), [h // 3, 2 * h // 3 - h // 3, h - 2 * h // 3])
    cols = np.repeat(np.arange(3), [w // 3, 2 * w // 3 - w // 3, w - 2 * w // 3])
    return _read_only(rows[:, None] * 3 + cols[None, :])


def _near_edge(doubt: np.ndarray, box: tuple[int, int, int, int], px_per_mm: float) -> np.ndarray:
    """Which pixels of `box` lie within SHADOW_NEAR of a shadow's edge (where `doubt` says SHADOW): the light
    model smooths a sharp edge, so beside it the paper looks darker or lighter than it is."""
    x0, y0, x1, y1 = box
    grow = max(1, round(SHADOW_NEAR * px_per_mm))
    gx0, gy0 = max(x0 - grow, 0), max(y0 - grow, 0)
    gx1, gy1 = min(x1 + grow, doubt.shape[1]), min(y1 + grow, doubt.shape[0])
    edge = (doubt[gy0:gy1, gx0:gx1] == SHADOW).astype(np.uint8)
    if not edge.any():  # (no edge near: the usual case)
        return np.zeros((y1 - y0, x1 - x0), bool)
    near = cv2.dilate(edge, disc(SHADOW_NEAR, px_per_mm)) > 0
    return near[y0 - gy0:y1 - gy0, x0 - gx0:x1 - gx0]


def _clear_of_print(expected: np.ndarray, px_per_mm: float) -> np.ndarray:
    """Where a field's pixels lie clear of the print's edges (a mask): by an edge the photo is measured against
    the darkest print within TOLERANCE (the print may lie there after alignment), so a stroke crossing it shows
    no darkening there, and the print's own shift shows as lighter than expected, which says nothing of ink."""
    eroded = cv2.erode(expected, disc(TOLERANCE, px_per_mm), borderType=cv2.BORDER_REPLICATE)
    return np.asarray(eroded >= expected - EDGE_DROP)


def _visible(expected: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """How much of a stroke's darkening shows on each pixel of a field (0..1): the print's lightness against
    the field's paper (ink over a printed number darkens it only as much as the number lets light through)."""
    middle = expected[weights >= 0.5]
    paper = float(np.percentile(middle, 90)) if middle.size else 1.0
    return np.clip(expected / max(paper, 1e-3), 0.0, 1.0).astype(np.float32)


def _ink_in(patch: np.ndarray, weights: np.ndarray, total: float, field: Field, px_per_mm: float,
            trace: np.ndarray, visible: np.ndarray) -> tuple[float, float, float]:
    """A field's ink cover (less a level strike-through), how slender its strike-through is (`_struck`: 0 for
    none, under STREAK_SLENDER for a level stroke too thick for one, whose ink counts), and its slanted line (in
    `trace`, weighted by `visible`)."""
    mass = patch * weights
    cover = float(mass.sum()) / total
    found = _struck(mass, px_per_mm) if field.kind in STRUCK_THROUGH else None
    if found is None:
        return cover, 0.0, _slanted_line(trace * visible, visible)
    struck, slender = found  # a line through the field: what counts is the ink away from it (none: too thick)
    away = visible * ~struck  # (a strike-through's own ink is no slanted line)
    return float(mass[~struck].sum()) / total, slender, _slanted_line(trace * away, away)


def _on_long_lines(patch: np.ndarray, marked: np.ndarray) -> np.ndarray:
    """The pixels of `patch` that `marked` (a long line's, `printgen.scan.doubt`) holds, and the pieces of ink
    reaching into them that are each one straight line (a cable's tip beyond where the line was found); a
    cross's strokes, crossing, are no one line."""
    if not marked.any():
        return marked
    _, labels = cv2.connectedComponents((patch > INKED).astype(np.uint8), connectivity=8)
    ys, xs = np.mgrid[0:patch.shape[0], 0:patch.shape[1]]
    along = marked.copy()
    for label in np.unique(labels[marked & (labels > 0)]):
        piece = labels == label
        if _line(np.where(piece, patch, 0.0), xs, ys) is not None:
            along |= piece
    return along


def _level_pieces(patch: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    """Where the ink in `patch` that makes a level line running in from the field's side lies (STREAK_MARGIN
    around it included), or None for none: the pieces of ink that may be a level line's (`_a_level_line`,
    loosely), straight (LEVEL_BEND) and one run of ink down each column (LEVEL_FILL), where one of them comes
    within LEVEL_EDGE of the field's left or right side and all of them together are one level line. A level
    line is no cross, wherever it runs: one off the field's middle is no strike-through (`_struck`) either,
    yet its ink covers the field (a cable lying along a row, broken into stubs where the printed number hides
    it), and where one stops in the field a band slanted through its end reads as a slash. A cross's arms lean
    (a flat X's two leave the span between them empty), a circle's foot bends, and a blob is wider."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((patch > INKED).astype(np.uint8), connectivity=8)
    ys, xs = np.mgrid[0:patch.shape[0], 0:patch.shape[1]]
    level = np.zeros(count, bool)
    sides, edge = False, round(LEVEL_EDGE * px_per_mm)
    for label in range(1, count):
        inside = labels == label
        level[label] = _a_level_line(np.where(inside, patch, 0.0), xs, ys, px_per_mm, loose=True) \
            and _one_run(inside) >= LEVEL_FILL and _bend(inside) <= LEVEL_BEND * px_per_mm
        left, _, wide, _, _ = stats[label]
        sides |= bool(level[label]) and (left <= edge or left + wide >= patch.shape[1] - edge)
    if not sides or not _a_level_line(np.where(level[labels], patch, 0.0), xs, ys, px_per_mm, loose=False):
        return None
    return cv2.dilate(level[labels].astype(np.uint8), disc(STREAK_MARGIN, px_per_mm)) > 0


def _a_level_line(mass: np.ndarray, xs: np.ndarray, ys: np.ndarray, px_per_mm: float, loose: bool) -> bool:
    """Whether the ink `mass` is at most LEVEL_WIDEST wide (a bar's spread across it) and at least 1 / LEVEL_PIECE
    times as long as it is wide, running within LEVEL degrees of level; `loose`, a piece as short as it is
    wide may run any way (the stub of a line between a printed number and the field's edge, which the number's
    outline cuts at a slant)."""
    total = float(mass.sum())
    if total <= 0:
        return False
    _, _, (cxx, cxy, cyy) = _moments(mass, xs, ys)
    across, along = np.linalg.eigvalsh(np.array([[cxx, cxy], [cxy, cyy]]) / total)
    if across > (LEVEL_WIDEST * px_per_mm) ** 2 / 12:
        return False
    if across <= LEVEL_PIECE ** 2 * along:
        return abs(_direction(cxx, cxy, cyy)) <= LEVEL
    return loose


def _bend(mask: np.ndarray) -> float:
    """How far (px) the middle of a piece down its columns strays from the straight line fitted through it (a
    circle's arc bends; a cable, a ruled or a struck line hardly do)."""
    columns, top, bottom = _columns(mask)
    if columns.size < 3:
        return 0.0
    middle = (top + bottom) / 2
    slope, offset = np.polyfit(columns, middle, 1)
    return float(np.abs(middle - (slope * columns + offset)).max())


def _one_run(mask: np.ndarray) -> float:
    """How much of the span between a piece's top and bottom pixel in each of its columns it fills (1 for one
    line or bar; a flat X's two arms leave the span between them empty)."""
    columns, top, bottom = _columns(mask)
    return float(mask[:, columns].sum()) / float((bottom - top + 1).sum())


def _columns(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The columns a piece (`mask`, not empty) has pixels in, and its top and bottom pixel's row in each."""
    columns = np.flatnonzero(mask.any(axis=0))
    top = np.argmax(mask[:, columns], axis=0)
    bottom = mask.shape[0] - 1 - np.argmax(mask[::-1, columns], axis=0)
    return columns, top, bottom


def _window(darkening: np.ndarray, box: tuple[int, int, int, int],
            px_per_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The darkening FOREIGN_REACH around `box`, which of its pixels lie in `box`, and each pixel of `box`'s
    distance from its middle (px)."""
    x0, y0, x1, y1 = box
    grow = round(FOREIGN_REACH * px_per_mm)
    gx0, gy0 = max(x0 - grow, 0), max(y0 - grow, 0)
    gx1, gy1 = min(x1 + grow, darkening.shape[1]), min(y1 + grow, darkening.shape[0])
    return darkening[gy0:gy1, gx0:gx1], *_frame(gy1 - gy0, gx1 - gx0, y0 - gy0, x0 - gx0, y1 - y0, x1 - x0)


@lru_cache(maxsize=64)
def _frame(rows: int, cols: int, top: int, left: int, height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Which pixels of a `rows` x `cols` window lie in the `height` x `width` box at `top`, `left` of it, and each
    pixel of the box's distance from its middle (px); both read-only."""
    inside = np.zeros((rows, cols), bool)
    inside[top:top + height, left:left + width] = True
    ys, xs = np.mgrid[0:height, 0:width]
    return _read_only(inside), _read_only(np.hypot(xs - width / 2, ys - height / 2))


def _read_only(array: np.ndarray) -> np.ndarray:
    """`array`, made read-only (it is remembered and shared)."""
    array.flags.writeable = False
    return array


def _own_ink(darkening: np.ndarray, box: tuple[int, int, int, int], px_per_mm: float) -> np.ndarray:
    """The ink in `box` without strokes that only reach into it from outside (a neighbour's cross running over):
    a stroke counts when at least a third of it lies inside or when it comes near the field's middle (a cross
    that runs into its neighbours' crosses is still its field's own)."""
    x0, y0, x1, y1 = box
    patch = darkening[y0:y1, x0:x1].copy()
    window, inside, distance = _window(darkening, box, px_per_mm)
    count, labels = cv2.connectedComponents((window > INKED).astype(np.uint8), connectivity=8)
    if count <= 1:
        return patch
    totals = np.bincount(labels.ravel(), weights=window.ravel(), minlength=count)
    within = np.bincount(labels[inside].ravel(), weights=window[inside].ravel(), minlength=count)
    own = labels[inside].reshape(patch.shape)
    nearest = np.full(count, np.inf)
    np.minimum.at(nearest, own.ravel(), distance.ravel())
    foreign = (within < OWN_SHARE * totals) & (nearest > OWN_REACH * min(own.shape))
    foreign[0] = False
    patch[foreign[own]] = 0.0
    count, pieces = _across_gaps((patch > INKED).astype(np.uint8), px_per_mm)
    for label in range(1, count):
        where = pieces == label
        if _from_outside(darkening, np.where(where, patch, 0.0), box, px_per_mm):
            patch[where] = 0.0
    return patch


def _across_gaps(inked: np.ndarray, px_per_mm: float) -> tuple[int, np.ndarray]:
    """The strokes of the mask `inked`, followed across gaps up to twice OVERRUN_GAP (where ink the colour of the
    print does not show, or a printed number hides it): how many labels, and each pixel's label."""
    gap = max(1, round(OVERRUN_GAP * px_per_mm))
    joined = cv2.dilate(inked, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * gap + 1,) * 2))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    return count, labels


def _from_outside(darkening: np.ndarray, piece: np.ndarray, box: tuple[int, int, int, int],
                  px_per_mm: float) -> bool:
    """Whether `piece` (ink in `box`) is one straight stroke whose middle lies far off the field's: followed both ways
    along its direction through `darkening` (across gaps up to twice OVERRUN_GAP, where ink the colour of the
    print does not show), a neighbour's arm reaching in ends up centred on the neighbour, a field's own slash,
    tick or overrunning cross on the field."""
    total = float(piece.sum())
    if total <= 0:
        return False
    ys, xs = np.mgrid[0:piece.shape[0], 0:piece.shape[1]]
    line = _line(piece, xs, ys)
    if line is None:
        return False
    mx, my, spread, axes, _ = line
    x0, y0, x1, y1 = box
    along, across = axes[:, 1], axes[:, 0]
    reach = round(STROKE_REACH * max(x1 - x0, y1 - y0))
    steps = np.arange(-reach, reach + 1, dtype=np.float64)
    half = np.sqrt(max(float(spread[0]), 0.0)) * 2 + STROKE_SWAY * px_per_mm
    bend = np.tan(np.radians(STROKE_BEND))
    offsets = np.arange(-np.ceil(half + reach * bend), np.ceil(half + reach * bend) + 1)
    px = x0 + mx + steps[:, None] * along[0] + offsets[None, :] * across[0]
    py = y0 + my + steps[:, None] * along[1] + offsets[None, :] * across[1]
    ix, iy = np.rint(px).astype(np.int64), np.rint(py).astype(np.int64)
    valid = (ix >= 0) & (iy >= 0) & (ix < darkening.shape[1]) & (iy < darkening.shape[0])
    valid &= np.abs(offsets)[None, :] <= half + np.abs(steps)[:, None] * bend
    inked = np.zeros(ix.shape, bool)
    inked[valid] = darkening[iy[valid], ix[valid]] > INKED
    hits = np.flatnonzero(inked.any(axis=1)) - reach
    gap = 2 * OVERRUN_GAP * px_per_mm + 1
    ends = []
    for side in (hits[hits >= 0], -hits[hits <= 0][::-1]):
        reached = np.concatenate(([0], side))
        jumps = np.flatnonzero(np.diff(reached) > gap)
        ends.append(float(reached[jumps[0]] if jumps.size else reached[-1]))
    if max(ends) >= reach:  # no end in sight: a line ruled across the sheet, or ink all along
        return False
    middle = (ends[0] - ends[1]) / 2
    dx, dy = mx + middle * along[0] - (x1 - x0) / 2, my + middle * along[1] - (y1 - y0) / 2
    return bool(np.hypot(dx, dy) > STROKE_AWAY * min(x1 - x0, y1 - y0))


def _borrowed(darkening: np.ndarray, box: tuple[int, int, int, int], patch: np.ndarray,
              px_per_mm: float) -> np.ndarray:
    """Where the ink kept in `patch` (the field's own, see `_own_ink`) may be borrowed: strokes that run on
    outside the field (followed across gaps up to twice OVERRUN_GAP, where ink the colour of the print does not
    show) without coming as near its middle as OVERRUN_REACH."""
    window, inside, distance = _window(darkening, box, px_per_mm)
    inked = (window > INKED).astype(np.uint8)
    count, labels = _across_gaps(inked, px_per_mm)
    outside = np.bincount(labels[~inside & (inked > 0)], minlength=count) > 0
    own = labels[inside].reshape(patch.shape)
    nearest = np.full(count, np.inf)
    np.minimum.at(nearest, own[patch > INKED], distance[patch > INKED])
    borrowed = outside & (nearest > OVERRUN_REACH * min(own.shape))
    borrowed[0] = False
    return np.asarray(borrowed[own] & (patch > 0))


def _angle(mass: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> float:
    """The direction (degrees from level) in which the ink spreads most."""
    return _direction(*_moments(mass, xs, ys)[2])


def _direction(cxx: float, cxy: float, cyy: float) -> float:
    """The direction (degrees from level) of the most spread of ink whose spread (`_moments`) is given."""
    return float(np.degrees(0.5 * np.arctan2(2 * cxy, cxx - cyy)))


def _line(mass: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> tuple[float, float, np.ndarray, np.ndarray,
                                                                      float] | None:
    """When the ink is one line (its spread across at most ONE_LINE of its spread along): its middle (x, y), its
    variances across and along it, those two directions (columns) and its direction in degrees from level; None
    for crossing strokes or a blob."""
    mx, my, (cxx, cxy, cyy) = _moments(mass, xs, ys)
    spread, axes = np.linalg.eigh(np.array([[cxx, cxy], [cxy, cyy]]) / float(mass.sum()))
    if spread[0] > (ONE_LINE ** 2) * spread[1]:
        return None
    return mx, my, spread, axes, _direction(cxx, cxy, cyy)


def _moments(mass: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> tuple[float, float, tuple[float, float, float]]:
    """The ink's middle (x, y) and its spread about it (xx, xy, yy, summed, not divided by the ink's mass)."""
    total = float(mass.sum())
    mx, my = float((mass * xs).sum() / total), float((mass * ys).sum() / total)
    return mx, my, (float((mass * (xs - mx) ** 2).sum()), float((mass * (xs - mx) * (ys - my)).sum()),
                    float((mass * (ys - my) ** 2).sum()))


def _slanted_line(mass: np.ndarray, weights: np.ndarray) -> float:
    """The highest mean darkening along a straight band (about half a mm wide) slanted 25 to 65 degrees
    either way and passing near the field's middle, above the field's mean and above the lines LINE_FLANK either
    side of it: a stroke's faint pieces add up along its line, noise does not, darkening over the whole field
    (grain, a shadow) or beside a step in it (a shadow's or a fold's edge) is no line, and a neighbour's cross
    overrunning a corner does not pass near the middle."""
    h, w = mass.shape
    near = round(NEAR_MIDDLE * min(h, w))
    middle = h // 2
    layers = cv2.merge([mass, weights.astype(mass.dtype, copy=False)] * 2)  # 4 channels turn as each alone would
    turns = _turns(w, h)
    turned = np.empty((len(turns), h, w, 4), layers.dtype)
    for k, turn in enumerate(turns):
        cv2.warpAffine(layers, turn, (w, h), dst=turned[k], flags=cv2.INTER_LINEAR)
    ink_rows, weight_rows = turned[..., 0].sum(axis=2), turned[..., 1].sum(axis=2)
    widest = _widened(weight_rows).max(axis=1)[:, None]  # a whole line's length: short pieces count less
    widened = _widened(ink_rows)
    rows = np.arange(max(middle - near, 0), min(middle + near + 1, h))
    flanks = np.maximum(widened[:, np.maximum(rows - LINE_FLANK, 0)], widened[:, np.minimum(rows + LINE_FLANK, h - 1)])
    mean = max(float(mass.sum()) / max(float(weights.sum()), 1e-9), 0.0)
    lines = np.minimum(widened[:, rows] - mean * widest, widened[:, rows] - flanks) / np.maximum(widest, 1e-9)
    lines = lines[widest[:, 0] > 0]
    return max(float(lines.max()), -mean) if lines.size else -mean


@lru_cache(maxsize=64)
def _turns(w: int, h: int) -> tuple[np.ndarray, ...]:
    """The rotations by SLASH_ANGLES about the middle of a `w` x `h` patch."""
    return tuple(cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0) for angle in SLASH_ANGLES)


def _widened(rows: np.ndarray) -> np.ndarray:
    """Each row of `rows` summed over LINE_WIDTH neighbours, as `np.convolve(row, np.ones(LINE_WIDTH), "same")`
    sums them (in float64, left to right)."""
    count, length = rows.shape
    before = LINE_WIDTH - 1 - (LINE_WIDTH - 1) // 2
    padded = np.zeros((count, length + LINE_WIDTH - 1))
    padded[:, before:before + length] = rows
    total = padded[:, :length].copy()
    for k in range(1, LINE_WIDTH):
        total += padded[:, k:k + length]
    return total


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
    bins = _ring_bins(field.box, px_per_mm, x0, y0, x1, y1)[darkening[y0:y1, x0:x1] > RING_INK]
    bins = bins[bins >= 0]
    if not bins.size:
        return 0.0
    return float(len(np.unique(bins))) / RING_BINS


@lru_cache(maxsize=512)
def _ring_bins(box: tuple[float, float, float, float], px_per_mm: float, x0: int, y0: int, x1: int,
               y1: int) -> np.ndarray:
    """For `_ring`, each pixel of the photo's `x0`..`x1`, `y0`..`y1` around the field `box`: its direction's bin
    where it lies between RING_INNER and RING_OUTER of the field's size from its middle, else -1 (read-only)."""
    x, y, w, h = box
    size = min(w, h)
    cx, cy = (x + w / 2) * px_per_mm, (y + h / 2) * px_per_mm
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    dx, dy = xs + 0.5 - cx, ys + 0.5 - cy
    radius = np.hypot(dx, dy) / (size * px_per_mm)
    bins = ((np.arctan2(dy, dx) + np.pi) / (2 * np.pi) * RING_BINS).astype(np.int32) % RING_BINS
    return _read_only(np.where((radius >= RING_INNER) & (radius <= RING_OUTER), bins, -1).astype(np.int16))


def _weights(field: Field, x0: int, y0: int, shape: tuple[int, ...], px_per_mm: float) -> np.ndarray:
    """1 in the field's middle, falling to 0 at its edge: from WEIGHT_START inside the edge to WEIGHT_FULL of the
    field in (WEIGHT_FULL_ROUND for a round one; read-only: remembered per field's place)."""
    return _weights_at(field.box, field.round, x0, y0, shape, px_per_mm)


@lru_cache(maxsize=512)
def _weights_at(box: tuple[float, float, float, float], round_: bool, x0: int, y0: int, shape: tuple[int, ...],
                px_per_mm: float) -> np.ndarray:
    """`_weights` of a field by its box (a layout's fields come back photo after photo)."""
    x, y, w, h = box
    xs = (np.arange(shape[1]) + x0 + 0.5) / px_per_mm
    ys = (np.arange(shape[0]) + y0 + 0.5) / px_per_mm
    if round_:
        r = w / 2
        inside = r - np.hypot(xs[None, :] - (x + r), ys[:, None] - (y + r))
        size = w
    else:
        inside = np.minimum(np.minimum(xs[None, :] - x, x + w - xs[None, :]),
                            np.minimum(ys[:, None] - y, y + h - ys[:, None]))
        size = min(w, h)
    start, full = WEIGHT_START, max(WEIGHT_START + WEIGHT_RAMP, size * (WEIGHT_FULL_ROUND if round_ else WEIGHT_FULL))
    return _read_only(np.clip((inside - start) / (full - start), 0.0, 1.0).astype(np.float32))


def _struck(mass: np.ndarray, px_per_mm: float) -> tuple[np.ndarray, float] | None:
    """Where a strike-through's line lies, STREAK_MARGIN mm either side included, and how slender it is
    (`_slenderness`, at least STREAK_SLENDER): one thin line within STREAK_TILT degrees of level holding most of
    the field's ink, across much of the field; where the only such line is too thick for one (a blob's edge, a
    stubby marker's line), nowhere and its slenderness (under STREAK_SLENDER); None when there is none."""
    total = float(mass.sum())
    if total <= 0:
        return None
    ys, xs = np.mgrid[0:mass.shape[0], 0:mass.shape[1]].astype(np.float32)
    if abs(_angle(mass, xs, ys)) > LEVEL:  # the field's ink leans as a whole: a tick, a slash
        return None
    cx = float((mass * xs).sum() / total)
    band = STREAK_BAND * px_per_mm
    margin = round(STREAK_MARGIN / (STREAK_BAND / 2))
    best, found = 0.0, None
    slender = stubby = 0.0
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
        band_mass = np.where(inside, mass, 0.0)
        height = float((band_mass * ys).sum() / max(float(band_mass.sum()), 1e-9))
        if along.size and float(along.max() - along.min()) >= STREAK_LENGTH * mass.shape[1] \
                and abs(height - mass.shape[0] / 2) <= STREAK_MIDDLE * mass.shape[0] \
                and abs(_angle(band_mass, xs, ys)) <= LEVEL and not _leaning(mass, inside, xs, ys, px_per_mm):
            low, high = _spill(profile, peak)
            wide = (bins >= low) & (bins <= high)
            if abs(_angle(np.where(wide, mass, 0.0), xs, ys)) > LEVEL:
                low, high = peak, peak + 1
            thin = _slenderness(mass, (bins >= low) & (bins <= high))
            if thin < STREAK_SLENDER:  # a blob's patch beside a number, or a stubby marker's line: no sure line
                stubby = max(stubby, thin)
                continue
            best, found, slender = share, (bins >= low - margin) & (bins <= high + margin), thin
    if found is None:
        return None if stubby == 0.0 else (np.zeros(mass.shape, bool), stubby)
    return found, slender


def _slenderness(mass: np.ndarray, band: np.ndarray) -> float:
    """How many times as far across as they are thick the pieces of ink of `mass` that lie in `band` run: the
    band's ink's length over their inked area over that length (a blob's piece reaches beyond the band)."""
    inked = mass > INKED
    columns = np.nonzero((band & inked).any(axis=0))[0]
    if not columns.size:
        return 0.0
    _, labels = cv2.connectedComponents(inked.astype(np.uint8), connectivity=8)
    pieces = np.isin(labels, np.unique(labels[band & inked]))
    length = float(columns[-1] - columns[0] + 1)
    return length * length / max(float(np.count_nonzero(pieces)), 1.0)


def _leaning(mass: np.ndarray, band: np.ndarray, xs: np.ndarray, ys: np.ndarray, px_per_mm: float) -> bool:
    """Whether most of the ink in `band` belongs to pieces that are, whole, lines at least STROKE_PIECE mm long
    leaning more than STROKE_LEAN (a tick's arm or a slash that the band only cuts across; a strike-through may bend
    at one end, but most of it runs level)."""
    _, labels = cv2.connectedComponents((mass > INKED).astype(np.uint8), connectivity=8)
    leaning = 0.0
    for label in np.unique(labels[band & (mass > INKED)]):
        piece = np.where(labels == label, mass, 0.0)
        line = _line(piece, xs, ys)
        if line is not None and np.sqrt(12 * max(float(line[2][1]), 0.0)) >= STROKE_PIECE * px_per_mm \
                and abs(line[4]) > STROKE_LEAN:  # (a line's length from its spread along it)
            leaning += float(piece[band].sum())
    return leaning > 0.5 * float(mass[band].sum())


def _spill(profile: np.ndarray, peak: int) -> tuple[int, int]:
    """The half-band bins of a strike-through's line wider than its band (a felt pen's): from bins `peak` and
    `peak + 1` of `profile` outwards while each next bin holds STREAK_SPILL of the band's fuller bin, at most
    STREAK_WIDEST mm in all."""
    floor = STREAK_SPILL * float(max(profile[peak], profile[min(peak + 1, len(profile) - 1)]))
    low, high = peak, peak + 1
    for _ in range(round(2 * (STREAK_WIDEST - STREAK_BAND) / STREAK_BAND)):
        below = profile[low - 1] if low > 0 else 0.0
        above = profile[high + 1] if high + 1 < len(profile) else 0.0
        if max(below, above) < floor:
            break
        if below >= above:
            low -= 1
        else:
            high += 1
    return low, high
