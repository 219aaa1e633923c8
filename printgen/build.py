"""Building one layout: a layout name or path and build options in, checked PDF/SVG files on disk out."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from printgen import layouts
from printgen.builders.scoresheet import build_sheet
from printgen.check import require_agreement
from printgen.errors import UsageProblem
from printgen.output import atomic_file, atomic_folder
from printgen.page import Document, Item
from printgen.printing.imposition import impose, plan_grid
from printgen.printing.paper import paper_size

FORMATS = ("pdf", "svg")
PER_PAGE = (1, 2, 4)
MAX_SHEETS = 100_000
"""Largest pad printgen builds in one file (a 100,000-sheet pad is about 15 MB of PDF)."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What to build and where: output folder, formats, paper, pad size, sheets per page, seed, language."""

    out: Path = Path("output")
    formats: tuple[str, ...] = ("pdf",)
    paper: str = "a4"
    sheets: int = 1
    per_page: int = 2
    seed: int = 1
    lang: str = "en"

    def validate(self) -> None:
        """Raise UsageProblem naming the first option that cannot work."""
        paper_size(self.paper)
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
    sheet = build_sheet(layout, options.lang)
    written: list[Path] = []
    if "pdf" in options.formats:
        written.append(write_pad_pdf(layout.name, sheet, options, on_page))
    if "svg" in options.formats:
        written.append(write_items_svg(layout.name, _sheets(sheet, options.sheets), options.out))
    return written


def page_count(options: BuildOptions) -> int:
    """Pages of a pad built with `options`."""
    return -(-options.sheets // options.per_page)


def write_pad_pdf(name: str, sheet: Item, options: BuildOptions, on_page: ProgressCallback | None) -> Path:
    """Impose `options.sheets` copies of `sheet` on pages and write OUT/NAME.pdf."""
    from printgen.render.pdf import write_pdf

    grid = plan_grid(paper_size(options.paper), sheet.width, sheet.height, options.per_page)
    document = Document(
        symbols=sheet.art.symbols(),
        pages=impose(_sheets(sheet, options.sheets), grid),
        page_count=page_count(options),
        title=f"{name}: {options.sheets} sheets",
    )
    target = options.out / f"{name}.pdf"
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


def _sheets(sheet: Item, count: int) -> Iterator[Item]:
    for _ in range(count):
        yield sheet
