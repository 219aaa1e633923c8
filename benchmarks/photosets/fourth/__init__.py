"""The `fourth` photo set: an index, a seed and a family in, a phone-like photo of filled printgen sheets and its truth out.

See README.md here for how each stage is made.
"""

from __future__ import annotations

from pathlib import Path

FAMILIES: tuple[str, ...] = ("mild", "tilt", "exif", "light", "lens", "degraded", "occluded", "pens", "twoup")


def make(index: int, seed: int, family: str, folder: Path) -> None:
    """Write folder/NNNNNN.jpg (the photo) and folder/NNNNNN.json (its truth), reproducibly from `seed`."""
    from benchmarks.photosets.fourth import recipe

    recipe.make(index, seed, family, Path(folder))
