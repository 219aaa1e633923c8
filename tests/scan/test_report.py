"""Reporting: a photo that cannot be read is one line naming the sheet (the standings are test_standings')."""

from __future__ import annotations

import pytest

from tests.scan.conftest import NEEDS_SCAN

pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.scan.reader import Unreadable
from printgen.scan.report import summary


def test_an_unreadable_photo_is_one_line() -> None:
    assert summary(Unreadable("x.jpg", "no sheet found", 2, 2)) == ["x.jpg [sheet 2 of 2]: unreadable: no sheet found"]
