"""The options of every layout kind and simulated game, declared once: raw values in, checked values out.

Each `Option` says how its value is read (the same parser, from
`printgen.values`, for the command line, batch manifests and config files),
its flags, default and help. Which layout kinds take a build option is not
written here: it is the kinds whose options dataclass owns the field
(`printgen.kinds`), so the declaration and the type cannot disagree. Which
games take a simulate option is said with the games of `printgen.games`.
The CLI builds `printgen build` and `printgen simulate` from these tables,
batch manifests and `printgen.toml` are checked against them, and `printgen
show` lists them. An option given to a kind that does not take it is a
usage error naming both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from printgen.errors import UsageProblem
from printgen.games import GAMES, QWIXX, QWIXX_CARDS
from printgen.kinds import KINDS
from printgen.kinds.common import option_fields
from printgen.kinds.score_sheets import PAD
from printgen.labels import DEFAULT_LANGUAGE, languages
from printgen.printing.paper import PAPERS
from printgen.values import (
    card_size,
    choice,
    did_you_mean,
    file_name,
    flag,
    integer,
    length,
    lucky_pool,
    name,
    offset,
    picture_file,
    text,
)

MAX_SHEETS = 100_000
"""Largest pad printgen builds in one file."""
FORMATS = ("pdf", "svg", "both")
LANGUAGES = (DEFAULT_LANGUAGE, *(lang for lang in languages() if lang != DEFAULT_LANGUAGE))
"""The languages printgen prints (its label catalogues), English first."""


# -- the declaration ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its key (manifests, config files, the kinds' options dataclasses), flags, parser, default, who takes it."""

    key: str
    flags: tuple[str, ...]
    help: str
    takers: frozenset[str]
    """The games that take it (a simulate option; for a build option see `owned`)."""
    parse: Callable[[object], Any] = text
    default: Any = None
    metavar: str = ""
    switch: bool = False
    off: str = ""
    """The flag that turns a switch off (e.g. --no-crop-marks)."""
    only: Callable[[Any], bool] | None = None
    """A finer test on the layout (e.g. only sheets with lucky numbers)."""
    only_text: str = ""
    pdf_only: bool = False
    """It changes only the PDF (an SVG is the same whatever the paper or press)."""
    owned: bool = False
    """A build option: the layout kinds that take it are those whose options dataclass owns its field."""
    instead: tuple[tuple[str, str], ...] = ()
    """(kind, what to do instead) for kinds that do not take it but where a user may look for it."""

    @property
    def flag(self) -> str:
        """The long flag, e.g. --sheets."""
        return self.flags[0]

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(getattr(self.parse, "choices", ()))

    def who(self) -> frozenset[str]:
        """The layout kinds (every kind's code is loaded to say so) or games that take it."""
        return _owners(self.key) if self.owned else self.takers

    def applies(self, taker: str, layout: Any = None) -> bool:
        """True when a layout of kind (or a game) `taker` takes this option (only that kind's code is loaded)."""
        if self.owned:
            if taker not in KINDS or self.key not in option_fields(KINDS[taker].options_type):
                return False
        elif taker not in self.takers:
            return False
        return self.only is None or layout is None or self.only(layout)

    def takers_text(self) -> str:
        """Who takes it, in words (for messages and `show`)."""
        words = {**{key: kind.plural for key, kind in KINDS.items()}, **{key: g.plural for key, g in GAMES.items()}}
        takers = self.who()
        ordered = [words[t] for t in words if t in takers]
        return self.only_text or (", ".join(ordered[:-1]) + " and " + ordered[-1] if len(ordered) > 1 else ordered[0])


def _lucky(layout: Any) -> bool:
    return bool(getattr(layout, "lucky_numbers", False))


def _shuffles(layout: Any) -> bool:
    return bool(getattr(layout, "shuffles", False))


def _varies(layout: Any) -> bool:
    return bool(getattr(layout, "varies", False))


