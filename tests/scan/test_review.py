"""Reviewing a read sheet (printgen.scan.review): a field named as the JSON names it, crossed or cleared by a
person, re-refereed at once, and kept as plain JSON that rebuilds the same review."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.scan.conftest import NEEDS_SCAN

cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)
np = pytest.importorskip("numpy", reason=NEEDS_SCAN)

from printgen.scan.reader import Reader, SheetReading
from printgen.scan.review import FieldError, Review, correct, find_field, record, restore


@pytest.fixture(scope="module")
def read(demo: Any) -> tuple[Reader, SheetReading]:
    reader = Reader()
    image = cv2.imdecode(np.frombuffer(demo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    (reading,) = reader.read_image(image, "demo.jpg")
    assert isinstance(reading, SheetReading)
    return reader, reading


@pytest.mark.parametrize("spec, name", [
    ({"row": 0, "number": 5, "crossed": True}, "row 1: 5"),
    ({"field": "row:0:5", "crossed": True}, "row 1: 5"),
    ({"field": "lock:2", "crossed": False}, "lock 3"),
    ({"row": 2, "lock": True, "crossed": False}, "lock 3"),
    ({"field": "penalty:3", "crossed": True}, "penalty 4"),
    ({"penalty": 3, "crossed": True}, "penalty 4"),
])
def test_a_field_is_named_as_score_json_names_it(read: tuple[Reader, SheetReading], spec: Any, name: str) -> None:
    field, crossed = find_field(read[1], spec)
    assert (field.name, crossed) == (name, spec["crossed"])


@pytest.mark.parametrize("spec", [
    [1, 2], {"row": 0, "number": 5}, {"row": 0, "number": 5, "crossed": 1}, {"row": -1, "number": 5, "crossed": True},
    {"row": True, "number": 5, "crossed": True}, {"field": "lock:9", "crossed": True},
    {"field": "bonus_row:0", "crossed": True}, {"field": 7, "crossed": True}, {"field": "lock:1e3", "crossed": True},
    {"row": 0, "number": 5, "field": "lock:0", "crossed": True},
    {"bonus_box": [1], "crossed": True}, {"bonus_box": {}, "crossed": True},  # (unhashable: a 500 once)
])
def test_anything_else_is_one_line(read: tuple[Reader, SheetReading], spec: Any) -> None:
    with pytest.raises(FieldError) as refused:
        find_field(read[1], spec)
    assert "\n" not in str(refused.value) and str(refused.value)


def test_a_correction_is_refereed_and_survives_being_kept_as_json(read: tuple[Reader, SheetReading]) -> None:
    reader, reading = read
    before = reading.verdict
    field, _ = find_field(reading, {"field": "lock:3", "crossed": True})
    review = correct(Review(reading), field, True)
    assert review.reading.marks.locks[3] and not review.reading.verdict.legal
    assert review.reading.verdict.problems and before.legal  # the referee judged the sheet anew
    kept = restore(json.loads(json.dumps(record(review))), reader.layouts)
    assert kept.corrected == review.corrected == (("lock", 3, None),)
    assert kept.reading.verdict == review.reading.verdict
    assert [r.state for r in kept.reading.readings] == [r.state for r in review.reading.readings]
    undone = correct(kept, field, False)
    assert undone.reading.verdict.total == before.total and undone.reading.verdict.legal


def test_a_record_of_a_layout_no_longer_known_is_refused(read: tuple[Reader, SheetReading]) -> None:
    kept = record(Review(read[1]))
    with pytest.raises(FieldError, match="not known"):
        restore({**kept, "layout": "qwixx-gone"}, read[0].layouts)
