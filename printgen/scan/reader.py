"""Reading photos: an image in, for each sheet in it the layout, code, every field's reading and the referee's verdict out (or why not).

The steps: find the corner markers and group them into sheets; guess the
sheet's size from the markers and read its code where the candidate layouts
print it; rebuild the blank sheet from the code; flatten the photo onto it;
decide every field; let the rules engine judge the result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

import cv2
import numpy as np

from printgen import layouts
from printgen.builders.geometry import MARKER, sheet_geometry
from printgen.kinds import ScoreSheetLayout, score_sheet
from printgen.marks.codes import CodeError, SheetCode, layout_name, layout_version, parse
from printgen.scan.crosses import marks_of
from printgen.scan.decode import read_code
from printgen.scan.identify import identify, printed_data
from printgen.scan.ink import LEFT_OUT, OUTSIDE, Reading, State, measure, read_fields
from printgen.scan.locate import (
    Marker,
    SheetMarkers,
    find_markers,
    group_sheets,
    look_alike_beside,
    marker_corners_mm,
)
from printgen.scan.rectify import pixels_per_mm
from printgen.scan.referee import Marks, Verdict, referee
from printgen.scan.settle import settle
from printgen.scan.template import blank_pixels, fields
from printgen.scan.thresholds import (
    FOREIGN_MARKER,
    GROUP_FIT,
    LEFT_OUT_NEAR,
    LEFT_OUT_REACH,
    LOOK_ALIKE_OVERLAP,
    MAX_SHEETS,
    MIN_PX_PER_MM,
    PAIR_SPAN,
    PX_PER_MM,
    READING_BANDS,
    SIZE_FIT,
    SIZES_TRIED,
    STRAY_SIDE_RATIO,
    WARP_PX_PER_MM,
    WHOLE_FIT,
)
from printgen.scan.warp import find_warp, flatten, shrunk

FOREIGN = "the sheet's code is not one printgen prints"


@dataclass
class SheetReading:
    """One sheet read from a photo."""

    file: str
    layout: ScoreSheetLayout
    code: SheetCode
    text: str
    """The code's text as printed."""
    readings: list[Reading]
    verdict: Verdict
    to_photo: np.ndarray
    """Homography from sheet mm to photo pixels."""
    position: int = 1
    of: int = 1
    recognised: tuple[str, ...] | None = None
    """Set when the code could not be read and the sheet was recognised by its look instead: what was doubtful."""
    disagreements: tuple[str, ...] = ()
    """Where the code's own data (lucky numbers, a shuffled order) disagrees with the print."""

    @property
    def marks(self) -> Marks:
        return marks_of(self.layout, self.readings)

    @property
    def uncertain(self) -> list[Reading]:
        return [r for r in self.readings if r.state is State.UNCERTAIN]

    @property
    def flagged(self) -> bool:
        """True when a person should check this sheet: a field is uncertain, the code was not read (the sheet
        was recognised by its print) or the sheet is not legal."""
        return (bool(self.uncertain) or self.recognised is not None or bool(self.disagreements)
                or not self.verdict.legal)


@dataclass
class Unreadable:
    """A photo, or a sheet in it, that could not be read, and why (one line)."""

    file: str
    reason: str
    position: int = 1
    of: int = 1


Result = SheetReading | Unreadable


@dataclass(frozen=True)
class CodeFound:
    """A sheet's code read from the photo: the layout it names, its text and the homography for that layout."""

    layout: ScoreSheetLayout
    text: str
    to_photo: np.ndarray


@dataclass(frozen=True)
class CodeMissing:
    """Why a sheet's code was not found; `recognisable` when the print may still tell the sheet."""

    reason: str
    recognisable: bool


NO_MARKERS = "no sheet found: none of printgen's corner markers was found"
"""How the reason a picture with no marker at all gives begins (`printgen.scan.score` then tries it mirrored)."""


