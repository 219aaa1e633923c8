"""Where a photo cannot be trusted: the photo measured against its blank sheet in, a map of why each pixel is doubtful out.

Ink only ever darkens paper, in strokes at most a felt pen wide or in blobs
within one field. So the print itself tells where something else is going on:
- the photo is lighter than the print could look there (a printed number or
  band hidden under a finger, a pen or glare, or print out of place);
- the photo is darker than the print over a wide patch reaching beyond a
  field (a finger, a pen or a die lying on the sheet);
- the light changes sharply (a shadow's edge), so a mark cannot be told from
  the light;
- a long straight dark line runs across the rows (a cable, a pen or its
  shadow), longer than any cross.
Each pixel gets the code of the reason that holds there (0: none); fields
where one holds are left for a person to check, see `printgen.scan.ink`.
"""

from __future__ import annotations

import cv2
import numpy as np

from printgen.scan.light import edges
from printgen.scan.thresholds import (
    COVER_EXTENT,
    COVER_GROW,
    COVER_SHADOW,
    EDGE_LINE_LENGTH,
    EDGE_LINE_NEAR,
    HIDDEN,
    HIDDEN_AREA,
    HUE_OFF,
    JOIN,
    LEVEL_LINE_LENGTH,
    LIGHT_REACH,
    LINE_BREAK,
    LINE_DARK,
    LINE_END,
    LINE_LENGTH,
    LINE_NEAR,
    LINE_SLANT,
    SHADOW_EDGE,
    SHADOW_SOFT,
    SHADOW_TIP,
    TIP_DARK,
    TIP_NEAR,
    TOLERANCE,
    WIDE,
    WIDE_DARK,
)

NONE, COVERED, SHADOW, VEILED, LINE = 0, 1, 2, 3, 4
REASONS = {
    COVERED: "the print is hidden there (a finger, a pen, a deep shadow or glare over the sheet?)",
    SHADOW: "a shadow's edge crosses it",
    VEILED: "glare pales the print there (a stroke may not show)",
    LINE: "a long straight line runs across it (a cable, a pen or a shadow on the sheet?)",
}
"""What each doubt code means, in words for the person who checks the field."""


def doubts(seen: np.ndarray, expected: np.ndarray, gain: np.ndarray, darker: np.ndarray, noise: float,
           hue_off: np.ndarray, tint: np.ndarray | None, px_per_mm: float) -> np.ndarray:
    """Per pixel the code of why the photo cannot be trusted there (NONE, COVERED, SHADOW, VEILED or LINE), from the
    photo's luma under even light `seen`, the `expected` luma, the light `gain` and how much `darker` than
    expected the photo is (negative where lighter), the photo's `noise`, how far its colour is from the print's
    (`hue_off`) and how much more colourful than the print it is (`tint`; None: any colour off is something
    lying on the sheet)."""
    found = np.zeros(seen.shape, np.uint8)
    found[_long_lines(darker, noise, px_per_mm)] = LINE
    found[_shadow_edges(gain, darker, noise, px_per_mm)] = SHADOW
    covered, veiled = _covered(seen, expected, darker, noise, hue_off, tint, px_per_mm)
    found[veiled] = VEILED
    found[covered] = COVERED
    return found


def _shadow_edges(gain: np.ndarray, darker: np.ndarray, noise: float, px_per_mm: float) -> np.ndarray:
    """Where a shadow's edge makes ink unsure: where the light `gain` changes sharply, and what is left of the
    shadow beyond that. The light is smooth over LIGHT_REACH, so a shadow's part narrower than that (a
    fingertip's, a pen's tip) is not in it: it ends in a soft slope of the light (steeper than SHADOW_SOFT,
    joined to the sharp edge), and the rest is left over as darkening (`darker`, beyond the `noise`, by more
    than TIP_DARK) wider than SHADOW_TIP that comes within TIP_NEAR of that slope: all of such a patch that
    lies within twice LIGHT_REACH of the slope (a shadow's tip is no longer), grown by COVER_GROW (its soft
    edge)."""
    change = edges(gain, px_per_mm)
    edge = change > SHADOW_EDGE
    if not edge.any():  # (mostly no shadow falls: then there is nothing to follow)
        return edge
    slope = _reaching(change > SHADOW_SOFT, edge, px_per_mm, 0.0)
    wide = cv2.morphologyEx((darker - noise > TIP_DARK).astype(np.uint8), cv2.MORPH_OPEN,
                            disc(SHADOW_TIP / 2, px_per_mm))
    tips = _reaching(wide, cv2.dilate(slope.astype(np.uint8), disc(TIP_NEAR, px_per_mm)) > 0, px_per_mm, 0.0)
    tips &= cv2.distanceTransform((~slope).astype(np.uint8), cv2.DIST_L2, 5) <= 2 * LIGHT_REACH * px_per_mm
    return edge | (cv2.dilate(tips.astype(np.uint8), disc(COVER_GROW, px_per_mm)) > 0)


