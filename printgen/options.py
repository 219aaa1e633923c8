"""The options of every layout kind and simulated game, declared once: raw values in, checked values out.

Each `Option` says which layout kinds (score sheet, deck, board, tokens) or
games take it, how its value is read (the same parser for the command line,
batch manifests and config files), its default and its help. The CLI builds
`printgen build` and `printgen simulate` from these tables, batch manifests
and `printgen.toml` are checked against them, and `printgen show` lists them.
An option given to a kind that does not take it is a usage error naming both.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from printgen import lengths
from printgen.errors import UsageProblem, shown

SHEET, DECK, BOARD, TOKENS = "score-sheet", "deck", "board", "tokens"
KINDS = (SHEET, DECK, BOARD, TOKENS)
EVERY_KIND = frozenset(KINDS)
DICE, CARDS, NINE = "dice", "cards", "one-to-9"
GAMES = (DICE, CARDS, NINE)
MAX_SHEETS = 100_000
"""Largest pad printgen builds in one file."""
FORMATS = ("pdf", "svg", "both")
SHEETS_PER_PAGE = (1, 2, 4)
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffe\uffff]")


# -- parsers: a raw value (text from the command line, or a TOML value) in, the checked value out ------------


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be text, not {shown(value)}")
    if _CONTROL.search(value):
        raise ValueError(f"{shown(value)} holds a control character")
    if not value.strip():
        raise ValueError("must not be empty")
    return value.strip()


def choice(values: Iterable[str]) -> Callable[[object], str]:
    """A parser accepting one of `values`, in any letter case."""
    known = tuple(values)

    def parse(value: object) -> str:
        text = _text(value).lower()
        if text not in known:
            raise ValueError(f"{shown(value)} is not one of {', '.join(known)}{did_you_mean(text, known)}")
        return text

    parse.choices = known  # type: ignore[attr-defined]
    return parse


def integer(low: int, high: int) -> Callable[[object], int]:
    """A parser accepting a whole number in low..high."""

    def parse(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{shown(value)} is not a whole number")
        digits = value.strip().replace("_", "") if isinstance(value, str) else None
        if digits is not None and len(digits.lstrip("+-")) > 40:
            raise ValueError(f"a number of {len(digits):,} digits is out of range {low:,}..{high:,}")
        try:
            number = int(digits) if digits is not None else int(value)
        except ValueError:
            raise ValueError(f"{shown(value)} is not a whole number") from None
        if not low <= number <= high:
            raise ValueError(f"{shown(number)} is out of range {low:,}..{high:,}")
        return number

    return parse


def length(low: float, high: float) -> Callable[[object], float]:
    """A parser accepting a length (mm by default, or with a unit) in low..high mm."""

    def parse(value: object) -> float:
        mm = lengths.length(value)
        if not low <= mm <= high:
            shown = f"{value:g} mm" if isinstance(value, int | float) else str(value).strip()
            shown = shown if not shown.replace(".", "").lstrip("-").isdigit() else f"{shown} mm"
            raise ValueError(f"{shown} is outside {low:g}..{high:g} mm")
        return mm

    return parse


def offset(value: object) -> tuple[float, float]:
    """An "X,Y" pair of lengths, each within ±20 mm."""
    parts = _text(value).split(",")
    if len(parts) != 2:
        raise ValueError(f"{shown(value)} is not two lengths X,Y (e.g. 0.5,-1 in mm)")
    x, y = (lengths.length(part) for part in parts)
    if abs(x) > 20 or abs(y) > 20:
        raise ValueError(f"{shown(value)} is more than 20 mm; measure again with --alignment-page")
    return (x, y)


def flag(value: object) -> bool:
    """A switch: true or false."""
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {shown(value)}")
    return value


def card_size(value: object) -> str:
    """A card size: poker, bridge, mini, or WxH with an optional unit (checked to be a usable size)."""
    from printgen.printing.cards import card_size as measure

    text = _text(value)
    try:
        measure(text)
    except UsageProblem as error:
        raise ValueError(str(error).removeprefix("--card-size: ")) from None
    return text.lower()


def name(value: object) -> str:
    """An output name: a file name without extension, or a path (folder and name)."""
    text = _text(value)
    if "\x00" in text:
        raise ValueError("holds a NUL character")
    return text


def text(value: object) -> str:
    """Free text (no control characters)."""
    return _text(value)


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """" (did you mean X?)" for the closest of `known` to a misspelt `word`, or ""."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


