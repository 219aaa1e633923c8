"""Recognising a sheet whose code cannot be read: the photo, its markers and the known layouts in, the most likely sheet code out.

A code too small or blurred to decode still leaves the rest of the sheet,
which printgen drew itself. Blank sheets are rendered for every candidate
(layout, then language and colour symbols, then lucky numbers and shuffled
numbers) and compared with the photo where the candidates differ, after
evening out light and contrast. Shuffled rows are read cell by cell, each
number matched against every number the row holds, and the best
arrangement of the whole row taken. Each step reports how clear its choice
was, so that a doubtful identification is flagged.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from printgen.builders.geometry import sheet_geometry
from printgen.builders.scoresheet import centred_text, number_texts
from printgen.builders.shapes import INK
from printgen.kinds.score_sheets import ScoreSheetLayout
from printgen.labels import languages
from printgen.marks.codes import SheetCode, layout_version
from printgen.page import Page, Text
from printgen.rules.variants import variant
from printgen.scan.locate import SheetMarkers
from printgen.scan.raster import luma, rasters
from printgen.scan.rectify import rectify
from printgen.scan.template import blank_pixels
from printgen.scan.thresholds import (
    CLEAR,
    DIFFER,
    DIFFER_GROW,
    GLYPH_BLUR,
    GLYPH_PX_PER_MM,
    GLYPH_REACH,
    GLYPH_SIGMA,
    GLYPH_SLACK,
    LOOK_PX_PER_MM,
    LOOK_REACH,
    LOOK_TEXTURE,
    LOOK_TILE,
    NORMALISE_FLOOR,
    NORMALISE_SIGMA,
    SIZE_MATCH,
    TEMPLATE_BLUR,
)


@dataclass(frozen=True)
class Identified:
    """The code a sheet most likely carries, and whether every step of the choice was clear."""

    layout: ScoreSheetLayout
    code: SheetCode
    to_photo: np.ndarray
    doubtful: tuple[str, ...]
    """What was not clear: "layout", "language", "symbols", "lucky", "numbers"."""


def identify(image: np.ndarray, group: SheetMarkers, candidates: list[ScoreSheetLayout]) -> Identified | None:
    """The most likely code of the sheet in `image` marked by `group`, among sheets of `candidates`."""
    width, height = group.size_estimate()
    fitting = [l for l in candidates
               if abs(l.width / width - 1) < SIZE_MATCH and abs(l.height / height - 1) < SIZE_MATCH]
    if not fitting:
        return None
    doubtful: list[str] = []
    views = {}
    for size in {(l.width, l.height) for l in fitting}:
        to_photo, _ = group.homography(*size)
        views[size] = (to_photo, _normalised(_grey(rectify(image, to_photo, size[0], size[1], LOOK_PX_PER_MM))))
    codes = {l.name: SheetCode(l.name, layout_version(l, sheet_geometry(l))) for l in fitting}
    if len(views) > 1:  # which size: the best whole-sheet match of each
        best = {size: max(_compare(views[size][1], [(l, codes[l.name])], whole=True)[0]
                          for l in fitting if (l.width, l.height) == size) for size in views}
        size = max(best, key=best.__getitem__)
        if not _clear(list(best.values())):
            doubtful.append("layout")
        fitting = [l for l in fitting if (l.width, l.height) == size]
    to_photo, view = next(iter(views.values())) if len(views) == 1 else views[size]
    fine = _grey(rectify(image, to_photo, fitting[0].width, fitting[0].height, GLYPH_PX_PER_MM))
    read: dict[str, bool] = {}
    for candidate in fitting:  # a shuffled sheet is only itself once its numbers are read
        if variant(candidate.rules).shuffled_lock_numbers:
            numbers, read[candidate.name] = _numbers(fine, candidate, GLYPH_REACH)
            default = tuple(row.numbers for row in candidate.rows)
            codes[candidate.name] = replace(codes[candidate.name], numbers=None if numbers == default else numbers)
    layout, sure = _choose(view, [(l, codes[l.name]) for l in fitting])
    for _ in range(2):  # the language, then the layout again in that language (labels tell some layouts apart)
        options = [replace(codes[layout.name], lang=lang, symbols=symbols) for lang in languages()
                   for symbols in (False, True)]
        code, lang_sure = _choose(view, [(layout, option) for option in options], pick=1)
        if len(fitting) == 1:
            break
        again = [(l, replace(codes[l.name], lang=code.lang, symbols=code.symbols)) for l in fitting]
        chosen, sure = _choose(view, again)
        if chosen is layout:
            break
        layout = chosen
    if not sure and "layout" not in doubtful:
        doubtful.append("layout")
    if not lang_sure:
        doubtful.append("language")
    spec = variant(layout.rules)
    if layout.lucky_numbers:
        lucky, sure = _lucky(fine, layout, spec.possible_sums, GLYPH_REACH)
        code = replace(code, lucky=lucky)
        if not sure:
            doubtful.append("lucky")
    if not read.get(layout.name, True):
        doubtful.append("numbers")
    return Identified(layout, code, to_photo, tuple(doubtful))


def _grey(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255.0


def _normalised(grey: np.ndarray, sigma_mm: float = NORMALISE_SIGMA, px_per_mm: float = LOOK_PX_PER_MM
                ) -> np.ndarray:
    """Light and contrast evened out: each pixel against the mean and spread of its surroundings."""
    sigma = sigma_mm * px_per_mm
    mean = cv2.GaussianBlur(grey, (0, 0), sigma)
    centred = grey - mean
    spread = np.sqrt(cv2.GaussianBlur(centred * centred, (0, 0), sigma))
    return centred / (spread + NORMALISE_FLOOR)


@lru_cache(maxsize=64)
def _template(layout: ScoreSheetLayout, code: SheetCode) -> np.ndarray:
    blank = blank_pixels(layout, code, LOOK_PX_PER_MM)
    return _normalised(cv2.GaussianBlur(luma(blank).astype(np.float32), (0, 0), TEMPLATE_BLUR))


def _compare(view: np.ndarray, options: list[tuple[ScoreSheetLayout, SheetCode]], whole: bool = False
             ) -> list[float]:
    """How well the photo matches each option, judged where the options' blank sheets differ: their
    correlation, square by square of LOOK_TILE, each square where it matches best within LOOK_REACH (a sheet
    that is not flat, or a lens, moves the print by millimetres from where the markers put it)."""
    templates = [_template(layout, code) for layout, code in options]
    mask = np.ones(view.shape, bool)
    if len(templates) > 1 and not whole:
        spread = np.max(templates, axis=0) - np.min(templates, axis=0)
        grow = np.ones((DIFFER_GROW, DIFFER_GROW), np.uint8)
        mask = cv2.dilate((spread > DIFFER).astype(np.uint8), grow).astype(bool)
        if not mask.any():
            return [0.0] * len(templates)
    size, reach = round(LOOK_TILE * LOOK_PX_PER_MM), round(LOOK_REACH * LOOK_PX_PER_MM)
    padded = cv2.copyMakeBorder(view, reach, reach, reach, reach, cv2.BORDER_CONSTANT, value=0)
    scores = []
    for template in templates:
        if template.shape != view.shape:
            template = cv2.resize(template, view.shape[::-1])
        both = alone = seen_alone = 0.0
        for y0 in range(0, template.shape[0], size):
            for x0 in range(0, template.shape[1], size):
                where = mask[y0:y0 + size, x0:x0 + size]
                if not where.any():
                    continue
                part = template[y0:y0 + size, x0:x0 + size]
                region = padded[y0:y0 + part.shape[0] + 2 * reach, x0:x0 + part.shape[1] + 2 * reach]
                bx = by = reach
                if float(part.std()) > LOOK_TEXTURE:
                    _, _, _, (bx, by) = cv2.minMaxLoc(cv2.matchTemplate(region, part, cv2.TM_CCOEFF_NORMED))
                a, b = part[where], region[by:by + part.shape[0], bx:bx + part.shape[1]][where]
                both += float(np.dot(a, b))
                alone += float(np.dot(a, a))
                seen_alone += float(np.dot(b, b))
        scores.append(both / (np.sqrt(alone * seen_alone) + 1e-9))
    return scores


def _choose(view: np.ndarray, options: list[tuple[ScoreSheetLayout, SheetCode]], pick: int = 0):  # type: ignore[no-untyped-def]
    """The best of `options` (its layout, or with `pick=1` its code), the two leaders compared again where
    they alone differ; and whether that final choice was clear."""
    scores = _compare(view, options)
    order = np.argsort(scores)[::-1]
    if len(options) == 1:
        return options[0][pick], True
    first, second = options[int(order[0])], options[int(order[1])]
    final = _compare(view, [first, second])
    winner = first if final[0] >= final[1] else second
    return winner[pick], abs(final[0] - final[1]) >= CLEAR


def _clear(scores: list[float]) -> bool:
    ranked = sorted(scores, reverse=True)
    return len(ranked) < 2 or ranked[0] - ranked[1] >= CLEAR


GLYPHS_KEPT = 1024
"""Glyphs drawn (as `_glyphs` keeps them) kept for the next sheets, the least recently used dropped first."""
_glyphs_kept: OrderedDict[tuple[Text, float, float], np.ndarray] = OrderedDict()


def _glyphs(wanted: list[tuple[Text, tuple[float, float, float, float]]]) -> list[np.ndarray]:
    """Each `text` as it prints inside its box (sheet mm), at GLYPH_PX_PER_MM, normalised: drawn once for every
    text at the same place in a box of the same size, and all those not drawn yet from one PDF."""
    keys = [(replace(text, x=round(text.x - x, 3), y=round(text.y - y, 3)), round(w, 3), round(h, 3))
            for text, (x, y, w, h) in wanted]
    missing = list(dict.fromkeys(key for key in keys if key not in _glyphs_kept))
    if missing:
        drawn = rasters([Page(w, h, (text,)) for text, w, h in missing], GLYPH_PX_PER_MM)
        for key, pixels in zip(missing, drawn):
            grey = luma(pixels.astype(np.float32) / 255.0)
            _glyphs_kept[key] = _normalised(cv2.GaussianBlur(grey, (0, 0), GLYPH_BLUR), GLYPH_SIGMA, GLYPH_PX_PER_MM)
    found = []
    for key in keys:
        _glyphs_kept.move_to_end(key)
        found.append(_glyphs_kept[key])
    while len(_glyphs_kept) > GLYPHS_KEPT:
        _glyphs_kept.popitem(last=False)
    return found


def _around(fine: np.ndarray, box: tuple[float, float, float, float], slack: float) -> np.ndarray:
    """The photo around `box`, `slack` mm more on every side, normalised as glyphs are."""
    x, y, w, h = box
    x0, y0 = int((x - slack) * GLYPH_PX_PER_MM), int((y - slack) * GLYPH_PX_PER_MM)
    x1, y1 = int((x + w + slack) * GLYPH_PX_PER_MM), int((y + h + slack) * GLYPH_PX_PER_MM)
    return _normalised(fine[max(y0, 0):y1, max(x0, 0):x1], GLYPH_SIGMA, GLYPH_PX_PER_MM)


def _match(region: np.ndarray, glyph: np.ndarray) -> float:
    """The best correlation of `glyph` anywhere in `region` (from `_around`)."""
    if region.shape[0] < glyph.shape[0] or region.shape[1] < glyph.shape[1]:
        return -1.0
    return float(cv2.matchTemplate(region, glyph, cv2.TM_CCOEFF_NORMED).max())


def _lucky(fine: np.ndarray, layout: ScoreSheetLayout, sums: range, slack: float) -> tuple[tuple[int, int], bool]:
    """The two lucky numbers read from their circles (looked for `slack` mm around them), and whether both were
    clear."""
    circles = sheet_geometry(layout).lucky
    boxes = [(cx - r, cy - r, 2 * r, 2 * r) for cx, cy, r in circles]
    glyphs = iter(_glyphs([(centred_text(cx, cy, str(number), r * 1.05, INK), box)
                           for (cx, cy, r), box in zip(circles, boxes) for number in sums]))
    scores = []
    for box in boxes:
        region = _around(fine, box, slack)
        scores.append({number: _match(region, next(glyphs)) for number in sums})
    best = max(((a, b) for a in sums for b in sums if a != b), key=lambda p: scores[0][p[0]] + scores[1][p[1]])
    sure = all(_clear(list(row.values())) for row in scores)
    return best, sure


def _numbers(fine: np.ndarray, layout: ScoreSheetLayout, slack: float) -> tuple[tuple[tuple[int, ...], ...], bool]:
    """Every row's numbers read cell by cell (each looked for `slack` mm around its cell; the last, the lock number,
    stays), and whether all were clear."""
    geometry = sheet_geometry(layout)
    glyphs = iter(_glyphs(list(_movable_numbers(layout))))
    rows = []
    sure = True
    for spec, row in zip(layout.rows, geometry.rows):
        movable = spec.numbers[:-1]
        cells = row.cells[:-1]
        drawn = [next(glyphs) for _ in movable]
        scores = np.zeros((len(cells), len(movable)))
        for i, (x, y, side) in enumerate(cells):
            region = _around(fine, (x, y, side, side), slack)
            for j, glyph in enumerate(drawn):
                scores[i, j] = _match(region, glyph)
        order = _best_arrangement(scores)
        for a in range(len(order)):  # clear only if no two cells would rather swap their numbers
            for b in range(a + 1, len(order)):
                kept = scores[a, order[a]] + scores[b, order[b]]
                if kept - (scores[a, order[b]] + scores[b, order[a]]) < 2 * CLEAR:
                    sure = False
        rows.append((*(movable[j] for j in order), spec.numbers[-1]))
    return tuple(rows), sure


@lru_cache(maxsize=16)
def _movable_numbers(layout: ScoreSheetLayout) -> tuple[tuple[Text, tuple[float, float, float, float]], ...]:
    """Every row's movable numbers (all but the last), each as it prints in the row's first cell, with that
    cell's box (sheet mm)."""
    geometry = sheet_geometry(layout)
    wanted: list[tuple[Text, tuple[float, float, float, float]]] = []
    for index, (spec, row) in enumerate(zip(layout.rows, geometry.rows)):
        for number in spec.numbers[:-1]:
            text = number_texts(layout, row, index, (number, *(n for n in spec.numbers if n != number)))[0]
            assert isinstance(text, Text)
            x, y, side = row.cells[0]
            wanted.append((text, (x, y, side, side)))
    return tuple(wanted)


