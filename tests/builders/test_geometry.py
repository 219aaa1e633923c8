"""Where the parts of a score sheet lie (`printgen.builders.geometry`), for sheets of other proportions than the
built-in ones."""

from __future__ import annotations

from dataclasses import replace

import pytest

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.kinds import ScoreSheetLayout


def standard(**size: float) -> ScoreSheetLayout:
    layout = layouts.load("qwixx-standard")
    assert isinstance(layout, ScoreSheetLayout)
    return replace(layout, **size)


@pytest.mark.parametrize("height", [200.0, 400.0])
def test_a_taller_sheet_gives_its_numbers_the_rows_width_and_keeps_the_lock_at_the_end(height: float) -> None:
    usual = sheet_geometry(standard(width=200.0, height=120.0))
    tall = sheet_geometry(standard(width=200.0, height=height))
    for row, before in zip(tall.rows, usual.rows):
        x, y, w, h = row.band
        assert h > 2 * before.band[3]
        last_x, _, side = row.cells[-1]
        lock_x, lock_y, lock_r = row.lock
        assert side >= before.cells[0][2] - 0.01  # the fields are no smaller than on the usual sheet
        assert last_x + side < lock_x - lock_r  # the lock lies beyond the last number
        assert lock_x + lock_r > x + w - 5.0  # at the band's right end
        assert abs(lock_y - (y + h / 2)) < 0.01 and lock_r <= side / 2 + 0.01
        assert row.cells[0][0] - x < 12.0  # and the numbers start at its left end
