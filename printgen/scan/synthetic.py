"""Photo-like pictures of played sheets, with their truth: a seed in, a JPEG-like image and what every field holds out.

For tests and benchmarks. A whole game is simulated by the rules engine and
one player's final sheet is taken; the blank sheet is printed (rendered from
its page description, with a printer's colour and grey shifts on tinted
paper) and filled by hand: crosses as thin ballpoint or pencil X, thick
marker X, single slashes or filled blobs, off-centre and overrunning, with
wobbly strokes of varying pressure; sometimes skipped numbers are struck
through and a name and the totals are written in. Some sheets are filled
with printgen's own filled-sheet drawing instead. Sheets (1,200 to 4,000
pixels wide, the sheet filling 35 to 95 % of the picture) or whole 2-up
pages (1,800 to 4,000 pixels, the page filling half or more, so that each
sheet gets about as many pixels as in the smallest single-sheet photos) are
then photographed: turned any way, tilted up to 30 degrees, slightly
curled, on a random background, with uneven light, a soft shadow, blur,
sensor noise and JPEG compression.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from printgen.builders.geometry import sheet_geometry
from printgen.layouts.model import ScoreSheetLayout
from printgen.page import Item
from printgen.rules import qwixx
from printgen.rules.sheet import Sheet
from printgen.rules.variants import shuffled_numbers, variant
from printgen.scan.codes import SheetCode, layout_version
from printgen.scan.raster import raster
from printgen.scan.template import blank_item

NAMES = ("Anna", "Bruno", "Chiara", "Dario", "Elena", "Filip", "Greta", "Hugo", "Ines", "Jakub", "Karin", "Luca")
STYLES = ("ballpoint", "marker", "pencil", "slash", "blob")


@dataclass(frozen=True, slots=True)
class Truth:
    """What a played sheet holds: its code and, per field, whether it is crossed."""

    layout: str
    code: SheetCode
    rows: tuple[tuple[int, ...], ...]
    """Crossed numbers per row, in printed order."""
    locks: tuple[bool, ...]
    penalties: int
    bonus_row: tuple[int, ...] = ()
    """Crossed bonus-row fields (positions from 0)."""
    bonus_boxes: tuple[int, ...] = ()
    """Crossed bonus boxes (kinds 1..5)."""

    def crossed(self, kind: str, index: int, number: int | None) -> bool:
        """Whether the field (as named by `printgen.scan.template.Field`) is crossed."""
        if kind == "number":
            return number in self.rows[index]
        if kind == "lock":
            return self.locks[index]
        if kind == "penalty":
            return index < self.penalties
        if kind == "bonus-row":
            return index in self.bonus_row
        return index in self.bonus_boxes


@dataclass(slots=True)
class Conditions:
    """How a picture was made (for reports on what failed)."""

    width: int = 0
    fill: float = 0.0
    tilt: float = 0.0
    blur: float = 0.0
    jpeg: int = 0
    styles: list[str] = field(default_factory=list)
    sheets: int = 1


@dataclass(slots=True)
class Sample:
    """One picture: the image (BGR), the truth of each sheet in it, how it was made, and its JPEG file's bytes."""

    image: np.ndarray
    truths: list[Truth]
    conditions: Conditions
    jpeg: bytes = b""


# -- the game ------------------------------------------------------------------


