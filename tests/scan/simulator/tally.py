"""Measuring the reader: known truths and what was read in, field and sheet accuracy and how many wrong sheets were flagged out."""

from __future__ import annotations

from dataclasses import dataclass, field

from printgen.scan.reader import Result, SheetReading
from tests.scan.simulator.synthetic import Truth


@dataclass
class Tally:
    """Running totals over many pictures."""

    fields: int = 0
    fields_right: int = 0
    sheets: int = 0
    sheets_right: int = 0
    wrong_flagged: int = 0
    unreadable: int = 0
    flagged_right: int = 0
    """Sheets read entirely right that were still flagged for a check."""
    failures: list[str] = field(default_factory=list)

    def add(self, name: str, truths: list[Truth], results: list[Result]) -> None:
        """Count one picture: its truths against the sheets read from it."""
        readings = [r for r in results if isinstance(r, SheetReading)]
        for truth in truths:
            self.sheets += 1
            best = max(readings, key=lambda r: _agreement(truth, r), default=None)
            if best is None:
                self.unreadable += 1
                self.wrong_flagged += 1
                self.fields += _field_count(truth)
                reasons = "; ".join(r.reason for r in results if not isinstance(r, SheetReading))
                self.failures.append(f"{name}: unreadable: {reasons}")
                continue
            readings.remove(best)
            wrong = [r.field.name for r in best.readings if r.crossed != truth.crossed(r.field.kind, r.field.index,
                                                                                      r.field.number)]
            same_code = best.code == truth.code
            self.fields += len(best.readings)
            self.fields_right += len(best.readings) - len(wrong)
            if not wrong and same_code:
                self.sheets_right += 1
                self.flagged_right += best.flagged
                continue
            flagged = best.flagged
            self.wrong_flagged += flagged
            what = ", ".join(wrong) if same_code else f"code {best.code} != {truth.code}"
            self.failures.append(f"{name}: {'flagged' if flagged else 'NOT FLAGGED'}: {what}")

    def lines(self) -> list[str]:
        """The figures, one a line."""
        wrong = self.sheets - self.sheets_right
        return [
            f"fields right        {self.fields_right / max(self.fields, 1):8.3%}  ({self.fields_right} of {self.fields})",
            f"sheets right        {self.sheets_right / max(self.sheets, 1):8.3%}  ({self.sheets_right} of {self.sheets})",
            (f"wrong sheets flagged {self.wrong_flagged / max(wrong, 1):7.1%}  ({self.wrong_flagged} of {wrong}; "
            f"{self.unreadable} unreadable)"),
            f"right sheets flagged all the same: {self.flagged_right}",
        ]


def _agreement(truth: Truth, reading: SheetReading) -> int:
    same = sum(r.crossed == truth.crossed(r.field.kind, r.field.index, r.field.number) for r in reading.readings)
    return same + (1000 if reading.code == truth.code else 0)


def _field_count(truth: Truth) -> int:
    from printgen import layouts
    from printgen.kinds.score_sheets import ScoreSheetLayout
    from printgen.scan.template import fields

    layout = layouts.load(truth.layout)
    assert isinstance(layout, ScoreSheetLayout)
    return len(fields(layout, truth.code))
