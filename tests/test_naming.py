"""What a build's files say they are: a PDF its pad and paper, an SVG only what it holds itself."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from printgen.cli import main


def descs(folder: Path) -> set[str]:
    """Every SVG <desc> in `folder` (and its SVG folders)."""
    return {m for svg in folder.rglob("*.svg") for m in re.findall(r"<desc>([^<]*)</desc>", svg.read_text())}


def subject(pdf: Path) -> str:
    from pypdf import PdfReader

    return str(PdfReader(pdf).metadata["/Subject"])


def test_an_svg_says_what_it_holds_and_a_pdf_its_pad_and_paper(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for args in (["qwixx-standard", "qwixx-big-points", "-n", "5", "-p", "letter", "--per-page", "1"],
                 ["qwixx-cards-deck", "-p", "letter", "--duplex", "short"]):
        result = CliRunner().invoke(main, ["build", *args, "-f", "both", "--out", str(out), "-q"])
        assert result.exit_code == 0, result.output
    assert descs(out) == {"Qwixx score sheets | qwixx-standard (score-sheet): one sheet",  # the sheets are alike
                          "Qwixx score sheets | qwixx-big-points (score-sheet): 5 sheets",  # a folder: they differ
                          "Qwixx, the card game | qwixx-cards-deck (deck): defaults"}  # (the paper is the PDF's)
    assert subject(out / "qwixx-standard-letter-1up-5sheets.pdf") == (
        "Qwixx score sheets | qwixx-standard (score-sheet): 5 sheets, 1 a page, paper letter")
    assert subject(out / "qwixx-cards-deck-letter-short-edge.pdf") == (
        "Qwixx, the card game | qwixx-cards-deck (deck): paper letter, duplex short")
    page = (out / "index.html").read_text()
    assert "qwixx-standard (score-sheet): one sheet</div>" in page
    assert "qwixx-standard (score-sheet): 5 sheets, 1 a page, paper letter</div>" in page


def test_deck_variants_that_print_differently_have_names_of_their_own(tmp_path: Path) -> None:
    names = []
    for args in ([], ["--corner-guide"], ["--no-crop-marks"], ["--back-offset", "1,-1.5"], ["--back-offset", "0,0"]):
        result = CliRunner().invoke(main, ["build", "qwixx-cards-deck", *args, "-f", "both", "--out", str(tmp_path),
                                           "--no-index"])
        assert result.exit_code == 0, result.output
        names.append(result.output.split()[1::2])  # "wrote PDF" and "wrote SVG folder"
    assert [Path(pdf).name for pdf, _ in names] == [
        "qwixx-cards-deck.pdf", "qwixx-cards-deck-corner-guide.pdf", "qwixx-cards-deck-no-crop-marks.pdf",
        "qwixx-cards-deck-offset1_-1.5mm.pdf", "qwixx-cards-deck.pdf"]  # (no offset is the plain deck)
    assert [Path(svg).name for _, svg in names] == ["qwixx-cards-deck", "qwixx-cards-deck-corner-guide"] + [
        "qwixx-cards-deck"] * 3  # the SVGs change only with the guide, drawn on the fronts


def test_a_card_size_a_little_off_the_layouts_own_has_its_own_name(tmp_path: Path) -> None:
    """63.45 x 88.9 mm was written as the plain poker deck's file (sizes within 0.05 mm were taken as one)."""
    names = []
    for size in ("63.45x88.9", "63.5x88.94", "2.5x3.5in", "poker"):
        result = CliRunner().invoke(main, ["build", "qwixx-cards-deck", "--card-size", size, "--out", str(tmp_path),
                                           "--no-index"])
        assert result.exit_code == 0, result.output
        names.append(Path(result.output.split()[1]).name)
    assert names == ["qwixx-cards-deck-63_45x88_9mm.pdf", "qwixx-cards-deck-63_5x88_94mm.pdf",
                     "qwixx-cards-deck.pdf", "qwixx-cards-deck.pdf"]
