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
from dataclasses import astuple, dataclass, field

import cv2
import numpy as np

from printgen.builders.geometry import sheet_geometry
from printgen.demo.camera import Shot, cut, page_of, photograph
from printgen.demo.handwriting import STYLES, Paper, Pen, mark, pen
from printgen.kinds.score_sheets import ScoreSheetLayout
from printgen.marks.codes import SheetCode, layout_version
from printgen.page import Item
from printgen.rules import qwixx
from printgen.rules.sheet import Sheet
from printgen.rules.variants import shuffled_numbers
from printgen.scan.raster import raster
from printgen.scan.template import blank_item

NAMES = ("Anna", "Bruno", "Chiara", "Dario", "Elena", "Filip", "Greta", "Hugo", "Ines", "Jakub", "Karin", "Luca")


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
class Conditions(Shot):
    """How a picture was made: the camera's shot, each sheet's pen style and how many sheets (for reports on
    what failed)."""

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
    shuffle = shuffle and bool(spec.shuffled_lock_numbers)  # only sheets that can be shuffled are
    numbers = None
    if shuffle:
        numbers = shuffled_numbers(spec, rng)
        sheet = _moved(sheet, numbers)
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)),
                     lang or rng.choice(("en", "en", "en", "de", "it", "pl", "fr")),
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
    for kind, box in enumerate(geometry.bonus_boxes, start=1):
        if kind in sheet.bonus_kinds():  # the bonus box's field, crossed like any other
            put(box)
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
        sheet, code = played_sheet(layout, rng, shuffle)
        picture, truth, style = filled_paper(layout, sheet, code, px_per_mm, rng)
        pictures.append(picture)
        truths.append(truth)
        conditions.styles.append(style)
    if two_up:  # a whole page: photographed so that each sheet has about what a single sheet has at least
        document = page_of(pictures, px_per_mm, [layout.height] * count)
        image, jpeg, shot = photograph(document, px_per_mm, rng, 1800, 0.5, widest)
    else:
        image, jpeg, shot = photograph(cut(pictures[0], px_per_mm, rng), px_per_mm, rng, widest=widest)
    conditions.width, conditions.fill, conditions.tilt, conditions.blur, conditions.jpeg = astuple(shot)
    return Sample(image, truths, conditions, jpeg)