def _long_lines(darker: np.ndarray, noise: float, px_per_mm: float) -> np.ndarray:
    """Where a long straight dark line runs over the sheet: darkening beyond the `noise` by more than LINE_DARK
    that lies along straight segments of at least LINE_LENGTH with no gap longer than LINE_BREAK (the print it
    crosses breaks it up), at least LINE_SLANT from the rows, or along the rows in one line of segments
    LEVEL_LINE_LENGTH long, or slanted so and EDGE_LINE_LENGTH long running in from the sheet's edge
    (`_from_edge`); what of that darkening lies within LINE_NEAR of such segments (each LINE_END longer at both
    ends), grown by COVER_GROW."""
    mask = ((darker - noise) > LINE_DARK).astype(np.uint8)
    slanted: list[tuple[int, int, int, int]] = []
    level: list[tuple[int, int, int, int]] = []
    for segment in _segments(mask, LINE_LENGTH * px_per_mm, px_per_mm):
        (slanted if _slant(segment) >= LINE_SLANT else level).append(segment)
    slanted += [s for s in _segments(mask, EDGE_LINE_LENGTH * px_per_mm, px_per_mm)
                if _slant(s) >= LINE_SLANT and _from_edge(s, mask.shape, px_per_mm)]
    along = np.zeros(mask.shape, np.uint8)
    for x0, y0, x1, y1 in slanted + _level_lines(level, px_per_mm):
        dx, dy = x1 - x0, y1 - y0
        grow = LINE_END * px_per_mm / max(float(np.hypot(dx, dy)), 1.0)  # (a cable's tip, which Hough leaves out)
        cv2.line(along, (round(x0 - grow * dx), round(y0 - grow * dy)), (round(x1 + grow * dx), round(y1 + grow * dy)),
                 1, max(1, round(2 * LINE_NEAR * px_per_mm)))
    if not along.any():  # (mostly nothing lies on the sheet)
        return along.astype(bool)
    return cv2.dilate(along & mask, disc(COVER_GROW, px_per_mm)) > 0


def _segments(mask: np.ndarray, length: float, px_per_mm: float) -> list[tuple[int, int, int, int]]:
    """The straight segments (x0, y0, x1, y1) of `mask` at least `length` px long, with gaps of at most
    LINE_BREAK."""
    found = cv2.HoughLinesP(mask, 1, np.pi / 180, int(length / 2), minLineLength=length,
                            maxLineGap=LINE_BREAK * px_per_mm)
    return [] if found is None else [(int(x0), int(y0), int(x1), int(y1)) for x0, y0, x1, y1 in found.reshape(-1, 4)]


def _slant(segment: tuple[int, int, int, int]) -> float:
    """How far `segment` (x0, y0, x1, y1) is turned from the rows, in degrees (0..90)."""
    x0, y0, x1, y1 = segment
    slant = abs(float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))) % 180
    return min(slant, 180 - slant)


def _from_edge(segment: tuple[int, int, int, int], shape: tuple[int, ...], px_per_mm: float) -> bool:
    """Whether `segment` runs in from an edge of a sheet of `shape` px: an end within EDGE_LINE_NEAR of that
    edge, the segment at least LINE_SLANT from it, and its middle twice that far from every edge (a dark rim
    along an edge, where the sheet's outline and the alignment differ by a pixel, lies along it)."""
    x0, y0, x1, y1 = segment
    near = EDGE_LINE_NEAR * px_per_mm
    height, width = shape[:2]

    def off_edges(x: float, y: float) -> tuple[float, float]:  # (from the top or bottom, from a side)
        return min(y, height - 1 - y), min(x, width - 1 - x)

    if min(off_edges((x0 + x1) / 2, (y0 + y1) / 2)) <= 2 * near:
        return False
    across = _slant(segment)  # from the top and bottom edges; 90 less that from the sides
    return any(level <= near and across >= LINE_SLANT or side <= near and 90 - across >= LINE_SLANT
               for level, side in (off_edges(x0, y0), off_edges(x1, y1)))


