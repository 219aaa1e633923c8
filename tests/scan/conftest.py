"""Shared pieces of the scanner's tests: the score-sheet layouts, a reader, and the CI sample of photos."""

from __future__ import annotations

import pytest

from printgen import layouts
from printgen.kinds import ScoreSheetLayout
from tests.conftest import NEEDS_SCAN

SHEETS = [name for name in layouts.builtin_names() if layouts.load(name).kind == "score-sheet"]


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


@pytest.fixture(scope="session")
def reader():  # type: ignore[no-untyped-def]
    pytest.importorskip("cv2", reason=NEEDS_SCAN)
    from printgen.scan.reader import Reader

    return Reader()
