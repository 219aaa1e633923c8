"""`printgen show`: a layout name or file in, lines describing its kind, size, options and every key out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from printgen import layouts
from printgen.options import options_for


def show_layout(ref: str) -> list[str]:
    """What `printgen show` prints for `ref` (validated first: an invalid file is refused as by `build`)."""
    from printgen.tomlfile import parse_toml

    layout = layouts.load(ref)
    path, shown = layouts.resolve(ref)
    where = shown if Path(shown) == path else f"built in: {path}"
    lines = [f"{layout.name}  ({where})", f"  kind     {layout.kind}", f"  what     {layout.description}",
             f"  size     {layouts.describe(layout)}", "", "options (printgen build NAME ...):"]
    for option in options_for(layout.kind, layout):
        flags = ", ".join(option.flags)
        value = f" {option.metavar}" if option.metavar and not option.switch else ""
        if option.off:
            flags += f" / {option.off}"
        lines.append(f"  {flags + value:<34} {option.help}")
    lines += ["", "keys (as in the file):"]
    lines += [f"  {key} = {value}" for key, value in _flatten(parse_toml(path, shown))]
    return lines


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Every leaf of a TOML table as (key.path, value in TOML-like notation)."""
    found: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _flatten(value, f"{prefix}.{key}" if prefix else key)
    elif isinstance(data, list) and data and all(isinstance(v, dict) for v in data):
        for index, value in enumerate(data):
            found += _flatten(value, f"{prefix}[{index}]")
    else:
        found.append((prefix, json.dumps(data, ensure_ascii=False)))
    return found
