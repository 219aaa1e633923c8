"""Layout loading: a TOML file in, a validated frozen layout of its kind out (or LayoutError, one line per problem).

The keys every layout file has (`kind`, `description`) are read here; what
the other keys mean, the kind says (`printgen.kinds`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from printgen.errors import LayoutError
from printgen.kinds import KINDS, Layout
from printgen.tomlfile import parse_toml
from printgen.tomlkeys import Fields


def load_file(path: Path, shown: str | None = None) -> Layout:
    """Read and validate the layout at `path`; errors name it as `shown` (default: the path)."""
    name = shown or str(path)
    data = parse_toml(path, name)
    problems: list[tuple[str, str]] = []
    top = Fields(data, "", problems)
    key = top.string("kind")
    if key is not None and key not in KINDS:
        top.problem("kind", f"{key!r} is not a known kind ({', '.join(KINDS)})")
    layout: Layout | None = None
    kind = KINDS.get(key or "")
    if kind is not None:  # what the other keys mean depends on the kind: with an unknown kind, report only that
        description = top.string("description", "") or ""
        layout = kind.read(top, path.stem, name)
        top.finish()
        if layout is not None:
            layout = replace(layout, description=description or f"{layout.title} {layout.kind}")
    if problems or layout is None:
        raise LayoutError([f"{name}: {key}: {message}" for key, message in problems])
    return layout
