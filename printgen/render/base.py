"""The renderer protocol: a page description's elements in, calls to a backend's few primitives out.

A backend implements rect, line, circle, path, text, use and group
push/pop; `draw` walks any element tree and dispatches to them, refusing
text the bundled fonts cannot draw (a UsageProblem, never a silent gap).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable

from printgen.fonts import require_glyphs
from printgen.page import Circle, Element, Group, Line, Path, Rect, Text, Use


class Renderer(ABC):
    """Base of every backend: dispatches elements to primitive methods."""

    def draw(self, elements: Iterable[Element]) -> None:
        """Draw every element, in order."""
        for element in elements:
            if isinstance(element, Rect):
                self.rect(element)
            elif isinstance(element, Text):
                require_glyphs(element.text, (element.weight,), f"text {element.text!r}")
                self.text(element)
            elif isinstance(element, Use):
                self.use(element)
            elif isinstance(element, Line):
                self.line(element)
            elif isinstance(element, Circle):
                self.circle(element)
            elif isinstance(element, Path):
                self.path(element)
            elif isinstance(element, Group):
                self.push_group(element)
                self.draw(element.elements)
                self.pop_group(element)
            else:
                raise TypeError(f"cannot draw {type(element).__name__}")

    @abstractmethod
    def rect(self, rect: Rect) -> None: ...

    @abstractmethod
    def line(self, line: Line) -> None: ...

    @abstractmethod
    def circle(self, circle: Circle) -> None: ...

    @abstractmethod
    def path(self, path: Path) -> None: ...

    @abstractmethod
    def text(self, text: Text) -> None: ...

    @abstractmethod
    def use(self, use: Use) -> None: ...

    @abstractmethod
    def push_group(self, group: Group) -> None: ...

    @abstractmethod
    def pop_group(self, group: Group) -> None: ...
