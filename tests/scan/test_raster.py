"""Page descriptions to pixels: several pages rendered from one PDF look exactly as each rendered on its own."""

from __future__ import annotations

import pytest

from tests.scan.conftest import NEEDS_SCAN

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)

from printgen.builders.scoresheet import centred_text
from printgen.builders.shapes import INK
from printgen.page import Page
from printgen.scan.raster import raster, rasters


def test_pages_from_one_pdf_are_pixel_for_pixel_as_each_alone() -> None:
    pages = [Page(9.0, 9.0, (centred_text(4.5, 4.5, str(number), 4.7, INK),)) for number in (2, 7, 12)]
    pages.append(Page(12.0, 6.0, (centred_text(6.0, 3.0, "10", 3.0, INK),)))  # another size too
    together = rasters(pages, 8.0)
    assert len(together) == len(pages)
    for page, pixels in zip(pages, together):
        alone = raster(page, 8.0)
        assert pixels.shape == alone.shape and np.array_equal(pixels, alone)
    assert not np.array_equal(together[0], together[1])  # (the numbers were drawn)
