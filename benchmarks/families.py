"""Benchmark of the reader by condition family: a photo set's generator in, per family how well `printgen score` reads its photos out.

Run: python benchmarks/families.py --set heldout --photos 30 [--seed 1] [--keep DIR] [--workers 2]
     [--save FILE] [--against FILE]

A photo set is a package beside this file (`benchmarks/photosets/NAME/`)
exposing `FAMILIES` and `make(index, seed, family, folder)`, which writes
`NNNNN.jpg` (the photo) and `NNNNN.json` (its truth: every sheet in it, with
the keys of `printgen score --json` that say what was crossed). `--photos`
photos are made for every family (in parallel, reused from `--keep`), then
read one after the other in this process, as `printgen score` reads them,
and compared with their truths. Printed per family:

- sheets right: every field, the lucky numbers and the shuffled order as in
  the truth;
- fields right: numbers, locks, penalty boxes and bonus fields;
- wrong flagged: wrong sheets that the reader flagged (uncertain fields, not
  legal, code not read or disagreeing with the print) or could not read;
- silent: wrong sheets it did not flag — a player's score silently changed;
- unreadable: sheets it gave no reading for;
- false flags: right sheets it flagged all the same (a person looks at them
  for nothing);
- CPU seconds a photo (process time, the photo opened and read).

`--save FILE` writes every sheet's verdict and every field's reading (truth,
state, evidence, halfway, reason, best guess) as JSON, with the set and seed;
`--against FILE` compares this run with such a file of the same set and seed,
sheet by sheet (and says how many sheets only one of them read): the sheets whose verdict
or flag changed, and both runs' uncertain fields and fields wrong in a sure
state (a change to the reader is judged on all of these, not on the sheets
right alone).

The sets must be made by other means than the tests' simulator
(`tests/scan/simulator`), and the reader must never be tuned on a held-out
set: `dev`, `fresh` and (since the reader's latest round) `heldout` are for
tuning, `fourth` and `fifth` only for reporting.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the photo sets live in this checkout, outside the installed package


@dataclass
class Score:
    """Totals of one family (or of all)."""

    photos: int = 0
    seconds: float = 0.0
    sheets: int = 0
    right: int = 0
    fields: int = 0
    fields_right: int = 0
    wrong_flagged: int = 0
    silent: int = 0
    unreadable: int = 0
    false_flags: int = 0
    notes: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    """Per sheet: its photo, family, verdict (right, flagged, silent or unreadable) and field readings."""

    def add(self, other: Score) -> None:
        for name in ("photos", "seconds", "sheets", "right", "fields", "fields_right", "wrong_flagged", "silent",
                     "unreadable", "false_flags"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.notes += other.notes
        self.records += other.records

    def row(self, name: str) -> str:
        wrong = self.sheets - self.right
        return (f"| {name} | {self.right / max(self.sheets, 1):.1%} ({self.right}/{self.sheets}) "
                f"| {self.fields_right / max(self.fields, 1):.2%} "
                f"| {self.wrong_flagged}/{wrong} | {self.silent} ({self.silent / max(self.sheets, 1):.1%}) "
                f"| {self.unreadable} | {self.false_flags} | {self.seconds / max(self.photos, 1):.2f} |")


HEADER = ("| family | sheets right | fields right | wrong flagged | silent errors | unreadable | false flags "
          "| CPU s/photo |\n| --- | --- | --- | --- | --- | --- | --- | --- |")


def fields_of(sheet: dict[str, Any]) -> dict[tuple[Any, ...], bool]:
    """Every field a truth or a reading (both in `score --json` terms) says is crossed or not."""
    found: dict[tuple[Any, ...], bool] = {}
    numbers = sheet.get("numbers")
    for index, row in enumerate(sheet["rows"]):
        crossed = set(row["crossed"])
        printed = numbers[index] if numbers else sheet["printed"][index]
        for number in printed:
            found[("number", index, number)] = number in crossed
        found[("lock", index)] = bool(row["lock"])
    for box in range(sheet["penalty_boxes"]):
        found[("penalty", box)] = box < sheet["penalties"]
    bonus = sheet.get("bonus") or {}
    for position, crossed in enumerate(bonus.get("row", [])):
        found[("bonus-row", position)] = bool(crossed)
    for letter, crossed in sorted((bonus.get("boxes") or {}).items()):
        found[("bonus-box", letter)] = bool(crossed)
    return found


def as_truth(reading: Any) -> dict[str, Any]:
    """A reading in the truth's terms."""
    from printgen.scan.report import as_json

    data = as_json(reading)
    return {"layout": data["layout"], "rows": data["rows"], "penalties": data["penalties"], "bonus": data["bonus"],
            "lucky": reading.code.lucky and sorted(reading.code.lucky), "numbers": reading.code.numbers and
            [list(row) for row in reading.code.numbers], "printed": [list(row.numbers) for row in reading.layout.rows],
            "penalty_boxes": reading.layout.penalties.count}


