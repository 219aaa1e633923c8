"""Label catalogues: a language code in, its mapping of label keys to printed words out.

Languages are looked up by name in the fixed table of the catalogues that
ship with printgen (never as a path), so a language that arrives from outside
(a sheet's code, a manifest) can only name one of them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from printgen.tomlfile import parse_toml

_HERE = Path(__file__).resolve().parent
DEFAULT_LANGUAGE = "en"


@cache
def _files() -> dict[str, Path]:
    """Every bundled catalogue by its language code."""
    return {p.stem: p for p in _HERE.glob("*.toml")}


def languages() -> list[str]:
    """Codes of every bundled catalogue, sorted."""
    return sorted(_files())


@cache
def catalogue(lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The labels of `lang`; an unknown code is a ValueError listing the known ones."""
    path = _files().get(lang)
    if path is None:
        raise ValueError(f"unknown language {lang[:20]!r} (known: {', '.join(languages())})")
    return {str(k): str(v) for k, v in parse_toml(path, str(path)).items()}
