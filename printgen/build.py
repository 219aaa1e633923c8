"""Building one layout: a layout name or path and build options in, checked PDF/SVG files on disk out."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from printgen import layouts
from printgen.builders.pad import pad_items
from printgen.check import require_agreement
from printgen.errors import UsageProblem
from printgen.labels import languages
from printgen.layouts.model import BoardLayout, DeckLayout, ScoreSheetLayout, TokenLayout
from printgen.output import atomic_file, atomic_folder
from printgen.page import Document, Item, Page
from printgen.printing.cards import DUPLEX
from printgen.printing.imposition import impose, plan_grid
from printgen.printing.paper import paper_size
from printgen.rules.sheet import Sheet

FORMATS = ("pdf", "svg")
PER_PAGE = (1, 2, 4)
MAX_SHEETS = 100_000
"""Largest pad printgen builds in one file (a 100,000-sheet pad is about 15 MB of PDF)."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What to build and where, and how: every option of `printgen build`.

    Sheets: pad size, sheets per page, seed, language, colour shapes, lucky
    pool, shuffling. Decks: card size, bleed, gap, crop marks, corner guide,
    duplex, backs file, alignment page, back offset (per_page 1 makes
    print-shop pages; None fits as many as the paper holds). Every layout: CMYK.
    """

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf",)
    paper: str | None = None
    sheets: int = 1
    per_page: int | None = None
    seed: int = 1
    lang: str = "en"
    symbols: bool = False
    lucky_pool: str = "balanced"
    shuffle: bool = False
    cmyk: bool = False
    card_size: str | None = None
    bleed: float = 3.0
    gap: float = 0.0
    crop_marks: bool = True
    corner_guide: bool = False
    duplex: str = "long"
    backs_file: bool = False
    alignment_page: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)
    tile: bool = False
    output: str | None = None
    timestamp: bool = False
    scan_marks: bool = True
    """Score sheets: corner markers and a code, so that `printgen score` can read photos of them."""

    def name_for(self, layout_name: str) -> str:
        """The base name of the files written (the layout's name unless `output` is set)."""
        return self.output or layout_name

    @property
    def page_paper(self) -> str:
        """The paper for sheets, decks and tokens (default A4)."""
        return self.paper or "a4"

    @property
    def sheets_per_page(self) -> int:
        """Score sheets per page (default 2)."""
        return self.per_page or 2

    def validate(self) -> None:
        """Raise UsageProblem naming the first option that cannot work."""
        if self.paper is not None:
            paper_size(self.paper)
        if self.lang not in languages():
            raise UsageProblem(f"--lang: {self.lang!r} is not one of {', '.join(languages())}")
        if not 1 <= self.sheets <= MAX_SHEETS:
            raise UsageProblem(f"--sheets: {self.sheets} is out of range 1..{MAX_SHEETS:,}")
        if self.per_page is not None and self.per_page not in PER_PAGE:
            raise UsageProblem(f"--per-page: {self.per_page} is not one of {', '.join(map(str, PER_PAGE))}")
        for fmt in self.formats:
            if fmt not in FORMATS:
                raise UsageProblem(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
        if self.out.exists() and not self.out.is_dir():
            raise UsageProblem(f"--out: {self.out} is a file, not a folder")
        if self.duplex not in DUPLEX:
            raise UsageProblem(f"--duplex: {self.duplex!r} is not one of {', '.join(DUPLEX)}")


ProgressCallback = Callable[[int], None]


def build(ref: str, options: BuildOptions, on_page: ProgressCallback | None = None) -> list[Path]:
    """Check layout `ref` against the rules and write its files; returns the paths written."""
    options.validate()
    layout = layouts.load(ref)
    require_agreement(layout)
    if isinstance(layout, DeckLayout):
        return build_deck(layout, options, on_page)
    if isinstance(layout, BoardLayout):
        return build_board(layout, options)
    if isinstance(layout, TokenLayout):
        return build_tokens(layout, options)

    def items() -> Iterator[Item]:
        return pad_items(layout, options.sheets, options.seed, options.lang, options.symbols,
                         options.lucky_pool, options.shuffle, options.scan_marks)

    written: list[Path] = []
    if "pdf" in options.formats:
        written.append(write_pad_pdf(options.name_for(layout.name), items(), options, on_page))
    if "svg" in options.formats:
        written.append(write_items_svg(options.name_for(layout.name), items(), options.out))
    return written


def page_count(options: BuildOptions) -> int:
    """Pages of a pad built with `options`."""
    return -(-options.sheets // options.sheets_per_page)


def write_pad_pdf(name: str, items: Iterator[Item], options: BuildOptions,
                  on_page: ProgressCallback | None) -> Path:
    """Impose the pad's sheets `options.per_page` to a page and write OUT/NAME.pdf."""
    target = options.out / f"{name}.pdf"
    title = f"{name}: {options.sheets} sheets"
    return write_items_pdf(items, target, options.page_paper, options.sheets_per_page, title, on_page,
                           options.cmyk, options.timestamp)


def write_filled_pdf(layout: ScoreSheetLayout, sheets: list[Sheet], target: Path, lang: str = "en",
                     symbols: bool = False) -> Path:
    """Draw the filled-in `sheets` (one game's final sheets), two to an A4 page, into `target`."""
    from printgen.builders.filled import filled_sheet

    items = (filled_sheet(layout, sheet, f"{layout.name}-player-{i + 1}", lang, symbols)
             for i, sheet in enumerate(sheets))
    return write_items_pdf(items, target, "a4", 2, f"{layout.name}: final sheets", stream=False)


def write_items_pdf(items: Iterator[Item], target: Path, paper: str, per_page: int, title: str,
                    on_page: ProgressCallback | None = None, cmyk: bool = False, timestamp: bool = False,
                    stream: bool = True) -> Path:
    """Impose `items` `per_page` to a page of `paper` and write them to `target`, atomically.

    With `stream` (items whose extras are all symbol placements, as in pads) pages go to the file one by
    one; otherwise reportlab draws them.
    """
    first = next(items)
    grid = plan_grid(paper_size(paper), first.width, first.height, per_page)
    pages = impose(chain([first], items), grid)
    if not stream:
        return write_pages_pdf(Document(first.art.symbols(), pages, title), target, on_page, cmyk, timestamp)
    from printgen.render.pdfstream import write_streamed_pdf

    with atomic_file(target) as temporary:
        write_streamed_pdf(Document([], pages, title), str(temporary), on_page, cmyk, timestamp)
    return target


def write_pages_pdf(document: Document, target: Path, on_page: ProgressCallback | None = None,
                    cmyk: bool = False, timestamp: bool = False) -> Path:
    """Render `document` into `target`, atomically (byte-identical for the same input unless `timestamp`)."""
    from printgen.render.pdf import write_pdf

    with atomic_file(target) as temporary:
        write_pdf(document, temporary, on_page, cmyk, invariant=not timestamp)
    return target


def build_deck(layout: DeckLayout, options: BuildOptions, on_page: ProgressCallback | None = None) -> list[Path]:
    """Write a deck: fronts (with backs behind them for duplex) as PDF, and/or one SVG per face."""
    from printgen.builders.cards import deck_faces
    from printgen.printing.cards import (
        alignment_pages,
        card_pages,
        card_size,
        mirror_axis,
        plan_cards,
    )

    size = card_size(options.card_size or layout.card_size)
    faces = deck_faces(layout, size, options.bleed, options.symbols, options.corner_guide)
    fronts = [front for _, front, _ in faces]
    backs = [back for _, _, back in faces]
    written: list[Path] = []
    if "pdf" in options.formats:
        grid = plan_cards(paper_size(options.page_paper), size, options.bleed, options.gap, options.page_paper,
                          options.per_page)
        axis = mirror_axis("long" if options.duplex == "off" else options.duplex, grid)
        front_pages = card_pages(fronts, grid, options.crop_marks)
        back_pages = card_pages(backs, grid, options.crop_marks, axis, options.back_offset)
        test = list(alignment_pages(grid, axis, options.back_offset)) if options.alignment_page else []
        title = f"{layout.name}: {len(faces)} cards"
        if options.duplex == "off":
            pages: Iterator[Page] = chain(test[:1], front_pages)
        else:
            pages = chain(test, chain.from_iterable(zip(front_pages, back_pages)))
        written.append(write_pages_pdf(Document([], pages, title), options.out / f"{options.name_for(layout.name)}.pdf", on_page,
                                       options.cmyk, options.timestamp))
        if options.duplex == "off" and options.backs_file:
            backs_doc = Document([], chain(test[1:], back_pages), f"{title} (backs)")
            written.append(write_pages_pdf(backs_doc, options.out / f"{options.name_for(layout.name)}-backs.pdf", None,
                                           options.cmyk, options.timestamp))
    if "svg" in options.formats:
        from printgen.render.svg import write_svg

        folder = options.out / options.name_for(layout.name)
        with atomic_folder(folder) as temporary:
            common_back = len({back.id for _, _, back in faces}) == 1
            for name, front, back in faces:
                for face, file in ((front, f"{name}-front"), (back, "back" if common_back else f"{name}-back")):
                    target = temporary / f"{file}.svg"
                    if not target.exists():
                        write_svg(Item(name, face).as_page(), target, f"{layout.title}: {file}")
        written.append(folder)
    return written


def build_board(layout: BoardLayout, options: BuildOptions) -> list[Path]:
    """Write the board: whole on one page (the paper given, else the smallest that fits) or tiled."""
    from printgen.builders.one_to_nine import FIELD_PAD, board_item
    from printgen.printing.cards import card_size
    from printgen.printing.large import smallest_paper, tile_pages, whole_page

    size = card_size(options.card_size or layout.card_size)
    board = board_item(layout, size)
    written: list[Path] = []
    if "pdf" in options.formats:
        if options.tile:
            field = (size[0] + 2 * FIELD_PAD, size[1] + 2 * FIELD_PAD)
            pages = tile_pages(board, options.page_paper, field)
        else:
            pages = [whole_page(board, options.paper or smallest_paper(board) or "a0")]
        document = Document([], pages, f"{layout.name}: {board.width:.0f} x {board.height:.0f} mm")
        written.append(write_pages_pdf(document, options.out / f"{options.name_for(layout.name)}.pdf", None,
                                       options.cmyk, options.timestamp))
    if "svg" in options.formats:
        written.append(write_items_svg(options.name_for(layout.name), iter([board]), options.out))
    return written


def build_tokens(layout: TokenLayout, options: BuildOptions) -> list[Path]:
    """Write the token cut sheet (PDF) and one SVG per kind of token."""
    from printgen.builders.one_to_nine import token_items
    from printgen.printing.tokens import token_pages

    tokens = token_items(layout)
    written: list[Path] = []
    if "pdf" in options.formats:
        pages = token_pages(tokens, paper_size(options.page_paper))
        document = Document([], pages, f"{layout.name}: {len(tokens)} tokens")
        written.append(write_pages_pdf(document, options.out / f"{options.name_for(layout.name)}.pdf", None,
                                       options.cmyk, options.timestamp))
    if "svg" in options.formats:
        written.append(write_items_svg(options.name_for(layout.name), iter(tokens), options.out))
    return written


def write_items_svg(name: str, items: Iterator[Item], out: Path) -> Path:
    """Write OUT/NAME.svg when all items are alike, else OUT/NAME/ with one SVG per distinct item."""
    from printgen.render.svg import write_svg

    distinct: dict[tuple[object, ...], Item] = {}
    for item in items:
        distinct.setdefault((item.art.id, item.extras), item)
    if len(distinct) == 1:
        (item,) = distinct.values()
        target = out / f"{name}.svg"
        with atomic_file(target) as temporary:
            write_svg(item.as_page(), temporary, item.name)
        return target
    folder = out / name
    with atomic_folder(folder) as temporary:
        for item in distinct.values():
            write_svg(item.as_page(), temporary / f"{item.name}.svg", item.name)
    return folder
