"""Test helpers that read PDFs back: fonts and their embedding, page boxes, text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
from pypdf import PdfReader


def fonts(path: Path) -> dict[str, bool]:
    """Every font used anywhere in the PDF (pages and forms) -> whether its font file is embedded."""
    found: dict[str, bool] = {}
    seen: set[int] = set()

    def visit(resources: Any) -> None:
        if resources is None:
            return
        resources = resources.get_object()
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descendants = font.get("/DescendantFonts")
            base = font.get_object()["/BaseFont"]
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            found[str(base)] = embedded
        for xobject in (resources.get("/XObject") or {}).values():
            ref = xobject.indirect_reference
            if ref is not None and ref.idnum in seen:
                continue
            if ref is not None:
                seen.add(ref.idnum)
            visit(xobject.get_object().get("/Resources"))

    for page in PdfReader(path).pages:
        visit(page.get("/Resources"))
    return found


def page_texts(path: Path) -> list[str]:
    """The text of every page (pypdfium2, which reads text inside forms)."""
    pdf = pdfium.PdfDocument(str(path))
    try:
        return [page.get_textpage().get_text_range() for page in pdf]
    finally:
        pdf.close()