class Reader:
    """Reads photos of sheets printed from the built-in layouts and any `extra` layouts."""

    def __init__(self, extra: tuple[ScoreSheetLayout, ...] = ()) -> None:
        known: dict[str, ScoreSheetLayout] = {}
        for name in layouts.builtin_names():
            layout = score_sheet(layouts.load(name))
            if layout is not None:
                known[layout.name.lower()] = layout
        for layout in extra:
            known[layout.name.lower()] = layout
        self.layouts = known

    def read_image(self, image: np.ndarray, name: str) -> list[Result]:
        """Every sheet in `image` (BGR), top to bottom and left to right."""
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        markers = find_markers(gray)
        groups = group_sheets(markers, pair_fits=lambda pair: bool(self._sizes(pair)))  # a pair: a known size
        stray = _stray_markers(markers, groups)
        if not groups:
            if stray:
                return [Unreadable(name, f"no whole sheet found: {stray}")]
            if markers:  # too few, or too unlike one another (a steep view, a curled corner) for one flat sheet
                count = f"{len(markers)} corner marker{'s' if len(markers) > 1 else ''}"
                return [Unreadable(name, f"no whole sheet found: only {count} found, making up no whole flat sheet "
                                         "(are all four corners in the picture, none of them covered or curled, and "
                                         "the photo taken from more nearly above?)")]
            return [Unreadable(name, f"{NO_MARKERS} (are all four corners in the picture, and is the sheet large "
                                     "and sharp enough in it? A sheet printed without them, --no-scan-marks, has "
                                     "none and cannot be scored)")]
        groups.sort(key=lambda g: _reading_order(g, gray.shape))
        groups, skipped = groups[:MAX_SHEETS], len(groups) - MAX_SHEETS
        results: list[Result] = [self._read_sheet(image, gray, group, name, markers) for group in groups]
        if skipped > 0:
            results.append(Unreadable(name, f"{skipped} more sheet{'s' if skipped > 1 else ''} not read: at most "
                                            f"{MAX_SHEETS} are read from one photo (photograph fewer at a time)"))
        read = [r for r in results if isinstance(r, SheetReading)]
        lone = _left_over(markers, groups)
        if stray:
            results.append(Unreadable(name, stray))
        elif len(lone) == 1 and _lone_corner(lone[0], read, groups, gray.shape):
            results.append(Unreadable(name, "another sheet shows only 1 of its four corner markers (is it all in the "
                                            "picture, sharp and none of it covered?)"))
        elif len(read) == len(results) and look_alike_beside(gray, [(r.to_photo, r.layout.width, r.layout.height)
                                                                    for r in read]):
            which = "the sheet" if len(results) == 1 else "the sheets"
            results.append(Unreadable(name, f"another sheet seems to lie beside {which} read, but none of its corner "
                                            "markers were found (is it all in the picture, sharp and well lit?)"))
        for position, result in enumerate(results, start=1):
            result.position, result.of = position, len(results)
        return results

    def _read_sheet(self, image: np.ndarray, gray: np.ndarray, group: SheetMarkers, name: str,
                    markers: list[Marker]) -> Result:
        found = self._find_code(gray, group)
        if isinstance(found, CodeMissing) and not found.recognisable and len(group.markers) > 2:
            found, group = self._own_pair(gray, group) or (found, group)
        recognised = None
        disagreements: tuple[str, ...] = ()
        if isinstance(found, CodeMissing):
            look = identify(image, group, list(self.layouts.values())) if found.recognisable else None
            if look is None:
                return Unreadable(name, found.reason)
            layout, code, to_photo, recognised = look.layout, look.code, look.to_photo, look.doubtful
            text = code.text(layout)
        else:
            layout, text, to_photo = found.layout, found.text, found.to_photo
            try:
                code = parse(text, layout)
            except CodeError as error:
                return Unreadable(name, f"{FOREIGN} ({error})")
            if code.version == layout_version(layout, sheet_geometry(layout)):
                code, disagreements = printed_data(image, to_photo, layout, code)
        version = layout_version(layout, sheet_geometry(layout))
        if code.version != version:
            return Unreadable(name, f"the sheet was printed from another version of {layout.name} "
                                    f"(code {code.version}, this printgen {version})")
        if pixels_per_mm(to_photo, layout.width, layout.height) < MIN_PX_PER_MM:
            return Unreadable(name, "the sheet is too small in the photo to read its crosses: come closer")
        small, to_small = shrunk(image, to_photo, layout.width, layout.height, PX_PER_MM)  # once for both scales
        warp = find_warp(small, to_small, blank_pixels(layout, code, WARP_PX_PER_MM), layout.width, layout.height,
                         _marker_points(group, to_photo, layout.width, layout.height))
        flat = flatten(small, to_small, layout.width, layout.height, PX_PER_MM, warp)
        photo = np.divide(flat[..., ::-1], np.float32(255), dtype=np.float32)  # RGB 0..1
        blank = blank_pixels(layout, code, PX_PER_MM)
        bent = len(group.markers) == 4 and group.homography(layout.width, layout.height)[1] > GROUP_FIT
        read = _cut_off(read_fields(measure(photo, blank), fields(layout, code), bent=bent), to_photo, gray.shape)
        readings = settle(layout, code, _beside_a_left_out_marker(read, group, markers, to_photo, layout))
        verdict = referee(layout.rules, marks_of(layout, readings), code.lucky, code.numbers)
        return SheetReading(name, layout, code, text, readings, verdict, to_photo, recognised=recognised,
                            disagreements=disagreements)

    def _own_pair(self, gray: np.ndarray, group: SheetMarkers) -> tuple[CodeFound, SheetMarkers] | None:
        """Where markers that fit no known sheet size hold a pair whose code is read and whose sheet puts each
        other marker more than FOREIGN_MARKER from its own corner (a marker of another sheet joined them): that
        code and pair. None where the others lie about where that sheet has them (a bent sheet, not a foreign
        marker: two of its markers would misplace the rest)."""
        for pair in combinations(sorted(group.markers), 2):
            markers = SheetMarkers({index: group.markers[index] for index in pair})
            if not self._sizes(markers):
                continue
            found = self._find_code(gray, markers)
            if not isinstance(found, CodeFound):
                continue
            back = np.linalg.inv(found.to_photo)
            layout = found.layout
            for index, marker in group.markers.items():
                seen = cv2.perspectiveTransform(marker.centre.reshape(1, 1, 2).astype(np.float64), back).ravel()
                own = np.mean(marker_corners_mm(index, layout.width, layout.height), axis=0)
                if index not in pair and np.hypot(*(seen - own)) <= FOREIGN_MARKER:
                    return None
            return found, markers
        return None

    def _sizes(self, group: SheetMarkers) -> list[tuple[float, float]]:
        """The known sheet sizes to look for the code on, nearest to the markers' estimate first: SIZES_TRIED of
        them, or for two markers every size whose sides they span match them within PAIR_SPAN."""
        estimate = group.size_estimate()

        def off(size: tuple[float, float]) -> float:  # a side two markers do not span (NaN) says nothing
            return sum(abs(known / guess - 1) for known, guess in zip(size, estimate) if not np.isnan(guess))

        sizes = sorted({(l.width, l.height) for l in self.layouts.values()}, key=off)
        if len(group.markers) == 2:
            return [size for size in sizes if off(size) <= PAIR_SPAN]
        return sizes[:SIZES_TRIED]

    def _find_code(self, gray: np.ndarray, group: SheetMarkers) -> CodeFound | CodeMissing:
        """The sheet's layout, code text and homography, or why they could not be found."""
        pair = len(group.markers) == 2
        tried: set[tuple[float, ...]] = set()
        bent = False
        for size in self._sizes(group):
            to_photo, error = group.homography(*size)
            if error > (WHOLE_FIT if len(group.markers) == 4 else SIZE_FIT):
                bent = True
                continue
            for layout in self.layouts.values():
                box = sheet_geometry(layout).code
                if (layout.width, layout.height) != size or (*size, *box) in tried:
                    continue
                tried.add((*size, *box))
                text = read_code(gray, to_photo, box)
                if text is None:
                    continue
                try:
                    named = self.layouts.get(layout_name(text))
                except CodeError:
                    continue
                if named is None:
                    shown = display_text(layout_name(text))
                    return CodeMissing(f"the sheet's code names layout {shown}, which is not built in: give "
                                       "its file with --layout", recognisable=False)
                if (named.width, named.height) != size:
                    to_photo, _ = group.homography(named.width, named.height)
                return CodeFound(named, text, to_photo)
        if pair:
            return CodeMissing("only two of the sheet's four corner markers were found and its code was not read "
                               "(is it all in the picture, none of it covered?)", recognisable=False)
        if bent:
            return CodeMissing("the corner markers do not line up as on a flat sheet (is the sheet folded or "
                               "curled?)", recognisable=False)
        return CodeMissing("the sheet's code cannot be read (too small, blurred or covered?)", recognisable=True)


