"""The shape of the package, held as tests: no import cycles (imports inside functions count), layout kinds
switched on only inside printgen/kinds/, no two modules of one file name, thin dispatch in build.py, and a
docstring on every module saying what goes in and what comes out."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "printgen"


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that `name` imports when it runs: at its top and inside its functions (what sits
    under `if TYPE_CHECKING:` never runs: it only names types for the type checker)."""
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if _type_checking(node):
                for inner in node.orelse:
                    self.visit(inner)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(alias.name for alias in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([node.module] if node.module else []))
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in known else base)

    Visitor().visit(ast.parse(path.read_text(encoding="utf-8")))
    return {module for module in found if module in known and module != name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root, children in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(children)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_graph_is_read() -> None:
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    assert len(known) > 80 and "printgen.build" in graph["printgen.cli"]
    assert "printgen.layouts.loader" in graph["printgen.layouts"]  # package imports count
    assert "printgen.builders.one_to_nine_pieces" in graph["printgen.kinds.decks"]  # so do imports inside functions
    assert "printgen.kinds.score_sheets" not in graph["printgen.builders.scoresheet"]  # TYPE_CHECKING does not


def test_a_cycle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    assert cycles(graph) == []


LAYOUT_SWITCH = re.compile(r"isinstance\([^)]*\b(ScoreSheet|Deck|Board|Token)Layout\b")


def test_layout_kinds_are_switched_on_only_inside_kinds() -> None:
    outside = [f"{path.relative_to(PACKAGE)}:{number}" for name, path in modules().items()
               if not name.startswith("printgen.kinds")
               for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
               if LAYOUT_SWITCH.search(line)]
    assert outside == []


def test_games_are_never_compared_by_name() -> None:
    games = re.compile(r"""[=!]=\s*["'](one-to-9|qwixx-cards)["']""")
    found = [f"{path.relative_to(PACKAGE)}:{number}" for path in modules().values()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if games.search(line)]
    assert found == []


def test_no_two_modules_share_a_file_name() -> None:
    names: dict[str, list[str]] = {}
    for path in modules().values():
        if path.name != "__init__.py":
            names.setdefault(path.name, []).append(str(path.relative_to(PACKAGE)))
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


def test_build_is_thin_dispatch() -> None:
    assert len((PACKAGE / "build.py").read_text(encoding="utf-8").splitlines()) <= 200


def test_every_module_says_what_goes_in_and_what_comes_out() -> None:
    missing = []
    for path in modules().values():
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if not doc or not doc.strip().splitlines()[0].strip():
            missing.append(str(path.relative_to(PACKAGE)))
    assert missing == []


def test_every_package_is_installed() -> None:
    import tomllib

    declared = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
                   ["packages"])
    packages = {".".join(path.parent.relative_to(PACKAGE.parent).parts) for path in PACKAGE.rglob("__init__.py")}
    assert packages - declared == set(), "a package the wheel would leave out"