def complete(truth: dict[str, Any]) -> dict[str, Any]:
    """A truth with what its layout says (the numbers as printed, how many penalty boxes)."""
    from printgen import layouts

    layout = layouts.load(truth["layout"])
    return {**truth, "printed": [list(row.numbers) for row in layout.rows],  # type: ignore[union-attr]
            "penalty_boxes": layout.penalties.count, "lucky": truth.get("lucky") and sorted(truth["lucky"])}  # type: ignore[union-attr]


def judge(name: str, truths: list[dict[str, Any]], results: list[Any], seconds: float) -> Score:
    """One photo's sheets against its truths: each truth is matched with the reading that agrees with it most."""
    from printgen.scan.reader import SheetReading

    score = Score(photos=1, seconds=seconds)
    readings = [(r, as_truth(r)) for r in results if isinstance(r, SheetReading)]
    reasons = "; ".join(r.reason for r in results if not isinstance(r, SheetReading))
    for truth in map(complete, truths):
        expected = fields_of(truth)
        score.sheets += 1
        score.fields += len(expected)

        def agreement(candidate: tuple[Any, dict[str, Any]], truth: dict[str, Any] = truth,
                      expected: dict[str, Any] = expected) -> int:
            read = candidate[1]
            if read["layout"] != truth["layout"]:
                return -1
            got = fields_of(read)
            return sum(got.get(key) == value for key, value in expected.items())

        best = max(readings, key=agreement, default=None)
        photo, family = (name.split(" ") + [""])[:2]
        record: dict[str, Any] = {"photo": photo, "family": family, "sheet": score.sheets - 1,
                                  "verdict": "unreadable", "flagged": True, "fields": []}
        score.records.append(record)
        if best is None or agreement(best) < 0:
            score.unreadable += 1
            score.wrong_flagged += 1
            score.notes.append(f"{name}: unreadable: {reasons or 'no reading of this sheet'}")
            continue
        readings.remove(best)
        reading, read = best
        got = fields_of(read)
        wrong = [key for key, value in expected.items() if got.get(key) != value]
        score.fields_right += len(expected) - len(wrong)
        code_right = read["lucky"] == truth.get("lucky") and (read["numbers"] or None) == (truth.get("numbers") or
                                                                                          None)
        record["flagged"] = bool(reading.flagged)
        record["fields"] = [[*key, expected.get(key), r.state.name, round(r.evidence, 4), round(r.halfway, 4),
                             r.reason, r.crossed] for key, r in ((_key(r.field), r) for r in reading.readings)]
        record["verdict"] = "right" if not wrong and code_right else "flagged" if reading.flagged else "silent"
        if not wrong and code_right:
            score.right += 1
            score.false_flags += reading.flagged
            continue
        what = ", ".join(_named(key, value) for key, value in ((k, expected[k]) for k in wrong[:8]))
        if not code_right:
            what = f"code {read['lucky'] or read['numbers']} != {truth.get('lucky') or truth.get('numbers')}; {what}"
        if reading.flagged:
            score.wrong_flagged += 1
            score.notes.append(f"{name}: flagged: {what}")
        else:
            score.silent += 1
            score.notes.append(f"{name}: SILENT: {what}")
    return score


