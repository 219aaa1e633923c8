"""Shared fixtures: the standard layout, a CLI runner, a helper to write layout files, the pages the PDF writers
draw (`pages`), and the --regenerate option of the golden references (tests/golden)."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from printgen import layouts
from printgen.kinds import ScoreSheetLayout
from printgen.resources import resource_dir
from tests.capture import CapturedPages, install


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regenerate", action="store_true",
                     help="tests/golden: rewrite the golden references from this build instead of comparing "
                          "(then review them with git diff)")


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


CALL_REPORT = pytest.StashKey[pytest.TestReport]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Keep each test's call report on the test, for fixtures that judge the test after it ran (`pages`)."""
    report = yield
    if report.when == "call":
        item.stash[CALL_REPORT] = report
    return report


@pytest.fixture
def pages(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[CapturedPages]:
    """Every page the PDF writers draw during the test (their page descriptions, for inspection).

    The pages are taken from every `printgen.page.Document` as a writer iterates it (tests/capture.py), so
    they are captured however the writers are imported. A test that passes without a page captured fails
    here: it checked nothing. A test for which drawing nothing is right says so with `pages.expect_none()`.
    """
    kept = install(monkeypatch)
    yield kept
    report = request.node.stash.get(CALL_REPORT, None)
    if report is not None and report.passed and not kept and not kept.none_expected:
        pytest.fail(f"{request.node.nodeid} uses the `pages` fixture, but no PDF writer drew a page during it, "
                    "so whatever it checks of the pages was checked of none (if drawing nothing is right, "
                    "call pages.expect_none())", pytrace=False)
