"""Reporting read sheets: readings in, a short human summary and the JSON object of `printgen score --json` out.

Rows are counted from 1 in text meant for people and from 0 in JSON (where
`{"row": i}` indexes the `rows` list); the standings are `standings`'s. Pure
formatting: no pixels, no files.
"""

from __future__ import annotations

from typing import Any

from printgen.scan.reader import Result, SheetReading, Unreadable
from printgen.scan.referee import LETTERS

JSON_KEYS = ("file", "position", "of", "layout", "sheet", "rows", "penalties", "bonus", "points", "total", "legal",
             "problems", "uncertain")


def where(result: Result) -> str:
    """The photo, and which sheet of it when it holds several."""
    return result.file + (f" [sheet {result.position} of {result.of}]" if result.of > 1 else "")


def as_json(reading: SheetReading) -> dict[str, Any]:
    """The JSON object of one sheet, with exactly the keys of JSON_KEYS."""
    marks = reading.marks
    layout = reading.layout
    numbers = reading.code.numbers or tuple(row.numbers for row in layout.rows)
    rows = [{"crossed": [n for n in order if n in crossed], "lock": lock}
            for order, crossed, lock in zip(numbers, marks.rows, marks.locks)]
    sheet: dict[str, Any] = {"code": reading.text, **reading.code.data()}
    if reading.recognised is not None:
        sheet["code_read"] = False
    bonus: dict[str, Any] | None = None
    if layout.bonus_row:
        bonus = {"row": [i in marks.bonus_row for i in range(len(layout.bonus_row))]}
    elif layout.bonus_boxes:
        bonus = {"boxes": {LETTERS[k]: k in marks.bonus_boxes for k in sorted(LETTERS)}}
    verdict = reading.verdict
    return {
        "file": reading.file,
        "position": reading.position,
        "of": reading.of,
        "layout": layout.name,
        "sheet": sheet,
        "rows": rows,
        "penalties": marks.penalties,
        "bonus": bonus,
        "points": verdict.points,
        "total": verdict.total,
        "legal": verdict.legal,
        "problems": list(verdict.problems),
        "uncertain": uncertain_fields(reading),
    }


def uncertain_fields(reading: SheetReading) -> list[Any]:
    """Every doubtful field as `{"row": i, "number": n}`, `{"row": i, "lock": true}`, `{"penalty": k}`,
    `{"bonus_row": k}` or `{"bonus_box": "A"}`, each with the `"reason"` it is doubtful, then what was doubtful about a sheet recognised by its look."""
    found: list[Any] = []
    for item in reading.uncertain:
        f = item.field
        if f.kind == "number":
            where: dict[str, Any] = {"row": f.index, "number": f.number}
        elif f.kind == "lock":
            where = {"row": f.index, "lock": True}
        elif f.kind == "penalty":
            where = {"penalty": f.index}
        elif f.kind == "bonus-row":
            where = {"bonus_row": f.index}
        else:
            where = {"bonus_box": LETTERS[f.index]}
        found.append({**where, "reason": item.reason})
    if reading.recognised is not None:
        found.append("code: not read, the sheet was recognised by its print")
        found += [f"code: {what}" for what in reading.recognised]
    found += [f"code: {what}" for what in reading.disagreements]
    return found


def summary(result: Result) -> list[str]:
    """A few lines for people: per row the crosses and points, penalties, total, legality, doubts."""
    if isinstance(result, Unreadable):
        return [f"{where(result)}: unreadable: {result.reason}"]
    reading = result
    layout = reading.layout
    marks = reading.marks
    verdict = reading.verdict
    extra = []
    if reading.code.lucky:
        extra.append(f"lucky numbers {reading.code.lucky[0]} and {reading.code.lucky[1]}")
    if reading.code.numbers:
        extra.append("shuffled numbers")
    if reading.recognised is not None:
        extra.append("code unreadable, recognised by its print")
    state = "legal" if verdict.legal else "NOT LEGAL"
    lines = [(f"{where(reading)}: {layout.name}{' (' + ', '.join(extra) + ')' if extra else ''}: "
             f"total {verdict.total}, {state}")]
    numbers = reading.code.numbers or tuple(row.numbers for row in layout.rows)
    for index, (order, crossed, lock) in enumerate(zip(numbers, marks.rows, marks.locks)):
        shown = " ".join(str(n) for n in order if n in crossed) or "-"
        lock_text = " + lock" if lock else ""
        lines.append(f"  row {index + 1} {layout.rows[index].colour:<7} {shown}{lock_text}  = {verdict.points[index]}")
    lines.append(f"  penalties {marks.penalties}  = {-verdict.points[-1] if verdict.points[-1] else 0}")
    if layout.bonus_row:
        crossed_fields = ", ".join(str(i + 1) for i in sorted(marks.bonus_row))
        lines.append(f"  bonus row: fields {crossed_fields} crossed" if crossed_fields else "  bonus row: none crossed")
    if layout.bonus_boxes:
        boxes = ", ".join(LETTERS[k] for k in sorted(marks.bonus_boxes)) or "none"
        extra = verdict.total - (sum(verdict.points[:-1]) - verdict.points[-1])
        lines.append(f"  bonus boxes crossed: {boxes}" + (f"  = {extra:+d}" if extra else ""))
    lines += [f"  problem: {problem}" for problem in verdict.problems]
    by_reason: dict[str, list[str]] = {}
    for item in reading.uncertain:
        by_reason.setdefault(item.reason, []).append(item.field.name)
    for reason, names in by_reason.items():
        lines.append(f"  uncertain, check by eye: {', '.join(names)} ({reason})")
    doubts = [f"code ({what})" for what in reading.recognised or ()]
    doubts += [f"code ({what})" for what in reading.disagreements]
    if reading.recognised is not None and not reading.recognised:
        doubts.append("the sheet's data (code not read)")
    if doubts:
        lines.append(f"  uncertain, check by eye: {', '.join(doubts)}")
    return lines
