"""The one home of fonts: glyph coverage, outlines and advances agree with what reportlab draws."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen import fonts
from printgen.cli import main
from printgen.errors import UsageProblem
from printgen.labels import catalogue, languages
from printgen.page import Page, Text
from printgen.render.recording import record


def test_missing_glyphs_names_each_undrawable_character_once() -> None:
    assert fonts.missing_glyphs("Schöne Straße, żółć, 12× −5 → ok") == "→"
    assert fonts.missing_glyphs("🎲 שלום 🎲") == "🎲שלום"
    assert fonts.missing_glyphs("") == ""
    assert fonts.describe("🎲ש") == "U+1F3B2 '🎲', U+05E9 'ש'"


@pytest.mark.parametrize("lang", languages())
def test_every_label_can_be_printed(lang: str) -> None:
    for key, text in catalogue(lang).items():
        assert fonts.missing_glyphs(text + text.upper()) == "", f"{lang}.{key}: {text!r}"


def test_drawing_text_without_glyphs_is_refused() -> None:
    with pytest.raises(UsageProblem, match=r"^text 'Bonus ★': cannot print U\+2605 '★'"):
        record(Page(50, 20, (Text(1, 10, "Bonus ★", 4),)))


def test_advances_are_reportlabs_widths_in_font_units() -> None:
    text = "Wörter: 10×11×12× più Łódź"
    for weight in fonts.WEIGHTS:
        em = fonts.units_per_em(weight)
        starts = fonts.advances(text, weight)
        for i in range(1, len(text)):
            assert starts[i] == pytest.approx(fonts.text_width(text[:i], weight, em), abs=1e-6)


def test_outlines_come_from_the_glyphs_of_each_weight() -> None:
    regular, bold = fonts.glyph("a", "regular"), fonts.glyph("a", "bold")
    assert regular and bold and regular[1] != bold[1]
    assert regular[1].startswith("M") and regular[1].endswith("z")
    assert fonts.glyph(" ", "regular") is None  # no ink, nothing to place
    assert fonts.glyph("é", "bold") is not None  # a composite (e + acute), decomposed
    with pytest.raises(KeyError):
        fonts.glyph("🎲", "regular")


def test_a_title_that_cannot_be_printed_is_a_usage_error(tmp_path: Path, standard_text: str) -> None:
    path = tmp_path / "dice.toml"
    path.write_text(standard_text.replace('title = "Qwixx"', 'title = "Qwixx 🎲"'), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: {path}: title: cannot print U+1F3B2 '🎲': the bundled fonts (Roboto) have no glyph for it"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("weight", fonts.WEIGHTS)
def test_the_cmap_read_with_struct_is_reportlabs(weight: fonts.Weight) -> None:
    from reportlab.pdfbase import pdfmetrics

    from printgen.cmap import mapped_code_points

    face = pdfmetrics.getFont(fonts.register_pdf_fonts()[weight]).face
    expected = frozenset(code for code, glyph_id in face.charToGlyph.items() if glyph_id)
    assert len(expected) > 2000 and mapped_code_points(fonts.font_path(weight)) == expected


def test_a_font_with_only_the_basic_plane_map_is_read_from_it(tmp_path: Path) -> None:
    import struct

    from printgen.cmap import FontFileError, mapped_code_points

    data = bytearray(fonts.font_path("regular").read_bytes())
    tables = {bytes(data[12 + 16 * i: 16 + 16 * i]): struct.unpack_from(">I", data, 20 + 16 * i)[0]
              for i in range(struct.unpack_from(">H", data, 4)[0])}
    cmap = tables[b"cmap"]
    for index in range(struct.unpack_from(">H", data, cmap + 2)[0]):  # the full-Unicode maps renamed "symbol"
        at = cmap + 4 + 8 * index
        if struct.unpack_from(">HH", data, at) in ((3, 10), (0, 4)):
            struct.pack_into(">HH", data, at, 3, 0)
    bmp = tmp_path / "bmp.ttf"
    bmp.write_bytes(bytes(data))
    everything = mapped_code_points(fonts.font_path("regular"))
    assert mapped_code_points(bmp) == frozenset(code for code in everything if code <= 0xFFFF)
    bmp.write_bytes(bytes(data[: cmap + 20]))
    with pytest.raises(FontFileError, match="cut short"):
        mapped_code_points(bmp)


def test_listing_layouts_loads_neither_reportlab_nor_fonttools() -> None:
    import subprocess
    import sys

    code = ("import sys; from printgen.cli import main; sys.argv = ['printgen', 'list']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('reportlab', 'fontTools')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "qwixx-standard" in done.stdout and done.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize("title, printed", [("Ελληνικά", "ΕΛΛΗΝΙΚΑ"), ("Ἀθῆναι", "ΑΘΗΝΑΙ"), ("προϊόν", "ΠΡΟΪΟΝ"),
                                            ("Καΐκι", "ΚΑΪΚΙ"), ("Μάιος", "ΜΑΪΟΣ"), ("Ωραίο", "ΩΡΑΙΟ"),
                                            ("αύριο", "ΑΥΡΙΟ"),
                                            ("Würfelglück", "WÜRFELGLÜCK"), ("Straße", "STRASSE"),
                                            ("École", "ÉCOLE")])
def test_titles_are_set_in_capitals_as_typesetters_set_them(title: str, printed: str) -> None:
    """Greek capitals drop their accents and breathings (a designer's Greek title printed ΕΛΛΗΝΙΚΆ), an accent
    after a diaeresis too; the diaeresis stays, and one is added where the dropped accent kept two vowels apart;
    every other script keeps its accents."""
    assert fonts.capitals(title) == printed


def test_a_short_last_word_never_stands_alone_on_the_last_line() -> None:
    """The Polish alignment page on A5 ended "… to jest / X,Y." (a helper's find)."""
    text = "Odczytaj, gdzie każdy czerwony krzyżyk z tyłu trafia na skalę (mm; + w prawo i w dół): to jest X,Y."
    width = fonts.text_width(text.removesuffix(" X,Y."), "regular", 3.0) + 0.5  # all but the last word fits
    lines = fonts.wrap(text, "regular", 3.0, width, 3)
    assert len(lines) == 2 and lines[-1].endswith("jest X,Y.")
