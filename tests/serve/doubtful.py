"""A photo with one doubtful field: the demo sheet, plus a faint pencil stroke in an empty field of row 4."""

from __future__ import annotations

import random

import numpy as np

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.demo.camera import photograph
from printgen.demo.handwriting import Paper, Pen, mark, pen
from printgen.demo.photo import DEMO_LAYOUT, DEMO_SEED, PLAYER, PX_PER_MM, WIDEST
from printgen.kinds import score_sheet
from printgen.marks.codes import SheetCode, layout_version
from printgen.rules import qwixx
from printgen.scan.raster import raster
from printgen.scan.template import blank_item, fields

FAINT = Pen("pencil", 0.3, (0.55, 0.55, 0.57), 0.6, 0.35)
"""A light pencil touching the paper: neither a cross nor nothing."""
DOUBTFUL = "row 4: 10"
"""The field the stroke lands in (the third of row 4, which the demo game leaves empty)."""


def doubtful_photo() -> bytes:
    """The demo photo's sheet with a short faint stroke in field DOUBTFUL, photographed the same way (JPEG)."""
    rng = random.Random(DEMO_SEED)
    layout = score_sheet(layouts.load(DEMO_LAYOUT))
    assert layout is not None
    game = qwixx.Game(layout.rules, players=3, seed=rng.getrandbits(32))
    game.play()
    sheet = game.sheets[0]
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)))
    paper = Paper(raster(blank_item(layout, code).as_page(), PX_PER_MM).astype(np.float32) / 255.0, PX_PER_MM,
                  rng)
    ballpoint = pen("ballpoint", rng)
    every = fields(layout, code)
    for field in every:
        crossed = (field.number in sheet.marked(field.index) if field.kind == "number"
                   else sheet.is_locked(field.index) if field.kind == "lock"
                   else field.kind == "penalty" and field.index < sheet.penalties)
        if crossed:
            mark(paper, field.box, ballpoint, rng)
    x, y, w, h = next(f for f in every if f.name == DOUBTFUL).box
    assert 10 not in sheet.marked(3)
    paper.stroke([(x + w * 0.3, y + h * 0.7), (x + w * 0.55, y + h * 0.45)], FAINT)
    paper.text(layout.width * 0.55, sheet_geometry(layout).title_baseline, PLAYER, 5.5, ballpoint)
    _image, jpeg, _shot = photograph(paper.finish(), PX_PER_MM, rng, 1800, 0.5, WIDEST)
    return bytes(jpeg)
