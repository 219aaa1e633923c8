"""Page descriptions to pixels: a page in, an RGB array at a chosen number of pixels per millimetre out.

The page goes through printgen's own PDF renderer and is rasterised by
pdfium, so what the scanner compares a photo with is exactly what was
printed, never a separate template.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from printgen.page import Document, Page

if TYPE_CHECKING:
    import numpy as np

PT_PER_MM = 72.0 / 25.4


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
