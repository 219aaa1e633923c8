"""Layout lookup: a built-in name or a file path in, the validated layout model out."""

from __future__ import annotations

from pathlib import Path

from printgen.errors import UsageProblem, display_name, utf8_name
from printgen.kinds import Layout, kind_of
from printgen.layouts.loader import load_file
from printgen.resources import resource_dir

__all__ = ["Layout", "UnknownLayout", "builtin_names", "describe", "load", "resolve"]


class UnknownLayout(UsageProblem):
    """A layout name that is neither built in nor an existing file."""


def builtin_names() -> list[str]:
    """Names of every bundled layout, sorted."""
    return sorted(p.stem for p in resource_dir("layouts").glob("*.toml"))


def resolve(name_or_path: str) -> tuple[Path, str]:
    """The file behind a built-in name or a path, and how to name it in messages."""
    if not name_or_path.strip():  # (an empty path is the current folder's)
        raise UnknownLayout("an empty layout name: give a built-in layout's name (printgen list shows them) or a "
                            "layout file, NAME.toml")
    candidate = Path(name_or_path)
    builtin = resource_dir("layouts") / f"{name_or_path}.toml"
    here = candidate.exists() or candidate.is_symlink()  # (a file of that name here, not a built-in one: that file)
    if name_or_path.endswith((".toml", "/")) or candidate.parent != Path(".") or (here and not builtin.is_file()):
        utf8_name(name_or_path, "a layout file's name")
        if not name_or_path.isprintable():  # (its name names the files built from it, and is shown in messages)
            raise UnknownLayout(f"{display_name(name_or_path)!r}: a layout file's name may not hold control "
                                "characters such as a line break (rename it)")
        if candidate.is_file():
            if candidate.suffix and candidate.suffix.lower() != ".toml":  # (a photo or a PDF given by mistake)
                raise UnknownLayout(f"{name_or_path}: is not a layout file (layout files are TOML, NAME.toml)")
            return candidate, name_or_path
        if candidate.is_dir():
            raise UnknownLayout(f"{name_or_path}: is a folder, not a layout file")
        if candidate.exists():
            raise UnknownLayout(f"{name_or_path}: is not a regular file")
        if candidate.is_symlink():  # (a link whose target is missing, or that leads back to itself)
            raise UnknownLayout(f"{name_or_path}: is a link that leads to no file (its target is missing, or the "
                                "links go round in a loop)")
        raise UnknownLayout(f"{name_or_path}: no such layout file{_with_suffix(name_or_path)}")
    if builtin.is_file():
        return builtin, f"layouts/{name_or_path}.toml"
    from printgen.values import did_you_mean

    hint = " (to build the whole default pack, use --all)" if name_or_path.lower() in ("all", "every") else \
        _with_suffix(name_or_path) or did_you_mean(name_or_path, builtin_names())
    raise UnknownLayout(f"unknown layout {name_or_path!r}{hint}; known layouts: {', '.join(builtin_names())}")


def _with_suffix(name: str) -> str:
    """A hint naming `name`.toml where that file exists (the suffix left off), or the built-in layout a missing
    NAME.toml names (the suffix given to a built-in name), else nothing."""
    if Path(f"{name}.toml").is_file():
        return f" (did you mean {name}.toml?)"
    stem = name.removesuffix(".toml")
    return f" (did you mean the built-in {stem}?)" if stem != name and stem in builtin_names() else ""


def load(name_or_path: str) -> Layout:
    """Load and validate a built-in layout by name, or a layout file by path."""
    path, shown = resolve(name_or_path)
    return load_file(path, shown)


def describe(layout: Layout) -> str:
    """A few words on what `layout` prints and how big (for `printgen list`)."""
    return kind_of(layout).describe(layout)
