"""Page descriptions to pixels: a page in, an RGB array at a chosen number of pixels per millimetre (and its grey) out.

The page goes through printgen's own PDF renderer and is rasterised by
pdfium, so what the scanner compares a photo with is exactly what was
printed, never a separate template.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from printgen.colours import LUMA
from printgen.page import PT_PER_MM, Document, Page
from printgen.pdfium_lock import PDFIUM

if TYPE_CHECKING:
    import numpy as np


def raster(page: Page, px_per_mm: float) -> np.ndarray:
    """`page` rendered at `px_per_mm` as an H x W x 3 uint8 RGB array (white where nothing is drawn)."""
    return render(page_pdf(page), px_per_mm)[0]


def rasters(pages: list[Page], px_per_mm: float) -> list[np.ndarray]:
    """Each of `pages` as `raster` renders it, from one PDF of them all (a PDF costs much more than a page)."""
    return render(page_pdf(*pages), px_per_mm, len(pages))


def page_pdf(*pages: Page) -> bytes:
    """`pages` as one PDF (printgen's own renderer, drawn as a printed file's but not finished: pdfium renders it
    the same), to `render` at any resolution."""
    from printgen.render.pdf import drawn_pdf

    symbols = {symbol.id: symbol for page in pages for symbol in page.symbols()}
    return drawn_pdf(Document(list(symbols.values()), list(pages), "scan"))[0]


def render(pdf: bytes, px_per_mm: float, pages: int = 1) -> list[np.ndarray]:
    """The first `pages` pages of `pdf` rasterised by pdfium at `px_per_mm`, each an H x W x 3 uint8 RGB array."""
    import pypdfium2 as pdfium

    with PDFIUM:
        document = pdfium.PdfDocument(pdf)
        try:
            return [document[index].render(scale=px_per_mm / PT_PER_MM, rev_byteorder=True).to_numpy().copy()
                    for index in range(pages)]
        finally:
            document.close()


def luma(rgb: np.ndarray) -> np.ndarray:
    """The grey of an H x W x 3 RGB array (Rec. 601 luma, `printgen.colours.LUMA`), in the array's own scale
    (0..1 for floats 0..1); the scanner compares photos and sheets by it."""
    red, green, blue = LUMA
    return rgb[..., 0] * red + rgb[..., 1] * green + rgb[..., 2] * blue
