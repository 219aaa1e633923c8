"""Who imports whom: the builders print the scan marks without the scanner, and the marks need neither."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PRINTGEN = Path(__file__).resolve().parents[2] / "printgen"


def imported(package: str) -> dict[str, set[str]]:
    """Every printgen module imported anywhere in `package` (inside functions too), by file."""
    found: dict[str, set[str]] = {}
    for path in sorted((PRINTGEN / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
        found[str(path.relative_to(PRINTGEN))] = names
    assert found, f"no modules in printgen/{package}"
    return found


@pytest.mark.parametrize(("package", "never"), [("builders", ("printgen.scan",)),
                                                ("marks", ("printgen.scan", "printgen.builders"))])
def test_no_import_runs_against_the_flow(package: str, never: tuple[str, ...]) -> None:
    for path, names in imported(package).items():
        wrong = sorted(name for name in names if name.startswith(never))
        assert not wrong, f"printgen/{path} imports {', '.join(wrong)}"
