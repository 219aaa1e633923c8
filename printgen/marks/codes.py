"""Sheet codes: a sheet's identity (layout, version, language, per-sheet data) in, a short QR text and module grid out, and back.

The text is kept in QR's alphanumeric alphabet so that it fits a version 1
or 2 code (21 or 25 modules), whose modules stay large enough to read from a
phone photo: `$STANDARD:K7Z:EN`, `$BIG-POINTS:K7Z:EN:L5A`,
`$GEMIXXT-B:K7Z:EN*:S...`. `$` stands for the `qwixx-` prefix, `*` for
colour symbols, `L` + two base-36 digits for the lucky pair, `S` + base 36 for
the rank of each row's shuffled order.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from printgen.kinds.score_sheets import ScoreSheetLayout

PREFIX = "qwixx-"
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class CodeError(ValueError):
    """A text that is not a printgen sheet code."""


@dataclass(frozen=True, slots=True)
class SheetCode:
    """What a sheet's code says: its layout and version, language, colour symbols and own data."""

    layout: str
    version: str
    lang: str = "en"
    symbols: bool = False
    lucky: tuple[int, int] | None = None
    numbers: tuple[tuple[int, ...], ...] | None = None
    """A shuffled sheet's numbers, every row in printed order."""

    def text(self, layout: ScoreSheetLayout) -> str:
        """The code's text (`layout` gives the reference order of shuffled rows)."""
        name = self.layout.upper()
        if name.startswith(PREFIX.upper()):
            name = "$" + name[len(PREFIX):]
        parts = [name, self.version, self.lang.upper() + ("*" if self.symbols else "")]
        if self.lucky is not None:
            parts.append("L" + "".join(DIGITS[n] for n in self.lucky))
        if self.numbers is not None:
            parts.append("S" + _base36(_rank_rows(layout, self.numbers)))
        return ":".join(parts)

    def data(self) -> dict[str, object]:
        """The per-sheet data as plain values (JSON)."""
        found: dict[str, object] = {"version": self.version, "lang": self.lang, "symbols": self.symbols}
        if self.lucky is not None:
            found["lucky"] = list(self.lucky)
        if self.numbers is not None:
            found["numbers"] = [list(row) for row in self.numbers]
        return found


def layout_name(text: str) -> str:
    """The layout named by a code's text (lower case, `$` spelt out); CodeError if it is no sheet code."""
    parts = text.strip().split(":")
    if len(parts) < 3 or not parts[0] or not parts[1]:
        raise CodeError(f"{_shown(text)} is not a printgen sheet code")
    name = parts[0].lower()
    return PREFIX + name[1:] if name.startswith("$") else name


def parse(text: str, layout: ScoreSheetLayout) -> SheetCode:
    """The SheetCode in `text`, a code of `layout`; CodeError if it is not a code printgen prints for that
    layout. A code comes from a photo, so every part is checked against fixed tables: the language is one
    printgen ships, and per-sheet data is accepted only where the layout's sheets differ (lucky numbers on a
    lucky-number layout, which always has them; a shuffled order on a layout that can be shuffled)."""
    from printgen.labels import languages
    from printgen.rules.variants import variant

    parts = text.strip().split(":")
    if layout_name(text) != layout.name.lower():
        raise CodeError(f"{_shown(text)} names layout {layout_name(text)[:40]}, not {layout.name}")
    if len(parts[1]) != 3 or any(c not in DIGITS for c in parts[1]):
        raise CodeError(f"{_shown(parts[1])} is not a layout version")
    lang = parts[2].removesuffix("*").lower()
    if lang not in languages():
        raise CodeError(f"{_shown(parts[2])} is not a language printgen prints ({', '.join(languages())})")
    spec = variant(layout.rules)
    lucky: tuple[int, int] | None = None
    numbers: tuple[tuple[int, ...], ...] | None = None
    for part in parts[3:]:
        if part[:1] == "L" and lucky is None and len(part) == 3 and all(c in DIGITS for c in part[1:]):
            if not layout.lucky_numbers:
                raise CodeError(f"lucky numbers on {layout.name}, whose sheets have none")
            lucky = (DIGITS.index(part[1]), DIGITS.index(part[2]))
            if lucky[0] == lucky[1] or not all(n in spec.possible_sums for n in lucky):
                raise CodeError(f"{lucky[0]} and {lucky[1]} are not two different possible sums "
                                f"{spec.possible_sums.start}..{spec.possible_sums.stop - 1}")
        elif part[:1] == "S" and numbers is None and 1 < len(part) <= 40 and all(c in DIGITS for c in part[1:]):
            if not spec.shuffled_lock_numbers:
                raise CodeError(f"a shuffled order on {layout.name}, whose numbers are never shuffled")
            numbers = _unrank_rows(layout, int(part[1:], 36))
        else:
            raise CodeError(f"cannot read {_shown(part)}")
    if layout.lucky_numbers and lucky is None:
        raise CodeError(f"no lucky numbers, which every {layout.name} sheet has")
    return SheetCode(layout.name, parts[1], lang, parts[2].endswith("*"), lucky, numbers)


