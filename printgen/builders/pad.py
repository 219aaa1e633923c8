"""Pads: a sheet layout, a sheet count, a seed and options in, the stream of sheet items to print out.

Sheets without variable data are one item repeated. Big Points sheets get
lucky pairs dealt from a pool (evenly, never equal on neighbouring sheets);
shuffled Gemixxt B sheets get a new valid number order each. The static art
stays one Symbol either way, so it is drawn once per file.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

from printgen.builders.scoresheet import build_sheet, sheet_extras
from printgen.errors import UsageProblem
from printgen.page import Element, Item
from printgen.rules import qwixx
from printgen.rules.lucky import deal, parse_pool
from printgen.rules.variants import shuffled_numbers

if TYPE_CHECKING:  # the kinds use the builders; the builders only name the kinds' models
    from printgen.kinds.score_sheets import ScoreSheetLayout


def pad_items(layout: ScoreSheetLayout, sheets: int, *, seed: int = 1, lang: str = "en", symbols: bool = False,
              lucky_pool: str = "balanced", shuffle: bool = False, scan_marks: bool = True) -> Iterator[Item]:
    """The `sheets` items of a pad of `layout`, reproducible from `seed` (`scan_marks`: see build_sheet)."""
    spec = qwixx.variant(layout.rules)
    if shuffle and not spec.shuffled_lock_numbers:
        raise UsageProblem(f"--shuffle: {layout.name} sheets cannot be shuffled (only gemixxt-b sheets)")
    pairs: list[tuple[int, int]] | None = None
    if layout.lucky_numbers:
        try:
            pairs = deal(parse_pool(lucky_pool, spec.dice_sides), sheets, seed)
        except ValueError as error:
            raise UsageProblem(f"--lucky-pool: {error}") from None
    base = build_sheet(layout, lang, symbols, static_numbers=not shuffle, scan_marks=scan_marks)
    if pairs is None and not shuffle:
        return (base for _ in range(sheets))
    code = (lang, symbols) if scan_marks else None
    return _varied(layout, base, sheets, seed, pairs, shuffle, spec, code)


def _varied(layout: ScoreSheetLayout, base: Item, sheets: int, seed: int, pairs: list[tuple[int, int]] | None,
            shuffle: bool, spec: qwixx.VariantSpec, code: tuple[str, bool] | None) -> Iterator[Item]:
    rng = random.Random(seed)
    digits = len(str(sheets))
    drawn: dict[tuple[int, int] | None, tuple[Element, ...]] = {}  # each distinct lucky pair's extras, drawn once
    for index in range(sheets):
        numbers = shuffled_numbers(spec, rng) if shuffle else None
        lucky = pairs[index] if pairs else None
        if numbers is None:
            extras = drawn.get(lucky)
            if extras is None:
                extras = drawn[lucky] = sheet_extras(layout, lucky=lucky, code=code)
        else:
            extras = sheet_extras(layout, lucky=lucky, numbers=numbers, code=code)
        yield Item(f"{layout.name}-{index + 1:0{digits}d}", base.art, extras)
