"""The PDF backend: a page-description Document in, a PDF file out (reportlab; fonts embedded).

Coordinates stay in millimetres with y down: each page starts with one
transform from mm to points, and text is flipped back upright where drawn.
Every `Symbol` becomes a form XObject drawn once and placed with `doForm`.
reportlab draws into memory; `printgen.render.pdffile` then copies its
objects into the file (font subsets tagged by content, /ID a hash of the
content, an OutputIntent in CMYK files). CMYK colours come from
`printgen.colour_management`; registration colour is a /Separation /All.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path as FilePath
from typing import IO, Any

from printgen.colour_management import Press, press_for
from printgen.colours import on_screen
from printgen.fonts import register_pdf_fonts
from printgen.page import (
    PT_PER_MM,
    REGISTRATION,
    Circle,
    Document,
    Element,
    Group,
    Line,
    Paint,
    Path,
    Rect,
    Symbol,
    Text,
    Use,
)
from printgen.render.base import Renderer

REGISTRATION_NAME = "All"
"""Registration colour's separation: reportlab names its colour space resource after it; printgen.render.pdffile
defines it in forms, whose resources reportlab leaves without colour spaces."""


@cache
def _colour(value: str, press: Press | None = None) -> Any:
    from reportlab.lib.colors import CMYKColor, CMYKColorSep, HexColor

    if press is None:
        return HexColor(on_screen(value))
    if value == REGISTRATION:
        return CMYKColorSep(1, 1, 1, 1, spotName=REGISTRATION_NAME)
    return CMYKColor(*press.cmyk(value))


def copier(file: Any, source: Any, press: Press | None) -> Any:
    """A pdffile Copier for reportlab's output `source` (read by pdfread), filling in the registration colour in
    forms of CMYK files."""
    from printgen.render.pdffile import REGISTRATION_SPACE, Copier

    return Copier(file, source, {REGISTRATION_NAME: REGISTRATION_SPACE} if press is not None else None)


def canvas_options(press: Press | None) -> dict[str, Any]:
    """The reportlab Canvas settings every printgen PDF is drawn with (uncompressed: pdffile compresses)."""
    return {"invariant": 1, "pageCompression": 0, "initialFontName": register_pdf_fonts()["regular"],
            "enforceColorSpace": "sep_cmyk" if press is not None else None}


class PdfRenderer(Renderer):
    """Draws elements onto a reportlab canvas whose user space is mm, y down (CMYK through `press`, if given)."""

    def __init__(self, canvas: Any, press: Press | None = None) -> None:
        self.canvas = canvas
        self.press = press
        self.fonts = register_pdf_fonts()
        self.forms: dict[str, str] = {}
        """Symbol id -> short form name (every page's resources list the forms it uses)."""

    def _paint(self, paint: Paint) -> tuple[int, int]:
        c = self.canvas
        if paint.fill:
            c.setFillColor(_colour(paint.fill, self.press))
        if paint.stroke:
            c.setStrokeColor(_colour(paint.stroke, self.press))
            c.setLineWidth(paint.width)
            if paint.dash:
                c.setDash(list(paint.dash), 0)
            else:
                c.setDash()
        return (1 if paint.stroke else 0, 1 if paint.fill else 0)

    def rect(self, rect: Rect) -> None:
        stroke, fill = self._paint(rect.paint)
        if rect.radius > 0:
            self.canvas.roundRect(rect.x, rect.y, rect.w, rect.h, rect.radius, stroke=stroke, fill=fill)
        else:
            self.canvas.rect(rect.x, rect.y, rect.w, rect.h, stroke=stroke, fill=fill)

    def line(self, line: Line) -> None:
        self._paint(line.paint)
        self.canvas.line(line.x1, line.y1, line.x2, line.y2)

    def circle(self, circle: Circle) -> None:
        stroke, fill = self._paint(circle.paint)
        self.canvas.circle(circle.cx, circle.cy, circle.r, stroke=stroke, fill=fill)

    def path(self, path: Path) -> None:
        stroke, fill = self._paint(path.paint)
        p = self.canvas.beginPath()
        for command in path.commands:
            op, args = command[0], [float(v) for v in command[1:]]  # type: ignore[arg-type]
            if op == "M":
                p.moveTo(*args)
            elif op == "L":
                p.lineTo(*args)
            elif op == "C":
                p.curveTo(*args)
            elif op == "Z":
                p.close()
            else:
                raise ValueError(f"unknown path command {op!r}")
        self.canvas.drawPath(p, stroke=stroke, fill=fill)

    def text(self, text: Text) -> None:
        c = self.canvas
        c.saveState()
        c.translate(text.x, text.y)
        c.scale(1, -1)
        c.setFillColor(_colour(text.fill, self.press))
        c.setFont(self.fonts[text.weight], text.size)
        draw = {"start": c.drawString, "middle": c.drawCentredString, "end": c.drawRightString}
        draw[text.anchor](0, 0, text.text)
        c.restoreState()

    def use(self, use: Use) -> None:
        c = self.canvas
        c.saveState()
        if use.clip is not None:
            x0, y0, x1, y1 = use.clip
            region = c.beginPath()
            region.rect(x0, y0, x1 - x0, y1 - y0)
            c.clipPath(region, stroke=0, fill=0)
        c.transform(use.scale, 0, 0, use.scale, use.x, use.y)
        c.doForm(self.forms[use.symbol.id])
        c.restoreState()

    def push_group(self, group: Group) -> None:
        self.canvas.saveState()
        self.canvas.translate(group.dx, group.dy)
        if group.rotate:
            self.canvas.rotate(group.rotate)
        if group.scale != 1.0:
            self.canvas.scale(group.scale, group.scale)

    def pop_group(self, group: Group) -> None:
        self.canvas.restoreState()

    def define(self, symbol: Symbol) -> None:
        """Record `symbol` as a form XObject (its own box, mm, y down), once."""
        if symbol.id in self.forms:
            return
        name = self.forms[symbol.id] = f"S{len(self.forms)}"
        self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=symbol.width, uppery=symbol.height)
        self.draw(symbol.elements)
        self.canvas.endForm()


