"""The deck kind: a layout file's keys in, the deck's model, options, rules check, names and print-and-play plan out.

A deck (Qwixx's cards, One to 9's) is printed as card fronts with their
backs behind them for duplex printing, or one card a page for a print shop,
and as one SVG per face. Its cards are checked against the deck its game's
rules prescribe (`printgen.games`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

from printgen.errors import UsageProblem
from printgen.files import Written, write_pages_pdf, written_folder
from printgen.games import GAMES, ONE_TO_NINE, Game
from printgen.kinds.common import (
    CommonOptions,
    Names,
    OptionProblem,
    Palette,
    Plan,
    hue_mismatches,
    other_card_size,
    read_card_size,
    read_game,
    read_palette,
    read_title,
    refuse_plotter_paper,
    require_colours,
    unused_colours,
)
from printgen.labels import catalogue
from printgen.output import atomic_folder
from printgen.page import Document, Hex, Item, Mm, Page
from printgen.printing.card_grid import (
    CARD_SIDES,
    CardGrid,
    alignment_pages,
    backs_cut,
    card_pages,
    card_size,
    mirror_axis,
    plan_cards,
)
from printgen.printing.paper import paper_size
from printgen.rules.variants import COLOURS
from printgen.tomlkeys import Fields

if TYPE_CHECKING:  # (the faces are drawn and measured when a deck is built, not to list layouts)
    from printgen.builders.card_faces import Face

NAME = "deck"
MISMATCHES_SHOWN = 4
"""At most this many lines name a deck's cards printed more or less often than its rules deck has them."""
CARD_KINDS = ("number", "joker", "number-joker", "draw3")
MULTICOLOURED = ("joker", "number-joker")
"""Card kinds drawn in all four colours of the game (COLOURS)."""


@dataclass(frozen=True, slots=True)
class CardGroup:
    """Cards of one kind ("number" in each of `colours`, "joker", "number-joker", "draw3"),
    each of `numbers` (or one numberless card) `copies` times."""

    kind: str
    colours: tuple[str, ...]
    numbers: tuple[int, ...]
    copies: int

    def cards(self) -> list[tuple[str, str | None, int | None]]:
        """Every card of the group as (kind, colour, number)."""
        numbers: tuple[int | None, ...] = self.numbers or (None,)
        colours: tuple[str | None, ...] = self.colours or (None,)
        return [(self.kind, c, n) for _ in range(self.copies) for c in colours for n in numbers]


@dataclass(frozen=True, slots=True)
class DeckLayout(Palette):
    """A deck of cards: its composition, the game whose rules deck it must equal, its palette and back colour."""

    name: str
    source: str
    title: str
    game: str
    card_size: str
    palette: tuple[tuple[str, Hex], ...]
    back: Hex
    groups: tuple[CardGroup, ...]
    description: str = ""
    kind: str = NAME

    def cards(self) -> list[tuple[str, str | None, int | None]]:
        """Every card the layout prints, in print order, as (kind, colour, number)."""
        return [card for group in self.groups for card in group.cards()]


@dataclass(frozen=True, slots=True)
class DeckOptions(CommonOptions):
    """Options of a print-and-play deck (and the common ones): cards a page (`per_page`, 1 for print-shop
    pages), colour `symbols`, `card_size`, `bleed` (default 3 mm), `gap` between cards (default None: each
    card its own bleed where the paper allows), `crop_marks`, a `corner_guide`, the `duplex` flip (long, short, off), a `backs_file` of its own, an `alignment_page`, the
    printer's `back_offset` and the `printer_margin` nothing may come closer to the paper's edge than."""

    per_page: int | None = None
    symbols: bool = False
    card_size: str | None = None
    bleed: float | None = None
    gap: float | None = None
    crop_marks: bool = True
    corner_guide: bool = False
    duplex: str = "long"
    backs_file: bool = False
    alignment_page: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    printer_margin: float = 5.0

    @property
    def card_bleed(self) -> float:
        """The bleed around each card (default 3 mm)."""
        return 3.0 if self.bleed is None else self.bleed


