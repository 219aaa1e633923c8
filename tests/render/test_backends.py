"""SVG and PDF place the same elements at the same positions as the page description says."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from printgen.builders.scoresheet import build_sheet
from printgen.kinds import ScoreSheetLayout
from printgen.page import (
    PT_PER_MM,
    Circle,
    Document,
    Group,
    Line,
    Page,
    Paint,
    Rect,
    Symbol,
    Text,
    Use,
)
from printgen.page import Path as PathShape
from printgen.render.pdf import write_pdf
from printgen.render.recording import Drawn, record
from printgen.render.svg import svg_document
from tests.render.svgtree import SVG, placed


def svg_texts(root: ET.Element) -> list[tuple[str, float, float, float, str]]:
    """(text, x, y, size, anchor) of every <text>, with <g> and <use> transforms resolved."""
    return [(el.text or "", dx + s * float(el.get("x", 0)), dy + s * float(el.get("y", 0)),
             s * float(el.get("font-size", 0)), el.get("text-anchor", "start"))
            for el, dx, dy, s in placed(root) if el.tag == f"{SVG}text"]


@pytest.fixture
def sheet_page(standard: ScoreSheetLayout) -> Page:
    return build_sheet(standard).as_page()


def test_editable_svg_places_every_text_where_the_description_says(sheet_page: Page) -> None:
    expected = sorted((d.text, d.x, d.y, d.size, d.anchor) for d in record(sheet_page) if d.kind == "text")
    root = ET.fromstring(svg_document(sheet_page, "t", svg_text="font").tostring())
    actual = sorted(svg_texts(root))
    assert len(expected) > 60
    assert len(actual) == len(expected)
    for (text, x, y, size, anchor), want in zip(actual, expected):
        assert (text, anchor) == (want[0], want[4])
        assert max(abs(x - want[1]), abs(y - want[2]), abs(size - want[3])) < 0.01, (text, x, y, want)


def test_pdf_places_every_text_where_the_description_says(sheet_page: Page, tmp_path: Path) -> None:
    target = tmp_path / "sheet.pdf"
    write_pdf(Document(sheet_page.symbols(), [sheet_page]), target)
    pdf = pdfium.PdfDocument(str(target))
    text_page = pdf[0].get_textpage()
    height_pt = sheet_page.height * PT_PER_MM
    checked = 0
    for drawn in record(sheet_page):
        if drawn.kind != "text" or not drawn.text.strip():
            continue
        x0, y0, x1, y1 = drawn.bounds
        inset = 0.15  # a text shifted by more than this loses or gains characters
        found = text_page.get_text_bounded(
            left=(x0 + inset) * PT_PER_MM, right=(x1 - inset) * PT_PER_MM,
            top=height_pt - y0 * PT_PER_MM, bottom=height_pt - y1 * PT_PER_MM,
        )
        assert found.strip() == drawn.text, f"{drawn.text!r} at {drawn.bounds}: PDF has {found!r} there"
        checked += 1
    assert checked > 60
    pdf.close()


def test_every_primitive_renders_in_both_backends(tmp_path: Path) -> None:
    star = Symbol("star", 10, 10, (PathShape((("M", 5, 0), ("L", 10, 10), ("C", 6, 8, 4, 8, 0, 10), ("Z",)),
                                             Paint(fill="#ff0000")),))
    page = Page(50, 40, (
        Rect(1, 1, 10, 5, Paint(fill="#00ff00", stroke="#000000", width=0.5, dash=(1, 1)), radius=1),
        Line(0, 0, 50, 40, Paint(stroke="#0000ff")),
        Circle(25, 20, 4, Paint(stroke="#000000")),
        Group((Text(0, 0, "Pudło ąęśż ß é", 4, weight="bold", anchor="end"),), dx=40, dy=30, scale=0.5),
        Use(star, 30, 5, 2.0),
    ))
    target = tmp_path / "all.pdf"
    write_pdf(Document(page.symbols(), [page]), target)
    pdf = pdfium.PdfDocument(str(target))
    assert "Pudło ąęśż ß é" in pdf[0].get_textpage().get_text_range()
    pdf.close()
    root = ET.fromstring(svg_document(page, "t", debug=True, svg_text="font").tostring())
    assert root.find(f"{SVG}defs/{SVG}symbol").get("id") == "star"
    assert [t[0] for t in svg_texts(root)] == ["Pudło ąęśż ß é"]
    root = ET.fromstring(svg_document(page, "t", debug=True).tostring())  # validated: outlines are valid SVG
    assert root.find(f"{SVG}defs/{SVG}symbol").get("id") == "star"
    assert [t.text for t in root.iter(f"{SVG}title")] == ["t", "Pudło ąęśż ß é"]
    assert not list(root.iter(f"{SVG}text"))


def test_recording_resolves_nested_placements() -> None:
    inner = Symbol("inner", 2, 2, (Rect(0, 0, 2, 2, Paint(fill="#000000")),))
    outer = Symbol("outer", 10, 10, (Use(inner, 4, 4, 0.5),))
    drawn = record(Page(100, 100, (Group((Use(outer, 10, 10, 2.0),), dx=5, dy=5),)))
    assert drawn == [Drawn("rect", (23.0, 23.0, 25.0, 25.0), fill="#000000")]