# -- the declaration ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its key (manifests, config files, BuildOptions), flags, parser, default, who takes it."""

    key: str
    flags: tuple[str, ...]
    help: str
    takers: frozenset[str]
    parse: Callable[[object], Any] = text
    default: Any = None
    metavar: str = ""
    switch: bool = False
    off: str = ""
    """The flag that turns a switch off (e.g. --no-crop-marks)."""
    only: Callable[[Any], bool] | None = None
    """A finer test on the layout (e.g. only sheets with lucky numbers)."""
    only_text: str = ""

    @property
    def flag(self) -> str:
        """The long flag, e.g. --sheets."""
        return self.flags[0]

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(getattr(self.parse, "choices", ()))

    def applies(self, taker: str, layout: Any = None) -> bool:
        """True when a layout of kind (or a game) `taker` takes this option."""
        if taker not in self.takers:
            return False
        return self.only is None or layout is None or self.only(layout)

    def takers_text(self) -> str:
        """Who takes it, in words (for messages and `show`)."""
        words = {SHEET: "score sheets", DECK: "decks", BOARD: "boards", TOKENS: "token sheets",
                 DICE: "the dice games", CARDS: "the card game", NINE: "One to 9"}
        ordered = [words[t] for t in (*KINDS, *GAMES) if t in self.takers]
        return self.only_text or (", ".join(ordered[:-1]) + " and " + ordered[-1] if len(ordered) > 1 else ordered[0])


def _lucky(layout: Any) -> bool:
    return bool(getattr(layout, "lucky_numbers", False))


def _shuffles(layout: Any) -> bool:
    from printgen.rules.variants import variant

    return bool(getattr(layout, "rules", None)) and bool(variant(layout.rules).shuffled_lock_numbers)


def _varies(layout: Any) -> bool:
    return _lucky(layout) or _shuffles(layout)


def _pool(value: object) -> str:
    pool = _text(value).lower()
    if pool in ("balanced", "all"):
        return pool
    if not re.fullmatch(r"\d+-\d+(,\d+-\d+)*", pool.replace(" ", "")):
        raise ValueError(f"{shown(value)} is not balanced, all or a list of pairs like 5-10,6-11")
    return pool.replace(" ", "")


def _per_page(value: object) -> int:
    return integer(1, 64)(value)


def _render(value: object) -> str:
    path = name(value)
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    if suffix not in ("pdf", "svg", "png"):
        raise ValueError(f"{shown(value)}: the file must end in .pdf, .svg or .png (the format follows the extension)")
    return path


SHEETS_AND_DECKS = frozenset({SHEET, DECK})
CARD_THINGS = frozenset({DECK, BOARD})

