"""TOML files: a path in, its table out, or one line naming the file (and key) that says what is wrong.

The one reader of every TOML file printgen takes (layouts, batch manifests,
printgen.toml, the bundled label catalogues): at most MAX_FILE_BYTES of
UTF-8, at most MAX_DEPTH levels of nesting, and integers within TOML's 64
bits (a longer one is refused, never read as a huge number that overflows
later or trips Python's limit on converting long digit strings).
"""

from __future__ import annotations

import re
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

from printgen.errors import LayoutError

MAX_FILE_BYTES = 1_000_000
MAX_DEPTH = 16
"""Deepest nesting of tables and arrays a layout or manifest may have (printgen's own need 4)."""


def parse_toml(path: Path, name: str) -> dict[str, Any]:
    """The TOML table in regular file `path` (at most MAX_FILE_BYTES, UTF-8); LayoutError naming `name`
    otherwise."""
    try:
        found = path.stat()
        if not stat.S_ISREG(found.st_mode):  # a device or a pipe: never read (/dev/zero would fill the memory)
            raise LayoutError([f"{name}: is not a regular file"])
        if found.st_size > MAX_FILE_BYTES:
            raise LayoutError([f"{name}: file is {found.st_size:,} bytes, layouts are at most {MAX_FILE_BYTES:,}"])
        with path.open("rb") as file:
            raw = file.read(MAX_FILE_BYTES + 1)  # (a file that grew since: no more than that is read)
        if len(raw) > MAX_FILE_BYTES:
            raise LayoutError([f"{name}: file is more than {MAX_FILE_BYTES:,} bytes, the most it may be"])
    except OSError as error:
        if path.is_symlink():  # (its target is missing, or links go round)
            raise LayoutError([f"{name}: is a link that leads to no file"]) from None
        raise LayoutError([f"{name}: cannot read: {error.strerror or error}"]) from None
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")  # editors on Windows start UTF-8 files with a BOM
    except UnicodeDecodeError as error:
        raise LayoutError([f"{name}: byte {error.start}: file is not UTF-8 text"]) from None
    if not text.strip():
        raise LayoutError([f"{name}: file is empty"])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LayoutError([f"{name}: TOML syntax error: {error}"]) from None
    except RecursionError:
        raise LayoutError([f"{name}: nested too deeply (at most {MAX_DEPTH} levels)"]) from None
    except ValueError as error:  # Python reads no decimal integer of more than sys.get_int_max_str_digits() digits
        raise LayoutError([_long_integer(name, text) or f"{name}: cannot read a value: {error}"]) from None
    _walk(data, name)
    return data


INTEGER_BITS = 64
"""TOML integers are 64-bit signed (the TOML spec): a larger one is refused, not read as a huge number."""
_DIGIT_RUN = re.compile(r"[+-]?[0-9][0-9_]*")


def _long_integer(name: str, text: str) -> str | None:
    """The problem with the integer in `text` too long for Python to read, naming its line and key (None if there
    is no such integer)."""
    limit = sys.get_int_max_str_digits()
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _DIGIT_RUN.finditer(line):
            digits = sum(c.isdigit() for c in match[0])
            if digits > limit:
                key = re.match(r"\s*([A-Za-z0-9_.\-\"' ]+?)\s*=", line)
                where = f"line {number}: {key[1].strip()}" if key else f"line {number}"
                return (f"{name}: {where}: an integer of {digits:,} digits is out of range (TOML integers are "
                        f"{INTEGER_BITS}-bit)")
    return None


def _walk(data: dict[str, Any], name: str) -> None:
    """LayoutError if tables and arrays nest deeper than MAX_DEPTH in `data` or an integer in it is out of TOML's
    64-bit range (checked without recursion; the key is named as `rows[2].numbers[0]`)."""
    stack: list[tuple[object, int, str]] = [(data, 0, "")]
    while stack:
        value, level, key = stack.pop()
        if level > MAX_DEPTH:
            raise LayoutError([f"{name}: nested too deeply (at most {MAX_DEPTH} levels)"])
        if isinstance(value, dict):
            stack += [(v, level + 1, f"{key}.{k}" if key else str(k)) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [(v, level + 1, f"{key}[{i}]") for i, v in enumerate(value)]
        elif isinstance(value, int) and not isinstance(value, bool) and not (
                -(2 ** (INTEGER_BITS - 1)) <= value < 2 ** (INTEGER_BITS - 1)):
            problem = f"an integer of {_digits(value)} digits is out of range (TOML integers are {INTEGER_BITS}-bit)"
            raise LayoutError([f"{name}: {key}: {problem}"])


def _digits(value: int) -> str:
    try:
        return f"{len(str(abs(value))):,}"
    except ValueError:  # more digits than Python writes out
        return f"more than {sys.get_int_max_str_digits():,}"
