"""Building one layout: a layout name or path and build options in, checked PDF/SVG files on disk out."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import cache
from itertools import chain
from pathlib import Path
from typing import Any

from printgen import layouts
from printgen.builders.pad import pad_items
from printgen.check import require_agreement
from printgen.colour_management import press
from printgen.errors import UsageProblem
from printgen.labels import catalogue
from printgen.layouts.model import BoardLayout, DeckLayout, Layout, ScoreSheetLayout, TokenLayout
from printgen.measure import MIN_TEXT_PT, Sizes, sizes
from printgen.naming import base_name, planned_outputs, subject, svg_is_folder
from printgen.options import BUILD_BY_KEY, SHEETS_PER_PAGE, Option, parse, refuse_inapplicable
from printgen.output import atomic_file, atomic_folder, check_file_target, check_folder_target
from printgen.page import Document, Item, Page
from printgen.printing.imposition import impose, plan_grid, single_pages
from printgen.printing.paper import MARGIN, paper_size
from printgen.rules.sheet import Sheet

FORMATS = ("pdf", "svg")
MAX_SVG_FILES = 500
"""Most files an SVG set holds (one file per distinct sheet or card face)."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What to build and where, and how: every option of `printgen build` (declared in printgen.options).

    None means "the kind's default": paper a4 (the board: the smallest paper
    it fits), one page full of sheets, the layout's card size, as many cards
    a page as fit. A field left at its default never counts as given; one
    set to anything else must apply to the layout's kind (`validate`).
    Colour: `cmyk` converts through the bundled FOGRA39 press profile, `icc`
    through this CMYK profile instead (it implies `cmyk`); `svg_text` says how
    SVGs carry text ("outline": glyph outlines that look the same everywhere;
    "font": editable text naming Roboto).
    """

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf",)
    paper: str | None = None
    sheets: int | None = None
    per_page: int | None = None
    seed: int = 1
    lang: str = "en"
    symbols: bool = False
    lucky_pool: str = "balanced"
    shuffle: bool = False
    cmyk: bool = False
    card_size: str | None = None
    bleed: float | None = None
    gap: float = 0.0
    crop_marks: bool = True
    corner_guide: bool = False
    duplex: str = "long"
    backs_file: bool = False
    alignment_page: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    tile: bool = False
    printer_margin: float = 5.0
    output: str | None = None
    timestamp: bool = False
    svg_text: str = "outline"
    icc: Path | None = None
    scan_marks: bool = True
    """Score sheets: corner markers and a code, so that `printgen score` can read photos of them."""

    @property
    def page_paper(self) -> str:
        """The paper for sheets, decks, tokens and board tiles (default A4)."""
        return self.paper or "a4"

    @property
    def card_bleed(self) -> float:
        """The bleed around each card (default 3 mm)."""
        return 3.0 if self.bleed is None else self.bleed

    @property
    def sheet_bleed(self) -> float:
        """The bleed around each single score sheet (default none)."""
        return self.bleed or 0.0

    @property
    def sheets_per_page(self) -> int:
        """Score sheets per page (default 2)."""
        return self.per_page or 2

    @property
    def pad_sheets(self) -> int:
        """Sheets in the pad (default: one page full)."""
        return self.sheets if self.sheets is not None else self.sheets_per_page

    def given(self) -> list[str]:
        """The option keys set to anything but their default."""
        defaults = BuildOptions()
        return [f.name for f in fields(self) if f.name not in ("out", "formats") and
                getattr(self, f.name) != getattr(defaults, f.name)] + (
            ["format"] if self.formats != defaults.formats else [])

    def validate(self, layout: Layout | None = None,
                 shown: Callable[[Option], str] = lambda option: option.flag) -> None:
        """Raise UsageProblem naming the first option that cannot work (for `layout`, if given).

        `shown` names an option in messages (its flag on the command line, its key in a manifest).
        """
        for key in ("paper", "lang", "duplex", "lucky_pool", "card_size", "sheets", "per_page", "bleed", "gap",
                    "seed", "output", "printer_margin"):
            value = getattr(self, key)
            if value is not None:
                parse(BUILD_BY_KEY[key], value, shown(BUILD_BY_KEY[key]))
        if self.back_offset != (0.0, 0.0):
            parse(BUILD_BY_KEY["back_offset"], ",".join(map(repr, self.back_offset)), shown(BUILD_BY_KEY["back_offset"]))
        for fmt in self.formats:
            if fmt not in FORMATS:
                raise UsageProblem(f"{shown(BUILD_BY_KEY['format'])}: {fmt!r} is not one of {', '.join(FORMATS)}")
        if self.out.exists() and not self.out.is_dir():
            raise UsageProblem(f"{shown(BUILD_BY_KEY['out'])}: {self.out} is a file, not a folder")
        parse(BUILD_BY_KEY["svg_text"], self.svg_text, shown(BUILD_BY_KEY["svg_text"]))
        if self.icc is not None:
            icc = Path(self.icc)
            if not icc.is_file():  # (a FIFO would never end)
                raise UsageProblem(f"{shown(BUILD_BY_KEY['icc'])}: {icc}: no such file (or not a regular file)")
            press(icc)  # a UsageProblem naming the file unless it is a CMYK printer profile
        if layout is None:
            return
        given = self.given()
        named = _switch_flags({key: getattr(self, key, None) for key in given}, shown)
        refuse_inapplicable((BUILD_BY_KEY[key] for key in given), layout.kind, layout, layout.name, named)
        if "pdf" not in self.formats:
            for key in given:
                if key in PDF_ONLY:
                    raise UsageProblem(f"{named(BUILD_BY_KEY[key])}: changes only the PDF, and -f svg writes none "
                                       "(use -f both)")
        elif "svg" not in self.formats and "svg_text" in given:
            raise UsageProblem(f"{shown(BUILD_BY_KEY['svg_text'])}: changes only SVGs, and -f pdf writes none "
                               "(use -f both or -f svg)")
        if isinstance(layout, ScoreSheetLayout) and self.per_page is not None and self.per_page not in SHEETS_PER_PAGE:
            raise UsageProblem(f"{shown(BUILD_BY_KEY['per_page'])}: {self.per_page} is not one of "
                               f"{', '.join(map(str, SHEETS_PER_PAGE))} for score sheets")
        if isinstance(layout, ScoreSheetLayout) and self.bleed is not None and self.per_page != 1:
            raise UsageProblem(f"{shown(BUILD_BY_KEY['bleed'])}: score sheets take a bleed only with --per-page 1 "
                               "(one sheet a page)")
        if isinstance(layout, ScoreSheetLayout) and self.paper is not None and self.per_page == 1:
            raise UsageProblem(f"{shown(BUILD_BY_KEY['paper'])}: with --per-page 1 each page is the sheet's own "
                               "size, so no paper applies")
        if self.backs_file and self.duplex != "off":
            raise UsageProblem(f"{shown(BUILD_BY_KEY['backs_file'])}: writes the backs to their own file, which "
                               "needs --duplex off")
        if self.duplex == "off" and not self.backs_file:
            for key in ("alignment_page", "back_offset"):
                if key in given:
                    raise UsageProblem(f"{shown(BUILD_BY_KEY[key])}: is about the backs, and --duplex off prints "
                                       "none (add --backs-file, or use --duplex long or short)")


PDF_ONLY = frozenset({"paper", "per_page", "cmyk", "icc", "duplex", "back_offset", "alignment_page", "crop_marks",
                      "backs_file", "printer_margin", "tile", "timestamp", "gap"})
"""Options that change only the PDF (SVGs are the same whatever the paper or press)."""


def _switch_flags(values: Mapping[str, Any], shown: Callable[[Option], str]) -> Callable[[Option], str]:
    """`shown`, but on the command line a switch `values` turns off is named by its off flag (--no-crop-marks);
    in a file its key stays its name."""
    def named(option: Option) -> str:
        if option.off and values.get(option.key) is False and shown(option).startswith("-"):
            return option.off
        return shown(option)

    return named


def build_options(layout: Layout, given: Mapping[str, Any], defaults: Mapping[str, Any] | None = None,
                  shown: Callable[[Option], str] = lambda option: option.flag) -> BuildOptions:
    """BuildOptions for `layout` from the options given (refused if the layout does not take them) over defaults.

    `given` and `defaults` map option keys to values already read by their declarations; defaults (config
    files, environment, the default pack) apply only where the layout takes them and where they change what
    this build writes. `shown` names an option in messages (a flag on the command line, a key in a manifest).
    """
    refuse_inapplicable((BUILD_BY_KEY[key] for key in given), layout.kind, layout, layout.name,
                        _switch_flags(given, shown))
    given = dict(given)
    explicit_out = "out" in given
    out, output = Path(given.pop("out", (defaults or {}).get("out", "output"))), given.pop("output", None)
    if output is not None:
        out, output = _output(output, given, out, explicit_out, shown)
    values = {key: value for key, value in (defaults or {}).items()
              if key != "out" and BUILD_BY_KEY[key].applies(layout.kind, layout)}
    values |= given
    fmt = values.pop("format", "pdf")
    if fmt == "svg":  # defaults that change only the PDF do not trouble an SVG-only build
        values = {k: v for k, v in values.items() if k in given or k not in PDF_ONLY}
    elif fmt == "pdf":
        values = {k: v for k, v in values.items() if k in given or k != "svg_text"}
    if "paper" not in given and not _takes_paper(layout, values):
        values.pop("paper", None)  # a default paper is for pages printed on paper, not a sheet-sized page or
        # a whole board (which takes the smallest paper it fits)
    if values.get("icc") is not None:
        values["icc"] = Path(values["icc"])
    options = BuildOptions(out=out, formats=("pdf", "svg") if fmt == "both" else (fmt,), output=output, **values)
    options.validate(layout, shown)
    return options


def _output(output: str, given: dict[str, Any], out: Path, explicit_out: bool,
            shown: Callable[[Option], str]) -> tuple[Path, str]:
    """The folder and file name `-o` gives; an extension .pdf or .svg also sets the format (into `given`)."""
    folder, _, stem = str(output).replace("\\", "/").rpartition("/")
    suffix = Path(stem).suffix.lower()
    if suffix in (".pdf", ".svg"):
        stem = stem[: -len(suffix)]
        if "format" not in given:  # -o club.svg: the extension says which file to write
            given["format"] = suffix[1:]
        elif given["format"] not in (suffix[1:], "both"):
            raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} ends in {suffix}, but the format is "
                               f"{given['format']}")
    if stem in ("", ".", ".."):
        raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} does not name a file")
    if folder:
        if explicit_out:
            raise UsageProblem(f"{shown(BUILD_BY_KEY['output'])}: {output!r} names a folder and so does "
                               f"{shown(BUILD_BY_KEY['out'])}; give one of them")
        out = Path(folder)
    return out, stem


def _takes_paper(layout: Layout, values: Mapping[str, Any]) -> bool:
    if isinstance(layout, ScoreSheetLayout):
        return values.get("per_page") != 1
    if isinstance(layout, BoardLayout):
        return bool(values.get("tile"))
    return True


def expected_pages(ref: str, options: BuildOptions) -> int:
    """Pages a build of `ref` will write (pads only; other layouts are small): for progress bars."""
    return page_count(options) if "pdf" in options.formats else 0


ProgressCallback = Callable[[int], None]


Writer = Callable[[], Path]
"""Writes one output (a file or an SVG folder) and returns its path."""


def build(ref: str, options: BuildOptions, on_page: ProgressCallback | None = None,
          on_written: Callable[[Path], None] | None = None) -> list[Path]:
    """Check layout `ref` against the rules and write its files; returns the paths written (each also handed to
    `on_written` as soon as it is whole, so a later failure still reports what was written)."""
    options.validate()
    layout = layouts.load(ref)
    written = []
    for write in plan(layout, options, on_page):
        written.append(write())
        if on_written is not None:
            on_written(written[-1])
    return written


def plan(layout: Layout, options: BuildOptions, on_page: ProgressCallback | None = None) -> list[Writer]:
    """Every check a build of `layout` makes (options, rules, paper fit, lucky pool) done now, and the writers
    that then write its files: a batch plans every job before any job writes."""
    options.validate(layout)
    require_agreement(layout)
    for target in planned_outputs(layout, options):
        if target.suffix in (".pdf", ".svg"):
            check_file_target(target)
        else:
            check_folder_target(target)
    if isinstance(layout, DeckLayout):
        return plan_deck(layout, options, on_page)
    if isinstance(layout, BoardLayout):
        return plan_board(layout, options)
    if isinstance(layout, TokenLayout):
        return plan_tokens(layout, options)
    return plan_pad(layout, options, on_page)


def plan_pad(layout: ScoreSheetLayout, options: BuildOptions, on_page: ProgressCallback | None) -> list[Writer]:
    """A pad of score sheets: OUT/NAME.pdf (imposed) and OUT/NAME.svg (or a folder when sheets differ)."""

    def items() -> Iterator[Item]:
        return pad_items(layout, options.pad_sheets, options.seed, options.lang, options.symbols,
                         options.lucky_pool, options.shuffle, options.scan_marks)

    items()  # deals the lucky pairs now: a bad pool is refused before anything is written
    name, svg_name, about = base_name(layout, options), base_name(layout, options, "svg"), subject(layout, options)
    writers: list[Writer] = []
    if "pdf" in options.formats:
        if options.sheets_per_page > 1:
            refuse_illegible(layout, options)
        writers.append(lambda: write_pad_pdf(name, items(), options, on_page, about))
    if "svg" in options.formats:
        if options.shuffle and options.pad_sheets > MAX_SVG_FILES:
            raise UsageProblem(f"--format: an SVG set holds at most {MAX_SVG_FILES} files, and every shuffled sheet "
                               f"is a file of its own ({options.pad_sheets:,}); build the pad as PDF (-f pdf), or "
                               f"at most {MAX_SVG_FILES} sheets as SVG")
        writers.append(lambda: write_items_svg(svg_name, items(), options.out, svg_is_folder(layout, options), about,
                                               options.svg_text))
    return writers


def refuse_illegible(layout: ScoreSheetLayout, options: BuildOptions) -> None:
    """UsageProblem when `per_page` sheets a page would shrink a legible sheet below the minimum sizes (6 pt
    text, 7 mm fields), naming the option sets that print it legibly."""
    from printgen.printing.paper import PAPERS

    per_page, paper = options.sheets_per_page, options.page_paper
    grid = plan_grid(paper_size(paper), layout.width, layout.height, per_page)
    full = sheet_sizes(layout, options.lang, options.symbols)
    scaled = full.scaled(grid.scale)
    if full.problems() or not scaled.problems():
        return  # legible as printed, or too small by its own design (check and build warn about that)
    fits = [name for name in PAPERS if not full.scaled(
        plan_grid(PAPERS[name], layout.width, layout.height, per_page).scale).problems()]
    fewer = next(n for n in (2, 1) if n < per_page and not full.scaled(
        plan_grid(paper_size(paper), layout.width, layout.height, n).scale).problems())
    hint = f"use --per-page {fewer}" + (f", or --per-page {per_page} with -p {fits[0]}" if fits else "")
    raise UsageProblem(f"--per-page: {per_page} {layout.name} sheets a page print at {grid.scale:.0%} on {paper}, "
                       f"with {' and '.join(scaled.problems())}; {hint}")


@cache
def sheet_sizes(layout: ScoreSheetLayout, lang: str, symbols: bool) -> Sizes:
    """The smallest text and writable field of `layout`'s blank sheet at 100 %."""
    from printgen.builders.scoresheet import build_sheet

    return sizes(build_sheet(layout, lang, symbols).as_page())


