"""The annotated picture's figures read on any table: each row's points and the total sit on a white tag."""

from __future__ import annotations

import pytest

from tests.scan.conftest import NEEDS_SCAN, sheet

cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)
np = pytest.importorskip("numpy", reason=NEEDS_SCAN)

from printgen.builders.geometry import sheet_geometry
from printgen.scan.annotate import DARK, LONGEST, _project, annotate
from printgen.scan.reader import Result, SheetReading
from tests.scan.simulator.synthetic import Sample, sample


def to_drawn(image: np.ndarray, results: list[Result], reading: SheetReading) -> np.ndarray:
    """How `annotate` maps `reading`'s sheet (mm) into the picture it draws from `image`: shrunk to LONGEST, and
    moved by the white margins it adds on the left and at the top (`_room`)."""
    from printgen.scan.annotate import _room

    scale = min(1.0, LONGEST / max(image.shape[:2]))
    sheets = [r for r in results if isinstance(r, SheetReading)]
    shape = (round(image.shape[0] * scale), round(image.shape[1] * scale))
    left, top, _, _ = _room(shape, sheets, [np.diag([scale, scale, 1.0]) @ s.to_photo for s in sheets], len(sheets) > 1)
    return np.array([[1.0, 0.0, left], [0.0, 1.0, top], [0.0, 0.0, 1.0]]) @ np.diag([scale, scale, 1.0]) @ reading.to_photo


@pytest.fixture(scope="module")
def photo_read(reader) -> tuple[Sample, list[Result]]:  # type: ignore[no-untyped-def]
    """A standard sheet, the sheet and its margin all in view, and what the reader read from it (made and read
    once for this module's tests, which only look at both)."""
    photo = sample([sheet("qwixx-standard")], 11, two_up=False, widest=1600)
    return photo, reader.read_image(photo.image, "photo.jpg")


def test_row_points_and_total_sit_on_white_tags_on_a_black_table(photo_read: tuple[Sample, list[Result]]) -> None:
    """Drawn over a black picture (the darkest table there is), every row's points and the total show as dark
    figures on white: the tag's white and the figure's dark both found round each figure's place."""
    layout = sheet("qwixx-standard")
    photo, results = photo_read
    readings = [r for r in results if isinstance(r, SheetReading)]
    assert len(readings) == 1
    black = np.zeros_like(photo.image)
    drawn = annotate(black, results)
    to_picture = to_drawn(black, results, readings[0])
    geometry = sheet_geometry(layout)
    places = [(layout.width + 3.0, row.lock[1]) for row in geometry.rows]
    _, y, _, h = geometry.totals[-1]
    places.append((layout.width + 3.0, y + h / 2))  # (beside the totals line, clear of the total the player wrote)
    dark = np.array(DARK[::-1])  # BGR in the picture
    for place in places:
        px, py = np.round(_project(to_picture, [place])[0]).astype(int)
        assert 25 <= px < drawn.shape[1] - 40 and 25 <= py < drawn.shape[0] - 25, place
        patch = drawn[py - 25:py + 25, px - 25:px + 40].reshape(-1, 3).astype(int)
        white = np.all(patch == 255, axis=1).mean()
        figure = (np.abs(patch - dark).max(axis=1) < 40).mean()
        assert white > 0.2 and figure > 0.02, (place, white, figure)


def test_the_title_is_orange_and_counts_the_fields_to_check_when_some_are_uncertain(
        photo_read: tuple[Sample, list[Result]]) -> None:
    """A sheet read legal but with a field left to a person does not look finished: its title is orange, not
    green, and says how many fields to check."""
    from dataclasses import replace

    from printgen.scan.annotate import GREEN, ORANGE
    from printgen.scan.ink import State

    photo, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    sure = [replace(r, state=State.CROSSED if r.crossed else State.EMPTY, reason="") for r in read.readings]
    reading = replace(read, readings=sure)  # every field taken as its best guess
    assert reading.verdict.legal and not reading.uncertain

    def title_pixels(shown: SheetReading, colour: tuple[int, int, int]) -> int:
        drawn = annotate(np.zeros_like(photo.image), [shown])
        return int(np.all(drawn == np.array(colour), axis=2).sum())

    assert title_pixels(reading, GREEN) > title_pixels(reading, ORANGE)
    first = replace(reading.readings[0], state=State.UNCERTAIN, reason="too much ink for an empty field")
    doubtful = replace(reading, readings=[first, *reading.readings[1:]])
    assert doubtful.verdict.legal
    assert title_pixels(doubtful, ORANGE) > title_pixels(reading, ORANGE) + 500