BUILD_OPTIONS: tuple[Option, ...] = (
    Option("output", ("--output", "-o"), "Name of the files written (default: the layout's name and what sets "
           "this build apart, e.g. qwixx-big-points-it); may hold a folder: prints/club.", EVERY_KIND, name,
           metavar="NAME"),
    Option("out", ("--out",), "Output folder.", EVERY_KIND, name, "output", metavar="FOLDER"),
    Option("format", ("--format", "-f"), "What to write: pdf, svg or both.", EVERY_KIND, choice(FORMATS), "pdf",
           metavar="pdf|svg|both"),
    Option("paper", ("--paper", "-p"), "Paper of the PDF pages: a3, a4, a5, letter, legal, tabloid (a2, a1, a0 "
           "for the board). Default a4; the board: the smallest paper it fits.", EVERY_KIND,
           choice(("a4", "letter", "a3", "a5", "legal", "tabloid", "a2", "a1", "a0")), metavar="PAPER"),
    Option("lang", ("--lang", "-l"), "Language of every printed word: en, it, de, pl, fr.", EVERY_KIND,
           choice(("en", "it", "de", "pl", "fr")), "en", metavar="LANG"),
    Option("cmyk", ("--cmyk",), "Write every colour as CMYK (for print shops that ask for it).", EVERY_KIND, flag,
           False, switch=True),
    Option("icc", ("--icc",), "Convert every colour for a press through this CMYK ICC profile (implies --cmyk; "
           "--cmyk alone uses the bundled FOGRA39 profile).", EVERY_KIND, name, metavar="FILE"),
    Option("svg_text", ("--svg-text",), "How SVGs carry text: outline (glyph outlines that look the same in every "
           "program) or font (editable text naming Roboto).", EVERY_KIND, choice(("outline", "font")), "outline",
           metavar="outline|font"),
    Option("timestamp", ("--timestamp",), "Stamp PDFs with the build time (default: the same inputs give "
           "byte-identical files).", EVERY_KIND, flag, False, switch=True),
    Option("sheets", ("--sheets", "-n"), f"Sheets in the pad, 1..{MAX_SHEETS:,} (default: one page full).",
           frozenset({SHEET}), integer(1, MAX_SHEETS), metavar="N"),
    Option("per_page", ("--per-page",), "Score sheets: 1, 2 or 4 sheets a page (default 2; 1: each page is "
           "the sheet's own size). Decks: at most N cards a page (default: as many as fit; 1: print-shop pages "
           "with trim and bleed boxes).", SHEETS_AND_DECKS, _per_page, metavar="N"),
    Option("seed", ("--seed",), "Seed for sheets that differ (lucky numbers, --shuffle): the same seed gives the "
           "same pad.", frozenset({SHEET}), integer(-(2**63), 2**63 - 1), 1, metavar="N", only=_varies,
           only_text="score sheets whose sheets differ (qwixx-big-points, qwixx-gemixxt-b)"),
    Option("symbols", ("--symbols",), "Give every colour its own shape too (colour-blind players).",
           SHEETS_AND_DECKS, flag, False, switch=True),
    Option("lucky_pool", ("--lucky-pool",), "Lucky pairs dealt to the sheets: balanced, all, or pairs "
           "5-10,6-11,...", frozenset({SHEET}), _pool, "balanced", metavar="POOL", only=_lucky,
           only_text="score sheets with lucky numbers (qwixx-big-points)"),
    Option("shuffle", ("--shuffle",), "A new number order on every sheet (the lock number stays last).",
           frozenset({SHEET}), flag, False, switch=True, only=_shuffles,
           only_text="score sheets with shuffled numbers (qwixx-gemixxt-b)"),
    Option("scan_marks", ("--scan-marks",), "Corner markers and a small code that `printgen score` reads from a "
           "photo of the sheet (--no-scan-marks: none).", frozenset({SHEET}), flag, True, switch=True,
           off="--no-scan-marks"),
    Option("card_size", ("--card-size",), "Card size: poker (63.5x88.9 mm), bridge, mini, or WxH with a unit "
           "(63x88mm, 2.5x3.5in; mm by default). Default: the layout's.", CARD_THINGS, card_size,
           metavar="SIZE"),
    Option("bleed", ("--bleed",), "Bleed around each card (default 3 mm) or, with --per-page 1, around each "
           "score sheet (default 0), 0..10 mm; units allowed: 0.125in.", SHEETS_AND_DECKS, length(0, 10),
           metavar="LENGTH"),
    Option("gap", ("--gap",), "Space between cards, 0..50 mm (0: one cut serves two cards).", frozenset({DECK}),
           length(0, 50), 0.0, metavar="LENGTH"),
    Option("crop_marks", ("--crop-marks",), "Crop marks outside the bleed (--no-crop-marks: none).",
           frozenset({DECK}), flag, True, switch=True, off="--no-crop-marks"),
    Option("corner_guide", ("--corner-guide",), "A thin rounded-corner guide on the fronts.", frozenset({DECK}),
           flag, False, switch=True),
    Option("duplex", ("--duplex",), "long or short: each back page right after its front, mirrored for a long- "
           "or short-edge flip; off: fronts only.", frozenset({DECK}), choice(("long", "short", "off")), "long",
           metavar="long|short|off"),
    Option("backs_file", ("--backs-file",), "With --duplex off: write the backs to their own file NAME-backs.pdf.",
           frozenset({DECK}), flag, False, switch=True),
    Option("alignment_page", ("--alignment-page",), "Add a duplex test page; its rulers read off your printer's "
           "offset for --back-offset.", frozenset({DECK}), flag, False, switch=True),
    Option("back_offset", ("--back-offset",), "X,Y: how far your printer shifts the backs, as read on the "
           "alignment page (X right, Y down, mm, each within 20 mm).", frozenset({DECK}), offset, (0.0, 0.0),
           metavar="X,Y"),
    Option("printer_margin", ("--printer-margin",), "What your printer cannot print at the paper's edge, 0..30 mm "
           "(default 5): no card, crop mark, token or board art comes closer.", frozenset({DECK, BOARD, TOKENS}),
           length(0, 30), 5.0, metavar="LENGTH"),
    Option("tile", ("--tile",), "Print the board over several --paper pages with glue strips and alignment "
           "crosses.", frozenset({BOARD}), flag, False, switch=True),
)
"""Every option of `printgen build` (and of a batch job), with the layout kinds that take it."""

