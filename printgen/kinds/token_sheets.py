"""The token-sheet kind: a layout file's keys in, the star tokens' model, options, rules check, names and plan out.

A token sheet is One to 9's small and big stars laid out to be cut out,
each kind also as an SVG; how many of each is checked against
`printgen.rules.one_to_nine`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from printgen.files import Written, write_items_svg, write_pages_pdf
from printgen.games import GAMES, Game
from printgen.kinds.common import (
    CommonOptions,
    Names,
    Palette,
    Plan,
    read_game,
    read_palette,
    read_title,
    refuse_plotter_paper,
    require_colours,
    unused_colours,
)
from printgen.labels import catalogue
from printgen.page import Document, Hex, Mm
from printgen.printing.paper import MARGIN, paper_size
from printgen.tomlkeys import Fields

NAME = "tokens"
TOKEN_KINDS = ("small-star", "big-star")
TOKEN_COLOURS = ("star", "ink")
"""Palette colours the tokens draw: the stars and their outlines and figures."""


@dataclass(frozen=True, slots=True)
class TokenGroup:
    """`count` round tokens of one kind ("small-star", "big-star") of `diameter` mm."""

    kind: str
    count: int
    diameter: Mm


@dataclass(frozen=True, slots=True)
class TokenLayout(Palette):
    """A cut sheet of tokens."""

    name: str
    source: str
    title: str
    game: str
    palette: tuple[tuple[str, Hex], ...]
    groups: tuple[TokenGroup, ...]
    description: str = ""
    kind: str = NAME


@dataclass(frozen=True, slots=True)
class TokenOptions(CommonOptions):
    """Options of a token sheet (and the common ones): the `printer_margin` nothing may come closer to the
    paper's edge than, and `double_sided`: each page followed by its back (the tokens mirrored for a long-edge
    flip), so every token has its art on both sides."""

    printer_margin: float = 5.0
    double_sided: bool = False


class TokenSheets:
    """The token-sheet kind (see the module docstring)."""

    name = NAME
    noun = "a token sheet"
    plural = "token sheets"
    layout_type = TokenLayout
    options_type = TokenOptions

    def read(self, top: Fields, name: str, source: str) -> TokenLayout | None:
        """The token sheet described by the keys of `top` (problems noted in it)."""
        title = read_title(top)
        game = read_game(top)
        palette = read_palette(top)
        if palette is not None:
            require_colours(top, palette, TOKEN_COLOURS, "the tokens draw it")
        groups = []
        for fields in top.tables("tokens", 1, 10):
            kind = fields.string("kind")
            if kind is not None and kind not in TOKEN_KINDS:
                fields.problem("kind", f"{kind!r} is not one of {', '.join(TOKEN_KINDS)}")
                kind = None
            count = fields.integer("count", 1, 500)
            diameter = fields.number("diameter", 8, 120)
            fields.finish()
            groups.append(TokenGroup(kind, count, diameter) if kind and count and diameter else None)
        if top.problems or None in (title, game, palette, *groups):
            return None
        assert title and game and palette
        return TokenLayout(name, source, title, game, tuple(palette.items()), tuple(g for g in groups if g))

    def game(self, layout: TokenLayout) -> Game:
        return GAMES[layout.game]

    def describe(self, layout: TokenLayout) -> str:
        """How many tokens of what size, for `printgen list`."""
        return ", ".join(f"{g.count} {g.kind}s of {g.diameter:g} mm" for g in layout.groups)

    def mismatches(self, layout: TokenLayout) -> list[tuple[str, str]]:
        """How many stars of each kind, against the rules of One to 9; then whether it draws."""
        from printgen.rules import one_to_nine  # (a score sheet's build has no need of its rules)

        rules = {"small-star": one_to_nine.SMALL_STARS, "big-star": one_to_nine.BIG_STARS}
        printed: Counter[str] = Counter()
        for group in layout.groups:
            printed[group.kind] += group.count
        found = [(f"tokens.{kind}", f"{printed[kind]} printed, the rules have {count}")
                 for kind, count in rules.items() if printed[kind] != count]
        sizes = {kind: [g.diameter for g in layout.groups if g.kind == kind] for kind in rules}
        if sizes["small-star"] and sizes["big-star"] and max(sizes["small-star"]) >= min(sizes["big-star"]):
            found.append(("tokens.big-star", (f"{min(sizes['big-star']):g} mm across, no bigger than the small stars "
                                             f"({max(sizes['small-star']):g} mm): players tell them apart by size")))
        if found:
            return found
        from printgen.builders.one_to_nine_pieces import token_items

        try:
            token_items(layout)
        except (KeyError, ValueError, IndexError, AssertionError, ZeroDivisionError) as error:
            return [("layout", f"cannot be drawn: {type(error).__name__} {error}")]
        return []

    def warnings(self, layout: TokenLayout, options: CommonOptions | None = None) -> list[str]:
        """A colour of [palette] the tokens do not draw."""
        return unused_colours(layout.source, layout.palette, set(TOKEN_COLOURS), "the tokens do not draw it")

    def check_options(self, layout: TokenLayout, options: TokenOptions) -> None:
        """OptionProblem for a paper only the board takes; every other combination of its options works."""
        refuse_plotter_paper(options, "token sheets")

    def takes_paper(self, layout: TokenLayout, values: Mapping[str, Any]) -> bool:
        return True

    def paper_part(self, layout: TokenLayout, options: TokenOptions) -> list[str]:
        return [options.paper] if options.paper and options.paper != "a4" else []

    def size_part(self, layout: TokenLayout, options: TokenOptions) -> list[str]:
        return []

    def print_part(self, layout: TokenLayout, options: TokenOptions) -> list[str]:
        return ["double-sided"] if options.double_sided else []

    def variant_part(self, layout: TokenLayout, options: TokenOptions) -> list[str]:
        return []

    def svg_folder(self, layout: TokenLayout, options: TokenOptions) -> bool:
        return True

    def about(self, layout: TokenLayout, options: TokenOptions, fmt: str) -> tuple[list[str], frozenset[str]]:
        return [], frozenset()

    def plan(self, layout: TokenLayout, options: TokenOptions, names: Names) -> Plan:
        """The token cut sheet (PDF) and one SVG per kind of token."""
        from printgen.builders.one_to_nine_pieces import token_items
        from printgen.printing.tokens import token_pages

        tokens = token_items(layout)
        targets, writers = [], []
        if "pdf" in options.formats:
            counts = {group.kind: group.count for group in layout.groups}
            heading = catalogue(options.lang)["tokens_heading"].format(small=counts.get("small-star", 0),
                                                                       big=counts.get("big-star", 0))
            pages = list(token_pages(tokens, paper_size(options.page_paper), f"{layout.title}: {heading}",
                                     max(MARGIN, options.printer_margin), options.double_sided))
            meta = {"subject": names.about} if names.about else {}
            document = Document([], pages, f"{layout.name}: {len(tokens)} tokens", meta)
            target = options.out / f"{names.pdf}.pdf"

            def write_pdf(on_page: Any) -> Written:
                return write_pages_pdf(document, target, options.pdf)

            targets.append(target)
            writers.append(write_pdf)
        if "svg" in options.formats:
            targets.append(options.out / names.svg)
            writers.append(lambda on_page: write_items_svg(names.svg, iter(tokens), options.out, True, names.svg_about,
                                                           options.svg_text))
        return Plan(layout, options, tuple(targets), tuple(writers), 0, names)


KIND = TokenSheets()