def _key(field: Any) -> tuple[Any, ...]:
    """A reader's field as `fields_of` keys it."""
    from printgen.scan.referee import LETTERS

    if field.kind == "number":
        return ("number", field.index, field.number)
    return (field.kind, LETTERS[field.index] if field.kind == "bonus-box" else field.index)


def _named(key: tuple[Any, ...], crossed: bool) -> str:
    return f"{'/'.join(map(str, key))} {'missed' if crossed else 'extra'}"


VERDICTS = ("right", "flagged", "silent", "unreadable")
STATES = ("EMPTY", "CROSSED", "UNCERTAIN")
"""A saved sheet's verdicts and its fields' states; a saved field is its key (2 or 3 parts) and then, counted
from its end: truth -6, state -5, evidence -4, halfway -3, reason -2, best guess -1."""


def summary(records: list[dict[str, Any]]) -> str:
    """One line of a run's sheets by verdict, false flags, uncertain fields and fields wrong in a sure state."""
    verdicts = [r["verdict"] for r in records]
    fields = [f for r in records for f in r["fields"]]
    uncertain = sum(f[-5] == "UNCERTAIN" for f in fields)
    sure_wrong = sum(f[-6] is not None and f[-5] != "UNCERTAIN" and f[-1] != f[-6] for f in fields)
    false_flags = sum(r["verdict"] == "right" and r["flagged"] for r in records)
    return (f"right {verdicts.count('right')}, wrong flagged {verdicts.count('flagged')}, silent "
            f"{verdicts.count('silent')}, unreadable {verdicts.count('unreadable')}, false flags {false_flags}, "
            f"uncertain fields {uncertain}, fields wrong in a sure state {sure_wrong}")


def compare(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    """What changed from the run `before` to the run `after` (both as `--save` writes them): each sheet whose
    verdict or flag changed, then both runs' summaries over the sheets they share."""
    old = {(r["photo"], r["sheet"]): r for r in before}
    shared = [(old[(r["photo"], r["sheet"])], r) for r in after if (r["photo"], r["sheet"]) in old]
    lines = [f"{b['photo']} sheet {b['sheet'] + 1}: {a['verdict']}{' (flagged)' * a['flagged']} -> "
             f"{b['verdict']}{' (flagged)' * b['flagged']}"
             for a, b in shared if (a["verdict"], a["flagged"]) != (b["verdict"], b["flagged"])]
    new = {(r["photo"], r["sheet"]) for r in after}
    if set(old) != new:
        lines.append(f"{sum(key not in new for key in old)} sheets only in the saved run, "
                     f"{sum(key not in old for key in new)} only in this one (left out below)")
    return [*lines, f"before ({len(shared)} sheet{'s' * (len(shared) != 1)}): {summary([a for a, _ in shared])}",
            f"after: {summary([b for _, b in shared])}"]


def saved_run(text: str, photoset: str, seed: int) -> list[dict[str, Any]]:
    """The sheets of a file `--save` wrote, checked field by field, for the set and seed of this run (a
    ValueError saying what is wrong otherwise)."""
    data = json.loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("sheets"), list):
        raise ValueError("not a file that --save wrote")
    if (data.get("set"), data.get("seed")) != (photoset, seed):
        raise ValueError(f"saved from set {data.get('set')} seed {data.get('seed')}, not set {photoset} seed {seed}")
    for sheet in data["sheets"]:
        if not (isinstance(sheet, dict) and isinstance(sheet.get("photo"), str)
                and type(sheet.get("sheet")) is int and sheet.get("verdict") in VERDICTS
                and type(sheet.get("flagged")) is bool and isinstance(sheet.get("fields"), list)
                and all(isinstance(f, list) and len(f) >= 8 and f[-5] in STATES for f in sheet["fields"])):
            raise ValueError(f"a sheet not as --save writes it: {json.dumps(sheet)[:80]}")
    return list(data["sheets"])