def _best_arrangement(scores: np.ndarray) -> list[int]:
    """The assignment of candidates to cells (a permutation) with the highest total score (exact, by subsets)."""
    n = scores.shape[0]
    best: dict[int, tuple[float, list[int]]] = {0: (0.0, [])}
    for cell in range(n):
        grown: dict[int, tuple[float, list[int]]] = {}
        for used, (total, picks) in best.items():
            for j in range(n):
                if used & (1 << j):
                    continue
                key = used | (1 << j)
                value = total + scores[cell, j]
                if key not in grown or value > grown[key][0]:
                    grown[key] = (value, picks + [j])
        best = grown
    return max(best.values(), key=lambda pair: pair[0])[1]



def printed_data(image: np.ndarray, to_photo: np.ndarray, layout: ScoreSheetLayout, code: SheetCode
                 ) -> tuple[SheetCode, tuple[str, ...]]:
    """The code's per-sheet data held against what the print shows (a code is data from outside): the code
    with the print's lucky numbers or shuffled numbers where they clearly differ, and a line for each
    disagreement (empty when the print agrees, or the layout's sheets carry no data of their own)."""
    spec = variant(layout.rules)
    if not layout.lucky_numbers and not spec.shuffled_lock_numbers:
        return code, ()
    fine = _grey(rectify(image, to_photo, layout.width, layout.height, GLYPH_PX_PER_MM))
    doubts: list[str] = []
    if layout.lucky_numbers and code.lucky is not None:
        lucky, sure = _lucky(fine, layout, spec.possible_sums, GLYPH_SLACK)
        if set(lucky) != set(code.lucky):  # near where the markers put them first, then further (a bent sheet)
            lucky, sure = _lucky(fine, layout, spec.possible_sums, GLYPH_REACH)
        if set(lucky) != set(code.lucky):
            shown = f"{code.lucky[0]} and {code.lucky[1]}"
            if sure:
                doubts.append(f"the code says lucky numbers {shown}, the print {lucky[0]} and {lucky[1]}")
                code = replace(code, lucky=lucky)
            else:
                doubts.append(f"the print's lucky numbers could not be checked against the code's ({shown})")
    if spec.shuffled_lock_numbers:
        given = code.numbers or tuple(row.numbers for row in layout.rows)
        numbers, sure = _numbers(fine, layout, GLYPH_SLACK)
        if numbers != given:
            numbers, sure = _numbers(fine, layout, GLYPH_REACH)
        if numbers != given:
            if sure:
                rows = [str(i + 1) for i, (a, b) in enumerate(zip(numbers, given)) if a != b]
                doubts.append(f"the numbers printed in row {', '.join(rows)} are not the order the code says")
                default = tuple(row.numbers for row in layout.rows)
                code = replace(code, numbers=None if numbers == default else numbers)
            else:
                doubts.append("the printed numbers could not be checked against the code's order")
    return code, tuple(doubts)