def _shown(text: str) -> str:
    """Outside text in a message: quoted, its control characters escaped, at most 40 characters."""
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


@cache
def layout_version(layout: ScoreSheetLayout, geometry: object) -> str:
    """Three base-36 digits that change whenever a field of `layout` moves or changes meaning.

    `geometry` is where the builder puts the sheet's fields (`printgen.builders.geometry.sheet_geometry`
    of `layout`); its repr is part of what is hashed, so moving a field in the builder's code changes the
    version too. The caller passes it in: the builder prints these codes, so this module must not import it."""
    fields = (layout.width, layout.height, layout.rows, layout.penalties, layout.points_table,
              layout.lucky_numbers, layout.bonus_row, geometry)
    digest = int(hashlib.sha1(repr(fields).encode(), usedforsecurity=False).hexdigest(), 16)
    return _base36(digest % 36**3).rjust(3, "0")


MASK = 0
"""Every code uses mask pattern 0: searching for the best mask costs more than drawing the rest of a pad's
sheet, and a reader that knows where each module is has no use for it."""


def modules(text: str, version: int | None = None) -> tuple[tuple[bool, ...], ...]:
    """The QR module grid (True = dark) of `text` at error-correction level M, in the smallest version
    that holds it unless `version` is given."""
    return _modules(text, version)


@cache
def _qr_encoder() -> Any:
    """reportlab's QR encoder module (pure Python, needing only `re` and `itertools`), loaded from its file on
    its own: importing it as `reportlab.graphics.barcode.qrencoder` runs the barcode package, which loads every
    barcode widget, shapes and platypus first (a third of a small build's start-up)."""
    import importlib.util
    import sys

    import reportlab.graphics

    path = Path(reportlab.graphics.__file__).parent / "barcode" / "qrencoder.py"
    spec = importlib.util.spec_from_file_location(QR_MODULE, path)
    if spec is None or spec.loader is None or not path.is_file():  # another layout of reportlab: the usual way
        from reportlab.graphics.barcode import qrencoder

        return qrencoder
    module = importlib.util.module_from_spec(spec)
    sys.modules[QR_MODULE] = module
    spec.loader.exec_module(module)
    return module


QR_MODULE = "printgen._reportlab_qrencoder"
"""The name reportlab's QR encoder is loaded under by `_qr_encoder`."""


@cache
def _modules(text: str, version: int | None) -> tuple[tuple[bool, ...], ...]:
    qrencoder = _qr_encoder()
    code = qrencoder.QRCode(version, qrencoder.QRErrorCorrectLevel.M)
    code.addData(text)
    code.version = version or code.calculate_version()
    code.makeImpl(False, MASK)
    count = code.getModuleCount()
    return tuple(tuple(bool(code.isDark(r, c)) for c in range(count)) for r in range(count))


def _base36(value: int) -> str:
    digits = ""
    while True:
        value, rest = divmod(value, 36)
        digits = DIGITS[rest] + digits
        if not value:
            return digits


def _movable(layout: ScoreSheetLayout) -> list[tuple[int, ...]]:
    """Each row's numbers that a shuffle moves (all but the last), in the layout's order."""
    return [row.numbers[:-1] for row in layout.rows]


def _rank_rows(layout: ScoreSheetLayout, numbers: tuple[tuple[int, ...], ...]) -> int:
    value = 0
    for reference, order in zip(_movable(layout), numbers):
        value = value * math.factorial(len(reference)) + _rank(order[:-1], reference)
    return value


def _unrank_rows(layout: ScoreSheetLayout, value: int) -> tuple[tuple[int, ...], ...]:
    rows: list[tuple[int, ...]] = []
    for reference, row in zip(reversed(_movable(layout)), reversed(layout.rows)):
        value, rank = divmod(value, math.factorial(len(reference)))
        rows.insert(0, (*_unrank(rank, reference), row.numbers[-1]))
    if value:
        raise CodeError("the shuffled order does not fit the layout")
    return tuple(rows)


def _rank(order: tuple[int, ...], reference: tuple[int, ...]) -> int:
    """The position of permutation `order` of `reference` in lexicographic order (of reference positions)."""
    if sorted(order) != sorted(reference):
        raise CodeError(f"{list(order)} is not an order of {list(reference)}")
    left = list(reference)
    rank = 0
    for number in order:
        index = left.index(number)
        rank = rank * len(left) + index
        left.pop(index)
    return rank


def _unrank(rank: int, reference: tuple[int, ...]) -> tuple[int, ...]:
    left = list(reference)
    picks: list[int] = []
    for size in range(1, len(left) + 1):
        rank, index = divmod(rank, size)
        picks.append(index)
    return tuple(left.pop(index) for index in reversed(picks))
