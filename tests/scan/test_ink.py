"""Deciding fields: crosses of every kind count, and nothing else does (a blank sheet, a name, the totals,
numbers struck through, another player's closed row), in a photo that is turned, lit unevenly and blurred."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.scan.conftest import NEEDS_SCAN, sheet

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

import itertools

from printgen.builders.geometry import sheet_geometry
from printgen.marks.codes import SheetCode, layout_version
from printgen.scan.ink import State
from printgen.scan.reader import SheetReading
from printgen.scan.template import blank_item
from tests.scan.photos import photo
from tests.scan.simulator.synthetic import Paper, mark, pen, printed

PX = 10.0


def paper(name: str, seed: int = 1) -> tuple[Paper, object]:
    layout = sheet(name)
    rng = random.Random(seed)
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)))
    return Paper(printed(blank_item(layout, code), PX, rng, grey=False), PX, rng), layout


def shot(sheet_pixels: np.ndarray, **kwargs: object) -> np.ndarray:
    bgr = (np.clip(sheet_pixels, 0, 1)[..., ::-1] * 255).astype(np.uint8)
    return photo(bgr, **kwargs)  # type: ignore[arg-type]


def read(reader: object, image: np.ndarray) -> SheetReading:
    (result,) = reader.read_image(image, "test")  # type: ignore[attr-defined]
    assert isinstance(result, SheetReading), result
    return result


def test_a_blank_sheet_with_a_name_and_totals_written_has_no_crosses(reader: object) -> None:
    sheet_paper, layout = paper("qwixx-standard")
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    writing = pen("ballpoint", random.Random(3))
    sheet_paper.text(layout.width * 0.55, geometry.title_baseline, "Margherita", 6.5, writing)  # type: ignore[attr-defined]
    for x, y, w, h in geometry.totals:
        sheet_paper.text(x + 2, y + h - 1, "105", 8.0, pen("marker", random.Random(4)))
    result = read(reader, shot(sheet_paper.finish(), turn=170, keystone=0.1, blur=0.8))
    assert [r.field.name for r in result.readings if r.state is not State.EMPTY] == []
    assert result.verdict.legal and result.verdict.total == 0


def test_struck_numbers_and_a_closed_row_are_not_crosses(reader: object) -> None:
    sheet_paper, layout = paper("qwixx-big-points")
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    line = pen("ballpoint", random.Random(5))
    for x, y, side in geometry.rows[1].cells[:5]:
        sheet_paper.stroke([(x + 0.1 * side, y + side / 2), (x + 0.9 * side, y + side / 2 + 0.3)], line)
    cx, cy, r = geometry.rows[2].lock
    sheet_paper.stroke([(cx - 0.8 * r, cy), (cx + 0.8 * r, cy)], line)
    result = read(reader, shot(sheet_paper.finish(), turn=-20, width=2000))
    assert [r.field.name for r in result.readings if r.crossed] == []


@pytest.mark.parametrize("style", ["ballpoint", "marker", "slash", "blob"])
def test_every_kind_of_cross_counts(reader: object, style: str) -> None:
    sheet_paper, layout = paper("qwixx-bonus-a", seed=len(style))
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    rng = random.Random(9)
    chosen = pen(style, rng)
    crossed = []
    for index, number in ((0, 2), (0, 4), (1, 7), (2, 9), (3, 3)):
        row = geometry.rows[index]
        numbers = layout.rows[index].numbers  # type: ignore[attr-defined]
        x, y, side = row.cells[numbers.index(number)]
        mark(sheet_paper, (x, y, side, side), chosen, rng)
        crossed.append(f"row {index + 1}: {number}")
    for box in geometry.penalty_boxes[:2]:
        mark(sheet_paper, box, chosen, rng)
    result = read(reader, shot(sheet_paper.finish(), turn=95, keystone=0.2, blur=1.2, width=2200, jpeg=60))
    found = [r.field.name for r in result.readings if r.crossed]
    assert found == crossed + ["penalty 1", "penalty 2"]
    assert result.marks.penalties == 2 and result.verdict.points[-1] == 10


@pytest.mark.parametrize("reach", [0.45, 0.6])
def test_a_circle_round_a_number_counts_as_a_cross(reader: object, reach: float) -> None:
    import math

    sheet_paper, layout = paper("qwixx-standard", seed=3)
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    ballpoint = pen("ballpoint", random.Random(2))
    circled = {(0, 0), (0, 3), (1, 5), (2, 2), (3, 7)}
    for index, cell in circled:
        x, y, side = geometry.rows[index].cells[cell]
        cx, cy, r = x + side / 2, y + side / 2, side * reach
        points = [(cx + r * math.cos(t), cy + 0.9 * r * math.sin(t)) for t in np.linspace(0.3, 6.9, 40)]
        for a, b in itertools.pairwise(points):
            sheet_paper.stroke([a, b], ballpoint)
    result = read(reader, shot(sheet_paper.finish(), turn=8, width=2200))
    numbers = [row.numbers for row in layout.rows]  # type: ignore[attr-defined]
    expected = {f"row {i + 1}: {numbers[i][c]}" for i, c in circled}
    assert {r.field.name for r in result.readings if r.crossed} == expected


def test_a_finger_over_the_sheet_makes_its_fields_uncertain_and_says_why(reader: object, tmp_path: object) -> None:
    from printgen.scan.annotate import annotate
    from printgen.scan.doubt import COVERED, REASONS
    from printgen.scan.report import as_json, summary

    sheet_paper, layout = paper("qwixx-standard", seed=4)
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    x, y, side = geometry.rows[2].cells[-2]
    finger = np.zeros(sheet_paper.pixels.shape[:2], np.float32)  # a finger from the right edge over rows 3 and 4
    left, top = round(x * PX), round((y + side / 2) * PX)
    cv2.ellipse(finger, (left + 400, top + 60), (400, 90), -8, 0, 360, 1.0, -1)
    finger = cv2.GaussianBlur(finger, (0, 0), 4)[..., None]
    skin = np.array([0.78, 0.56, 0.45], np.float32)
    sheet_paper.pixels[:] = sheet_paper.pixels * (1 - finger) + skin * finger
    image = shot(sheet_paper.finish(), turn=4, width=2200)
    result = read(reader, image)
    hidden = {r.field.name for r in result.readings if r.reason == REASONS[COVERED]}
    assert {"row 3: 3", "row 3: 2", "lock 3"} <= hidden, hidden
    assert all(r.state is State.UNCERTAIN for r in result.readings if r.field.name in hidden)
    assert not [r.field.name for r in result.readings if r.crossed]
    listed = as_json(result)["uncertain"]
    assert {"row": 2, "lock": True, "reason": REASONS[COVERED]} in listed
    assert any(REASONS[COVERED] in line for line in summary(result))
    picture = annotate(image, [result])
    cv2.imwrite(str(tmp_path / "finger.png"), picture)  # type: ignore[operator]
    orange = (np.abs(picture.astype(int) - (0, 140, 255)).sum(axis=2) < 60)
    assert orange[int(picture.shape[0] * 0.9):].sum() > 200  # the legend under the sheet


def _thin_cross(rng: np.random.Generator, strength: float, spread: float = 0.012) -> tuple[np.ndarray, object]:
    """The residual (noise and, if `strength`, a thin X across a 12 mm field at 6 px/mm) and the field."""
    from printgen.scan.template import Field

    residual = rng.normal(0.0, spread, (120, 120)).astype(np.float32)
    if strength:
        strokes = np.zeros_like(residual)
        cv2.line(strokes, (33, 33), (87, 87), 1.0, 2)
        cv2.line(strokes, (87, 33), (33, 87), 1.0, 2)
        residual += strength * strokes
    return residual, Field("number", 0, 5, (4.0, 4.0, 12.0, 12.0))


def test_a_faint_thin_cross_adds_up_along_its_line_where_the_noise_floor_hides_it() -> None:
    from printgen.scan.ink import read_field

    rng = np.random.default_rng(3)
    noise = 0.05  # what the photo shows without ink: every pixel's darkening less this is the ink
    residual, field = _thin_cross(rng, 0.065)
    darkening = np.clip(residual - noise, 0.0, 1.0)
    assert not read_field(darkening, field, 6.0).crossed  # most of the stroke is under the noise floor
    reading = read_field(darkening, field, 6.0, residual=residual)
    assert reading.crossed and reading.state is not State.EMPTY
    blank, field = _thin_cross(rng, 0.0)
    assert read_field(np.clip(blank - noise, 0.0, 1.0), field, 6.0, residual=blank).state is State.EMPTY


def test_a_step_in_the_light_across_a_field_is_no_slanted_line_a_faint_slash_is() -> None:
    """Beside a shadow's or a fold's edge the paper looks a little darker on one side than the other: a step,
    not a ridge as a stroke is."""
    from printgen.scan.ink import read_field
    from printgen.scan.thresholds import LINE_HALF

    rng = np.random.default_rng(5)
    blank, field = _thin_cross(rng, 0.0, spread=0.004)
    ys, xs = np.mgrid[0:120, 0:120]
    step = np.where(xs + ys < 120, 0.03, -0.03).astype(np.float32)  # darker above the diagonal
    residual = blank + step
    stepped = read_field(np.clip(residual - 0.035, 0.0, 1.0), field, 6.0, residual=residual)
    assert stepped.line < 0.5 * LINE_HALF and not stepped.crossed
    slash = np.zeros_like(blank)
    cv2.line(slash, (33, 87), (87, 33), 0.06, 2)
    residual = blank + slash
    slashed = read_field(np.clip(residual - 0.035, 0.0, 1.0), field, 6.0, residual=residual)
    assert slashed.line > LINE_HALF and slashed.crossed


def test_a_faint_darkening_that_changes_slowly_over_the_paper_is_the_light_not_a_blob() -> None:
    """Beside a streak of glare the light model leaves a field's paper a little darker, more so on one side, and
    its printed number lighter than expected: no ink. A thin X on it, or a blob, still counts."""
    from printgen.scan.ink import read_field

    rng = np.random.default_rng(6)
    blank, field = _thin_cross(rng, 0.0, spread=0.004)
    expected = np.ones_like(blank)
    expected[42:78, 48:72] = 0.3  # the printed number: lighter than expected under the glare
    ys, xs = np.mgrid[0:120, 0:120]
    shading = (0.035 + 0.09 * (xs + ys) / 240).astype(np.float32)  # 0.0 .. 0.09 once the noise is taken off
    residual = np.where(expected < 1, -0.02, blank + shading).astype(np.float32)
    shaded = read_field(np.clip(residual - 0.035, 0.0, 1.0), field, 6.0, residual=residual, expected=expected)
    assert not shaded.crossed, shaded
    crossed, _ = _thin_cross(rng, 0.3, spread=0.004)
    residual = np.where(expected < 1, -0.02, crossed + shading).astype(np.float32)
    assert read_field(np.clip(residual - 0.035, 0.0, 1.0), field, 6.0, residual=residual, expected=expected).crossed
    blob = blank.copy()
    cv2.circle(blob, (60, 60), 27, 0.35, -1)
    assert read_field(np.clip(blob - 0.035, 0.0, 1.0), field, 6.0, residual=blob, expected=expected).crossed


def test_a_white_circle_a_camera_renders_greyer_than_its_print_has_no_line_through_it() -> None:
    """A phone's local tone mapping can leave the white circle of a lock, inside a dark band, evenly a little
    greyer than the print and its dark symbol a little lighter: the field's paper and its symbol then differ
    by more than expected, but no line runs through it. A slash over it still counts."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field
    from printgen.scan.thresholds import LINE_HALF

    rng = np.random.default_rng(7)
    field = Field("lock", 0, None, (4.0, 4.0, 12.0, 12.0), round=True)
    expected = np.full((120, 120), 0.3, np.float32)  # the band
    cv2.circle(expected, (60, 60), 36, 1.0, -1)  # the lock's white circle
    cv2.rectangle(expected, (45, 55), (75, 80), 0.25, -1)  # its symbol: a body...
    cv2.ellipse(expected, (60, 55), (11, 13), 0, 180, 360, 0.25, 4)  # ...and a shackle
    grain = rng.normal(0.0, 0.01, expected.shape).astype(np.float32)
    residual = np.where(expected > 0.9, 0.08, -0.03).astype(np.float32) + grain
    noise = 0.08
    greyer = read_field(np.clip(residual - noise, 0, 1), field, 6.0, residual=residual, expected=expected)
    assert greyer.line < 0.5 * LINE_HALF and greyer.state is State.EMPTY, greyer
    slash = residual.copy()
    cv2.line(slash, (38, 82), (82, 38), 0.35, 2)
    slashed = read_field(np.clip(slash - noise, 0, 1), field, 6.0, residual=slash, expected=expected)
    assert slashed.crossed, slashed


