"""The score-sheet builder: a validated sheet layout, a language and options in, the blank sheet's page description out.

The static sheet is one Symbol (drawn once per file); what changes from
sheet to sheet — lucky numbers, a shuffled number order — comes from
`sheet_extras` and is drawn on top. Scan marks (corner markers and the
sheet's code, for `printgen score`) are part of the static sheet, except a
code that carries per-sheet data, which `sheet_extras` stamps. Everything printed comes from the
layout, which `printgen check` holds against the rules engine.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from printgen.builders.geometry import (
    BADGE,
    BONUS_LINES,
    BONUS_TEXT,
    CORNER,
    HEADER_AREA,
    MARGIN,
    PANEL_PAD,
    TABLE_LINE,
    RowGeometry,
    SheetGeometry,
    bonus_text_span,
    sheet_geometry,
)
from printgen.builders.shapes import (
    INK,
    WHITE,
    bonus_badge,
    colour_shape,
    lock_badge,
    lock_symbol,
    safe_id,
)
from printgen.colours import MIN_CONTRAST, edge, ink, legibility, tint
from printgen.fonts import Weight, cap_height, capitals, fit_lines, fit_size, text_width
from printgen.labels import catalogue
from printgen.page import (
    Circle,
    Element,
    Item,
    Line,
    Mm,
    Paint,
    Path,
    Rect,
    Symbol,
    Text,
    Use,
)

if TYPE_CHECKING:  # the kinds use the builders; the builders only name the kinds' models
    from printgen.kinds.score_sheets import ScoreSheetLayout

GREY = "#8a8a8a"
LOCK_BADGE: Mm = 3.2
"""A lock number's padlock badge (Big Points: either of two numbers locks the row), on its cell's corner."""
LOCK_BADGE_INSET: Mm = 0.5
"""From the cell's top-right corner to the badge's centre, inwards: like Bonus B's badges, it sits on the
corner, clear of the number (which keeps the size and place of every other number)."""
LINE = "#b8b8b8"
LUCKY_FILL = "#fff1b8"
LUCKY_STROKE = "#b8860b"


def build_sheet(layout: ScoreSheetLayout, lang: str = "en", symbols: bool = False,
                static_numbers: bool = True, scan_marks: bool = True) -> Item:
    """The blank sheet of `layout` with labels in `lang` as one reusable item (drawn once per process: the
    rules check, the build and the reader share it; layouts and items are frozen).

    `symbols` adds a shape per colour for colour-blind players;
    `static_numbers=False` leaves the numbers to `sheet_extras` (shuffled sheets);
    `scan_marks` adds the corner markers and, when every sheet is alike, the code.
    """
    return _sheet(layout, lang, symbols, static_numbers, scan_marks)


@cache
def _sheet(layout: ScoreSheetLayout, lang: str, symbols: bool, static_numbers: bool, scan_marks: bool) -> Item:
    """`build_sheet`, drawn."""
    labels = catalogue(lang)
    geometry = sheet_geometry(layout)
    elements: list[Element] = [Rect(0, 0, layout.width, layout.height, Paint(fill=WHITE))]
    elements += _header(layout, geometry, labels)
    for index, row in enumerate(geometry.rows):
        elements += _row(layout, index, row, symbols, static_numbers)
    elements += _bonus_row(layout, geometry, labels["bonus"])
    elements += _bonus_boxes(geometry, labels)
    elements += _points_table(layout, geometry, labels)
    elements += _penalties(layout, geometry, labels)
    elements += _totals(layout, geometry, labels[layout.totals_label], symbols)
    if scan_marks:
        elements += _scan_marks(layout, lang, symbols, static_numbers)
    variant = (f"-{lang}" + ("-symbols" if symbols else "") + ("" if static_numbers else "-open")
               + ("" if scan_marks else "-unmarked"))
    art = Symbol(f"sheet-{safe_id(layout.name)}{variant}", layout.width, layout.height, tuple(elements))
    return Item(layout.name, art)


def sheet_extras(layout: ScoreSheetLayout, lucky: tuple[int, int] | None = None,
                 numbers: tuple[tuple[int, ...], ...] | None = None,
                 code: tuple[str, bool] | None = None) -> tuple[Element, ...]:
    """One sheet's own data: its lucky numbers in their circles, its shuffled numbers in their cells.

    `code` (the sheet's language and symbols flag) adds the sheet's own code when it has data of its own.
    """
    geometry = sheet_geometry(layout)
    texts: list[Element] = []
    if code is not None and (lucky is not None or numbers is not None):
        from printgen.marks.codes import SheetCode, layout_version
        from printgen.marks.markers import code_mark

        own = SheetCode(layout.name, layout_version(layout, geometry), code[0], code[1], lucky, numbers)
        texts.append(code_mark(own.text(layout), geometry.code))
    if lucky is not None:
        for (cx, cy, r), number in zip(geometry.lucky, lucky):
            texts.append(centred_text(cx, cy, str(number), r * 1.05, INK))
    if numbers is not None:
        for index, order in enumerate(numbers):
            texts += number_texts(layout, geometry.rows[index], index, order)
    return tuple(stamp(t) if isinstance(t, Text) else t for t in texts)


def stamp(text: Text) -> Use:
    """`text` as a placement of a reusable symbol: each distinct text is drawn once per file, however
    many sheets of a pad carry it (a page then only places prepared forms)."""
    symbol = _stamp_symbol(text.text, round(text.size, 3), text.fill, text.weight)
    x0, y0, _, _ = text.bounds()
    return Use(symbol, x0 - 0.5, y0 - 0.5)


@cache
def _stamp_symbol(text: str, size: Mm, fill: str, weight: Weight) -> Symbol:
    width = text_width(text, weight, size)
    glyph = Text(0.5, 0.5 + 0.75 * size, text, size, fill, weight, "start")
    name = f"stamp-{safe_id(text)}-{size:g}-{fill.lstrip('#')}-{weight}".replace(".", "_")
    return Symbol(name, width + 1.0, size + 1.0, (glyph,))


def _scan_marks(layout: ScoreSheetLayout, lang: str, symbols: bool, static_numbers: bool) -> list[Element]:
    """The corner markers, and the code when every sheet of a pad is alike."""
    from printgen.marks.codes import SheetCode, layout_version
    from printgen.marks.markers import code_mark, registration_marks

    geometry = sheet_geometry(layout)
    elements = registration_marks(geometry.markers)
    if static_numbers and not layout.lucky_numbers:
        code = SheetCode(layout.name, layout_version(layout, geometry), lang, symbols)
        elements.append(code_mark(code.text(layout), geometry.code))
    return elements


def centred_text(x: Mm, cy: Mm, text: str, size: Mm, fill: str, weight: Weight = "bold") -> Text:
    """Text whose digits/capitals are centred on (x, cy)."""
    return Text(x, cy + cap_height(weight) * size / 2, text, size, fill, weight, "middle")


def place(symbol: Symbol, cx: Mm, cy: Mm, size: Mm) -> Use:
    """`symbol` scaled to `size` mm wide, centred on (cx, cy)."""
    scale = size / symbol.width
    return Use(symbol, cx - size / 2, cy - symbol.height * scale / 2, scale)


def number_size(row: RowGeometry, numbers: tuple[int, ...]) -> Mm:
    """The em size that fits the widest of `numbers` into the row's cells."""
    side = row.cells[0][2]
    widest = max((str(n) for n in numbers), key=lambda t: text_width(t, "bold", 1.0))
    return min(side * 0.5 / cap_height("bold"), fit_size(widest, "bold", 100.0, side * 0.8))


def number_texts(layout: ScoreSheetLayout, row: RowGeometry, index: int,
                 numbers: tuple[int, ...]) -> list[Element]:
    """The numbers of row `index` in their cells, each in its cell's colour."""
    spec = layout.rows[index]
    size = number_size(row, numbers)
    return [centred_text(x + side / 2, y + side / 2, str(number), size, ink(layout.colour(colour)))
            for (x, y, side), number, colour in zip(row.cells, numbers, spec.cell_colours)]


NAME_LINE: Mm = 40.0
"""Least length of the line players write their name on."""
TITLE_SIZE: Mm = 7.0
TITLE_GAP: Mm = 0.3


def title_size(layout: ScoreSheetLayout, labels: dict[str, str]) -> Mm:
    """The title's em size: 7 mm, or smaller so the name label and NAME_LINE still fit beside it (a layout
    whose title would need less than printgen's minimum text size is refused by `printgen check`)."""
    room = _line_end(layout, labels) - CORNER - text_width(labels["name"], "regular", 3.4) - 12.0 - NAME_LINE
    letters = capitals(layout.title)
    per_mm = sum(text_width(letter, "bold", 1.0) for letter in letters)
    return min(TITLE_SIZE, (room - TITLE_GAP * len(letters)) / per_mm) if per_mm else TITLE_SIZE


def _line_end(layout: ScoreSheetLayout, labels: dict[str, str]) -> Mm:
    """Where the name line ends: before the corner marker's room, or before the lucky numbers."""
    geometry = sheet_geometry(layout)
    if not geometry.lucky:
        return layout.width - CORNER
    first = geometry.lucky[0]
    label = labels["lucky_numbers"]
    return first[0] - first[2] - 2.0 - text_width(label, "bold", fit_size(label, "bold", 3.2, 40.0)) - 5.0


def _header(layout: ScoreSheetLayout, geometry: SheetGeometry, labels: dict[str, str]) -> list[Element]:
    elements: list[Element] = []
    size = title_size(layout, labels)
    baseline = geometry.title_baseline
    x = CORNER
    inks = [ink(layout.colour(row.colour)) for row in layout.rows]
    for i, letter in enumerate(capitals(layout.title)):
        elements.append(Text(x, baseline, letter, size, inks[i % len(inks)], "bold"))
        x += text_width(letter, "bold", size) + TITLE_GAP
    line_end = _line_end(layout, labels)
    if geometry.lucky:
        first = geometry.lucky[0]
        label = labels["lucky_numbers"]
        label_size = fit_size(label, "bold", 3.2, 40.0)
        elements.append(Text(first[0] - first[2] - 2.0, baseline, label, label_size, LUCKY_STROKE, "bold", "end"))
        for cx, cy, r in geometry.lucky:
            elements.append(Circle(cx, cy, r, Paint(fill=LUCKY_FILL, stroke=LUCKY_STROKE, width=0.6)))
    name = labels["name"]  # with its colon, as the language writes it ("Nom :")
    label_x = max(x + 10.0, min(layout.width * 0.42, line_end - 40.0))
    elements.append(Text(label_x, baseline, name, 3.4, GREY, "regular"))
    line_x = label_x + text_width(name, "regular", 3.4) + 2.0
    elements.append(Line(line_x, baseline + 0.6, line_end, baseline + 0.6, Paint(stroke=LINE, width=0.3)))
    return elements


def _row(layout: ScoreSheetLayout, index: int, row: RowGeometry, symbols: bool,
         static_numbers: bool) -> list[Element]:
    spec = layout.rows[index]
    colours = spec.cell_colours
    elements = _band(layout, row, colours)
    x, _y, _, h = row.band
    cy = row.centre_y
    first = layout.colour(colours[0])
    if symbols:
        elements.append(place(colour_shape(colours[0], WHITE), x + HEADER_AREA / 2 - 0.2, cy - h * 0.2, 3.6))
        ax, half = x + 2.6, 1.6
        arrow_y = cy + h * 0.22
    else:
        ax, half = x + 2.2, 2.4
        arrow_y = cy
    elements.append(Path((("M", ax, arrow_y - half), ("L", ax + 1.5 * half, arrow_y), ("L", ax, arrow_y + half),
                          ("Z",)), _arrow_paint(first)))
    for (cx, cy_, side), number, colour in zip(row.cells, spec.numbers, colours):
        printed = layout.colour(colour)
        frame = Paint(fill=tint(printed), stroke=INK, width=0.6) if number in spec.bonus else Paint(fill=tint(printed))
        elements.append(Rect(cx, cy_, side, side, frame, radius=1.6, writable=True))
        if symbols and spec.segments:
            elements.append(place(colour_shape(colour, ink(printed)), cx + 1.5, cy_ + 1.5, 1.8))
        kind = spec.bonus_kind(number)
        if kind is not None:
            elements.append(place(bonus_badge(kind), cx + side - 0.6, cy_ + 0.6, 3.8))
        if number in spec.locks_with and len(spec.locks_with) > 1:  # either of two numbers locks the row
            elements.append(place(lock_badge(ink(printed)), cx + side - LOCK_BADGE_INSET, cy_ + LOCK_BADGE_INSET,
                                  LOCK_BADGE))
    if static_numbers:
        elements += number_texts(layout, row, index, spec.numbers)
    lx, ly, r = row.lock
    lock_colour = ink(layout.colour(spec.colour))
    elements.append(Circle(lx, ly, r, Paint(fill=WHITE), writable=True))
    marked = symbols and bool(spec.segments)  # the lock's colour is its last segment's: its shape, as on the cells
    nudge = 0.1 * r if marked else 0.0  # the padlock a little smaller and off the shape's corner, clear of it
    elements.append(place(lock_symbol(lock_colour), lx + nudge, ly + nudge, r * (1.2 if marked else 1.35)))
    if marked:
        shape = 0.36 * r
        offset = 0.55 * r
        elements.append(place(colour_shape(spec.colour, lock_colour), lx - offset, ly - offset, shape))
    return elements


def _arrow_paint(band: str) -> Paint:
    """The direction arrow: white, with a dark edge where white alone does not stand out from the band (a
    yellow or light green band, and in grey)."""
    if band == WHITE:
        return Paint(fill=INK)
    if legibility(WHITE, band) >= MIN_CONTRAST:
        return Paint(fill=WHITE)
    return Paint(fill=WHITE, stroke=ink(band), width=0.35)


def _band(layout: ScoreSheetLayout, row: RowGeometry, colours: tuple[str, ...]) -> list[Element]:
    """The coloured band behind a row, cut into segments where the cells change colour."""
    x, y, w, h = row.band
    runs: list[tuple[str, int, int]] = []
    for i, colour in enumerate(colours):
        if runs and runs[-1][0] == colour:
            runs[-1] = (colour, runs[-1][1], i)
        else:
            runs.append((colour, i, i))
    cells_left = row.cells[0][0] - (row.pitch - row.cells[0][2]) / 2
    elements: list[Element] = []
    for k, (colour, start, end) in enumerate(runs):
        x0 = x if k == 0 else cells_left + start * row.pitch
        x1 = x + w if k == len(runs) - 1 else cells_left + (end + 1) * row.pitch
        elements.append(_rounded(x0, y, x1 - x0, h, 2.5, k == 0, k == len(runs) - 1,
                                 Paint(fill=layout.colour(colour))))
    return elements


def _rounded(x: Mm, y: Mm, w: Mm, h: Mm, r: Mm, left: bool, right: bool, paint: Paint) -> Element:
    """A rectangle with rounded corners on the chosen ends."""
    if left and right:
        return Rect(x, y, w, h, paint, radius=r)
    k = 0.5523 * r
    commands: list[tuple[object, ...]] = []
    if left:
        commands += [("M", x + r, y)]
    else:
        commands += [("M", x, y)]
    if right:
        commands += [("L", x + w - r, y), ("C", x + w - r + k, y, x + w, y + r - k, x + w, y + r),
                     ("L", x + w, y + h - r), ("C", x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h)]
    else:
        commands += [("L", x + w, y), ("L", x + w, y + h)]
    if left:
        commands += [("L", x + r, y + h), ("C", x + r - k, y + h, x, y + h - r + k, x, y + h - r),
                     ("L", x, y + r), ("C", x, y + r - k, x + r - k, y, x + r, y)]
    else:
        commands += [("L", x, y + h)]
    commands.append(("Z",))
    return Path(tuple(commands), paint)


def _bonus_row(layout: ScoreSheetLayout, geometry: SheetGeometry, label: str) -> list[Element]:
    """The bonus row: a pale field in each bonus colour, outlined in it, and always with its colour's shape
    (a tint alone is no cue on a black-and-white printer); its label like the points table's."""
    if not geometry.bonus_row:
        return []
    first = geometry.bonus_row[0]
    size = fit_size(label, "regular", 2.8, first[0] - MARGIN - 1.5)
    elements: list[Element] = [
        Text(first[0] - 1.5, first[1] + first[3] / 2 + cap_height("regular") * size / 2, label, size, GREY,
             "regular", "end")
    ]
    for (x, y, w, h), colour in zip(geometry.bonus_row, layout.bonus_row):
        printed = layout.colour(colour)
        elements.append(Rect(x, y, w, h, Paint(fill=tint(printed, 0.55), stroke=edge(printed), width=0.6),
                             radius=1.4, writable=True))
        elements.append(place(colour_shape(colour, ink(printed)), x + w / 2, y + h / 2, h * 0.45))
    return elements


def _bonus_boxes(geometry: SheetGeometry, labels: dict[str, str]) -> list[Element]:
    """Bonus B's five boxes: each a frame holding the kind's badge, its rule text and, clear of both, the
    field to cross (a crossed field never covers a word)."""
    elements: list[Element] = []
    for kind, (panel, field) in enumerate(zip(geometry.bonus_panels, geometry.bonus_boxes), start=1):
        x, y, w, h = panel
        elements.append(Rect(x, y, w, h, Paint(fill=WHITE, stroke=LINE, width=0.35), radius=1.4))
        elements.append(place(bonus_badge(kind), x + PANEL_PAD + BADGE / 2, y + h / 2, BADGE))
        fx, fy, side, _ = field
        elements.append(Rect(fx, fy, side, side, Paint(fill=WHITE, stroke=INK, width=0.45), radius=1.2,
                             writable=True))
        text_x, text_end = bonus_text_span(panel)
        size, lines = fit_lines(labels[f"bonus_{kind}"], "regular", BONUS_TEXT, text_end - text_x, BONUS_LINES)
        top = y + h / 2 - (len(lines) * size * 1.15) / 2 + size * 0.85
        for i, line in enumerate(lines):
            elements.append(Text(text_x, top + i * size * 1.15, line, size, INK, "regular"))
    return elements


def _points_table(layout: ScoreSheetLayout, geometry: SheetGeometry, labels: dict[str, str]) -> list[Element]:
    table = layout.points_table
    header_w = 16.0
    cell = geometry.table_cell
    elements: list[Element] = []
    lines = ((labels["crosses"], table.crosses, "×"), (labels["points"], table.points, ""))
    for line_no, (label, values, suffix) in enumerate(lines):
        y = geometry.table_top + line_no * (TABLE_LINE + 1.0)
        cy = y + TABLE_LINE / 2
        label_size = fit_size(label, "regular", 2.8, header_w - 1.5)
        elements.append(Text(MARGIN + header_w - 1.5, cy + cap_height("regular") * label_size / 2, label,
                             label_size, GREY, "regular", "end"))
        size = min(fit_size(f"{value}{suffix}", "bold", 3.6, cell - 1.8) for value in values)
        for i, value in enumerate(values):
            cx = MARGIN + header_w + i * cell
            fill = WHITE if line_no else "#f1f1f1"
            elements.append(Rect(cx, y, cell - 0.8, TABLE_LINE, Paint(fill=fill, stroke=LINE, width=0.25), radius=1.0))
            elements.append(centred_text(cx + (cell - 0.8) / 2, cy, f"{value}{suffix}", size, INK))
    return elements


def _penalties(layout: ScoreSheetLayout, geometry: SheetGeometry, labels: dict[str, str]) -> list[Element]:
    boxes = geometry.penalty_boxes
    left, right = boxes[0][0], boxes[-1][0] + boxes[-1][2]
    label = labels[layout.penalties.label]
    label_size = fit_size(label, "bold", 3.2, right - left)
    elements: list[Element] = [Text((left + right) / 2, boxes[0][1] - 1.1, label, label_size, INK, "bold", "middle")]
    value = f"{layout.penalties.points:+d}".replace("-", "−")
    for x, y, w, h in boxes:
        elements.append(Rect(x, y, w, h, Paint(fill=WHITE, stroke=INK, width=0.45), radius=1.0, writable=True))
        elements.append(centred_text(x + w / 2, y + h * 0.72, value, 2.6, GREY, "regular"))
    return elements


def _totals(layout: ScoreSheetLayout, geometry: SheetGeometry, total_label: str, symbols: bool) -> list[Element]:
    elements: list[Element] = []
    colours = [row.colour for row in layout.rows]
    operators = ["+"] * (len(colours) - 1) + ["−", "="]
    for i, ((x, y, w, h), operator) in enumerate(zip(geometry.totals, operators)):
        if i < len(colours):
            printed = layout.colour(colours[i])
            paint = Paint(fill=tint(printed, 0.9), stroke=edge(printed), width=0.7)
        else:
            paint = Paint(fill=WHITE, stroke=INK, width=0.7)
        elements.append(Rect(x, y, w, h, paint, radius=1.6, writable=True))
        if symbols and i < len(colours):
            elements.append(place(colour_shape(colours[i], ink(printed)), x + 2.2, y + 2.2, 2.2))
        next_x = geometry.totals[i + 1][0]
        elements.append(centred_text((x + w + next_x) / 2, y + h / 2, operator, 5.0, INK))
    x, y, w, h = geometry.totals[-1]
    elements.append(Rect(x, y, w, h, Paint(fill=WHITE, stroke=INK, width=1.0), radius=1.6, writable=True))
    label_size = fit_size(total_label, "regular", 2.4, w - 2.0)
    elements.append(Text(x + 1.4, y + 1.2 + cap_height("regular") * label_size, total_label, label_size, GREY,
                         "regular"))
    return elements
