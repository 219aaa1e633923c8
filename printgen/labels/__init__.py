"""Label catalogues: a language code in, its mapping of label keys to printed words out."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from printgen.tomlfile import parse_toml

_HERE = Path(__file__).resolve().parent
DEFAULT_LANGUAGE = "en"


def languages() -> list[str]:
    """Codes of every bundled catalogue, sorted."""
    return sorted(p.stem for p in _HERE.glob("*.toml"))


@cache
def catalogue(lang: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """The labels of `lang`; an unknown code is a ValueError listing the known ones."""
    path = _HERE / f"{lang}.toml"
    if not path.is_file():
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(languages())})")
    return {str(k): str(v) for k, v in parse_toml(path, str(path)).items()}