def deck_faces(layout: DeckLayout, size: tuple[Mm, Mm], bleed: Mm, symbols: bool = False,
               corner_guide: bool = False, lang: str = "en") -> list[Face]:
    """Every card of the deck, in print order, with its front and back (words in `lang`), drawn as its game's
    cards look."""
    if GAMES[layout.game] is ONE_TO_NINE:
        from printgen.builders.one_to_nine_pieces import nine_faces

        return nine_faces(layout, size, bleed, symbols, corner_guide, lang)
    from printgen.builders.card_faces import qwixx_faces

    return qwixx_faces(layout, size, bleed, symbols, corner_guide, lang)


class Decks:
    """The deck kind (see the module docstring)."""

    name = NAME
    noun = "a deck"
    plural = "decks"
    layout_type = DeckLayout
    options_type = DeckOptions

    def read(self, top: Fields, name: str, source: str) -> DeckLayout | None:
        """The deck described by the keys of `top` (problems noted in it)."""
        return _read(top, name, source)

    def game(self, layout: DeckLayout) -> Game:
        return GAMES[layout.game]

    def describe(self, layout: DeckLayout) -> str:
        """How many cards of what size, for `printgen list`."""
        width, height = card_size(layout.card_size)
        return f"{len(layout.cards())} {width:g} x {height:g} mm cards ({layout.card_size})"

    def mismatches(self, layout: DeckLayout) -> list[tuple[str, str]]:
        """Every card printed more or less often than its game's rules deck has it; then whether it draws."""
        printed = Counter(layout.cards())
        deck = GAMES[layout.game].deck
        rules = Counter(deck() if deck else [])
        cards = []
        for kind, colour, number in sorted(printed.keys() | rules.keys(), key=_card_order):
            key = (kind, colour, number)
            if printed[key] != rules[key]:
                what = " ".join(str(part) for part in (colour, kind if kind != "number" else None, number) if part)
                cards.append(("cards", f"{what} is printed {printed[key]} times, the rules deck has {rules[key]}"))
        if len(cards) > MISMATCHES_SHOWN:  # (one wrong `copies` touches every card of its group: the sum first)
            wrong = sum(printed.values()) - sum(rules.values())
            cards = [("cards", (
                f"{len(cards)} cards are printed more or less often than the rules deck has them "
                f"({sum(printed.values())} cards printed, the rules deck has {sum(rules.values())}"
                f"{f', {wrong:+d}' if wrong else ''}): is a group's copies or numbers wrong? The first of them:")),
                *cards[:MISMATCHES_SHOWN - 1]]
        found = hue_mismatches(layout.palette) + cards  # (the cards last: their list ends the message)
        if found:
            return found
        try:
            faces = deck_faces(layout, card_size(layout.card_size), 3.0)
        except (KeyError, ValueError, IndexError, AssertionError) as error:
            return [("layout", f"cannot be drawn: {type(error).__name__} {error}")]
        unfit = _unfit(faces)
        if unfit is None:
            return []
        text, why = unfit
        size = card_size(layout.card_size)
        return [("title" if text.casefold() == layout.title.casefold() else "layout",
                 _too_small(why, bool(text), size, _least_size(layout, size, 3.0, False, False, "en")))]

    def warnings(self, layout: DeckLayout, options: CommonOptions | None = None) -> list[str]:
        """Text that reads at less than 3:1 against what is behind it, two of the cards' colours that print
        alike (a palette of one's own), a colour of [palette] no card draws, and what the options ask of the
        pages that prints only in part."""
        from printgen.measure import alike, worst_contrast

        lang = options.lang if options else "en"
        faces = {face.id: face for _, front, back in deck_faces(layout, card_size(layout.card_size), 3.0, lang=lang)
                 for face in (front, back)}
        used = dict.fromkeys(colour for _, colour, _ in layout.cards() if colour)
        multicoloured = any(group.kind in MULTICOLOURED for group in layout.groups)
        drawn = {*used, *(COLOURS if multicoloured else ()), *GAMES[layout.game].palette, "back"}
        return (worst_contrast(layout.source, [(Item(name, face).as_page(), "#ffffff") for name, face in faces.items()])
                + alike(layout.source, [(name, layout.colour(name)) for name in used], "the cards")
                + unused_colours(layout.source, layout.palette, drawn,
                                 "no card draws it (a [[cards]] group names its colours in `colours`)")
                + (_page_warnings(layout, options) if isinstance(options, DeckOptions) else []))

    def check_options(self, layout: DeckLayout, options: DeckOptions) -> None:
        """OptionProblem for options about the backs that cannot work with the duplex mode, and for a paper only
        the board takes."""
        refuse_plotter_paper(options, "decks")
        if options.backs_file and options.duplex != "off":
            raise OptionProblem("backs_file", "writes the backs to their own file, which needs --duplex off")
        changed = options.changed()
        if options.per_page == 1:  # a print shop's pages: each card with its bleed, no paper round it
            if "paper" in changed:
                raise OptionProblem("paper", "print-shop pages (--per-page 1) are each a card with its bleed, on "
                                             "no paper; leave the paper out (or give --per-page 2 or more to print on it)")
            if options.alignment_page:
                raise OptionProblem("alignment_page", "is a test page for duplex printing at home, and print-shop "
                                                      "pages (--per-page 1) have none; leave it out")
            if "printer_margin" in changed:  # (it changed the file's name and nothing else)
                raise OptionProblem("printer_margin", "print-shop pages (--per-page 1) are each a card with its "
                                                      "bleed, with no margin round it; leave it out")
        if options.duplex == "off" and not options.backs_file:
            for key in ("alignment_page", "back_offset"):
                if key in changed:
                    raise OptionProblem(key, "is about the backs, and --duplex off prints none (add --backs-file, "
                                             "or use --duplex long or short)")

    def takes_paper(self, layout: DeckLayout, values: Mapping[str, Any]) -> bool:
        """Decks are printed on paper, except print-shop pages (--per-page 1: each card on a page of its own)."""
        return values.get("per_page") != 1

    def paper_part(self, layout: DeckLayout, options: DeckOptions) -> list[str]:
        return [options.paper] if options.paper and options.paper != "a4" else []

    def size_part(self, layout: DeckLayout, options: DeckOptions) -> list[str]:
        return other_card_size(layout.card_size, options.card_size)

    def print_part(self, layout: DeckLayout, options: DeckOptions) -> list[str]:
        parts = []
        if options.per_page is not None:
            parts.append("print-shop" if options.per_page == 1 else f"{_page_grid(layout, options).per_page}up")
        if options.gap is not None:  # the gap between the cards moves every card on the page
            parts.append(f"gap{options.gap:g}mm")
        parts += {"long": [], "short": ["short-edge"], "off": ["fronts"]}[options.duplex]
        if options.back_offset != (0.0, 0.0):  # (the backs are moved)
            parts.append(f"offset{options.back_offset[0]:g}_{options.back_offset[1]:g}mm")
        if not options.crop_marks:
            parts.append("no-crop-marks")
        if options.alignment_page:
            parts.append("alignment")
        return parts

    def variant_part(self, layout: DeckLayout, options: DeckOptions) -> list[str]:
        parts = ["symbols"] if options.symbols else []
        if options.corner_guide:  # (drawn on the fronts, in the SVGs too)
            parts.append("corner-guide")
        if options.bleed is not None:  # (a card's own bleed is drawn in its SVG too)
            parts.append(f"bleed{options.bleed:g}mm")
        return parts

    def svg_folder(self, layout: DeckLayout, options: DeckOptions) -> bool:
        return True

    def about(self, layout: DeckLayout, options: DeckOptions, fmt: str) -> tuple[list[str], frozenset[str]]:
        return [], frozenset()

    def plan(self, layout: DeckLayout, options: DeckOptions, names: Names) -> Plan:
        """A deck: fronts (with backs behind them for duplex) as PDF, and/or one SVG per face."""
        size = card_size(options.card_size or layout.card_size)
        faces = deck_faces(layout, size, options.card_bleed + _seam(layout, options), options.symbols,
                           options.corner_guide, options.lang)
        unfit = _unfit(faces)
        if unfit is not None:
            text, why = unfit
            where = "--card-size" if options.card_size else "--lang" if options.lang != "en" else (
                f"{layout.source}: title" if text.casefold() == layout.title.casefold() else
                f"{layout.source}: card_size")
            least = _least_size(layout, size, options.card_bleed, options.symbols, options.corner_guide, options.lang)
            raise UsageProblem(f"{where}: {_too_small(why, bool(text), size, least)}")
        targets, writers = [], []
        if "pdf" in options.formats:
            for target, writer in _pdf_writers(layout, options, names, faces):
                targets.append(target)
                writers.append(writer)
        if "svg" in options.formats:
            folder = options.out / names.svg
            targets.append(folder)
            writers.append(lambda on_page: _write_faces(layout, options, faces, folder, names.svg_about))
        return Plan(layout, options, tuple(targets), tuple(writers), 0, names)


