"""Lengths as people write them: "3", "3mm", "0.125in", "63x88mm", "2.5x3.5in" in, millimetres out.

A bare number is millimetres. Units: mm, cm, in (or "), pt. Every value must
be a finite number; NaN and infinity are refused here, once, for every format.
"""

from __future__ import annotations

import math
import re

from printgen.errors import shown
from printgen.page import Mm

UNITS: dict[str, float] = {"mm": 1.0, "cm": 10.0, "in": 25.4, '"': 25.4, "pt": 25.4 / 72}
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*(mm|cm|in|\"|pt)?\s*", re.IGNORECASE)
_SIZE = re.compile(rf"\s*({_NUMBER})\s*(mm|cm|in|\"|pt)?\s*[x×]\s*({_NUMBER})\s*(mm|cm|in|\"|pt)?\s*", re.IGNORECASE)
UNIT_HINT = "a number in mm, or with a unit: cm, in or pt"


def length(value: object) -> Mm:
    """`value` (a number in mm, or text such as "3mm", "0.125in") in millimetres; ValueError if it is not one."""
    if isinstance(value, bool):
        raise ValueError(f"{shown(value)} is not a length ({UNIT_HINT})")
    if isinstance(value, int | float):
        return _finite(float(value), value)
    if not isinstance(value, str):
        raise ValueError(f"{shown(value)} is not a length ({UNIT_HINT})")
    match = _LENGTH.fullmatch(value)
    if not match:
        raise ValueError(f"{shown(value)} is not a length ({UNIT_HINT})")
    return _finite(float(match[1]) * UNITS[(match[2] or "mm").lower()], value)


def size(value: str) -> tuple[Mm, Mm]:
    """A "WxH" size ("63x88", "63x88mm", "2.5x3.5in"; a unit after W alone applies to W) in millimetres."""
    match = _SIZE.fullmatch(value)
    if not match:
        raise ValueError(f"{shown(value)} is not WxH ({UNIT_HINT}, e.g. 63x88mm or 2.5x3.5in)")
    w_unit = match[2] or match[4] or "mm"
    h_unit = match[4] or w_unit
    return (_finite(float(match[1]) * UNITS[w_unit.lower()], value),
            _finite(float(match[3]) * UNITS[h_unit.lower()], value))


def _finite(mm: float, value: object) -> float:
    if not math.isfinite(mm):
        raise ValueError(f"{shown(value)} is not a finite length")
    return mm
