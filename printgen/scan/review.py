"""Reviewing a read sheet: a sheet as read (or as saved) and a person's corrections in, the sheet re-settled and re-refereed out.

A person who looks at the photo may settle a field the ink could not
decide, or overrule one it decided: the field is then crossed or empty as
they say (no longer uncertain), the fields still uncertain are settled by
the rules again (`settle`), and the referee judges the sheet anew, so the
points, total, legality and problems always follow the crosses as they now
stand. A read sheet is kept as plain data (`record`, JSON) and rebuilt from
it (`restore`), so a review survives a restart of `printgen serve`. Fields
are named as `printgen score --json` names them, counted from 0:
`{"row": i, "number": n}`, or `{"field": name}` with name `lock:i`,
`penalty:k`, `bonus_row:k` or `bonus_box:A`. Pure logic on readings: no
pixels are read again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

import numpy as np

from printgen.kinds import ScoreSheetLayout
from printgen.marks.codes import parse
from printgen.scan.crosses import marks_of
from printgen.scan.ink import Reading, State
from printgen.scan.reader import SheetReading
from printgen.scan.referee import LETTERS, referee
from printgen.scan.settle import settle
from printgen.scan.template import Field
from printgen.scan.template import fields as sheet_fields

FieldKey = tuple[str, int, int | None]
"""A field as (kind, index, number): what tells the fields of a sheet apart."""
NAMED = {"lock": "lock", "penalty": "penalty", "bonus_row": "bonus-row", "bonus_box": "bonus-box"}
"""The names of fields given by name (`{"field": "lock:2"}`), and the kinds they are."""
BOX_INDEX = {letter: kind for kind, letter in LETTERS.items()}


class FieldError(ValueError):
    """A field that the sheet does not have, or a correction that is not one (one line)."""


@dataclass(frozen=True)
class Review:
    """A sheet as read and as corrected so far: the reading (re-refereed) and the fields a person has set."""

    reading: SheetReading
    corrected: tuple[FieldKey, ...] = ()


def key(field: Field) -> FieldKey:
    return field.kind, field.index, field.number


def field_name(field: Field) -> str:
    """How a correction names a field that is not a number (`lock:0`, `penalty:3`, `bonus_box:A`); a number's
    name is `row:i:n`, though corrections give numbers as {"row": i, "number": n}."""
    if field.kind == "number":
        return f"row:{field.index}:{field.number}"
    if field.kind == "bonus-box":
        return f"bonus_box:{LETTERS[field.index]}"
    return f"{field.kind.replace('-', '_')}:{field.index}"


def correct(review: Review, field: Field, crossed: bool) -> Review:
    """`review` with `field` crossed or empty as a person says, the other uncertain fields settled by the rules
    again and the sheet re-refereed."""
    reading = review.reading
    wanted = key(field)
    if not any(key(r.field) == wanted for r in reading.readings):
        raise FieldError(f"the sheet has no field {field_name(field)}")
    state = State.CROSSED if crossed else State.EMPTY
    readings = [replace(r, state=state, settled=None) if key(r.field) == wanted
                else replace(r, settled=None) if r.state is State.UNCERTAIN else r for r in reading.readings]
    corrected = (*(k for k in review.corrected if k != wanted), wanted)
    return Review(_refereed(reading, readings), corrected)


def _refereed(reading: SheetReading, readings: list[Reading]) -> SheetReading:
    """`reading` with `readings` (uncertain ones settled again) and the referee's new verdict."""
    layout, code = reading.layout, reading.code
    settled = settle(layout, code, readings)
    verdict = referee(layout.rules, marks_of(layout, settled), code.lucky, code.numbers)
    return replace(reading, readings=settled, verdict=verdict)


def find_field(reading: SheetReading, spec: Mapping[str, Any]) -> tuple[Field, bool]:
    """The field a correction names and whether it is to be crossed; FieldError (one line) for anything
    else: `{"row": i, "number": n, "crossed": true}`, `{"field": "lock:0", "crossed": false}`, or an entry of
    `uncertain` (`{"row": i, "lock": true}`, `{"penalty": k}`, `{"bonus_row": k}`, `{"bonus_box": "A"}`) with
    `crossed` added."""
    if not isinstance(spec, Mapping):
        raise FieldError('give an object such as {"row": 0, "number": 5, "crossed": true}')
    crossed = spec.get("crossed")
    if not isinstance(crossed, bool):
        raise FieldError('"crossed": give true or false')
    rest = {k: v for k, v in spec.items() if k != "crossed"}
    wanted = _wanted(rest)
    for item in reading.readings:
        if key(item.field) == wanted:
            return item.field, crossed
    row = rest.get("row")
    counted = (f' ("row" counts from 0: {row} is row {row + 1} on the sheet)'
               if isinstance(row, int) and not isinstance(row, bool) and row >= 0 else "")
    raise FieldError(f"{reading.layout.name} has no such field: {_described(rest)}{counted}")