KIND = Decks()


def _page_grid(layout: DeckLayout, options: DeckOptions) -> CardGrid:
    """How `options` set the cards of `layout` on a page (`plan_cards`)."""
    return plan_cards(paper_size(options.page_paper), card_size(options.card_size or layout.card_size),
                      options.card_bleed, options.gap, options.page_paper, options.per_page, options.printer_margin,
                      options.crop_marks)


def _seam(layout: DeckLayout, options: DeckOptions) -> Mm:
    """The bleed a deck's faces need beyond the one asked for, drawn once for its PDF alone: the grid's `seam`;
    0 where SVGs are written too (they carry the bleed asked for) or no page holds the cards (as its writer says,
    after whatever makes them illegible)."""
    if options.formats != ("pdf",):
        return 0.0
    try:
        return _page_grid(layout, options).seam
    except UsageProblem:
        return 0.0


def _page_warnings(layout: DeckLayout, options: DeckOptions) -> list[str]:
    """What `options` ask of the cards' pages that prints only in part (print-shop pages, one card each, keep
    everything): backs moved past the printer's margin, a bleed the gaps cut down, fewer cards a page."""
    if options.per_page == 1:
        return []
    grid = _page_grid(layout, options)
    return _backs_cut(grid, options) + _bleed_cut(grid, options) + _fewer_a_page(grid, options)