def _cut_off(readings: list[Reading], to_photo: np.ndarray, shape: tuple[int, ...]) -> list[Reading]:
    """`readings`, those of fields that the picture's edge cuts (a corner of the field outside it) uncertain
    because they lie outside the photo (what the photo shows there is no print hidden, but no photo at all)."""
    height, width = shape[:2]
    boxes = np.float64([[(x, y), (x + w, y), (x + w, y + h), (x, y + h)] for x, y, w, h in
                        (r.field.box for r in readings)])
    seen = cv2.perspectiveTransform(boxes.reshape(-1, 1, 2), to_photo).reshape(-1, 4, 2)
    cut = ((seen < 0) | (seen > [width - 1, height - 1])).any(axis=(1, 2))
    return [replace(r, state=State.UNCERTAIN, reason=OUTSIDE) if off else r for r, off in zip(readings, cut)]


def _beside_a_left_out_marker(readings: list[Reading], group: SheetMarkers, markers: list[Marker],
                              to_photo: np.ndarray, layout: ScoreSheetLayout) -> list[Reading]:
    """`readings`, those of fields within LEFT_OUT_REACH of the corner whose marker a sheet read from three lacks
    uncertain where a marker of that corner lies within LEFT_OUT_NEAR of its place, left out (turned against
    the three): another sheet lies over the corner, or the corner is bent up, and either way the print there
    need not lie where the three put it."""
    missing = sorted(set(range(4)) - set(group.markers))
    if len(missing) != 1:
        return readings
    place_mm = np.mean(marker_corners_mm(missing[0], layout.width, layout.height), axis=0)
    place = cv2.perspectiveTransform(place_mm.reshape(1, 1, 2).astype(np.float64), to_photo).ravel()
    side = float(np.mean([m.side for m in group.markers.values()]))
    if not any(m.index == missing[0] and np.hypot(*(m.centre - place)) <= LEFT_OUT_NEAR * side for m in markers):
        return readings
    return [replace(r, state=State.UNCERTAIN, reason=LEFT_OUT)
            if r.state is not State.UNCERTAIN and np.hypot(r.field.box[0] + r.field.box[2] / 2 - place_mm[0],
                                                           r.field.box[1] + r.field.box[3] / 2 - place_mm[1])
            <= LEFT_OUT_REACH else r for r in readings]


