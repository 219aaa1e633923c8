"""`printgen serve` without its extra: one line saying how to install it (from PyPI and from a clone), exit 1 (runs with or without the extra)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import printgen.serve
from printgen.cli import main


def test_serve_without_the_extra_says_how_to_get_it(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printgen.serve, "MODULES", ("starlette", "printgen_no_such_module"))
    result = runner.invoke(main, ["serve", "--port", "0"])
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and result.output.startswith("Error: printgen serve needs the serve and scan")
    assert "pip install '.[serve,scan]' in printgen's folder" in result.output  # from a clone, as the README says


def test_serve_refuses_a_bad_port_as_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(main, ["serve", "--port", "70000"])
    assert result.exit_code == 2 and "--port" in result.output
