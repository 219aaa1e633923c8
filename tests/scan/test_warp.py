"""The warp that lays a photo's print on its blank sheet: paper in waves, found from the printed structure."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.scan.conftest import NEEDS_SCAN, sheet

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

PX = 10.0
"""The photo's pixels per mm."""


def waves(u: np.ndarray, v: np.ndarray, amplitude: float = 1.5, length: float = 60.0) -> tuple[np.ndarray, np.ndarray]:
    """How far (mm) paper in waves moves the print at sheet points `u`, `v`."""
    return (amplitude * np.sin(2 * np.pi * v / length + 1.0), amplitude * np.sin(2 * np.pi * u / length))


def flat(u: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Paper lying flat: the print where the markers put it."""
    return np.zeros_like(u), np.zeros_like(v)


def found_and_true(move: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]) -> tuple[
        tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """A photo (PX pixels a mm) of the standard sheet whose print `move` moves (mm at sheet points), the warp
    `find_warp` finds in it and the true displacement, both every 2 mm 10 mm or more inside the sheet's edge."""
    from printgen.builders.geometry import sheet_geometry
    from printgen.marks.codes import SheetCode, layout_version
    from printgen.scan.template import blank_pixels
    from printgen.scan.thresholds import WARP_PX_PER_MM
    from printgen.scan.warp import find_warp

    layout = sheet("qwixx-standard")
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)))
    page = (blank_pixels(layout, code, PX)[..., ::-1] * 255).astype(np.uint8)
    h, w = page.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xs + 0.5) / PX, (ys + 0.5) / PX
    dx, dy = move(u, v)
    # each photo pixel shows the print from where `move` moved it (its inverse, to well under a pixel)
    su, sv = u - dx, v - dy
    for _ in range(4):
        ex, ey = move(su, sv)
        su, sv = u - ex, v - ey
    photo = cv2.remap(page, (su * PX - 0.5).astype(np.float32), (sv * PX - 0.5).astype(np.float32),
                      cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    to_photo = np.array([[PX, 0, -0.5], [0, PX, -0.5], [0, 0, 1]])
    corners = [(x, y) for x in (5.0, layout.width - 5.0) for y in (5.0, layout.height - 5.0)]
    markers = [((x, y), (x + float(move(np.float64(x), np.float64(y))[0]),
                         y + float(move(np.float64(x), np.float64(y))[1]))) for x, y in corners]
    warp = find_warp(photo, to_photo, blank_pixels(layout, code, WARP_PX_PER_MM), layout.width, layout.height,
                     markers)
    assert warp is not None
    gu, gv = np.meshgrid(np.arange(10.0, layout.width - 10.0, 2.0), np.arange(10.0, layout.height - 10.0, 2.0))
    return warp.at(gu.astype(np.float32), gv.astype(np.float32)), move(gu, gv)


def test_paper_in_waves_is_followed_to_a_fraction_of_a_mm() -> None:
    found, truth = found_and_true(waves)
    error = np.hypot(found[0] - truth[0], found[1] - truth[1])
    # (three levels, the finest once, left a mm and more on a tenth of the sheet: 0.45 mm median, 1.0 mm p90;
    # the finest level's search half a pixel off the photo's cut moved all by a sixth of a mm: 0.27 mm median)
    assert float(np.median(error)) < 0.15 and float(np.percentile(error, 90)) < 0.35, (np.median(error),
                                                                                       np.percentile(error, 90))


def test_a_flat_sheet_gets_no_warp_to_speak_of() -> None:
    """Every level must search exactly around where the level before put the print: a level whose search was
    cut half a pixel off found every patch half a pixel away and moved the whole print by that."""
    (dx, dy), _ = found_and_true(flat)
    moved = np.hypot(dx, dy)  # (with the finest level half a pixel off: 0.24 mm median, 0.31 mm p90)
    assert float(np.median(moved)) < 0.08 and float(np.percentile(moved, 90)) < 0.12, (np.median(moved),
                                                                                       np.percentile(moved, 90))