def save(path: Path, photoset: str, seed: int, records: list[dict[str, Any]]) -> None:
    """`records` written to `path` whole or not at all (printgen's own `atomic_file`)."""
    from printgen.output import atomic_file

    with atomic_file(path) as temporary, open(temporary, "w", encoding="utf-8") as out:
        json.dump({"set": photoset, "seed": seed, "sheets": records}, out)


def make(job: tuple[str, int, int, str, str]) -> None:
    """Make one photo of the set (in a worker process)."""
    photoset, index, seed, family, folder = job
    module = importlib.import_module(f"benchmarks.photosets.{photoset}")
    module.make(index, seed, family, Path(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="heldout", help="the photo set (a package in benchmarks/photosets/)")
    parser.add_argument("--photos", type=int, default=30, help="photos a family")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--families", default="", help="comma-separated families (default: all of the set)")
    parser.add_argument("--keep", type=Path, default=None, help="make the photos here and keep them (reused)")
    parser.add_argument("--notes", type=int, default=40, help="how many wrong sheets to list")
    parser.add_argument("--save", type=Path, default=None, help="write every sheet's and field's reading here (JSON)")
    parser.add_argument("--against", type=Path, default=None, help="compare with a file --save wrote before")
    args = parser.parse_args()
    before = None
    if args.against:
        try:
            before = saved_run(args.against.read_text(encoding="utf-8"), args.set, args.seed)
        except (OSError, ValueError) as error:
            parser.error(f"--against {args.against}: {error}")
    if args.save and (args.save.exists() and not args.save.is_file() or not args.save.parent.is_dir()):
        parser.error(f"--save {args.save}: " + ("not a plain file" if args.save.exists() else
                                               f"no such folder {args.save.parent}"))
    if args.save and not os.access(args.save.parent, os.W_OK):
        parser.error(f"--save {args.save}: cannot write in {args.save.parent}")

    module = importlib.import_module(f"benchmarks.photosets.{args.set}")
    families = [f for f in args.families.split(",") if f] or list(module.FAMILIES)
    from printgen.scan import require_opencv

    require_opencv()
    from printgen.scan.picture import Refused, open_photo
    from printgen.scan.reader import Reader, Unreadable

    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        jobs = []
        for family in families:
            for i in range(args.photos):
                index = list(module.FAMILIES).index(family) * 100_000 + i
                if not (folder / f"{index:06d}.json").exists():
                    jobs.append((args.set, index, args.seed * 1_000_003 + index, family, str(folder)))
        start = time.perf_counter()
        with Pool(args.workers) as pool:
            for _ in pool.imap_unordered(make, jobs, chunksize=2):
                pass
        print(f"made {len(jobs)} photos in {time.perf_counter() - start:.0f} s ({args.set}, seed {args.seed})")
        reader = Reader()
        totals = Score()
        by_family: dict[str, Score] = defaultdict(Score)
        for family in families:
            for i in range(args.photos):
                index = list(module.FAMILIES).index(family) * 100_000 + i
                truth = json.loads((folder / f"{index:06d}.json").read_text(encoding="utf-8"))
                path = folder / f"{index:06d}.jpg"
                began = time.process_time()
                picture = open_photo(path)
                results = ([Unreadable(path.name, picture.reason)] if isinstance(picture, Refused)
                           else reader.read_image(picture, path.name))
                seconds = time.process_time() - began
                score = judge(f"{path.name} {family} {truth.get('conditions', '')}", truth["sheets"], results,
                              seconds)
                by_family[family].add(score)
        print(HEADER)
        for family in families:
            print(by_family[family].row(family))
            totals.add(by_family[family])
        print(totals.row("**all**"))
        for note in totals.notes[:args.notes]:
            print("  " + note)
        print(summary(totals.records))
        if before is not None:
            print(f"against {args.against}:")
            for line in compare(before, totals.records):
                print("  " + line)
        if args.save:
            from printgen.errors import PrintgenError

            try:
                save(args.save, args.set, args.seed, totals.records)
            except (OSError, PrintgenError) as error:
                sys.exit(f"--save {args.save}: {error}")


if __name__ == "__main__":
    main()
