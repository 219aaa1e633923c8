"""Building a layout: checked against the rules, written atomically, read back as PDF and SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from pypdf import PdfReader

from printgen.build import build, options_for
from printgen.errors import CheckFailed, UsageProblem
from printgen.kinds import SheetOptions
from tests.pdfcheck import fonts, page_texts


def test_pad_pdf_has_the_numbers_table_and_fonts(tmp_path: Path) -> None:
    options = SheetOptions(out=tmp_path, sheets=7, per_page=2)
    (pdf,) = build("qwixx-standard", options)
    assert pdf == tmp_path / "qwixx-standard-7sheets.pdf"
    assert len(PdfReader(pdf).pages) == 4
    texts = page_texts(pdf)
    assert all(text.count("2 3 4 5 6 7 8 9 10 11 12") == 2 * 2 for text in texts[:3])
    assert texts[3].count("12 11 10 9 8 7 6 5 4 3 2") == 2
    assert "1 3 6 10 15 21 28 36 45 55 66 78" in texts[0]
    assert "Misthrows" in texts[0] and "Total" in texts[0]
    used = fonts(pdf)
    assert used and all(used.values()), used
    assert all("Roboto" in name for name in used)


def test_static_sheet_is_drawn_once(tmp_path: Path) -> None:
    small = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path / "a", sheets=2, per_page=2))[0]
    large = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path / "b", sheets=200, per_page=2))[0]
    per_page = (large.stat().st_size - small.stat().st_size) / 99
    assert per_page < 1000, f"each extra page costs {per_page:.0f} bytes: the sheet is redrawn"


@pytest.mark.parametrize("per_page, paper, landscape", [(2, "a4", False), (2, "letter", False), (4, "a3", True)])
def test_page_orientation_follows_per_page(tmp_path: Path, per_page: int, paper: str, landscape: bool) -> None:
    pdf = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, sheets=per_page, per_page=per_page, paper=paper))[0]
    box = PdfReader(pdf).pages[0].mediabox
    assert (box.width > box.height) == landscape


def test_svg_of_identical_sheets_is_one_file(tmp_path: Path) -> None:
    (svg,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, sheets=3, formats=("svg",)))
    assert svg == tmp_path / "qwixx-standard.svg"
    root = ET.parse(svg).getroot()
    assert root.get("width") == "190mm" and root.get("viewBox") == "0 0 190 115"
    assert not list(root.iter("{http://www.w3.org/2000/svg}text"))  # text as outlines, kept in titles
    titles = [el.text for el in root.iter("{http://www.w3.org/2000/svg}title")]
    assert titles.count("12") == 4 and "Misthrows" in titles
    assert len(list(root.iter("{http://www.w3.org/2000/svg}symbol"))) >= 5


def test_svg_text_font_keeps_editable_text(tmp_path: Path) -> None:
    (svg,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, formats=("svg",), svg_text="font"))
    root = ET.parse(svg).getroot()
    texts = [el.text for el in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count("12") == 4 and "Misthrows" in texts
    assert all(el.get("font-family", "").startswith("Roboto") for el in root.iter("{http://www.w3.org/2000/svg}text"))
    with pytest.raises(UsageProblem, match="--svg-text: 'path'"):
        build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, formats=("svg",), svg_text="path"))


def test_build_refuses_a_layout_that_fails_the_check(write_layout: Callable[..., Path], tmp_path: Path) -> None:
    path = write_layout("points = [1, 3, 6, 10,", "points = [1, 3, 6, 11,")
    with pytest.raises(CheckFailed, match=r"points_table.points\[3\]"):
        build(str(path), options_for(str(path), out=tmp_path / "out"))
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_failed_build_keeps_the_earlier_file_and_leaves_no_partial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (pdf,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path))
    before = pdf.read_bytes()

    def broken(*args: object, **kwargs: object) -> None:
        Path(str(args[1])).write_bytes(b"%PDF-partial")
        raise OSError("disk full")

    monkeypatch.setattr("printgen.render.pdfstream.write_streamed_pdf", broken)
    with pytest.raises(OSError):
        build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, sheets=10))
    assert pdf.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["qwixx-standard.pdf"]


@pytest.mark.parametrize(
    "options, message",
    [
        (SheetOptions(sheets=0), "--sheets"),
        (SheetOptions(sheets=10**6), "--sheets"),
        (SheetOptions(per_page=3), "--per-page"),
        (SheetOptions(paper="b5"), "--paper: 'b5' is not one of"),
        (SheetOptions(formats=("png",)), "--format"),
    ],
)
def test_bad_options_are_usage_problems(options: SheetOptions, message: str) -> None:
    with pytest.raises(UsageProblem, match=message):
        build("qwixx-standard", options)


def test_out_naming_a_file_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(UsageProblem, match="--out: .* is a file"):
        build("qwixx-standard", options_for("qwixx-standard", out=target))


def test_output_is_a_name_in_the_out_folder_whatever_the_current_folder_holds(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from printgen.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "club").mkdir()  # a folder of that name here: not where -o writes with --out
    (tmp_path / "prints" / "sub").mkdir(parents=True)
    result = CliRunner().invoke(main, ["build", "qwixx-standard", "--out", "prints", "-o", "club", "-q"])
    assert result.exit_code == 0 and (tmp_path / "prints" / "club.pdf").is_file(), result.output
    for args in (["--out", "prints", "-o", "sub"], ["-o", "club"]):  # a folder where it would be written
        result = CliRunner().invoke(main, ["build", "qwixx-standard", *args])
        assert result.exit_code == 2 and result.output.startswith(f"Error: --output: '{args[-1]}' is a folder;")


ALL_LAYOUTS = ["qwixx-standard", "qwixx-big-points", "qwixx-gemixxt-a", "qwixx-gemixxt-b", "qwixx-bonus-a",
               "qwixx-bonus-b", "qwixx-cards"]


@pytest.mark.parametrize("lang", ["en", "it", "de", "pl", "fr"])
@pytest.mark.parametrize("name", ALL_LAYOUTS)
def test_every_layout_builds_in_every_language(tmp_path: Path, name: str, lang: str) -> None:
    written = build(name, options_for(name, out=tmp_path, sheets=2, lang=lang, formats=("pdf", "svg"), symbols=True))
    pdf = written[0]
    used = fonts(pdf)
    assert used and all(used.values())
    svgs = [written[1]] if written[1].is_file() else sorted(written[1].glob("*.svg"))
    assert svgs
    for svg in svgs:
        ET.parse(svg)


@pytest.mark.parametrize("name, extra", [("qwixx-big-points", {}), ("qwixx-gemixxt-b", {"shuffle": True})])
def test_variable_sheets_still_draw_the_static_sheet_once(tmp_path: Path, name: str, extra: dict[str, bool]) -> None:
    small = build(name, options_for(name, out=tmp_path / "a", sheets=2, **extra))[0]  # type: ignore[arg-type]
    large = build(name, options_for(name, out=tmp_path / "b", sheets=202, **extra))[0]  # type: ignore[arg-type]
    per_sheet = (large.stat().st_size - small.stat().st_size) / 200
    limit = 1500 if "shuffle" in extra else 700
    assert per_sheet < limit, f"each extra sheet costs {per_sheet:.0f} bytes"


def _card_numbers(path: Path, page: int, grid_boxes: list[tuple[float, float, float, float]],
                  page_h: float) -> list[set[str]]:
    import re

    import pypdfium2 as pdfium

    from printgen.page import PT_PER_MM

    pdf = pdfium.PdfDocument(str(path))
    text = pdf[page].get_textpage()
    found = []
    for x0, y0, x1, y1 in grid_boxes:
        words = text.get_text_bounded(left=x0 * PT_PER_MM, right=x1 * PT_PER_MM,
                                      top=(page_h - y0) * PT_PER_MM, bottom=(page_h - y1) * PT_PER_MM)
        found.append(set(re.findall(r"\d+", words)))
    pdf.close()
    return found


@pytest.mark.parametrize("paper, duplex", [("a4", "long"), ("letter", "long"), ("a4", "short")])
def test_every_back_lands_behind_its_front(tmp_path: Path, paper: str, duplex: str) -> None:
    from printgen.printing.card_grid import mirror_axis, plan_cards
    from printgen.printing.paper import paper_size

    (pdf,) = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, paper=paper, duplex=duplex))
    grid = plan_cards(paper_size(paper), (63.5, 88.9), 3.0, None, paper)
    axis = mirror_axis(duplex, grid)
    pages = len(PdfReader(pdf).pages)
    assert pages == 2 * 7  # 55 cards, 8 a page: 7 front pages, each followed by its backs
    for front_page in range(0, pages, 2):
        fronts = [grid.trim(i) for i in range(grid.per_page)]
        behind = []
        for x0, y0, x1, y1 in fronts:
            if axis == "x":
                behind.append((grid.page_w - x1, y0, grid.page_w - x0, y1))
            else:
                behind.append((x0, grid.page_h - y1, x1, grid.page_h - y0))
        front_numbers = _card_numbers(pdf, front_page, fronts, grid.page_h)
        back_numbers = _card_numbers(pdf, front_page + 1, behind, grid.page_h)
        assert any(front_numbers), f"no card number read on page {front_page + 1}"  # (jokers have none)
        for f, b in zip(front_numbers, back_numbers):
            assert len(f) <= 1 and f == b


def test_print_shop_file_has_trim_and_bleed_boxes(tmp_path: Path) -> None:
    (pdf,) = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, per_page=1, cmyk=True))
    reader = PdfReader(pdf)
    assert len(reader.pages) == 110
    page = reader.pages[0]
    pt = 72 / 25.4
    assert float(page.trimbox.width) == pytest.approx(63.5 * pt, abs=0.01)
    assert float(page.bleedbox.width) == pytest.approx(69.5 * pt, abs=0.01)
    assert float(page.mediabox.width) > float(page.bleedbox.width)
    assert all(fonts(pdf).values())


def test_cmyk_writes_no_rgb_colour(tmp_path: Path) -> None:
    import re

    (pdf,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, cmyk=True))
    reader = PdfReader(pdf)
    streams = [reader.pages[0].get_contents().get_data()]
    for xobject in reader.pages[0]["/Resources"]["/XObject"].values():
        streams.append(xobject.get_object().get_data())
    content = b"\n".join(streams).decode("latin-1")
    assert re.search(r"\bk\b", content) and not re.search(r"\brg\b|\bRG\b", content)


def test_duplex_off_with_a_backs_file_and_alignment_page(tmp_path: Path) -> None:
    written = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, duplex="off", backs_file=True,
                                                     alignment_page=True))
    assert [p.name for p in written] == ["qwixx-cards-deck-fronts-alignment.pdf",
                                         "qwixx-cards-deck-backs-alignment.pdf"]
    assert len(PdfReader(written[0]).pages) == 8 and len(PdfReader(written[1]).pages) == 8
    assert "alignment" in page_texts(written[0])[0]


def test_deck_svgs_are_named_for_people(tmp_path: Path) -> None:
    (folder,) = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, formats=("svg",)))
    names = {p.name for p in folder.iterdir()}
    assert {"red-07-front.svg", "red-07-back.svg", "joker-12-front.svg"} <= names
    assert len(names) == 110
    root = ET.parse(folder / "blue-10-front.svg").getroot()
    assert root.get("width") == "69.5mm"


def test_one_to_9_deck_builds_with_its_common_back(tmp_path: Path) -> None:
    pdf, folder = build("one-to-9-deck", options_for("one-to-9-deck", out=tmp_path, formats=("pdf", "svg")))
    assert len(PdfReader(pdf).pages) == 2 * 13  # 98 cards, 8 an A4 page (each with its own bleed)
    names = {p.name for p in folder.iterdir()}
    assert {"red-5-front.svg", "number-joker-5-front.svg", "joker-front.svg", "draw3-front.svg"} <= names
    assert "back.svg" in names and not any(n.endswith("-back.svg") for n in names)  # one common back


def test_board_whole_on_the_smallest_paper_and_tiled(tmp_path: Path) -> None:
    (whole,) = build("one-to-9-board", options_for("one-to-9-board", out=tmp_path / "whole"))
    box = PdfReader(whole).pages[0].mediabox
    assert round(float(box.width) * 25.4 / 72) == 841  # A1 landscape
    (mini,) = build("one-to-9-board", options_for("one-to-9-board", out=tmp_path / "mini", card_size="mini"))
    assert round(float(PdfReader(mini).pages[0].mediabox.width) * 25.4 / 72) == 594  # A2 landscape
    for paper in ("a4", "letter"):
        (tiled,) = build("one-to-9-board", options_for("one-to-9-board", out=tmp_path / paper, tile=True, paper=paper))
        assert len(PdfReader(tiled).pages) > 4
    assert "run of 4 in one colour" in page_texts(whole)[0]


def test_board_refuses_a_paper_it_does_not_fit(tmp_path: Path) -> None:
    with pytest.raises(UsageProblem, match="the smallest paper that fits is a1"):
        build("one-to-9-board", options_for("one-to-9-board", out=tmp_path, paper="a3"))


def test_star_tokens(tmp_path: Path) -> None:
    pdf, folder = build("one-to-9-stars", options_for("one-to-9-stars", out=tmp_path, formats=("pdf", "svg")))
    assert len(PdfReader(pdf).pages) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["big-star.svg", "small-star.svg"]


def test_icc_converts_through_that_profile_and_implies_cmyk(tmp_path: Path) -> None:
    from printgen.colour_management import bundled_profile

    mine = tmp_path / "shop.icc"
    mine.write_bytes(bundled_profile().read_bytes())
    for name in ("qwixx-standard", "qwixx-cards-deck"):  # the streamed and the reportlab writer
        (pdf,) = build(name, options_for(name, out=tmp_path / "out", icc=mine))
        (intent,) = PdfReader(pdf).trailer["/Root"]["/OutputIntents"]
        assert intent.get_object()["/OutputConditionIdentifier"] == "Custom"
    (tmp_path / "screen.icc").write_bytes(b"not a profile at all")
    with pytest.raises(UsageProblem, match=r"^--icc: .*screen.icc: not an ICC profile$"):
        build("qwixx-standard", options_for("qwixx-standard", out=tmp_path / "out", icc=tmp_path / "screen.icc"))


@pytest.mark.parametrize(("name", "what"), [("qwixx-standard", "score sheets"), ("qwixx-cards-deck", "decks"),
                                            ("one-to-9-stars", "token sheets")])
def test_a_plotters_paper_is_the_boards_alone(tmp_path: Path, name: str, what: str) -> None:
    """A 50-sheet pad on A0 put four sheets in the middle of each page; tokens floated in one band of it."""
    from click.testing import CliRunner

    from printgen.cli import main

    result = CliRunner().invoke(main, ["build", name, "-p", "a1", "--out", str(tmp_path)])
    assert (result.exit_code, result.output) == (2, (f"Error: --paper: a1 is for the board; {what} print on a4, "
                                                    "letter, a3, a5, legal or tabloid\n"))
    assert list(tmp_path.iterdir()) == []