def test_a_cross_on_a_lock_counts_where_it_shows_in_the_ring_round_the_symbol() -> None:
    """A lock's dark symbol fills its middle, so a thin X shows only as four short arms in the white ring round
    it, out to near the circle's edge: there its ink must weigh fully. The ring alone stays empty."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    field = Field("lock", 0, None, (4.0, 4.0, 12.0, 12.0), round=True)
    expected = np.full((120, 120), 0.3, np.float32)  # the band
    cv2.circle(expected, (60, 60), 36, 1.0, -1)  # the lock's white circle
    cv2.rectangle(expected, (45, 55), (75, 80), 0.25, -1)  # its symbol
    cv2.ellipse(expected, (60, 55), (11, 13), 0, 180, 360, 0.25, 4)
    expected = cv2.GaussianBlur(expected, (0, 0), 1.0)
    for strength, crossed in ((0.0, False), (0.2, True)):
        rng = np.random.default_rng(9)
        arms = np.zeros_like(expected)
        for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):  # 3 to 4.2 mm out from the middle
            cv2.line(arms, (60 + 18 * dx, 60 + 18 * dy), (60 + 25 * dx, 60 + 25 * dy), strength, 2)
        grain = rng.normal(0.0, 0.01, expected.shape).astype(np.float32)
        residual = np.where(expected > 0.9, 0.0, -0.03).astype(np.float32) + arms + grain
        reading = read_field(np.clip(residual - 0.03, 0, 1), field, 6.0, residual=residual, expected=expected)
        assert reading.crossed is crossed, (strength, reading)
        assert (reading.state is State.EMPTY) is not crossed, reading


def test_a_cross_over_a_printed_number_counts_what_the_number_lets_show() -> None:
    from printgen.scan.ink import read_field

    rng = np.random.default_rng(4)
    residual, field = _thin_cross(rng, 0.1, spread=0.004)
    expected = np.ones_like(residual)
    expected[36:84, 42:78] = 0.1  # a big dark number under the middle of the cross: the pen barely darkens it
    residual[36:84, 42:78] *= 0.1
    darkening = np.clip(residual - 0.035, 0.0, 1.0)
    plain = read_field(darkening, field, 6.0, residual=residual)
    seen = read_field(darkening, field, 6.0, residual=residual, expected=expected)
    assert seen.line > plain.line * 1.3  # the line judged only where ink can show
    assert seen.crossed


def test_a_faint_cross_over_a_big_number_is_not_cancelled_by_the_numbers_edges() -> None:
    """The photo is measured against the darkest print within TOLERANCE of each pixel (the print may be off by
    that much), so by a printed number's edges a faint pencil X shows no darkening, only "lighter than
    expected": that must not drag its line down. The number alone stays empty."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    rng = np.random.default_rng(8)
    field = Field("number", 0, 10, (4.0, 4.0, 12.0, 12.0))
    expected = np.ones((120, 120), np.float32)
    for left in (38, 62):  # "10": two tall strokes, blurred as a camera renders them
        cv2.rectangle(expected, (left, 38), (left + 9, 82), 0.35, -1)
    cv2.rectangle(expected, (62, 38), (83, 46), 0.35, -1)
    cv2.rectangle(expected, (62, 74), (83, 82), 0.35, -1)
    cv2.rectangle(expected, (74, 38), (83, 82), 0.35, -1)
    expected = cv2.GaussianBlur(expected, (0, 0), 1.0)
    tolerant = cv2.erode(expected, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    noise = 0.03
    for strength, crossed in ((0.0, False), (0.1, True)):
        pencil = np.zeros_like(expected)
        cv2.line(pencil, (30, 30), (90, 90), strength, 2)
        cv2.line(pencil, (90, 30), (30, 90), strength, 2)
        seen = expected * (1 - pencil) + rng.normal(0.0, noise / 2, expected.shape).astype(np.float32)
        residual = (tolerant - seen).astype(np.float32)
        reading = read_field(np.clip(residual - noise, 0, 1), field, 6.0, residual=residual, expected=expected)
        assert reading.crossed is crossed, (strength, reading)
        assert (reading.state is State.EMPTY) is not crossed, reading


def test_a_colour_cast_over_the_sheet_is_the_lights_but_a_finger_is_off_colour() -> None:
    from printgen.scan.ink import _hue_off, colours
    from printgen.scan.thresholds import HUE_OFF

    px = 6.0
    blank = np.ones((mm6(120), mm6(180), 3), np.float32)
    blank[mm6(30):mm6(45), :] = (0.85, 0.2, 0.2)  # a red band
    warm = np.linspace(-0.12, 0.12, blank.shape[1], dtype=np.float32)  # warm light on the right, cool on the left
    photo = blank.copy()
    photo[..., 0] *= 1 + warm
    photo[..., 2] *= 1 - warm
    gain = np.ones(blank.shape[:2], np.float32)
    palette = colours(blank, px)
    off, _ = _hue_off(photo, gain, palette, px)
    paper = np.ones(off.shape, bool)
    paper[mm6(28):mm6(47), :] = False
    assert float(off[paper].max()) < HUE_OFF  # the paper at both ends is as its print looks in that light
    assert float((off > HUE_OFF).mean()) < 0.05  # (the band's own colour shifts a little otherwise)
    photo[mm6(20):mm6(70), mm6(80):mm6(100)] = (0.93, 0.72, 0.6)  # a finger
    off, _ = _hue_off(photo, gain, palette, px)
    assert float(np.median(off[mm6(50):mm6(65), mm6(84):mm6(96)])) > HUE_OFF


def mm6(value: float) -> int:
    return round(value * 6.0)


def test_a_level_stroke_counts_as_a_strike_through_only_where_it_runs_through_the_number() -> None:
    """A skipped number is struck through its middle; a small cross drawn high in the field, one of its arms
    nearly level, is still a cross."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    box = (10.0, 10.0, 12.0, 12.0)
    number = Field("number", 0, 5, box, False)

    def darkening(*strokes: tuple[float, float, float, float]) -> np.ndarray:
        canvas = np.zeros((round(32 * px), round(32 * px)), np.float32)
        for x0, y0, x1, y1 in strokes:
            cv2.line(canvas, (round(x0 * px), round(y0 * px)), (round(x1 * px), round(y1 * px)), 0.3, 2)
        return canvas

    struck = read_field(darkening((11.0, 16.2, 21.0, 15.8)), number, px)
    assert struck.streak and struck.state is State.EMPTY
    high = read_field(darkening((12.0, 12.5, 17.0, 13.3), (15.5, 10.8, 15.0, 12.5)), number, px)  # its short
    assert not high.streak and high.state is State.CROSSED  # steep arm lies where the field's ink barely counts


@pytest.mark.parametrize("name, strokes, width, dark, struck", [
    ("felt pen strike", [(11.0, 16.2, 21.0, 15.8)], 7, 0.3, True),  # wider than the band, once blurred
    ("faint strike in pieces", [(10.5, 16.3, 13.5, 16.1), (18.5, 15.8, 21.5, 15.6)], 2, 0.12, True),  # the rest
    ("tick", [(13.0, 15.0, 15.0, 18.0), (15.0, 18.0, 21.0, 13.0)], 2, 0.3, False),  # hidden behind the number
    ("tick, its short arm hidden", [(15.5, 17.0, 21.5, 14.0), (12.0, 16.5, 13.0, 16.6)], 3, 0.3, False),  # its long
    # arm leans about 27 degrees, and only a speck of its short arm shows beside the number
    ("felt strike in two pieces, not quite level", [(10.6, 16.3, 15.0, 16.3), (16.5, 15.8, 21.4, 15.8)], 8, 0.4,
     True),  # its edges lie beside the band
])
def test_strike_throughs_of_every_pen_are_no_crosses_and_a_tick_is_no_strike_through(
        name: str, strokes: list[tuple[float, float, float, float]], width: int, dark: float, struck: bool) -> None:
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    canvas = np.zeros((round(32 * px), round(32 * px)), np.float32)
    for x0, y0, x1, y1 in strokes:
        cv2.line(canvas, (round(x0 * px), round(y0 * px)), (round(x1 * px), round(y1 * px)), dark, width)
    reading = read_field(cv2.GaussianBlur(canvas, (0, 0), 1.0), Field("number", 0, 5, (10.0, 10.0, 12.0, 12.0), False),
                         px)
    assert reading.streak is struck, name
    assert reading.state is (State.EMPTY if struck else State.CROSSED), name


@pytest.mark.parametrize("name, stroke, width, dark, struck, guess", [
    # a short thick patch, level, beside the dark number that hides the rest of a filled blob: its ink counts, and
    # the field is uncertain, guessed crossed (a helper's blue blobs on the blue row were read as struck through,
    # surely empty, the sheets unflagged)
    ("a filled blob's edge", (12.0, 16.0, 17.5, 16.1), 7, 0.8, False, True),
    # a line a little slenderer than a blob's edge (under STREAK_SURE): left out as a strike-through, but the field
    # is not surely empty
    ("a stubby marker's line", (11.5, 16.0, 20.5, 16.0), 8, 0.4, True, False),
])
def test_a_level_stroke_too_thick_to_be_surely_a_strike_through_leaves_its_field_uncertain(
        name: str, stroke: tuple[float, float, float, float], width: int, dark: float, struck: bool,
        guess: bool) -> None:
    from printgen.scan.ink import STUBBY, read_field
    from printgen.scan.template import Field

    px = 6.0
    canvas = np.zeros((round(32 * px), round(32 * px)), np.float32)
    x0, y0, x1, y1 = stroke
    cv2.line(canvas, (round(x0 * px), round(y0 * px)), (round(x1 * px), round(y1 * px)), dark, width)
    reading = read_field(cv2.GaussianBlur(canvas, (0, 0), 1.0), Field("number", 0, 5, (10.0, 10.0, 12.0, 12.0), False),
                         px)
    assert reading.streak is struck and reading.state is State.UNCERTAIN and reading.reason == STUBBY, name
    assert reading.crossed is guess, name


@pytest.mark.parametrize("name, stroke, width", [
    ("a line from outside that stops short of the middle", (0.0, 16.0, 14.5, 16.0), 2),
    ("a thick one", (0.0, 16.0, 14.5, 16.0), 4),
    ("a line along the field's top, right across the row", (0.0, 12.0, 32.0, 12.0), 3),
    ("a line along its bottom", (0.0, 20.3, 32.0, 20.0), 3),
    ("a cable 4 mm thick over its lower half", (0.0, 19.0, 32.0, 19.2), 24),
])
def test_a_level_line_is_never_a_sure_cross(name: str, stroke: tuple[float, float, float, float], width: int) -> None:
    """The edge of a pen or a cable lying along a row, or a line struck off a number's middle: no cross (a helper's
    line along a row read a field surely crossed; here a band slanted through the line's end read as a slash,
    or the line's ink covered the field), at most uncertain, and its best guess empty."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    canvas = np.zeros((round(32 * px), round(32 * px)), np.float32)
    x0, y0, x1, y1 = stroke
    cv2.line(canvas, (round(x0 * px), round(y0 * px)), (round(x1 * px), round(y1 * px)), 0.35, width)
    reading = read_field(cv2.GaussianBlur(canvas, (0, 0), 0.8), Field("number", 0, 5, (10.0, 10.0, 12.0, 12.0), False),
                         px)
    assert reading.state is not State.CROSSED and not reading.crossed, (name, reading)


def test_a_cable_broken_by_the_number_and_the_boxs_rim_is_no_sure_cross() -> None:
    """A grey cable 2.3 mm thick along a row's middle: the printed number cuts it into two stubs, as long as they
    are thick and cut at a slant, and over the box's rim it hardly shows (a helper's photo read seven such
    fields surely crossed)."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    canvas = np.zeros((round(32 * px), round(32 * px)), np.float32)
    for x0, x1 in ((10.4, 14.2), (17.8, 21.6)):
        cv2.line(canvas, (round(x0 * px), round(16.0 * px)), (round(x1 * px), round(16.3 * px)), 0.3, 14)
    canvas[:, round(14.2 * px):round(17.8 * px)] = 0.0  # (the number hides it)
    canvas[round(13.5 * px):round(15.5 * px), round(13.0 * px):round(14.2 * px)] = 0.0  # (its outline cuts a stub)
    reading = read_field(cv2.GaussianBlur(canvas, (0, 0), 0.8), Field("number", 0, 5, (10.0, 10.0, 12.0, 12.0), False),
                         px)
    assert reading.state is not State.CROSSED and not reading.crossed, reading


def test_a_circles_arc_is_no_level_line_a_cables_stub_is() -> None:
    """The foot of a circle round a number runs in from the field's sides nearly level, but bends (a fresh set's
    circle read uncertain); a cable's stub beside the number is straight."""
    from printgen.scan.ink import _level_pieces

    px = 6.0
    arc = np.zeros((72, 72), np.float32)
    cv2.ellipse(arc, (36, 30), (40, 34), 0, 20, 160, 0.35, 6)
    assert _level_pieces(arc, px) is None
    stub = np.zeros((72, 72), np.float32)
    cv2.line(stub, (0, 52), (24, 53), 0.35, 12)
    found = _level_pieces(stub, px)
    assert found is not None and found[52, 10] and not found[20, 60]


