"""A photo with one doubtful field: the demo sheet, plus a faint pencil stroke in an empty field of row 4."""

from __future__ import annotations

from printgen.demo.handwriting import Paper, Pen
from printgen.demo.photo import demo_photo
from printgen.rules.sheet import Sheet
from printgen.scan.template import Field

FAINT = Pen("pencil", 0.3, (0.55, 0.55, 0.57), 0.75, 0.35)
"""A light pencil touching the paper: neither a cross nor nothing."""
DOUBTFUL = "row 4: 10"
"""The field the stroke lands in (the third of row 4, which the demo game leaves empty)."""


def doubtful_photo() -> bytes:
    """The demo photo's sheet with a short faint stroke in field DOUBTFUL, photographed the same way (JPEG)."""

    def stroke(paper: Paper, every: list[Field], sheet: Sheet) -> None:
        x, y, w, h = next(f for f in every if f.name == DOUBTFUL).box
        assert 10 not in sheet.marked(3)
        paper.stroke([(x + w * 0.3, y + h * 0.7), (x + w * 0.55, y + h * 0.45)], FAINT)

    return demo_photo(touch=stroke).jpeg
