"""The default print pack: nothing in, the list of (layout, options) jobs that `build --all` runs out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from printgen.build import BuildOptions

PACK: tuple[tuple[str, dict[str, object]], ...] = (
    ("qwixx-standard", {"sheets": 50, "per_page": 2, "formats": ("pdf", "svg")}),
)


def default_pack(out: Path, overrides: Mapping[str, object] | None = None) -> list[tuple[str, BuildOptions]]:
    """The default print pack's jobs writing into `out`; `overrides` (options the user gave) win."""
    jobs = []
    for name, settings in PACK:
        options = replace(BuildOptions(out=out), **settings)  # type: ignore[arg-type]
        if overrides:
            options = replace(options, **overrides)  # type: ignore[arg-type]
        jobs.append((name, options))
    return jobs