def _backs_cut(grid: CardGrid, options: DeckOptions) -> list[str]:
    """A warning line where the backs, moved against the printer's shift, lose part of their trim to the
    printer's margin (the cards at the page's edges then show it)."""
    if options.back_offset == (0.0, 0.0) or options.duplex == "off" and not options.backs_file:
        return []
    cut = backs_cut(grid, mirror_axis("long" if options.duplex == "off" else options.duplex, grid),
                    options.back_offset)
    if cut < 0.1:
        return []
    x, y = options.back_offset
    lost = (f"to what the printer cannot print ({options.printer_margin:g} mm)" if options.printer_margin > 0 else
            "off the paper's edge")
    return [(f"--back-offset {x:g},{y:g}: the backs at the page's edge lose up to {cut:.1f} mm of the card {lost}; "
             "fewer cards a page (--per-page) leave them room")]


def _bleed_cut(grid: CardGrid, options: DeckOptions) -> list[str]:
    """A warning line where a --bleed asked for shows only in part: neighbours share the gap between them, and
    the paper's margin limits the bleed at the block's edges."""
    if "bleed" not in options.changed():
        return []
    inner = min(grid.bleed, grid.gap / 2) if grid.cols > 1 or grid.rows > 1 else grid.bleed
    shown = min(inner, *grid.outer)
    if shown >= grid.bleed - 0.05:
        return []
    return [(f"--bleed {options.card_bleed:g} mm: only {shown:.1f} mm of it shows round each card (the cards sit "
            f"{grid.gap:.1f} mm apart, and the paper's margin limits it at the page's edges); --per-page 1 (a print "
            "shop's pages, one card each) keeps it whole")]


def _fewer_a_page(grid: CardGrid, options: DeckOptions) -> list[str]:
    """A warning line where fewer cards than --per-page asks for fit a page (it caps the grid: the file's name
    says how many were printed a page)."""
    if options.per_page is None or grid.per_page >= options.per_page:
        return []
    return [(f"--per-page {options.per_page}: {grid.per_page} cards a page ({grid.cols} x {grid.rows}) are "
            "the most of up to that many that fit this paper and its margin")]


