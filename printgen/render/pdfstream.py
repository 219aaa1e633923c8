"""The streaming PDF writer: a Document whose pages only place symbols in, a PDF written page by page out.

reportlab keeps every page in memory until it saves; a pad of tens of
thousands of sheets needs no such thing, because its pages only place
prepared forms. This writer streams each page (its content stream and page
object) straight to the file, keeping only object offsets, and appends at
the end the forms and fonts, drawn once by reportlab (through the same
PdfRenderer) and copied object by object with their references renumbered.
"""

from __future__ import annotations

import hashlib
import io
import time
import zlib
from collections.abc import Callable
from typing import IO, Any

from printgen.page import Document, Element, Group, Symbol, Use

PT_PER_MM = 72.0 / 25.4


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


class _Writer:
    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.offsets: dict[int, int] = {}
        self.next_id = 5  # 1 catalog, 2 page tree, 3 shared resources, 4 info

    def reserve(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def obj(self, number: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[number] = self.out.tell()
        self.out.write(b"%d 0 obj\n" % number + body)
        if stream is not None:
            self.out.write(b"\nstream\n" + stream + b"\nendstream")
        self.out.write(b"\nendobj\n")


def write_streamed_pdf(document: Document, target: IO[bytes] | str, on_page: Callable[[int], None] | None = None,
                       cmyk: bool = False, timestamp: bool = False) -> int:
    """Write `document` (pages of symbol placements only) to `target`; returns the page count.

    The bytes depend only on the document unless `timestamp` adds the creation time.
    """
    handle: IO[bytes] = open(target, "wb") if isinstance(target, str) else target  # noqa: SIM115
    try:
        writer = _Writer(handle)
        handle.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        symbols: dict[str, Symbol] = {}
        names: dict[str, str] = {}
        kids: list[int] = []
        for page in document:
            content = [b"q %s 0 0 %s 0 %s cm" % (_n(PT_PER_MM), _n(-PT_PER_MM), _n(page.height * PT_PER_MM))]
            for symbol, scale, x, y in placements(page.elements):
                if symbol.id not in symbols:
                    symbols[symbol.id] = symbol
                    names[symbol.id] = f"P{len(names)}"  # the renderer names nested forms S0, S1, ...
                content.append(b"q %s 0 0 %s %s %s cm /FormXob.%s Do Q" % (
                    _n(scale), _n(scale), _n(x), _n(y), names[symbol.id].encode()))
            content.append(b"Q")
            data = zlib.compress(b"\n".join(content))
            stream_id, page_id = writer.reserve(), writer.reserve()
            writer.obj(stream_id, b"<< /Filter /FlateDecode /Length %d >>" % len(data), data)
            box = b"[0 0 %s %s]" % (_n(page.width * PT_PER_MM), _n(page.height * PT_PER_MM))
            boxes = b"".join(b" /%s %s" % (name, _box(area, page.height)) for name, area in
                             ((b"TrimBox", page.trim), (b"BleedBox", page.bleed)) if area is not None)
            writer.obj(page_id, b"<< /Type /Page /Parent 2 0 R /MediaBox %s%s /Resources 3 0 R /Contents %d 0 R >>"
                       % (box, boxes, stream_id))
            kids.append(page_id)
            if on_page is not None:
                on_page(len(kids))
        _resources(writer, list(symbols.values()), names, cmyk)
        writer.obj(2, b"<< /Type /Pages /Count %d /Kids [%s] >>" % (len(kids), b" ".join(b"%d 0 R" % k for k in kids)))
        writer.obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        title = document.title.encode("utf-8", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(
            b")", b"\\)")
        stamp = time.strftime("D:%Y%m%d%H%M%S").encode() if timestamp else b""
        created = b" /CreationDate (%s)" % stamp if timestamp else b""
        about = document.meta.get("subject", "").encode("utf-8", "replace").replace(b"\\", b"\\\\").replace(
            b"(", b"\\(").replace(b")", b"\\)")
        writer.obj(4, b"<< /Title (%s) /Subject (%s) /Author (printgen) /Creator (printgen) /Producer (printgen)%s >>"
                   % (title, about, created))
        _trailer(writer, hashlib.md5(title + b"%d" % len(kids) + stamp, usedforsecurity=False).hexdigest().encode())
        return len(kids)
    finally:
        if isinstance(target, str):
            handle.close()


def _resources(writer: _Writer, symbols: list[Symbol], names: dict[str, str], cmyk: bool) -> None:
    """Draw every form once with reportlab and copy it, with the fonts it uses, into the stream as object 3."""
    from pypdf import PdfReader
    from reportlab.pdfgen.canvas import Canvas

    from printgen.fonts import register_pdf_fonts
    from printgen.render.pdf import PdfRenderer

    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1, pageCompression=1, initialFontName=register_pdf_fonts()["regular"],
                    enforceColorSpace="cmyk" if cmyk else None)
    renderer = PdfRenderer(canvas, cmyk)
    for symbol in symbols:
        for inner in symbol.symbols()[:-1]:  # what it places, innermost first, under the renderer's own names
            renderer.define(inner)
        canvas.beginForm(names[symbol.id], lowerx=0, lowery=0, upperx=symbol.width, uppery=symbol.height)
        renderer.draw(symbol.elements)
        canvas.endForm()
    for symbol in symbols:
        canvas.doForm(names[symbol.id])
    canvas.showPage()
    canvas.save()
    reader = PdfReader(io.BytesIO(buffer.getvalue()))
    resources = reader.pages[0]["/Resources"]
    numbers: dict[int, int] = {}
    pending: list[Any] = []

    def ref(indirect: Any) -> bytes:
        if indirect.idnum not in numbers:
            numbers[indirect.idnum] = writer.reserve()
            pending.append(indirect)
        return b"%d 0 R" % numbers[indirect.idnum]

    body = _serialise(resources.get_object(), ref)
    while pending:
        indirect = pending.pop()
        target = indirect.get_object()
        stream = getattr(target, "_data", None)
        if stream is not None:
            header = {k: v for k, v in target.items() if k != "/Length"}
            writer.obj(numbers[indirect.idnum], _serialise_dict(header, ref, extra=b" /Length %d" % len(stream)),
                       stream)
        else:
            writer.obj(numbers[indirect.idnum], _serialise(target, ref))
    writer.obj(3, body)


def _serialise(value: Any, ref: Callable[[Any], bytes]) -> bytes:
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    if isinstance(value, IndirectObject):
        return ref(value)
    if isinstance(value, DictionaryObject):
        return _serialise_dict(value, ref)
    if isinstance(value, ArrayObject):
        return b"[" + b" ".join(_serialise(v, ref) for v in value) + b"]"
    out = io.BytesIO()
    value.write_to_stream(out)
    return out.getvalue()


def _serialise_dict(value: Any, ref: Callable[[Any], bytes], extra: bytes = b"") -> bytes:
    from pypdf.generic import NameObject

    parts = [_serialise(NameObject(k), ref) + b" " + _serialise(v, ref) for k, v in value.items()]
    return b"<< " + b" ".join(parts) + extra + b" >>"


def _trailer(writer: _Writer, file_id: bytes) -> None:
    start = writer.out.tell()
    size = writer.next_id
    lines = [b"xref", b"0 %d" % size, b"0000000000 65535 f "]
    for number in range(1, size):
        offset = writer.offsets.get(number)
        lines.append(b"%010d 00000 n " % offset if offset is not None else b"0000000000 65535 f ")
    writer.out.write(b"\n".join(lines) + b"\n")
    writer.out.write(b"trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n"
                     % (size, file_id, file_id, start))


def _box(area: tuple[float, float, float, float], page_height: float) -> bytes:
    """A page-description box (mm, y down) as a PDF rectangle (points, y up)."""
    x0, y0, x1, y1 = area
    corners = (x0, page_height - y1, x1, page_height - y0)
    return b"[" + b" ".join(_n(v * PT_PER_MM) for v in corners) + b"]"


def _n(value: float) -> bytes:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("", "-0") else "0").encode()
