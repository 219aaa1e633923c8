"""Page descriptions to pixels: a page in, an RGB array at a chosen number of pixels per millimetre (and its grey) out.

The page goes through printgen's own PDF renderer and is rasterised by
pdfium, so what the scanner compares a photo with is exactly what was
printed, never a separate template.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from printgen.colours import LUMA
from printgen.page import PT_PER_MM, Document, Page

if TYPE_CHECKING:
    import numpy as np


def raster(page: Page, px_per_mm: float) -> np.ndarray:
    """`page` rendered at `px_per_mm` as an H x W x 3 uint8 RGB array (white where nothing is drawn)."""
    import pypdfium2 as pdfium

    from printgen.render.pdf import write_pdf

    buffer = io.BytesIO()
    write_pdf(Document(page.symbols(), [page], "scan"), buffer)
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        bitmap = document[0].render(scale=px_per_mm / PT_PER_MM, rev_byteorder=True)
        return bitmap.to_numpy().copy()
    finally:
        document.close()


def luma(rgb: np.ndarray) -> np.ndarray:
    """The grey of an H x W x 3 RGB array (Rec. 601 luma, `printgen.colours.LUMA`), in the array's own scale
    (0..1 for floats 0..1); the scanner compares photos and sheets by it."""
    red, green, blue = LUMA
    return rgb[..., 0] * red + rgb[..., 1] * green + rgb[..., 2] * blue