def _unfit(faces: list[Face]) -> tuple[str, str] | None:
    """What keeps cards with `faces` from printing legibly (each face measured once): (the text too small, or ""
    where two things crowd each other; what would happen, in words), or None where nothing does."""
    from printgen.measure import CLEAR_MM, MIN_TEXT_PT, clashes, sizes

    drawn = {face.id: (f"the {side} of card {card}", card, face)
             for card, front, back in faces for side, face in (("front", front), ("back", back))}
    pages = [(where, Item(card, face).as_page()) for where, card, face in drawn.values()]
    small = min((sizes(page) for _, page in pages), key=lambda s: s.text_pt)
    if small.problems():
        if small.text_pt < 0.05:  # (a text left out where there is no room for it)
            return small.text, f"have no room for {small.text!r}"
        return small.text, f"print {small.text!r} at {small.text_pt:.1f} pt (the minimum is {MIN_TEXT_PT:g} pt)"
    for where, page in pages:
        crowded = clashes(page)
        if crowded:
            return "", f"crowd {crowded[0][0]} against {crowded[0][1]} on {where} (less than {CLEAR_MM:g} mm apart)"
    return None


def _least_size(layout: DeckLayout, size: tuple[Mm, Mm], bleed: Mm, symbols: bool, corner_guide: bool,
                lang: str) -> tuple[Mm, Mm] | None:
    """The narrowest cards in the proportions of `size`, whole millimetres wider and no side beyond the most a
    card may be, that print legibly (their art does not grow in proportion: margins and indices are fixed);
    None if none do."""
    width, height = size
    for wider in range(int(width) + 1, int(CARD_SIDES[1] * min(1.0, width / height)) + 1):
        grown = (float(wider), round(height * wider / width, 1))
        if _unfit(deck_faces(layout, grown, bleed, symbols, corner_guide, lang)) is None:
            return grown
    return None


def _too_small(why: str, text: bool, size: tuple[Mm, Mm], least: tuple[Mm, Mm] | None) -> str:
    """Why cards of `size` are refused (`why`: what they would do; `text`: a text too small, which a shorter one
    mends), and the least size that keeps them legible."""
    if least is None:
        grow = f"no cards in these proportions up to {CARD_SIDES[1]:g} mm a side keep it"
        return f"{size[0]:g} x {size[1]:g} mm cards would {why}; " + (f"shorten it: {grow}" if text else grow)
    grow = f"give cards of at least {least[0]:g} x {least[1]:g} mm (--card-size)"
    return f"{size[0]:g} x {size[1]:g} mm cards would {why}; " + ("shorten it, or " if text else "") + grow


def _pdf_writers(layout: DeckLayout, options: DeckOptions, names: Names, faces: list[Face]) -> Iterator[Any]:
    """(target, writer) of the deck's PDF and, with --backs-file, of its backs' own PDF."""
    grid = _page_grid(layout, options)
    if faces and faces[0][1].width < grid.card_w + 2 * (grid.bleed + grid.seam) - 1e-9:  # (neighbours' bleeds meet:
        # each runs a little past the other's; faces drawn for SVGs too have only the bleed asked for)
        faces = deck_faces(layout, card_size(options.card_size or layout.card_size), options.card_bleed + grid.seam,
                           options.symbols, options.corner_guide, options.lang)
    axis = mirror_axis("long" if options.duplex == "off" else options.duplex, grid)
    test = list(alignment_pages(grid, axis, options.back_offset, catalogue(options.lang))) \
        if options.alignment_page else []
    title = f"{layout.name}: {len(faces)} cards"
    fronts = [front for _, front, _ in faces]
    backs = [back for _, _, back in faces]
    meta = {"subject": names.about} if names.about else {}

    def write_deck(on_page: Any) -> Written:
        front_pages = card_pages(fronts, grid, options.crop_marks)
        back_pages = card_pages(backs, grid, options.crop_marks, axis, options.back_offset)
        if options.duplex == "off":
            pages: Iterator[Page] = chain(test[:1], front_pages)
        else:
            pages = chain(test, chain.from_iterable(zip(front_pages, back_pages)))
        return write_pages_pdf(Document([], pages, title, meta), options.out / f"{names.pdf}.pdf", options.pdf,
                               on_page)

    def write_backs(on_page: Any) -> Written:
        pages = chain(test[1:], card_pages(backs, grid, options.crop_marks, axis, options.back_offset))
        return write_pages_pdf(Document([], pages, f"{title} (backs)", meta), options.out / f"{backs_name}.pdf",
                               options.pdf)

    backs_name = f"{names.pdf}-backs" if options.output else _backs_name(names.pdf)
    yield options.out / f"{names.pdf}.pdf", write_deck
    if options.duplex == "off" and options.backs_file:
        yield options.out / f"{backs_name}.pdf", write_backs