def test_a_long_legend_line_stays_inside_its_white_box() -> None:
    """A reason as long as a picture is wide is drawn small and thin; its text once had a white halo drawn thicker,
    which OpenCV sets wider, so the line's end ran on beyond its box in white."""
    from printgen.scan.annotate import ORANGE, _label
    from printgen.scan.ink import LEFT_OUT

    picture = np.full((60, 1000, 3), 30, np.uint8)  # a dark table
    text = f"?1 {LEFT_OUT}"
    _label(picture, text, np.array([8.0, 40.0]), ORANGE, 0.5, tag=True)
    white = np.all(picture > 200, axis=2)
    box_right = int(np.nonzero(white.any(axis=0))[0].max())  # the box is white: where it ends
    (text_width, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.5, 1)
    assert box_right < 8 + text_width + 12  # nothing white beyond the box that holds the text
    assert not white[:, box_right + 2:].any()


def test_the_legend_hides_no_figure_where_the_sheet_reaches_the_pictures_foot(
        photo_read: tuple[Sample, list[Result]]) -> None:
    """A sheet turned with its row points at the picture's foot leaves no room for the legend under it: the
    legend goes above the sheet's title, and every row's points still show on their white tags."""
    from dataclasses import replace

    from printgen.scan.annotate import ORANGE
    from printgen.scan.ink import State

    layout = sheet("qwixx-standard")
    _, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    first = replace(read.readings[0], state=State.UNCERTAIN, reason="too much ink for an empty field")
    picture = np.zeros((1400, 700, 3), np.uint8)
    scale = 1000 / (layout.width + 10.0)  # type: ignore[union-attr]
    foot = picture.shape[0] - 25 - scale * (layout.width + 3.0)  # type: ignore[union-attr]
    turned = np.array([[0.0, -scale, scale * layout.height + 60.0],  # type: ignore[union-attr]
                       [scale, 0.0, foot], [0.0, 0.0, 1.0]])  # the sheet's right edge at the picture's foot
    drawn = annotate(picture, [replace(read, readings=[first, *read.readings[1:]], to_photo=turned)])
    orange = np.all(drawn == np.array(ORANGE), axis=2)
    geometry = sheet_geometry(layout)
    dark = np.array(DARK[::-1])
    for row in geometry.rows:
        px, py = np.round(_project(turned, [(layout.width + 3.0, row.lock[1])])[0]).astype(int)  # type: ignore[union-attr]
        patch = drawn[py - 12:py + 12, px - 20:px + 20].reshape(-1, 3).astype(int)
        assert (np.abs(patch - dark).max(axis=1) < 40).mean() > 0.02, (row, px, py)
        assert not orange[py - 12:py + 12, px - 20:px + 20].any()
    title_top = int(np.nonzero(orange.any(axis=1))[0].min())
    assert title_top < _project(turned, [(0.0, 0.0)])[0][1]  # the legend (and title) above the sheet


def test_title_and_legend_keep_clear_of_a_narrow_pictures_sides(photo_read: tuple[Sample, list[Result]]) -> None:
    """On a narrow picture the sheet fills from side to side; the title and a legend line as long as the picture
    is wide are set smaller, and keep a margin on both sides of the picture, widened for the row points (they
    once touched the right side, and the title's tag began at the left one)."""
    from dataclasses import replace

    from printgen.scan.annotate import MARGIN, ORANGE
    from printgen.scan.ink import LEFT_OUT, State

    layout = sheet("qwixx-standard")
    _, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    doubtful = [replace(read.readings[0], state=State.UNCERTAIN, reason=LEFT_OUT),
                replace(read.readings[1], state=State.UNCERTAIN, reason="too much ink for an empty field")]
    picture = np.zeros((900, 500, 3), np.uint8)
    scale = picture.shape[1] / layout.width  # type: ignore[union-attr]
    filling = np.array([[scale, 0.0, 0.0], [0.0, scale, 300.0], [0.0, 0.0, 1.0]])
    shown = [replace(read, readings=[*doubtful, *read.readings[2:]], to_photo=filling)]
    drawn = annotate(picture, shown)
    assert drawn.shape[1] > picture.shape[1]  # a white margin on the right, for the row points
    orange = np.all(drawn == np.array(ORANGE), axis=2)  # the title's and the legend's text and tags
    columns = np.nonzero(orange.any(axis=0))[0]
    assert columns.min() >= MARGIN - 1 and columns.max() <= drawn.shape[1] - MARGIN, (columns.min(), columns.max())
    top = round(to_drawn(picture, shown, shown[0])[1, 2])  # the sheet's top in the drawn picture
    assert orange[:top].any() and orange[top + round(scale * layout.height):].any()  # type: ignore[union-attr]


