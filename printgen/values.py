"""Option values: a raw value (text from the command line, or a TOML value) in, the checked value out.

Each parser raises ValueError with what is wrong; the caller names where
the value came from (a flag, a manifest key, a config file). The same
parser serves the command line, batch manifests, `printgen.toml` and layout
files, so a value means the same everywhere.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Iterable

from printgen import lengths
from printgen.errors import UsageProblem, shown, utf8_name

NAME_MAX = 255
"""Bytes: the longest file or folder name most file systems hold (printgen's own files keep to fewer, see
`printgen.output.MAX_NAME`)."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffe\uffff]")


def text(value: object) -> str:
    """Free text: a string, not empty, without control characters (stripped)."""
    if not isinstance(value, str):
        raise ValueError(f"must be text, not {shown(value)}")
    if _CONTROL.search(value):
        raise ValueError(f"{shown(value)} holds a control character")
    if not value.strip():
        raise ValueError("must not be empty")
    return value.strip()


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """" (did you mean X?)" for the closest of `known` to a misspelt `word`, or ""."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def choice(values: Iterable[str]) -> Callable[[object], str]:
    """A parser accepting one of `values`, in any letter case (its `choices` attribute lists them)."""
    known = tuple(values)

    def parse(value: object) -> str:
        word = text(value).lower()
        if word not in known:
            several = [part for part in re.split(r"[,;+ ]+", word) if part]
            hint = " (give one value)" if len(several) > 1 and set(several) <= set(known) else did_you_mean(word, known)
            raise ValueError(f"{shown(value)} is not one of {', '.join(known)}{hint}")
        return word

    parse.choices = known  # type: ignore[attr-defined]
    return parse


def integer(low: int, high: int, ranges: str = "") -> Callable[[object], int]:
    """A parser accepting a whole number in low..high (`ranges`: what is in range, in words, where the kinds that
    take it differ)."""

    def parse(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{shown(value)} is not a whole number")
        digits = value.strip().replace("_", "") if isinstance(value, str) else None
        if digits is not None and not digits.isascii():  # (int() takes any script's digits: -n ٤ made 4 sheets)
            raise ValueError(f"{shown(value)}: write whole numbers with the digits 0 to 9")
        if digits is not None and len(digits.lstrip("+-")) > 40:
            raise ValueError(f"a number of {len(digits):,} digits is out of range {low:,}..{high:,}")
        try:
            number = int(digits) if digits is not None else int(value)
        except ValueError:
            raise ValueError(f"{shown(value)} is not a whole number") from None
        if not low <= number <= high:
            raise ValueError(f"{shown(number)} is out of range {ranges or f'{low:,}..{high:,}'}")
        return number

    return parse


def length(low: float, high: float) -> Callable[[object], float]:
    """A parser accepting a length (mm by default, or with a unit) in low..high mm."""

    def parse(value: object) -> float:
        mm = lengths.length(value) + 0.0  # (-0 is 0: it names no file "bleed-0mm")
        if not low <= mm <= high:
            written = f"{value:g} mm" if isinstance(value, int | float) else str(value).strip()
            written = written if not written.replace(".", "").lstrip("-").isdigit() else f"{written} mm"
            raise ValueError(f"{written} is outside {low:g}..{high:g} mm")
        return mm

    return parse


def offset(value: object) -> tuple[float, float]:
    """An "X,Y" pair of lengths (or two numbers in mm), each within ±20 mm."""
    parts = list(value) if isinstance(value, tuple) and len(value) == 2 else text(value).split(",")
    if len(parts) != 2:
        raise ValueError(f"{shown(value)} is not two lengths X,Y (e.g. 0.5,-1 in mm)")
    x, y = (lengths.length(part) for part in parts)
    if abs(x) > 20 or abs(y) > 20:
        raise ValueError(f"{shown(value)} is more than 20 mm; measure again on the alignment page (--alignment-page)")
    return (x, y)


def flag(value: object) -> bool:
    """A switch: true or false."""
    if not isinstance(value, bool):
        quoted = " (without quotes: a TOML true or false)" if isinstance(value, str) and value.strip().lower() in (
            "true", "false") else ""
        raise ValueError(f"must be true or false, not {shown(value)}{quoted}")
    return value


def card_size(value: object) -> str:
    """A card size: poker, bridge, mini, or WxH with an optional unit (checked to be a usable size)."""
    from printgen.printing.card_grid import card_size as measure

    written = text(value)
    try:
        measure(written)
    except UsageProblem as error:
        raise ValueError(str(error).removeprefix("--card-size: ")) from None
    return written.lower()


def name(value: object) -> str:
    """An output name: a file name without extension, or a path (folder and name)."""
    written = text(value)
    if "\x00" in written:
        raise ValueError("holds a NUL character")
    try:
        utf8_name(written, "a name printgen writes")
    except UsageProblem as problem:
        raise ValueError(str(problem)) from None
    for part in re.split(r"[/\\]", written):
        if len(part.encode("utf-8", "surrogateescape")) > NAME_MAX:
            raise ValueError(f"{part[:40]}...: a file or folder name is at most {NAME_MAX} bytes long")
    return written


def file_name(value: object) -> str:
    """An output name (`name`) whose file name, its last part, is at most MAX_NAME bytes long (with the
    extension added, printgen writes no longer one)."""
    from printgen.output import MAX_NAME

    written = name(value)
    last = re.split(r"[/\\]", written)[-1]
    if len(last.encode("utf-8", "surrogateescape")) > MAX_NAME:
        raise ValueError(f"{last[:40]}...: a file name is at most {MAX_NAME} bytes long")
    return written


def lucky_pool(value: object) -> str:
    """A lucky pool: balanced, all, or pairs 5-10,6-11,... (the pairs themselves are checked when dealt)."""
    pool = text(value).lower()
    if pool in ("balanced", "all"):
        return pool
    if not re.fullmatch(r"\d+-\d+(,\d+-\d+)*", pool.replace(" ", "")):
        raise ValueError(f"{shown(value)} is not balanced, all or a list of pairs like 5-10,6-11")
    return pool.replace(" ", "")


def picture_file(value: object) -> str:
    """A file to draw into: its name must end in .pdf, .svg or .png (the format follows it)."""
    path = name(value)
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    if os.path.isdir(path):
        raise ValueError(f"{shown(value)} is a folder: give the file to draw into (game.pdf, game.svg or game.png)")
    if suffix not in ("pdf", "svg", "png"):
        raise ValueError(f"{shown(value)}: the file must end in .pdf, .svg or .png (the format follows the "
                         "extension)")
    return path
