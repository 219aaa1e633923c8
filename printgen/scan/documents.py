"""Photo files of every kind: a file's bytes in, the pictures in it out — one for a photo, one a page for a PDF or a TIFF of several pages.

A scanner app (or a phone's "scan document") hands over a PDF of one page
a sheet. Each page is rendered by pdfium (pypdfium2, already printgen's
renderer of previews) at SCAN_DPI, never above PAGE_PIXELS, one page at a
time, so a long PDF costs no more memory than one page; at most MAX_PAGES
pages are read, and no more than PDF_PIXELS in all, the rest reported (the
same for a TIFF of several pages, which scanners also write). A
page's size is what pdfium will render, read before anything is drawn: a
tiny PDF declaring huge pages (200 x 200 inches) costs what a phone photo
costs, and a PDF of many of them what a scanned game night costs. Everything else goes through
`picture.decode` (looked up when called, as tests replace it), with its formats, its size limits and its one-line
refusals: the same guarantees whether a picture comes from a file, a PDF
page or an upload.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from printgen.pdfium_lock import PDFIUM
from printgen.scan import picture
from printgen.scan.picture import FORMATS, MIN_SIDE, READ_PIXELS, Refused, sniff

if TYPE_CHECKING:
    import numpy as np

SCAN_DPI = 200
"""Dots per inch at which a PDF page is rendered: a 190 mm sheet gets 1,500 pixels (8 px/mm)."""
MAX_PAGES = 20
"""At most this many pages of one PDF or TIFF are read (a game night's sheets); the rest are reported."""
PAGE_PIXELS = 12_000_000
"""Most pixels a PDF page is rendered at: a phone photo's (a letter or A4 page at SCAN_DPI has 3.9 million)."""
PDF_PIXELS = 80_000_000
"""Most pixels all the pages of one PDF are rendered at together (a TIFF's decoded): MAX_PAGES scanned A4 pages."""
PDF_SEARCH = 1024
"""A PDF's `%PDF-` header may follow some junk, within the first kilobyte (as PDF readers accept)."""
MIN_DPI = 72
"""A black-and-white page's pictures coarser than this (or of no size pdfium can tell) are rendered as any page."""
NO_ERROR = 0
"""pdfium's code for no error (FPDF_ERR_SUCCESS): what it says when a PDF with no pages fails to load."""
KINDS = (*FORMATS.values(), "PDF")
"""What a photo file may be, in words."""


def is_pdf(data: bytes) -> bool:
    """Whether `data` is a PDF file by its first bytes."""
    return b"%PDF-" in data[:PDF_SEARCH]


def pictures(data: bytes, name: str) -> Iterator[tuple[str, np.ndarray | Refused]]:
    """Each picture in the file `data` (called `name`), one at a time: its name in reports and its pixels
    (upright BGR) or why it cannot be read. A PDF, or a TIFF of several pages (a scanner's), gives one a
    page, named `NAME [page K of N]`."""
    if is_pdf(data):
        yield from _pages(data, name)
        return
    kind = sniff(data[:16])
    if not data:
        yield name, Refused("an empty file (0 bytes): copy or export the photo again")
    elif kind is None:
        yield name, Refused(f"not a picture this reader opens (it reads {', '.join(KINDS)})")
    elif kind == "TIFF":
        yield from _tiff_pages(data, name)
    else:
        yield name, picture.decode(data)


def too_long(data: bytes) -> str | None:
    """Why a PDF or TIFF of more than MAX_PAGES pages is refused whole, before any page is read (where the pages
    within the limit are no use without the rest: an upload to the server), else None."""
    if is_pdf(data):
        import pypdfium2 as pdfium

        try:
            with PDFIUM:
                document = pdfium.PdfDocument(data)
                try:
                    count = len(document)
                finally:
                    document.close()
        except pdfium.PdfiumError:
            return None  # (reading it says what is wrong)
        total = f"{count} pages"
    elif sniff(data[:16]) == "TIFF":
        count = len(picture.page_sizes(data, MAX_PAGES))
        total = f"over {MAX_PAGES} pages"
    else:
        return None
    return f"{total}: at most {MAX_PAGES} pages of one file are read (split it)" if count > MAX_PAGES else None


def _page_name(name: str, index: int, total: str) -> str:
    """How reports name page `index` (from 0) of `total` pages of the file `name`: `NAME [page K of N]`."""
    return f"{name} [page {index + 1} of {total}]"


def _tiff_pages(data: bytes, name: str) -> Iterator[tuple[str, np.ndarray | Refused]]:
    """Each page of a TIFF, decoded one at a time, within MAX_PAGES pages and PDF_PIXELS pixels in all (as a
    PDF's, each page as large as a photo may be)."""
    sizes = picture.page_sizes(data, MAX_PAGES)
    count = len(sizes)
    if count == 1:
        yield name, picture.decode(data)
        return
    total = str(count) if count <= MAX_PAGES else f"over {MAX_PAGES}"
    spent = 0
    for index, (width, height) in enumerate(sizes[:MAX_PAGES]):
        spent += min(width * height, READ_PIXELS)
        if spent > PDF_PIXELS:
            last = total if count <= MAX_PAGES else "the last"
            yield name, Refused(f"pages {index + 1} to {last} not read: a file's pages are read up to "
                                f"{PDF_PIXELS:,} pixels in all (split it)")
            return
        yield _page_name(name, index, total), picture.decode(data, index)
    if count > MAX_PAGES:
        yield name, Refused(f"more pages not read: at most {MAX_PAGES} pages of one file are read (split it)")


def _pages(data: bytes, name: str) -> Iterator[tuple[str, np.ndarray | Refused]]:
    import pypdfium2 as pdfium

    try:
        with PDFIUM:
            document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        # (pdfium fails to load a PDF whose page tree is empty, and reports no error for it)
        if "password" in str(error).lower():  # (said plainly: a player can save it again without one)
            yield name, Refused("the PDF is locked with a password: save or export it again without one")
            return
        why = "it has no pages" if getattr(error, "err_code", None) == NO_ERROR else _first_line(error)
        yield name, Refused(f"the PDF cannot be opened ({why})")
        return
    try:
        with PDFIUM:
            count = len(document)
        if count == 0:
            yield name, Refused("the PDF has no pages")
            return
        spent = 0.0
        for index in range(min(count, MAX_PAGES)):
            label = name if count == 1 else _page_name(name, index, str(count))
            with PDFIUM:  # (not across the yield: the reader works on a page while others render)
                page, spent = _page(document, index, spent)
            if page is None:
                yield name, Refused(f"pages {index + 1} to {count} not read: a PDF's pages are read up to "
                                    f"{PDF_PIXELS:,} pixels in all, at {SCAN_DPI} dpi (split it)")
                return
            yield label, page
        if count > MAX_PAGES:
            yield name, Refused(f"{count - MAX_PAGES} more pages not read: at most {MAX_PAGES} pages of one PDF "
                                "are read (split it)")
    finally:
        with PDFIUM:
            document.close()


def _page(document, index: int, spent: float) -> tuple[np.ndarray | Refused | None, float]:  # type: ignore[no-untyped-def]
    """Page `index` rendered at SCAN_DPI (less for a page so large that it would pass PAGE_PIXELS), and the
    pixels rendered so far with it (`spent` before it); None when it would take them past PDF_PIXELS."""
    import numpy as np
    import pypdfium2 as pdfium

    try:
        page = document[index]
    except pdfium.PdfiumError as error:
        return Refused(f"page {index + 1} cannot be read ({_first_line(error)})"), spent
    try:
        width, height = page.get_size()  # points, as pdfium renders them (rotation and crop box included)
        dpi = _one_bit(page)  # a scanner's black-and-white page: rendered at its own resolution, a dot a pixel
        scale = (dpi or SCAN_DPI) / 72
        if width * height * scale * scale > min(PAGE_PIXELS, READ_PIXELS):
            scale = 0.999 * (min(PAGE_PIXELS, READ_PIXELS) / max(width * height, 1.0)) ** 0.5  # (sides round up)
        if min(width, height) * scale < MIN_SIDE:
            return Refused(f"page {index + 1} is too small to hold a sheet ({width:.0f} x {height:.0f} points)"), spent
        spent += (width * scale + 1) * (height * scale + 1)
        if spent > PDF_PIXELS:
            return None, spent
        sharp = dpi is not None and scale * 72 >= 0.99 * dpi  # (shrunk, its dots are better averaged)
        rendered = page.render(scale=scale, rev_byteorder=False, no_smoothimage=sharp)  # BGR(x): OpenCV's order
        pixels = np.ascontiguousarray(rendered.to_numpy()[..., :3])
        if dpi is not None:  # (its dots made greys again)
            picture.descreen(pixels, scale * 72 / dpi)
        return pixels, spent
    except pdfium.PdfiumError as error:
        return Refused(f"page {index + 1} cannot be rendered ({_first_line(error)})"), spent
    finally:
        page.close()


def _one_bit(page) -> float | None:  # type: ignore[no-untyped-def]
    """The resolution (dots per inch) of the pictures on `page` when all of them (one at least) are black and
    white, one bit a pixel (a scanner's black-and-white mode: dithered dots, `picture.descreen`), at least MIN_DPI;
    else None."""
    import pypdfium2.raw as pdfium_c

    dpis = []
    for image in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
        found = image.get_metadata()
        if found.bits_per_pixel != 1:
            return None
        dpis.append(min(found.horizontal_dpi, found.vertical_dpi))
    return min(dpis) if dpis and min(dpis) >= MIN_DPI else None


def _first_line(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:80]
