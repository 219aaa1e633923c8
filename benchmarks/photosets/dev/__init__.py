"""Photo set `dev`: realistic phone photos of filled printgen score sheets with exact truths, by family."""

from __future__ import annotations

from pathlib import Path

import numpy as np

FAMILIES: tuple[str, ...] = ("mild", "tilt", "exif", "light", "lens", "degraded", "occluded", "pens", "twoup")


def make(index: int, seed: int, family: str, folder: Path) -> None:
    """Write folder/f"{index:06d}.jpg" (the photo) and folder/f"{index:06d}.json" (its truth), reproducibly
    from `seed`."""
    from benchmarks.photosets.dev.photo import make_photo
    from benchmarks.photosets.dev.recipe import recipe

    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r} (the dev set makes {', '.join(FAMILIES)})")
    rng = np.random.default_rng([seed, FAMILIES.index(family)])
    folder = Path(folder)
    make_photo(recipe(family, rng), rng, folder / f"{index:06d}.jpg", folder / f"{index:06d}.json")
