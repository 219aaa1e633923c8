"""The card builder: a deck layout, a card and its size in, the card's front and back faces (with bleed) out.

A face is a Symbol of the trimmed card plus `bleed` mm on every side; the
background art runs into the bleed, text keeps at least 3 mm inside the trim.
Number cards fill the card with their colour around a big number; jokers
show all four colours; every back is neutral and shows its card's number.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from printgen.builders.scoresheet import centred_text, place
from printgen.builders.shapes import colour_shape, safe_id
from printgen.colours import ink, readable_on, text_on
from printgen.fonts import cap_height, capitals, fit_size, text_width
from printgen.labels import catalogue
from printgen.page import Circle, Element, Group, Line, Mm, Paint, Rect, Symbol, Text
from printgen.rules.qwixx_deck import Card
from printgen.rules.variants import COLOURS

if TYPE_CHECKING:  # the kinds use the builders; the builders only name the kinds' models
    from printgen.kinds.decks import DeckLayout

WHITE = "#ffffff"
DARK = "#222222"
GUIDE = Paint(stroke="#ffffff", width=0.2, dash=(1.0, 1.0))
CORNER_RADIUS: Mm = 3.2
SAFE: Mm = 3.0


def deck_cards(layout: DeckLayout) -> list[Card]:
    """Every Qwixx card the layout prints, in print order (copies repeated)."""
    return [Card(number, colour if kind == "number" else None) for kind, colour, number in layout.cards()
            if number is not None]


Face = tuple[str, Symbol, Symbol]
"""A card's file name, its front and its back."""


def qwixx_faces(layout: DeckLayout, size: tuple[Mm, Mm], bleed: Mm, symbols: bool = False,
                corner_guide: bool = False, lang: str = "en") -> list[Face]:
    """Every card of a Qwixx deck, in print order, with its front and back (words in `lang`)."""
    return [(card.name, card_front(layout, card, size, bleed, symbols, corner_guide, lang),
             card_back(layout, card, size, bleed)) for card in deck_cards(layout)]


@cache
def card_front(layout: DeckLayout, card: Card, size: tuple[Mm, Mm], bleed: Mm, symbols: bool = False,
               corner_guide: bool = False, lang: str = "en") -> Symbol:
    """The front of `card`: its colour (or the four colours of a joker), a big number, corner indices."""
    w, h = size
    elements: list[Element] = []
    if card.colour is None:
        band = (h + 2 * bleed) / len(COLOURS)
        for i, colour in enumerate(COLOURS):
            elements.append(Rect(0, i * band, w + 2 * bleed, band + (0.01 if i < 3 else 0), Paint(
                fill=layout.colour(colour))))
        number_ink = DARK
    else:
        elements.append(Rect(0, 0, w + 2 * bleed, h + 2 * bleed, Paint(fill=layout.colour(card.colour))))
        number_ink = ink(layout.colour(card.colour))
    elements += number_disc(str(card.number), w, h, bleed, number_ink, ring=card.colour is None)
    top_ground = layout.colour(card.colour or COLOURS[0])
    bottom_ground = layout.colour(card.colour or COLOURS[-1])
    elements += corner_indices(str(card.number), w, h, bleed, readable_on(top_ground), readable_on(bottom_ground))
    if symbols and card.colour is not None:
        index = index_size(art_width(w, h))
        shape = place(colour_shape(card.colour, readable_on(top_ground)), bleed + SAFE + 1.0 + index * 0.3,
                      bleed + SAFE + index + 3.2, 3.2)
        elements += [shape, Group((shape,), w + 2 * bleed, h + 2 * bleed, rotate=180)]
    if card.colour is None:
        label = catalogue(lang)["joker"]
        art = art_width(w, h)
        size_ = fit_size(label, "bold", 3.6, art * 0.4)
        elements.append(Text(bleed + w / 2, bleed + h / 2 - art * 0.245, label, size_, DARK, "bold", "middle"))
    if corner_guide:
        elements.append(Rect(bleed, bleed, w, h, GUIDE, radius=CORNER_RADIUS))
    name = f"front-{card.name}-{lang}-{_size_id(size, bleed)}{'-s' if symbols else ''}{'-g' if corner_guide else ''}"
    return Symbol(safe_id(name), w + 2 * bleed, h + 2 * bleed, tuple(elements))


