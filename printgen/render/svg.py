"""The SVG backend: one page description in, one SVG document out (svgwrite; 1 user unit = 1 mm).

Every `Symbol` becomes a `<symbol>` in `<defs>`, placed with `<use>`. Text
is drawn as glyph outlines by default (`svg_text="outline"`): each glyph of
the bundled fonts is a `<path>` in `<defs>`, defined once per file and placed
with `<use>` at the very advances reportlab gives it in the PDF, so the SVG
looks the same in every program, with or without Roboto installed; the words
stay in a `<title>` for search and screen readers. `svg_text="font"` writes
editable `<text>` naming the font family instead.
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Any

import svgwrite

from printgen import fonts
from printgen.colours import on_screen
from printgen.page import Circle, Group, Line, Page, Paint, Path, Rect, Symbol, Text, Use
from printgen.render.base import Renderer

SVG_TEXT = ("outline", "font")
"""How SVGs carry text: glyph outlines (looks the same everywhere) or editable <text> in the font family."""


def _n(value: float) -> float | int:
    rounded = round(float(value), 3)
    return int(rounded) if rounded.is_integer() else rounded


class SvgRenderer(Renderer):
    """Adds svgwrite elements for each primitive to the current container."""

    def __init__(self, drawing: svgwrite.Drawing, svg_text: str = "outline") -> None:
        if svg_text not in SVG_TEXT:
            raise ValueError(f"svg_text must be one of {', '.join(SVG_TEXT)}, not {svg_text!r}")
        self.drawing = drawing
        self.outlines = svg_text == "outline"
        self.stack: list[Any] = [drawing]
        self.defined: set[str] = set()
        self.glyphs: set[str] = set()

    def _add(self, element: Any) -> None:
        self.stack[-1].add(element)

    @staticmethod
    def _paint(paint: Paint) -> dict[str, Any]:
        attrs: dict[str, Any] = {"fill": on_screen(paint.fill) if paint.fill else "none"}
        if paint.stroke:
            attrs["stroke"] = on_screen(paint.stroke)
            attrs["stroke_width"] = _n(paint.width)
            if paint.dash:
                attrs["stroke_dasharray"] = " ".join(str(_n(d)) for d in paint.dash)
        return attrs

    def rect(self, rect: Rect) -> None:
        attrs = self._paint(rect.paint)
        if rect.radius > 0:
            attrs["rx"] = attrs["ry"] = _n(rect.radius)
        self._add(self.drawing.rect((_n(rect.x), _n(rect.y)), (_n(rect.w), _n(rect.h)), **attrs))

    def line(self, line: Line) -> None:
        attrs = self._paint(line.paint)
        attrs.pop("fill")
        self._add(self.drawing.line((_n(line.x1), _n(line.y1)), (_n(line.x2), _n(line.y2)), **attrs))

    def circle(self, circle: Circle) -> None:
        attrs = self._paint(circle.paint)
        self._add(self.drawing.circle((_n(circle.cx), _n(circle.cy)), _n(circle.r), **attrs))

    def path(self, path: Path) -> None:
        parts = []
        for command in path.commands:
            parts.append(" ".join([str(command[0]), *(str(_n(float(v))) for v in command[1:])]))  # type: ignore[arg-type]
        self._add(self.drawing.path(d=" ".join(parts), **self._paint(path.paint)))

    def text(self, text: Text) -> None:
        if self.outlines:
            self._outlined(text)
            return
        attrs: dict[str, Any] = {
            "insert": (_n(text.x), _n(text.y)),
            "font_size": _n(text.size),
            "font_family": fonts.SVG_FAMILY,
            "fill": on_screen(text.fill),
        }
        if text.weight == "bold":
            attrs["font_weight"] = "bold"
        if text.anchor != "start":
            attrs["text_anchor"] = text.anchor
        self._add(self.drawing.text(text.text, **attrs))

    def _outlined(self, text: Text) -> None:
        """`text` as a group of glyph placements, at reportlab's advances, scaled from font units to mm."""
        em = fonts.units_per_em(text.weight)
        starts = fonts.advances(text.text, text.weight)
        width = fonts.text_width(text.text, text.weight, em)
        shift = {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
        scale = text.size / em
        group = self.drawing.g(fill=on_screen(text.fill))
        group["transform"] = f"translate({_n(text.x - shift * scale)} {_n(text.y)}) scale({scale:.6g})"
        group.set_desc(title=text.text)
        prefix = "g-b" if text.weight == "bold" else "g-r"
        for char, start in zip(text.text, starts):
            found = fonts.glyph(char, text.weight)
            if found is None:
                continue
            index, outline = found
            name = f"{prefix}{index}"
            if name not in self.glyphs:
                self._reserve_id(name)
                self.glyphs.add(name)
                self.drawing.defs.add(self.drawing.path(d=outline, id=name))
            placed = self.drawing.use(f"#{name}")
            if start:
                placed["x"] = _n(start)
            group.add(placed)
        self._add(group)

    def use(self, use: Use) -> None:
        self.define(use.symbol)
        symbol = use.symbol
        element = self.drawing.use(
            f"#{symbol.id}",
            insert=(_n(use.x), _n(use.y)),
            size=(_n(symbol.width * use.scale), _n(symbol.height * use.scale)),
        )
        if use.clip is not None:
            element["clip-path"] = f"url(#{self._clip(use.clip)})"
        self._add(element)

    def _clip(self, box: tuple[float, float, float, float]) -> str:
        name = "clip-" + "-".join(str(_n(v)).replace(".", "_").replace("-", "m") for v in box)
        if name not in self.defined:
            self.defined.add(name)
            clip = self.drawing.clipPath(id=name)
            clip.add(self.drawing.rect((_n(box[0]), _n(box[1])), (_n(box[2] - box[0]), _n(box[3] - box[1]))))
            self.drawing.defs.add(clip)
        return name

    def push_group(self, group: Group) -> None:
        g = self.drawing.g()
        transform = []
        if group.dx or group.dy:
            transform.append(f"translate({_n(group.dx)} {_n(group.dy)})")
        if group.rotate:
            transform.append(f"rotate({group.rotate})")
        if group.scale != 1.0:
            transform.append(f"scale({_n(group.scale)})")
        if transform:
            g["transform"] = " ".join(transform)
        self._add(g)
        self.stack.append(g)

    def pop_group(self, group: Group) -> None:
        self.stack.pop()

    def _reserve_id(self, name: str) -> None:
        """Refuse an id that a glyph and a symbol (or clip) would share: one would draw as the other."""
        if name in self.defined or name in self.glyphs:
            raise ValueError(f"SVG id {name!r} names both a glyph and a symbol")

    def define(self, symbol: Symbol) -> None:
        """Put `symbol` (and the symbols it uses) into <defs> once."""
        if symbol.id in self.defined:
            return
        self._reserve_id(symbol.id)
        self.defined.add(symbol.id)
        element = self.drawing.symbol(id=symbol.id)
        element.viewbox(0, 0, _n(symbol.width), _n(symbol.height))
        self.drawing.defs.add(element)
        self.stack.append(element)
        self.draw(symbol.elements)
        self.stack.pop()


def svg_document(page: Page, title: str, debug: bool = False, svg_text: str = "outline",
                 about: str = "") -> svgwrite.Drawing:
    """The svgwrite drawing of one page (sized in mm, viewBox in mm); text as `svg_text` says (see SVG_TEXT);
    `about`, what the file is, goes into its <desc>."""
    drawing = svgwrite.Drawing(
        size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"),
        viewBox=f"0 0 {_n(page.width)} {_n(page.height)}",
        profile="full",
        debug=debug,
    )
    drawing.set_desc(title=title, desc=about or None)
    SvgRenderer(drawing, svg_text).draw(page.elements)
    return drawing


def write_svg(page: Page, target: FilePath, title: str, svg_text: str = "outline", about: str = "") -> None:
    """Write one page as an SVG file (text as glyph outlines unless `svg_text` is "font"; `about` in <desc>)."""
    with open(target, "w", encoding="utf-8") as handle:
        svg_document(page, title, svg_text=svg_text, about=about).write(handle, pretty=False)