def _level_lines(segments: list[tuple[int, int, int, int]], px_per_mm: float) -> list[tuple[int, int, int, int]]:
    """The `segments` along the rows that lie in one line (their middles within LINE_NEAR of its height) with
    others, together reaching LEVEL_LINE_LENGTH with no gap longer than LINE_BREAK (Hough cuts one long line
    into pieces)."""
    found = []
    for x0, y0, x1, y1 in segments:
        middle = (y0 + y1) / 2
        same = sorted((min(a, c), max(a, c)) for a, b, c, d in segments if abs((b + d) / 2 - middle)
                      <= LINE_NEAR * px_per_mm)
        reach, start, end = 0.0, *same[0]
        for left, right in same[1:]:
            if left - end > LINE_BREAK * px_per_mm:
                reach, start = max(reach, end - start), left
            end = max(end, right)
        if max(reach, end - start) >= LEVEL_LINE_LENGTH * px_per_mm:
            found.append((x0, y0, x1, y1))
    return found


def disc(radius_mm: float, px_per_mm: float) -> np.ndarray:
    """A disc of `radius_mm` (at least a pixel) at `px_per_mm`, as a structuring element of OpenCV's morphology."""
    radius = max(1, round(radius_mm * px_per_mm))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _covered(seen: np.ndarray, expected: np.ndarray, darker: np.ndarray, noise: float, hue_off: np.ndarray,
             tint: np.ndarray | None, px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Where something hides the print, and where only glare pales it. Hidden: lighter than any print near it
    could look, or dark or off-colour over a patch wider than a felt pen's stroke; only patches (grown by
    COVER_GROW, pieces within JOIN taken together) that reach further than a field, so a filled field is still
    ink; with COVER_SHADOW around them, where what lies on the sheet casts its shadow. A patch nowhere darker
    or more colourful (`tint`; None: off-colour, `hue_off`) than the print over a stroke's width is glare: it
    can hide strokes but adds none."""
    lighter = seen - cv2.dilate(expected, disc(TOLERANCE, px_per_mm)) - noise > HIDDEN
    lighter = cv2.morphologyEx(lighter.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    hidden = np.zeros(seen.shape, bool)
    if lighter.any():  # (mostly nothing is: then there are no pieces to measure and grow)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(lighter, connectivity=8)
        small = stats[:, cv2.CC_STAT_AREA] < HIDDEN_AREA * px_per_mm * px_per_mm
        small[0] = True
        hidden = cv2.dilate((~small[labels]).astype(np.uint8), disc(COVER_GROW, px_per_mm)) > 0
    wide_disc = disc(WIDE / 2, px_per_mm)
    dark = cv2.morphologyEx((darker - noise > WIDE_DARK).astype(np.uint8), cv2.MORPH_OPEN, wide_disc) > 0
    wide = dark | (cv2.morphologyEx((hue_off > HUE_OFF).astype(np.uint8), cv2.MORPH_OPEN, wide_disc) > 0)
    if not (wide.any() or hidden.any()):  # nothing lies on the sheet (the usual case): no need to look further
        return np.zeros(seen.shape, bool), np.zeros(seen.shape, bool)
    solid = wide if tint is None else dark | (cv2.morphologyEx((tint > HUE_OFF).astype(np.uint8), cv2.MORPH_OPEN,
                                                               wide_disc) > 0)
    joined = cv2.dilate((hidden | wide).astype(np.uint8), disc(JOIN, px_per_mm)) > 0
    with_light = _reaching(joined, hidden, px_per_mm)
    glare = with_light & ~_reaching(with_light, solid, px_per_mm)
    large = _filled(_reaching(wide, None, px_per_mm) | (with_light & ~glare & (hidden | wide)))
    covered = cv2.dilate(large.astype(np.uint8), disc(COVER_SHADOW, px_per_mm)).astype(bool)
    return covered, _filled(glare & (hidden | wide)) & ~covered


def _filled(mask: np.ndarray) -> np.ndarray:
    """`mask` with its holes filled: what a cover surrounds (a white field under glare) is covered too."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats((~mask).astype(np.uint8), connectivity=4)
    height, width = mask.shape
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right, bottom = left + stats[:, cv2.CC_STAT_WIDTH], top + stats[:, cv2.CC_STAT_HEIGHT]
    hole = (left > 0) & (top > 0) & (right < width) & (bottom < height)
    hole[0] = False
    return np.asarray(mask | hole[labels])


def _reaching(mask: np.ndarray, within: np.ndarray | None, px_per_mm: float,
              reach: float = COVER_EXTENT) -> np.ndarray:
    """The connected parts of `mask` that reach at least `reach` mm across (and hold some of `within`)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) / px_per_mm
    large = extent >= reach
    if within is not None:
        large &= np.bincount(labels[within], minlength=count) > 0
    large[0] = False
    return np.asarray(large[labels])
