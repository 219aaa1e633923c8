"""Where printgen's bundled files live: a resource folder name in, its path out.

Installed, `layouts/`, `fonts/` and `profiles/` are packaged as
`printgen/_layouts`, `printgen/_fonts` and `printgen/_profiles`; in a source
checkout they are the top-level folders.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder of bundled `name` files ("layouts", "fonts" or "profiles")."""
    for candidate in (_PACKAGE / f"_{name}", _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"printgen's bundled {name}/ folder is missing (broken install?)")
