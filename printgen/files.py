"""Writing a build's files: items or pages in, whole PDF and SVG files (or SVG folders) on disk and what was written out.

Every file goes through `printgen.output` (temporary name, then rename). A
writer returns a `Written`: the path, how many pages (or SVG files) it
holds, its size, and for PDFs whose pages were counted while streaming,
the groups of identical pages, so the preview page never reads them back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from printgen.output import atomic_file, atomic_folder
from printgen.page import Document, Item, Page
from printgen.printing.imposition import impose, plan_grid, single_pages
from printgen.printing.paper import paper_size

ProgressCallback = Callable[[int], None]
"""Told the number of pages written so far."""


@dataclass(frozen=True, slots=True)
class PdfSettings:
    """How a PDF is written whatever it holds: colours converted for a press (`cmyk`, through the CMYK profile
    `icc` or the bundled one), and stamped with the build time (`timestamp`) or byte-identical for the same
    input."""

    cmyk: bool = False
    icc: Path | None = None
    timestamp: bool = False


@dataclass(frozen=True, slots=True)
class Written:
    """One output a build wrote: its path, pages (PDF) or files (SVG folder; 1 for one SVG), size in bytes,
    for streamed PDFs its identical pages counted ((first page, count, width mm, height mm) each), and what
    it is: the game group and the words the preview page shows (set by the plan that wrote it)."""

    path: Path
    pages: int
    size: int
    groups: tuple[tuple[int, int, float, float], ...] | None = None
    group: str = ""
    about: str = ""


def write_items_pdf(items: Iterator[Item], target: Path, title: str, settings: PdfSettings = PdfSettings(), *,
                    paper: str | None = "a4", per_page: int = 2, bleed: float = 0.0, about: str = "",
                    stream: bool = True, on_page: ProgressCallback | None = None) -> Written:
    """Impose `items` `per_page` to a page of `paper` (None: each on a page of its own size plus `bleed`, with
    trim and bleed boxes) and write them to `target`, atomically.

    With `stream` (items whose extras are all symbol placements, as in pads) pages go to the file one by
    one; otherwise reportlab draws them.
    """
    first = next(items)
    if paper is None:
        pages: Iterator[Page] = single_pages(chain([first], items), bleed)
    else:
        pages = impose(chain([first], items), plan_grid(paper_size(paper), first.width, first.height, per_page))
    if not stream:
        return write_pages_pdf(Document(first.art.symbols(), pages, title, _meta(about)), target, settings, on_page)
    from printgen.render.pdfstream import write_streamed_pdf

    with atomic_file(target) as temporary:
        counted = write_streamed_pdf(Document([], pages, title, _meta(about)), str(temporary), on_page,
                                     settings.cmyk, settings.timestamp, settings.icc)
    return Written(target, counted.pages, target.stat().st_size, tuple(counted.groups()))


def write_pages_pdf(document: Document, target: Path, settings: PdfSettings = PdfSettings(),
                    on_page: ProgressCallback | None = None) -> Written:
    """Render `document` into `target`, atomically (byte-identical for the same input unless stamped)."""
    from printgen.render.pdf import write_pdf

    with atomic_file(target) as temporary:
        pages = write_pdf(document, temporary, on_page, settings.cmyk, invariant=not settings.timestamp,
                          icc=settings.icc)
    return Written(target, pages, target.stat().st_size)


def write_items_svg(name: str, items: Iterator[Item], out: Path, folder: bool, about: str = "",
                    svg_text: str = "outline") -> Written:
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
        return Written(target, 1, target.stat().st_size)
    target = out / name
    with atomic_folder(target) as temporary:
        for item in distinct.values():
            write_svg(item.as_page(), temporary / f"{item.name}.svg", item.name, svg_text=svg_text, about=about)
    return written_folder(target)


def written_folder(folder: Path) -> Written:
    """What an SVG folder holds: its SVG files and their size."""
    files = sorted(folder.glob("*.svg"))
    return Written(folder, len(files), sum(f.stat().st_size for f in files))


def _meta(about: str) -> dict[str, str]:
    return {"subject": about} if about else {}