PDF_ONLY = frozenset({"paper", "per_page", "cmyk", "icc", "duplex", "back_offset", "alignment_page", "crop_marks",
                      "backs_file", "printer_margin", "tile", "timestamp", "gap", "double_sided"})
"""Build options that change only the PDF (an SVG is the same whatever the paper or press)."""


def _owned(option: Option) -> Option:
    """`option` as a build option (taken by the layout kinds whose options dataclass has its field), and whether
    it changes only the PDF."""
    return replace(option, owned=True, pdf_only=option.key in PDF_ONLY)


@cache
def _owners(key: str) -> frozenset[str]:
    """The layout kinds whose options dataclass has the field `key`."""
    return frozenset(name for name, kind in KINDS.items() if key in option_fields(kind.options_type))


_KINDS: frozenset[str] = frozenset()
"""Takers of a build option as declared: `_owned` makes them the kinds whose options dataclass owns it."""
DICE_GAMES = frozenset({QWIXX.key, QWIXX_CARDS.key})
EVERY_GAME = frozenset(GAMES)

BUILD_OPTIONS: tuple[Option, ...] = tuple(_owned(option) for option in (
    Option("output", ("--output", "-o"), "Name of the files written (default: the layout's name and what sets "
           "this build apart, e.g. qwixx-big-points-it); may hold a folder: prints/club.", _KINDS, file_name,
           metavar="NAME"),
    Option("out", ("--out",), "Output folder.", _KINDS, name, "output", metavar="FOLDER"),
    Option("format", ("--format", "-f"), "What to write: pdf, svg or both.", _KINDS, choice(FORMATS), "pdf",
           metavar="pdf|svg|both"),
    Option("paper", ("--paper", "-p"), "Paper of the PDF pages: a3, a4, a5, letter, legal, tabloid (a2, a1, a0 "
           "for the board). Default a4; the board: the smallest paper it fits.", _KINDS,
           choice(PAPERS), metavar="PAPER"),
    Option("lang", ("--lang", "-l"), f"Language of every printed word: {', '.join(LANGUAGES)}.", _KINDS,
           choice(LANGUAGES), "en", metavar="LANG"),
    Option("cmyk", ("--cmyk",), "Write every colour as CMYK (for print shops that ask for it).", _KINDS, flag,
           False, switch=True),
    Option("icc", ("--icc",), "Convert every colour for a press through this CMYK ICC profile (implies --cmyk; "
           "--cmyk alone uses the bundled FOGRA39 profile).", _KINDS, lambda value: Path(name(value)),
           metavar="FILE"),
    Option("svg_text", ("--svg-text",), "How SVGs carry text: outline (glyph outlines that look the same in every "
           "program) or font (editable text naming Roboto).", _KINDS, choice(("outline", "font")), "outline",
           metavar="outline|font"),
    Option("timestamp", ("--timestamp",), "Stamp PDFs with the build time (default: the same inputs give "
           "byte-identical files).", _KINDS, flag, False, switch=True),
    Option("sheets", ("--sheets", "-n"), f"Sheets in the pad, 1..{MAX_SHEETS:,} (default {PAD}).",
           _KINDS, integer(1, MAX_SHEETS), metavar="N"),
    Option("per_page", ("--per-page",), "Score sheets: 1, 2 or 4 sheets a page (default: as many as fit the "
           "paper at full size, A5 1, A4 and Letter 2, A3 and Tabloid 4; 1: each page is the sheet's own size). Decks: at most N cards a page (default: as many as fit; 1: print-shop pages "
           "with trim and bleed boxes).", _KINDS, integer(1, 64, "(score sheets 1, 2 or 4 a page, decks 1 to 64)"),
           metavar="N"),
    Option("seed", ("--seed",), "Seed, 0 or more, for sheets that differ (lucky numbers, --shuffle): the same "
           "seed gives the same pad.", _KINDS, integer(0, 2**63 - 1), 1, metavar="N", only=_varies,
           only_text="score sheets whose sheets differ (qwixx-big-points, qwixx-gemixxt-b)"),
    Option("symbols", ("--symbols",), "Give every colour its own shape too (colour-blind players).",
           _KINDS, flag, False, switch=True),
    Option("lucky_pool", ("--lucky-pool",), "Lucky pairs dealt to the sheets: balanced, all, or pairs "
           "5-10,6-11,...", _KINDS, lucky_pool, "balanced", metavar="POOL", only=_lucky,
           only_text="score sheets with lucky numbers (qwixx-big-points)"),
    Option("shuffle", ("--shuffle",), "A new number order on every sheet (the lock number stays last).",
           _KINDS, flag, False, switch=True, only=_shuffles,
           only_text="score sheets with shuffled numbers (qwixx-gemixxt-b)"),
    Option("scan_marks", ("--scan-marks",), "Corner markers and a small code that `printgen score` reads from a "
           "photo of the sheet (--no-scan-marks: none).", _KINDS, flag, True, switch=True,
           off="--no-scan-marks"),
    Option("card_size", ("--card-size",), "Card size: poker (63.5x88.9 mm), bridge, mini, or WxH with a unit "
           "(63x88mm, 2.5x3.5in; mm by default). Default: the layout's.", _KINDS, card_size,
           metavar="SIZE"),
    Option("bleed", ("--bleed",), "Bleed around each card (default 3 mm) or, with --per-page 1, around each "
           "score sheet (default 0), 0..10 mm; units allowed: 0.125in.", _KINDS, length(0, 10),
           metavar="LENGTH"),
    Option("gap", ("--gap",), "Space between cards, 0..50 mm (default: twice the bleed where the paper allows, "
           "so each card has its own bleed; 0: one cut serves two cards).", _KINDS, length(0, 50),
           metavar="LENGTH"),
    Option("crop_marks", ("--crop-marks",), "Crop marks outside the bleed (--no-crop-marks: none).",
           _KINDS, flag, True, switch=True, off="--no-crop-marks"),
    Option("corner_guide", ("--corner-guide",), "A thin rounded-corner guide on the fronts.", _KINDS,
           flag, False, switch=True),
    Option("duplex", ("--duplex",), "long or short: each back page right after its front, mirrored for a long- "
           "or short-edge flip; off: fronts only.", _KINDS, choice(("long", "short", "off")), "long",
           metavar="long|short|off"),
    Option("backs_file", ("--backs-file",), "With --duplex off: write the backs to their own file "
           "(NAME-backs.pdf beside NAME-fronts.pdf; with -o NAME, beside NAME.pdf).",
           _KINDS, flag, False, switch=True),
    Option("alignment_page", ("--alignment-page",), "Add a duplex test page; its rulers read off your printer's "
           "offset for --back-offset.", _KINDS, flag, False, switch=True),
    Option("back_offset", ("--back-offset",), "X,Y: how far your printer shifts the backs, as read on the "
           "alignment page (X right, Y down, mm, each within 20 mm).", _KINDS, offset, (0.0, 0.0),
           metavar="X,Y"),
    Option("printer_margin", ("--printer-margin",), "What your printer cannot print at the paper's edge, 0..30 mm "
           "(default 5): no card, crop mark, token or board art comes closer.", _KINDS,
           length(0, 30), 5.0, metavar="LENGTH"),
    Option("tile", ("--tile",), "Print the board over several --paper pages with glue strips and alignment "
           "crosses.", _KINDS, flag, False, switch=True),
    Option("double_sided", ("--double-sided",), "After each page of tokens its back: the same tokens mirrored "
           "for a long-edge flip, so each token has its art on both sides.", _KINDS, flag, False, switch=True,
           instead=(("score-sheet", ("A pad prints on both sides as it is: its sheets sit centred on every "
                                     "page, so their cut lines meet back to front")),)),
))
"""Every option of `printgen build` (and of a batch job), with the layout kinds that take it."""