def test_a_level_line_in_a_penalty_box_is_a_mark() -> None:
    """A misthrow may be marked with one level line: on a box any line is a mark."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    line = np.zeros((round(32 * px), round(32 * px)), np.float32)
    cv2.line(line, (round(9.0 * px), round(15.0 * px)), (round(23.0 * px), round(15.4 * px)), 0.35, 4)
    box = Field("penalty", 0, None, (10.0, 10.0, 12.0, 12.0), False)
    reading = read_field(cv2.GaussianBlur(line, (0, 0), 0.8), box, px)
    assert reading.state is State.CROSSED, reading


def test_a_flat_x_running_over_the_fields_sides_is_still_a_cross() -> None:
    """Its arms, 12 degrees off level, are each no level line: together they leave the span between them empty."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    canvas = np.zeros((round(32 * px), round(32 * px)), np.float32)
    for x0, y0, x1, y1 in ((9.0, 14.5, 23.0, 17.5), (9.0, 17.5, 23.0, 14.5)):
        cv2.line(canvas, (round(x0 * px), round(y0 * px)), (round(x1 * px), round(y1 * px)), 0.35, 2)
    reading = read_field(cv2.GaussianBlur(canvas, (0, 0), 0.8), Field("number", 0, 5, (10.0, 10.0, 12.0, 12.0), False),
                         px)
    assert reading.state is State.CROSSED, reading


