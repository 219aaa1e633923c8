"""Typed reading of a parsed TOML table: raw values in, checked values out, every problem collected.

Each problem is recorded with its key path (e.g. `rows[2].numbers`) so the
loader can report `file: key: what is wrong` lines.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from printgen.errors import shown

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ufffe\uffff]")
_HEX = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})$")
_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string"}
MAX_UNKNOWN = 10
"""Unknown keys of one table named one by one; the rest are counted."""


class Fields:
    """A TOML table at key path `path`; reads typed values and notes problems in `problems`."""

    def __init__(self, data: dict[str, Any], path: str, problems: list[tuple[str, str]]) -> None:
        self.data = data
        self.path = path
        self.problems = problems
        self._seen: set[str] = set()

    def has(self, name: str) -> bool:
        """True when the table sets `name` (for optional keys; the name counts as known)."""
        self._seen.add(name)
        return name in self.data

    def value(self, name: str) -> Any:
        """The raw value of `name` (the caller checks its type), marked as read."""
        self._seen.add(name)
        return self.data.get(name)

    def flag(self, name: str, default: bool = False) -> bool:
        """An optional true/false value."""
        value = self._raw(name, False)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.problem(name, f"must be true or false, not {_show(value)}")
            return default
        return value

    def strings(self, name: str, min_len: int = 1, max_len: int = 64) -> tuple[str, ...] | None:
        """A list of non-empty strings with min_len..max_len entries."""
        value = self._raw(name, True)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.problem(name, f"must be a list of strings, not {_show(value)}")
            return None
        if not min_len <= len(value) <= max_len:
            self.problem(name, f"has {len(value)} entries, expected {min_len}..{max_len}")
            return None
        return tuple(value)

    def key(self, name: str) -> str:
        """The full key path of `name` in this table."""
        return f"{self.path}.{name}" if self.path else name

    def problem(self, name: str, message: str) -> None:
        """Record that key `name` of this table is wrong."""
        self.problems.append((self.key(name), message))

    def _raw(self, name: str, required: bool) -> Any:
        self._seen.add(name)
        if name not in self.data:
            if required:
                self.problem(name, "is missing")
            return None
        return self.data[name]

    def string(self, name: str, default: str | None = None) -> str | None:
        """A non-empty string without control characters."""
        value = self._raw(name, default is None)
        if value is None:
            return default
        if not isinstance(value, str) or not value.strip():
            self.problem(name, f"must be a non-empty string, not {_show(value)}")
            return None
        control = _CONTROL.search(value)
        if control:
            self.problem(name, f"holds the control character U+{ord(control[0]):04X}, which cannot be printed")
            return None
        return value

    def integer(self, name: str, low: int, high: int) -> int | None:
        """An integer in low..high."""
        value = self._raw(name, True)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(name, f"must be an integer, not {_show(value)}")
            return None
        if not low <= value <= high:
            self.problem(name, f"{value} is out of range {low}..{high}")
            return None
        return value

    def number(self, name: str, low: float, high: float) -> float | None:
        """A number (integer or float) in low..high."""
        value = self._raw(name, True)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.problem(name, f"must be a number, not {_show(value)}")
            return None
        if not low <= value <= high:
            self.problem(name, f"{value} is out of range {low:g}..{high:g}")
            return None
        return float(value)

    def colour(self, name: str) -> str | None:
        """An sRGB colour written "#rrggbb", "#rgb" or as a CSS colour name; returned as "#rrggbb"."""
        value = self.string(name)
        if value is None:
            return None
        try:
            return css_colour(value)
        except ValueError as error:
            self.problem(name, str(error))
            return None

    def integers(self, name: str, min_len: int = 1, max_len: int = 64) -> tuple[int, ...] | None:
        """A list of integers with min_len..max_len entries."""
        value = self._raw(name, True)
        if value is None:
            return None
        if not isinstance(value, list):
            self.problem(name, f"must be a list of integers, not {_show(value)}")
            return None
        wrong = next((i for i, v in enumerate(value) if not isinstance(v, int) or isinstance(v, bool)), None)
        if wrong is not None:
            self.problem(f"{name}[{wrong}]", f"must be an integer, not {_show(value[wrong])}")
            return None
        if not min_len <= len(value) <= max_len:
            self.problem(name, f"has {len(value)} entries, expected {min_len}..{max_len}")
            return None
        return tuple(value)

    def table(self, name: str) -> Fields | None:
        """A sub-table."""
        value = self._raw(name, True)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.problem(name, f"must be a table, not {_show(value)}")
            return None
        return Fields(value, self.key(name), self.problems)

    def tables(self, name: str, min_len: int, max_len: int) -> list[Fields]:
        """An array of tables ([[name]] in TOML) with min_len..max_len entries."""
        value = self._raw(name, True)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem(name, f"must be an array of tables ([[{name}]]), not {_show(value)}")
            return []
        if not min_len <= len(value) <= max_len:
            self.problem(name, f"has {len(value)} entries, expected {min_len}..{max_len}")
            return []
        return [Fields(v, f"{self.key(name)}[{i}]", self.problems) for i, v in enumerate(value)]

    def finish(self) -> None:
        """Report every key of this table that nothing read (a typo or an unknown setting).

        A key close to a known one gets "did you mean ...?", and the known key it stands for is then not
        also reported as missing: the user wrote one thing wrong, so one line says so.
        """
        unknown = [name for name in self.data if name not in self._seen]
        for name in unknown[:MAX_UNKNOWN]:
            cut = shown(name)  # (quoted, escaped and cut short where it cannot be shown as it is)
            label = name if name.isprintable() and cut == repr(name) else cut
            close = difflib.get_close_matches(name, sorted(self._seen), n=1, cutoff=0.6)
            if not close:
                self.problem(label, "is not a known key")
                continue
            meant = self.key(close[0])
            self.problems[:] = [(k, m) for k, m in self.problems if (k, m) != (meant, "is missing")]
            self.problem(label, f"is not a known key (did you mean {close[0]}?)")
        if len(unknown) > MAX_UNKNOWN:
            self.problem(f"(and {len(unknown) - MAX_UNKNOWN:,} more keys)", "are not known keys either")


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    kind = _TYPE_NAMES.get(type(value))
    if kind is not None:
        text = repr(value)
        return f"{kind} {text if len(text) <= 30 else text[:27] + '...'}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def css_colour(text: str) -> str:
    """"#rrggbb", "#rgb" or a CSS colour name ("tomato") as "#rrggbb"; ValueError with a hint otherwise."""
    value = text.strip().lower()
    if _HEX.match(value):
        digits = value[1:]
        return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)
    from PIL.ImageColor import colormap

    named = colormap.get(value)
    if isinstance(named, str) and _HEX.match(named):
        return css_colour(named)
    close = difflib.get_close_matches(value, sorted(colormap), n=1, cutoff=0.75)
    hint = f"; did you mean {close[0]}?" if close else ""
    raise ValueError(f"{text!r} is not a colour (write \"#rrggbb\", \"#rgb\" or a CSS colour name{hint})")