SIMULATE_OPTIONS: tuple[Option, ...] = (
    Option("players", ("--players",), "Players: Qwixx 2..5, One to 9 2..6.", EVERY_GAME, integer(1, 99), 3,
           metavar="N"),
    Option("games", ("--games",), "Games to play, 1..1,000,000.", EVERY_GAME, integer(1, 1_000_000), 1000,
           metavar="N"),
    Option("seed", ("--seed",), "Seed, 0 or more: the same seed plays the same games.", EVERY_GAME,
           integer(0, 2**63 - 1), 1, metavar="N"),
    Option("strategy", ("--strategy",), "How the simulated players decide: greedy, random, or mixed (greedy and "
           "random alternate).", EVERY_GAME, choice(("greedy", "random", "mixed")), "greedy",
           metavar="NAME"),
    Option("render", ("--render",), "Also draw the first game's final sheets into FILE (.pdf, .svg or .png).",
           DICE_GAMES, picture_file, metavar="FILE"),
    Option("lang", ("--lang", "-l"), "With --render: the language of the drawn sheets.", DICE_GAMES,
           choice(LANGUAGES), "en", metavar="LANG"),
    Option("symbols", ("--symbols",), "With --render: colour shapes on the drawn sheets.",
           DICE_GAMES, flag, False, switch=True),
    Option("jokers", ("--jokers",), "Card game: shuffle the 11 jokers in.", frozenset({QWIXX_CARDS.key}), flag, False,
           switch=True),
    Option("misplay_end", ("--misplay-end",), "Card game: a 4th misplay ends the game too.", frozenset({QWIXX_CARDS.key}),
           flag, False, switch=True),
    Option("card_game", ("--card-game",), "Play the card game's gemixxt variant (on qwixx-gemixxt-a).",
           DICE_GAMES, flag, False, switch=True,
           only=lambda layout: getattr(layout, "rules", "") == "gemixxt-a",
           only_text="the qwixx-gemixxt-a sheet"),
)
"""Every option of `printgen simulate`, with the games that take it."""