def test_a_doubtful_field_is_judged_by_its_own_sheets_pen() -> None:
    """A faint pen crosses the whole sheet faintly: where its clear crosses only just clear the bar, a doubtful
    field below halfway is still its cross; a strong pen's sheet keeps halfway at 1, and so does a sheet with
    too few clear crosses to say."""
    from printgen.scan.ink import Reading, pen_halfway
    from printgen.scan.template import Field
    from printgen.scan.thresholds import COVER_HALF, PEN_LOWEST

    def reading(number: int, state: State, evidence: float) -> Reading:
        return Reading(Field("number", 0, number, (0.0, 0.0, 9.0, 9.0)), state, evidence * COVER_HALF, False)

    empties = [reading(n, State.EMPTY, 0.15) for n in range(2, 10)]
    doubtful = reading(10, State.UNCERTAIN, 0.7)
    assert not doubtful.crossed
    for faint, halfway in ((2.7, 0.648), (2.0, PEN_LOWEST), (9.0, 1.0)):  # 0.648: the root of 0.15 x 2.8
        sheet = empties + [reading(n, State.CROSSED, faint + 0.2 * k) for k, n in enumerate((11, 12, 13))]
        pen = pen_halfway([*sheet, doubtful])
        assert pen == pytest.approx(halfway, abs=0.01)
        assert replace(doubtful, pen=pen).crossed is (pen < 0.7)
    assert pen_halfway(empties + [reading(11, State.CROSSED, 2.0), doubtful]) == 1.0


