"""Finding sheets in a photo: a grey image in, per sheet the corner markers seen and the homography from sheet mm to pixels out.

Each sheet carries the four markers of `printgen.marks.markers`; their
identities say which corner is which, so any rotation works. A photo of a
whole page holds several sheets: markers are grouped into sheets by how they
face each other (each marker knows its own "right" and "down"), smallest
quadrilateral first. The sheet's size is not known before its code is read,
so it is first estimated from the markers themselves: in the frame spanned
by their centres, each marker's own width and height give the distances
between them in marker sides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

import cv2
import numpy as np

from printgen.builders.geometry import MARKER, MARKER_INSET
from printgen.marks.markers import MARKER_BITS
from printgen.scan.thresholds import (
    ARUCO_CELL_MARGIN,
    ARUCO_CORNER_WINDOW,
    ARUCO_MIN_BORDER_DISTANCE,
    ARUCO_MIN_CORNER_DISTANCE,
    ARUCO_MIN_PERIMETER,
    ARUCO_POLYGON_ACCURACY,
    ARUCO_PX_PER_CELL,
    ARUCO_WINDOW_MAX,
    ARUCO_WINDOW_MIN,
    ARUCO_WINDOW_STEP,
    CLAHE_CLIP,
    CLAHE_TILES,
    COARSER,
    DETECT_SIZE,
    DIAGONAL_FACING,
    FACING,
    FOREIGN_TURN,
    GROUP_FIT,
    LOOK_ALIKE,
    LOOK_ALIKE_AROUND,
    LOOK_ALIKE_BLUR,
    LOOK_ALIKE_CONTRAST,
    LOOK_ALIKE_INSET,
    LOOK_ALIKE_OVERLAP,
    LOOK_ALIKE_PX_PER_MM,
    LOOK_ALIKE_SHOWN,
    LOOK_ALIKE_TURNS,
    MARKER_SIDE_RATIO,
    MARKER_SPAN,
    MAX_MARKERS,
    MAX_TRIES,
    NEIGHBOURS,
    SHEET_MAX,
    SHEET_MIN,
    WHOLE_FIT,
)


@dataclass(frozen=True)
class Marker:
    """One marker found: its corner index (0 top left .. 3 bottom left) and its corners in photo pixels."""

    index: int
    corners: np.ndarray
    """4 x 2: the marker's own top left, top right, bottom right, bottom left."""

    @property
    def centre(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side(self) -> float:
        return float(np.sqrt(abs(cv2.contourArea(self.corners.astype(np.float32)))))

    @property
    def extent(self) -> tuple[float, float]:
        """Its width and height in pixels: the mean length of its top and bottom edges, of its left and right."""
        c = self.corners
        lengths = np.linalg.norm(c[[1, 2, 3, 2]] - c[[0, 3, 0, 1]], axis=1)
        return float(lengths[:2].mean()), float(lengths[2:].mean())

    @property
    def right(self) -> np.ndarray:
        c = self.corners
        v = (c[1] - c[0]) + (c[2] - c[3])
        return v / (np.linalg.norm(v) + 1e-9)

    @property
    def down(self) -> np.ndarray:
        c = self.corners
        v = (c[3] - c[0]) + (c[2] - c[1])
        return v / (np.linalg.norm(v) + 1e-9)


@dataclass(frozen=True)
class SheetMarkers:
    """The markers of one sheet, by corner index (two, three or four of them)."""

    markers: dict[int, Marker]

    def size_estimate(self) -> tuple[float, float]:
        """The sheet's width and height in mm, from the markers alone (a uniformly scaled print keeps its shape);
        with only two markers, the side they do not span is NaN."""
        if len(self.markers) == 2:
            return self._pair_estimate()
        if len(self.markers) == 4:
            centres = np.array([self.markers[i].centre for i in range(4)], np.float32)
            to_unit = cv2.getPerspectiveTransform(centres, np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))
        else:
            known = sorted(self.markers)
            affine = cv2.getAffineTransform(np.float32([self.markers[i].centre for i in known]),
                                            np.float32([UNIT[i] for i in known]))
            to_unit = np.vstack([affine, [0, 0, 1]])
        widths, heights = [], []
        for marker in self.markers.values():
            c = cv2.perspectiveTransform(marker.corners.reshape(-1, 1, 2).astype(np.float64), to_unit).reshape(-1, 2)
            widths.append((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2)
            heights.append((np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2)
        span_x = MARKER / max(float(np.median(widths)), 1e-6)
        span_y = MARKER / max(float(np.median(heights)), 1e-6)
        return span_x + 2 * MARKER_INSET + MARKER, span_y + 2 * MARKER_INSET + MARKER

    def _pair_estimate(self) -> tuple[float, float]:
        """`size_estimate` from two markers: their distance along each side they span, in their own widths
        and heights (a tilted sheet shortens its markers as it shortens the sheet)."""
        (a, first), (b, second) = sorted(self.markers.items())
        offset = second.centre - first.centre
        width, height = np.mean([first.extent, second.extent], axis=0)
        spans = [abs(float(offset @ (first.right + second.right))) / 2 / max(float(width), 1e-6),
                 abs(float(offset @ (first.down + second.down))) / 2 / max(float(height), 1e-6)]
        apart = (UNIT[a][0] != UNIT[b][0], UNIT[a][1] != UNIT[b][1])
        width, height = (span * MARKER + 2 * MARKER_INSET + MARKER if spanned else float("nan")
                         for span, spanned in zip(spans, apart))
        return width, height

    def homography(self, width: float, height: float) -> tuple[np.ndarray, float]:
        """The homography from sheet mm to photo pixels for a sheet of `width` x `height` mm,
        and its RMS reprojection error in marker sides."""
        sheet, photo = [], []
        for index, marker in self.markers.items():
            sheet += marker_corners_mm(index, width, height)
            photo += list(marker.corners)
        src, dst = np.float64(sheet), np.float64(photo)
        matrix, _ = cv2.findHomography(src, dst, 0)
        if matrix is None:
            return np.eye(3), float("inf")
        back = cv2.perspectiveTransform(src.reshape(-1, 1, 2), matrix).reshape(-1, 2)
        side = float(np.mean([m.side for m in self.markers.values()]))
        return matrix, float(np.sqrt(np.mean(np.sum((back - dst) ** 2, axis=1)))) / max(side, 1e-6)


def marker_corners_mm(index: int, width: float, height: float) -> list[tuple[float, float]]:
    """The corners of marker `index` on a sheet of `width` x `height` mm, in the marker's own order."""
    far_x, far_y = width - MARKER_INSET - MARKER, height - MARKER_INSET - MARKER
    x, y = ((MARKER_INSET, MARKER_INSET), (far_x, MARKER_INSET), (far_x, far_y), (MARKER_INSET, far_y))[index]
    return [(x, y), (x + MARKER, y), (x + MARKER, y + MARKER), (x, y + MARKER)]


@cache
def _detector() -> cv2.aruco.ArucoDetector:
    bits = [np.array([int(b) for b in pattern], np.uint8).reshape(4, 4) for pattern in MARKER_BITS]
    dictionary = cv2.aruco.Dictionary(np.concatenate([cv2.aruco.Dictionary.getByteListFromBits(b) for b in bits]),
                                      4, 2)
    parameters = cv2.aruco.DetectorParameters()
    parameters.adaptiveThreshWinSizeMin = ARUCO_WINDOW_MIN
    parameters.adaptiveThreshWinSizeMax = ARUCO_WINDOW_MAX
    parameters.adaptiveThreshWinSizeStep = ARUCO_WINDOW_STEP
    parameters.minMarkerPerimeterRate = ARUCO_MIN_PERIMETER
    parameters.polygonalApproxAccuracyRate = ARUCO_POLYGON_ACCURACY
    parameters.minCornerDistanceRate = ARUCO_MIN_CORNER_DISTANCE
    parameters.minDistanceToBorder = ARUCO_MIN_BORDER_DISTANCE
    parameters.perspectiveRemovePixelPerCell = ARUCO_PX_PER_CELL
    parameters.perspectiveRemoveIgnoredMarginPerCell = ARUCO_CELL_MARGIN
    parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    parameters.cornerRefinementWinSize = ARUCO_CORNER_WINDOW
    return cv2.aruco.ArucoDetector(dictionary, parameters)


def find_markers(gray: np.ndarray) -> list[Marker]:
    """Every marker in the photo, corners in full-resolution pixels: looked for in each of `_looks` in turn
    until they make up whole sheets."""
    found: list[tuple[int, np.ndarray]] = []
    for count, (image, scale) in enumerate(_looks(gray)):
        if count and not _groups_short(found):
            break
        found = _merge(found, [(index, (corners + 0.5) / scale - 0.5) for index, corners in _detect(image)])
    return [Marker(index, corners) for index, corners in found]


def _looks(gray: np.ndarray) -> Iterator[tuple[np.ndarray, float]]:
    """The pictures markers are looked for in, with their scale: a copy of the photo at most DETECT_SIZE long,
    then the same with its contrast evened out, then coarser copies (DETECT_SIZE divided by each of COARSER),
    plain and evened out: motion blur and grain shrink with the picture while a marker stays a square."""
    scales: list[float] = []
    for size in (DETECT_SIZE, *(DETECT_SIZE / k for k in COARSER)):
        scale = min(1.0, size / max(gray.shape))
        if scale in scales:
            continue
        scales.append(scale)
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
        yield small, scale
        yield cv2.createCLAHE(clipLimit=CLAHE_CLIP, tileGridSize=(CLAHE_TILES, CLAHE_TILES)).apply(small), scale


def _detect(image: np.ndarray) -> list[tuple[int, np.ndarray]]:
    corners, ids, _ = _detector().detectMarkers(image)
    if ids is None:
        return []
    return [(int(i), c.reshape(4, 2).astype(np.float64)) for i, c in zip(ids.ravel(), corners)]


def _groups_short(found: list[tuple[int, np.ndarray]]) -> bool:
    counts = [sum(1 for i, _ in found if i == k) for k in range(4)]
    return min(counts) == 0 or len(set(counts)) > 1


def _merge(first: list[tuple[int, np.ndarray]], second: list[tuple[int, np.ndarray]]) -> list[tuple[int, np.ndarray]]:
    merged = list(first)
    for index, corners in second:
        centre = corners.mean(axis=0)
        side = np.sqrt(abs(cv2.contourArea(corners.astype(np.float32))))
        if all(i != index or np.linalg.norm(c.mean(axis=0) - centre) > side for i, c in merged):
            merged.append((index, corners))
    return merged


UNIT = {0: (0, 0), 1: (1, 0), 2: (1, 1), 3: (0, 1)}
"""Where each corner marker sits on a sheet, in units of the sheet's width and height."""


def group_sheets(markers: list[Marker],
                 pair_fits: Callable[[SheetMarkers], bool] | None = None) -> list[SheetMarkers]:
    """Markers grouped into sheets: all four corners where possible, else three, else two (a sheet whose other
    corners are covered or out of the picture: its size is known only once its code is read, and `pair_fits`
    says whether two markers' distance fits a sheet at all); smallest first.

    Each marker's own "right" and "down" say where its sheet's other corners must lie, so only the nearest
    few markers in each of those directions are tried as partners: the work grows with the number of
    markers, not with its fourth power, and is bounded by MAX_MARKERS and MAX_TRIES."""
    markers = sorted(markers, key=lambda m: -m.side)[:MAX_MARKERS]
    if not markers:
        return []
    centres = np.array([m.centre for m in markers])
    indices = np.array([m.index for m in markers])
    sides = np.array([m.side for m in markers])
    budget = MAX_TRIES
    used: set[int] = set()
    sheets: list[SheetMarkers] = []
    for size in (4, 3, 2):  # every whole sheet holds a top-left marker: it anchors the search for them
        anchors = [a for a, m in enumerate(markers) if a not in used and (size < 4 or m.index == 0)]
        options: dict[frozenset[int], tuple[float, dict[int, Marker]]] = {}
        for anchor in anchors:
            partners = _partners(anchor, markers, centres, indices, sides, used)
            lined = _partners(anchor, markers, centres, indices, sides, used, any_size=True) if size == 2 else {}
            others = [j for j in range(4) if j != markers[anchor].index]
            for chosen in combinations(others, size - 1):
                if size == 2 and any(lined[j] for j in others if j not in chosen):
                    continue  # a third marker lines up with them (however small): a sheet not flat, or too steep
                for combo in product(*(partners[j] for j in chosen)):
                    key = frozenset((anchor, *combo))
                    if key in options or budget <= 0:
                        continue
                    budget -= 1
                    group = {markers[k].index: markers[k] for k in key}
                    area = _plausible(group)
                    if area is not None and size == 2 and pair_fits is not None \
                            and not pair_fits(SheetMarkers(group)):
                        area = None  # (a marker nearer by, of no sheet, leaves the real partner free)
                    options[key] = (area if area is not None else -1.0, group)
        for key, (area, group) in sorted(options.items(), key=lambda item: item[1][0]):
            if area < 0 or key & used:
                continue
            used |= key
            sheets.append(SheetMarkers(group))
    return sheets


def _partners(anchor: int, markers: list[Marker], centres: np.ndarray, indices: np.ndarray, sides: np.ndarray,
              used: set[int], any_size: bool = False) -> dict[int, list[int]]:
    """For each other corner, the nearest few unused markers of that corner lying where the anchor's own
    frame says that corner must be, and (unless `any_size`) within MARKER_SIDE_RATIO of its size."""
    marker = markers[anchor]
    offsets = centres - marker.centre
    distance = np.linalg.norm(offsets, axis=1) + 1e-9
    u = offsets @ marker.right / distance
    v = offsets @ marker.down / distance
    near = distance >= MARKER_SPAN * marker.side
    if not any_size:
        near &= (sides <= MARKER_SIDE_RATIO * marker.side) & (MARKER_SIDE_RATIO * sides >= marker.side)
    found: dict[int, list[int]] = {}
    for corner in range(4):
        if corner == marker.index:
            continue
        ex = UNIT[corner][0] - UNIT[marker.index][0]
        ey = UNIT[corner][1] - UNIT[marker.index][1]
        if ex == 0:
            facing = ey * v >= FACING
        elif ey == 0:
            facing = ex * u >= FACING
        else:
            facing = (ex * u > DIAGONAL_FACING) & (ey * v > DIAGONAL_FACING)
        fit = np.flatnonzero(near & facing & (indices == corner))
        fit = [int(k) for k in fit[np.argsort(distance[fit])] if int(k) not in used]
        found[corner] = fit[:NEIGHBOURS]
    return found


EDGES = ((0, 1, "right"), (3, 2, "right"), (0, 3, "down"), (1, 2, "down"))
"""Sheet edges between corner markers and which way each runs in the markers' own frame."""


def _plausible(group: dict[int, Marker]) -> float | None:
    """The area of the quadrilateral of `group`'s centres if they can be one flat sheet's corners, else None."""
    sides = [m.side for m in group.values()]
    if max(sides) > MARKER_SIDE_RATIO * min(sides):
        return None
    winding = [float(m.right[0] * m.down[1] - m.right[1] * m.down[0]) for m in group.values()]
    if min(winding) * max(winding) <= 0:
        return None
    for a, b, axis in EDGES:
        if a not in group or b not in group:
            continue
        edge = group[b].centre - group[a].centre
        length = float(np.linalg.norm(edge))
        side = (group[a].side + group[b].side) / 2
        if length < MARKER_SPAN * side:
            return None
        for marker in (group[a], group[b]):
            if float(np.dot(edge / length, getattr(marker, axis))) < FACING:
                return None
    centres = np.array([group[i].centre for i in sorted(group)], np.float32)
    if len(centres) == 4 and not cv2.isContourConvex(centres.reshape(-1, 1, 2)):
        return None
    sheet = SheetMarkers(group)
    width, height = sheet.size_estimate()
    if len(group) == 2:  # no flat sheet to fit: only the sides they span, and how far apart they are
        spanned = [size for size in (width, height) if not np.isnan(size)]
        if not all(SHEET_MIN < size < SHEET_MAX for size in spanned):
            return None
        return float(np.sum((centres[1] - centres[0]) ** 2))
    if not (SHEET_MIN < width < SHEET_MAX and SHEET_MIN < height < SHEET_MAX):
        return None
    misfit = sheet.homography(width, height)[1]
    if misfit > GROUP_FIT and (len(group) < 4 or misfit > WHOLE_FIT or _foreign_fourth(group)):
        return None
    return float(abs(cv2.contourArea(centres)))


def _foreign_fourth(group: dict[int, Marker]) -> bool:
    """True when three of `group`'s four markers fit one flat sheet within GROUP_FIT and the fourth is turned more
    than FOREIGN_TURN against where those three put it: another sheet's marker, lying where this one's is hidden
    (a bent sheet's lifted corner moves its marker and magnifies it, but turns it little)."""
    for left_out, marker in group.items():
        three = SheetMarkers({index: other for index, other in group.items() if index != left_out})
        width, height = three.size_estimate()
        to_photo, misfit = three.homography(width, height)
        if misfit > GROUP_FIT:
            continue
        where = Marker(left_out, cv2.perspectiveTransform(
            np.float64(marker_corners_mm(left_out, width, height)).reshape(-1, 1, 2), to_photo).reshape(-1, 2))
        (ax, ay), (bx, by) = where.right, marker.right
        if abs(np.degrees(np.arctan2(ax * by - ay * bx, ax * bx + ay * by))) > FOREIGN_TURN:
            return True
    return False


def look_alike_beside(gray: np.ndarray, sheets: list[tuple[np.ndarray, float, float]]) -> bool:
    """Whether the photo shows, beside the sheets read (each its homography from sheet mm to photo pixels, its
    width and height in mm), a place that looks like one of them: another sheet whose markers were all missed
    (a 2-up page's other half blurred). Looked for in the sheet's own plane, its frame flattened at
    LOOK_ALIKE_PX_PER_MM with LOOK_ALIKE_AROUND mm round it, so a turned page or one seen at a slant is looked
    through as the sheet read is; only the print inside the sheet (LOOK_ALIKE_INSET mm in from its edge) is
    compared, so a plain card or envelope the sheet's size is no sheet, and only where the photo varies at least
    LOOK_ALIKE_CONTRAST as much as that print (a bare table, a shadow's smooth ramp match anything)."""
    k, around, inset = LOOK_ALIKE_PX_PER_MM, LOOK_ALIKE_AROUND, LOOK_ALIKE_INSET
    sheets = [sheet for sheet in sheets if np.isfinite(sheet[0]).all() and abs(np.linalg.det(sheet[0])) > 1e-12]
    if not sheets:
        return False
    # one copy of the photo, still 2 px for every px of the flattened frames of the farthest sheet
    shrink = min(1.0, 2 * k / max(min(_photo_px_per_mm(*sheet) for sheet in sheets), 1e-6))
    small = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA) if shrink < 1 else gray
    small = small.astype(np.float32)
    inside = np.ones(small.shape, np.float32)
    for to_photo, width, height in sheets:
        span = (3 * width + 2 * around, 3 * height + 2 * around)  # mm: the sheet in the middle, room on every side
        canvas = (round(span[0] * k), round(span[1] * k))
        shift = np.array([[k, 0, k * (width + around)], [0, k, k * (height + around)], [0, 0, 1]])
        to_canvas = shift @ np.linalg.inv(to_photo) @ np.diag([1 / shrink, 1 / shrink, 1.0])
        flat = cv2.warpPerspective(small, to_canvas, canvas, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        shown_there = cv2.warpPerspective(inside, to_canvas, canvas, flags=cv2.INTER_NEAREST)
        flat = cv2.GaussianBlur(flat, (0, 0), LOOK_ALIKE_BLUR)
        x0, y0 = round((width + around + inset) * k), round((height + around + inset) * k)
        w, h = round((width - 2 * inset) * k), round((height - 2 * inset) * k)
        template = flat[y0:y0 + h, x0:x0 + w]
        if w < 8 or h < 8 or float(template.std()) < 1.0:
            continue  # (a flat template matches everything at 1)
        fit = _best_turned_fit(flat, (x0, y0, w, h))
        mean, square, shown = (_window_means(image, (w, h), fit.shape) for image in (flat, flat * flat, shown_there))
        contrast = np.sqrt(np.maximum(square - mean * mean, 0.0))
        fit[(shown < LOOK_ALIKE_SHOWN) | (contrast < LOOK_ALIKE_CONTRAST * float(template.std()))] = -1
        xs, ys = np.arange(fit.shape[1]), np.arange(fit.shape[0])
        for other, other_width, other_height in sheets:  # places overlapping a sheet read are that sheet
            corners = np.float64([[0, 0], [other_width, 0], [other_width, other_height], [0, other_height]])
            seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), shift @ np.linalg.inv(to_photo) @ other)
            (a0, b0), (a1, b1) = seen.reshape(-1, 2).min(axis=0), seen.reshape(-1, 2).max(axis=0)
            across = np.clip(np.minimum(xs + w, a1) - np.maximum(xs, a0), 0, None)
            down = np.clip(np.minimum(ys + h, b1) - np.maximum(ys, b0), 0, None)
            fit[np.outer(down, across) > LOOK_ALIKE_OVERLAP * w * h] = -1
        if float(fit.max()) >= LOOK_ALIKE:
            return True
    return False


