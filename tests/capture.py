"""Capturing the pages printgen's PDF writers draw, for the `pages` fixture (tests/conftest.py).

Both PDF writers (printgen.render.pdf and printgen.render.pdfstream) take a
`printgen.page.Document` and draw its pages in the order they iterate
them. The capture therefore hooks the Document itself, not a writer
function: every Document made while it is installed hands its pages to
the capture as they are drawn. How a writer is looked up — imported
inside a function, at a module's top, bound to another name — makes no
difference. A test that captured nothing fails (see the fixture), so a
future writer that bypasses Document cannot make the tests that inspect
pages pass by inspecting none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from printgen.page import Document, Page


class CapturedPages(list[Page]):
    """The pages drawn during one test, in the order drawn (a list, so tests loop over it and index it)."""

    none_expected = False
    """Set by `expect_none` when the test meant to draw nothing (e.g. the build was refused)."""

    def expect_none(self) -> None:
        """Say that this test drawing no page is right (the fixture then does not fail it)."""
        self.none_expected = True


class _Drawn:
    """A Document's pages: each page, as it is iterated, also goes into the capture (once, however often the
    document is iterated)."""

    def __init__(self, pages: Iterable[Page], kept: CapturedPages) -> None:
        self.source = iter(pages)
        self.seen: list[Page] = []
        self.kept = kept

    def __iter__(self) -> Iterator[Page]:
        yield from list(self.seen)
        for page in self.source:
            self.seen.append(page)
            self.kept.append(page)
            yield page


def install(monkeypatch: pytest.MonkeyPatch) -> CapturedPages:
    """Capture the pages of every Document made from now until `monkeypatch` is undone."""
    kept = CapturedPages()
    made = Document.__init__

    def init(self: Document, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        self.pages = _Drawn(self.pages, kept)

    monkeypatch.setattr(Document, "__init__", init)
    return kept
