"""A deck's cards: refused in one line where they would be illegible or crowded, with a size that is not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main


@pytest.mark.parametrize("deck", ["qwixx-cards-deck", "one-to-9-deck"])
@pytest.mark.parametrize("size", ["25x35", "20x20", "31x44"])
def test_cards_too_small_are_refused_in_one_line_naming_a_size_that_builds(tmp_path: Path, deck: str,
                                                                           size: str) -> None:
    out = tmp_path / "out"
    refused = CliRunner().invoke(main, ["build", deck, "--card-size", size, "--out", str(out), "-f", "svg"])
    assert refused.exit_code == 2 and refused.output.count("\n") == 1, refused.output  # (it was a ZeroDivisionError)
    found = re.fullmatch(r"Error: --card-size: [\d.]+ x [\d.]+ mm cards would .+; (shorten it, or )?give cards of "
                         r"at least ([\d.]+) x ([\d.]+) mm \(--card-size\)\n", refused.output)
    assert found, refused.output
    assert not out.exists()
    hinted = f"{found[2]}x{found[3]}"
    built = CliRunner().invoke(main, ["build", deck, "--card-size", hinted, "--out", str(out), "-f", "svg", "-q"])
    assert built.exit_code == 0, built.output


def test_cards_that_no_size_in_their_proportions_mends_say_so(tmp_path: Path) -> None:
    refused = CliRunner().invoke(main, ["build", "one-to-9-deck", "--card-size", "300x20", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and refused.output == (
        "Error: --card-size: 300 x 20 mm cards would print '1' at 5.3 pt (the minimum is 6 pt); shorten it: no "
        "cards in these proportions up to 300 mm a side keep it\n")


@pytest.mark.parametrize("size", [(63.5, 88.9), (57.0, 89.0), (44.0, 63.0), (35.0, 49.0)])
def test_no_face_of_either_deck_crowds_another_thing_on_it(size: tuple[float, float]) -> None:
    """The sizes the decks are built at (poker, bridge, mini, and as small as One to 9 goes): on mini cards a
    number joker's pill ran into its turned index, and a small back's corner stars into its title."""
    from printgen.kinds.decks import deck_faces
    from printgen.layouts import load
    from printgen.measure import clashes
    from printgen.page import Item

    for name in ("qwixx-cards-deck", "one-to-9-deck"):
        for card, front, back in deck_faces(load(name), size, 3.0):
            for face in (front, back):
                assert clashes(Item(card, face).as_page()) == [], (name, size, face.id)


def test_backs_moved_past_what_the_printer_prints_are_warned_of(tmp_path: Path) -> None:
    """--back-offset 20,20 was taken silently while it cut 12.5 mm (an index with it) off the outer backs."""
    for extra, warned in ((["--back-offset", "20,20"], "lose up to 12.5 mm of the card to what the printer"),
                          (["--back-offset", "20,20", "--duplex", "off", "--backs-file"], "lose up to 12.5 mm"),
                          (["--back-offset", "20,0", "--printer-margin", "0"], "14.7 mm of the card off the paper"),
                          (["--back-offset", "1,1"], None)):
        result = CliRunner().invoke(main, ["build", "qwixx-cards-deck", *extra, "--no-index", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
        lines = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
        assert (lines == []) if warned is None else (len(lines) == 1 and warned in lines[0]), lines


def test_a_bleed_or_cards_a_page_that_print_only_in_part_are_warned_of(tmp_path: Path) -> None:
    """--bleed 10 on a page of cards 6.7 mm apart showed 3.4 mm of it round each card, and --per-page 9 printed 8
    a page, silently (in a file named 9up: it is named by what it holds, 8up)."""
    for extra, warned in ((["--bleed", "10"], "--bleed 10 mm: only 3.4 mm of it shows round each card"),
                          (["--bleed", "3"], None), (["--bleed", "10", "--per-page", "1"], None),
                          (["--per-page", "9"], "--per-page 9: 8 cards a page (4 x 2) are the most"),
                          (["--per-page", "8"], None)):
        result = CliRunner().invoke(main, ["build", "qwixx-cards-deck", *extra, "--no-index", "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
        lines = [line for line in result.stderr.splitlines() if line.startswith("Warning:")]
        assert (lines == []) if warned is None else (len(lines) == 1 and warned in lines[0]), lines
        if extra == ["--per-page", "9"]:
            assert "wrote " + str(tmp_path / "qwixx-cards-deck-8up.pdf") in result.stdout


@pytest.mark.parametrize("size", [(120.0, 170.0), (150.0, 210.0), (63.5, 88.9)])
def test_large_cards_with_symbols_keep_the_symbol_below_the_index(size: tuple[float, float]) -> None:
    """One to 9 with --symbols was refused from 118 x 165 to 150 x 210 mm: the index grows with the card, the
    symbol under it stayed where it was."""
    from printgen.kinds.decks import deck_faces
    from printgen.layouts import load
    from printgen.measure import clashes
    from printgen.page import Item

    for name in ("qwixx-cards-deck", "one-to-9-deck"):
        for card, front, _ in deck_faces(load(name), size, 3.0, symbols=True):
            assert clashes(Item(card, front).as_page()) == [], (name, size, front.id)


@pytest.mark.parametrize("dpi", [72, 96, 133])
def test_neighbours_bleeds_show_no_light_line_where_they_meet(tmp_path: Path, dpi: int) -> None:
    """Two cards' bleeds that only touched mid-gap left a light hairline in poppler's renders (its smoothing of two
    edges on one pixel; PDFium shows none): each now runs its `seam` past the middle. Three red cards side by side
    on page 1."""
    import shutil
    import statistics
    import subprocess

    from PIL import Image

    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler's pdftoppm is not installed")
    result = CliRunner().invoke(main, ["build", "qwixx-cards-deck", "--per-page", "3", "--no-index", "--out",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", "1", "-l", "1", "-singlefile",
                    str(tmp_path / "qwixx-cards-deck-3up.pdf"), str(tmp_path / "page")], check=True)
    with Image.open(tmp_path / "page.png") as page:
        rgb = page.convert("RGB")
        y = int(rgb.height * 0.3)  # across the cards above their discs
        row = [rgb.getpixel((x, y)) for x in range(rgb.width)]
    red = [x for x, (r, g, _) in enumerate(row) if r > 150 and g < 120]
    block = [g for _, g, _ in row[red[0] + 2:red[-1] - 1]]
    assert len(block) > 3 * 60 * dpi / 25.4  # three cards wide
    usual = statistics.median(block)
    lighter = [x for x, g in enumerate(block) if g - usual >= 25]
    assert lighter == [], lighter


@pytest.mark.parametrize("fronts, backs", [("qwixx-cards-deck-fronts", "qwixx-cards-deck-backs"),
                                           ("one-to-9-deck-gap2mm-fronts-alignment", "one-to-9-deck-gap2mm-backs-alignment"),
                                           ("my-frontsides", "my-frontsides-backs"), ("cards", "cards-backs")])
def test_the_backs_file_is_named_beside_the_fronts(fronts: str, backs: str) -> None:
    """Not NAME-fronts-backs.pdf, which reads as a file of both."""
    from printgen.kinds.decks import _backs_name

    assert _backs_name(fronts) == backs