@cache
def card_back(layout: DeckLayout, card: Card, size: tuple[Mm, Mm], bleed: Mm) -> Symbol:
    """The back of `card`: neutral colour, the game's title and the card's number (no colour information)."""
    w, h = size
    back = layout.back
    elements: list[Element] = [Rect(0, 0, w + 2 * bleed, h + 2 * bleed, Paint(fill=back))]
    elements += number_disc(str(card.number), w, h, bleed, back, ring=False)
    index = readable_on(back)
    elements += corner_indices(str(card.number), w, h, bleed, index, index)
    title = capitals(layout.title)
    baseline = bleed + h - SAFE - 5.0
    elements.append(Text(bleed + w / 2, baseline, title, _back_title_size(layout, w, h), text_on(back, WHITE), "bold",
                         "middle"))
    return Symbol(safe_id(f"back-{card.number:02d}-{_size_id(size, bleed)}"), w + 2 * bleed, h + 2 * bleed,
                  tuple(elements))


@cache
def _back_title_size(layout: DeckLayout, w: Mm, h: Mm) -> Mm:
    """The em size of the title on every back of a `w` x `h` card: at most half the card wide, clear of the
    widest corner index of the deck (INDEX_CLEAR) and below the disc. (A title too small to read is warned of, as
    all text is.)"""
    widest = max((index_reach(str(card.number), w, h) for card in deck_cards(layout)), default=0.0)
    size = fit_size(capitals(layout.title), "bold", 4.2, max(min(w * 0.5, w - 2 * (widest + INDEX_CLEAR)), 0.0))
    room = h - SAFE - 5.0 - (h / 2 + disc_radius(w, h)) - TITLE_GAP  # (below the disc: on small cards it is low)
    return min(size, max(room, 0.0) / cap_height("bold"))


def number_disc(number: str, w: Mm, h: Mm, bleed: Mm, colour: str, ring: bool) -> list[Element]:
    """A card's number (or "1–9") in `colour` on a white disc in the middle of a `w` x `h` card, ringed in dark
    when `ring` (a card of no one colour)."""
    cx, cy = bleed + w / 2, bleed + h / 2
    r = disc_radius(w, h)
    elements: list[Element] = [Circle(cx, cy, r, Paint(fill=WHITE, stroke=DARK if ring else None, width=0.6))]
    size = min(r * 1.05 / cap_height("bold"), fit_size(number, "bold", 200.0, r * 1.55))
    elements.append(centred_text(cx, cy, number, size, colour))
    return elements


def disc_radius(w: Mm, h: Mm) -> Mm:
    """The radius of the white disc in the middle of a `w` x `h` card."""
    return art_width(w, h) * 0.36


TITLE_GAP: Mm = 0.8
"""Between a back's disc and the title under it."""
INDEX_CLEAR: Mm = 1.0
"""Between a back's title and the corner indices at its sides (what crowds closer than 0.5 mm is refused)."""


def index_size(w: Mm) -> Mm:
    """The em size of the corner index of a card whose art is `w` wide."""
    return w * 0.13


PORTRAIT = 63.5 / 88.9
"""A poker card's width over its height: the proportions the cards' art is drawn for."""


def art_width(w: Mm, h: Mm) -> Mm:
    """The width a card's art (its centre figure, indices, words) is drawn for: the card's own, or on a card wider
    than a poker card's proportions (landscape, square) the width of a poker-proportioned card of its height, so
    the art stays inside the card and clear of its neighbours."""
    return min(w, h * PORTRAIT)


def index_reach(text: str, w: Mm, h: Mm) -> Mm:
    """How far in from a `w` x `h` card's side its corner index `text` reaches."""
    return SAFE + 1.0 + text_width(text, "bold", index_size(art_width(w, h)))


def corner_indices(text: str, w: Mm, h: Mm, bleed: Mm, top: str, bottom: str) -> list[Element]:
    """The card's index in the top-left corner (in colour `top`) and, turned 180°, in the bottom-right (`bottom`)."""
    size = index_size(art_width(w, h))
    upright = Text(bleed + SAFE + 1.0, bleed + SAFE + 1.0 + cap_height("bold") * size, text, size, top, "bold",
                   "start")
    turned: list[Element] = [Text(upright.x, upright.y, text, size, bottom, "bold", "start")]
    elements: list[Element] = [upright]
    if text in ("6", "9"):  # underlined, as on playing cards, so a turned 6 never reads as a 9
        width = text_width(text, "bold", size)
        y = upright.y + 0.14 * size
        elements.append(Line(upright.x, y, upright.x + width, y, Paint(stroke=top, width=0.08 * size)))
        turned.append(Line(upright.x, y, upright.x + width, y, Paint(stroke=bottom, width=0.08 * size)))
    return [*elements, Group(tuple(turned), w + 2 * bleed, h + 2 * bleed, rotate=180)]


def _size_id(size: tuple[Mm, Mm], bleed: Mm) -> str:
    return f"{size[0]:g}x{size[1]:g}b{bleed:g}".replace(".", "_")