def _faint_sheet(clear: float, speck: float) -> list[object]:
    """The readings of a row of 20 fields: three crossed with strokes of luma `clear`, a fainter cross (0.95), one
    empty field with a speck of luma `speck` and 15 with a paler speck (0.85): evidence a little above nothing."""
    from printgen.scan.ink import Measured, read_fields
    from printgen.scan.template import Field

    px = 6.0
    cells = [Field("number", 0, 2 + i, (2.0 + 11.0 * i, 2.0, 9.0, 9.0), False) for i in range(20)]
    seen = np.ones((round(13 * px), round(225 * px)), np.float32)
    for k, (x, y, w, h) in enumerate(cell.box for cell in cells):
        if k > 3:
            cv2.circle(seen, (round((x + 4.5) * px), round((y + 4.5) * px)), 1, speck if k == 4 else 0.85, -1)
            continue
        for a, b in (((x + 1.5, y + 1.5), (x + w - 1.5, y + h - 1.5)), ((x + w - 1.5, y + 1.5), (x + 1.5, y + h - 1.5))):
            cv2.line(seen, (round(a[0] * px), round(a[1] * px)), (round(b[0] * px), round(b[1] * px)),
                     clear if k < 3 else 0.95, 2)
    residual = 1.0 - seen
    measured = Measured(seen, np.ones_like(seen), np.ones_like(seen),
                        np.clip(residual - 0.03, 0.0, 1.0).astype(np.float32), residual, 0.03,
                        np.zeros(seen.shape, np.uint8))
    readings = read_fields(measured, cells, px)
    assert [r.state for r in readings[:3]] == [State.CROSSED] * 3 and all(r.state is State.EMPTY for r in readings[5:])
    return readings


