"""The SVG backend: one page description in, one SVG document out (svgwrite; 1 user unit = 1 mm).

Every `Symbol` becomes a `<symbol>` in `<defs>`, placed with `<use>`; text
names the bundled font family and is positioned by its anchor.
"""

from __future__ import annotations

from pathlib import Path as FilePath
from typing import Any

import svgwrite

from printgen.fonts import SVG_FAMILY
from printgen.page import Circle, Group, Line, Page, Paint, Path, Rect, Symbol, Text, Use
from printgen.render.base import Renderer


def _n(value: float) -> float | int:
    rounded = round(float(value), 3)
    return int(rounded) if rounded.is_integer() else rounded


class SvgRenderer(Renderer):
    """Adds svgwrite elements for each primitive to the current container."""

    def __init__(self, drawing: svgwrite.Drawing) -> None:
        self.drawing = drawing
        self.stack: list[Any] = [drawing]
        self.defined: set[str] = set()

    def _add(self, element: Any) -> None:
        self.stack[-1].add(element)

    @staticmethod
    def _paint(paint: Paint) -> dict[str, Any]:
        attrs: dict[str, Any] = {"fill": paint.fill or "none"}
        if paint.stroke:
            attrs["stroke"] = paint.stroke
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
        attrs: dict[str, Any] = {
            "insert": (_n(text.x), _n(text.y)),
            "font_size": _n(text.size),
            "font_family": SVG_FAMILY,
            "fill": text.fill,
        }
        if text.weight == "bold":
            attrs["font_weight"] = "bold"
        if text.anchor != "start":
            attrs["text_anchor"] = text.anchor
        self._add(self.drawing.text(text.text, **attrs))

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

    def define(self, symbol: Symbol) -> None:
        """Put `symbol` (and the symbols it uses) into <defs> once."""
        if symbol.id in self.defined:
            return
        self.defined.add(symbol.id)
        element = self.drawing.symbol(id=symbol.id)
        element.viewbox(0, 0, _n(symbol.width), _n(symbol.height))
        self.drawing.defs.add(element)
        self.stack.append(element)
        self.draw(symbol.elements)
        self.stack.pop()


def svg_document(page: Page, title: str, debug: bool = False, about: str = "") -> svgwrite.Drawing:
    """The svgwrite drawing of one page (sized in mm, viewBox in mm)."""
    drawing = svgwrite.Drawing(
        size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"),
        viewBox=f"0 0 {_n(page.width)} {_n(page.height)}",
        profile="full",
        debug=debug,
    )
    drawing.set_desc(title=title, desc=about or None)
    SvgRenderer(drawing).draw(page.elements)
    return drawing


def write_svg(page: Page, target: FilePath, title: str, about: str = "") -> None:
    """Write one page as an SVG file (`about`, what the file is, goes into its <desc>)."""
    with open(target, "w", encoding="utf-8") as handle:
        svg_document(page, title, about=about).write(handle, pretty=False)