def test_row_points_beyond_the_pictures_foot_show_inside_it_and_the_legend_keeps_off_them(
        photo_read: tuple[Sample, list[Result]]) -> None:
    """A turned sheet whose row points would fall below the picture and whose title sits at its top: the picture
    gets a white margin at its foot for the points (moved inside it, they lay over the sheet's locks), and the
    legend keeps off them."""
    from dataclasses import replace

    from printgen.scan.annotate import MARGIN, ORANGE
    from printgen.scan.ink import State

    layout = sheet("qwixx-standard")
    _, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    first = replace(read.readings[0], state=State.UNCERTAIN, reason="too much ink for an empty field")
    picture = np.zeros((1000, 900, 3), np.uint8)
    scale = 1000 / layout.width  # type: ignore[union-attr]  # the sheet's right edge at the picture's foot
    turned = np.array([[0.0, -scale, scale * layout.height + 100.0],  # type: ignore[union-attr]
                       [scale, 0.0, 0.0], [0.0, 0.0, 1.0]])
    shown = [replace(read, readings=[first, *read.readings[1:]], to_photo=turned)]
    drawn = annotate(picture, shown)
    placed = to_drawn(picture, shown, shown[0])
    sheet_foot = round(float(_project(placed, [(layout.width, 0.0)])[0][1]))  # type: ignore[union-attr]
    assert drawn.shape[0] > sheet_foot + 2 * MARGIN  # the margin under the picture (and the legend's band)
    orange = np.all(drawn == np.array(ORANGE), axis=2)
    dark = np.all(np.abs(drawn.astype(int) - np.array(DARK[::-1])) < 40, axis=2)
    for row in sheet_geometry(layout).rows:
        px, py = np.round(_project(placed, [(layout.width + 3.0, row.lock[1])])[0]).astype(int)  # type: ignore[union-attr]
        assert py > sheet_foot and dark[py - 20:py + 20, px - 20:px + 20].mean() > 0.02, row  # off the sheet
        assert not orange[py - 20:py + 20, px - 20:px + 20].any(), row


