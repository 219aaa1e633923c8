"""The light on the sheet: a picture whose paper is white everywhere (a render, a scan, a phone's bright
exposure) is read as evenly lit, not as lit only where ink darkens its few unclipped pixels."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scan.conftest import NEEDS_SCAN

pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.layouts import load
from printgen.scan.picture import open_photo
from printgen.scan.reader import Reader, SheetReading
from printgen.simulate import simulate, write_filled


@pytest.mark.parametrize("name, seed", [("qwixx-standard", 3), ("qwixx-bonus-b", 5)])
def test_printgens_own_render_of_a_game_is_read_sure_and_right(reader: Reader, tmp_path: Path, name: str,
                                                                seed: int) -> None:
    """`printgen simulate --render`'s picture: pure white paper, crossed locks and misthrows, totals written in
    bold. Before, the light was measured only on ink's anti-aliased edges there, and every lock and misthrow
    box near written figures was 'hidden' and guessed (misthrows wrong)."""
    layout = load(name)
    _, game = simulate(layout, players=3, games=1, seed=seed)  # type: ignore[arg-type]
    picture = write_filled(layout, game.sheets, tmp_path / "game.png")  # type: ignore[arg-type]
    results = reader.read_image(open_photo(picture), picture.name)
    assert all(isinstance(r, SheetReading) for r in results) and len(results) == 3
    engine = sorted(sheet.total() for sheet in game.sheets)
    assert sorted(r.verdict.total for r in results) == engine  # type: ignore[union-attr]
    assert [len(r.uncertain) for r in results] == [0, 0, 0]  # type: ignore[union-attr]
