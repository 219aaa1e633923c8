"""One to 9 material: a deck, board or token layout in, card faces, the board and star tokens as page descriptions out.

Stars are the game's motif, and on a card's face only the +3 cards show one
(the rules' bonus lasts while a +3 card's star shows on the discard pile):
number cards and jokers carry their number on a white disc; the back is a star
over the title. Every figure the
board prints (run lengths, stars, bonuses) comes from printgen.rules.one_to_nine.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from printgen.builders.card_faces import (
    SAFE,
    Face,
    art_width,
    corner_indices,
    disc_radius,
    index_reach,
    index_size,
    number_disc,
)
from printgen.builders.scoresheet import centred_text, place
from printgen.builders.shapes import colour_shape, safe_id
from printgen.colours import ink, mix, readable_on, text_on, tint
from printgen.fonts import balanced, cap_height, capitals, fit_size, text_width
from printgen.labels import catalogue
from printgen.measure import clashes
from printgen.page import Circle, Element, Group, Item, Mm, Paint, Path, Rect, Symbol, Text
from printgen.rules import one_to_nine

if TYPE_CHECKING:  # the kinds use the builders; the builders only name the kinds' models
    from printgen.kinds.boards import BoardLayout
    from printgen.kinds.decks import DeckLayout
    from printgen.kinds.token_sheets import TokenLayout

WHITE = "#ffffff"
DARK = "#222222"
CREAM = "#fff8e6"
FIELD_PAD: Mm = 3.0
FIELD_GAP: Mm = 3.0
BOARD_MARGIN: Mm = 10.0
FIELD_SHAPE: Mm = 11.0
"""The colour's shape in the corner of each board field: told apart at table distance, and in grey."""
FIELD_INDEX: Mm = 6.0
"""The small number in the other corner of each board field."""
CORNER_ROOM: Mm = 4.0 + FIELD_SHAPE + 1.0
"""How far a board field's corner shape (and index) reach in from its top, with a millimetre to spare: the big
number keeps as clear of them at the bottom as at the top."""
MIN_FIELD_NUMBER: Mm = 10.0
"""Least height of a board field's big number (its capitals): a smaller field leaves no room for it."""


def field_number(field: tuple[Mm, Mm]) -> Mm:
    """The cap height of the big number in a board field of `field` (w, h): 55 % of its width, as low as the
    field's height allows clear of the corners (a wide, low field)."""
    return min(field[0] * 0.55, field[1] - 2 * CORNER_ROOM)
REFERENCE_TEXT: Mm = 8.5
"""The scoring reference's type size (24 pt), read from across the table."""


