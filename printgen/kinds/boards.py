"""The board kind: a layout file's keys in, the One to 9 board's model, options, rules check, names and plan out.

The board holds a card-sized field per colour and number, the piles and
the scoring reference. It is printed whole on the smallest paper it fits
(or the paper given), or tiled over pages of a smaller paper with glue
strips; its colours and numbers are checked against `printgen.rules.one_to_nine`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from printgen.files import Written, write_items_svg, write_pages_pdf
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
    require_colours,
    unused_colours,
)
from printgen.labels import catalogue
from printgen.page import Document, Hex
from printgen.printing.card_grid import card_size
from printgen.printing.paper import MARGIN
from printgen.tomlkeys import Fields

NAME = "board"
BOARD_COLOURS = ("board", "star")
"""Palette colours the board draws besides its rows': its paper and the stars of its scoring reference."""


@dataclass(frozen=True, slots=True)
class BoardLayout(Palette):
    """The One to 9 board: a field per colour and number, pile places and the scoring reference."""

    name: str
    source: str
    title: str
    game: str
    card_size: str
    palette: tuple[tuple[str, Hex], ...]
    colours: tuple[str, ...]
    numbers: tuple[int, ...]
    description: str = ""
    kind: str = NAME


@dataclass(frozen=True, slots=True)
class BoardOptions(CommonOptions):
    """Options of the board (and the common ones): the `card_size` its fields hold, whether to `tile` it over
    pages of the paper, and the `printer_margin` nothing may come closer to the paper's edge than."""

    card_size: str | None = None
    tile: bool = False
    printer_margin: float = 5.0


