"""Hostile input for `printgen score`, bounded in time: mutated pictures of every format and crafted sheet codes
never give a traceback, a crash or a hang — every photo ends in readings or one line saying why not.

CI runs a few dozen examples of each (well under a minute together); PRINTGEN_FUZZ_EXAMPLES runs more."""

from __future__ import annotations

import io
import os
import string
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.scan.conftest import NEEDS_SCAN, SHEETS, sheet

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.builders.geometry import sheet_geometry
from printgen.marks.codes import CodeError, layout_version, parse
from printgen.scan import score
from printgen.scan.reader import Reader, SheetReading, Unreadable

EXAMPLES = int(os.environ.get("PRINTGEN_FUZZ_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
ALPHANUMERIC = string.digits + string.ascii_uppercase + " $%*+-./:"
"""What a QR code's alphanumeric mode holds: all a printed code can carry cheaply."""


@cache
def seeds() -> dict[str, bytes]:
    """A small picture of a sheet's corner in every format read, to mutate."""
    from PIL import Image

    from printgen.builders.scoresheet import build_sheet
    from tests.scan.photos import printed

    corner = printed(build_sheet(sheet("qwixx-standard")), 3)[:160, :240, ::-1]
    found = {}
    for kind in ("JPEG", "PNG", "WEBP", "BMP", "TIFF"):
        buffer = io.BytesIO()
        Image.fromarray(np.ascontiguousarray(corner)).save(buffer, format=kind)
        found[kind] = buffer.getvalue()
    return found


@cache
def reader() -> Reader:
    return Reader()


def one_line(result: object) -> None:
    assert isinstance(result, SheetReading | Unreadable)
    if isinstance(result, Unreadable):
        assert result.reason and "\n" not in result.reason and len(result.reason) < 400


@SETTINGS
@given(kind=st.sampled_from(["JPEG", "PNG", "WEBP", "BMP", "TIFF"]),
       edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=12),
       cut=st.one_of(st.none(), st.integers(0, 10**6)))
def test_mutated_pictures_end_in_readings_or_one_line(tmp_path: Path, kind: str, edits: list[tuple[int, int]],
                                                     cut: int | None) -> None:
    data = bytearray(seeds()[kind])
    for where, value in edits:
        data[where % len(data)] = value
    if cut is not None:
        data = data[: cut % (len(data) + 1)]
    path = tmp_path / "photo.png"
    path.write_bytes(bytes(data))
    ((_, _, results),) = list(score.score([path], reader()))
    assert results
    for result in results:
        one_line(result)


PART = st.one_of(st.text(ALPHANUMERIC, max_size=8), st.sampled_from(["L5A", "L55", "LZZ", "L00", "S1", "S" + "Z" * 39,
                                                                     "S", "EN*", "/ETC/X", "../EN", "", "*"]))


@settings(max_examples=EXAMPLES * 25, deadline=None)
@given(name=st.sampled_from(SHEETS), parts=st.lists(PART, max_size=5))
def test_crafted_code_texts_parse_or_are_refused_in_one_line(name: str, parts: list[str]) -> None:
    layout = sheet(name)
    version = layout_version(layout, sheet_geometry(layout))
    text = ":".join([layout.name.upper().replace("QWIXX-", "$"), version, *parts])
    try:
        code = parse(text, layout)
    except CodeError as error:
        assert "\n" not in str(error) and len(str(error)) < 300
        return
    from printgen.labels import languages

    assert code.lang in languages()
    assert (code.lucky is not None) == layout.lucky_numbers


@settings(max_examples=max(4, EXAMPLES // 2), deadline=None)
@given(name=st.sampled_from(SHEETS), tail=st.lists(PART, max_size=3))
def test_photos_of_sheets_with_crafted_codes_end_in_readings_or_one_line(name: str, tail: list[str]) -> None:
    from tests.scan.hostile import forged
    from tests.scan.photos import photo, printed

    layout = sheet(name)
    version = layout_version(layout, sheet_geometry(layout))
    text = ":".join([layout.name.upper().replace("QWIXX-", "$"), version, "EN", *tail])
    if len(text) > 42:  # more than a version 3 code holds
        text = text[:42]
    lucky = (5, 10) if layout.lucky_numbers else None
    image = photo(printed(forged(layout, text, lucky=lucky), 6), turn=3, width=1400, fill=0.7)
    for result in reader().read_image(image, "crafted"):
        one_line(result)
