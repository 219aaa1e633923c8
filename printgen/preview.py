"""Page pictures: a PDF and page numbers in, PNG files (and page counts and sizes) out, via pypdfium2.

Every render is bounded (MAX_PIXELS): a page whose picture would be larger
is refused with one line instead of exhausting memory. `render_pages`
writes only its own `page-NNN.png` files, each atomically, into a folder it
creates or that already exists; it never removes anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from printgen.errors import PrintgenError, UsageProblem, is_utf8
from printgen.output import atomic_file, safe_folder
from printgen.pdfium_lock import PDFIUM

MAX_PIXELS = 40_000_000
"""Largest picture printgen renders (40 megapixels)."""


@contextmanager
def opened_pdf(pdf: Path | BinaryIO) -> Iterator[Any]:
    """The PDF (a regular file or an open binary stream) opened with pypdfium2 for the `with` block, closed after
    it; anything else, or a file it cannot read, is a UsageProblem naming it."""
    import pypdfium2 as pdfium

    source: Any = pdf
    if isinstance(pdf, Path):
        _regular(pdf)
        source = str(pdf)
        if not is_utf8(source):  # not UTF-8: pypdfium2 (4.20) would open the path by its UTF-8 and fail
            source = open(pdf, "rb")  # noqa: SIM115 - closed below, after the document
    try:
        try:
            with PDFIUM:
                document = pdfium.PdfDocument(source)
        except pdfium.PdfiumError as error:
            raise UsageProblem(f"{pdf}: cannot render: {error}") from None
        try:
            yield document
        finally:
            with PDFIUM:
                document.close()
    finally:
        if not isinstance(source, str) and source is not pdf:
            source.close()



def _regular(pdf: Path) -> None:
    """Nothing, when `pdf` is a regular file; else a UsageProblem naming it (a FIFO would hang a reader)."""
    import stat

    try:
        regular = stat.S_ISREG(pdf.stat().st_mode)
    except OSError as error:
        raise UsageProblem(f"{pdf}: {error.strerror}") from None
    if not regular:
        raise UsageProblem(f"{pdf}: is not a regular file")


def _declared_pages(pdf: Path) -> int | None:
    """The page count a PDF's page tree declares, read with pypdf (cheap, and without loading PDFium, which
    reserves gigabytes of address space); None when pypdf cannot tell."""
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.CRITICAL)
    try:
        return len(PdfReader(pdf).pages)
    except (PyPdfError, OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        # a damaged file: PDFium tells (or names what is wrong)
        return None


def _refuse_beyond(pdf: Path, wanted: tuple[range, ...], count: int) -> None:
    """Nothing, when every page of `wanted` exists among `count`; else the --pages UsageProblem."""
    beyond = next((span for span in wanted if span.stop - 1 > count), None)
    if beyond is not None:
        asked = f"page {beyond.start}" if len(beyond) == 1 else f"pages {beyond.start}-{beyond.stop - 1:,}"
        raise UsageProblem(f"--pages: {asked} go{'es' * (len(beyond) == 1)} beyond {pdf}'s {count} "
                           f"page{'s' if count != 1 else ''}")


def page_count(pdf: Path) -> int:
    """Pages in a PDF."""
    with opened_pdf(pdf) as document, PDFIUM:
        return len(document)


MAX_PAGE_DIGITS = 15
"""Most digits a page number in --pages may have (no PDF holds 10^15 pages)."""


def page_range(text: str) -> tuple[range, ...]:
    """Page numbers (1-based) from "1-3,7" as sorted ranges that do not overlap, never a list of every page
    ("1-5000000000" is one range); UsageProblem if it is not such a list."""
    spans: list[range] = []
    for part in text.replace(" ", "").split(","):
        match = re.fullmatch(r"0*(\d+)(?:-0*(\d+))?", part)
        if match and max(len(match[1]), len(match[2] or "")) > MAX_PAGE_DIGITS:
            raise UsageProblem(f"--pages: {part[:40]}: a page number has at most {MAX_PAGE_DIGITS} digits")
        if not match or int(match[1]) < 1 or (match[2] and int(match[2]) < int(match[1])):
            raise UsageProblem(f"--pages: {text[:80]!r} is not a list of pages like 1-3,7")
        spans.append(range(int(match[1]), int(match[2] or match[1]) + 1))
    merged: list[range] = []
    for span in sorted(spans, key=lambda span: span.start):
        if merged and span.start <= merged[-1].stop:
            merged[-1] = range(merged[-1].start, max(merged[-1].stop, span.stop))
        else:
            merged.append(span)
    return tuple(merged)


class PageTooLarge(UsageProblem):
    """A page whose picture `width` pixels wide would exceed MAX_PIXELS."""


def render_page(document, index: int, width: int):  # type: ignore[no-untyped-def]
    """Page `index` (0-based) of an open document as a PIL image `width` pixels wide (bounded)."""
    from pypdfium2 import PdfiumError

    with PDFIUM:
        page = document[index]
        try:
            scale = width / page.get_width()
            height = page.get_height() * scale
            if width * height > MAX_PIXELS:
                raise PageTooLarge(f"page {index + 1} would be {width} x {height:,.0f} pixels, more than "
                                   f"{MAX_PIXELS:,}")
            return page.render(scale=scale).to_pil().copy()  # (the copy owns its pixels: the bitmap goes here)
        except PdfiumError as error:
            raise PrintgenError(f"page {index + 1}: cannot render: {error}") from None
        finally:
            page.close()


DEFAULT_PAGES = 100
"""Pages `printgen preview` renders when --pages is not given (a 100,000-sheet pad has 50,000)."""


def render_pages(pdf: Path, folder: Path, width: int, pages: tuple[range, ...] | None = None,
                 on_page: Callable[[Path, int], None] | None = None) -> list[Path]:
    """PNGs `width` pixels wide of `pages` (1-based ranges as `page_range` gives them; default the first
    DEFAULT_PAGES) of `pdf`, into `folder`, each handed to `on_page` with how many are to be drawn as soon as it
    is whole. Pages beyond the document's own count are refused before any is drawn."""
    if pages:  # refused before PDFium is loaded, when the page tree says so
        _regular(pdf)
        declared = _declared_pages(pdf)
        if declared is not None:
            _refuse_beyond(pdf, pages, declared)
    written = []
    with opened_pdf(pdf) as document:
        with PDFIUM:
            count = len(document)
        wanted = pages or (range(1, min(count, DEFAULT_PAGES) + 1),)
        _refuse_beyond(pdf, wanted, count)
        made = not folder.exists()
        safe_folder(folder)
        try:
            for number in (number for span in wanted for number in span):
                try:
                    image = render_page(document, number - 1, width)
                except PageTooLarge as error:
                    raise PageTooLarge(f"{pdf}: {error}; use a smaller --width") from None
                target = folder / f"page-{number:03d}.png"
                with atomic_file(target) as temporary:
                    image.save(temporary, format="PNG")
                written.append(target)
                if on_page is not None:
                    on_page(target, sum(len(span) for span in wanted))
        finally:
            if made and not written and not any(folder.iterdir()):  # nothing drawn: no empty folder left behind
                folder.rmdir()
    return written
