"""The recording backend: a page description in, a flat list of primitives at absolute page positions out.

It resolves groups and symbol placements the way the real backends do, so
whatever needs to know what is drawn where can ask without parsing SVG or
PDF: `printgen.measure` finds the smallest text, field and contrast of a page
before anything is rendered, and tests assert geometry (what is drawn where,
whether it stays on the page).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from printgen.fonts import cap_height
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
    rotate: int = 0
    """For text: how far it is turned, degrees clockwise."""
    ink: Box | None = None
    """For text: where its capitals and digits are (its width, from the baseline to the cap height)."""
    rounded: bool = False
    """For a rect: its corners are rounded (a pill or a badge, not a ground)."""


class RecordingRenderer(Renderer):
    """Collects `Drawn` records in page coordinates."""

    def __init__(self) -> None:
        self.drawn: list[Drawn] = []
        self._chain: list[Group] = []
        """The groups (and symbol placements, as groups) around what is drawn now, outermost first."""

    def _point(self, x: float, y: float) -> tuple[float, float]:
        for group in reversed(self._chain):
            x, y = group.apply(x, y)
        return x, y

    def _map(self, box: Box) -> Box:
        corners = [self._point(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return (min(xs), min(ys), max(xs), max(ys))

    def _scale(self) -> float:
        scale = 1.0
        for group in self._chain:
            scale *= group.scale
        return scale

    def _record(self, kind: str, element: Element, fill: str | None, rounded: bool = False) -> None:
        writable = bool(getattr(element, "writable", False))
        self.drawn.append(Drawn(kind, self._map(element.bounds()), fill=fill, writable=writable, rounded=rounded))

    def rect(self, rect: Rect) -> None:
        self._record("rect", rect, rect.paint.fill, rect.radius > 0)

    def line(self, line: Line) -> None:
        self._record("line", line, line.paint.stroke)

    def circle(self, circle: Circle) -> None:
        self._record("circle", circle, circle.paint.fill)

    def path(self, path: Path) -> None:
        self._record("path", path, path.paint.fill)

    def text(self, text: Text) -> None:
        x, y = self._point(text.x, text.y)
        turned = sum(group.rotate for group in self._chain) % 360
        box = text.bounds()
        ink = self._map((box[0], text.y - cap_height(text.weight) * text.size, box[2], text.y))
        self.drawn.append(Drawn("text", self._map(box), text.text, x, y, self._scale() * text.size,
                                text.anchor, text.fill, rotate=turned, ink=ink))

    def use(self, use: Use) -> None:
        start = len(self.drawn)
        self._chain.append(Group((), use.x, use.y, use.scale))
        self.draw(use.symbol.elements)
        self._chain.pop()
        if use.clip is not None:
            clip = self._map(use.clip)
            self.drawn[start:] = [_clipped(d, clip) for d in self.drawn[start:] if _overlaps(d.bounds, clip)]

    def push_group(self, group: Group) -> None:
        self._chain.append(group)

    def pop_group(self, group: Group) -> None:
        self._chain.pop()


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
    return replace(drawn, bounds=box)