def _card_order(card: tuple[str, str | None, int | None]) -> tuple[int, int, str, int]:
    """Cards in the order a deck lists them: by kind (CARD_KINDS), colour (COLOURS, then others by name) and
    number."""
    kind, colour, number = card
    return (CARD_KINDS.index(kind) if kind in CARD_KINDS else len(CARD_KINDS),
            COLOURS.index(colour) if colour in COLOURS else len(COLOURS), colour or "", number or 0)


def _backs_name(fronts: str) -> str:
    """The backs' own file's name beside the fronts' name printgen made, `fronts`: its last part "fronts" made
    "backs" (qwixx-cards-deck-fronts: qwixx-cards-deck-backs), or "-backs" after a name without it."""
    head, found, tail = fronts.rpartition("-fronts")
    if found and (not tail or tail.startswith("-")):
        return f"{head}-backs{tail}"
    return f"{fronts}-backs"


def _write_faces(layout: DeckLayout, options: DeckOptions, faces: list[Face], folder: Any, about: str) -> Written:
    """One SVG per card face (one `back.svg` when every back is alike) into the folder OUT/NAME/."""
    from printgen.render.svg import write_svg

    with atomic_folder(folder) as temporary:
        common_back = len({back.id for _, _, back in faces}) == 1
        for card, front, back in faces:
            for face, file in ((front, f"{card}-front"), (back, "back" if common_back else f"{card}-back")):
                target = temporary / f"{file}.svg"
                if not target.exists():
                    write_svg(Item(card, face).as_page(), target, f"{layout.title}: {file}",
                              svg_text=options.svg_text, about=about)
    return written_folder(folder)


def _read(top: Fields, name: str, source: str) -> DeckLayout | None:
    title = read_title(top)
    game = read_game(top)
    size = read_card_size(top)
    palette = read_palette(top)
    back = None
    if palette is not None:
        back = palette.get("back")
        if back is None:
            top.problem("palette.back", "is missing (the neutral colour of the card backs)")
    groups = [_card_group(fields, palette) for fields in top.tables("cards", 1, 20)]
    if palette is not None and game is not None:
        multicoloured = any(g is not None and g.kind in MULTICOLOURED for g in groups)
        require_colours(top, palette, (*(COLOURS if multicoloured else ()), *GAMES[game].palette),
                        "the cards draw it")
    if top.problems or None in (title, game, size, palette, back, *groups):
        return None
    assert title and game and size and palette and back
    return DeckLayout(name, source, title, game, size, tuple(palette.items()), back,
                      tuple(g for g in groups if g is not None))


def _card_group(fields: Fields, palette: dict[str, str] | None) -> CardGroup | None:
    kind = fields.string("kind")
    if kind is not None and kind not in CARD_KINDS:
        fields.problem("kind", f"{kind!r} is not one of {', '.join(CARD_KINDS)}")
        kind = None
    colours: tuple[str, ...] | None = ()
    if kind == "number":
        colours = fields.strings("colours", 1, 8)
        if colours is not None and palette is not None:
            for colour in colours:
                if colour not in palette:
                    fields.problem("colours", f"{colour!r} is not in [palette] ({', '.join(palette)})")
                    colours = None
                    break
    numbers: tuple[int, ...] | None = ()
    if kind in ("number", "number-joker") or fields.has("numbers"):
        numbers = fields.integers("numbers", 1, 30)
    copies = fields.integer("copies", 1, 20) if fields.has("copies") else 1
    fields.finish()
    if kind is None or colours is None or numbers is None or copies is None:
        return None
    return CardGroup(kind, colours, numbers, copies)
