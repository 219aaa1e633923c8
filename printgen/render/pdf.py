"""The PDF backend: a page-description Document in, a PDF file out (reportlab; fonts embedded).

Coordinates stay in millimetres with y down: each page starts with one
transform from mm to points, and text is flipped back upright where drawn.
Every `Symbol` becomes a form XObject drawn once and placed with `doForm`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path as FilePath
from typing import IO, Any

from printgen.colours import cmyk as to_cmyk
from printgen.fonts import register_pdf_fonts
from printgen.page import (
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

PT_PER_MM = 72.0 / 25.4


@cache
def _colour(value: str, cmyk: bool = False) -> Any:
    from reportlab.lib.colors import CMYKColor, HexColor

    if cmyk:
        return CMYKColor(*to_cmyk(value))
    return HexColor(value)


class PdfRenderer(Renderer):
    """Draws elements onto a reportlab canvas whose user space is mm, y down (colours as CMYK if `cmyk`)."""

    def __init__(self, canvas: Any, cmyk: bool = False) -> None:
        self.canvas = canvas
        self.cmyk = cmyk
        self.fonts = register_pdf_fonts()
        self.forms: dict[str, str] = {}
        """Symbol id -> short form name (every page's resources list the forms it uses)."""

    def _paint(self, paint: Paint) -> tuple[int, int]:
        c = self.canvas
        if paint.fill:
            c.setFillColor(_colour(paint.fill, self.cmyk))
        if paint.stroke:
            c.setStrokeColor(_colour(paint.stroke, self.cmyk))
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
        c.setFillColor(_colour(text.fill, self.cmyk))
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
              invariant: bool = True) -> int:
    """Render `document` to `target`; returns the number of pages written.

    `on_page(n)` is called after each page (progress reporting); `cmyk` writes
    every colour as DeviceCMYK (for print shops that require it); `invariant`
    (the default) fixes dates and IDs so the same input gives the same bytes.
    """
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    rl_config.useA85 = 0  # binary streams: ASCII85 would make every stream 25 % larger

    names = register_pdf_fonts()
    canvas = Canvas(
        target if not isinstance(target, FilePath) else str(target),
        invariant=1 if invariant else 0,
        pageCompression=1,
        initialFontName=names["regular"],
        enforceColorSpace="cmyk" if cmyk else None,
    )
    canvas.setTitle(document.title)
    canvas.setAuthor("printgen")
    canvas.setCreator("printgen")
    canvas.setProducer("printgen (reportlab)")
    canvas.setSubject(document.meta.get("subject", document.title))
    renderer = PdfRenderer(canvas, cmyk)
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
    return count


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