def played_sheet(layout: ScoreSheetLayout, rng: random.Random, shuffle: bool | None = None,
                 lang: str | None = None, symbols: bool | None = None) -> tuple[Sheet, SheetCode]:
    """One player's final sheet of a simulated game of `layout`, and the code its printed sheet carries."""
    spec = qwixx.variant(layout.rules)
    players = rng.randint(2, 4)
    strategies = [rng.choice(("greedy", "greedy", "random")) for _ in range(players)]
    game: qwixx.Game | qwixx.CardGame
    if spec.card_game:
        game = qwixx.CardGame(players=players, seed=rng.getrandbits(32), strategies=strategies)
    else:
        game = qwixx.Game(layout.rules, players=players, seed=rng.getrandbits(32), strategies=strategies)
    game.play()
    sheet = rng.choice(game.sheets)
    if shuffle is None:
        shuffle = bool(spec.shuffled_lock_numbers) and rng.random() < 0.6
    numbers = None
    if shuffle:
        numbers = shuffled_numbers(spec, rng)
        sheet = _moved(sheet, numbers)
    code = SheetCode(layout.name, layout_version(layout), lang or rng.choice(("en", "en", "en", "de", "it", "pl", "fr")),
                     rng.random() < 0.25 if symbols is None else symbols, sheet.lucky, numbers)
    return sheet, code


def _moved(sheet: Sheet, numbers: tuple[tuple[int, ...], ...]) -> Sheet:
    """The same crosses (by position) on a sheet whose rows are printed in the order `numbers`."""
    moved = Sheet(sheet.variant, lucky=sheet.lucky, numbers=numbers)
    for row in range(len(numbers)):
        original = sheet.spec.rows[row].numbers
        for number in sheet.marked(row):
            moved.mark(row, numbers[row][original.index(number)])
        if sheet.is_closed(row) and not moved.is_closed(row):
            moved.close(row)
    for _ in range(sheet.penalties):
        moved.add_penalty()
    return moved


def truth_of(layout: ScoreSheetLayout, sheet: Sheet, code: SheetCode, void_crossed: frozenset[int] = frozenset()
             ) -> Truth:
    """The truth of a final sheet (`void_crossed`: void bonus-row fields the player struck too)."""
    rows = tuple(sheet.marked(r) for r in range(len(layout.rows)))
    bonus_row = tuple(i for i, state in enumerate(sheet.bonus_row()) if state == "struck" or i in void_crossed)
    return Truth(layout.name, code, rows, tuple(sheet.is_locked(r) for r in range(len(rows))), sheet.penalties,
                 bonus_row, tuple(sorted(sheet.bonus_kinds())))


# -- printing and writing ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pen:
    """A writing instrument: stroke width (mm), the colour it leaves (RGB 0..1), how fully it covers."""

    style: str
    width: float
    colour: tuple[float, float, float]
    density: float
    grain: float


def pen(style: str, rng: random.Random) -> Pen:
    """A random pen of `style`."""
    dark = [(0.08, 0.1, 0.35), (0.05, 0.05, 0.08), (0.1, 0.12, 0.45), (0.35, 0.05, 0.08), (0.05, 0.2, 0.12)]
    if style == "pencil":
        grey = rng.uniform(0.3, 0.5)
        return Pen(style, rng.uniform(0.3, 0.55), (grey, grey, grey * 1.05), rng.uniform(0.7, 0.9), 0.35)
    if style == "marker":
        return Pen(style, rng.uniform(0.7, 1.4), rng.choice(dark[:2] + dark[3:]), rng.uniform(0.9, 1.0), 0.05)
    if style == "blob":
        return Pen(style, rng.uniform(0.5, 1.0), rng.choice(dark), rng.uniform(0.85, 1.0), 0.1)
    return Pen(style, rng.uniform(0.22, 0.45), rng.choice(dark), rng.uniform(0.7, 0.95), 0.25)