@pytest.mark.parametrize("clear, faint_pen", [(0.93, True), (0.5, False)])
def test_a_faint_pens_sheet_is_judged_by_its_own_bars(clear: float, faint_pen: bool) -> None:
    """A sheet crossed faintly all over (its clear crosses only just clear SURE_CROSSED) has its pen's halfway
    below 1: a speck that another pen's sheet would call empty may be its faintest cross, so it is left to a
    person (its best guess still empty), and a cross a little fainter than its others is guessed crossed. On a
    sheet of strong crosses the speck is empty."""
    from printgen.scan.ink import UNCLEAR
    from printgen.scan.thresholds import SURE_EMPTY

    faint, speck = _faint_sheet(clear, 0.75)[3:5]
    assert speck.evidence < SURE_EMPTY and (faint.pen < 1.0) is faint_pen
    assert faint.state is State.UNCERTAIN and faint.reason == UNCLEAR and faint.crossed
    if faint_pen:
        assert speck.state is State.UNCERTAIN and speck.reason == UNCLEAR and not speck.crossed
    else:
        assert speck.state is State.EMPTY


@pytest.mark.parametrize("clear, speck, faint_is_sure", [(0.93, 0.85, True), (0.93, 0.8, False), (0.5, 0.85, False)])
def test_a_faint_pens_fainter_cross_is_sure_only_where_its_empty_fields_are_clear(clear: float, speck: float,
                                                                                  faint_is_sure: bool) -> None:
    """On a faint pen's sheet a cross a little fainter than its others is crossed at the pen's share of
    SURE_CROSSED, but only where every empty field of the sheet lies well below its empty bar (PEN_CLEAR): a
    speck near that bar may be a missed cross, and the fainter cross then keeps the sheet flagged. On a sheet
    of strong crosses it stays for a person to check."""
    from printgen.scan.ink import UNCLEAR
    from printgen.scan.thresholds import PEN_CLEAR, SURE_CROSSED, SURE_EMPTY

    faint, near = _faint_sheet(clear, speck)[3:5]
    assert near.state is State.EMPTY and faint.evidence < SURE_CROSSED
    assert (near.evidence > PEN_CLEAR * SURE_EMPTY * faint.pen) is (clear == 0.93 and not faint_is_sure)
    if faint_is_sure:
        assert faint.pen < 1.0 and faint.state is State.CROSSED and faint.reason == ""
    else:
        assert faint.state is State.UNCERTAIN and faint.reason == UNCLEAR and faint.crossed


def test_the_arms_of_a_small_x_over_the_number_are_no_strike_through() -> None:
    """Where a small X lies over a printed number only its arms' ends show beside it, two short leaning strokes
    side by side that a level band holds; struck numbers of the same photo stay strike-throughs. The field's
    weighted ink as read from two held-out photos (a Gemixxt A and a Bonus B sheet, 6 px/mm)."""
    from pathlib import Path

    from printgen.scan.ink import _struck

    with np.load(Path(__file__).parent / "data" / "x-arms.npz") as saved:
        masses = {name: saved[name].astype(np.float32) for name in saved.files}
    assert _struck(masses["gemixxt_a_row3_4"], 6.0) is None
    assert _struck(masses["bonus_b_row4_6"], 6.0) is None
    assert _struck(masses["struck_4"], 6.0) is not None and _struck(masses["struck_6"], 6.0) is not None


def moved_print(reader: object, name: str, shift_mm: float) -> tuple[SheetReading, SheetReading]:
    """A blank standard sheet photographed as it is, and with the field `name` and 3 mm of print round it drawn
    `shift_mm` down and to the right: both readings."""
    pixels = paper("qwixx-standard")[0].finish()
    clean = read(reader, shot(pixels, turn=4))
    x, y, w, h = (round(v * PX) for v in next(r.field.box for r in clean.readings if r.field.name == name))
    moved = pixels.copy()
    reach, shift = round(3 * PX), round(shift_mm * PX)
    moved[y - reach:y + h + reach, x - reach:x + w + reach] = pixels[y - reach - shift:y + h + reach - shift,
                                                                    x - reach - shift:x + w + reach - shift]
    return clean, read(reader, shot(moved, turn=4))


