"""What print shops and other programs read in printgen's PDFs, from both writers (reportlab's pages and
streamed pads): CMYK through the profile with an OutputIntent, solid black text, registration-colour marks,
font subset tags from content, text strings that read back right, an /ID from the content."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    ContentStream,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
)

from printgen.build import build, options_for
from printgen.colour_management import bundled_profile, press
from printgen.page import REGISTRATION, Document, Line, Page, Paint, Symbol, Text, Use
from printgen.render.pdf import write_pdf
from printgen.render.pdffile import subset_tag, text_string
from printgen.render.pdfstream import write_streamed_pdf

WRITERS = ["reportlab", "streamed"]


def write(writer: str, document: Document, target: Path, **options: Any) -> Path:
    if writer == "reportlab":
        write_pdf(document, target, **options)
    else:
        write_streamed_pdf(document, str(target), **options)
    return target


def placed(elements: tuple[Any, ...], width: float = 100) -> Document:
    """A one-page document placing `elements` as a symbol (so both writers can write it)."""
    art = Symbol("art", width, 50, elements)
    return Document([], [Page(width, 50, (Use(art, 0, 0),))], "t")


def resources_and_contents(reader: PdfReader) -> Iterator[tuple[Any, bytes]]:
    """(resources, decoded content) of every page and every form XObject, each once."""
    seen: set[int] = set()

    def forms(resources: Any) -> Iterator[tuple[Any, bytes]]:
        for ref in (resources.get("/XObject") or {}).values():
            if ref.idnum in seen:
                continue
            seen.add(ref.idnum)
            form = ref.get_object()
            inner = form.get("/Resources") or DictionaryObject()
            yield inner, form.get_data()
            yield from forms(inner)

    for page in reader.pages:
        resources = page["/Resources"]
        yield resources, page.get_contents().get_data()
        yield from forms(resources)


def text_fills(path: Path) -> list[tuple[float, ...]]:
    """The fill colour in force at every text-showing operator, as read back from the content streams."""
    reader = PdfReader(path)
    found = []
    for _, data in resources_and_contents(reader):
        fill: tuple[float, ...] = ()
        stack = []
        stream = DecodedStreamObject()
        stream.set_data(data)
        for operands, operator in ContentStream(stream, reader).operations:
            if operator in (b"k", b"rg", b"g"):
                fill = tuple(float(v) for v in operands)
            elif operator == b"q":
                stack.append(fill)
            elif operator == b"Q":
                fill = stack.pop()
            elif operator in (b"Tj", b"TJ", b"'", b'"'):
                found.append(fill)
    return found


def font_names(path: Path) -> dict[str, bytes]:
    """Subset font name -> its embedded font program, over every font in the file."""
    names = {}
    for resources, _ in resources_and_contents(PdfReader(path)):
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font["/FontDescriptor"]
            assert descriptor["/FontName"] == font["/BaseFont"]
            names[str(font["/BaseFont"])] = descriptor["/FontFile2"].get_object().get_data()
    return names


# --- colour ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("writer", WRITERS)
def test_cmyk_file_has_an_output_intent_with_the_profile(tmp_path: Path, writer: str) -> None:
    path = write(writer, placed((Text(5, 20, "Ink", 8, "#d7263d"),)), tmp_path / "c.pdf", cmyk=True)
    intents = PdfReader(path).trailer["/Root"]["/OutputIntents"]
    (intent,) = [i.get_object() for i in intents]
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4 and profile.get_data() == bundled_profile().read_bytes()
    plain = write(writer, placed((Text(5, 20, "Ink", 8, "#d7263d"),)), tmp_path / "rgb.pdf")
    assert "/OutputIntents" not in PdfReader(plain).trailer["/Root"]


@pytest.mark.parametrize("writer", WRITERS)
def test_a_user_profile_becomes_the_output_intent(tmp_path: Path, writer: str) -> None:
    mine = tmp_path / "shop.icc"
    mine.write_bytes(bundled_profile().read_bytes() + b"")
    path = write(writer, placed((Text(5, 20, "Ink", 8),)), tmp_path / "c.pdf", icc=mine)
    (intent,) = [i.get_object() for i in PdfReader(path).trailer["/Root"]["/OutputIntents"]]
    assert intent["/OutputConditionIdentifier"] == "Custom" and "/RegistryName" not in intent
    assert intent["/Info"] == press(mine).description


@pytest.mark.parametrize("writer", WRITERS)
def test_text_meant_black_is_solid_black_ink_and_colours_go_through_the_profile(tmp_path: Path, writer: str) -> None:
    texts = (Text(5, 10, "ink", 5, "#222222"), Text(5, 20, "black", 5, "#000000"), Text(5, 30, "red", 5, "#d7263d"),
             Text(5, 40, "grey", 5, "#808080"))
    fills = text_fills(write(writer, placed(texts), tmp_path / "c.pdf", cmyk=True))
    assert fills == [pytest.approx(press().cmyk(t.fill), abs=1e-3) for t in texts]
    assert fills[0] == fills[1] == (0, 0, 0, 1)
    assert fills[3][:3] == (0, 0, 0)


def test_black_text_of_real_sheets_and_cards_is_solid_black(tmp_path: Path) -> None:
    (pad,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path, cmyk=True))
    (deck,) = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, cmyk=True))
    for path in (pad, deck):
        fills = text_fills(path)
        assert all(len(fill) == 4 for fill in fills)  # CMYK everywhere
        assert (0, 0, 0, 1) in fills
        dark = [f for f in fills if f[3] > 0.8]
        assert all(f == (0, 0, 0, 1) for f in dark), dark  # no rich black, no 87 % K


@pytest.mark.parametrize("writer", WRITERS)
def test_registration_colour_is_separation_all(tmp_path: Path, writer: str) -> None:
    elements = (Line(0, 5, 10, 5, Paint(stroke=REGISTRATION, width=0.1)), Text(5, 20, "+5", 3, REGISTRATION))
    path = write(writer, placed(elements), tmp_path / "r.pdf", cmyk=True)
    spaces = [space for resources, _ in resources_and_contents(PdfReader(path))
              for space in (resources.get("/ColorSpace") or {}).values()]
    separations = [s.get_object() for s in spaces if s.get_object()[0] == "/Separation"]
    assert separations and all(s[1] == "/All" and s[2] == "/DeviceCMYK" for s in separations)
    tint = separations[0][3].get_object()
    assert [float(v) for v in tint["/C1"]] == [1, 1, 1, 1]
    rgb = write(writer, placed(elements), tmp_path / "rgb.pdf")
    assert not [1 for resources, _ in resources_and_contents(PdfReader(rgb)) if resources.get("/ColorSpace")]


def test_crop_marks_tile_crosses_and_alignment_page_print_in_registration_colour(tmp_path: Path) -> None:
    (deck,) = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path, cmyk=True, alignment_page=True))
    (board,) = build("one-to-9-board", options_for("one-to-9-board", out=tmp_path, cmyk=True, tile=True, paper="a4"))
    for path, pages in ((deck, (0, 2)), (board, (0,))):
        reader = PdfReader(path)
        for number in pages:  # the alignment page's rulers, the crop marks, the tile crosses
            page = reader.pages[number]
            names = [n for n, s in (page["/Resources"].get("/ColorSpace") or {}).items()
                     if s.get_object()[1] == "/All"]
            content = page.get_contents().get_data()
            assert names and any(f"{name} CS".encode() in content for name in names), (path.name, number)


# --- fonts, strings, identity ------------------------------------------------------------------------------

@pytest.mark.parametrize("writer", WRITERS)
def test_subset_tags_come_from_the_subset(tmp_path: Path, writer: str) -> None:
    # reportlab's first subset always holds all of printable ASCII: the subsets differ in the other letters
    one = write(writer, placed((Text(5, 20, "Qwixx ö", 8, weight="bold"),)), tmp_path / "one.pdf")
    again = write(writer, placed((Text(5, 20, "Qwixx ö", 8, weight="bold"),)), tmp_path / "again.pdf")
    other = write(writer, placed((Text(5, 20, "Qwixx ł", 8, weight="bold"),)), tmp_path / "other.pdf")
    names = font_names(one)
    assert font_names(again) == names and one.read_bytes() == again.read_bytes()
    ((name, program),) = names.items()
    assert re.fullmatch(r"/[A-Z]{6}\+Roboto-Bold", name) and name[1:7] == subset_tag(program)
    ((other_name, _),) = font_names(other).items()
    assert other_name != name and other_name.endswith("+Roboto-Bold")


def test_real_files_with_different_subsets_have_different_tags(tmp_path: Path) -> None:
    (standard,) = build("qwixx-standard", options_for("qwixx-standard", out=tmp_path))
    (bonus,) = build("qwixx-bonus-b", options_for("qwixx-bonus-b", out=tmp_path, lang="de"))
    (deck,) = build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path))
    tags = [font_names(path) for path in (standard, bonus, deck)]
    for one, other in ((0, 1), (0, 2), (1, 2)):
        assert not set(tags[one]) & set(tags[other])


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("title", ["Schöne (Straße)", "Pudło z kartami – żółć", "Glück \\ Größe", "plain (ASCII)"])
def test_titles_read_back_right(tmp_path: Path, writer: str, title: str) -> None:
    document = placed((Text(5, 20, "x", 8),))
    document.title = title
    path = write(writer, document, tmp_path / "t.pdf")
    assert PdfReader(path).metadata.title == title
    assert b"/Title " + text_string(title) in path.read_bytes()


def test_text_strings_are_ascii_literals_or_utf16_with_a_bom() -> None:
    assert text_string("a (b) \\c") == b"(a \\(b\\) \\\\c)"
    assert text_string("Straße") == b"<feff" + "Straße".encode("utf-16-be").hex().encode() + b">"
    assert text_string("🎲").startswith(b"<feffd83c")  # beyond the BMP: a surrogate pair


def test_different_content_different_id_same_content_same_id(tmp_path: Path) -> None:
    def file_id(name: str, **options: Any) -> Any:
        (path,) = build("qwixx-big-points", options_for("qwixx-big-points", out=tmp_path / name, sheets=4, **options))
        return PdfReader(path).trailer["/ID"]

    assert file_id("a", seed=1) == file_id("b", seed=1)
    assert file_id("a", seed=1) != file_id("c", seed=2)
    identifiers = file_id("a", seed=1)
    assert isinstance(identifiers, ArrayObject) and identifiers[0] == identifiers[1]
    decks = [build("qwixx-cards-deck", options_for("qwixx-cards-deck", out=tmp_path / n, duplex=d))[0] for n, d in (("x", "long"),
                                                                                                   ("y", "short"))]
    assert PdfReader(decks[0]).trailer["/ID"] != PdfReader(decks[1]).trailer["/ID"]


def test_timestamp_adds_a_creation_date_only_when_asked(tmp_path: Path) -> None:
    for writer in WRITERS:
        plain = write(writer, placed((Text(5, 20, "x", 8),)), tmp_path / f"{writer}.pdf")
        stamped = write(writer, placed((Text(5, 20, "x", 8),)), tmp_path / f"{writer}-t.pdf",
                        **({"invariant": False} if writer == "reportlab" else {"timestamp": True}))
        assert "/CreationDate" not in PdfReader(plain).trailer["/Info"]
        assert PdfReader(stamped).trailer["/Info"]["/CreationDate"].startswith("D:20")
        assert NameObject("/Producer") in PdfReader(plain).trailer["/Info"]