class Paper:
    """A printed sheet in pixels that ink can be put on (RGB floats), `px_per_mm` pixels per mm."""

    def __init__(self, pixels: np.ndarray, px_per_mm: float, rng: random.Random) -> None:
        self.pixels = pixels
        self.px_per_mm = px_per_mm
        self.rng = rng

    def stroke(self, points: list[tuple[float, float]], pen: Pen) -> None:
        """A hand-drawn stroke through `points` (mm): slightly curved, its pressure changing along it."""
        (x0, y0), (x1, y1) = points[0], points[-1]
        length = float(np.hypot(x1 - x0, y1 - y0))
        bend = self.rng.uniform(-0.06, 0.06) * length
        nx, ny = (-(y1 - y0) / (length + 1e-9), (x1 - x0) / (length + 1e-9))
        steps = max(8, int(length * 3))
        base = self.rng.uniform(0.8, 1.15)
        area = self._area([(x0, y0), (x1, y1)], abs(bend) + pen.width * 2)
        layer, origin = area
        for i in range(steps):
            t0, t1 = i / steps, (i + 1) / steps
            a = self._along(x0, y0, x1, y1, nx, ny, bend, t0)
            b = self._along(x0, y0, x1, y1, nx, ny, bend, t1)
            pressure = base * (0.75 + 0.25 * np.sin(np.pi * (t0 + 0.1)) + self.rng.uniform(-0.05, 0.05))
            thickness = max(1, int(round(pen.width * pressure * self.px_per_mm)))
            cv2.line(layer, self._px(a, origin), self._px(b, origin), 1.0, thickness, cv2.LINE_AA, shift=4)
        self._ink(layer, origin, pen)

    def blob(self, cx: float, cy: float, radius: float, pen: Pen) -> None:
        """A filled, irregular blob (a field coloured in)."""
        angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        wobble = np.array([self.rng.uniform(0.75, 1.15) for _ in angles])
        squash = self.rng.uniform(0.75, 1.0)
        xs = cx + radius * wobble * np.cos(angles)
        ys = cy + radius * squash * wobble * np.sin(angles)
        layer, origin = self._area(list(zip(xs, ys)), 1.0)
        polygon = np.array([self._px((x, y), origin) for x, y in zip(xs, ys)], np.int32)
        cv2.fillPoly(layer, [polygon], 1.0, cv2.LINE_AA, shift=4)
        if self.rng.random() < 0.5:  # coloured in by zig-zags: a few gaps
            gaps = np.zeros_like(layer)
            for _ in range(self.rng.randint(2, 6)):
                y = cy + self.rng.uniform(-radius, radius)
                cv2.line(gaps, self._px((cx - radius, y), origin),
                         self._px((cx + radius, y + self.rng.uniform(-1, 1)), origin), 1.0,
                         max(1, int(0.25 * self.px_per_mm)), cv2.LINE_AA, shift=4)
            layer *= 1 - 0.7 * gaps
        self._ink(layer, origin, pen)

    def text(self, x: float, baseline: float, words: str, height: float, pen: Pen) -> None:
        """Handwriting-like text with its baseline at (x, baseline) mm, about `height` mm tall."""
        font = self.rng.choice((cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
                                cv2.FONT_HERSHEY_SIMPLEX))
        scale = height * self.px_per_mm / 22.0
        thickness = max(1, int(round(pen.width * self.px_per_mm)))
        (w, h), below = cv2.getTextSize(words, font, scale, thickness)
        pad = int(h)
        canvas = np.zeros((h + below + 2 * pad, w + 2 * pad), np.uint8)
        cv2.putText(canvas, words, (pad, pad + h), font, scale, 255, thickness, cv2.LINE_AA)
        turn = cv2.getRotationMatrix2D((pad, pad + h), self.rng.uniform(-4, 4), 1.0)
        layer = cv2.warpAffine(canvas, turn, canvas.shape[::-1]).astype(np.float32) / 255.0
        origin = (int(round(x * self.px_per_mm)) - pad, int(round(baseline * self.px_per_mm)) - pad - h)
        self._ink(layer, origin, pen)

    def finish(self) -> np.ndarray:
        """The sheet with its ink."""
        return self.pixels

    def _area(self, points: list[tuple[float, float]], margin: float) -> tuple[np.ndarray, tuple[int, int]]:
        """An empty ink layer covering `points` and `margin` mm around them, and its top-left pixel."""
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        x0 = int(np.floor((min(xs) - margin) * self.px_per_mm)) - 2
        y0 = int(np.floor((min(ys) - margin) * self.px_per_mm)) - 2
        x1 = int(np.ceil((max(xs) + margin) * self.px_per_mm)) + 2
        y1 = int(np.ceil((max(ys) + margin) * self.px_per_mm)) + 2
        return np.zeros((y1 - y0, x1 - x0), np.float32), (x0, y0)

    def _ink(self, layer: np.ndarray, origin: tuple[int, int], pen: Pen) -> None:
        """Lay ink where `layer` (0..1) says: inks are transparent, so they multiply what is under them."""
        x0, y0 = origin
        h, w = self.pixels.shape[:2]
        cx0, cy0 = max(x0, 0), max(y0, 0)
        cx1, cy1 = min(x0 + layer.shape[1], w), min(y0 + layer.shape[0], h)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        layer = layer[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
        if pen.grain:
            noise = np.array([self.rng.random() for _ in range(16)], np.float32).reshape(4, 4)
            grain = cv2.resize(noise, layer.shape[::-1], interpolation=cv2.INTER_CUBIC)
            fine = np.random.default_rng(self.rng.getrandbits(32)).random(layer.shape, np.float32)
            layer = layer * (1 - pen.grain * (0.5 * grain + 0.5 * fine))
        alpha = np.clip(layer * pen.density, 0, 1)[..., None]
        region = self.pixels[cy0:cy1, cx0:cx1]
        self.pixels[cy0:cy1, cx0:cx1] = region * (1 - alpha + alpha * np.array(pen.colour, np.float32))

    def _along(self, x0: float, y0: float, x1: float, y1: float, nx: float, ny: float, bend: float,
               t: float) -> tuple[float, float]:
        curve = 4 * t * (1 - t) * bend
        return (x0 + (x1 - x0) * t + nx * curve, y0 + (y1 - y0) * t + ny * curve)

    def _px(self, point: tuple[float, float], origin: tuple[int, int]) -> tuple[int, int]:
        """`point` (mm) in the 1/16-pixel units of cv2's drawing calls, relative to `origin`."""
        return (int(round((point[0] * self.px_per_mm - origin[0]) * 16)),
                int(round((point[1] * self.px_per_mm - origin[1]) * 16)))


def mark(paper: Paper, box: tuple[float, float, float, float], pen: Pen, rng: random.Random) -> None:
    """A player's mark in `box` (x, y, w, h mm) with `pen`: an X, a slash or a blob, a little off."""
    x, y, w, h = box
    size = min(w, h)
    cx = x + w / 2 + rng.uniform(-0.14, 0.14) * size
    cy = y + h / 2 + rng.uniform(-0.14, 0.14) * size
    if pen.style == "blob":
        paper.blob(cx, cy, size * rng.uniform(0.3, 0.5), pen)
        return
    reach = rng.uniform(0.3, 0.6)
    half_x, half_y = reach * w, reach * h
    turn = np.radians(rng.uniform(-12, 12) * size / max(w, h))
    strokes = [(-1, -1, 1, 1), (-1, 1, 1, -1)]
    if pen.style == "slash":  # mostly "/", sometimes "\\"
        strokes = [strokes[1] if rng.random() < 0.75 else strokes[0]]
    for sx0, sy0, sx1, sy1 in strokes:
        ends = []
        for sx, sy in ((sx0, sy0), (sx1, sy1)):
            dx = sx * half_x * rng.uniform(0.8, 1.15)
            dy = sy * half_y * rng.uniform(0.8, 1.15)
            ends.append((cx + dx * np.cos(turn) - dy * np.sin(turn), cy + dx * np.sin(turn) + dy * np.cos(turn)))
        paper.stroke(ends, pen)


def printed(item: Item, px_per_mm: float, rng: random.Random, grey: bool | None = None) -> np.ndarray:
    """`item` printed (RGB floats 0..1): colours and greys shifted as a printer would, on tinted paper."""
    pixels = raster(item.as_page(), px_per_mm).astype(np.float32) / 255.0
    if grey is None:
        grey = rng.random() < 0.12
    if grey:
        lum = pixels @ np.array([0.3, 0.59, 0.11], np.float32)
        pixels = np.repeat(lum[..., None], 3, axis=2)
    else:
        saturation = rng.uniform(0.7, 1.1)
        lum = pixels @ np.array([0.3, 0.59, 0.11], np.float32)
        pixels = lum[..., None] + (pixels - lum[..., None]) * saturation
    gamma = np.array([rng.uniform(0.8, 1.25) for _ in range(3)], np.float32)
    pixels = np.clip(pixels, 0, 1) ** gamma
    pixels = cv2.GaussianBlur(pixels, (0, 0), rng.uniform(0.03, 0.12) * px_per_mm)
    paper = rng.choice([(1.0, 1.0, 1.0), (1.0, 0.97, 0.9), (0.95, 0.95, 0.95), (0.95, 0.97, 1.0), (1.0, 0.99, 0.96)])
    return np.clip(pixels * np.array(paper, np.float32), 0, 1)


def filled_paper(layout: ScoreSheetLayout, sheet: Sheet, code: SheetCode, px_per_mm: float,
                 rng: random.Random) -> tuple[np.ndarray, Truth, str]:
    """The printed sheet filled in by hand (or by printgen's filled-sheet drawing), its truth and pen style."""
    if rng.random() < 0.15:
        from printgen.builders.filled import filled_sheet

        filled = filled_sheet(layout, sheet, layout.name, code.lang, code.symbols)
        return printed(filled, px_per_mm, rng), truth_of(layout, sheet, code, _void(sheet)), "filled-sheet"
    paper = Paper(printed(blank_item(layout, code), px_per_mm, rng), px_per_mm, rng)
    style = rng.choice(STYLES)
    main = pen(style, rng)
    geometry = sheet_geometry(layout)

    def put(box: tuple[float, float, float, float]) -> None:
        mark(paper, box, main if rng.random() < 0.88 else pen(rng.choice(STYLES), rng), rng)

    strike = rng.random() < 0.3
    for index, row in enumerate(geometry.rows):
        marked, skipped = set(sheet.marked(index)), set(sheet.skipped(index))
        for (x, y, side), number in zip(row.cells, sheet.spec.rows[index].numbers):
            if number in marked:
                put((x, y, side, side))
            elif number in skipped and strike:
                thin = pen("ballpoint", rng)
                wobble = rng.uniform(-0.08, 0.08) * side
                paper.stroke([(x + side * 0.12, y + side / 2 + wobble), (x + side * 0.88, y + side / 2 - wobble)], thin)
        cx, cy, r = row.lock
        if sheet.is_locked(index):
            put((cx - r, cy - r, 2 * r, 2 * r))
        elif sheet.is_closed(index) and strike:
            paper.stroke([(cx - r * 0.8, cy), (cx + r * 0.8, cy)], pen("ballpoint", rng))
    for box in geometry.penalty_boxes[:sheet.penalties]:
        put(box)
    void_crossed = set()
    for i, (box, state) in enumerate(zip(geometry.bonus_row, sheet.bonus_row())):
        if state == "struck" or state == "void" and rng.random() < 0.3:
            put(box)
            if state == "void":
                void_crossed.add(i)
    for kind, (x, y, w, h) in enumerate(geometry.bonus_boxes, start=1):
        if kind in sheet.bonus_kinds():  # the whole box struck, or its badge crossed (past its dark disc)
            put((x, y, w, h) if rng.random() < 0.7 else (x - 1.0, y, h, h))
    if rng.random() < 0.7:
        _write_name(paper, layout, main, rng)
    if rng.random() < 0.7:
        _write_totals(paper, layout, sheet, main, rng)
    truth = truth_of(layout, sheet, code, frozenset(void_crossed))
    return paper.finish(), truth, style


def _void(sheet: Sheet) -> frozenset[int]:
    """printgen's filled-sheet drawing slashes void bonus-row fields: they read as crossed."""
    return frozenset(i for i, state in enumerate(sheet.bonus_row()) if state == "void")


def _write_name(paper: Paper, layout: ScoreSheetLayout, pen_: Pen, rng: random.Random) -> None:
    geometry = sheet_geometry(layout)
    x = layout.width * rng.uniform(0.5, 0.6)
    paper.text(x, geometry.title_baseline + rng.uniform(-0.6, 0.4), rng.choice(NAMES), rng.uniform(4.0, 6.5), pen_)


def _write_totals(paper: Paper, layout: ScoreSheetLayout, sheet: Sheet, pen_: Pen, rng: random.Random) -> None:
    geometry = sheet_geometry(layout)
    figures = [*(sheet.points(r) for r in range(len(layout.rows))), sheet.penalty_points(), sheet.total()]
    for (x, y, w, h), value in zip(geometry.totals, figures):
        height = rng.uniform(5.0, 8.5)
        paper.text(x + w * rng.uniform(0.15, 0.4), y + h * rng.uniform(0.7, 0.95), str(value), height, pen_)


# -- the photo -----------------------------------------------------------------


def page_of(sheets: list[np.ndarray], px_per_mm: float, heights: list[float]) -> np.ndarray:
    """Sheets (same width) stacked on an A4 page as a 2-up pad prints them, with a dashed cut line."""
    width = 210.0
    w, h = int(round(width * px_per_mm)), int(round(297.0 * px_per_mm))
    page = np.ones((h, w, 3), np.float32) * sheets[0][2, 2]
    top = (297.0 - sum(heights)) / 2
    for sheet, height in zip(sheets, heights):
        y0 = int(round(top * px_per_mm))
        x0 = int(round((width - sheet.shape[1] / px_per_mm) / 2 * px_per_mm))
        page[y0:y0 + sheet.shape[0], x0:x0 + sheet.shape[1]] = sheet
        top += height
    return page


def photograph(document: np.ndarray, px_per_mm: float, rng: random.Random, conditions: Conditions,
               smallest: int = 1200, least: float = 0.35, widest: int = 4000) -> tuple[np.ndarray, bytes]:
    """A phone photo of `document` (RGB floats): any turn, tilt, light, shadow, blur, noise and JPEG;
    the picture (BGR) and its JPEG file. The photo is `smallest`..`widest` pixels wide and the document
    fills `least`..95 % of it."""
    landscape = rng.random() < 0.6
    frame_w = rng.randint(smallest, max(smallest, widest))
    aspect = rng.choice((4 / 3, 16 / 9, 3 / 2))
    frame_h = int(frame_w / aspect) if landscape else int(frame_w * aspect)
    conditions.width = frame_w
    document = _curl(document, px_per_mm, rng)
    h, w = document.shape[:2]
    tilt = rng.uniform(0, 30)
    conditions.tilt = tilt
    for _ in range(20):  # a pose in which the document can fill at least 35 % of the frame
        corners = _pose(w, h, tilt, rng, landscape == (w > h))
        area = abs(cv2.contourArea(corners.astype(np.float32)))
        spread = corners.max(axis=0) - corners.min(axis=0)
        largest = min(0.985 * frame_w / spread[0], 0.985 * frame_h / spread[1])
        if largest**2 * area / (frame_w * frame_h) >= least + 0.01:
            break
    fill = rng.uniform(least, 0.95)
    scale = min(np.sqrt(fill * frame_w * frame_h / area), largest)
    conditions.fill = float(scale * scale * area / (frame_w * frame_h))
    placed = (corners - corners.min(axis=0)) * scale
    room = np.array([frame_w, frame_h]) - (placed.max(axis=0))
    placed += np.array([rng.uniform(0, room[0]), rng.uniform(0, room[1])])
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), placed.astype(np.float32))
    background = _background(frame_w, frame_h, rng)
    photo = cv2.warpPerspective(document, matrix, (frame_w, frame_h), flags=cv2.INTER_AREA
                                if scale < 1 else cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones((h, w), np.float32), matrix, (frame_w, frame_h))[..., None]
    photo = photo * inside + background * (1 - inside)
    photo *= _light(frame_w, frame_h, rng)[..., None] * np.array([rng.uniform(0.88, 1.12) for _ in range(3)],
                                                                   np.float32)
    photo *= _shadow(frame_w, frame_h, rng)[..., None]
    blur = rng.uniform(0, 1.5)
    conditions.blur = blur
    if blur > 0.2:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    noise = np.random.default_rng(rng.getrandbits(32))
    photo = photo * 255 + noise.normal(0, rng.uniform(1, 4), photo.shape).astype(np.float32)
    quality = rng.randint(50, 95)
    conditions.jpeg = quality
    bgr = np.clip(photo, 0, 255).astype(np.uint8)[..., ::-1]
    ok, encoded = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR), encoded.tobytes()