def write_pdf(document: Document, target: FilePath | IO[bytes], on_page: Any = None, cmyk: bool = False,
              invariant: bool = True, icc: FilePath | None = None) -> int:
    """Render `document` to `target`; returns the number of pages written.

    `on_page(n)` is called after each page (progress reporting); `cmyk` (or
    a CMYK profile `icc`) writes every colour as ink amounts of that press
    (default: the bundled FOGRA39 profile) with the profile as OutputIntent;
    `invariant` (the default) leaves out the creation date, so the same input
    gives the same bytes.
    """
    press = press_for(cmyk, icc)
    data, count = drawn_pdf(document, press, on_page)
    if isinstance(target, FilePath):
        with open(target, "wb") as handle:
            _copy(data, handle, document, press, not invariant)
    else:
        _copy(data, target, document, press, not invariant)
    return count


def drawn_pdf(document: Document, press: Press | None = None, on_page: Any = None) -> tuple[bytes, int]:
    """`document` as reportlab draws it, and its number of pages: a whole PDF but not yet finished as
    `write_pdf` finishes it (streams uncompressed, fonts untagged, no /ID), which is enough to rasterise."""
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    rl_config.useA85 = 0  # binary streams: ASCII85 would make every stream 25 % larger

    buffer = io.BytesIO()
    canvas = Canvas(buffer, **canvas_options(press))
    renderer = PdfRenderer(canvas, press)
    count = 0
    for symbol in document.symbols:
        renderer.define(symbol)
    for page in document:
        for symbol in _new_symbols(page.elements, renderer.forms):
            renderer.define(symbol)
        canvas.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        if page.trim is not None:
            canvas.setTrimBox(_box_pt(page.trim, page.height))
        if page.bleed is not None:
            canvas.setBleedBox(_box_pt(page.bleed, page.height))
        canvas.translate(0, page.height * PT_PER_MM)
        canvas.scale(PT_PER_MM, -PT_PER_MM)
        renderer.draw(page.elements)
        canvas.showPage()
        count += 1
        if on_page is not None:
            on_page(count)
    canvas.save()
    return buffer.getvalue(), count


def _copy(data: bytes, out: IO[bytes], document: Document, press: Press | None, timestamp: bool) -> None:
    """Copy reportlab's PDF `data` object by object into `out`, finished as every printgen PDF is."""
    from printgen.render.pdffile import PdfFile, output_intent, write_info
    from printgen.render.pdfread import Name, PdfObjects

    source = PdfObjects(data)
    file = PdfFile(out)
    root = file.reserve()
    objects = copier(file, source, press)
    extra = b" /OutputIntents [%d 0 R]" % output_intent(file, press) if press is not None else b""
    file.obj(root, objects.dictionary(source.resolve(source.trailer[Name("/Root")]), extra))
    objects.flush()
    info = write_info(file, document.title, document.meta.get("subject", document.title), timestamp,
                      "printgen (reportlab)")
    file.finish(root, info)


def _box_pt(box: tuple[float, float, float, float], page_height: float) -> tuple[float, ...]:
    x0, y0, x1, y1 = box
    return (x0 * PT_PER_MM, (page_height - y1) * PT_PER_MM, x1 * PT_PER_MM, (page_height - y0) * PT_PER_MM)


def _new_symbols(elements: Iterable[Element], known: dict[str, str]) -> Iterator[Symbol]:
    """Symbols placed by `elements` that are not in `known` yet, innermost first (known ones are not walked)."""
    seen: set[str] = set()
    for element in elements:
        if isinstance(element, Group):
            yield from _new_symbols(element.elements, known)
        elif isinstance(element, Use) and element.symbol.id not in known and element.symbol.id not in seen:
            seen.add(element.symbol.id)
            yield from _new_symbols(element.symbol.elements, known)
            yield element.symbol
