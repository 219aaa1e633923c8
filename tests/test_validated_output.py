"""Every layout x format x a few option sets: structurally sound PDFs with embedded fonts that render,
SVGs that svgwrite's validator accepts, and content that stays on the page (text inside any trim box)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pytest

from printgen import layouts
from printgen.build import build, options_for
from printgen.render import svg as svg_backend
from printgen.render.recording import record
from tests.pdfcheck import fonts

COMBOS: list[tuple[str, dict[str, Any]]] = [
    (name, {"sheets": 3} if layouts.load(name).kind == "score-sheet" else {}) for name in layouts.builtin_names()] + [
    ("qwixx-big-points", {"sheets": 5, "lang": "pl", "symbols": True, "cmyk": True, "per_page": 4, "paper": "tabloid"}),
    ("qwixx-gemixxt-b", {"sheets": 3, "shuffle": True, "lang": "fr", "svg_text": "font"}),
    ("qwixx-bonus-b", {"sheets": 1, "per_page": 1, "lang": "de"}),
    ("qwixx-cards-deck", {"per_page": 1, "bleed": 0.0, "cmyk": True}),
    ("qwixx-cards-deck", {"duplex": "short", "alignment_page": True, "paper": "letter", "card_size": "bridge",
                          "corner_guide": True, "back_offset": (0.5, -1.0)}),
    ("one-to-9-deck", {"card_size": "mini", "gap": 2.0, "symbols": True}),
    ("one-to-9-board", {"tile": True, "paper": "letter"}),
    ("one-to-9-board", {"card_size": "mini"}),
]


@pytest.fixture
def captured(pages: list[Any], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every page the PDF backend writes (the `pages` fixture); every SVG built with validation on."""

    def validated(page: Any, target: Path, title: str, svg_text: str = "outline", about: str = "") -> None:
        with open(target, "w", encoding="utf-8") as handle:
            svg_backend.svg_document(page, title, debug=True, svg_text=svg_text, about=about).write(handle,
                                                                                                    pretty=False)

    monkeypatch.setattr(svg_backend, "write_svg", validated)
    return pages


@pytest.mark.parametrize("name, settings", COMBOS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(COMBOS)])
def test_output_is_valid(tmp_path: Path, captured: list[Any], name: str, settings: dict[str, Any]) -> None:
    written = build(name, options_for(name, out=tmp_path, formats=("pdf", "svg"), **settings))
    pdfs = [p for p in written if p.suffix == ".pdf"]
    svgs = [p for p in written if p.suffix == ".svg"] + [f for p in written if p.is_dir() for f in p.glob("*.svg")]
    assert pdfs and svgs
    for path in pdfs:
        with pikepdf.Pdf.open(path) as document:
            assert document.check_pdf_syntax() == [], path
        used = fonts(path)
        assert all(used.values()), used  # every font embedded (the token sheet has no text at all)
        assert used or name == "one-to-9-stars"
        rendered = pdfium.PdfDocument(str(path))
        try:
            image = rendered[len(rendered) - 1].render(scale=0.3).to_pil()
            assert image.getextrema() != ((255, 255), (255, 255), (255, 255))  # something was drawn
        finally:
            rendered.close()
    for path in svgs:
        ET.parse(path)
    assert captured
    for page in captured:
        for drawn in record(page):
            x0, y0, x1, y1 = drawn.bounds
            assert x0 >= -0.01 and y0 >= -0.01 and x1 <= page.width + 0.01 and y1 <= page.height + 0.01, drawn
            if page.trim is not None and drawn.kind == "text":
                tx0, ty0, tx1, ty1 = page.trim
                assert tx0 <= x0 and x1 <= tx1 and ty0 <= y0 and y1 <= ty1, drawn
