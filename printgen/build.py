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
from printgen.layouts.model import ScoreSheetLayout
from printgen.output import atomic_file, atomic_folder
from printgen.page import Document, Item
from printgen.printing.imposition import impose, plan_grid
from printgen.printing.paper import paper_size
from printgen.rules.sheet import Sheet

FORMATS = ("pdf", "svg")
PER_PAGE = (1, 2, 4)
MAX_SHEETS = 100_000
"""Largest pad printgen builds in one file (a 100,000-sheet pad is about 15 MB of PDF)."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What to build and where: output folder, formats, paper, pad size, sheets per page, seed, language,
    colour shapes, the lucky-number pool and whether to shuffle (gemixxt B)."""

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf",)
    paper: str = "a4"
    sheets: int = 1
    per_page: int = 2
    seed: int = 1
    lang: str = "en"
    symbols: bool = False
    lucky_pool: str = "balanced"
    shuffle: bool = False

    def validate(self) -> None:
        """Raise UsageProblem naming the first option that cannot work."""
        paper_size(self.paper)
        if self.lang not in languages():
            raise UsageProblem(f"--lang: {self.lang!r} is not one of {', '.join(languages())}")
        if not 1 <= self.sheets <= MAX_SHEETS:
            raise UsageProblem(f"--sheets: {self.sheets} is out of range 1..{MAX_SHEETS:,}")
        if self.per_page not in PER_PAGE:
            raise UsageProblem(f"--per-page: {self.per_page} is not one of {', '.join(map(str, PER_PAGE))}")
        for fmt in self.formats:
            if fmt not in FORMATS:
                raise UsageProblem(f"--format: {fmt!r} is not one of {', '.join(FORMATS)}")
        if self.out.exists() and not self.out.is_dir():
            raise UsageProblem(f"--out: {self.out} is a file, not a folder")


ProgressCallback = Callable[[int], None]


def build(ref: str, options: BuildOptions, on_page: ProgressCallback | None = None) -> list[Path]:
    """Check layout `ref` against the rules and write its files; returns the paths written."""
    options.validate()
    layout = layouts.load(ref)
    require_agreement(layout)
    def items() -> Iterator[Item]:
        return pad_items(layout, options.sheets, options.seed, options.lang, options.symbols,
                         options.lucky_pool, options.shuffle)

    written: list[Path] = []
    if "pdf" in options.formats:
        written.append(write_pad_pdf(layout.name, items(), options, on_page))
    if "svg" in options.formats:
        written.append(write_items_svg(layout.name, items(), options.out))
    return written


def page_count(options: BuildOptions) -> int:
    """Pages of a pad built with `options`."""
    return -(-options.sheets // options.per_page)


def write_pad_pdf(name: str, items: Iterator[Item], options: BuildOptions,
                  on_page: ProgressCallback | None) -> Path:
    """Impose the pad's sheets `options.per_page` to a page and write OUT/NAME.pdf."""
    target = options.out / f"{name}.pdf"
    title = f"{name}: {options.sheets} sheets"
    return write_items_pdf(items, target, options.paper, options.per_page, title, on_page)


def write_filled_pdf(layout: ScoreSheetLayout, sheets: list[Sheet], target: Path, lang: str = "en",
                     symbols: bool = False) -> Path:
    """Draw the filled-in `sheets` (one game's final sheets), two to an A4 page, into `target`."""
    from printgen.builders.filled import filled_sheet

    items = (filled_sheet(layout, sheet, f"{layout.name}-player-{i + 1}", lang, symbols)
             for i, sheet in enumerate(sheets))
    return write_items_pdf(items, target, "a4", 2, f"{layout.name}: final sheets")


def write_items_pdf(items: Iterator[Item], target: Path, paper: str, per_page: int, title: str,
                    on_page: ProgressCallback | None = None) -> Path:
    """Impose `items` `per_page` to a page of `paper` and write them to `target`, atomically."""
    from printgen.render.pdf import write_pdf

    first = next(items)
    grid = plan_grid(paper_size(paper), first.width, first.height, per_page)
    document = Document(
        symbols=first.art.symbols(),
        pages=impose(chain([first], items), grid),
        title=title,
    )
    with atomic_file(target) as temporary:
        write_pdf(document, temporary, on_page)
    return target


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
