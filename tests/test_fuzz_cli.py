"""Hostile input, bounded in time: random bytes, mutated layouts and random manifests thrown at check, build
and batch never give a traceback, an exit code other than 0, 1 or 2, or an invalid file."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pypdfium2 as pdfium
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from printgen import layouts
from printgen.cli import main
from printgen.options import BUILD_OPTIONS
from printgen.resources import resource_dir

LITERALS = ["0", "1", "2", "-1", "4", "1000000000", "3.5", "nan", "inf", "-inf", "true", "false", '""', '"x"',
            '"red"', '"#ff0000"', '"tomato"', '"\\u0000"', '"\\u0007"', '"\\uffff"', '"Ünïcødé ß"', '"🙂"',
            '"../../etc/passwd"', '"javascript:alert(1)"', "[]", "[1, 2, 3]", '["a", "b"]', "{ a = 1 }",
            "[[1], [2]]", '"a4"', '"letter"', '"mini"', '"300x300"', '"1x1"', '"nanxnan"', '"off"', '"0.5,-1"']
NAMES = [*layouts.builtin_names(), "nope", "../x.toml"]
EXAMPLES = int(os.environ.get("PRINTGEN_FUZZ_EXAMPLES", "25"))
"""Examples per property in CI (bounded time); set PRINTGEN_FUZZ_EXAMPLES for a longer campaign."""
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def valid_outputs(folder: Path) -> None:
    for pdf in folder.rglob("*.pdf"):
        document = pdfium.PdfDocument(str(pdf))
        try:
            assert len(document) > 0
        finally:
            document.close()
    for svg in folder.rglob("*.svg"):
        ET.parse(svg)
    assert not list(folder.rglob(".*.part")), "a partial file was left behind"


def outcome(*args: str) -> int:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output, result.exception)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    return result.exit_code


@SETTINGS
@given(raw=st.binary(max_size=400))
def test_random_bytes(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "random.toml"
    path.write_bytes(raw)
    for command in (["check", str(path)], ["build", str(path), "--out", str(tmp_path / "o"), "-f", "both"],
                    ["batch", str(path), "--out", str(tmp_path / "o")]):
        outcome(*command)
    valid_outputs(tmp_path)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(layouts.builtin_names()))
    lines = (resource_dir("layouts") / f"{name}.toml").read_text(encoding="utf-8").splitlines()
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["value", "drop", "twice", "key", "cut"]))
        line = lines[index]
        if action == "value" and "=" in line:
            lines[index] = line.split("=", 1)[0] + "= " + draw(st.sampled_from(LITERALS))
        elif action == "drop":
            del lines[index]
        elif action == "twice":
            lines.insert(index, line)
        elif action == "key":
            lines.insert(index, f"{draw(st.sampled_from(['colour', 'pallete', 'x', 'numbers', 'kind']))} = "
                                f"{draw(st.sampled_from(LITERALS))}")
        elif action == "cut":
            lines = lines[:index]
        if not lines:
            lines = [""]
    return "\n".join(lines) + "\n"


@SETTINGS
@given(text=mutated())
def test_mutated_layouts(tmp_path: Path, text: str) -> None:
    path = tmp_path / "mutant.toml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "o"
    outcome("check", str(path))
    if outcome("build", str(path), "--out", str(out), "-f", "both") == 0:
        assert any(out.iterdir())
    valid_outputs(tmp_path)


@st.composite
def manifests(draw: st.DrawFn) -> str:
    lines = []
    if draw(st.booleans()):
        lines.append(f"out = {draw(st.sampled_from(LITERALS))}")
    keys = [o.key for o in BUILD_OPTIONS if o.key not in ("sheets",)] + ["per-page", "colour", "layout"]
    for _ in range(draw(st.integers(0, 3))):
        lines.append("[[jobs]]")
        lines.append(f'layout = "{draw(st.sampled_from(NAMES))}"')
        for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
            lines.append(f"{key} = {draw(st.sampled_from(LITERALS))}")
    return "\n".join(lines) + "\n"


@SETTINGS
@given(text=manifests())
def test_random_manifests(tmp_path: Path, text: str) -> None:
    path = tmp_path / "jobs.toml"
    path.write_text(text, encoding="utf-8")
    outcome("batch", str(path), "--out", str(tmp_path / "o"), "-j", "1", "-q")
    valid_outputs(tmp_path)