def test_an_uncertain_fields_tag_leaves_its_middle_clear_and_a_counted_guess_shows_green(
        photo_read: tuple[Sample, list[Result]], monkeypatch: pytest.MonkeyPatch) -> None:
    """An uncertain field's tag sits astride its corner, so the ink a person is asked to check (the field's
    middle) is not painted over; one counted as crossed in the total has a green outline inside its orange one,
    one counted as empty has none, and the legend says what the green means."""
    from dataclasses import replace

    from printgen.scan.annotate import COUNTED, GREEN, ORANGE
    from printgen.scan.ink import State

    photo, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    numbers = [k for k, r in enumerate(read.readings) if r.field.kind == "number"]
    counted, empty = numbers[3], numbers[5]  # two fields of the first row, apart
    readings = [replace(r, state=State.CROSSED if r.crossed else State.EMPTY, reason="") for r in read.readings]
    for k, guess in ((counted, True), (empty, False)):
        readings[k] = replace(readings[k], state=State.UNCERTAIN, reason="too much ink for an empty field",
                              settled=guess)
    shown = replace(read, readings=readings)
    drawn = annotate(np.zeros_like(photo.image), [shown])
    to_picture = to_drawn(photo.image, [shown], shown)
    green, orange = (np.abs(drawn.astype(int) - colour).max(axis=2) < 60 for colour in (GREEN, ORANGE))  # (or blended)

    def inside(k: int, share: float) -> np.ndarray:
        """Which pixels lie in field k's box scaled to `share` of its side about its middle (a mask)."""
        x, y, w, h = readings[k].field.box
        lo, hi = (1 - share) / 2, (1 + share) / 2
        corners = _project(to_picture, [(x + w * lo, y + h * lo), (x + w * hi, y + h * lo), (x + w * hi, y + h * hi),
                                        (x + w * lo, y + h * hi)])
        mask = np.zeros(drawn.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
        return mask.astype(bool)

    for k in (counted, empty):
        assert not orange[inside(k, 0.5)].any()  # the middle half of the field: no tag over the ink
    assert green[inside(counted, 0.85)].sum() > 20 and not green[inside(empty, 0.85)].any()
    assert orange[inside(counted, 1.6)].sum() > orange[inside(counted, 1.0)].sum()  # the tag reaches out of it
    from printgen.scan import annotate as drawing

    legends: list[list[str]] = []
    legend = drawing._legend
    monkeypatch.setattr(drawing, "_legend", lambda picture, lines, *rest: legends.append(lines) or legend(
        picture, lines, *rest))
    annotate(np.zeros_like(photo.image), [shown])
    annotate(np.zeros_like(photo.image), [replace(shown, readings=[
        *readings[:counted], replace(readings[counted], settled=False), *readings[counted + 1:]])])
    assert [COUNTED in lines for lines in legends] == [True, False]  # the legend says what green means, if shown


def test_the_legend_goes_beside_a_sheet_that_fills_the_pictures_height(photo_read: tuple[Sample, list[Result]]) -> None:
    """A sheet as tall as a wide picture leaves no room above or below it: the legend goes on the wider side
    beside it (here the left), not over the sheet's fields."""
    from dataclasses import replace

    from printgen.scan.annotate import ORANGE
    from printgen.scan.ink import State

    layout = sheet("qwixx-standard")
    _, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    sure = [replace(r, state=State.CROSSED if r.crossed else State.EMPTY, reason="") for r in read.readings]
    first = replace(sure[0], state=State.UNCERTAIN, reason="too much ink for an empty field")
    picture = np.zeros((600, 1600, 3), np.uint8)
    scale = 590 / layout.height  # type: ignore[union-attr]
    offset = 1600 - 80 - scale * layout.width  # type: ignore[union-attr]  (room for the row points on the right)
    placed = np.array([[scale, 0.0, offset], [0.0, scale, 5.0], [0.0, 0.0, 1.0]])
    shown = [replace(read, readings=[first, *sure[1:]], to_photo=placed)]
    drawn = annotate(picture, shown)
    moved = to_drawn(picture, shown, shown[0])  # (a margin above, for the title)
    left, top = round(moved[0, 2]), round(moved[1, 2])
    orange = np.all(drawn == np.array(ORANGE), axis=2)
    assert orange[:, :left - 8].sum() > 300  # the legend's text, left of the sheet
    rows = [row.lock[1] for row in sheet_geometry(layout).rows]
    below_title = round(top + scale * (rows[0] - 6))  # the first row's band and below
    fx, fy = np.round(_project(moved, [first.field.box[:2]])[0]).astype(int)
    orange[fy - 40:fy + 80, fx - 40:fx + 80] = False  # (the uncertain field's own outline and tag)
    assert not orange[below_title:, left + 8:].any()  # no legend over the sheet


def test_a_picture_of_several_sheets_keeps_titles_and_legends_off_every_sheet(reader) -> None:  # type: ignore[no-untyped-def]
    """A 2-up page: over a black picture, each sheet gets only a tag on its top left corner; the titles and
    legends go on a white band under the picture, so none lies over another sheet's fields."""
    photo = sample([sheet("qwixx-big-points")], 12, two_up=True, widest=1600)
    results = reader.read_image(photo.image, "page.jpg")
    readings = [r for r in results if isinstance(r, SheetReading)]
    assert len(readings) == 2
    scale = min(1.0, LONGEST / max(photo.image.shape[:2]))
    height = round(photo.image.shape[0] * scale)
    drawn = annotate(np.zeros_like(photo.image), results)
    assert drawn.shape[0] > height  # the band
    band = drawn[height:]
    assert float(np.mean(band >= 250)) > 0.5 and float(np.mean(band < 250)) > 0.01  # white, with its lines
    for reading in readings:  # inside each sheet, away from its corner's tag: nothing but outlines and figures
        to_picture = np.diag([scale, scale, 1.0]) @ reading.to_photo
        layout = reading.layout
        middle = _project(to_picture, [(layout.width * 0.3, layout.height * 0.3),
                                       (layout.width * 0.7, layout.height * 0.7)])
        (x0, y0), (x1, y1) = np.floor(middle.min(axis=0)).astype(int), np.ceil(middle.max(axis=0)).astype(int)
        inside = drawn[y0:y1, x0:x1]
        assert float(np.mean(inside.min(axis=2) >= 250)) < 0.05  # no white tag of a title or legend there


def test_the_legend_of_a_sheet_that_fills_the_picture_goes_on_a_band_under_it(
        photo_read: tuple[Sample, list[Result]]) -> None:
    """A photo taken so close that the sheet fills it leaves no room off the sheet: the legend goes on a white
    band under the picture, where before it lay over the points table, the misthrows and the total."""
    from dataclasses import replace

    from printgen.scan.annotate import ORANGE
    from printgen.scan.ink import State

    layout = sheet("qwixx-standard")
    _, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    first = replace(read.readings[0], state=State.UNCERTAIN, reason="too much ink for an empty field")
    scale = 6.0
    picture = np.full((round(layout.height * scale), round((layout.width + 12.0) * scale), 3), 200,  # type: ignore[union-attr]
                      np.uint8)
    fills = np.diag([scale, scale, 1.0])  # the sheet from the picture's top to its foot
    shown = [replace(read, readings=[first, *read.readings[1:]], to_photo=fills)]
    drawn = annotate(picture, shown)
    top = round(to_drawn(picture, shown, shown[0])[1, 2])  # (a margin above, for the title)
    foot = top + picture.shape[0]
    assert drawn.shape[0] > foot
    orange = np.all(drawn == np.array(ORANGE), axis=2)
    under = top + round(sheet_geometry(layout).table_top * scale)  # the points table, misthrows, totals: no legend
    assert not orange[under:foot].any()
    assert orange[foot:].any()  # the legend, on the band


def test_a_sheet_that_fills_the_picture_to_its_edges_gets_its_figures_and_title_on_margins_added(
        photo_read: tuple[Sample, list[Result]]) -> None:
    """A rendered game (`simulate --render`) is the sheet and nothing else: the row points and the total go on
    a white margin added on the right, the title on one added above, none over a lock or a field (moved inside
    the picture, each row's points lay over its lock)."""
    from dataclasses import replace

    layout = sheet("qwixx-standard")
    _, results = photo_read
    (read,) = [r for r in results if isinstance(r, SheetReading)]
    scale = 5.0
    picture = np.full((round(layout.height * scale), round(layout.width * scale), 3), 128, np.uint8)  # type: ignore[union-attr]
    shown = [replace(read, to_photo=np.diag([scale, scale, 1.0]))]
    drawn = annotate(picture, shown)
    placed = to_drawn(picture, shown, shown[0])
    left, top = round(placed[0, 2]), round(placed[1, 2])
    assert top > 0 and drawn.shape[1] >= picture.shape[1] + left + 30  # (a figure's tag is over 30 pixels wide)
    assert float(np.mean(drawn[:top] == 255)) < 0.99  # the title, on the margin above
    sheet_part = drawn[top:top + picture.shape[0], left:left + picture.shape[1]]
    for row in sheet_geometry(layout).rows:  # each lock as drawn: no white tag over it
        cx, cy, r = (round(v * scale) for v in row.lock)
        assert not np.all(sheet_part[cy - r:cy + r, cx - r:cx + r] == 255, axis=2).any(), row
    dark = np.all(np.abs(drawn.astype(int) - np.array(DARK[::-1])) < 40, axis=2)
    assert dark[top:top + picture.shape[0], left + picture.shape[1]:].mean() > 0.01  # the figures, beside it