def test_a_box_whose_print_lies_mm_from_where_it_was_put_is_uncertain_not_crossed(reader: object) -> None:
    """Beside a corner lifted towards the camera the warp finds too little print to follow, and a misthrow box
    was placed 2-3 mm off: its own border then lay inside the field and read as a sure cross (a silent extra
    misthrow, found by an adversarial check). Where most of a field's own print is missing from where the
    alignment put it, the field is uncertain and says so (here the reading blamed a stroke from outside)."""
    from printgen.scan.ink import MISPLACED

    clean, result = moved_print(reader, "penalty 4", 2.5)
    assert all(r.state is State.EMPTY for r in clean.readings)
    (box_read,) = [r for r in result.readings if r.field.name == "penalty 4"]
    assert box_read.state is State.UNCERTAIN and box_read.reason == MISPLACED
    assert result.flagged


def test_a_number_whose_print_lies_a_millimetre_off_is_uncertain_not_crossed(reader: object) -> None:
    """Beside a lifted corner whose print the warp could not follow, number boxes lay about a millimetre from where
    the alignment put them (beyond what it corrects), and a neighbour's edge inside the field read as a sure cross
    (the adversarial helper's last silent cases). Where the photo shows a field's print best elsewhere, the field is
    uncertain: here its own print is all there, only moved, so it is the edges' match that says so."""
    from printgen.scan.ink import MISPLACED

    _, result = moved_print(reader, "row 4: 12", 1.3)
    (number,) = [r for r in result.readings if r.field.name == "row 4: 12"]
    assert number.state is State.UNCERTAIN and number.reason == MISPLACED
    assert number.evidence > 5  # (its ink alone would have made it a sure cross)
    assert result.flagged


def test_print_edges_matched_best_elsewhere_only_when_clearly_and_far_enough() -> None:
    from printgen.scan.ink import _print_edges, _shifted
    from printgen.scan.template import Field

    px = 6.0
    printed = np.ones((240, 240), np.float32)
    for left in range(12, 228, 54):  # a row of boxes with a number-like bar in each, as edges
        cv2.rectangle(printed, (left, 60), (left + 48, 108), 0.2, 2)
        cv2.rectangle(printed, (left + 20, 72), (left + 26, 98), 0.3, -1)
    expected = cv2.GaussianBlur(printed, (0, 0), 1.0)
    field = Field("number", 0, 5, (66 / px, 60 / px, 48 / px, 48 / px))

    def edges(dx: int, dy: int) -> tuple[np.ndarray, np.ndarray]:  # the photo's print moved by dx, dy px
        return _print_edges(np.roll(expected, (dy, dx), axis=(0, 1)), expected, px)

    assert not _shifted(edges(0, 0), field, px)
    assert not _shifted(edges(2, 0), field, px)  # a third of a millimetre: what alignment leaves
    assert _shifted(edges(7, 0), field, px) and _shifted(edges(0, -7), field, px)  # more than a millimetre


def test_on_a_bent_sheet_a_box_part_of_whose_print_is_missing_is_uncertain_sooner() -> None:
    """Beside a lifted corner a box's print may be magnified as well as moved: no shift matches it, and only one
    of its sides lies where another was put (inside the field, where it reads as a sure cross). On a sheet whose
    markers fit a flat sheet only loosely, 0.3 of a field's print missing makes it uncertain; on a flat one it
    takes 0.5 (a lower share flagged many right sheets)."""
    from printgen.scan.ink import MISPLACED, Measured, _misplaced, read_fields
    from printgen.scan.template import Field
    from printgen.scan.thresholds import MISPLACED_SHARE, MISPLACED_SHARE_BENT

    px = 6.0

    def box(left: float, top: float, right: float, bottom: float) -> np.ndarray:
        image = np.ones((150, 150), np.float32)
        cv2.rectangle(image, (round(left * px), round(top * px)), (round(right * px), round(bottom * px)), 0.3, 3)
        return cv2.GaussianBlur(image, (0, 0), 0.8)

    field = Field("penalty", 3, None, (6.0, 6.0, 10.4, 10.4))
    expected = box(6.0, 6.0, 16.4, 16.4)
    seen = box(6.1, 6.1, 14.8, 16.3)  # its right side 1.6 mm in, the rest a tenth of a millimetre off
    residual = expected - seen
    assert MISPLACED_SHARE_BENT <= _misplaced(residual, expected, field, px) < MISPLACED_SHARE
    measured = Measured(seen, expected, np.ones_like(seen), np.clip(residual - 0.03, 0.0, 1.0).astype(np.float32),
                        residual, 0.03, np.zeros(seen.shape, np.uint8))
    (flat,) = read_fields(measured, [field], px)
    (bent,) = read_fields(measured, [field], px, bent=True)
    assert flat.state is State.CROSSED  # (what a flat sheet's reading must be able to trust)
    assert bent.state is State.UNCERTAIN and bent.reason == MISPLACED


def heavy_print(reader: object, spread_px: int, rows: tuple[int, ...] | None = None) -> SheetReading:
    """A Big Points sheet whose print (all of it, or only that of `rows`) is set `spread_px` heavier than the blank
    sheet, as a printer's spreading toner or another renderer sets it, with X's on row 2's 3 and 7: its reading."""
    layout = sheet("qwixx-big-points")
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)))  # type: ignore[arg-type]
    rng = random.Random(6)
    pixels = printed(blank_item(layout, code), PX, rng, grey=False)
    heavy = cv2.erode(pixels, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * spread_px + 1,) * 2))
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    if rows is not None:
        for index in rows:
            (x, y, side), (lx, _, _) = geometry.rows[index].cells[0], geometry.rows[index].lock
            top, bottom = round((y - 1) * PX), round((y + side + 1) * PX)
            pixels[top:bottom, :round(lx * PX)] = heavy[top:bottom, :round(lx * PX)]
        heavy = pixels
    sheet_paper = Paper(heavy, PX, rng)
    for x, y, side in (geometry.rows[1].cells[1], geometry.rows[1].cells[5]):
        mark(sheet_paper, (x, y, side, side), pen("ballpoint", rng), rng)
    return read(reader, shot(sheet_paper.finish(), turn=4, width=2200))


