"""What every layout kind shares: the common build options, a build's plan, and the keys every layout file reads.

A kind's options dataclass extends `CommonOptions` with the fields of its
own options, so an option of another kind is not even a field there. A
`Plan` is a build checked in full before anything is written: its targets,
its page count, and one writer per target, each returning what it wrote
(`printgen.files.Written`), which travels on to the preview page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from printgen.files import PdfSettings, ProgressCallback, Written
from printgen.fonts import capitals, missing_glyphs
from printgen.fonts import problem as glyph_problem
from printgen.games import GAMES
from printgen.page import Hex
from printgen.tomlkeys import Fields


class Palette:
    """What every layout with a [palette] shares: its printed colours by name."""

    __slots__ = ()
    palette: tuple[tuple[str, Hex], ...]

    def colour(self, name: str) -> Hex:
        """The printed colour of palette entry `name`."""
        return dict(self.palette)[name]


@dataclass(frozen=True, slots=True)
class CommonOptions:
    """The options every kind takes: where and in what format to write, paper, language and colour.

    Values are as the option declarations read them (`printgen.build.build_options` reads raw values);
    None means "the kind's default". `icc` converts through this CMYK profile (it implies `cmyk`);
    `svg_text` is "outline" (glyph outlines, the same everywhere) or "font" (editable text naming Roboto).
    """

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf",)
    output: str | None = None
    paper: str | None = None
    lang: str = "en"
    cmyk: bool = False
    icc: Path | None = None
    svg_text: str = "outline"
    timestamp: bool = False
    origins: tuple[tuple[str, str], ...] = field(default=(), compare=False, metadata={"option": False})
    """Where option values that were not typed came from (`paper`: `PRINTGEN_PAPER`, a printgen.toml): named
    in messages about them. Not an option."""

    @property
    def page_paper(self) -> str:
        """The paper of printed pages (default A4)."""
        return self.paper or "a4"

    @property
    def pdf(self) -> PdfSettings:
        """How its PDFs are written: colours for a press, a time stamp."""
        return PdfSettings(self.cmyk, self.icc, self.timestamp)

    def changed(self) -> list[str]:
        """The fields set to anything but their default (`formats` named `format`, as the option is)."""
        defaults = type(self)()
        return [("format" if f.name == "formats" else f.name) for f in fields(self) if f.metadata.get("option", True)
                and f.name != "out" and getattr(self, f.name) != getattr(defaults, f.name)]


def option_fields(options_type: type[CommonOptions]) -> frozenset[str]:
    """The option keys a kind's options dataclass holds (`formats` is the option `format`)."""
    return frozenset("format" if f.name == "formats" else f.name for f in fields(options_type)
                     if f.metadata.get("option", True))