def star(cx: Mm, cy: Mm, r: Mm, paint: Paint, points: int = 5, inner: float = 0.45) -> Path:
    """A star with `points` points, outer radius `r`, centred on (cx, cy), pointing up."""
    commands: list[tuple[object, ...]] = []
    for i in range(2 * points):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / points
        commands.append(("M" if i == 0 else "L", cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    commands.append(("Z",))
    return Path(tuple(commands), paint)


def _star_points(cx: Mm, cy: Mm, r: Mm, points: int = 5, inner: float = 0.45) -> list[tuple[Mm, Mm]]:
    corners = []
    for i in range(2 * points):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / points
        corners.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return corners


def _inside(x: Mm, y: Mm, polygon: list[tuple[Mm, Mm]]) -> bool:
    """Whether (x, y) lies inside `polygon` (even-odd rule)."""
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


PILL_PAD: Mm = 1.8
"""Room round the words in a number joker's white pill."""
LABEL_CLEAR: Mm = 1.0
"""Least room between a card's words and its disc, its coloured dots or its turned corner index."""
STAR_CLEAR: Mm = 1.2
"""Least room between a number in a star and the star's edge."""


def star_text_size(text: str, cx: Mm, cy: Mm, r: Mm, size: Mm, inner: float = 0.45) -> Mm:
    """`size`, shrunk until `text` (bold, its capitals centred on (cx, cy)) keeps STAR_CLEAR from the edge of
    the star of radius `r` round (cx, cy) on every side."""
    polygon = _star_points(cx, cy, r, inner=inner)
    while size > 1.0:
        half_w = text_width(text, "bold", size) / 2 + STAR_CLEAR
        half_h = cap_height("bold") * size / 2 + STAR_CLEAR
        box = [(cx + fx * half_w, cy + fy * half_h) for fx in (-1, 0, 1) for fy in (-1, 0, 1)]
        notch = any(abs(x - cx) < half_w and abs(y - cy) < half_h for x, y in polygon)  # (an inner corner poking in)
        if all(_inside(x, y, polygon) for x, y in box) and not notch:
            return size
        size *= 0.97
    return size


def nine_faces(layout: DeckLayout, size: tuple[Mm, Mm], bleed: Mm, symbols: bool, corner_guide: bool,
               lang: str = "en") -> list[Face]:
    """Every One to 9 card of the layout, in print order, with its front and the common back."""
    back = nine_back(layout, size, bleed)
    faces = []
    for kind, colour, number in layout.cards():
        card = one_to_nine.Card(kind, number, colour)
        faces.append((card.name, nine_front(layout, card, size, bleed, symbols, corner_guide, lang), back))
    return faces


@cache
def nine_front(layout: DeckLayout, card: one_to_nine.Card, size: tuple[Mm, Mm], bleed: Mm, symbols: bool,
               corner_guide: bool, lang: str = "en") -> Symbol:
    """The front of one One to 9 card (its words in `lang`)."""
    labels = catalogue(lang)
    w, h = size
    full = (w + 2 * bleed, h + 2 * bleed)
    cx, cy = bleed + w / 2, bleed + h / 2
    art = art_width(w, h)
    r = art * 0.40
    elements: list[Element] = []
    label = ""
    if card.kind == "number":
        colour = layout.colour(card.colour or "")
        elements.append(Rect(0, 0, *full, Paint(fill=colour)))
        elements += number_disc(str(card.number), w, h, bleed, ink(colour), ring=False)
        index, index_ink = str(card.number), (readable_on(colour), readable_on(colour))
    elif card.kind == "number-joker":
        half_w, half_h = full[0] / 2, full[1] / 2
        for i, name in enumerate(one_to_nine.COLOURS):
            elements.append(Rect((i % 2) * half_w, (i // 2) * half_h, half_w + 0.01, half_h + 0.01,
                                 Paint(fill=layout.colour(name))))
        elements += number_disc(str(card.number), w, h, bleed, DARK, ring=True)
        corners = (readable_on(layout.colour(one_to_nine.COLOURS[0])), readable_on(layout.colour(one_to_nine.COLOURS[-1])))
        index, index_ink, label = str(card.number), corners, labels["any_colour"]
    elif card.kind == "joker":
        elements.append(Rect(0, 0, *full, Paint(fill=DARK)))
        for i, name in enumerate(one_to_nine.COLOURS):
            angle = -math.pi / 2 + i * math.pi / 2 + math.pi / 4
            elements.append(Circle(cx + r * 1.12 * math.cos(angle), cy + r * 1.12 * math.sin(angle), art * 0.06,
                                   Paint(fill=layout.colour(name))))
        elements += number_disc("1–9", w, h, bleed, DARK, ring=False)
        index, index_ink, label = "J", (WHITE, WHITE), labels["joker"]
    else:
        gold = layout.colour("star")
        elements.append(Rect(0, 0, *full, Paint(fill=CREAM)))
        elements.append(star(cx, cy, r, Paint(fill=gold, stroke=ink(gold), width=0.6)))
        word = star_text_size("+3", cx, cy + r * 0.08, r - 0.3, r * 0.5 / cap_height("bold"))
        elements.append(centred_text(cx, cy + r * 0.08, "+3", word, DARK))
        index, index_ink, label = "+3", (text_on(CREAM, ink(gold)),) * 2, labels["draw_three"]
    elements += corner_indices(index, w, h, bleed, *index_ink)
    if label:  # under the disc (and a joker's dots), between the corner indices
        pad = PILL_PAD if card.kind == "number-joker" else 0.0
        between = w - 2 * (index_reach(index, w, h) + LABEL_CLEAR) - 2 * pad
        size_ = fit_size(label, "bold", 4.0, max(0.0, min(w * 0.6, between)))
        colour = WHITE if card.kind == "joker" else DARK
        half = cap_height("bold") * size_ / 2 + pad
        dots = r * 1.12 * math.sqrt(0.5) + art * 0.06 if card.kind == "joker" else 0.0  # (how far down they reach)
        art_below = max(disc_radius(w, h) + 0.3, dots)
        middle = min(max(bleed + h - SAFE - 6.0, cy + art_below + LABEL_CLEAR + half), bleed + h - SAFE - half)
        if card.kind == "number-joker":  # a white pill round the words, as wide as they need plus room
            pill_w = text_width(label, "bold", size_) + 2 * pad
            elements.append(Rect(cx - pill_w / 2, middle - half, pill_w, 2 * half, Paint(fill=WHITE), radius=half))
        elements.append(centred_text(cx, middle, label, size_, colour))
    if symbols and card.kind == "number" and card.colour:
        below = max(SAFE + 14.0, SAFE + index_size(art) + 4.0)  # (under the index, which grows with the card)
        shape = place(colour_shape(card.colour, index_ink[0]), bleed + SAFE + 3.0, bleed + below, 3.4)
        elements += [shape, Group((shape,), full[0], full[1], rotate=180)]
    if corner_guide:
        elements.append(Rect(bleed, bleed, w, h, Paint(stroke="#888888", width=0.2, dash=(1.0, 1.0)), radius=3.2))
    name = (f"nine-front-{card.name}-{lang}-{w:g}x{h:g}b{bleed:g}{'-s' if symbols else ''}"
            f"{'-g' if corner_guide else ''}")
    return Symbol(safe_id(name), full[0], full[1], tuple(elements))


@cache
def nine_back(layout: DeckLayout, size: tuple[Mm, Mm], bleed: Mm) -> Symbol:
    """The common back: navy, a gold star and the title."""
    w, h = size
    gold = layout.colour("star")
    cx, cy = bleed + w / 2, bleed + h / 2
    title = capitals(layout.title)
    elements: list[Element] = [
        Rect(0, 0, w + 2 * bleed, h + 2 * bleed, Paint(fill=layout.back)),
        star(cx, cy - h * 0.06, art_width(w, h) * 0.34, Paint(fill=gold)),
        Text(cx, cy + h * 0.3, title, fit_size(title, "bold", 8.0, w * 0.7), WHITE, "bold", "middle"),
    ]
    faint = Paint(fill=mix(layout.back, gold, 0.5))
    corners = [star(cx + dx * (w / 2 - SAFE - 5), cy + dy * (h / 2 - SAFE - 5), 3.2, faint)
               for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1))]
    name = safe_id(f"nine-back-{w:g}x{h:g}b{bleed:g}")
    starred = Symbol(name, w + 2 * bleed, h + 2 * bleed, (*elements, *corners))
    # the small corner stars are left out of a card too small for them beside the big star and the title
    return starred if not clashes(Item("back", starred).as_page()) else Symbol(name, w + 2 * bleed, h + 2 * bleed,
                                                                              tuple(elements))


def board_item(layout: BoardLayout, card: tuple[Mm, Mm], lang: str = "en") -> Item:
    """The whole board for cards of size `card`: fields, pile places, title and scoring reference (in `lang`)."""
    labels = catalogue(lang)
    fw, fh = card[0] + 2 * FIELD_PAD, card[1] + 2 * FIELD_PAD
    cols, rows = len(layout.numbers), len(layout.colours)
    grid_w = cols * fw + (cols - 1) * FIELD_GAP
    grid_h = rows * fh + (rows - 1) * FIELD_GAP
    side_x = BOARD_MARGIN + grid_w + 12.0
    width = side_x + fw + BOARD_MARGIN
    title_h, reference_h = 20.0, reference_height(REFERENCE_TEXT)
    height = BOARD_MARGIN + title_h + grid_h + 8.0 + reference_h + BOARD_MARGIN
    top = BOARD_MARGIN + title_h
    elements: list[Element] = [Rect(0, 0, width, height, Paint(fill=layout.colour("board")))]
    elements += _board_title(layout, width, labels)
    for r, colour in enumerate(layout.colours):
        printed = layout.colour(colour)
        for c, number in enumerate(layout.numbers):
            x, y = BOARD_MARGIN + c * (fw + FIELD_GAP), top + r * (fh + FIELD_GAP)
            elements.append(Rect(x, y, fw, fh, Paint(fill=tint(printed, 0.72), stroke=printed, width=0.8,
                                                     dash=(3.0, 1.6)), radius=3.0))
            elements.append(centred_text(x + fw / 2, y + fh / 2, str(number), field_number((fw, fh)) / cap_height("bold"),
                                         text_on(tint(printed, 0.72), ink(printed))))
            elements.append(place(colour_shape(colour, ink(printed)), x + 4.0 + FIELD_SHAPE / 2,
                                  y + 4.0 + FIELD_SHAPE / 2, FIELD_SHAPE))
            elements.append(Text(x + fw - 4.5, y + 4.0 + cap_height("bold") * FIELD_INDEX, str(number), FIELD_INDEX,
                                 ink(printed), "bold", "end"))
    gold = layout.colour("star")
    places = ((labels["draw_pile"], labels["draw_pile_note"]),
              (labels["discard_pile"], labels["discard_pile_note"].format(count=one_to_nine.PLUS3_BONUS)),
              (labels["joker_cards"], labels["joker_cards_note"].format(count=one_to_nine.JOKER_CARDS)))
    for i, (label, note) in enumerate(places):
        y = top + i * (fh + FIELD_GAP)
        elements.append(Rect(side_x, y, fw, fh, Paint(fill=WHITE, stroke=DARK, width=0.6, dash=(3.0, 1.6)),
                             radius=3.0))
        elements.append(star(side_x + fw / 2, y + fh * 0.36, fw * 0.2, Paint(fill=tint(gold, 0.5))))
        elements.append(Text(side_x + fw / 2, y + fh * 0.7, label, fit_size(label, "bold", 5.0, fw - 8), DARK,
                             "bold", "middle"))
        note_size = 3.6
        for j, line in enumerate(balanced(note, "regular", note_size, fw - 8)):
            elements.append(Text(side_x + fw / 2, y + fh * 0.7 + 6.0 + j * note_size * 1.25, line,
                                 fit_size(line, "regular", note_size, fw - 6), DARK, "regular", "middle"))
    elements += _reference(layout, BOARD_MARGIN, top + grid_h + 8.0, width - 2 * BOARD_MARGIN, reference_h, labels)
    art = Symbol(safe_id(f"board-{layout.name}-{lang}-{card[0]:g}x{card[1]:g}"), width, height, tuple(elements))
    return Item(layout.name, art)


def _board_title(layout: BoardLayout, width: Mm, labels: dict[str, str]) -> list[Element]:
    elements: list[Element] = []
    x, baseline, size = BOARD_MARGIN, BOARD_MARGIN + 13.0, 16.0
    for i, letter in enumerate(capitals(layout.title)):
        colour = ink(layout.colour(layout.colours[i % len(layout.colours)])) if letter.strip() else DARK
        elements.append(Text(x, baseline, letter, size, colour, "bold"))
        x += text_width(letter, "bold", size) + 0.6
    goal = labels["goal"].format(count=one_to_nine.WIN)
    goal_size = fit_size(goal, "bold", 7.0, width - x - BOARD_MARGIN - 10.0)
    elements.append(Text(width - BOARD_MARGIN, baseline, goal, goal_size, DARK, "bold", "end"))
    return elements


def reference_lines(labels: dict[str, str]) -> list[tuple[str, str]]:
    """What each scoring pays, as (what you lay, what you get), in the language of `labels`; every figure
    comes from the rules engine's constants (printgen.rules.one_to_nine)."""
    lines = []
    lengths = sorted(one_to_nine.RUN_STARS)
    for stars in sorted(set(one_to_nine.RUN_STARS.values())):
        same = [str(n) for n in lengths if one_to_nine.RUN_STARS[n] == stars]
        runs = ", ".join(same[:-1]) + (f" {labels['reference_or']} " if len(same) > 1 else "") + same[-1]
        lines.append((labels["reference_run"].format(lengths=runs), stars_text(labels, stars, "small")))
    lines.append((labels["reference_foursome"].format(count=len(one_to_nine.COLOURS)),
                  stars_text(labels, one_to_nine.FOURSOME_STARS, "small")))
    lines.append((labels["reference_long_run"].format(first=one_to_nine.NUMBERS[0], last=one_to_nine.NUMBERS[-1]),
                  stars_text(labels, one_to_nine.LONG_RUN_BIG_STARS, "big")))
    lines.append((labels["reference_stand_in"], labels["reference_stand_in_gets"]))
    lines.append((labels["reference_plus3"],
                  labels["reference_plus3_gets"].format(stars=stars_text(labels, one_to_nine.PLUS3_BONUS, "small"))))
    return lines


def stars_text(labels: dict[str, str], count: int, size: str) -> str:
    """"1 small star", "3 big stars" ... in the language of `labels` (forms for 1 and for 2-4)."""
    return labels[f"{size}_star_{'one' if count == 1 else 'other'}"].format(count=count)


def reference_height(size: Mm) -> Mm:
    """The height of the scoring reference box for text of `size`: four lines a column."""
    return size * (1.5 + 3 * REFERENCE_PITCH + 0.9)


REFERENCE_PITCH = 1.6
"""Line pitch of the scoring reference, in em."""
LEADER_STEP: Mm = 2.2
"""Between two leader dots (they sit on one grid in a column, so they line up from line to line)."""


def _reference(layout: BoardLayout, x: Mm, y: Mm, w: Mm, h: Mm, labels: dict[str, str]) -> list[Element]:
    """The scoring reference: two columns, each as wide as its longest line needs, centred in the box; dot
    leaders lead the eye from each scoring to what it pays."""
    from printgen.page import Circle

    gold = layout.colour("star")
    elements: list[Element] = [Rect(x, y, w, h, Paint(fill=WHITE, stroke=DARK, width=0.5), radius=3.0)]
    lines = reference_lines(labels)
    per_column = -(-len(lines) // 2)
    columns = [lines[:per_column], lines[per_column:]]
    size = REFERENCE_TEXT

    def widths(at: Mm) -> list[Mm]:
        return [1.3 * at + max(text_width(what, "regular", at) for what, _ in column) + 5.0 * at
                + max(text_width(gets, "bold", at) for _, gets in column) for column in columns]

    gutter = 4.0 * size
    while sum(widths(size)) + gutter > w - 4.0 * size and size > 4.0:
        size *= 0.95
        gutter = 4.0 * size
    column_w = widths(size)
    left = x + (w - sum(column_w) - gutter) / 2
    for column, width in zip(columns, column_w):
        for row, (what, gets) in enumerate(column):
            baseline = y + 1.5 * size + row * REFERENCE_PITCH * size
            elements.append(star(left + 0.45 * size, baseline - size * 0.35, 0.45 * size, Paint(fill=gold)))
            elements.append(Text(left + 1.3 * size, baseline, what, size, DARK, "regular"))
            elements.append(Text(left + width, baseline, gets, size, DARK, "bold", "end"))
            start = left + 1.3 * size + text_width(what, "regular", size) + 0.8 * size
            end = left + width - text_width(gets, "bold", size) - 0.8 * size
            dot = left + LEADER_STEP * math.ceil((start - left) / LEADER_STEP)
            while dot <= end:
                elements.append(Circle(dot, baseline - 0.06 * size, 0.05 * size, Paint(fill="#8a8a8a")))
                dot += LEADER_STEP
        left += width + gutter
    return elements


TOKEN_BLEED: Mm = 1.5
"""Gold printed beyond each token's cutting circle, so a cut a little outside it leaves no white rim."""
TOKEN_CUT = Paint(stroke="#5a4a2a", width=0.2, dash=(1.2, 0.9))
"""Each token's cutting circle: thin and dashed (a cut a little inside it leaves nothing of it)."""


def token_items(layout: TokenLayout) -> list[Item]:
    """Every token of the layout, in order (each kind drawn once and repeated): its art with TOKEN_BLEED all
    round and its cutting circle (the path a cutting machine follows in its SVG)."""
    from printgen.page import Circle

    items = []
    for group in layout.groups:
        art = token_symbol(layout, group.kind, group.diameter)
        middle = group.diameter / 2 + TOKEN_BLEED
        cut = Circle(middle, middle, group.diameter / 2, TOKEN_CUT)
        items += [Item(group.kind, art, (cut,))] * group.count
    return items


@cache
def token_symbol(layout: TokenLayout, kind: str, diameter: Mm) -> Symbol:
    """A round gold token with a white star (a big star has a second ring), its gold running TOKEN_BLEED
    beyond the token's edge."""
    from printgen.page import Circle

    r = diameter / 2
    c = r + TOKEN_BLEED
    gold, dark = layout.colour("star"), layout.colour("ink")
    elements: list[Element] = [Circle(c, c, c, Paint(fill=gold))]
    if kind == "big-star":
        elements.append(Circle(c, c, r * 0.86, Paint(stroke=WHITE, width=0.8)))
    elements.append(star(c, c + r * 0.04, r * (0.62 if kind == "big-star" else 0.72), Paint(fill=WHITE, stroke=dark,
                                                                                          width=0.3)))
    return Symbol(safe_id(f"token-{kind}-{diameter:g}-b{TOKEN_BLEED:g}"), 2 * c, 2 * c, tuple(elements))
