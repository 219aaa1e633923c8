"""Showing what was read: a photo and the sheets read from it in, the photo with every crossed field outlined out.

Crossed fields get a green outline, uncertain ones an orange outline with a
tag (?1, ?2, ...) astride its top left corner, clear of the field's middle where
the ink to check lies, that a legend under the sheet explains (why a person should
look there); an uncertain field counted as crossed in the score has a green
outline inside its orange one. Each row's points are written after its lock, the
total after the totals line (clear of what the player wrote) and each sheet's
title with its total above it (red when the sheet is not legal, orange with how
many fields to check when some are uncertain), so a person can
hold the picture against the sheet and see at a glance what the reader saw.
The figures and the title sit on white tags: text on a photo's dark or
busy table would not read.
"""

from __future__ import annotations

import cv2
import numpy as np

from printgen.builders.geometry import sheet_geometry
from printgen.scan.ink import State
from printgen.scan.locate import marker_corners_mm
from printgen.scan.reader import Result, SheetReading

LONGEST = 1600
"""The photo's longer side in the annotated picture, in pixels (white margins for the figures, ROOM_MOST of a
side at most, and the band of titles and legends under it come on top)."""
GREEN = (40, 170, 40)
ORANGE = (0, 140, 255)
RED = (30, 30, 220)
DARK = (40, 40, 40)
MARGIN = 8
"""Pixels kept clear between a tag and the picture's side."""
COUNTED = "green inside orange: counted as crossed in the total"
"""The legend's line for the green outline inside an uncertain field's orange one."""
TAG_SHARE = 0.55
"""An uncertain field's tag's size against the figures' (it sits astride the field's top left corner, off its
middle, where the ink to check lies)."""
TAG_SMALLEST = 0.45
"""...but never smaller than this (OpenCV's font scale: about 10 pixels high), where the sheet is small."""
LEGEND_BESIDE = 0.4
"""The legend goes beside a sheet that leaves no room above or below it only where it is no smaller there than
this share of its size (nor than TAG_SMALLEST)."""
FIGURES_OFF = 1.5
"""mm beyond the sheet's right edge where the tags of each row's points (by its lock) and of the total (by the
totals line) start: clear of the locks and of the total the player wrote."""
ROOM_MOST = 0.25
"""The most a white margin added for the figures or the title may widen the picture on one side (a share of
its side; where a sheet's figures would lie farther off, they are moved inside the picture)."""
INSET = 0.14
"""Share of a field's side by which the green outline of an uncertain field counted as crossed lies inside it."""