def _pose(w: int, h: int, tilt: float, rng: random.Random, along: bool) -> np.ndarray:
    """The document's corners as a camera sees it: turned (mostly roughly `along` the frame, or across it),
    tilted `tilt` degrees about a random axis."""
    if rng.random() < 0.3:
        turn = np.radians(rng.uniform(0, 360))
    else:
        turn = np.radians(rng.choice((0, 180) if along else (90, 270)) + rng.uniform(-25, 25))
    axis = np.radians(rng.uniform(0, 180))
    corners = np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], float) - [w / 2, h / 2, 0]
    rz = np.array([[np.cos(turn), -np.sin(turn), 0], [np.sin(turn), np.cos(turn), 0], [0, 0, 1]])
    u = np.array([np.cos(axis), np.sin(axis), 0.0])
    t = np.radians(tilt)
    k = np.array([[0, -u[2], u[1]], [u[2], 0, -u[0]], [-u[1], u[0], 0]])
    rt = np.eye(3) + np.sin(t) * k + (1 - np.cos(t)) * k @ k
    points = corners @ rz.T @ rt.T
    distance = max(w, h) * rng.uniform(1.1, 1.8)
    z = points[:, 2] + distance
    return points[:, :2] * distance / z[:, None]


def _curl(document: np.ndarray, px_per_mm: float, rng: random.Random) -> np.ndarray:
    """Paper that is not quite flat: a gentle wave of up to about half a millimetre."""
    h, w = document.shape[:2]
    amplitude = rng.uniform(0, 0.5) * px_per_mm
    if amplitude < 0.5:
        return document
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    wave = rng.uniform(0.5, 1.5) * 2 * np.pi / max(w, h)
    phase = rng.uniform(0, 2 * np.pi)
    dx = amplitude * np.sin(xs * wave + phase) * 0.4
    dy = amplitude * np.sin(xs * wave * 0.7 + phase + ys * wave * 0.3)
    return cv2.remap(document, xs + dx, ys + dy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _background(w: int, h: int, rng: random.Random) -> np.ndarray:
    """A table: a colour, a grain and a few edges."""
    base = np.array([rng.uniform(0.05, 0.8) for _ in range(3)], np.float32)
    small = np.random.default_rng(rng.getrandbits(32)).random((24, 24, 3), np.float32)
    texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    if rng.random() < 0.5:  # wood-like stripes
        ys = np.arange(h, dtype=np.float32)[:, None, None]
        texture = texture * 0.5 + 0.5 * (0.5 + 0.5 * np.sin(ys / rng.uniform(6, 30)))
    picture = base * (0.75 + 0.5 * texture)
    for _ in range(rng.randint(0, 3)):
        colour = tuple(rng.uniform(0, 1) for _ in range(3))
        p1 = (rng.randint(0, w), rng.randint(0, h))
        p2 = (rng.randint(0, w), rng.randint(0, h))
        cv2.line(picture, p1, p2, colour, rng.randint(2, 20))
    return np.clip(picture, 0, 1)


def _light(w: int, h: int, rng: random.Random) -> np.ndarray:
    """Uneven light: a gradient and a spot, within about 40 % either way of the mean."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * xs / w + np.sin(angle) * ys / h)
    sx, sy = rng.uniform(0, w), rng.uniform(0, h)
    spot = np.exp(-(((xs - sx) / w) ** 2 + ((ys - sy) / h) ** 2) / rng.uniform(0.1, 0.6))
    field = ramp * rng.uniform(0, 1) + spot * rng.uniform(0, 1)
    field = (field - field.min()) / max(float(field.max() - field.min()), 1e-6)
    strength = rng.uniform(0.0, 0.4)
    return (rng.uniform(0.85, 1.0) * (1 - strength + 2 * strength * field)).astype(np.float32)


def _shadow(w: int, h: int, rng: random.Random) -> np.ndarray:
    """A soft shadow (a hand, a phone) over part of the picture, or none."""
    if rng.random() < 0.35:
        return np.ones((h, w), np.float32)
    k = 400 / max(w, h)  # drawn small and blurred there: a soft shadow has no detail
    small = np.ones((max(1, int(h * k)), max(1, int(w * k))), np.float32)
    points = np.array([[rng.uniform(-0.3, 1.3) * w * k, rng.uniform(-0.3, 1.3) * h * k] for _ in range(5)], np.int32)
    cv2.fillPoly(small, [cv2.convexHull(points)], rng.uniform(0.55, 0.8))
    small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.015, 0.05) * 400)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def sample(layouts: list[ScoreSheetLayout], seed: int, two_up: bool | None = None, widest: int = 4000,
           shuffle: bool | None = None) -> Sample:
    """One photo-like picture from `seed`: a sheet (or a 2-up page of two) of a random one of `layouts`,
    at most `widest` pixels wide (smaller pictures are quicker to make and read, as tests want);
    `shuffle` forces or forbids shuffled numbers where the layout allows them."""
    rng = random.Random(seed)
    layout = rng.choice(layouts)
    if two_up is None:
        two_up = rng.random() < 0.15
    count = 2 if two_up else 1
    px_per_mm = 10.0
    conditions = Conditions(sheets=count)
    pictures, truths = [], []
    for _ in range(count):
        sheet, code = played_sheet(layout, rng, shuffle if variant(layout.rules).shuffled_lock_numbers else None)
        picture, truth, style = filled_paper(layout, sheet, code, px_per_mm, rng)
        pictures.append(picture)
        truths.append(truth)
        conditions.styles.append(style)
    if two_up:  # a whole page: photographed so that each sheet has about what a single sheet has at least
        document = page_of(pictures, px_per_mm, [layout.height] * count)
        image, jpeg = photograph(document, px_per_mm, rng, conditions, 1800, 0.5, widest)
    else:
        image, jpeg = photograph(_cut(pictures[0], px_per_mm, rng), px_per_mm, rng, conditions, widest=widest)
    return Sample(image, truths, conditions, jpeg)


def _cut(picture: np.ndarray, px_per_mm: float, rng: random.Random) -> np.ndarray:
    """A sheet cut from its page by hand: up to a millimetre more or less paper at each edge."""
    margins = [int(round(rng.uniform(-1.0, 1.0) * px_per_mm)) for _ in range(4)]
    paper = picture[2, 2].copy()
    top, bottom, left, right = (max(m, 0) for m in margins)
    grown = np.pad(picture, ((top, bottom), (left, right), (0, 0)), mode="edge")
    grown[:top], grown[grown.shape[0] - bottom:] = paper, paper
    grown[:, :left], grown[:, grown.shape[1] - right:] = paper, paper
    cut = [max(-m, 0) for m in margins]
    return grown[cut[0]:grown.shape[0] - cut[1], cut[2]:grown.shape[1] - cut[3]]