SIMULATE_OPTIONS: tuple[Option, ...] = (
    Option("players", ("--players",), "Players: Qwixx 2..5, One to 9 2..6.", frozenset(GAMES), integer(2, 6), 3,
           metavar="N"),
    Option("games", ("--games",), "Games to play, 1..1,000,000.", frozenset(GAMES), integer(1, 1_000_000), 1000,
           metavar="N"),
    Option("seed", ("--seed",), "Seed: the same seed plays the same games.", frozenset(GAMES),
           integer(-(2**63), 2**63 - 1), 1, metavar="N"),
    Option("strategy", ("--strategy",), "How the simulated players decide: greedy, random, or mixed (greedy and "
           "random alternate).", frozenset(GAMES), choice(("greedy", "random", "mixed")), "greedy",
           metavar="NAME"),
    Option("render", ("--render",), "Also draw the first game's final sheets into FILE (.pdf, .svg or .png).",
           frozenset({DICE, CARDS}), _render, metavar="FILE"),
    Option("lang", ("--lang", "-l"), "With --render: the language of the drawn sheets.", frozenset({DICE, CARDS}),
           choice(("en", "it", "de", "pl", "fr")), "en", metavar="LANG"),
    Option("symbols", ("--symbols",), "With --render: colour shapes on the drawn sheets.",
           frozenset({DICE, CARDS}), flag, False, switch=True),
    Option("jokers", ("--jokers",), "Card game: shuffle the 11 jokers in.", frozenset({CARDS}), flag, False,
           switch=True),
    Option("misplay_end", ("--misplay-end",), "Card game: a 4th misplay ends the game too.", frozenset({CARDS}),
           flag, False, switch=True),
    Option("card_game", ("--card-game",), "Play the card game's gemixxt variant (on qwixx-gemixxt-a).",
           frozenset({DICE, CARDS}), flag, False, switch=True,
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
            kind = {SHEET: "a score sheet", DECK: "a deck", BOARD: "a board", TOKENS: "a token sheet",
                    DICE: "a dice game", CARDS: "the card game", NINE: "One to 9"}[taker]
            raise UsageProblem(f"{shown(option)}: does not apply to {subject} ({kind}); it is for "
                               f"{option.takers_text()}")


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
