"""Shared fixtures: the standard layout, a CLI runner and a helper to write layout files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printgen import layouts
from printgen.kinds import ScoreSheetLayout
from printgen.resources import resource_dir


@pytest.fixture
def standard() -> ScoreSheetLayout:
    layout = layouts.load("qwixx-standard")
    assert isinstance(layout, ScoreSheetLayout)
    return layout


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def standard_text() -> str:
    return (resource_dir("layouts") / "qwixx-standard.toml").read_text(encoding="utf-8")


@pytest.fixture
def write_layout(tmp_path: Path, standard_text: str) -> Callable[..., Path]:
    """Write a copy of the standard layout with `old` replaced by `new` (or raw bytes) and return its path."""

    def write(old: str = "", new: str = "", raw: bytes | None = None, name: str = "sheet.toml") -> Path:
        path = tmp_path / name
        if raw is not None:
            path.write_bytes(raw)
        else:
            assert old in standard_text, f"{old!r} is not in the standard layout"
            path.write_text(standard_text.replace(old, new, 1), encoding="utf-8")
        return path

    return write


@pytest.fixture
def pages(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every page the PDF writers are given during the test (the page descriptions, kept for inspection)."""
    from printgen.page import Document
    from printgen.render import pdf as pdf_backend
    from printgen.render import pdfstream

    kept: list[Any] = []

    def keeping(real: Any) -> Any:
        def keep(document: Document, target: Any, *args: Any, **kwargs: Any) -> Any:
            document.pages = list(document.pages)
            kept.extend(document.pages)
            return real(document, target, *args, **kwargs)

        return keep

    monkeypatch.setattr(pdf_backend, "write_pdf", keeping(pdf_backend.write_pdf))
    monkeypatch.setattr(pdfstream, "write_streamed_pdf", keeping(pdfstream.write_streamed_pdf))
    return kept