def page_count(options: BuildOptions) -> int:
    """Pages of a pad built with `options`."""
    return -(-options.pad_sheets // options.sheets_per_page)


def write_pad_pdf(name: str, items: Iterator[Item], options: BuildOptions,
                  on_page: ProgressCallback | None, about: str = "") -> Path:
    """Impose the pad's sheets `options.per_page` to a page and write OUT/NAME.pdf."""
    target = options.out / f"{name}.pdf"
    title = f"{name}: {options.pad_sheets} sheets"
    return write_items_pdf(items, target, options.page_paper, options.sheets_per_page, title, on_page,
                           options.cmyk, options.timestamp, about=about, bleed=options.sheet_bleed, icc=options.icc)


def write_filled(layout: ScoreSheetLayout, sheets: list[Sheet], target: Path, lang: str = "en",
                 symbols: bool = False) -> Path:
    """Draw one game's final `sheets` filled in, into `target`: a PDF (two to an A4 page), or one SVG or PNG
    picture with the sheets one under another; the format follows the extension."""
    from printgen.builders.filled import filled_sheet
    from printgen.printing.imposition import stacked

    suffix = target.suffix.lower()
    if suffix not in (".pdf", ".svg", ".png"):
        raise UsageProblem(f"--render: {target} must end in .pdf, .svg or .png (the format follows the extension)")
    items = [filled_sheet(layout, sheet, f"{layout.name}-player-{i + 1}", lang, symbols)
             for i, sheet in enumerate(sheets)]
    title = f"{layout.name}: final sheets"
    if suffix == ".pdf":
        return write_items_pdf(iter(items), target, "a4", 2, title, stream=False)
    page = stacked(items)
    if suffix == ".svg":
        from printgen.render.svg import write_svg

        with atomic_file(target) as temporary:
            write_svg(page, temporary, title)
        return target
    import io

    from printgen.preview import open_pdf, render_page
    from printgen.render.pdf import write_pdf

    buffer = io.BytesIO()
    write_pdf(Document(page.symbols(), [page], title), buffer)
    document = open_pdf(buffer)
    try:
        image = render_page(document, 0, round(page.width / 25.4 * 150))
    finally:
        document.close()
    with atomic_file(target) as temporary:
        image.save(temporary, format="PNG")
    return target


def write_items_pdf(items: Iterator[Item], target: Path, paper: str, per_page: int, title: str,
                    on_page: ProgressCallback | None = None, cmyk: bool = False, timestamp: bool = False,
                    stream: bool = True, about: str = "", bleed: float = 0.0, icc: Path | None = None) -> Path:
    """Impose `items` `per_page` to a page of `paper` (1: each on a page of its own size plus `bleed`, with
    trim and bleed boxes) and write them to `target`, atomically.

    With `stream` (items whose extras are all symbol placements, as in pads) pages go to the file one by
    one; otherwise reportlab draws them.
    """
    first = next(items)
    if per_page == 1:
        pages: Iterator[Page] = single_pages(chain([first], items), bleed)
    else:
        pages = impose(chain([first], items), plan_grid(paper_size(paper), first.width, first.height, per_page))
    if not stream:
        return write_pages_pdf(Document(first.art.symbols(), pages, title, _meta(about)), target, on_page, cmyk,
                               timestamp, icc)
    from printgen.index import remember
    from printgen.render.pdfstream import write_streamed_pdf

    document = Document([], pages, title, _meta(about), groups={})
    with atomic_file(target) as temporary:
        write_streamed_pdf(document, str(temporary), on_page, cmyk, timestamp, icc)
    assert document.groups is not None
    remember(target, document.groups, about)
    return target


def write_pages_pdf(document: Document, target: Path, on_page: ProgressCallback | None = None,
                    cmyk: bool = False, timestamp: bool = False, icc: Path | None = None) -> Path:
    """Render `document` into `target`, atomically (byte-identical for the same input unless `timestamp`)."""
    from printgen.render.pdf import write_pdf

    with atomic_file(target) as temporary:
        write_pdf(document, temporary, on_page, cmyk, invariant=not timestamp, icc=icc)
    return target


def plan_deck(layout: DeckLayout, options: BuildOptions, on_page: ProgressCallback | None = None) -> list[Writer]:
    """A deck: fronts (with backs behind them for duplex) as PDF, and/or one SVG per face."""
    from printgen.builders.cards import deck_faces
    from printgen.printing.cards import (
        alignment_pages,
        card_pages,
        card_size,
        mirror_axis,
        plan_cards,
    )

    size = card_size(options.card_size or layout.card_size)
    faces = deck_faces(layout, size, options.card_bleed, options.symbols, options.corner_guide, options.lang)
    smallest = min(sizes(Item(card, face).as_page()).text_pt for card, front, back in faces
                   for face in {front.id: front, back.id: back}.values())
    if smallest < MIN_TEXT_PT - 1e-6:
        raise UsageProblem(f"--card-size: {size[0]:g} x {size[1]:g} mm cards would print text at {smallest:.1f} pt "
                           f"(the minimum is {MIN_TEXT_PT:g} pt); cards at least "
                           f"{size[0] * MIN_TEXT_PT / smallest:.0f} mm wide keep it")
    fronts = [front for _, front, _ in faces]
    backs = [back for _, _, back in faces]
    name, svg_name, about = base_name(layout, options), base_name(layout, options, "svg"), subject(layout, options)
    writers: list[Writer] = []
    if "pdf" in options.formats:
        grid = plan_cards(paper_size(options.page_paper), size, options.card_bleed, options.gap, options.page_paper,
                          options.per_page, options.printer_margin, options.crop_marks)
        axis = mirror_axis("long" if options.duplex == "off" else options.duplex, grid)
        test = list(alignment_pages(grid, axis, options.back_offset, catalogue(options.lang))) \
            if options.alignment_page else []
        title = f"{layout.name}: {len(faces)} cards"

        def write_deck() -> Path:
            front_pages = card_pages(fronts, grid, options.crop_marks)
            back_pages = card_pages(backs, grid, options.crop_marks, axis, options.back_offset)
            if options.duplex == "off":
                pages: Iterator[Page] = chain(test[:1], front_pages)
            else:
                pages = chain(test, chain.from_iterable(zip(front_pages, back_pages)))
            return write_pages_pdf(Document([], pages, title, _meta(about)), options.out / f"{name}.pdf", on_page,
                                   options.cmyk, options.timestamp, options.icc)

        def write_backs() -> Path:
            pages = chain(test[1:], card_pages(backs, grid, options.crop_marks, axis, options.back_offset))
            return write_pages_pdf(Document([], pages, f"{title} (backs)", _meta(about)), options.out / f"{name}-backs.pdf",
                                   None, options.cmyk, options.timestamp, options.icc)

        writers.append(write_deck)
        if options.duplex == "off" and options.backs_file:
            writers.append(write_backs)
    if "svg" in options.formats:

        def write_faces() -> Path:
            from printgen.render.svg import write_svg

            folder = options.out / svg_name
            with atomic_folder(folder) as temporary:
                common_back = len({back.id for _, _, back in faces}) == 1
                for card, front, back in faces:
                    for face, file in ((front, f"{card}-front"), (back, "back" if common_back else f"{card}-back")):
                        target = temporary / f"{file}.svg"
                        if not target.exists():
                            write_svg(Item(card, face).as_page(), target, f"{layout.title}: {file}",
                                      svg_text=options.svg_text, about=about)
            return folder

        writers.append(write_faces)
    return writers


def plan_board(layout: BoardLayout, options: BuildOptions) -> list[Writer]:
    """The board: whole on one page (the paper given, else the smallest that fits) or tiled."""
    from printgen.builders.one_to_nine import FIELD_PAD, board_item
    from printgen.printing.cards import card_size
    from printgen.printing.large import smallest_paper, tile_pages, whole_page

    size = card_size(options.card_size or layout.card_size)
    board = board_item(layout, size, options.lang)
    margin = max(MARGIN, options.printer_margin)
    name, svg_name, about = base_name(layout, options), base_name(layout, options, "svg"), subject(layout, options)
    writers: list[Writer] = []
    if "pdf" in options.formats:
        if options.tile:
            field = (size[0] + 2 * FIELD_PAD, size[1] + 2 * FIELD_PAD)
            pages = tile_pages(board, options.page_paper, field, f"{layout.title}: {catalogue(options.lang)['tile']}",
                               margin)
        else:
            pages = [whole_page(board, options.paper or smallest_paper(board, margin) or "a0", margin)]
        document = Document([], pages, f"{layout.name}: {board.width:.0f} x {board.height:.0f} mm", _meta(about))
        writers.append(lambda: write_pages_pdf(document, options.out / f"{name}.pdf", None, options.cmyk,
                                               options.timestamp, options.icc))
    if "svg" in options.formats:
        writers.append(lambda: write_items_svg(svg_name, iter([board]), options.out, False, about, options.svg_text))
    return writers


def plan_tokens(layout: TokenLayout, options: BuildOptions) -> list[Writer]:
    """The token cut sheet (PDF) and one SVG per kind of token."""
    from printgen.builders.one_to_nine import token_items
    from printgen.printing.tokens import token_pages

    tokens = token_items(layout)
    name, svg_name, about = base_name(layout, options), base_name(layout, options, "svg"), subject(layout, options)
    writers: list[Writer] = []
    if "pdf" in options.formats:
        counts = {group.kind: group.count for group in layout.groups}
        heading = catalogue(options.lang)["tokens_heading"].format(small=counts.get("small-star", 0),
                                                                   big=counts.get("big-star", 0))
        pages = list(token_pages(tokens, paper_size(options.page_paper), f"{layout.title}: {heading}",
                                 max(MARGIN, options.printer_margin)))
        document = Document([], pages, f"{layout.name}: {len(tokens)} tokens", _meta(about))
        writers.append(lambda: write_pages_pdf(document, options.out / f"{name}.pdf", None, options.cmyk,
                                               options.timestamp, options.icc))
    if "svg" in options.formats:
        writers.append(lambda: write_items_svg(svg_name, iter(tokens), options.out, True, about, options.svg_text))
    return writers


def write_items_svg(name: str, items: Iterator[Item], out: Path, folder: bool, about: str = "",
                    svg_text: str = "outline") -> Path:
    """Write OUT/NAME.svg (one item; `folder` False), else OUT/NAME/ with one SVG per distinct item."""
    from printgen.render.svg import write_svg

    distinct: dict[tuple[object, ...], Item] = {}
    for item in items:
        distinct.setdefault((item.art.id, item.extras), item)
    if not folder:
        item = next(iter(distinct.values()))
        target = out / f"{name}.svg"
        with atomic_file(target) as temporary:
            write_svg(item.as_page(), temporary, item.name, svg_text=svg_text, about=about)
        return target
    target = out / name
    with atomic_folder(target) as temporary:
        for item in distinct.values():
            write_svg(item.as_page(), temporary / f"{item.name}.svg", item.name, svg_text=svg_text, about=about)
    return target


def _meta(about: str) -> dict[str, str]:
    return {"subject": about} if about else {}