def annotate(image: np.ndarray, results: list[Result]) -> np.ndarray:
    """`image` (BGR) at most LONGEST pixels long, with white margins where a sheet's figures and title need them
    (`_room`) and what was read from each sheet drawn over it. Where it holds
    several sheets (a 2-up page), each sheet is tagged "sheet N" on its top left corner and every title and legend
    goes on a white band under the picture: beside a sheet, they would lie over another sheet's fields; so does
    the legend of a sheet that fills the picture."""
    scale = min(1.0, LONGEST / max(image.shape[:2]))
    picture = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image.copy()
    sheets = [result for result in results if isinstance(result, SheetReading)]
    several = len(sheets) > 1
    to_pictures = [np.diag([scale, scale, 1.0]) @ sheet.to_photo for sheet in sheets]
    left, top, right, bottom = _room(picture.shape, sheets, to_pictures, several)
    if left or top or right or bottom:
        picture = cv2.copyMakeBorder(picture, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        to_pictures = [np.array([[1.0, 0.0, left], [0.0, 1.0, top], [0.0, 0.0, 1.0]]) @ m for m in to_pictures]
    band: list[tuple[str, tuple[int, int, int]]] = []
    sizes: list[float] = []
    for sheet, to_picture in zip(sheets, to_pictures):
        lines, size = _sheet(picture, sheet, to_picture, several)
        band += lines
        sizes.append(size)
    if band:
        picture = _band(picture, band, min(sizes))
    return picture


def _room(shape: tuple[int, ...], sheets: list[SheetReading], to_pictures: list[np.ndarray],
          several: bool) -> tuple[int, int, int, int]:
    """White margins (left, top, right, bottom; pixels) to add to a picture of `shape` so that every sheet's row
    points and total lie beside it, and a single sheet's title above it, within the picture: moved inside it,
    they lay over the sheet's locks and fields where the sheet reached its side (a rendered game, a close
    photo). Each at most ROOM_MOST of the picture's side; none for a sheet the picture cuts off (its figures
    would sit beyond the part that is missing)."""
    height, width = shape[:2]
    lows, highs = [np.array([float(MARGIN), float(MARGIN)])], [np.array([width - MARGIN, height - MARGIN], float)]
    for reading, to_picture in zip(sheets, to_pictures):
        corners = _project(to_picture, _corners(reading))
        if corners.min() < -MARGIN or (corners[:, 0] > width + MARGIN).any() or (corners[:, 1] > height + MARGIN).any():
            continue
        size = _size(reading, to_picture)
        for text, place, at_size in _figures(reading, to_picture, size):
            text_w, text_h, base, pad, _ = _measure(text, at_size)
            lows.append(place - np.array([pad, text_h + pad]))
            highs.append(place + np.array([text_w + pad, base + pad // 2]))
        if not several:  # the title goes above the sheet where its top lies 2 lines' height down the picture
            top = float(corners[:, 1].min())
            lows.append(np.array([MARGIN, top - 2 * _measure("?1", size * 1.2)[1] - 1]))
    low, high = np.min(lows, axis=0) - MARGIN, np.max(highs, axis=0) + MARGIN
    most = (ROOM_MOST * width, ROOM_MOST * height)
    return (round(min(max(-low[0], 0.0), most[0])), round(min(max(-low[1], 0.0), most[1])),
            round(min(max(high[0] - width, 0.0), most[0])), round(min(max(high[1] - height, 0.0), most[1])))


def _corners(reading: SheetReading) -> list[tuple[float, float]]:
    """A sheet's four corners (mm), clockwise from its top left."""
    width, height = reading.layout.width, reading.layout.height
    return [(0, 0), (width, 0), (width, height), (0, height)]


def _pixels_a_mm(reading: SheetReading, to_picture: np.ndarray) -> float:
    """How many of the picture's pixels a millimetre of the sheet's width is."""
    corners = _project(to_picture, [(0, 0), (reading.layout.width, 0)])
    return float(np.linalg.norm(corners[1] - corners[0])) / reading.layout.width


def _size(reading: SheetReading, to_picture: np.ndarray) -> float:
    """The size (OpenCV's font scale) of the figures drawn by a sheet: in step with its size in the picture."""
    return max(0.4, _pixels_a_mm(reading, to_picture) * 0.28)


def _figures(reading: SheetReading, to_picture: np.ndarray, size: float) -> list[tuple[str, np.ndarray, float]]:
    """Each row's points and the sheet's total as (text, where its baseline starts, its size): each tag half
    beyond the sheet's right edge (FIGURES_OFF), turned with it, by its row's lock and by the totals line."""
    layout, verdict = reading.layout, reading.verdict
    geometry = sheet_geometry(layout)
    _, total_y, _, total_h = geometry.totals[-1]
    placed = []
    for text, cy, at_size in [*((str(p), row.lock[1], size) for p, row in zip(verdict.points, geometry.rows)),
                              (str(verdict.total), total_y + total_h / 2, size * 1.2)]:
        text_w, text_h, base, pad, _ = _measure(text, at_size)
        anchor, onward = _project(to_picture, [(layout.width + FIGURES_OFF, cy), (layout.width + FIGURES_OFF + 1, cy)])
        away = (onward - anchor) / max(float(np.linalg.norm(onward - anchor)), 1e-9)  # (the sheet's right, turned)
        reach = abs(away[0]) * (text_w + 2 * pad) + abs(away[1]) * (text_h + base + 1.5 * pad)  # (the tag along it)
        placed.append((text, anchor + away * reach / 2 + np.array([-text_w / 2, text_h / 2]), at_size))  # (half out)
    return placed


def _band(picture: np.ndarray, lines: list[tuple[str, tuple[int, int, int]]], size: float) -> np.ndarray:
    """`picture` with a white band under it holding `lines` (text, colour), set smaller where they would not fit
    its width."""
    size = _fitting([text for text, _ in lines], max(size, TAG_SMALLEST), picture.shape[1])
    step = 2.2 * _measure("?1", size)[1]
    pad = max(_measure(text, size)[3] for text, _ in lines)
    band = np.full((round(step * len(lines) + 2 * MARGIN), picture.shape[1], 3), 255, np.uint8)
    picture = np.vstack([picture, band])
    first = picture.shape[0] - band.shape[0] + MARGIN + 0.7 * step
    for number, (text, colour) in enumerate(lines):
        _label(picture, text, np.array([MARGIN + pad, first + number * step]), colour, size, tag=True)
    return picture


def _project(to_picture: np.ndarray, points: list[tuple[float, float]]) -> np.ndarray:
    mapped = cv2.perspectiveTransform(np.float64(points).reshape(-1, 1, 2), to_picture)
    return mapped.reshape(-1, 2)


def _outline(picture: np.ndarray, to_picture: np.ndarray, box: tuple[float, float, float, float], round_: bool,
             colour: tuple[int, int, int], width: int) -> np.ndarray:
    x, y, w, h = box
    if round_:
        angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        points = [(x + w / 2 + w / 2 * np.cos(a), y + h / 2 + h / 2 * np.sin(a)) for a in angles]
    else:
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    polygon = _project(to_picture, points)
    cv2.polylines(picture, [np.round(polygon * 16).astype(np.int32)], True, colour, width, cv2.LINE_AA, shift=4)
    return polygon


def _label(picture: np.ndarray, text: str, at: np.ndarray, colour: tuple[int, int, int], size: float,
           tag: bool = False) -> None:
    """`text` with its baseline's start at `at`, haloed in white; with `tag`, on a white box outlined in
    `colour` instead (for figures, which must read on any background), moved inside the picture (`_inside`).
    (A halo is the text drawn thicker, and OpenCV sets a text drawn one pixel thick narrower than a thicker
    one: a long line's halo would run on beyond its box.)"""
    text_w, text_h, base, pad, thickness = _measure(text, size)
    x, y = _inside(picture.shape, text, at, size) if tag else (float(at[0]), float(at[1]))
    origin = (int(x), int(y))
    if tag:
        top_left = (origin[0] - pad, origin[1] - text_h - pad)
        bottom_right = (origin[0] + text_w + pad, origin[1] + base + pad // 2)
        cv2.rectangle(picture, top_left, bottom_right, (255, 255, 255), cv2.FILLED)
        cv2.rectangle(picture, top_left, bottom_right, colour, max(1, thickness // 2), cv2.LINE_AA)
    else:
        cv2.putText(picture, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), thickness + 3,
                    cv2.LINE_AA)
    cv2.putText(picture, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, colour, thickness, cv2.LINE_AA)


def _measure(text: str, size: float) -> tuple[int, int, int, int, int]:
    """How `_label` sets `text` at `size`: its width, height and depth below the baseline, its tag's padding on
    every side, and the strokes' thickness (pixels)."""
    thickness = max(1, round(size * 2))
    (text_w, text_h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thickness)
    return text_w, text_h, base, max(3, round(text_h * 0.35)), thickness


def _inside(shape: tuple[int, ...], text: str, at: np.ndarray, size: float) -> tuple[float, float]:
    """Where a tag of `text` at `size` meant to start its baseline at `at` goes in a picture of `shape`: moved as
    little as it takes to lie MARGIN inside it (a figure beyond a sheet that fills the picture would be cut off);
    one wider or taller than that keeps its start inside and runs off the far side."""
    text_w, text_h, base, pad, _ = _measure(text, size)
    x = max(min(float(at[0]), shape[1] - MARGIN - pad - text_w), MARGIN + pad)
    y = max(min(float(at[1]), shape[0] - MARGIN - base - pad // 2), MARGIN + pad + text_h)
    return x, y


def _beside(shape: tuple[int, ...], lines: list[str], sides: tuple[float, float],
            size: float) -> tuple[float, float, float] | None:
    """Where `lines` go on the wider side of what a sheet and its figures cover (`sides`: their left and right
    edges) in a picture of `shape`: the first line's start, its baseline (the lines centred top to bottom) and
    their size, set smaller to fit; None where they would be smaller there than LEGEND_BESIDE of `size` or than
    TAG_SMALLEST."""
    span, start = max((sides[0], MARGIN), (shape[1] - sides[1], sides[1] + MARGIN))  # (a margin at either end)
    fitted = _fitting(lines, size, int(span))
    if span <= 2 * MARGIN or fitted < max(LEGEND_BESIDE * size, TAG_SMALLEST):
        return None
    pad = max(_measure(line, fitted)[3] for line in lines)
    step = 2.2 * _measure("?1", fitted)[1]
    return start + pad, (shape[0] - step * (len(lines) - 1)) / 2, fitted


def _fitting(lines: list[str], size: float, width: int) -> float:
    """`size`, or smaller where the widest of `lines` on its tag would not fit within MARGIN of both sides of a
    picture `width` pixels wide."""
    room = width - 2 * MARGIN

    def widest(at: float) -> int:
        return max(text_w + 2 * pad for text_w, _, _, pad, _ in (_measure(line, at) for line in lines))

    while widest(size) > room and size > 0.1:
        size *= max(0.5, min(0.97, room / widest(size)))
    return size


def _sheet(picture: np.ndarray, reading: SheetReading, to_picture: np.ndarray,
           several: bool = False) -> tuple[list[tuple[str, tuple[int, int, int]]], float]:
    """Draw what was read from one sheet, with its title and legend; with `several` (a picture of several sheets)
    only a tag "sheet N" on its top left corner, its title and legend given back (text, colour) for `_band`; and
    the size of its figures."""
    layout = reading.layout
    width = max(2, round(_pixels_a_mm(reading, to_picture) * 0.6))
    size = _size(reading, to_picture)
    reasons: list[str] = []
    for item in reading.readings:
        if item.state is State.UNCERTAIN:
            if item.reason not in reasons:
                reasons.append(item.reason)
            _outline(picture, to_picture, item.field.box, item.field.round, ORANGE, width)
            x, y, w, h = item.field.box
            if item.crossed:  # the guess the score counts
                inset = min(w, h) * INSET
                _outline(picture, to_picture, (x + inset, y + inset, w - 2 * inset, h - 2 * inset), item.field.round,
                         GREEN, max(2, width // 2))
            tag = f"?{reasons.index(item.reason) + 1}"
            tag_size = max(TAG_SMALLEST, size * TAG_SHARE)
            text_w, text_h = _measure(tag, tag_size)[:2]
            corner = _project(to_picture, [(x, y)])[0]  # the tag astride it, mostly above and left of the field
            _label(picture, tag, corner + np.array([-0.45 * text_w, 0.35 * text_h]), ORANGE, tag_size)
        elif item.crossed:
            _outline(picture, to_picture, item.field.box, item.field.round, GREEN, width)
    verdict = reading.verdict
    state = "legal" if verdict.legal else "NOT LEGAL"
    which = f"sheet {reading.position}: " if reading.of > 1 else ""
    doubtful = sum(item.state is State.UNCERTAIN for item in reading.readings)
    checks = f", {doubtful} to check" if doubtful else ""
    title = f"{which}{layout.name}: total {verdict.total}, {state}{checks}"
    outline = _project(to_picture, _corners(reading))
    colour = RED if not verdict.legal else ORANGE if doubtful else GREEN
    if several:  # on its own top left marker (above it would lie over the sheet above's foot on a 2-up page)
        tag = f"sheet {reading.position}"
        text_w, text_h = _measure(tag, size)[:2]
        marker = _project(to_picture, [tuple(np.mean(marker_corners_mm(0, layout.width, layout.height), axis=0))])[0]
        _label(picture, tag, marker + np.array([-text_w / 2, text_h / 2]), colour, size, tag=True)
    title_size = _fitting([title], size * 1.2, picture.shape[1])
    text_h = _measure(title, title_size)[1]
    left, top = outline.min(axis=0)
    at_y = top - 0.6 * text_h if top > 2 * text_h else top + 1.6 * text_h
    at_x, at_y = _inside(picture.shape, title, np.array([left, at_y]), title_size)
    title_foot = at_y + 0.6 * text_h  # (the title's box ends about this low)
    if not several:
        _label(picture, title, np.array([at_x, at_y]), colour, title_size, tag=True)
    highest = min(float(outline[:, 1].min()), at_y - 1.4 * text_h)  # (the title's box starts about this high)
    # the figures after the title, so none hides under it: each row's points beyond the sheet's edge, by its lock
    figures = 0.0  # (how low the row points' tags reach)
    left, right = float(outline[:, 0].min()), float(outline[:, 0].max())  # (what the sheet and its figures cover)
    # and the total beside the totals line, clear of the total the player wrote in its box
    for text, place, at_size in _figures(reading, to_picture, size):
        text_w, _, _, pad, _ = _measure(text, at_size)
        _label(picture, text, place, DARK, at_size, tag=True)
        tag_x, tag_y = _inside(picture.shape, text, place, at_size)
        figures = max(figures, tag_y)  # (about where the tag's box ends)
        left, right = min(left, tag_x - pad), max(right, tag_x + text_w + pad)
    counted = [COUNTED] if any(item.state is State.UNCERTAIN and item.crossed for item in reading.readings) else []
    lines = [f"?{k} {reason}" for k, reason in enumerate(reasons, start=1)] + counted
    if several:
        return [(title, colour), *((f"  {line}", ORANGE) for line in lines)], size * 0.8
    if not _legend(picture, lines, outline, (highest, title_foot, float(outline[:, 1].max()), figures),
                   (left, right), size * 0.8):  # no room off the sheet: on the band under the picture
        return [(line, ORANGE) for line in lines], size * 0.8
    return [], size * 0.8


def _legend(picture: np.ndarray, lines: list[str], outline: np.ndarray,
            extent: tuple[float, float, float, float], sides: tuple[float, float], size: float) -> bool:
    """What each uncertain field's tag means, one line each, under the sheet and the figures drawn beside it;
    where the picture has no room there, above the sheet and its title; else beside the sheet, on the wider
    side, where the lines fit there (`_beside`); else nowhere: False, for the band under the picture, as they
    would lie over the sheet's fields (`extent`: where the title's box starts and ends, and how low the sheet
    and the row points' tags reach; `sides`: how far left and right the sheet and those tags reach; in picture
    pixels)."""
    if not lines:
        return True
    wanted = size
    size = _fitting(lines, size, picture.shape[1])
    measured = [_measure(line, size) for line in lines]
    widest, pad = max(m[0] for m in measured), max(m[3] for m in measured)
    step = 2.2 * _measure("?1", size)[1]
    left = min(max(float(outline[:, 0].min()), MARGIN + pad), picture.shape[1] - MARGIN - pad - widest)
    highest, title_foot, sheet_foot, figures = extent
    top = max(sheet_foot, figures) + 1.5 * step
    if top + step * (len(lines) - 1) > picture.shape[0] - MARGIN:  # no room under the sheet
        above = highest - 0.8 * step - step * (len(lines) - 1)
        beside = _beside(picture.shape, lines, sides, wanted)
        if above - step >= 0:
            top = above
        elif beside is not None:  # (never above the title's foot: a title moved off a sheet by the picture's
            # side may reach over that side)
            left, top, size = beside
            step = 2.2 * _measure("?1", size)[1]
            top = max(top, title_foot + 1.2 * step)
        else:
            return False
    for number, line in enumerate(lines):
        _label(picture, line, np.array([left, top + number * step]), ORANGE, size, tag=True)
    return True
