"""The `pages` fixture (tests/conftest.py, tests/capture.py): it sees every page a PDF writer draws, however the
writer was imported, and a test that uses it but captured nothing fails instead of passing vacuously."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from printgen.page import Document, Page, Rect, Symbol, Use
from printgen.render.pdf import write_pdf as bound_before_the_fixture
from printgen.render.pdfstream import write_streamed_pdf as streamed_bound_before_the_fixture
from tests.capture import CapturedPages

ROOT = Path(__file__).parents[1]


def page(width: float) -> Page:
    art = Symbol(f"art-{width:g}", width, 20, (Rect(1, 1, 5, 5),))
    return Page(width, 20, (Use(art, 0, 0),))


def test_pages_are_captured_however_the_writers_were_imported(pages: CapturedPages) -> None:
    # bound at this module's import, before the fixture ran: as a writer imported at the top of printgen.build
    # would be, which a fixture replacing the writer functions in their modules would never see
    one, two, three = page(30), page(40), page(50)
    assert bound_before_the_fixture(Document(one.symbols(), [one, two]), io.BytesIO()) == 2
    assert streamed_bound_before_the_fixture(Document([], iter([three])), io.BytesIO()).pages == 1
    assert list(pages) == [one, two, three]


def test_pages_are_captured_once_and_lazily(pages: CapturedPages) -> None:
    drawn = [page(30), page(40)]
    document = Document([], iter(drawn))
    assert pages == []  # nothing is taken before a writer draws
    assert list(document) == drawn and list(document) == drawn  # a document read twice is captured once
    assert pages == drawn


def test_a_test_that_captures_no_page_fails(tmp_path: Path) -> None:
    inner = tmp_path / "test_inner.py"
    inner.write_text(textwrap.dedent(f"""
        from pathlib import Path

        from printgen.build import build, options_for

        def test_checks_nothing(pages):
            for page in pages:
                assert page.width > 1000

        def test_says_that_nothing_is_right(pages):
            pages.expect_none()

        def test_fails_by_itself(pages):
            assert False, "its own failure"

        def test_draws(pages):
            build("one-to-9-stars", options_for("one-to-9-stars", out=Path({str(tmp_path / "out")!r})))
            assert pages
    """), encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
                             "-p", "no:warnings", "-q", "-rA", "--rootdir", str(tmp_path), inner.name],
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                            text=True, timeout=120, check=False)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    assert "1 failed, 3 passed, 1 error" in out, out  # test_checks_nothing: its call passed, then the fixture failed
    assert "ERROR test_inner.py::test_checks_nothing" in out, out
    assert "uses the `pages` fixture, but no PDF writer drew a page during it" in out
    assert "FAILED test_inner.py::test_fails_by_itself" in out  # its own failure, not the fixture's on top
    # once in the ERRORS section (the summary line may repeat it untruncated where $CI is set)
    details = out.split("short test summary info")[0]
    assert details.count("no PDF writer drew a page") == 1, out
