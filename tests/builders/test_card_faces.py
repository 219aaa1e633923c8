"""Card faces: the deck's composition, fronts in their colours, every back with its own number."""

from __future__ import annotations

from dataclasses import replace

from printgen import layouts
from printgen.builders.card_faces import card_back, card_front, deck_cards
from printgen.fonts import cap_height
from printgen.kinds import DeckLayout
from printgen.page import Item
from printgen.render.recording import record
from printgen.rules import qwixx
from printgen.rules.qwixx_deck import Card


def deck() -> DeckLayout:
    layout = layouts.load("qwixx-cards-deck")
    assert isinstance(layout, DeckLayout)
    return layout


def test_composition_equals_the_rules_deck() -> None:
    cards = deck_cards(deck())
    key = lambda c: (c.number, c.colour or "")
    assert sorted(cards, key=key) == sorted(qwixx.qwixx_deck(jokers=True), key=key)
    assert sum(c.is_joker for c in cards) == 11


def test_front_fills_the_bleed_with_its_colour_and_shows_its_number() -> None:
    layout = deck()
    face = card_front(layout, Card(7, "green"), (63.5, 88.9), 3.0)
    drawn = record(Item("x", face).as_page())
    background = drawn[0]
    assert background.bounds == (0, 0, 69.5, 94.9) and background.fill == layout.colour("green")
    numbers = [d for d in drawn if d.kind == "text"]
    assert [d.text for d in numbers] == ["7", "7", "7"]
    for d in numbers:  # digits keep 3 mm inside the trim (the safe area): bleed 3 + safe 3
        top = d.y - cap_height("bold") * d.size
        assert d.bounds[0] >= 6.0 and d.bounds[2] <= 69.5 - 6.0 and top >= 6.0 and d.y <= 94.9 - 6.0


def test_joker_shows_all_four_colours() -> None:
    layout = deck()
    drawn = record(Item("x", card_front(layout, Card(9), (63.5, 88.9), 3.0)).as_page())
    fills = {d.fill for d in drawn if d.kind == "rect"}
    assert {layout.colour(c) for c in qwixx.COLOURS} <= fills
    assert "JOKER" in [d.text for d in drawn]


def test_every_back_is_neutral_with_its_number() -> None:
    layout = deck()
    for card in (Card(4, "red"), Card(4, "blue"), Card(4)):
        drawn = record(Item("x", card_back(layout, card, (63.5, 88.9), 3.0)).as_page())
        assert drawn[0].fill == layout.back
        assert all(d.fill not in {layout.colour(c) for c in qwixx.COLOURS} for d in drawn)
        assert [d.text for d in drawn if d.kind == "text"][:3] == ["4", "4", "4"]
    same = {card_back(layout, c, (63.5, 88.9), 3.0).id for c in (Card(4, "red"), Card(4, "blue"), Card(4))}
    assert len(same) == 1  # no back gives its colour away


def test_a_backs_title_stays_below_its_disc_on_small_cards() -> None:
    """On 30 x 40 mm cards the title lay over the disc, grey on white (a helper's custom deck)."""
    layout = deck()
    for size in ((63.5, 88.9), (44.0, 58.0), (30.0, 40.0)):
        drawn = record(Item("x", card_back(layout, Card(7), size, 3.0)).as_page())
        (disc,) = [d for d in drawn if d.kind == "circle"]
        (title,) = [d for d in drawn if d.kind == "text" and d.text == "QWIXX"]
        assert title.y - cap_height("bold") * title.size >= disc.bounds[3], (size, disc.bounds)


def test_a_backs_long_title_is_made_smaller_to_keep_clear_of_the_widest_corner_index() -> None:
    """An 11-letter title crowded the turned index "10" on 44 x 63 mm cards, and the deck was refused at a card
    size the README offers (a designer's deck); every back prints its title at one size."""
    layout = replace(deck(), title="Kartenglück")
    sizes = set()
    for number in range(2, 13):
        drawn = record(Item("x", card_back(layout, Card(number), (44.0, 63.0), 3.0)).as_page())
        (title,) = [d for d in drawn if d.kind == "text" and d.text == "KARTENGLÜCK"]
        turned = [d for d in drawn if d.kind == "text" and d.text == str(number)][-1]
        assert turned.bounds[0] - title.bounds[2] >= 0.5 or turned.bounds[1] >= title.bounds[3], number
        sizes.add(title.size)
    assert len(sizes) == 1 and sizes.pop() * 72 / 25.4 >= 6.0


def test_the_art_of_every_face_stays_inside_landscape_and_square_cards() -> None:
    from printgen.kinds.decks import deck_faces

    for name in ("qwixx-cards-deck", "one-to-9-deck"):
        layout = layouts.load(name)
        assert isinstance(layout, DeckLayout)
        for w, h in ((100.0, 50.0), (88.9, 63.5), (70.0, 70.0), (63.5, 88.9)):
            bleed = 3.0
            for card, front, back in deck_faces(layout, (w, h), bleed):
                for face in (front, back):
                    for drawn in record(Item(card, face).as_page()):
                        x0, y0, x1, y1 = drawn.bounds
                        if drawn.kind == "rect" and (min(x0, y0) <= 0.01 or x1 >= w + 2 * bleed - 0.02
                                                     or y1 >= h + 2 * bleed - 0.02):
                            continue  # the card's ground (a joker's colours), running into the bleed
                        inside = bleed - 0.01 <= x0 and x1 <= bleed + w + 0.01 and bleed - 0.01 <= y0 \
                            and y1 <= bleed + h + 0.01
                        assert inside, (name, (w, h), card, drawn.kind, drawn.text, drawn.bounds)
