"""A TrueType file in, the code points its Unicode cmap maps to a glyph out (read with struct, in milliseconds).

Checking that a layout's title can be printed needs only a font's
character map; reading it here spares `printgen list` and `show` the import
of reportlab and the registration of both fonts (half a second). A test
holds the result to reportlab's own reading of the bundled fonts.
"""

from __future__ import annotations

import struct
from pathlib import Path

UNICODE_FULL = ((3, 10), (0, 4), (0, 6))
"""(platform, encoding) of subtables covering all of Unicode (format 12), in order of preference."""
UNICODE_BMP = ((3, 1), (0, 3), (0, 2), (0, 1), (0, 0))
"""(platform, encoding) of subtables covering the Basic Multilingual Plane (format 4)."""


class FontFileError(ValueError):
    """A font file whose cmap printgen cannot read."""


def mapped_code_points(path: Path) -> frozenset[int]:
    """Every code point the Unicode cmap of the TrueType font at `path` maps to a glyph other than .notdef."""
    data = path.read_bytes()
    try:
        return _mapped(data)
    except struct.error as error:
        raise FontFileError(f"{path}: its cmap table is cut short") from error


def _mapped(data: bytes) -> frozenset[int]:
    cmap = _table(data, b"cmap")
    _, count = struct.unpack_from(">HH", data, cmap)
    subtables: dict[tuple[int, int], int] = {}
    for index in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * index)
        subtables.setdefault((platform, encoding), cmap + offset)
    for key in (*UNICODE_FULL, *UNICODE_BMP):
        if key in subtables:
            start = subtables[key]
            kind = struct.unpack_from(">H", data, start)[0]
            if kind == 12:
                return _format_12(data, start)
            if kind == 4:
                return _format_4(data, start)
    raise FontFileError("no Unicode cmap of format 4 or 12")


def _table(data: bytes, tag: bytes) -> int:
    """The offset of table `tag` in the font file."""
    count = struct.unpack_from(">H", data, 4)[0]
    for index in range(count):
        name, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        if name == tag:
            return int(offset)
    raise FontFileError(f"no {tag.decode()} table")


def _format_12(data: bytes, start: int) -> frozenset[int]:
    """Segmented coverage: groups of consecutive code points mapped to consecutive glyphs."""
    groups = struct.unpack_from(">I", data, start + 12)[0]
    codes: set[int] = set()
    for index in range(groups):
        first, last, glyph = struct.unpack_from(">III", data, start + 16 + 12 * index)
        codes.update(code for code in range(first, last + 1) if glyph + code - first)
    return frozenset(codes)


def _format_4(data: bytes, start: int) -> frozenset[int]:
    """Segment mapping to delta values: the Basic Multilingual Plane."""
    segments = struct.unpack_from(">H", data, start + 6)[0] // 2
    ends_at = start + 14
    starts_at = ends_at + 2 * segments + 2
    deltas_at = starts_at + 2 * segments
    ranges_at = deltas_at + 2 * segments
    codes: set[int] = set()
    for index in range(segments):
        end = struct.unpack_from(">H", data, ends_at + 2 * index)[0]
        first = struct.unpack_from(">H", data, starts_at + 2 * index)[0]
        delta = struct.unpack_from(">h", data, deltas_at + 2 * index)[0]
        range_offset = struct.unpack_from(">H", data, ranges_at + 2 * index)[0]
        for code in range(first, end + 1):
            if code == 0xFFFF:
                continue
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                at = ranges_at + 2 * index + range_offset + 2 * (code - first)
                glyph = struct.unpack_from(">H", data, at)[0]
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return frozenset(codes)
