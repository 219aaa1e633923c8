"""The reader of reportlab's PDFs: every object reads as pypdf reads it, the syntax's corners (strings, escaped
names, filters, inline images), a damaged file refused with its offset, and a build that never imports pypdf."""

from __future__ import annotations

import base64
import io
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf import generic as g
from reportlab.pdfgen.canvas import Canvas

from printgen.page import Document, Page, Paint, Rect, Symbol, Text, Use
from printgen.render.pdf import PdfRenderer, canvas_options
from printgen.render.pdffile import Copier, PdfFile, name_bytes, real
from printgen.render.pdfread import (
    Name,
    PdfObjects,
    PdfSyntaxError,
    Ref,
    Stream,
    operations,
    parse_value,
)


def reportlab_pdf(**options: Any) -> bytes:
    """What printgen has reportlab draw for a streamed pad: forms with text (embedded font subsets), placed once."""
    inner = Symbol("inner", 5, 5, (Rect(0, 0, 5, 5, Paint(fill="#ff0000")),))
    outer = Symbol("outer", 50, 20, (Use(inner, 1, 1), Text(10, 10, "Pudło 7 (x) \\", 5, weight="bold")))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, **(canvas_options(None) | options))
    renderer = PdfRenderer(canvas)
    for symbol in (inner, outer):
        renderer.define(symbol)
    canvas.doForm(renderer.forms["outer"])
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def pypdf_value(value: Any) -> Any:
    if isinstance(value, g.IndirectObject):
        return Ref(value.idnum, value.generation)
    if isinstance(value, g.StreamObject):
        return ("stream", {str(k): pypdf_value(v) for k, v in value.items()}, value.get_data())
    if isinstance(value, dict):
        return {str(k): pypdf_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [pypdf_value(v) for v in value]
    if isinstance(value, g.BooleanObject):
        return bool(value.value)
    if isinstance(value, g.NullObject):
        return None
    if isinstance(value, g.TextStringObject):
        return value.get_original_bytes()
    if isinstance(value, g.ByteStringObject):
        return bytes(value)
    if isinstance(value, (g.FloatObject, g.NumberObject)):
        return value.as_numeric()
    return str(value)


def own_value(value: Any) -> Any:
    if isinstance(value, Stream):
        entries = {str(k): own_value(v) for k, v in value.dictionary.items() if k != "/Length"}  # pypdf drops it
        return ("stream", entries, value.data())
    if isinstance(value, dict):
        return {str(k): own_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [own_value(v) for v in value]
    if isinstance(value, Name):
        return str(value)
    return value


@pytest.mark.parametrize("options", [{}, {"pageCompression": 1}], ids=["uncompressed", "compressed"])
def test_every_object_reads_as_pypdf_reads_it(options: dict[str, Any]) -> None:
    data = reportlab_pdf(**options)
    theirs, ours = PdfReader(io.BytesIO(data)), PdfObjects(data)
    assert own_value(ours.trailer) == pypdf_value(theirs.trailer)
    for number in range(1, int(theirs.trailer["/Size"])):
        assert own_value(ours.get(Ref(number))) == pypdf_value(theirs.get_object(number)), number
    page = ours.first_page()
    content = g.ContentStream(theirs.pages[0]["/Contents"], theirs)
    assert [(own_value(o), op) for o, op in operations(ours.contents(page))] == [
        (pypdf_value(o), bytes(op)) for o, op in content.operations]


def test_values_and_their_corners() -> None:
    source = (b"<< /A#20b (x\\(y\\) \\101\\n\\\r\nz) /N [1 -2 +3 .5 -1. 4 0 R true null] /H <414 2> "
              b"% a comment\n /E () /S (a\r\nb) >>")
    value, end = parse_value(source, 0, references=True)
    assert end == len(source)
    assert value == {"/A b": b"x(y) A\nz", "/N": [1, -2, 3, 0.5, -1.0, Ref(4), True, None], "/H": b"AB",
                     "/E": b"", "/S": b"a\nb"}
    assert name_bytes(Name("/A b#(")) == b"/A#20b#23#28" and name_bytes(Name("/F1+0")) == b"/F1+0"
    reals = (0.0, 595.2756, 1.0, -0.5, 1047.852, 1e-9, 123456789.5, -0.00012345678)
    assert [real(v) for v in reals] == [g.FloatObject(v).myrepr().encode() for v in reals]
    assert real(1.0) == b"1" and real(0.0) == b"0.0"


def test_a_content_stream_with_an_inline_image() -> None:
    content = b"q /P0 Do BI /W 1 /H 1 ID \x00EI\xff EI Q (a ) Tj"
    assert [(o, op) for o, op in operations(content)] == [
        ([], b"q"), (["/P0"], b"Do"), ([], b"BI"), (["/W", 1, "/H", 1], b"ID"), ([], b"EI"), ([], b"Q"),
        ([b"a "], b"Tj")]


def test_streams_are_decoded_through_their_filters() -> None:
    def stream(filters: bytes, data: bytes) -> Stream:
        return Stream({Name("/Filter"): parse_value(filters, 0, True)[0]}, data)

    assert stream(b"/FlateDecode", zlib.compress(b"abc")).data() == b"abc"
    assert stream(b"[/ASCII85Decode /FlateDecode]", base64.a85encode(zlib.compress(b"abc")) + b"~>").data() == b"abc"
    assert stream(b"/ASCIIHexDecode", b"61 62 6>").data() == b"ab`"  # an odd last digit: as if followed by 0
    with pytest.raises(ValueError, match="filter /LZWDecode"):
        stream(b"/LZWDecode", b"").data()


def test_a_damaged_file_is_refused_with_its_offset() -> None:
    data = reportlab_pdf()
    with pytest.raises(PdfSyntaxError, match="startxref"):
        PdfObjects(data.replace(b"startxref", b"startxxxx"))
    with pytest.raises(PdfSyntaxError, match="offset .*: no cross-reference table"):
        PdfObjects(data[:100] + b"!" * 5 + data[100:])  # every offset after it wrong
    source = PdfObjects(data.replace(b"endstream", b"endstreax", 1))
    with pytest.raises(PdfSyntaxError, match="offset .*/Length does not reach its endstream"):
        for number in range(1, int(source.trailer[Name("/Size")])):
            source.get(Ref(number))


def test_copies_keep_the_bytes_pypdf_gave() -> None:
    """A copied object, serialised: strings printable as literals, others as hex of their bytes."""
    out = io.BytesIO()
    file = PdfFile(out)
    source = PdfObjects(reportlab_pdf())
    copier = Copier(file, source)
    assert copier.value([b"a (b)", b"\xfe\x00", Name("/X"), 2, 2.5, None, False]) == (
        b"[(a \\(b\\)) <fe00> /X 2 2.5 null false]")


def test_a_build_never_imports_pypdf(tmp_path: Path) -> None:
    script = ("import sys; from pathlib import Path; from printgen.build import build, options_for; "
              "build('qwixx-standard', options_for('qwixx-standard', sheets=2, out=Path(sys.argv[1]))); "
              "build('one-to-9-board', options_for('one-to-9-board', out=Path(sys.argv[1]))); "
              "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pypdf'))")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).parents[2])
    assert done.stdout.strip() == "[]"
    assert {p.name for p in tmp_path.glob("*.pdf")} == {"qwixx-standard-2sheets.pdf", "one-to-9-board.pdf"}


def test_a_document_is_read_back_whole(tmp_path: Path) -> None:
    """The whole-document writer's copy of reportlab's file (catalog down) reads back as the same pages."""
    from printgen.render.pdf import write_pdf

    square = Symbol("sq", 5, 5, (Rect(0, 0, 5, 5, Paint(fill="#00ff00")),))
    target = tmp_path / "d.pdf"
    write_pdf(Document([], [Page(50, 50, (Use(square, 1, 1), Text(5, 5, "Zażółć", 4)))] * 3, "d"), target)
    assert len(PdfReader(target).pages) == 3
