"""Test helpers: hostile pictures and forged sheets — the files an attacker hands `printgen score`.

Each maker returns bytes (or writes a file) small enough to keep in a test, but claiming sizes or holding
content that once made the reader crash, hang or read files it should not.
"""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np

from printgen.builders.geometry import sheet_geometry
from printgen.builders.scoresheet import build_sheet, sheet_extras
from printgen.kinds import ScoreSheetLayout
from printgen.marks.markers import code_mark
from printgen.page import Item


def _chunk(kind: bytes, data: bytes, crc: int | None = None) -> bytes:
    value = zlib.crc32(kind + data) if crc is None else crc
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", value & 0xFFFFFFFF)


def png(width: int, height: int, bad_crc: bool = False, rows: int | None = None) -> bytes:
    """A white greyscale PNG claiming `width` x `height` (only `rows` rows of data present when given), with
    one ancillary chunk whose CRC is wrong when `bad_crc`."""
    lines = height if rows is None else rows
    compressor = zlib.compressobj(9)
    line = b"\x00" + b"\xff" * width
    data = b"".join(compressor.compress(line) for _ in range(lines)) + compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    text = _chunk(b"tEXt", b"Comment\x00hello", crc=1 if bad_crc else None)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + text + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def radiance(width: int, height: int) -> bytes:
    """A Radiance HDR header claiming `width` x `height` pixels, and a few bytes of data."""
    return b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (height, width) + b"\x80" * 64


def jpeg(picture: np.ndarray, quality: int = 90) -> bytes:
    ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return encoded.tobytes()


def float_tiff() -> bytes:
    """A 32-bit float greyscale TIFF (OpenCV warns about such files on stderr)."""
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(np.linspace(0, 1, 200 * 300, dtype=np.float32).reshape(200, 300), mode="F").save(
        buffer, format="TIFF")
    return buffer.getvalue()


def forged(layout: ScoreSheetLayout, text: str, numbers: tuple[tuple[int, ...], ...] | None = None,
           lucky: tuple[int, int] | None = None) -> Item:
    """A blank sheet of `layout` printed with `numbers` (default: the layout's) and `lucky`, carrying the code
    `text` whatever it says."""
    base = build_sheet(layout, "en", False, static_numbers=False)
    printed = numbers or tuple(row.numbers for row in layout.rows)
    extras = (*sheet_extras(layout, lucky=lucky, numbers=printed), code_mark(text, sheet_geometry(layout).code))
    return Item(layout.name, base.art, extras)