def display_text(text: str) -> str:
    """Text from a photo's code, quoted with anything unprintable escaped and cut to 40 characters."""
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def _stray_markers(markers: list[Marker], groups: list[SheetMarkers]) -> str:
    """What the markers left over from the whole sheets say (empty when nothing worth a line): a sheet only
    partly in the picture, or markers that make up no flat sheet. A single stray marker is no sheet here (but
    see `_lone_corner`)."""
    left = _left_over(markers, groups)
    corners = {m.index for m in left}
    if len(corners) < 2:
        return ""
    sides = [m.side for m in left]
    if len(left) == len(corners) < 4 and max(sides) <= STRAY_SIDE_RATIO * min(sides):
        return (f"another sheet shows only {len(left)} of its four corner markers (is it all in the picture, "
                "none of it covered?)")
    if len(left) == len(corners) and max(sides) > STRAY_SIDE_RATIO * min(sides):
        return ""
    return (f"{len(left)} corner markers make up no whole flat sheet (is every sheet all in the picture, flat "
            "and none of it covered?)")


def _left_over(markers: list[Marker], groups: list[SheetMarkers]) -> list[Marker]:
    """The markers that are no sheet's."""
    used = {id(m) for group in groups for m in group.markers.values()}
    return [m for m in markers if id(m) not in used]


