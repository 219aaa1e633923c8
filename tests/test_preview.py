"""Page pictures: page ranges read as ranges (never a list of every page) and bounded by the PDF's own pages."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from printgen.cli import main
from printgen.errors import UsageProblem
from printgen.preview import page_range


def test_page_ranges_are_ranges_merged_in_order() -> None:
    assert page_range("3,1-2,2-3, 7-9,10") == (range(1, 4), range(7, 11))
    assert page_range("1-5000000000") == (range(1, 5_000_000_001),)
    assert page_range("0002-04") == (range(2, 5),)
    for text in ("0", "3-1", "a", "1-", ""):
        with pytest.raises(UsageProblem, match="is not a list of pages like 1-3,7"):
            page_range(text)
    with pytest.raises(UsageProblem, match="a page number has at most 15 digits"):
        page_range("1-" + "9" * 5000)


def _little_memory() -> None:
    """In the child: at most 1 GiB of address space, so a page list of billions fails fast instead of filling the
    machine."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_a_range_of_billions_of_pages_is_bounded_by_the_pdf(tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["build", "qwixx-standard", "-n", "6", "--out", str(tmp_path)]).exit_code == 0
    pdf = tmp_path / "qwixx-standard-6sheets.pdf"
    done = subprocess.run([sys.executable, "-m", "printgen", "preview", str(pdf), "--pages", "2-5000000000,1"],
                          check=False, capture_output=True, text=True, timeout=120, preexec_fn=_little_memory)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"Error: --pages: pages 1-5,000,000,000 go beyond {pdf}'s 3 pages\n"
    assert not (tmp_path / "qwixx-standard-6sheets-preview").exists()
    result = CliRunner().invoke(main, ["preview", str(pdf), "--pages", "3,1-2,2", "--width", "100"])
    assert result.exit_code == 0 and "wrote 3 PNGs" in result.output


def test_a_preview_that_stops_part_way_says_which_pngs_it_had_written(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk after 7 of 100 pages said only that no partial file was left behind."""
    from printgen import preview
    from printgen.errors import PrintgenError

    assert CliRunner().invoke(main, ["build", "qwixx-standard", "-n", "8", "--no-index", "-q", "--out",
                                     str(tmp_path)]).exit_code == 0
    real = preview.render_page

    def failing(document, index: int, width: int):  # type: ignore[no-untyped-def]
        if index == 2:
            raise PrintgenError("page 3: cannot render: the disk is full")
        return real(document, index, width)

    monkeypatch.setattr(preview, "render_page", failing)
    result = CliRunner().invoke(main, ["preview", str(tmp_path / "qwixx-standard-8sheets.pdf"), "--out",
                                       str(tmp_path / "png"), "--width", "200"])
    assert result.exit_code == 1
    assert result.stderr == (f"Note: 2 PNGs had been written to {tmp_path / 'png'}\n"
                             "Error: page 3: cannot render: the disk is full\n")
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == ["page-001.png", "page-002.png"]
