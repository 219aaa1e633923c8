"""The score-sheet kind: a layout file's keys in, the sheet's model, options, rules check, names and pad plan out.

A score sheet (Qwixx and its editions) is printed as a pad: many sheets,
1, 2 or 4 a page, each sheet's own data (lucky numbers, a shuffled order)
dealt from a seed. Its layout is checked against `printgen.rules.qwixx`,
the authority on every printed number.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from printgen.errors import UsageProblem, shown
from printgen.files import Written, write_items_pdf, write_items_svg
from printgen.games import QWIXX, QWIXX_CARDS, Game
from printgen.kinds.common import (
    CommonOptions,
    Names,
    OptionProblem,
    Palette,
    Plan,
    desk_papers,
    hue_mismatches,
    read_palette,
    read_title,
    refuse_plotter_paper,
    unused_colours,
)
from printgen.labels import catalogue
from printgen.page import PT_PER_MM, Hex, Item, Mm, Page
from printgen.printing.imposition import plan_grid
from printgen.printing.paper import PAPERS, paper_size
from printgen.rules import qwixx
from printgen.tomlkeys import Fields
from printgen.values import did_you_mean

if TYPE_CHECKING:  # (the builders and the measuring are loaded when a sheet is drawn, not to list layouts)
    from printgen.measure import Sizes

NAME = "score-sheet"
SHEETS_PER_PAGE = (1, 2, 4)
PAD = 50
"""Sheets in a pad unless --sheets says otherwise (the default pack's pads too)."""
MAX_SVG_FILES = 500
"""Most files an SVG set holds (one file per distinct sheet)."""
IMPOSSIBLE_PT = 3.0
IMPOSSIBLE_MM = 3.5
"""Below these a sheet cannot be used at all (refused); between them and the minimums, a warning."""


# -- the model -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RowLayout:
    """One row: its (lock) colour, numbers as printed left to right, the numbers that lock it, and extras.

    `segments` colours runs of cells (gemixxt A); `bonus` lists boxed numbers
    (Bonus A); `bonus_fields` maps numbers to bonus kinds 1..5 (Bonus B).
    """

    colour: str
    numbers: tuple[int, ...]
    locks_with: tuple[int, ...]
    segments: tuple[tuple[str, tuple[int, ...]], ...] = ()
    bonus: tuple[int, ...] = ()
    bonus_fields: tuple[tuple[int, int], ...] = ()

    @property
    def cell_colours(self) -> tuple[str, ...]:
        """Each cell's colour, left to right."""
        if not self.segments:
            return (self.colour,) * len(self.numbers)
        return tuple(colour for colour, numbers in self.segments for _ in numbers)

    def bonus_kind(self, number: int) -> int | None:
        """The Bonus B kind printed on `number`, if any."""
        return dict(self.bonus_fields).get(number)


@dataclass(frozen=True, slots=True)
class PenaltyLayout:
    """The penalty boxes: how many, the points each is worth (negative) and their label key."""

    count: int
    points: int
    label: str


@dataclass(frozen=True, slots=True)
class PointsTableLayout:
    """The crosses -> points table printed under the rows."""

    crosses: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ScoreSheetLayout(Palette):
    """A Qwixx-style score sheet."""

    name: str
    source: str
    title: str
    rules: str
    width: Mm
    height: Mm
    palette: tuple[tuple[str, Hex], ...]
    rows: tuple[RowLayout, ...]
    penalties: PenaltyLayout
    points_table: PointsTableLayout
    totals_label: str
    lucky_numbers: bool = False
    bonus_row: tuple[str, ...] = ()
    description: str = ""
    kind: str = NAME

    @property
    def bonus_boxes(self) -> bool:
        """True when the sheet prints Bonus B's five bonus boxes."""
        return any(row.bonus_fields for row in self.rows)

    @property
    def shuffles(self) -> bool:
        """True when its sheets can be printed with a new number order each (gemixxt B)."""
        return bool(qwixx.variant(self.rules).shuffled_lock_numbers)

    @property
    def varies(self) -> bool:
        """True when the sheets of a pad can differ (lucky numbers, or a shuffled order)."""
        return self.lucky_numbers or self.shuffles


# -- its options -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetOptions(CommonOptions):
    """Options of a pad of score sheets (and the common ones): `sheets` in the pad (default PAD), `per_page`
    1, 2 or 4 (default: as many as fit the paper at full size, at least one; 1 without a paper: pages of the
    sheet's own size, with `bleed`), a `seed` for the sheets' own data, colour `symbols`, the `lucky_pool`,
    `shuffle`d numbers, and `scan_marks` (corner markers and a code, so that `printgen score` can read photos
    of the sheets)."""

    sheets: int | None = None
    per_page: int | None = None
    seed: int = 1
    symbols: bool = False
    lucky_pool: str = "balanced"
    shuffle: bool = False
    bleed: float | None = None
    scan_marks: bool = True

    @property
    def pad_sheets(self) -> int:
        """Sheets in the pad (default PAD)."""
        return self.sheets if self.sheets is not None else PAD

    @property
    def sheet_pages(self) -> bool:
        """True when each page is a sheet's own size (--per-page 1 and no paper)."""
        return self.per_page == 1 and self.paper is None

    @property
    def sheet_bleed(self) -> float:
        """The bleed around each single sheet (default none)."""
        return self.bleed or 0.0


def fitting(layout: ScoreSheetLayout, paper: str) -> int:
    """As many sheets of `layout` as fit a page of `paper` at full size (of 1, 2 and 4), at least one."""
    return next((n for n in sorted(SHEETS_PER_PAGE, reverse=True)
                 if plan_grid(paper_size(paper), layout.width, layout.height, n).scale >= 0.999), 1)


def sheets_a_page(layout: ScoreSheetLayout, options: SheetOptions) -> int:
    """Sheets on each page: --per-page, else as many as fit the paper at full size."""
    return options.per_page if options.per_page is not None else fitting(layout, options.page_paper)


# -- the kind --------------------------------------------------------------------------------------------------


class ScoreSheets:
    """The score-sheet kind (see the module docstring)."""

    name = NAME
    noun = "a score sheet"
    plural = "score sheets"
    layout_type = ScoreSheetLayout
    options_type = SheetOptions

    def read(self, top: Fields, name: str, source: str) -> ScoreSheetLayout | None:
        """The sheet described by the keys of `top` (problems noted in it)."""
        return _read(top, name, source)

    def game(self, layout: ScoreSheetLayout) -> Game:
        """The card game's sheet belongs to the card game; every other sheet to the dice game."""
        return QWIXX_CARDS if qwixx.variant(layout.rules).card_game else QWIXX

    def describe(self, layout: ScoreSheetLayout) -> str:
        """Its size, for `printgen list`."""
        return f"{layout.width:g} x {layout.height:g} mm"

    def mismatches(self, layout: ScoreSheetLayout) -> list[tuple[str, str]]:
        """Every way the sheet disagrees with its rules (key, what), then whether it can be drawn at all."""
        return (_mismatches(layout) + hue_mismatches(layout.palette)) or _drawing(layout)

    def warnings(self, layout: ScoreSheetLayout, options: CommonOptions | None = None) -> list[str]:
        """Text or fields below the minimums at 100 %, or a sheet printed scaled down on its paper."""
        lang = options.lang if options else "en"
        paper = options.page_paper if options else "a4"
        per_page = fitting(layout, paper)
        on_paper = True
        if isinstance(options, SheetOptions):
            per_page = sheets_a_page(layout, options)
            on_paper = "pdf" in options.formats and not options.sheet_pages  # (SVGs and sheet pages: its own size)
        found = [f"{layout.source}: {problem} at 100 %" for problem in sheet_sizes(layout, lang, False).problems()]
        found += colour_warnings(layout, lang)
        grid = plan_grid(paper_size(paper), layout.width, layout.height, per_page)
        if on_paper and grid.scale < 0.999:
            whole = [name for name in desk_papers()
                     if plan_grid(PAPERS[name], layout.width, layout.height, per_page).scale >= 0.999]
            found.append(f"{layout.source}: the {layout.width:g} x {layout.height:g} mm sheet is printed at "
                         f"{grid.scale:.0%} on {paper}" + (f" with {per_page} a page" if per_page > 1 else "")
                         + " (it does not fit at 100 %; "
                         + (f"-p {whole[0]} holds it whole)" if whole else f"{OWN_SIZE})"))
        return found

    def check_options(self, layout: ScoreSheetLayout, options: SheetOptions) -> None:
        """OptionProblem for options that cannot work together on a pad, and for a paper only the board takes."""
        refuse_plotter_paper(options, "score sheets")
        if options.per_page is not None and options.per_page not in SHEETS_PER_PAGE:
            raise OptionProblem("per_page", f"{options.per_page} is not one of "
                                            f"{', '.join(map(str, SHEETS_PER_PAGE))} for score sheets")
        if options.seed != 1 and not (layout.lucky_numbers or options.shuffle):
            raise OptionProblem("seed", f"changes nothing on {layout.name} without --shuffle (its sheets are all "
                                        "alike)")
        if options.bleed is not None and not options.sheet_pages:
            raise OptionProblem("bleed", "score sheets take a bleed only on pages of their own size (--per-page 1 "
                                         "without a paper)")

    def takes_paper(self, layout: ScoreSheetLayout, values: Mapping[str, Any]) -> bool:
        """Pads are printed on paper, except sheet-sized pages (--per-page 1)."""
        return values.get("per_page") != 1

    def paper_part(self, layout: ScoreSheetLayout, options: SheetOptions) -> list[str]:
        """The paper when not A4, and any paper of a one-up build (whose pages are the sheet's own size unless a
        paper is given)."""
        return [options.paper] if options.paper and (options.paper != "a4" or options.per_page == 1) else []

    def size_part(self, layout: ScoreSheetLayout, options: SheetOptions) -> list[str]:
        return []

    def print_part(self, layout: ScoreSheetLayout, options: SheetOptions) -> list[str]:
        """`Nup` when --per-page differs from what fits the paper; the pad's size when not the default (for
        pads of sheets that differ it is in both formats' names: see `variant_part`)."""
        parts = []
        if options.per_page is not None and (options.sheet_pages or options.per_page != fitting(
                layout, options.page_paper)):
            parts.append(f"{options.per_page}up")
        if options.bleed is not None:
            parts.append(f"bleed{options.bleed:g}mm")
        if not layout.varies and options.pad_sheets != PAD:
            parts.append(_sheets(options.pad_sheets))
        return parts

    def variant_part(self, layout: ScoreSheetLayout, options: SheetOptions) -> list[str]:
        parts = [_sheets(options.pad_sheets)] if layout.varies and options.pad_sheets != PAD else []
        parts += ["symbols"] if options.symbols else []
        parts += ["shuffled"] if options.shuffle else []
        parts += ["unmarked"] if not options.scan_marks else []
        if layout.lucky_numbers and options.lucky_pool != "balanced":
            parts.append(f"pool-{_pool_name(layout, options.lucky_pool)}")
        if (layout.lucky_numbers or options.shuffle) and options.seed != 1:
            parts.append(f"seed{options.seed}")
        return parts

    def svg_folder(self, layout: ScoreSheetLayout, options: SheetOptions) -> bool:
        """Sheets that differ are one SVG each."""
        return layout.lucky_numbers or options.shuffle

    def about(self, layout: ScoreSheetLayout, options: SheetOptions, fmt: str) -> tuple[list[str], frozenset[str]]:
        """The pad's size in words, and the options that says already: its sheets and sheets a page in the PDF;
        one sheet in an SVG (the pad's sheets are alike), else as many sheets as the SVG folder is of."""
        if fmt == "svg":
            return ["one sheet" if not self.svg_folder(layout, options) else f"{options.pad_sheets} sheets"], \
                frozenset({"sheets", "per_page", "bleed"})
        sheets = f"{options.pad_sheets} sheet{'s' if options.pad_sheets != 1 else ''}"
        return [f"{sheets}, {sheets_a_page(layout, options)} a page"], frozenset({"sheets", "per_page"})

    def plan(self, layout: ScoreSheetLayout, options: SheetOptions, names: Names) -> Plan:
        """A pad of score sheets: OUT/NAME.pdf (imposed) and OUT/NAME.svg (or a folder when sheets differ)."""
        from printgen.builders.pad import pad_items

        def items() -> Iterator[Item]:
            return pad_items(layout, options.pad_sheets, seed=options.seed, lang=options.lang, symbols=options.symbols,
                             lucky_pool=options.lucky_pool, shuffle=options.shuffle, scan_marks=options.scan_marks)

        items()  # deals the lucky pairs now: a bad pool is refused before anything is written
        targets, writers = [], []
        pages = 0
        if "pdf" in options.formats:
            per_page = sheets_a_page(layout, options)
            if not options.sheet_pages:
                refuse_illegible(layout, options, per_page)
            target = options.out / f"{names.pdf}.pdf"
            pages = -(-options.pad_sheets // per_page)

            def write_pdf(on_page: Any) -> Written:
                return write_items_pdf(items(), target, f"{names.pdf}: {options.pad_sheets} sheets", options.pdf,
                                       paper=None if options.sheet_pages else options.page_paper, per_page=per_page,
                                       bleed=options.sheet_bleed, about=names.about, on_page=on_page)

            targets.append(target)
            writers.append(write_pdf)
        if "svg" in options.formats:
            if options.shuffle and options.pad_sheets > MAX_SVG_FILES:
                raise UsageProblem(f"--format: an SVG set holds at most {MAX_SVG_FILES} files, and every shuffled "
                                   f"sheet is a file of its own ({options.pad_sheets:,}); build the pad as PDF "
                                   f"(-f pdf), or at most {MAX_SVG_FILES} sheets as SVG")
            folder = self.svg_folder(layout, options)
            targets.append(options.out / names.svg if folder else options.out / f"{names.svg}.svg")
            writers.append(lambda on_page: write_items_svg(names.svg, items(), options.out, folder,
                                                           names.svg_about, options.svg_text))
        return Plan(layout, options, tuple(targets), tuple(writers), pages, names)


KIND = ScoreSheets()


def _sheets(count: int) -> str:
    """The name part for a pad of `count` sheets: "100sheets", "1sheet"."""
    return f"{count}sheet{'' if count == 1 else 's'}"


OWN_SIZE = "--per-page 1 with no paper prints it at its own size"
"""The way out when no paper holds a sheet at full size (pages of the sheet's size, for a print shop)."""


def refuse_illegible(layout: ScoreSheetLayout, options: SheetOptions, per_page: int) -> None:
    """UsageProblem when `per_page` sheets a page would shrink a sheet below the minimum sizes (6 pt text, 7 mm
    fields) where it was not below them at full size, naming the option sets that print it no worse and where a
    paper not typed came from.
    (The default sheets a page never shrinks one: it is what fits at full size, or one.)"""
    paper = options.page_paper
    grid = plan_grid(paper_size(paper), layout.width, layout.height, per_page)
    full = sheet_sizes(layout, options.lang, options.symbols)
    scaled = full.scaled(grid.scale)

    def worse(scale: float) -> bool:  # (what is too small by its own design, check and build warn about)
        return len(full.scaled(scale).problems()) > len(full.problems())

    if not worse(grid.scale):
        return  # legible as printed, or no more illegible than the sheet's own design
    fits = [name for name in desk_papers() if not worse(plan_grid(PAPERS[name], layout.width, layout.height,
                                                           per_page).scale)]
    fewer = next((n for n in (2, 1) if n < per_page and not worse(
        plan_grid(paper_size(paper), layout.width, layout.height, n).scale)), None)
    typed = options.per_page is not None  # (not typed: the default, one a page, since no more fit)
    hints = [f"--per-page {fewer}"] if fewer else []
    if fits:
        hints.append(f"--per-page {per_page} with -p {fits[0]}" if typed and per_page > 1 else f"-p {fits[0]}")
    hint = (f"use {', or '.join(hints)}" if hints else
            f"no paper printgen knows holds it legibly: {OWN_SIZE}, or make the sheet smaller")
    origins = dict(options.origins)
    key = "per_page" if typed else "paper"
    lead = f"{key} (from {origins[key]})" if key in origins else f"--{key.replace('_', '-')}"
    origin = origins.get("paper") if typed else None  # (the paper's origin is said once)
    paper_shown = f"{paper} (from {origin})" if origin and options.paper is not None else paper
    what = (f"{per_page} {layout.name} sheets a page print" if per_page > 1
            else f"the {layout.width:g} x {layout.height:g} mm {layout.name} sheet prints")
    raise UsageProblem(f"{lead}: {what} at {grid.scale:.0%} on {paper_shown}, with {' and '.join(scaled.problems())}; "
                       f"{hint}")


def _pool_name(layout: ScoreSheetLayout, pool: str) -> str:
    """A lucky pool as a file name says it: `all`, or its pairs as dealt (`4-9_5-8`: "9-4, 5-8" is the same pool)."""
    from printgen.rules.lucky import parse_pool

    try:
        pairs = parse_pool(pool, qwixx.variant(layout.rules).dice_sides)
    except ValueError:  # (refused when the pad is dealt, with the reason)
        return pool.replace(",", "_")
    return pool if pool == "all" else "_".join(f"{a}-{b}" for a, b in pairs)


@cache
def sheet_sizes(layout: ScoreSheetLayout, lang: str, symbols: bool) -> Sizes:
    """The smallest text and writable field of `layout`'s blank sheet at 100 %."""
    from printgen.measure import sizes

    return sizes(_blank_page(layout, lang, symbols))


@cache
def _blank_page(layout: ScoreSheetLayout, lang: str, symbols: bool) -> Page:
    """`layout`'s blank sheet as a page."""
    from printgen.builders.scoresheet import build_sheet

    return build_sheet(layout, lang, symbols).as_page()


def colour_warnings(layout: ScoreSheetLayout, lang: str = "en") -> list[str]:
    """The sheet's text that reads at less than 3:1 on what is behind it, a row colour that hardly shows on white
    paper (its band and fields would not), two row colours that print alike (rows are told apart by colour), and
    a colour of [palette] that nothing uses (a typo, or a colour the designer expected to see)."""
    from printgen.colours import legibility
    from printgen.measure import alike, worst_contrast

    found = worst_contrast(layout.source, [(_blank_page(layout, lang, False), "#ffffff")])
    hexes = dict(layout.palette)
    used = list(dict.fromkeys(colour for row in layout.rows for colour in row.cell_colours if colour in hexes))
    for name in used:
        shows = legibility(hexes[name], "#ffffff")
        if shows < MIN_BAND_CONTRAST:
            found.append(f"{layout.source}: palette.{name}: {hexes[name]} hardly shows on white paper "
                         f"({shows:.2f}:1): its rows' bands and fields would not be seen")
    found += alike(layout.source, [(name, hexes[name]) for name in used], "the rows")
    return found + unused_colours(layout.source, layout.palette, set(used) | set(layout.bonus_row),
                                  "no row uses it (a row names its colour in `colour`)")


MIN_BAND_CONTRAST = 1.25
"""Least contrast (colour and grey) of a row's colour on white paper: a paler band hides its white fields (the
built-in yellow reads at 1.6:1)."""


# -- held against the rules ------------------------------------------------------------------------------------


def _mismatches(layout: ScoreSheetLayout) -> list[tuple[str, str]]:
    spec = qwixx.variant(layout.rules)
    found: list[tuple[str, str]] = []
    if len(layout.rows) != len(spec.rows):
        found.append(("rows", f"{len(layout.rows)} rows, the {spec.name} rules have {len(spec.rows)}"))
    for index, (row, rule) in enumerate(zip(layout.rows, spec.rows)):
        key = f"rows[{index}]"
        if row.colour != rule.colour:
            found.append((f"{key}.colour", f"{row.colour!r}, the rules say {rule.colour!r}"))
        if row.numbers != rule.numbers:
            found.append((f"{key}.numbers", f"{list(row.numbers)}, the rules say {list(rule.numbers)}"))
        locks = spec.lock_numbers(index)
        if row.locks_with != locks:
            found.append((f"{key}.locks_with", f"{list(row.locks_with)}, the rules say {list(locks)}"))
        if (row.segments or len(set(rule.cell_colours)) > 1) and row.cell_colours != rule.cell_colours:
            found.append((f"{key}.segments", (f"cell colours {list(row.cell_colours)}, "
                                             f"the rules say {list(rule.cell_colours)}")))
        boxed = spec.bonus_numbers[index] if spec.bonus_numbers else frozenset()
        if set(row.bonus) != boxed:
            found.append((f"{key}.bonus", f"{sorted(row.bonus)}, the rules say {sorted(boxed)}"))
        kinds = {n: k for (r, n), k in spec.bonus_kinds.items() if r == index}
        if dict(row.bonus_fields) != kinds:
            found.append((f"{key}.bonus_fields", f"{dict(row.bonus_fields)}, the rules say {kinds}"))
    if layout.bonus_row != spec.bonus_row:
        found.append(("bonus_row", f"{list(layout.bonus_row)}, the rules say {list(spec.bonus_row)}"))
    if layout.lucky_numbers != spec.lucky:
        found.append(("lucky_numbers", (f"{str(layout.lucky_numbers).lower()}, the rules say "
                                       f"{str(spec.lucky).lower()}")))
    penalty_word = "misplays" if spec.card_game else "misthrows"
    if layout.penalties.label != penalty_word:
        found.append(("penalties.label", (f"{layout.penalties.label!r}, the {spec.name} rules call them "
                                         f"{penalty_word!r}")))
    if layout.totals_label in ("misthrows", "misplays"):  # (the sum of the totals line, printed as the penalties)
        found.append(("totals.label", (f"{layout.totals_label!r} names the penalties; the last box of the totals line "
                                      "is the sheet's total ('total', 'points')")))
    if layout.penalties.count != spec.max_penalties:
        found.append(("penalties.count", f"{layout.penalties.count}, the rules say {spec.max_penalties}"))
    if layout.penalties.points != -spec.penalty_points:
        found.append(("penalties.points", f"{layout.penalties.points}, the rules say {-spec.penalty_points}"))
    table = qwixx.points_table(spec.name)
    crosses = list(range(1, len(table) + 1))
    if list(layout.points_table.crosses) != crosses:
        found.append(("points_table.crosses", f"{list(layout.points_table.crosses)}, the rules say {crosses}"))
    for i, (printed, right) in enumerate(zip(layout.points_table.points, table)):
        if printed != right:
            found.append((f"points_table.points[{i}]", f"{printed} for {i + 1} crosses, the rules say {right}"))
    if len(layout.points_table.points) != len(table):
        found.append(("points_table.points", f"{len(layout.points_table.points)} entries, the rules say {len(table)}"))
    return found


def _drawing(layout: ScoreSheetLayout) -> list[tuple[str, str]]:
    """Draw the sheet once in every language (nothing is written): a title too long for the sheet, or a sheet
    too small to use at all, is found here as `build` would trip over it."""
    from printgen.builders.geometry import bonus_text_overflow, sheet_geometry
    from printgen.builders.scoresheet import title_size
    from printgen.labels import languages
    from printgen.measure import MIN_TEXT_PT

    try:
        for lang in languages():
            if title_size(layout, catalogue(lang)) * PT_PER_MM < MIN_TEXT_PT:
                return [("title", (f"{shown(layout.title)} is too long for a {layout.width:g} mm sheet: beside the "
                                  f"name line it would print below {MIN_TEXT_PT:g} pt in {lang} (a layout prints "
                                  f"in every language: {', '.join(languages())}); a shorter title or a wider sheet "
                                  "keeps it"))]
        overflow = bonus_text_overflow(sheet_geometry(layout)) if layout.bonus_boxes else None
        if overflow is not None:
            from dataclasses import replace

            lang, kind = overflow
            wide = next((w for w in range(int(layout.width) // 5 * 5 + 5, 501, 5)
                         if bonus_text_overflow(sheet_geometry(replace(layout, width=w))) is None), None)
            keeps = f"a sheet at least {wide} mm wide keeps it" if wide else "no sheet printgen draws keeps it"
            why = (f"{layout.width:g} mm is too narrow for the bonus boxes: box {'ABCDE'[kind - 1]}'s rule text would "
                   f"run past its field in {lang} even at {MIN_TEXT_PT:g} pt (a layout prints in every language: "
                   f"{', '.join(languages())}); {keeps}")
            return [("size", why)]
        measured = sheet_sizes(layout, "en", False)
        if measured.text_pt < IMPOSSIBLE_PT or measured.field_mm < IMPOSSIBLE_MM:
            why = _too_small(layout, measured)
            return [("size", f"{layout.width:g} x {layout.height:g} mm is too small for this sheet: {why}")]
    except (KeyError, ValueError, IndexError, AssertionError, ZeroDivisionError) as error:
        return [("layout", f"cannot be drawn: {type(error).__name__} {error}")]
    return []


def _too_small(layout: ScoreSheetLayout, measured: Sizes) -> str:
    """What is too small, in sizes that exist, and the size the sheet needs (grown in its own proportions)."""
    from dataclasses import replace

    if measured.text_pt > 0 and measured.field_mm > 0:
        what = " and ".join(measured.problems())
    else:  # the rows, tables and totals do not even fit: the sizes computed are no sizes at all
        what = "its rows, points table and totals do not fit"
    for height in range(int(layout.height) // 5 * 5 + 5, 501, 5):  # as wide, how high (in 5 mm steps)?
        if not sheet_sizes(replace(layout, height=height), "en", False).problems():
            return f"{what}; {layout.width:g} mm wide it needs about {height} mm of height"
    return what


# -- read from a layout file -----------------------------------------------------------------------------------


def _read(top: Fields, name: str, source: str) -> ScoreSheetLayout | None:
    title = read_title(top)
    rules = top.string("rules")
    spec = None
    if rules is not None:
        try:
            spec = qwixx.variant(rules)
        except ValueError as error:
            top.problem("rules", str(error))
    size = top.table("size")
    width = height = None
    if size is not None:
        width = size.number("width", 50, 500)
        height = size.number("height", 30, 500)
        size.finish()
    palette = read_palette(top)
    rows = [_row(fields, spec, palette, index) for index, fields in enumerate(top.tables("rows", 1, 8))]
    penalties = _penalties(top)
    table = _points_table(top, rows)
    totals = top.table("totals")
    totals_label = None
    if totals is not None:
        totals_label = _label(totals, "label")
        totals.finish()
    lucky_numbers = top.flag("lucky_numbers")
    bonus_row: tuple[str, ...] | None = ()
    if top.has("bonus_row"):
        bonus_row = top.strings("bonus_row", 1, 30)
        if bonus_row is not None and palette is not None:
            unknown = [c for c in bonus_row if c not in palette]
            if unknown:
                top.problem("bonus_row", f"{unknown[0]!r} is not in [palette] ({', '.join(palette)})")
                bonus_row = None
    parts = (title, rules, spec, width, height, palette, penalties, table, totals_label, bonus_row, *rows)
    if top.problems or any(part is None for part in parts):
        return None
    assert bonus_row is not None
    assert title and rules and width and height and palette and penalties and table and totals_label
    return ScoreSheetLayout(name=name, source=source, title=title, rules=rules, width=width, height=height,
                            palette=tuple(palette.items()), rows=tuple(r for r in rows if r is not None),
                            penalties=penalties, points_table=table, totals_label=totals_label,
                            lucky_numbers=lucky_numbers, bonus_row=bonus_row)


def _row(fields: Fields, spec: qwixx.VariantSpec | None, palette: dict[str, str] | None,
         index: int) -> RowLayout | None:
    colour = _palette_colour(fields, "colour", palette)
    numbers = fields.integers("numbers", 2, 20)
    if numbers is not None and spec is not None:
        numbers = _possible(fields, "numbers", numbers, spec)
    numbers = _once(fields, "numbers", numbers, "printed")
    locks = _once(fields, "locks_with", fields.integers("locks_with", 1, 4), "listed")
    if locks is not None and numbers is not None and tuple(numbers[-len(locks) :]) != locks:
        rule_locks = spec.lock_numbers(index) if spec is not None and index < len(spec.rows) else ()
        if set(locks) == set(numbers[-len(locks):]):  # (the rightmost numbers, listed in another order)
            fields.problem("locks_with", f"{list(locks)}: list them as they are printed, "
                                         f"{list(numbers[-len(locks):])}")
        elif set(locks) <= set(numbers) and set(locks) == set(rule_locks):
            # the lock numbers are the rules' and are printed, only not last: the numbers are in the wrong order
            fields.problem("numbers", f"the row locks with {_words(locks)} (locks_with), so "
                                      f"{'it' if len(locks) == 1 else 'they'} must be printed last, not "
                                      f"{_words(numbers[-len(locks):])}")
            numbers = None
        else:
            fields.problem("locks_with", f"{list(locks)} must be the row's rightmost numbers")
        locks = None
    segments = _segments(fields, numbers, palette) if fields.has("segments") else ()
    bonus: tuple[int, ...] | None = ()
    if fields.has("bonus"):
        bonus = _once(fields, "bonus", fields.integers("bonus", 1, 20), "listed")
        bonus = _on_row(fields, "bonus", bonus, numbers)
    bonus_fields = _bonus_fields(fields, numbers) if fields.has("bonus_fields") else ()
    fields.finish()
    if None in (colour, numbers, locks, segments, bonus, bonus_fields):
        return None
    assert colour and numbers and locks and segments is not None and bonus is not None and bonus_fields is not None
    return RowLayout(colour, numbers, locks, segments, bonus, bonus_fields)


def _once(fields: Fields, key: str, numbers: tuple[int, ...] | None, done: str) -> tuple[int, ...] | None:
    """`numbers`, or None with a problem of `key` naming those given twice ("2 printed twice")."""
    if numbers is None or len(set(numbers)) == len(numbers):
        return numbers
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    fields.problem(key, f"{', '.join(map(str, twice))} {done} twice")
    return None


def _words(numbers: tuple[int, ...]) -> str:
    return " and ".join(map(str, numbers))


def _palette_colour(fields: Fields, name: str, palette: dict[str, str] | None) -> str | None:
    colour = fields.string(name)
    if colour is not None and palette is not None and colour not in palette:
        fields.problem(name, f"{colour!r} is not in [palette] ({', '.join(palette)})")
        return None
    return colour


def _possible(fields: Fields, name: str, numbers: tuple[int, ...], spec: qwixx.VariantSpec) -> tuple[int, ...] | None:
    sums = spec.possible_sums
    for number in numbers:
        if number not in sums:
            fields.problem(name, f"{number} is not a possible sum ({sums.start}..{sums.stop - 1})")
            return None
    return numbers


def _on_row(fields: Fields, name: str, values: tuple[int, ...] | None,
            numbers: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if values is None or numbers is None:
        return values
    for value in values:
        if value not in numbers:
            fields.problem(name, f"{value} is not a number of this row")
            return None
    return values


def _segments(fields: Fields, numbers: tuple[int, ...] | None,
              palette: dict[str, str] | None) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    segments = []
    for part in fields.tables("segments", 1, 20):
        colour = _palette_colour(part, "colour", palette)
        run = part.integers("numbers", 1, 20)
        part.finish()
        if colour is None or run is None:
            return None
        segments.append((colour, run))
    if not segments:
        return None
    if numbers is not None and tuple(n for _, run in segments for n in run) != numbers:
        fields.problem("segments", "the segments' numbers, in order, must be the row's numbers")
        return None
    return tuple(segments)


def _bonus_fields(fields: Fields, numbers: tuple[int, ...] | None) -> tuple[tuple[int, int], ...] | None:
    found = []
    for part in fields.tables("bonus_fields", 1, 20):
        number = part.integer("number", 1, 99)
        kind = part.integer("kind", 1, 5)
        part.finish()
        if number is None or kind is None or _on_row(part, "number", (number,), numbers) is None:
            return None
        found.append((number, kind))
    if _once(fields, "bonus_fields", tuple(number for number, _ in found), "listed") is None:
        return None
    return tuple(found) if found else None


def _penalties(top: Fields) -> PenaltyLayout | None:
    fields = top.table("penalties")
    if fields is None:
        return None
    count = fields.integer("count", 1, 10)
    points = fields.integer("points", -100, -1)
    label = _label(fields, "label")
    fields.finish()
    if count is None or points is None or label is None:
        return None
    return PenaltyLayout(count, points, label)


def _points_table(top: Fields, rows: list[RowLayout | None]) -> PointsTableLayout | None:
    fields = top.table("points_table")
    if fields is None:
        return None
    crosses = fields.integers("crosses", 1, 20)
    points = fields.integers("points", 1, 20)
    if crosses is not None and points is not None and len(crosses) != len(points):
        fields.problem("points", f"has {len(points)} entries but crosses has {len(crosses)}")
        points = None
    first = rows[0] if rows else None
    if crosses is not None and first is not None:
        most = len(first.numbers) - len(first.locks_with) + 2  # numbers before the locks, one lock number, the lock
        if len(crosses) != most:
            fields.problem("crosses", f"has {len(crosses)} entries, but a row of this sheet holds up to {most} crosses "
                                      f"(its {len(first.numbers)} numbers less the {len(first.locks_with)} of "
                                      "rows[0].locks_with, one lock number and the lock: is locks_with right?)")
            crosses = None
    fields.finish()
    if crosses is None or points is None:
        return None
    return PointsTableLayout(crosses, points)


def _label(fields: Fields, name: str) -> str | None:
    key = fields.string(name)
    if key is not None and key not in catalogue():
        hint = did_you_mean(key, catalogue()) or (": a label is the key of a word in printgen's catalogues "
                                                  "(printgen/labels/en.toml), printed in the language -l asks for; "
                                                  "e.g. 'misthrows', 'misplays', 'total'")
        fields.problem(name, f"{key!r} is not a label key{hint}")
        return None
    return key
