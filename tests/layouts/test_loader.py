"""Layout files in, frozen objects or one-line problems naming file and key out."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from printgen import layouts
from printgen.errors import LayoutError
from printgen.kinds import ScoreSheetLayout


def test_standard_layout_is_typed_and_frozen(standard: ScoreSheetLayout) -> None:
    assert standard.name == "qwixx-standard"
    assert standard.width == 190 and standard.height == 115
    assert [row.colour for row in standard.rows] == ["red", "yellow", "green", "blue"]
    assert standard.rows[2].numbers[0] == 12 and standard.rows[2].locks_with == (2,)
    assert standard.penalties.count == 4 and standard.penalties.points == -5
    assert standard.colour("red").startswith("#")
    with pytest.raises(dataclasses.FrozenInstanceError):
        standard.title = "x"  # type: ignore[misc]


def test_builtin_names() -> None:
    assert "qwixx-standard" in layouts.builtin_names()


def test_unknown_name_lists_known_names() -> None:
    with pytest.raises(layouts.UnknownLayout, match="known layouts: .*qwixx-standard"):
        layouts.load("no-such-sheet")


def test_a_layout_file_named_without_its_suffix_or_a_built_in_one_with_it_is_suggested(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mine.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for given, suggested in (("./mine", "./mine.toml"), ("mine", "mine.toml"),
                             (f"{tmp_path}/mine", f"{tmp_path}/mine.toml")):
        with pytest.raises(layouts.UnknownLayout, match=re.escape(f"(did you mean {suggested}?)")):
            layouts.load(given)
    with pytest.raises(layouts.UnknownLayout, match=re.escape("no such layout file (did you mean the built-in "
                                                              "qwixx-standard?)")):
        layouts.load("qwixx-standard.toml")


def test_a_file_that_is_no_layout_is_named_for_what_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A photo or a folder given where a layout goes said "unknown layout", or that a 1 MB photo was too long a
    layout."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "demo.jpg").write_bytes(b"\xff\xd8" + bytes(2_000_000))
    (tmp_path / "sheets").mkdir()
    for given, said in (("demo.jpg", "demo.jpg: is not a layout file (layout files are TOML, NAME.toml)"),
                        (str(tmp_path / "demo.jpg"), f"{tmp_path / 'demo.jpg'}: is not a layout file"),
                        ("sheets", "sheets: is a folder, not a layout file")):
        with pytest.raises(layouts.UnknownLayout) as raised:
            layouts.load(given)
        assert str(raised.value).startswith(said)
    (tmp_path / "qwixx-standard").mkdir()  # a built-in name is the built-in layout, whatever lies here
    assert layouts.load("qwixx-standard").name == "qwixx-standard"


@pytest.mark.parametrize("device", ["/dev/zero", "fifo"])
def test_a_device_or_a_pipe_is_never_read_as_toml(tmp_path: Path, device: str) -> None:
    """`printgen batch /dev/zero` read until the machine ran out of memory; a pipe hung it."""
    import os

    from printgen.tomlfile import parse_toml

    path = Path(device)
    if device == "fifo":
        path = tmp_path / "jobs.toml"
        os.mkfifo(path)
    with pytest.raises(LayoutError, match="is not a regular file"):
        parse_toml(path, str(path))


def test_an_accent_typed_apart_from_its_letter_is_joined_to_it(write_layout: Callable[..., Path]) -> None:
    path = write_layout('title = "Qwixx"', 'title = "Qwe\\u0301xx"')
    assert layouts.load(str(path)).title == "Qw\u00e9xx"  # (NFC: one letter, printed in one colour)


def test_a_path_works_like_a_name(write_layout: Callable[..., Path]) -> None:
    path = write_layout('title = "Qwixx"', 'title = "My Qwixx"')
    layout = layouts.load(str(path))
    assert isinstance(layout, ScoreSheetLayout)
    assert layout.title == "My Qwixx" and layout.name == "sheet"


BROKEN = [
    ("numbers = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]\nlocks_with = [2]",
     "numbers = [13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]\nlocks_with = [2]",
     "rows[2].numbers: 13 is not a possible sum (2..12)"),
    ("numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]", "numbers = [2, 3, 3, 5, 6, 7, 8, 9, 10, 11, 12]",
     "rows[0].numbers: 3 printed twice"),
    ("numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]", "numbers = [2, 3, true, 5, 6, 7, 8, 9, 10, 11, 12]",
     "rows[0].numbers[2]: must be an integer, not true"),
    ("locks_with = [12]\n", "", "rows[0].locks_with: is missing"),
    ("locks_with = [12]\n", "locks_with = [11]\n", "rows[0].locks_with: [11] must be the row's rightmost numbers"),
    ('red = "#d82f3f"', 'red = "reddish"', "palette.red: 'reddish' is not a colour"),
    ('colour = "red"', 'colour = "purple"', "rows[0].colour: 'purple' is not in [palette]"),
    ("width = 190", 'width = "wide"', "size.width: must be a number, not a string 'wide'"),
    ("width = 190", "width = 5", "size.width: 5 is out of range 50..500"),
    ("count = 4", "count = 4\ncolour = 1", "penalties.colour: is not a known key"),
    ('rules = "standard"', 'rules = "nope"', "rules: unknown Qwixx variant 'nope'"),
    ('label = "misthrows"', 'label = "Fehlwürfe"',
     ("penalties.label: 'Fehlwürfe' is not a label key: a label is the key of a word in printgen's catalogues "
      "(printgen/labels/en.toml), printed in the language -l asks for; e.g. 'misthrows', 'misplays', 'total'")),
    ("points = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]", "points = [1, 3]",
     "points_table.points: has 2 entries but crosses has 12"),
    ('kind = "score-sheet"', 'kind = "poster"', "kind: 'poster' is not a known kind"),
    ("[totals]\nlabel = \"total\"", "", "totals: is missing"),
    ("[size]", "[size\n", "TOML syntax error"),
    ('title = "Qwixx"', 'title = "Qwixx 🎲"', "title: cannot print U+1F3B2 '🎲': the bundled fonts (Roboto) have no glyph"),
    ('title = "Qwixx"', 'title = "קוויקס"',
     ("title: cannot print U+05E7 'ק', U+05D5 'ו', U+05D9 'י', U+05E1 'ס': the bundled fonts (Roboto) have no glyph "
      "for them")),
    ("locks_with = [12]\n", "locks_with = [11, 12]\n",
     ("points_table.crosses: has 12 entries, but a row of this sheet holds up to 11 crosses (its 11 numbers less the "
      "2 of rows[0].locks_with, one lock number and the lock: is locks_with right?)")),
    ('title = "Qwixx"', 'title = "Qw\\u00ADixx"',
     "title: holds the invisible format character U+00AD (soft hyphen); remove it"),
    ('title = "Qwixx"', 'title = "Q\\u200Fwixx"',
     "title: holds the invisible format character U+200F (right-to-left mark); remove it"),
]


@pytest.mark.parametrize("old, new, message", BROKEN, ids=[m.split(":")[0] for _, _, m in BROKEN])
def test_invalid_layouts_name_file_and_key(
    write_layout: Callable[..., Path], old: str, new: str, message: str
) -> None:
    path = write_layout(old, new)
    with pytest.raises(LayoutError) as caught:
        layouts.load(str(path))
    text = str(caught.value)
    assert message in text
    assert all(line.startswith(f"{path}: ") for line in text.splitlines())


@pytest.mark.parametrize(
    "raw, message",
    [(b"", "file is empty"), (b"\xff\xfe title", "not UTF-8"), (b"x" * 1_000_001, "layouts are at most")],
    ids=["empty", "not-utf8", "too-large"],
)
def test_unreadable_files(write_layout: Callable[..., Path], raw: bytes, message: str) -> None:
    path = write_layout(raw=raw)
    with pytest.raises(LayoutError, match=message):
        layouts.load(str(path))


def test_every_problem_is_reported(write_layout: Callable[..., Path]) -> None:
    path = write_layout("width = 190\nheight = 115", 'width = "a"\nheight = -1')
    with pytest.raises(LayoutError) as caught:
        layouts.load(str(path))
    assert len(caught.value.problems) == 2


def test_unknown_keys_are_shown_safely_and_counted_past_ten(tmp_path: Path) -> None:
    """A key holding a line break or terminal escapes split the message over lines (or wrote escapes to the
    terminal); 80,000 unknown keys printed 80,002 lines."""
    standard = (Path(layouts.resolve("qwixx-standard")[0])).read_text(encoding="utf-8")
    path = tmp_path / "keys.toml"
    path.write_text(standard.replace('kind = "score-sheet"', 'kind = "score-sheet"\n"\\u001b[2Jevil\\r\\nline2" = 1'),
                    encoding="utf-8")
    with pytest.raises(LayoutError) as caught:
        layouts.load(str(path))
    assert caught.value.problems == [f"{path}: '\\x1b[2Jevil\\r\\nline2': is not a known key"]
    many = "".join(f"k{i} = 1\n" for i in range(25))
    path.write_text(standard.replace("[size]", f"{many}[size]"), encoding="utf-8")
    with pytest.raises(LayoutError) as caught:
        layouts.load(str(path))
    assert len(caught.value.problems) == 11
    assert caught.value.problems[-1] == f"{path}: (and 15 more keys): are not known keys either"


def test_a_layout_file_whose_name_holds_a_line_break_is_refused(tmp_path: Path) -> None:
    """Its name named the files built from it: a PDF called "ok", a line break, "name"."""
    standard = Path(layouts.resolve("qwixx-standard")[0]).read_text(encoding="utf-8")
    path = tmp_path / "ok\nname.toml"
    path.write_text(standard, encoding="utf-8")
    with pytest.raises(layouts.UnknownLayout) as caught:
        layouts.load(str(path))
    assert "\n" not in str(caught.value) and "control characters" in str(caught.value)


def test_a_layout_link_that_leads_nowhere_says_so(tmp_path: Path) -> None:
    """A link whose target is missing, or a loop of links, was "no such layout file", though the file is there."""
    (tmp_path / "loop1.toml").symlink_to(tmp_path / "loop2.toml")
    (tmp_path / "loop2.toml").symlink_to(tmp_path / "loop1.toml")
    (tmp_path / "dangling.toml").symlink_to(tmp_path / "gone.toml")
    for name in ("loop1.toml", "dangling.toml"):
        with pytest.raises(layouts.UnknownLayout) as caught:
            layouts.load(str(tmp_path / name))
        assert str(caught.value) == (f"{tmp_path / name}: is a link that leads to no file (its target is missing, or "
                                     "the links go round in a loop)")
    with pytest.raises(layouts.UnknownLayout, match="no such layout file"):
        layouts.load(str(tmp_path / "gone.toml"))