BUILD_BY_KEY = {option.key: option for option in BUILD_OPTIONS}
SIMULATE_BY_KEY = {option.key: option for option in SIMULATE_OPTIONS}


def parse(option: Option, value: object, where: str) -> Any:
    """`value` read by `option`'s parser; a bad value is a UsageProblem `WHERE: what is wrong`."""
    try:
        return option.parse(value)
    except ValueError as error:
        raise UsageProblem(f"{where}: {error}") from None


def refuse_inapplicable(options: Iterable[Option], taker: str, layout: Any, subject: str,
                        shown: Callable[[Option], str] = lambda o: o.flag) -> None:
    """UsageProblem naming the first of `options` that `subject` (of kind or game `taker`) does not take."""
    for option in options:
        if not option.applies(taker, layout):
            kind = KINDS[taker].noun if taker in KINDS else GAMES[taker].noun
            instead = dict(option.instead).get(taker)
            raise UsageProblem(f"{shown(option)}: does not apply to {subject} ({kind}); it is for "
                               f"{option.takers_text()}{f'. {instead}' if instead else ''}")


def options_for(taker: str, layout: Any = None, table: tuple[Option, ...] = BUILD_OPTIONS) -> list[Option]:
    """The options a layout kind (or game) takes, in declaration order."""
    return [option for option in table if option.applies(taker, layout)]


def read_table(values: Mapping[str, object], table: Mapping[str, Option], file: str,
               prefix: str = "", also: Iterable[str] = ()) -> dict[str, Any]:
    """Option keys of a manifest job or config file read with their parsers; unknown keys get a did-you-mean.

    Messages read `FILE: PREFIXKEY: what is wrong`, e.g. `club.toml: jobs[2].per-page: is not a known key
    (did you mean per_page?)`. `also` names other keys the file may hold (for suggestions).
    """
    read: dict[str, Any] = {}
    known = [*table, *also]
    for key, value in values.items():
        option = table.get(key)
        if option is None:
            hint = did_you_mean(key, known) or did_you_mean(key.replace("-", "_"), known)
            raise UsageProblem(f"{file}: {prefix}{key}: is not a known key{hint}")
        read[key] = parse(option, value, f"{file}: {prefix}{key}")
    return read
