"""Shared fixtures: the standard layout, a CLI runner, a helper to write layout files, the pages the PDF writers
draw (`pages`), the default pack (`default_pack`) and the demo photo (`demo`), each made once a run, and the
--regenerate option of the golden references (tests/golden); where Python is told not to write bytecode, a bytecode
cache for the run in the system's temporary folder."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner

from printgen import layouts
from printgen.kinds import ScoreSheetLayout
from printgen.resources import resource_dir
from tests.capture import CapturedPages, install

if sys.dont_write_bytecode:  # (PYTHONDONTWRITEBYTECODE, as on the development machine)
    # Without compiled bytecode every test worker and each of the ~90 printgen processes the tests start would
    # compile printgen and the tests from source again (about 15 s of the suite on 2 cores). Keep it outside the
    # checkout, in the system's temporary folder, for this run and the next.
    sys.dont_write_bytecode = False
    sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "printgen-pycache")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

T = TypeVar("T")
NEEDS_SCAN = "needs the scan extra: pip install '.[scan]'"


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


def made_once(request: pytest.FixtureRequest, name: str, make: Callable[[], T]) -> T:
    """`make()`, made once a run: with pytest-xdist, the first worker to ask makes it and keeps it (pickled) in the
    run's temporary folder, which every worker shares, and the others wait for it and load it from there; without,
    just `make()`. For what a session or module fixture would otherwise make again in each worker."""
    if not hasattr(request.config, "workerinput"):  # not a pytest-xdist worker
        return make()
    factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
    kept = factory.getbasetemp().parent / f"made-once-{name}.pickle"
    with open(kept.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait until it is made
        if kept.exists():
            loaded: T = pickle.loads(kept.read_bytes())
            return loaded
        made = make()
        kept.write_bytes(pickle.dumps(made))
        return made


def filled_once(request: pytest.FixtureRequest, name: str, fill: Callable[[Path], T]) -> tuple[Path, T]:
    """A new folder, `fill(folder)` filled, and what that returned, made once a run (`made_once`): tests only
    read the folder."""
    factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
    if not hasattr(request.config, "workerinput"):
        folder = factory.mktemp(name)
        return folder, fill(folder)
    folder = factory.getbasetemp().parent / f"made-once-{name}"

    def make() -> T:
        shutil.rmtree(folder, ignore_errors=True)  # what a worker that failed to fill it left
        folder.mkdir()
        return fill(folder)

    return folder, made_once(request, name, make)


@pytest.fixture(scope="session")
def default_pack(request: pytest.FixtureRequest) -> tuple[Path, int, str]:
    """`printgen build --all` run once a run (`filled_once`): the folder it wrote, its exit code and its output.
    Tests only read the folder."""
    from printgen.cli import main

    def fill(out: Path) -> tuple[int, str]:
        result = CliRunner().invoke(main, ["build", "--all", "--out", str(out)])
        return result.exit_code, result.output

    out, (code, output) = filled_once(request, "default-pack", fill)
    return out, code, output


@pytest.fixture(scope="session")
def demo(request: pytest.FixtureRequest) -> Any:
    """The demo photo (`printgen.demo.photo.demo_photo()`, a DemoPhoto), made once a run: tests must not change
    it (it is frozen). Tests of the demo photo itself make theirs too, to compare."""
    pytest.importorskip("cv2", reason=NEEDS_SCAN)
    from printgen.demo.photo import demo_photo

    return made_once(request, "demo", demo_photo)