class OptionProblem(ValueError):
    """Options that cannot work together, naming the option (its key) that is at fault."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(message)
        self.key = key


PLOTTER_PAPERS = ("a2", "a1", "a0")
"""Papers only the board is printed on (a plotter's): a pad, a deck or tokens would float in the middle of one."""


def desk_papers() -> list[str]:
    """The papers a pad, a deck or tokens print on: every paper but PLOTTER_PAPERS, in
    `printgen.printing.paper.PAPERS`' order."""
    from printgen.printing.paper import PAPERS

    return [name for name in PAPERS if name not in PLOTTER_PAPERS]


def refuse_plotter_paper(options: CommonOptions, what: str) -> None:
    """OptionProblem where `options` put `what` (e.g. "score sheets") on a paper only the board takes."""
    if options.paper in PLOTTER_PAPERS:
        papers = desk_papers()
        raise OptionProblem("paper", f"{options.paper} is for the board; {what} print on {', '.join(papers[:-1])} "
                                     f"or {papers[-1]}")


@dataclass(frozen=True, slots=True)
class Names:
    """What a build's files are called and what they are: the base names of its PDF and SVG output, the text
    written into the PDF (its /Subject: "GROUP | WHAT"), and its parts: the game group and what the build is (the
    layout, its kind and options), which the preview page gets with each file written; and the same two for
    its SVGs (their <desc>), which leave out what only the PDF has (paper, sheets a page)."""

    pdf: str
    svg: str
    about: str
    group: str = ""
    what: str = ""
    svg_about: str = ""
    svg_what: str = ""


Writer = Callable[[ProgressCallback | None], Written]
"""Writes one output (a file or an SVG folder), reporting pages as it goes, and says what it wrote."""


@dataclass(frozen=True)
class Plan:
    """A build checked in full and ready to write: its layout and options, the files or folders it will write
    (in order), one writer for each, and the PDF pages it writes (for progress bars)."""

    layout: Any
    options: CommonOptions
    targets: tuple[Path, ...]
    writers: tuple[Writer, ...]
    pages: int = 0
    names: Names | None = field(default=None, compare=False)

    def write(self, on_page: ProgressCallback | None = None,
              on_written: Callable[[Written], None] | None = None) -> list[Written]:
        """Write every target; each is handed to `on_written` as soon as it is whole (so a later failure still
        reports what was written)."""
        done = []
        for writer in self.writers:
            written = writer(on_page)
            if self.names:
                svg = written.path.suffix != ".pdf"  # (a PDF's path always ends so; an SVG's or its folder's not)
                written = replace(written, group=self.names.group,
                                  about=self.names.svg_what if svg else self.names.what)
            done.append(written)
            if on_written is not None:
                on_written(done[-1])
        return done


# -- keys that several kinds read from their layout files ------------------------------------------------------


def read_title(top: Fields) -> str | None:
    """The layout's title (NFC: an accent typed apart from its letter joins it), if every character of it (and of
    its capitals, as sheets print it) can be printed and none is an invisible format character (a soft hyphen, a
    zero-width space, a direction mark: printed wrong or not at all)."""
    title = top.string("title")
    invisible = next((c for c in title or "" if unicodedata.category(c) == "Cf"), None)
    if invisible is not None:
        top.problem("title", f"holds the invisible format character U+{ord(invisible):04X} "
                             f"({unicodedata.name(invisible, 'unnamed').lower()}); remove it")
        return None
    if title is not None:
        title = unicodedata.normalize("NFC", title)
        missing = missing_glyphs(title + capitals(title))
        if missing:
            top.problem("title", glyph_problem(missing))
            return None
    return title


def read_palette(top: Fields) -> dict[str, str] | None:
    """The [palette] table: colour names and their printed colours."""
    table = top.table("palette")
    if table is None:
        return None
    palette: dict[str, str] = {}
    for colour in table.data:
        # an invalid value is reported here; the name still counts, so rows naming it raise no second error
        palette[colour] = table.colour(colour) or "#000000"
    return palette


HUES = {"red": (335.0, 32.0), "yellow": (32.0, 75.0), "green": (75.0, 175.0), "blue": (175.0, 265.0)}
"""The hues (degrees, from .. to, round the circle) a game colour's printed shade must lie in to read as it: a
player matches a row or a card to a die or a suit by it (a red and a blue swapped in [palette] printed the red
row blue). Wide enough for colour-blind palettes (Okabe-Ito's vermillion red, bluish green); a grey (COLOURLESS)
is taken for a grey, not checked."""
COLOURLESS = 0.2
"""Saturation (HLS, 0..1) below which a shade is a grey; and lightness outside 0.08..0.95: black or white."""


def hue_mismatches(palette: tuple[tuple[str, Hex], ...]) -> list[tuple[str, str]]:
    """(key, what) for every game colour of `palette` (HUES) whose printed shade is clearly another colour."""
    import colorsys

    from printgen.colours import rgb

    found = []
    for name, shade in palette:
        if name not in HUES:
            continue
        hue, lightness, saturation = colorsys.rgb_to_hls(*rgb(shade))
        if saturation < COLOURLESS or not 0.08 <= lightness <= 0.95:
            continue
        low, high = HUES[name]
        degrees = hue * 360
        if not (low <= degrees < high if low < high else degrees >= low or degrees < high):
            seen = next((other for other, (a, b) in HUES.items()
                         if (a <= degrees < b if a < b else degrees >= a or degrees < b)), "purple")
            found.append((f"palette.{name}", (f"{shade} prints as {seen}, not {name} (a hue of {degrees:.0f} "
                                             f"degrees; {name} lies between {low:g} and {high:g})")))
    return found


def unused_colours(source: str, palette: tuple[tuple[str, Hex], ...], drawn: set[str], why: str) -> list[str]:
    """A warning for every colour of `palette` not in `drawn` (a typo, or a colour its designer expected to see
    printed); `why` says where the layout names the colours it draws."""
    return [f"{source}: palette.{name}: {why}" for name, _ in palette if name not in drawn]


def require_colours(top: Fields, palette: dict[str, str], names: tuple[str, ...], why: str) -> None:
    """A problem for every colour `names` asks of [palette] that it lacks."""
    for colour in names:
        if colour not in palette:
            top.problem(f"palette.{colour}", f"is missing ({why})")


def read_game(top: Fields) -> str | None:
    """The game (its key in printgen.games) a deck, board or token sheet belongs to: one with cards."""
    key = top.string("game")
    if key is None:
        return None
    game = GAMES.get(key)
    if game is None or game.deck is None:
        known = ", ".join(g.key for g in GAMES.values() if g.deck is not None)
        top.problem("game", f"{key!r} is not a known card game ({known})")
        return None
    return key


def read_card_size(top: Fields) -> str | None:
    """The layout's card size: poker, bridge, mini or WxH with an optional unit (as --card-size takes)."""
    from printgen.values import card_size

    written = top.string("card_size", "poker")
    if written is None:
        return None
    try:
        return card_size(written)
    except ValueError as error:
        top.problem("card_size", str(error))
        return None


SAME_SIZE = 0.001
"""mm: card sides nearer than this are one size (2.5x3.5in is poker's 63.5 x 88.9 mm; 63.45 mm is not)."""


def other_card_size(own: str, chosen: str | None) -> list[str]:
    """The name part for a card size other than the layout's own (63.5x88.9mm is just poker): `mini`,
    `60x90mm`; nothing for the layout's own."""
    if not chosen:
        return []
    from printgen.printing.card_grid import CARD_SIZES, card_size

    mine, theirs = card_size(own), card_size(chosen)
    if abs(mine[0] - theirs[0]) <= SAME_SIZE and abs(mine[1] - theirs[1]) <= SAME_SIZE:
        return []
    if chosen.lower() in CARD_SIZES:
        return [chosen.lower()]
    named = next((name for name, size in CARD_SIZES.items()  # (63.5x88.9mm is poker, as the layouts say)
                  if abs(size[0] - theirs[0]) <= SAME_SIZE and abs(size[1] - theirs[1]) <= SAME_SIZE), None)
    return [named or f"{theirs[0]:g}x{theirs[1]:g}mm".replace(".", "_")]  # 63x88, 6.3x8.8cm: one name
