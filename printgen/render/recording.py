"""The recording backend: a page description in, a flat list of primitives at absolute page positions out.

It resolves groups and symbol placements the way the real backends do, so
tests can assert geometry (what is drawn where, whether it stays on the page)
without parsing SVG or PDF.
"""

from __future__ import annotations

from dataclasses import dataclass

from printgen.page import Box, Circle, Element, Group, Line, Page, Path, Rect, Text, Use
from printgen.render.base import Renderer


@dataclass(frozen=True, slots=True)
class Drawn:
    """One primitive as it lands on the page: its kind, absolute bounds, and text (for Text)."""

    kind: str
    bounds: Box
    text: str = ""
    x: float = 0.0
    y: float = 0.0
    size: float = 0.0
    anchor: str = ""
    fill: str | None = None
    writable: bool = False


class RecordingRenderer(Renderer):
    """Collects `Drawn` records in page coordinates."""

    def __init__(self) -> None:
        self.drawn: list[Drawn] = []
        self._transforms: list[tuple[float, float, float]] = [(0.0, 0.0, 1.0)]

    def _map(self, box: Box) -> Box:
        dx, dy, s = self._transforms[-1]
        return (dx + s * box[0], dy + s * box[1], dx + s * box[2], dy + s * box[3])

    def _record(self, kind: str, element: Element, fill: str | None) -> None:
        writable = bool(getattr(element, "writable", False))
        self.drawn.append(Drawn(kind, self._map(element.bounds()), fill=fill, writable=writable))

    def rect(self, rect: Rect) -> None:
        self._record("rect", rect, rect.paint.fill)

    def line(self, line: Line) -> None:
        self._record("line", line, line.paint.stroke)

    def circle(self, circle: Circle) -> None:
        self._record("circle", circle, circle.paint.fill)

    def path(self, path: Path) -> None:
        self._record("path", path, path.paint.fill)

    def text(self, text: Text) -> None:
        dx, dy, s = self._transforms[-1]
        self.drawn.append(
            Drawn("text", self._map(text.bounds()), text.text, dx + s * text.x, dy + s * text.y,
                  s * text.size, text.anchor, text.fill)
        )

    def use(self, use: Use) -> None:
        start = len(self.drawn)
        self._push(use.x, use.y, use.scale)
        self.draw(use.symbol.elements)
        self._transforms.pop()
        if use.clip is not None:
            clip = self._map(use.clip)
            self.drawn[start:] = [_clipped(d, clip) for d in self.drawn[start:] if _overlaps(d.bounds, clip)]

    def push_group(self, group: Group) -> None:
        self._push(group.dx, group.dy, group.scale)

    def pop_group(self, group: Group) -> None:
        self._transforms.pop()

    def _push(self, x: float, y: float, scale: float) -> None:
        dx, dy, s = self._transforms[-1]
        self._transforms.append((dx + s * x, dy + s * y, s * scale))


def record(page: Page) -> list[Drawn]:
    """Everything `page` draws, at absolute positions."""
    renderer = RecordingRenderer()
    renderer.draw(page.elements)
    return renderer.drawn


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _clipped(drawn: Drawn, clip: Box) -> Drawn:
    x0, y0, x1, y1 = drawn.bounds
    box = (max(x0, clip[0]), max(y0, clip[1]), min(x1, clip[2]), min(y1, clip[3]))
    return Drawn(drawn.kind, box, drawn.text, drawn.x, drawn.y, drawn.size, drawn.anchor, drawn.fill, drawn.writable)
