"""The default print pack: nothing in, the list of (layout, options) jobs that `build --all` runs out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from printgen.build import BuildOptions

_PAD = {"sheets": 50, "per_page": 2, "formats": ("pdf", "svg")}
PACK: tuple[tuple[str, dict[str, object]], ...] = (
    ("qwixx-standard", _PAD),
    ("qwixx-big-points", _PAD),
    ("qwixx-gemixxt-a", _PAD),
    ("qwixx-gemixxt-b", _PAD),
    ("qwixx-bonus-a", _PAD),
    ("qwixx-bonus-b", _PAD),
    ("qwixx-cards", _PAD),
    ("qwixx-cards-deck", {"formats": ("pdf", "svg")}),
    ("one-to-9-deck", {"formats": ("pdf", "svg")}),
    ("one-to-9-board", {"formats": ("pdf", "svg")}),
    ("one-to-9-stars", {"formats": ("pdf", "svg")}),
)
"""Every score sheet as a 50-sheet pad (2 per page) plus its SVG (Big Points sheets each with their lucky
pair); both decks for long-edge duplex on A4 with their card SVGs; the One to 9 board whole on the smallest
paper it fits (A1) and its star tokens."""


def default_pack(out: Path, overrides: Mapping[str, object] | None = None) -> list[tuple[str, BuildOptions]]:
    """The default print pack's jobs writing into `out`; `overrides` (options the user gave) win."""
    jobs = []
    for name, settings in PACK:
        options = replace(BuildOptions(out=out), **settings)  # type: ignore[arg-type]
        if overrides:
            options = replace(options, **overrides)  # type: ignore[arg-type]
        jobs.append((name, options))
    return jobs