def test_print_heavier_than_the_blank_sheet_is_matched_not_read_as_ink(reader: object) -> None:
    """A printer may set type heavier than the blank sheet the reader compares with: every number's edge then
    showed as a dark rim, some thirty fields were uncertain and one an empty field read as a sure cross. How much
    heavier the print is, is judged along its edges, as its blur is: the sheet reads clean."""
    result = heavy_print(reader, 2)
    assert [r.field.name for r in result.readings if r.state is not State.EMPTY] == ["row 2: 3", "row 2: 7"]
    assert all(r.crossed for r in result.readings if r.state is not State.EMPTY)


def test_a_circle_round_a_bonus_row_field_counts_as_a_cross(reader: object) -> None:
    """The bonus row's fields are marked like numbers: a circle round one is a cross (it was read as empty)."""
    import math

    sheet_paper, layout = paper("qwixx-bonus-a", seed=5)
    geometry = sheet_geometry(layout)  # type: ignore[arg-type]
    ballpoint = pen("ballpoint", random.Random(7))
    for x, y, w, h in geometry.bonus_row[:3]:
        cx, cy, r = x + w / 2, y + h / 2, min(w, h) * 0.6
        points = [(cx + r * math.cos(t), cy + 0.95 * r * math.sin(t)) for t in np.linspace(0.2, 6.8, 40)]
        for a, b in itertools.pairwise(points):
            sheet_paper.stroke([a, b], ballpoint)
    result = read(reader, shot(sheet_paper.finish(), turn=-6, width=2200))
    assert [r.field.name for r in result.readings if r.crossed] == [
        r.field.name for r in result.readings if r.field.kind == "bonus-row"][:3]


def test_a_band_darker_than_expected_all_along_is_no_ink_in_its_strips_between_fields_a_stroke_is() -> None:
    """Light falling off over a band (or glare brightening it elsewhere, which the band's learnt colour follows)
    leaves the band evenly darker than expected; its strips between two fields, as narrow as a stroke's reach,
    kept all of it, measured against the fields' paper beside them, and empty numbers read as circled (a
    helper's unseen photo: four blue fields sure crosses). Along the strip it is the band's own; a stroke
    across the strip still counts."""
    from printgen.scan.ink import _narrow_on_dark_print

    px = 6.0
    printed = np.full((120, 200), 1.0, np.float32)
    printed[20:100, :] = 0.22  # a band...
    for left in (20, 92, 164):  # ...holding light fields 16 px apart (a standard sheet's strips, their blurred
        printed[28:92, left - 4:left + 52] = 0.88  # edges included)
    printed = cv2.GaussianBlur(printed, (0, 0), 1.0)  # (as the photo's blur mixes their edges)
    residual = np.where(printed < 0.3, 0.15, 0.0).astype(np.float32)  # the band evenly darker than expected
    residual = cv2.GaussianBlur(residual, (0, 0), 1.0)
    stroked = residual.copy()
    stroked[58:61, 40:110] += 0.3  # a stroke across the first strip (x 72..87)
    even = _narrow_on_dark_print(residual, printed, px)
    assert float(np.abs(even[40:80, 75:85]).max()) < 0.03, even[40:80, 75:85].max()
    ink = _narrow_on_dark_print(stroked, printed, px)
    assert float(ink[58:61, 75:85].min()) > 0.25


def test_a_cross_whose_one_arm_lies_near_level_is_not_taken_for_a_strike_through_alone() -> None:
    """An X drawn turned (its arms at 15 and 65 degrees), lying mostly on a dark-blue digit: the near-level arm
    was taken for a strike-through and the field read surely empty though the steep arm shows above and below
    the digit (an unseen photo's only silent error). Now the slanted line is looked for in the ink away from the
    strike-through; a strike-through alone stays no cross."""
    from printgen.scan.ink import read_field
    from printgen.scan.template import Field

    px = 6.0
    field = Field("number", 3, 8, (2.0, 2.0, 12.0, 12.0))
    expected = np.full((96, 96), 0.9, np.float32)
    expected[:12, :] = expected[-12:, :] = expected[:, :12] = expected[:, -12:] = 0.25  # the band round it
    cv2.rectangle(expected, (38, 30), (58, 66), 0.2, -1)  # the digit, dark as the band
    rng = np.random.default_rng(3)
    base = rng.normal(0.0, 0.01, expected.shape).astype(np.float32)

    def stroke(image: np.ndarray, angle: float, length: float) -> None:
        dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
        cv2.line(image, (round(48 - dx), round(48 + dy)), (round(48 + dx), round(48 - dy)), 0.3, 2)

    def reading(*strokes: tuple[float, float]) -> object:
        residual = base.copy()
        for angle, length in strokes:
            stroke(residual, angle, length)
        residual = np.where(expected < 0.3, np.minimum(residual, 0.02), residual)  # the digit hides the ink
        return read_field(np.clip(residual - 0.04, 0, 1), field, px, residual=residual, expected=expected)

    crossed = reading((-15.0, 60.0), (65.0, 60.0))
    assert crossed.state is not State.EMPTY and crossed.crossed, crossed
    struck = reading((-3.0, 66.0))
    assert struck.state is State.EMPTY, struck
