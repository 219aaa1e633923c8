"""The streaming writer: pages of placements only, written one by one, read back whole."""

from __future__ import annotations

import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from pypdf import PdfReader

from printgen.page import Document, Group, Line, Page, Paint, Rect, Symbol, Text, Use
from printgen.render import pdffile, pdfstream
from printgen.render.pdfstream import NotStreamable, placements, write_streamed_pdf
from tests.conftest import filled_once
from tests.pdfcheck import fonts, page_texts

INNER = Symbol("inner", 5, 5, (Rect(0, 0, 5, 5, Paint(fill="#ff0000")),))
OUTER = Symbol("outer", 50, 20, (Use(INNER, 1, 1), Text(10, 10, "Pudło 7", 5, weight="bold")))


def test_placements_resolve_groups() -> None:
    found = placements((Use(OUTER, 10, 10), Group((Use(INNER, 1, 2, 2.0),), dx=5, dy=5, scale=0.5)))
    assert found == [(OUTER, 1.0, 10, 10), (INNER, 1.0, 5.5, 6.0)]
    with pytest.raises(NotStreamable):
        placements((Line(0, 0, 1, 1),))


def test_streamed_file_is_sound_and_readable(tmp_path: Path) -> None:
    pages = (Page(100, 100, (Use(OUTER, 10, 10 + i),)) for i in range(40))
    target = tmp_path / "s.pdf"
    assert write_streamed_pdf(Document([], pages, "t (x)"), str(target)).pages == 40
    with pikepdf.Pdf.open(target) as pdf:
        assert pdf.check_pdf_syntax() == [] and len(pdf.pages) == 40
    assert all(fonts(target).values()) and "Pudło 7" in page_texts(target)[39]


def test_same_pages_same_bytes(tmp_path: Path) -> None:
    def write(name: str, stamp: bool = False) -> bytes:
        pages = [Page(100, 100, (Use(OUTER, 0, 0),))]
        write_streamed_pdf(Document([], pages, "t"), str(tmp_path / name), timestamp=stamp)
        return (tmp_path / name).read_bytes()

    assert write("a.pdf") == write("b.pdf") != write("c.pdf", stamp=True)


def test_remembered_pages_and_placements_write_the_bytes_of_a_write_without_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from printgen.builders.pad import pad_items
    from printgen.layouts import load
    from printgen.printing import imposition

    def write(name: str) -> tuple[bytes, list[tuple[int, int, float, float]]]:
        items = pad_items(load("qwixx-big-points"), 60, seed=3)  # type: ignore[arg-type]
        pages = imposition.impose(items, imposition.plan_grid((210.0, 297.0), 105.0, 140.0, 2))
        counted = write_streamed_pdf(Document([], pages, "pad"), str(tmp_path / name))
        return (tmp_path / name).read_bytes(), counted.groups()

    remembered = write("remembered.pdf")
    for module, name in ((pdfstream, "MAX_PLACEMENTS"), (pdfstream, "REMEMBERED_PAGES"),
                         (pdffile, "REMEMBERED_PAGES"), (imposition, "MAX_PLACED")):
        monkeypatch.setattr(module, name, 0)
    fresh = write("fresh.pdf")
    assert remembered == fresh and len(remembered[1]) > 5  # a pad's lucky pairs: several distinct pages


def test_pages_hang_in_a_balanced_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdffile, "FANOUT", 3)  # 40 pages: 14 leaves, 5 nodes over them, 2 over those, the root
    pages = (Page(100 + i, 100, (Use(INNER, 1, 1),)) for i in range(40))
    target = tmp_path / "tree.pdf"
    assert write_streamed_pdf(Document([], pages, "tree"), str(target)).pages == 40
    reader = PdfReader(target)
    assert [float(page.mediabox.width) for page in reader.pages] == pytest.approx(
        [(100 + i) * 72 / 25.4 for i in range(40)], abs=1e-3)  # every page, in order
    depth = 0

    def visit(node: Any, parent: Any, level: int) -> int:
        nonlocal depth
        depth = max(depth, level)
        node = node.get_object()
        if node["/Type"] == "/Page":
            return 1
        assert len(node["/Kids"]) <= 3
        assert (parent is None) == ("/Parent" not in node)
        if parent is not None:
            assert node.raw_get("/Parent").idnum == parent
        count = sum(visit(kid, node.indirect_reference.idnum, level + 1) for kid in node["/Kids"])
        assert node["/Count"] == count
        return count

    assert visit(reader.trailer["/Root"]["/Pages"], None, 0) == 40 and depth == 4
    with pikepdf.Pdf.open(target) as pdf:
        assert pdf.check_pdf_syntax() == [] and len(pdf.pages) == 40


def test_the_writers_rely_on_no_private_names() -> None:
    for module in (pdfstream, pdffile):
        source = inspect.getsource(module)
        assert "FormXob" not in source and "._data" not in source and "_ID" not in source


PAD = """import resource, sys
from pathlib import Path
from printgen.build import build, options_for
build("qwixx-big-points", options_for("qwixx-big-points", out=Path(sys.argv[1]), sheets=int(sys.argv[2])))
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"""


def _build_pad(out: Path, sheets: int) -> int:
    """Build a Big Points pad of `sheets` in a fresh process; its peak memory (KiB)."""
    done = subprocess.run([sys.executable, "-c", PAD, str(out), str(sheets)], capture_output=True, text=True,
                          check=True)
    return int(done.stdout.split()[-1])


@pytest.fixture(scope="module")
def huge_pad(request: pytest.FixtureRequest) -> tuple[Path, int, int]:
    """The largest pad printgen builds (100,000 sheets, 50,000 pages), built once; with the peak memory of
    building it and of building a 100-sheet pad."""
    def fill(out: Path) -> tuple[int, int]:
        return _build_pad(out / "small", 100), _build_pad(out, 100_000)

    out, (small, large) = filled_once(request, "huge", fill)
    return out / "qwixx-big-points-100000sheets.pdf", small, large


@pytest.mark.slow
def test_huge_pad_passes_qpdfs_check_with_a_balanced_page_tree(huge_pad: tuple[Path, int, int]) -> None:
    """pikepdf's syntax check is qpdf's own (`qpdf --check`, through the library pikepdf wheels carry)."""
    with pikepdf.Pdf.open(huge_pad[0]) as pdf:
        assert pdf.check_pdf_syntax() == [] and len(pdf.pages) == 50_000
        biggest = 0
        stack = [pdf.Root.Pages]
        while stack:
            node = stack.pop()
            if node.Type == "/Pages":
                biggest = max(biggest, len(node.Kids))
                stack.extend(node.Kids)
        assert biggest <= 1_000


@pytest.mark.slow
def test_huge_pad_takes_no_more_memory_than_a_small_one(huge_pad: tuple[Path, int, int]) -> None:
    _, small, large = huge_pad
    assert large <= 1.2 * small, f"100,000 sheets: {large / 1024:.0f} MiB, 100 sheets: {small / 1024:.0f} MiB"