def _lone_corner(marker: Marker, sheets: list[SheetReading], groups: list[SheetMarkers],
                 shape: tuple[int, ...]) -> bool:
    """Whether a single left-over marker is the corner of another sheet like one read beside it (a 2-up page
    whose other half is blurred), seen in that sheet's plane: a marker's size, on no sheet found (read or not:
    a sheet's own corner marker left out as turned lies there), and the sheet it would be that corner of, laid
    as the sheet read is, overlapping no sheet read by more than LOOK_ALIKE_OVERLAP and centred in the picture."""
    if any(_on_group(marker, group) for group in groups):
        return False
    sheets = [sheet for sheet in sheets if abs(np.linalg.det(sheet.to_photo)) > 1e-12]
    frames = []
    for sheet in sheets:
        seen = cv2.perspectiveTransform(marker.corners.reshape(-1, 1, 2).astype(np.float64),
                                        np.linalg.inv(sheet.to_photo)).reshape(-1, 2)
        centre = seen.mean(axis=0)
        if 0 <= centre[0] <= sheet.layout.width and 0 <= centre[1] <= sheet.layout.height:
            return False  # on a sheet read: its own corner seen twice, or something in its print taken for one
        frames.append((sheet, seen))
    height, width = shape[:2]
    for sheet, seen in frames:
        w, h = sheet.layout.width, sheet.layout.height
        side = float(np.sqrt(abs(cv2.contourArea(seen.astype(np.float32)))))
        if not MARKER / STRAY_SIDE_RATIO <= side <= MARKER * STRAY_SIDE_RATIO:
            continue
        x, y = seen.mean(axis=0) - np.mean(marker_corners_mm(marker.index, w, h), axis=0)  # the top left of its sheet
        laid = np.float64([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]).reshape(-1, 1, 2)
        if any(_overlap(cv2.perspectiveTransform(laid, np.linalg.inv(other.to_photo) @ sheet.to_photo).reshape(-1, 2),
                        other.layout.width, other.layout.height) > LOOK_ALIKE_OVERLAP * w * h for other in sheets):
            continue
        middle = cv2.perspectiveTransform(np.float64([[[x + w / 2, y + h / 2]]]), sheet.to_photo).reshape(2)
        if 0 <= middle[0] < width and 0 <= middle[1] < height:
            return True
    return False


def _on_group(marker: Marker, group: SheetMarkers) -> bool:
    """Whether `marker` lies within the quadrilateral of `group`'s marker centres (three of them completed to a
    parallelogram at the missing corner), or within a marker's side of it."""
    centres = {i: m.centre for i, m in group.markers.items()}
    if len(centres) == 3:
        missing = next(i for i in range(4) if i not in centres)
        centres[missing] = centres[(missing + 1) % 4] + centres[(missing + 3) % 4] - centres[(missing + 2) % 4]
    if len(centres) < 4:
        return False
    quad = np.float32([centres[i] for i in range(4)]).reshape(-1, 1, 2)
    side = float(np.mean([m.side for m in group.markers.values()]))
    return cv2.pointPolygonTest(quad, (float(marker.centre[0]), float(marker.centre[1])), True) > -side


def _overlap(corners: np.ndarray, width: float, height: float) -> float:
    """The area (mm²) that the box round `corners` (mm) shares with a `width` x `height` sheet at the origin."""
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return max(0.0, min(x1, width) - max(x0, 0.0)) * max(0.0, min(y1, height) - max(y0, 0.0))


def _marker_points(group: SheetMarkers, to_photo: np.ndarray, width: float,
                   height: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Each corner of each marker seen: where it is on the sheet (mm) and where the homography's flat sheet
    sees it (mm), which differ where the paper bends or the lens bows."""
    back = np.linalg.inv(to_photo)
    points = []
    for index, marker in group.markers.items():
        seen = cv2.perspectiveTransform(marker.corners.reshape(-1, 1, 2).astype(np.float64), back).reshape(-1, 2)
        for sheet_mm, frame_mm in zip(marker_corners_mm(index, width, height), seen):
            points.append((sheet_mm, (float(frame_mm[0]), float(frame_mm[1]))))
    return points


def _reading_order(group: SheetMarkers, shape: tuple[int, ...]) -> tuple[int, float]:
    centre = np.mean([m.centre for m in group.markers.values()], axis=0)
    band = int(centre[1] / (shape[0] / READING_BANDS))
    return band, float(centre[0])
