"""The streaming writer: pages of placements only, written one by one, read back whole."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from printgen.page import Document, Group, Line, Page, Paint, Rect, Symbol, Text, Use
from printgen.render.pdfstream import NotStreamable, placements, write_streamed_pdf
from tests.pdfcheck import fonts, page_texts

INNER = Symbol("inner", 5, 5, (Rect(0, 0, 5, 5, Paint(fill="#ff0000")),))
OUTER = Symbol("outer", 50, 20, (Use(INNER, 1, 1), Text(10, 10, "Pudło 7", 5, weight="bold")))


def test_placements_resolve_groups() -> None:
    found = placements((Use(OUTER, 10, 10), Group((Use(INNER, 1, 2, 2.0),), dx=5, dy=5, scale=0.5)))
    assert found == [(OUTER, 1.0, 10, 10), (INNER, 1.0, 5.5, 6.0)]
    with pytest.raises(NotStreamable):
        placements((Line(0, 0, 1, 1),))


def test_streamed_file_is_sound_and_readable(tmp_path: Path) -> None:
    pages = (Page(100, 100, (Use(OUTER, 10, 10 + i),)) for i in range(40))
    target = tmp_path / "s.pdf"
    assert write_streamed_pdf(Document([], pages, "t (x)"), str(target)) == 40
    with pikepdf.Pdf.open(target) as pdf:
        assert pdf.check_pdf_syntax() == [] and len(pdf.pages) == 40
    assert all(fonts(target).values()) and "Pudło 7" in page_texts(target)[39]


def test_same_pages_same_bytes(tmp_path: Path) -> None:
    def write(name: str, stamp: bool = False) -> bytes:
        pages = [Page(100, 100, (Use(OUTER, 0, 0),))]
        write_streamed_pdf(Document([], pages, "t"), str(tmp_path / name), timestamp=stamp)
        return (tmp_path / name).read_bytes()

    assert write("a.pdf") == write("b.pdf") != write("c.pdf", stamp=True)