def _best_turned_fit(flat: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The best correlation at every place of `flat` with its part `box` (x, y, w, h), that part turned by each of
    LOOK_ALIKE_TURNS degrees (sheets cut apart lie a little askew of each other)."""
    x0, y0, w, h = box
    best = None
    for turn in LOOK_ALIKE_TURNS:
        turned = flat if turn == 0 else cv2.warpAffine(
            flat, cv2.getRotationMatrix2D((x0 + w / 2, y0 + h / 2), turn, 1.0), flat.shape[::-1],
            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        fit = cv2.matchTemplate(flat, np.ascontiguousarray(turned[y0:y0 + h, x0:x0 + w]), cv2.TM_CCOEFF_NORMED)
        best = fit if best is None else np.maximum(best, fit)
    assert best is not None
    return best


def _window_means(image: np.ndarray, window: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray:
    """The mean of `image` over a `window` (w, h) at every place a template that large can take (`shape`, as
    matchTemplate gives it: its top left corner)."""
    means = cv2.boxFilter(image, -1, window, anchor=(0, 0), borderType=cv2.BORDER_CONSTANT)
    return means[:shape[0], :shape[1]]


def _photo_px_per_mm(to_photo: np.ndarray, width: float, height: float) -> float:
    """How many photo pixels a mm of the sheet spans at its middle, by its homography."""
    middle = np.float64([[[width / 2, height / 2]], [[width / 2 + 1, height / 2]], [[width / 2, height / 2 + 1]]])
    a, b, c = cv2.perspectiveTransform(middle, to_photo).reshape(-1, 2)
    return float(np.sqrt(np.linalg.norm(b - a) * np.linalg.norm(c - a)))