class Boards:
    """The board kind (see the module docstring)."""

    name = NAME
    noun = "a board"
    plural = "boards"
    layout_type = BoardLayout
    options_type = BoardOptions

    def read(self, top: Fields, name: str, source: str) -> BoardLayout | None:
        """The board described by the keys of `top` (problems noted in it)."""
        title = read_title(top)
        game = read_game(top)
        size = read_card_size(top)
        palette = read_palette(top)
        colours = top.strings("colours", 1, 8)
        if colours is not None and palette is not None and any(c not in palette for c in colours):
            top.problem("colours", f"every colour must be in [palette] ({', '.join(palette)})")
            colours = None
        numbers = top.integers("numbers", 1, 20)
        if palette is not None:
            require_colours(top, palette, BOARD_COLOURS, "the board draws it")
        if top.problems or None in (title, game, size, palette, colours, numbers):
            return None
        assert title and game and size and palette and colours and numbers
        return BoardLayout(name, source, title, game, size, tuple(palette.items()), colours, numbers)

    def game(self, layout: BoardLayout) -> Game:
        return GAMES[layout.game]

    def describe(self, layout: BoardLayout) -> str:
        """The card size its fields hold, for `printgen list`."""
        width, height = card_size(layout.card_size)
        return f"fields for {width:g} x {height:g} mm cards ({layout.card_size})"

    def mismatches(self, layout: BoardLayout) -> list[tuple[str, str]]:
        """Its game, colours and numbers against the rules of One to 9; then whether it draws."""
        found = []
        if GAMES[layout.game] is not ONE_TO_NINE:
            found.append(("game", f"{layout.game!r}: only One to 9 has a board"))
        from printgen.rules import one_to_nine  # (a score sheet's build has no need of its rules)

        if layout.colours != one_to_nine.COLOURS:
            found.append(("colours", f"{list(layout.colours)}, the rules say {list(one_to_nine.COLOURS)}"))
        if layout.numbers != one_to_nine.NUMBERS:
            found.append(("numbers", f"{list(layout.numbers)}, the rules say {list(one_to_nine.NUMBERS)}"))
        found += hue_mismatches(layout.palette)
        if found:
            return found
        from printgen.builders.one_to_nine_pieces import board_item

        size = card_size(layout.card_size)
        cramped = _no_room(*size)
        if cramped:
            return [("card_size", cramped)]
        try:
            board_item(layout, size)
        except (KeyError, ValueError, IndexError, AssertionError, ZeroDivisionError) as error:
            return [("layout", f"cannot be drawn: {type(error).__name__} {error}")]
        return []

    def warnings(self, layout: BoardLayout, options: CommonOptions | None = None) -> list[str]:
        """Text that reads at less than 3:1 against what is behind it, two of the board's row colours that
        print alike (a palette of one's own), and a colour of [palette] the board does not draw."""
        from printgen.builders.one_to_nine_pieces import board_item
        from printgen.measure import alike, worst_contrast

        board = board_item(layout, card_size(layout.card_size), options.lang if options else "en")
        return (worst_contrast(layout.source, [(board.as_page(), layout.colour("board"))])
                + alike(layout.source, [(name, layout.colour(name)) for name in layout.colours], "the rows")
                + unused_colours(layout.source, layout.palette, {*layout.colours, *BOARD_COLOURS},
                                 "the board does not draw it (its rows' colours are named in `colours`)"))

    def check_options(self, layout: BoardLayout, options: BoardOptions) -> None:
        """Cards too small (or too low) for a field's big number clear of its corner shape and index (the
        layout's own card size is held by `mismatches`, naming its key)."""
        cramped = _no_room(*card_size(options.card_size)) if options.card_size else ""
        if cramped:
            raise OptionProblem("card_size", cramped)

    def takes_paper(self, layout: BoardLayout, values: Mapping[str, Any]) -> bool:
        """Only tiles are printed on a paper of the user's; the whole board takes the smallest it fits."""
        return bool(values.get("tile"))

    def paper_part(self, layout: BoardLayout, options: BoardOptions) -> list[str]:
        if options.tile:
            return ["tiles", options.paper or "a4"]
        return [options.paper] if options.paper else []

    def size_part(self, layout: BoardLayout, options: BoardOptions) -> list[str]:
        return other_card_size(layout.card_size, options.card_size)

    def print_part(self, layout: BoardLayout, options: BoardOptions) -> list[str]:
        return []

    def variant_part(self, layout: BoardLayout, options: BoardOptions) -> list[str]:
        return []

    def svg_folder(self, layout: BoardLayout, options: BoardOptions) -> bool:
        return False

    def about(self, layout: BoardLayout, options: BoardOptions, fmt: str) -> tuple[list[str], frozenset[str]]:
        return [], frozenset()

    def plan(self, layout: BoardLayout, options: BoardOptions, names: Names) -> Plan:
        """The board: whole on one page (the paper given, else the smallest that fits) or tiled; one SVG."""
        from printgen.builders.one_to_nine_pieces import FIELD_PAD, board_item
        from printgen.printing.large import smallest_paper, tile_pages, whole_page

        size = card_size(options.card_size or layout.card_size)
        board = board_item(layout, size, options.lang)
        margin = max(MARGIN, options.printer_margin)
        targets, writers = [], []
        if "pdf" in options.formats:
            if options.tile:
                field = (size[0] + 2 * FIELD_PAD, size[1] + 2 * FIELD_PAD)
                label = f"{layout.title}: {catalogue(options.lang)['tile']}"
                pages = tile_pages(board, options.page_paper, field, label, margin, options.printer_margin)
            else:
                pages = [whole_page(board, options.paper or smallest_paper(board, margin) or "a0", margin)]
            meta = {"subject": names.about} if names.about else {}
            document = Document([], pages, f"{layout.name}: {board.width:.0f} x {board.height:.0f} mm", meta)
            target = options.out / f"{names.pdf}.pdf"

            def write_pdf(on_page: Any) -> Written:
                return write_pages_pdf(document, target, options.pdf)

            targets.append(target)
            writers.append(write_pdf)
        if "svg" in options.formats:
            targets.append(options.out / f"{names.svg}.svg")
            writers.append(lambda on_page: write_items_svg(names.svg, iter([board]), options.out, False,
                                                           names.svg_about, options.svg_text))
        return Plan(layout, options, tuple(targets), tuple(writers), 0, names)


KIND = Boards()


def _no_room(width: float, height: float) -> str:
    """Why cards of `width` x `height` mm leave a board field no room for its big number clear of its corner shape
    and index, or "" when they leave it room."""
    from printgen.builders.one_to_nine_pieces import (
        CORNER_ROOM,
        FIELD_PAD,
        MIN_FIELD_NUMBER,
        field_number,
    )

    field = (width + 2 * FIELD_PAD, height + 2 * FIELD_PAD)
    if field_number(field) >= MIN_FIELD_NUMBER and field[0] >= 2 * CORNER_ROOM:  # (the shape and the index side
        return ""                                                                  # by side)
    least = (2 * CORNER_ROOM - 2 * FIELD_PAD, MIN_FIELD_NUMBER + 2 * CORNER_ROOM - 2 * FIELD_PAD)
    return (f"{width:g} x {height:g} mm cards leave a board field no room for its number beside its colour's shape; "
            f"cards of at least {least[0]:.0f} x {least[1]:.0f} mm fit")
