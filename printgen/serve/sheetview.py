"""What the scoring page shows of a sheet: a kept sheet (and a person's correction) in, its JSON and the fields to draw over its picture out.

A sheet's picture is the sheet straightened (see `uploads.sheet_picture`),
so each field is drawn over it by its box in sheet millimetres: the page
needs no geometry of its own. A correction names a field as
`POST /api/sheets/{id}/fields` does and goes through
`printgen.scan.review`, which re-settles the uncertain fields and
re-referees the sheet. Confirming a sheet accepts its doubtful fields as
shown (`accepted`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from printgen.kinds import ScoreSheetLayout
from printgen.scan.ink import State
from printgen.scan.report import as_json
from printgen.scan.review import Review, correct, field_name, find_field, key, restore
from printgen.scan.template import Field
from printgen.serve.store import StoredSheet
from printgen.serve.uploads import MARGIN


def sheet_json(sheet_id: str, review: Review) -> dict[str, Any]:
    """A sheet as `POST /api/score` answers it: exactly the keys of `printgen score --json`, and `id`."""
    return {**as_json(review.reading), "id": sheet_id}


def view(stored: StoredSheet, review: Review) -> dict[str, Any]:
    """A kept sheet as the scoring page draws it: `sheet_json`, then its game, player, whether it is
    confirmed, its picture and frame (sheet mm: x, y, width, height) and every field with its state."""
    reading = review.reading
    layout = reading.layout
    corrected = set(review.corrected)
    return {
        **sheet_json(stored.id, review),
        "game": stored.game,
        "player": stored.player,
        "confirmed": stored.confirmed,
        "picture": f"/api/sheets/{stored.id}/picture",
        "frame": [-MARGIN, -MARGIN, layout.width + 2 * MARGIN, layout.height + 2 * MARGIN],
        "fields": [{"name": item.field.name, "set": _spec(item.field), "box": list(item.field.box),
                    "round": item.field.round, "crossed": item.crossed,
                    "uncertain": item.state is State.UNCERTAIN, "corrected": key(item.field) in corrected}
                   for item in reading.readings],
    }


def _spec(field: Field) -> dict[str, Any]:
    """How a correction names `field` (add "crossed")."""
    if field.kind == "number":
        return {"row": field.index, "number": field.number}
    return {"field": field_name(field)}


def review_of(stored: StoredSheet, layouts: Mapping[str, ScoreSheetLayout]) -> Review:
    """The review a kept sheet holds (FieldError when its layout is no longer known)."""
    return restore(stored.record, layouts)


def accepted(review: Review) -> Review:
    """`review` with every doubtful field set as it is shown now (crossed or not), as a person confirming the
    sheet accepts them: none of them needs a look any more, and the total stays what was shown."""
    shown = [(item.field, item.crossed) for item in review.reading.readings if item.state is State.UNCERTAIN]
    for field, crossed in shown:
        review = correct(review, field, crossed)
    return review


def corrected(review: Review, spec: Any) -> Review:
    """`review` with the field `spec` names crossed or not as it says (FieldError, one line, for anything
    that names no field of this sheet)."""
    field, crossed = find_field(review.reading, spec)
    return correct(review, field, crossed)
