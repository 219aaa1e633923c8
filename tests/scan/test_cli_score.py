"""`printgen score` through the command line: summaries, the JSON contract, annotated pictures, standings,
unreadable photos in a batch, folders, and a clear line when the scan extra is missing."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main
from tests.conftest import filled_once
from tests.scan.conftest import NEEDS_SCAN, sheet

JSON_KEYS = ["file", "position", "of", "layout", "sheet", "rows", "penalties", "bonus", "points", "total", "legal",
             "problems", "uncertain"]


@pytest.fixture(scope="module")
def made(request: pytest.FixtureRequest) -> tuple[Path, list[object]]:
    """A folder with a Bonus B sheet, a Big Points page of two sheets, and a picture of no sheet at all."""
    pytest.importorskip("cv2", reason=NEEDS_SCAN)
    from tests.scan.simulator.synthetic import sample

    def fill(folder: Path) -> list[object]:
        truths = []
        for name, layout, seed, two_up in (("a-bonus.jpg", "qwixx-bonus-b", 11, False),
                                           ("b-page.jpg", "qwixx-big-points", 12, True)):
            picture = sample([sheet(layout)], seed, two_up=two_up, widest=2400)
            (folder / name).write_bytes(picture.jpeg)
            truths += picture.truths
        (folder / "c-nothing.png").write_bytes((Path(__file__).parent / "__init__.py").read_bytes()
                                               or b"not a picture")
        return truths

    return filled_once(request, "photos-cli", fill)


@pytest.fixture(scope="module")
def read_once(made: tuple[Path, list[object]]) -> object:
    """A reader that has read each photo of `made` once, in this process: these tests score the photos a dozen
    times to test the command's output, and each command gets a copy of that first, real, reading (its photo
    workers too, forked after it)."""
    from printgen.scan.score import photos, score
    from tests.scan.read_once import ReadOnce

    reader = ReadOnce()
    for _path, _image, _results in score(photos([made[0]]), reader):
        pass
    return reader


@pytest.fixture
def photos(made: tuple[Path, list[object]], read_once: object,
           monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[object]]:
    """`made`, with `printgen score` reading through `read_once`."""
    from printgen.scan import score

    def reader_for(layout_files: tuple[str, ...]) -> object:
        assert layout_files == (), "read_once knows the built-in layouts only"
        return read_once

    monkeypatch.setattr(score, "reader_for", reader_for)
    return made


def test_json_objects_have_exactly_the_contract_keys(photos: tuple[Path, list[object]]) -> None:
    folder, truths = photos
    result = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), str(folder / "b-page.jpg"), "--json"])
    assert result.exit_code == 0, result.output
    objects = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(objects) == 3
    for found in objects:
        assert list(found) == JSON_KEYS
        assert len(found["rows"]) == 4 and all(set(row) == {"crossed", "lock"} for row in found["rows"])
        if found["layout"] == "qwixx-big-points":  # no bonus: the total is the totals line added up
            assert found["total"] == sum(found["points"][:-1]) - found["points"][-1]
    bonus, *page = objects
    assert [(o["position"], o["of"]) for o in objects] == [(1, 1), (1, 2), (2, 2)]  # which sheet of its photo
    assert bonus["layout"] == "qwixx-bonus-b" and set(bonus["bonus"]["boxes"]) == set("ABCDE")
    assert all(p["layout"] == "qwixx-big-points" and len(p["sheet"]["lucky"]) == 2 for p in page)
    first = truths[0]
    assert [row["crossed"] for row in bonus["rows"]] == [list(r) for r in first.rows]  # type: ignore[attr-defined]
    assert bonus["penalties"] == first.penalties  # type: ignore[attr-defined]


def test_a_folder_is_scored_and_ranked_and_an_unreadable_file_does_not_stop_it(
        photos: tuple[Path, list[object]], tmp_path: Path) -> None:
    folder, _ = photos
    standings = tmp_path / "standings.csv"
    result = CliRunner().invoke(main, ["score", str(folder), "--csv", str(standings)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert sum("unreadable" in line for line in lines) == 1
    assert any(line.startswith(str(folder / "c-nothing.png")) and "unreadable" in line for line in lines)
    assert "Error: 1 of 4 sheets, photos or pages could not be read (said above)" in result.output
    rows = list(csv.DictReader(standings.open()))  # a player a row, named by the file: a page's sheets are rounds
    assert [(r["player"], r["rounds"]) for r in rows] == [(r["player"], "2" if r["player"] == "b-page" else "1")
                                                         for r in rows]
    assert {r["player"] for r in rows} == {"a-bonus", "b-page", "c-nothing"}
    assert rows[-1]["player"] == "c-nothing" and rows[-1]["rank"] == ""
    assert rows[-1]["problems"].startswith("round 1: unreadable: not a picture this reader opens")
    page = next(r for r in rows if r["player"] == "b-page")
    assert int(page["total"]) == int(page["round 1"]) + int(page["round 2"])
    totals = [int(r["total"]) for r in rows if r["rank"]]
    assert totals == sorted(totals, reverse=True) and len(totals) == 2


def test_annotated_pictures_are_written(photos: tuple[Path, list[object]], tmp_path: Path) -> None:
    folder, _ = photos
    one = tmp_path / "read.png"
    result = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--annotate", str(one)])
    assert result.exit_code == 0, result.output
    assert one.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    both = tmp_path / "many.png"
    CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), str(folder / "b-page.jpg"),
                              "--annotate", str(both)])
    assert (tmp_path / "many-a-bonus.png").exists() and (tmp_path / "many-b-page.png").exists()
    assert not list(tmp_path.glob(".*.part"))


def test_the_summary_names_rows_points_and_total(photos: tuple[Path, list[object]]) -> None:
    folder, _ = photos
    result = CliRunner().invoke(main, ["score", str(folder / "b-page.jpg")])
    assert result.exit_code == 0, result.output
    assert result.output.count("qwixx-big-points (lucky numbers") == 2
    assert "[sheet 1 of 2]" in result.output and "[sheet 2 of 2]" in result.output
    assert result.output.count("  row 1 red") == 2


def test_hidden_files_in_a_folder_are_no_photos(photos: tuple[Path, list[object]], tmp_path: Path) -> None:
    folder, _ = photos
    (tmp_path / "anna-1.jpg").write_bytes((folder / "a-bonus.jpg").read_bytes())
    (tmp_path / "._anna-1.jpg").write_bytes(b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X")  # a Mac's metadata
    result = CliRunner().invoke(main, ["score", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "._anna" not in result.output and result.output.count("qwixx-bonus-b") == 1


def test_a_copy_and_a_retake_of_a_round_count_once_and_say_so(photos: tuple[Path, list[object]],
                                                               tmp_path: Path) -> None:
    """A phone's copy `anna-1 (1).jpg` of anna-1.jpg (it sorts first) is left out for the original, and the same
    sheet saved again as anna-1.png is one round: Anna's total is the sheet's once."""
    from PIL import Image

    folder, _ = photos
    original = (folder / "a-bonus.jpg").read_bytes()
    (tmp_path / "anna-1 (1).jpg").write_bytes(original)
    (tmp_path / "anna-1.jpg").write_bytes(original)
    Image.open(folder / "a-bonus.jpg").save(tmp_path / "anna-1.png")
    result = CliRunner().invoke(main, ["score", str(tmp_path), "--csv", "-"])
    assert result.exit_code == 0, result.output
    assert (f"{tmp_path}/anna-1 (1).jpg: the same photo as {tmp_path}/anna-1.jpg, read once (as anna-1.jpg)"
            in result.stderr)
    assert (f"{tmp_path}/anna-1.png: the same sheet as {tmp_path}/anna-1.jpg (anna's round 1), counted once"
            in result.stderr)
    (row,) = csv.DictReader(io.StringIO(result.stdout))
    assert (row["player"], row["rounds"], row["files"]) == ("anna", "1", f"{tmp_path}/anna-1.jpg")


def test_player_applies_to_the_standings_and_says_when_the_names_name_others(photos: tuple[Path, list[object]],
                                                                          tmp_path: Path) -> None:
    folder, _ = photos
    alone = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--player", "Anna"])
    refusal = "Error: --player: names the player of the standings --csv writes; give --csv too\n"
    assert (alone.exit_code, alone.output) == (2, refusal)
    (tmp_path / "bob-1.jpg").write_bytes((folder / "a-bonus.jpg").read_bytes())
    (tmp_path / "carla-1.jpg").write_bytes((folder / "b-page.jpg").read_bytes())
    result = CliRunner().invoke(main, ["score", str(tmp_path), "--player", "Anna", "--csv", "-"])
    assert result.exit_code == 0, result.output
    assert ("--player Anna: the photos' names name 2 players (bob, carla); every sheet counts as Anna's"
            in result.stderr)
    (row,) = csv.DictReader(io.StringIO(result.stdout))
    assert (row["player"], row["rounds"]) == ("Anna", "3")


def test_csv_dash_writes_the_standings_to_standard_output(photos: tuple[Path, list[object]], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _ = photos
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["score", str(folder / "b-page.jpg"), str(folder / "a-bonus.jpg"),
                                       "--csv", "-"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))  # nothing but the standings there
    assert {r["player"] for r in rows} == {"b-page", "a-bonus"}
    assert "qwixx-bonus-b: total" in result.stderr and "wrote" not in result.output
    assert not (tmp_path / "-").exists()
    both = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--csv", "-", "--json"])
    assert both.exit_code == 2 and both.output.startswith("Error: --csv: - writes the standings to standard output")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    pytest.importorskip("cv2", reason=NEEDS_SCAN)  # without it, score says how to get it first (tested below)
    missing = CliRunner().invoke(main, ["score", str(tmp_path / "nope.jpg")])
    assert missing.exit_code == 2 and missing.output == f"Error: {tmp_path / 'nope.jpg'}: no such file or folder\n"
    empty = CliRunner().invoke(main, ["score", str(tmp_path)])
    assert empty.exit_code == 2 and "no photos in this folder" in empty.output
    assert "Traceback" not in missing.output + empty.output
    photo = tmp_path / "x.jpg"
    photo.write_bytes(b"")
    for args, line in ((["score", ""], "an empty name names no file or folder"),  # (the current folder's, else)
                       (["score", str(photo), "--annotate", ""], "--annotate: an empty name names no file or folder"),
                       (["score", str(photo), "--csv", ""], "--csv: an empty name names no file or folder"),
                       (["score", "--demo", ""], "--demo: an empty name names no file or folder"),
                       (["score", str(photo), "--layout", ""], ("--layout: an empty layout name: give a built-in "
                        "layout's name (printgen list shows them) or a layout file, NAME.toml")),
                       (["score", str(photo), "--csv", "/dev/null"], ("--csv: /dev/null: is a device; printgen replaces "
                        "only regular files, so it was left untouched")),
                       (["score", str(photo), "--csv", str(tmp_path / "s.csv"), "--player", "Zo\u00eb\n2"],
                        "--player: 'Zo\u00eb\\n2' holds a control character")):
        result = CliRunner().invoke(main, args)
        assert (result.exit_code, result.output) == (2, f"Error: {line}\n"), args


def test_without_the_scan_extra_score_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    photo = tmp_path / "x.jpg"
    photo.write_bytes(b"")
    monkeypatch.setitem(sys.modules, "cv2", None)  # import cv2 now fails as if it were not installed
    result = CliRunner().invoke(main, ["score", str(photo)])
    assert result.exit_code == 1
    assert result.output.strip() == ("Error: printgen score needs the scan extra: pip install '.[scan]' in printgen's "
                                     "folder (its clone)")


def test_the_core_never_imports_opencv(tmp_path: Path) -> None:
    import subprocess

    code = ("import sys; from pathlib import Path; import printgen.cli; from printgen.build import options_for, "
            f"build; build('qwixx-big-points', options_for('qwixx-big-points', out=Path(r'{tmp_path}'), sheets=4, formats=('pdf', 'svg'))); "
            "assert 'cv2' not in sys.modules and 'numpy' not in sys.modules, 'OpenCV imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_an_annotation_target_that_is_no_regular_file_is_refused_before_reading(
        photos: tuple[Path, list[object]], tmp_path: Path) -> None:
    folder, _ = photos
    (tmp_path / "taken").mkdir()
    os.mkfifo(tmp_path / "pipe.png")
    result = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--annotate", str(tmp_path / "pipe.png")])
    assert result.exit_code == 2 and "pipe.png: is a" in result.output
    assert "qwixx-bonus-b" not in result.output  # nothing was read first
    result = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--csv", str(tmp_path / "taken")])
    assert result.exit_code == 2


def test_the_annotation_format_follows_its_name(photos: tuple[Path, list[object]], tmp_path: Path) -> None:
    folder, _ = photos
    jpeg = tmp_path / "read.jpg"
    result = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--annotate", str(jpeg)])
    assert result.exit_code == 0 and jpeg.read_bytes()[:3] == b"\xff\xd8\xff"
    refused = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--annotate", str(tmp_path / "r.bmp")])
    assert refused.exit_code == 2 and "--annotate" in refused.output and not (tmp_path / "r.bmp").exists()
    nowhere = CliRunner().invoke(main, ["score", str(folder / "a-bonus.jpg"), "--csv", str(jpeg / "s.csv")])
    assert (nowhere.exit_code, nowhere.output) == (2, f"Error: --csv: {jpeg} is a file, not a folder to hold s.csv\n")


def test_one_photo_under_two_names_is_read_once_and_said(photos: tuple[Path, list[object]], tmp_path: Path) -> None:
    folder, _ = photos
    (tmp_path / "IMG_1.jpg").write_bytes((folder / "a-bonus.jpg").read_bytes())
    (tmp_path / "IMG_1 (1).jpg").write_bytes((folder / "a-bonus.jpg").read_bytes())  # a phone's export, twice
    (tmp_path / "link.jpg").symlink_to(folder / "a-bonus.jpg")
    result = CliRunner().invoke(main, ["score", str(tmp_path / "link.jpg"), str(tmp_path / "IMG_1.jpg"),
                                       str(tmp_path / "IMG_1 (1).jpg"), str(folder / "a-bonus.jpg"), "--csv", "-"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[:3] == [
        f"{tmp_path / 'IMG_1.jpg'}: the same photo as {tmp_path / 'link.jpg'}, read once (as link.jpg)",
        f"{tmp_path / 'IMG_1 (1).jpg'}: the same photo as {tmp_path / 'link.jpg'}, read once (as link.jpg)",
        f"{folder / 'a-bonus.jpg'}: the same photo as {tmp_path / 'link.jpg'}, read once (as link.jpg)"]
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["player"], r["rounds"]) for r in rows] == [("link", "1")]


def test_a_photo_of_several_sheets_says_whose_rounds_they_became(photos: tuple[Path, list[object]]) -> None:
    folder, _ = photos
    result = CliRunner().invoke(main, ["score", str(folder / "b-page.jpg")])
    assert result.exit_code == 0, result.output
    assert (f"{folder / 'b-page.jpg'}: 2 sheets, all counted as b-page's rounds (another player's sheet in it: "
            "photograph it apart, or give it to them in printgen serve)") in result.stderr
    named = CliRunner().invoke(main, ["score", str(folder / "b-page.jpg"), "--player", "Anna", "--csv", "-"])
    assert named.exit_code == 0, named.output
    assert "all counted as" not in named.stderr  # --player said whose they are
    (row,) = csv.DictReader(io.StringIO(named.stdout))
    page = folder / "b-page.jpg"  # (each round's sheet told apart)
    assert (row["player"], row["rounds"], row["files"]) == ("Anna", "2", f"{page} [sheet 1 of 2]; {page} [sheet 2 of 2]")


def test_a_sheet_with_nothing_crossed_is_no_round(photos: tuple[Path, list[object]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from printgen.scan import standings
    from printgen.scan.ink import State
    from printgen.scan.reader import SheetReading

    folder, _ = photos
    real = standings.unplayed
    blank: list[bool] = []

    def second_blank(result: object) -> bool:  # the page's second sheet as if nothing were crossed on it
        if isinstance(result, SheetReading) and result.position == 2:
            result = replace(result, readings=[replace(r, state=State.EMPTY, reason="", settled=None)
                                               for r in result.readings])
        blank.append(real(result))  # type: ignore[arg-type]
        return blank[-1]

    monkeypatch.setattr(standings, "unplayed", second_blank)
    result = CliRunner().invoke(main, ["score", str(folder / "b-page.jpg"), "--csv", "-"])
    assert result.exit_code == 0, result.output
    assert blank == [False, True]
    assert f"{folder / 'b-page.jpg'} [sheet 2 of 2]: nothing crossed on it: not counted as a round" in result.stderr
    (row,) = csv.DictReader(io.StringIO(result.stdout))
    assert row["rounds"] == "1" and "all counted as" not in result.stderr


def test_pages_of_a_pdf_left_unread_are_counted_among_all_it_read(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A pad's PDF past the pages read: the closing line counts the part left unread against every sheet read,
    blank ones too (it said "1 of 1" after reading 40 blank sheets of a 25-page pad)."""
    pytest.importorskip("cv2", reason=NEEDS_SCAN)
    from printgen.scan import documents

    monkeypatch.setattr(documents, "MAX_PAGES", 1)
    built = CliRunner().invoke(main, ["build", "qwixx-standard", "-n", "4", "-f", "pdf", "--no-index",
                                      "-o", str(tmp_path / "pad.pdf")])
    assert built.exit_code == 0, built.output
    result = CliRunner().invoke(main, ["score", str(tmp_path / "pad.pdf")])
    assert result.exit_code == 1
    assert result.output.count("nothing crossed on it") == 2  # the first page's two sheets, blank
    assert result.output.splitlines()[-1] == "Error: 1 of 3 sheets, photos or pages could not be read (said above)"
