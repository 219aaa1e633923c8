"""The families benchmark's saved runs compared: records of two runs in, what changed between them out."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.families import compare, save, saved_run, summary


def record(photo: str, verdict: str, flagged: bool, *fields: list[Any]) -> dict[str, Any]:
    """One sheet as `--save` writes it."""
    return {"photo": photo, "family": "mild", "sheet": 0, "verdict": verdict, "flagged": flagged,
            "fields": list(fields)}


CROSSED_RIGHT = ["number", 0, 2, True, "CROSSED", 3.0, 1.0, "", True]
DOUBT_RIGHT = ["number", 0, 3, False, "UNCERTAIN", 0.8, 1.0, "too much ink", False]
SURE_MISS = ["lock", 0, True, "EMPTY", 0.1, 1.0, "", False]


def test_a_summary_counts_sheets_by_verdict_and_fields_by_how_they_were_read() -> None:
    records = [record("a.jpg", "right", True, CROSSED_RIGHT, DOUBT_RIGHT),
               record("b.jpg", "silent", False, CROSSED_RIGHT, SURE_MISS),
               record("c.jpg", "unreadable", True)]
    assert summary(records) == ("right 1, wrong flagged 0, silent 1, unreadable 1, false flags 1, "
                                "uncertain fields 1, fields wrong in a sure state 1")


def test_a_comparison_lists_each_sheet_whose_verdict_or_flag_changed_and_both_summaries() -> None:
    before = [record("a.jpg", "right", True, DOUBT_RIGHT), record("b.jpg", "right", False, CROSSED_RIGHT),
              record("c.jpg", "flagged", True, SURE_MISS)]
    after = [record("a.jpg", "right", False, CROSSED_RIGHT), record("b.jpg", "silent", False, SURE_MISS),
             record("c.jpg", "flagged", True, SURE_MISS), record("d.jpg", "right", False)]
    lines = compare(before, after)
    assert lines[:2] == ["a.jpg sheet 1: right (flagged) -> right", "b.jpg sheet 1: right -> silent"]
    assert lines[2] == "0 sheets only in the saved run, 1 only in this one (left out below)"  # d.jpg
    assert lines[3].startswith("before (3 sheets): right 2, wrong flagged 1, silent 0")
    assert lines[4].startswith("after: right 1, wrong flagged 1, silent 1")
    assert lines[4].endswith("fields wrong in a sure state 2")
    assert len(compare(before, before)) == 2  # the same sheets: nothing changed, nothing left out


def test_a_saved_run_reads_back_and_is_checked_against_this_runs_set_and_seed(tmp_path: Path) -> None:
    records = [record("a.jpg", "right", True, CROSSED_RIGHT, DOUBT_RIGHT, SURE_MISS)]
    path = tmp_path / "run.json"
    save(path, "heldout", 1, records)
    assert saved_run(path.read_text(encoding="utf-8"), "heldout", 1) == records
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # no temporary file left beside it
    with pytest.raises(ValueError, match="saved from set heldout seed 1, not set fresh seed 2"):
        saved_run(path.read_text(encoding="utf-8"), "fresh", 2)
    for broken in ({"fields": 5}, {"photo": ["x"]}, {"sheet": "0"}, {"flagged": "no"}, {"verdict": "fine"},
                   {"fields": [["number", 0, True]]}):
        text = json.dumps({"set": "heldout", "seed": 1, "sheets": [{**records[0], **broken}]})
        with pytest.raises(ValueError, match="a sheet not as --save writes it"):
            saved_run(text, "heldout", 1)


def test_a_save_that_fails_leaves_nothing(tmp_path: Path) -> None:
    with pytest.raises(TypeError):  # (a record JSON cannot write, as a failure midway)
        save(tmp_path / "run.json", "heldout", 1, [{"photo": object()}])
    assert list(tmp_path.iterdir()) == []


def test_a_bad_save_or_against_file_is_one_line_before_any_photo_is_read(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.json"
    foreign.write_text('[{"photo": 1}]', encoding="utf-8")
    script = Path(__file__).parents[2] / "benchmarks" / "families.py"
    for option, value, says in (("--save", tmp_path, "not a plain file"),
                                ("--save", tmp_path / "missing" / "x.json", "no such folder"),
                                ("--against", foreign, "not a file that --save wrote"),
                                ("--against", tmp_path / "missing.json", "No such file")):
        done = subprocess.run([sys.executable, str(script), option, str(value)], capture_output=True, text=True, check=False,
                              timeout=60)
        assert done.returncode == 2 and done.stdout == "", (option, value, done.stdout, done.stderr)
        assert done.stderr.splitlines()[-1].startswith(f"families.py: error: {option} {value}: ")
        assert says in done.stderr