def _wanted(spec: dict[str, Any]) -> FieldKey:
    """The key of the field `spec` names (without checking that the sheet has it)."""
    names = set(spec)
    if names == {"field"}:
        kind, _, index = str(spec["field"]).partition(":") if isinstance(spec["field"], str) else ("", "", "")
        if any(c.isdigit() and not c.isascii() for c in index):
            raise FieldError(f'"field": {_shown(spec["field"])}: write its number with the digits 0 to 9')
        if kind == "row":
            row, _, number = index.partition(":")
            if _digits(row) and _digits(number):
                return "number", int(row), int(number)
        elif kind == "bonus_box" and index in BOX_INDEX:
            return "bonus-box", BOX_INDEX[index], None
        elif kind in NAMED and kind != "bonus_box" and _digits(index):
            return NAMED[kind], int(index), None
        raise FieldError(f'"field": {_shown(spec["field"])} names no field (e.g. "lock:0", "penalty:1", '
                         '"bonus_row:3", "bonus_box:A")')
    if names == {"row", "number"}:
        return "number", _whole(spec, "row"), _whole(spec, "number")
    if names == {"row", "lock"} and spec["lock"] is True:
        return "lock", _whole(spec, "row"), None
    if names in ({"penalty"}, {"bonus_row"}):
        (name,) = names
        return NAMED[name], _whole(spec, name), None
    if names == {"bonus_box"} and isinstance(spec["bonus_box"], str) and spec["bonus_box"] in BOX_INDEX:
        return "bonus-box", BOX_INDEX[spec["bonus_box"]], None
    keys = [json.dumps(name, ensure_ascii=False)[:40] for name in spec]
    named = (" and ".join([", ".join(keys[:-1]), keys[-1]]) + " together name" if len(keys) > 1 else
             f"{keys[0]} names" if keys else 'only "crossed" was given: it names')
    raise FieldError(f'{named} no field: give "row" and "number", or "field" (the name of a lock, penalty '
                     "or bonus field)")


def _whole(spec: Mapping[str, Any], name: str) -> int:
    value = spec[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1000:
        raise FieldError(f'"{name}": give a whole number from 0 to 999, not {_shown(value)}')
    return value


def _digits(text: str) -> bool:
    """Whether `text` is a number of 1 to 3 digits 0-9 (`str.isdigit` and `int` also take other scripts' digits)."""
    return 0 < len(text) < 4 and text.isascii() and text.isdigit()


def _shown(value: object) -> str:
    """A value from a correction as it was sent (JSON: "x", 7, true, null; an object or a list in words), cut to
    one short line."""
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _described(spec: Mapping[str, Any]) -> str:
    """What a correction named, in words: `row 9, number 2`, `field "lock:7"`."""
    return ", ".join(f"{name} {_shown(value)}" for name, value in spec.items())


# -- kept as data ----------------------------------------------------------------------------------------------


def record(review: Review) -> dict[str, Any]:
    """Everything needed to rebuild `review` later, as plain JSON values: the sheet's layout by name, its
    code, where it lies in the photo, and every field's reading."""
    reading = review.reading
    return {
        "file": reading.file,
        "layout": reading.layout.name,
        "text": reading.text,
        "code": reading.code.text(reading.layout),
        "to_photo": [[float(v) for v in row] for row in np.asarray(reading.to_photo)],
        "position": reading.position,
        "of": reading.of,
        "recognised": None if reading.recognised is None else list(reading.recognised),
        "disagreements": list(reading.disagreements),
        "readings": [_reading(r) for r in reading.readings],
        "corrected": [list(k) for k in review.corrected],
    }


def _reading(reading: Reading) -> dict[str, Any]:
    found: dict[str, Any] = {"field": list(key(reading.field))}
    for item in fields(reading):
        if item.name != "field":
            value = getattr(reading, item.name)
            found[item.name] = value.value if isinstance(value, Enum) else value.item() if hasattr(value, "item") \
                else value
    return found


def restore(data: Mapping[str, Any], layouts: Mapping[str, ScoreSheetLayout]) -> Review:
    """The review `record` kept, with the referee's verdict made again; FieldError when the layout is no
    longer known or its fields have changed since (the record then stays as it was)."""
    layout = layouts.get(str(data["layout"]).lower())
    if layout is None:
        raise FieldError(f"layout {data['layout']} is not known to this printgen")
    code = parse(data["code"], layout)
    by_key = {key(f): f for f in sheet_fields(layout, code)}
    readings = []
    for item in data["readings"]:
        kind, index, number = item["field"]
        field = by_key.get((kind, index, number))
        if field is None:
            raise FieldError(f"{layout.name} no longer has the field {kind} {index} {number}")
        values = {name: State(value) if name == "state" else value for name, value in item.items()
                  if name != "field"}
        readings.append(Reading(field=field, **values))
    recognised = data["recognised"]
    reading = SheetReading(data["file"], layout, code, data["text"], readings,
                           referee(layout.rules, marks_of(layout, readings), code.lucky, code.numbers),
                           np.array(data["to_photo"], dtype=np.float64), position=data["position"], of=data["of"],
                           recognised=None if recognised is None else tuple(recognised),
                           disagreements=tuple(data["disagreements"]))
    corrected: tuple[FieldKey, ...] = tuple((k[0], k[1], k[2]) for k in data["corrected"])
    return Review(reading, corrected)
