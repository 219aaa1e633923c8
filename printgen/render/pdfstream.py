"""The streaming PDF writer: a Document whose pages only place symbols in, a PDF written page by page out.

reportlab keeps every page in memory until it saves; a pad of tens of
thousands of sheets needs no such thing, because its pages only place
prepared forms. This writer streams each page (its content stream and page
object) straight to the file, keeping only object numbers, and hangs the
pages in a balanced page tree at the end. The forms and fonts are drawn once
by reportlab (through the same PdfRenderer), read back with
`printgen.render.pdfread` and copied in with `printgen.render.pdffile`; which form is which is read from the placing
page's content stream, never from reportlab's names for them.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from printgen.colour_management import Press, press_for
from printgen.page import PT_PER_MM, Document, Element, Group, Page, Symbol, Use
from printgen.render.pdffile import (
    REMEMBERED_PAGES,
    PageGroups,
    PageTree,
    PdfFile,
    output_intent,
    pack,
    pdf_number,
    write_info,
)
from printgen.render.pdfread import Name, PdfObjects, operations

MAX_PLACEMENTS = 100_000
"""Most placements whose bytes a file keeps for reuse (a pad has a few dozen; a document of all-different
placements keeps the first ones and formats the rest anew)."""


class NotStreamable(ValueError):
    """A page holds something other than (unclipped) symbol placements."""


def placements(elements: tuple[Element, ...], matrix: tuple[float, float, float] = (1.0, 0.0, 0.0)
               ) -> list[tuple[Symbol, float, float, float]]:
    """Every symbol placed by `elements` as (symbol, scale, x, y) in page millimetres."""
    scale, dx, dy = matrix
    found = []
    for element in elements:
        if isinstance(element, Use) and element.clip is None:
            found.append((element.symbol, scale * element.scale, dx + scale * element.x, dy + scale * element.y))
        elif isinstance(element, Group) and not element.rotate:
            inner = (scale * element.scale, dx + scale * element.dx, dy + scale * element.dy)
            found += placements(element.elements, inner)
        else:
            raise NotStreamable(f"{type(element).__name__} cannot be streamed")
    return found


def write_streamed_pdf(document: Document, target: IO[bytes] | str, on_page: Callable[[int], None] | None = None,
                       cmyk: bool = False, timestamp: bool = False, icc: Path | None = None) -> PageGroups:
    """Write `document` (pages of symbol placements only) to `target`; returns its pages counted by content
    (so the preview page never reads a huge pad back).

    `cmyk` (or a CMYK profile `icc`) converts colours for that press and adds
    the OutputIntent. The bytes depend only on the document unless
    `timestamp` adds the creation time.
    """
    press = press_for(cmyk, icc)
    handle: IO[bytes] = open(target, "wb") if isinstance(target, str) else target  # noqa: SIM115
    try:
        file = PdfFile(handle)
        root, pages_root, resources = file.reserve(), file.reserve(), file.reserve()
        tree = PageTree(file, pages_root)
        counted = PageGroups()
        names: dict[str, bytes] = {}
        symbols: list[Symbol] = []
        placed: dict[tuple[str, float, float, float], bytes] = {}  # each placement's bytes, written out once
        frames: dict[tuple[float, float, Any, Any], tuple[bytes, bytes]] = {}  # each page size's bytes, too
        streams: dict[bytes, bytes] = {}  # each distinct page's content, compressed once
        commands: dict[int, tuple[Element, list[bytes]]] = {}  # each element object's placements' bytes
        for page in document:
            size = (page.width, page.height, page.trim, page.bleed)
            frame = frames.get(size) or frames.setdefault(size, _frame(page))
            content = [frame[0]]
            for element in page.elements:
                known = commands.get(id(element))
                if known is not None and known[0] is element:  # (kept alive in the table: ids are not reused)
                    content += known[1]
                    continue
                drawn = []
                for symbol, scale, x, y in placements((element,)):
                    key = (symbol.id, scale, x, y)
                    command = placed.get(key)
                    if command is None:
                        if symbol.id not in names:
                            names[symbol.id] = b"P%d" % len(names)
                            symbols.append(symbol)
                        command = b"q %s 0 0 %s %s %s cm /%s Do Q" % (
                            pdf_number(scale), pdf_number(scale), pdf_number(x), pdf_number(y), names[symbol.id])
                        if len(placed) < MAX_PLACEMENTS:
                            placed[key] = command
                    drawn.append(command)
                if len(commands) < MAX_PLACEMENTS:
                    commands[id(element)] = (element, drawn)
                content += drawn
            content.append(b"Q")
            stream, page_id = file.reserve(), file.reserve()
            data = b"\n".join(content)
            packed = streams.get(data)
            if packed is None:
                packed = pack(data)
                if len(streams) < REMEMBERED_PAGES:
                    streams[data] = packed
            file.packed_stream(stream, b"", packed)
            counted.add((page.width, page.height), data)
            file.obj(page_id, b"<< /Type /Page /Parent %d 0 R /MediaBox %s /Resources %d 0 R /Contents %d 0 R >>"
                     % (tree.parent(), frame[1], resources, stream))
            tree.add(page_id)
            if on_page is not None:
                on_page(len(tree))
        _resources(file, resources, symbols, names, press)
        tree.write()
        intent = b" /OutputIntents [%d 0 R]" % output_intent(file, press) if press is not None else b""
        file.obj(root, b"<< /Type /Catalog /Pages %d 0 R%s >>" % (pages_root, intent))
        info = write_info(file, document.title, document.meta.get("subject", document.title), timestamp)
        file.finish(root, info)
        return counted
    finally:
        if isinstance(target, str):
            handle.close()


def _frame(page: Page) -> tuple[bytes, bytes]:
    """What every page of `page`'s size and boxes writes: its content stream's opening (millimetres, y down), and
    its MediaBox with its TrimBox and BleedBox if it has them."""
    opening = b"q %s 0 0 %s 0 %s cm" % (pdf_number(PT_PER_MM), pdf_number(-PT_PER_MM),
                                        pdf_number(page.height * PT_PER_MM))
    box = b"[0 0 %s %s]" % (pdf_number(page.width * PT_PER_MM), pdf_number(page.height * PT_PER_MM))
    boxes = b"".join(b" /%s %s" % (name, _box(area, page.height)) for name, area in
                     ((b"TrimBox", page.trim), (b"BleedBox", page.bleed)) if area is not None)
    return opening, box + boxes


def _box(area: tuple[float, float, float, float], page_height: float) -> bytes:
    """A page-description box (mm, y down) as a PDF rectangle (points, y up)."""
    x0, y0, x1, y1 = area
    corners = (x0, page_height - y1, x1, page_height - y0)
    return b"[" + b" ".join(pdf_number(v * PT_PER_MM) for v in corners) + b"]"


def _resources(file: PdfFile, resources: int, symbols: list[Symbol], names: dict[str, bytes],
               press: Press | None) -> None:
    """Draw every form once with reportlab and copy them, with what they use, in; `resources` is the pages'."""
    from reportlab.pdfgen.canvas import Canvas

    from printgen.render.pdf import PdfRenderer, canvas_options, copier

    if not symbols:
        file.obj(resources, b"<< >>")
        return
    buffer = io.BytesIO()
    canvas = Canvas(buffer, **canvas_options(press))
    renderer = PdfRenderer(canvas, press)
    for symbol in symbols:
        for inner in symbol.symbols():  # what it places, innermost first, then itself
            renderer.define(inner)
    for symbol in symbols:  # placed in this order: the page's n-th Do is the n-th symbol
        canvas.doForm(renderer.forms[symbol.id])
    canvas.showPage()
    canvas.save()
    source = PdfObjects(buffer.getvalue())
    forms = _placed_forms(source)
    if len(forms) != len(symbols):
        raise RuntimeError(f"reportlab placed {len(forms)} forms for {len(symbols)} symbols")
    objects = copier(file, source, press)
    entries = b" ".join(b"/%s %s" % (names[symbol.id], objects.ref(form)) for symbol, form in zip(symbols, forms))
    file.obj(resources, b"<< /XObject << %s >> >>" % entries)
    objects.flush()


def _placed_forms(source: PdfObjects) -> list[Any]:
    """The forms (references) the first page of `source` places, in the order its content stream places them."""
    page = source.first_page()
    resources = source.resolve(page[Name("/Resources")])
    xobjects = source.resolve(resources[Name("/XObject")])
    return [xobjects[operands[0]] for operands, operator in operations(source.contents(page)) if operator == b"Do"]
