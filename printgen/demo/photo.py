"""A demo photo: a seed in, a phone-like JPEG of a played standard Qwixx sheet filled in with a ballpoint out.

The rules engine plays a whole game of three; the first player's final
sheet is printed (the blank sheet rendered from its page description, with
its corner markers and code), crossed by hand with one ballpoint where the
engine crossed, signed with a name, and photographed: turned, tilted,
unevenly lit, on a table, as JPEG. `DEMO_SEED` gives a photo that the reader
reads whole (a test holds it to the engine's total), so a new user's first
try shows what a good photo gives.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.demo.camera import photograph
from printgen.demo.handwriting import Paper, mark, pen
from printgen.kinds import score_sheet
from printgen.marks.codes import SheetCode, layout_version
from printgen.rules import qwixx
from printgen.rules.sheet import Sheet
from printgen.scan.raster import raster
from printgen.scan.template import Field, blank_item, fields

DEMO_LAYOUT = "qwixx-standard"
DEMO_SEED = 3
"""The seed of `printgen score --demo`: any seed makes a photo; this one is the documented example."""
PX_PER_MM = 10.0
"""How finely the sheet is drawn before it is photographed."""
WIDEST = 2400
"""The photo's width at most, in pixels (a phone's photos are wider; this keeps the file near 0.5 MB)."""
PLAYER = "Anna"


@dataclass(frozen=True, slots=True)
class DemoPhoto:
    """A demo photo (JPEG bytes) and what the sheet in it holds: its layout and the engine's total."""

    jpeg: bytes
    layout: str
    total: int


def demo_photo(seed: int = DEMO_SEED, touch: Callable[[Paper, list[Field], Sheet], None] | None = None) -> DemoPhoto:
    """The demo photo of `seed` (the same seed gives the same photo); `touch`, given the crossed paper, the
    sheet's fields and the engine's sheet, may add to it before it is signed and photographed."""
    rng = random.Random(seed)
    layout = score_sheet(layouts.load(DEMO_LAYOUT))
    assert layout is not None, DEMO_LAYOUT  # a built-in score sheet
    game = qwixx.Game(layout.rules, players=3, seed=rng.getrandbits(32))
    game.play()
    sheet = game.sheets[0]
    code = SheetCode(layout.name, layout_version(layout, sheet_geometry(layout)))
    paper = Paper(raster(blank_item(layout, code).as_page(), PX_PER_MM).astype(np.float32) / 255.0, PX_PER_MM,
                  rng)
    ballpoint = pen("ballpoint", rng)
    every = fields(layout, code)
    for field in every:
        if _crossed(sheet, field):
            mark(paper, field.box, ballpoint, rng)
    if touch is not None:
        touch(paper, every, sheet)
    paper.text(layout.width * 0.55, sheet_geometry(layout).title_baseline, PLAYER, 5.5, ballpoint)
    _image, jpeg, _shot = photograph(paper.finish(), PX_PER_MM, rng, 1800, 0.5, WIDEST)
    return DemoPhoto(jpeg, layout.name, sheet.total())


def _crossed(sheet: Sheet, field: Field) -> bool:
    """Whether the engine's final `sheet` has `field` crossed (demo sheets have no bonus fields)."""
    if field.kind == "number":
        return field.number in sheet.marked(field.index)
    if field.kind == "lock":
        return sheet.is_locked(field.index)
    return field.kind == "penalty" and field.index < sheet.penalties


def encoded(photo: DemoPhoto, suffix: str) -> bytes:
    """The demo photo as a file of the format `suffix` names (.jpg and .jpeg as made; .png re-encoded)."""
    if suffix.lower() in (".jpg", ".jpeg"):
        return photo.jpeg
    picture = cv2.imdecode(np.frombuffer(photo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    ok, data = cv2.imencode(suffix.lower(), picture)
    if not ok:
        raise ValueError(f"cannot write a {suffix} picture")
    return data.tobytes()

