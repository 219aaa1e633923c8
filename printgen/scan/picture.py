"""Opening photos from strangers: a path in, its pixels (BGR, turned upright as its EXIF says, bounded in size) or one line saying why not out.

A photo is data from outside, so every step is bounded before it costs
anything: only regular files are opened (never a FIFO or a device, which
could block or never end), at most MAX_BYTES are read, the format is named
by the file's first bytes (JPEG, PNG, WebP, BMP or TIFF; anything else is
refused whatever its name says), and Pillow, the one library that both
reads the header and decodes, must report a size of at most MAX_PIXELS
before a pixel is decoded. Pictures above READ_PIXELS are decoded smaller
(JPEG at a reduced scale straight from the file). Pillow reports damage as
exceptions rather than lines on stderr, so a truncated file costs one line
of printgen's own.
"""

from __future__ import annotations

import io
import os
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

MAX_BYTES = 100 * 2**20
"""Largest photo file read, in bytes (a phone's JPEG is 2-12 MB)."""
MAX_PIXELS = 100_000_000
"""Largest picture read (a phone's 50-megapixel photo is half of it): bigger ones would take gigabytes."""
READ_PIXELS = 26_000_000
"""Pictures larger than this are decoded at a reduced scale: a sheet needs no more, and memory stays bounded."""
BILEVEL_BLUR = 1.0
"""px: the blur (a Gaussian's sigma) that turns a black-and-white scan's dots back into greys, at the picture's
own resolution (a dithered dot is a pixel at any resolution; at 150 dpi a sigma of 2 px blurred the code past
reading, 1 and 1.5 read a dithered and a thresholded scan of a 2-up page right)."""
BILEVEL_SAMPLE = 7
"""Every this many-th byte of a picture is looked at to tell whether it holds only black and white (the first
BILEVEL_FIRST of them first: a photo's tell at once)."""
BILEVEL_FIRST = 1 << 16
SHRUNK_FIRST = ("L", "LA", "RGB", "RGBA", "I", "F")
"""Modes of a picture that Pillow shrinks as they are (a palette's or a one-bit picture's are made RGB first)."""
MIN_SIDE = 64
"""A picture narrower than this on either side cannot hold a readable sheet."""
FORMATS = {"JPEG": "JPEG", "PNG": "PNG", "WEBP": "WebP", "BMP": "BMP", "TIFF": "TIFF", "HEIF": "HEIC"}
"""The formats read (Pillow's names: what people call them). HEIC (iPhones' photos) needs pillow-heif, an
optional wheel (`pip install '.[heic]'` in printgen's folder)."""
HEIF_BRANDS = (b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1")
"""The brands in an ISO media file's `ftyp` box that make it a HEIF picture."""
HEIC_HINT = "a HEIC picture: reading it needs pillow-heif (pip install '.[heic]' in printgen's folder)"


@dataclass(frozen=True)
class Refused:
    """Why a photo was not opened (one line, in printgen's words)."""

    reason: str


def sniff(head: bytes) -> str | None:
    """The format named by a file's first bytes (one of FORMATS), or None."""
    if head.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "WEBP"
    if head.startswith(b"BM"):
        return "BMP"
    if head[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF"
    if head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS:
        return "HEIF"
    return None


def read_bytes(path: Path) -> bytes | Refused:
    """The bytes of the regular file at `path` (at most MAX_BYTES), opened without blocking on a FIFO."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        return Refused(f"cannot be opened: {error.strerror or error}")
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            return Refused("is not a regular file (a FIFO, device or socket is never read)")
        if info.st_size > MAX_BYTES:
            return Refused(f"a file of {info.st_size / 2**20:.0f} MB: photos of at most "
                           f"{MAX_BYTES // 2**20} MB are read")
        with os.fdopen(descriptor, "rb", closefd=False) as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        return Refused(f"cannot be read: {error.strerror or error}")
    finally:
        os.close(descriptor)
    if len(data) > MAX_BYTES:
        return Refused(f"photos of at most {MAX_BYTES // 2**20} MB are read")
    return data


def decode(data: bytes, page: int = 0) -> np.ndarray | Refused:
    """The picture in `data` (its `page`, of a TIFF of several: see `page_sizes`) as an upright BGR uint8
    array, or why not (Pillow's warnings about odd metadata silenced: the one line printgen prints is all a
    user sees of a photo)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _decode(data, page)


def page_sizes(data: bytes, most: int) -> list[tuple[int, int]]:
    """The size (width, height) of each page of the TIFF in `data`, from the headers alone (no pixel is
    decoded), for at most `most` + 1 pages (more than `most`: the rest are not counted); one page where they
    cannot be read (decoding it says what is wrong)."""
    from PIL import Image

    sizes: list[tuple[int, int]] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with Image.open(io.BytesIO(data), formats=["TIFF"]) as picture:
                while len(sizes) <= most:
                    sizes.append(picture.size)
                    picture.seek(len(sizes))
        except MemoryError:
            raise
        except Exception:  # noqa: BLE001, S110 - past the last page (EOFError), or a damaged page chain: the
            pass  # pages found so far, at least the first
    return sizes or [(0, 0)]


def _decode(data: bytes, page: int) -> np.ndarray | Refused:
    import numpy as np
    from PIL import Image

    kind = sniff(data[:16])
    if kind is None:
        return Refused(f"not a picture this reader opens (it reads {', '.join(FORMATS.values())})")
    if kind == "HEIF" and not _heif_opener():
        return Refused(HEIC_HINT)
    guard = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # the size is checked below, before any pixel is decoded
    try:
        with Image.open(io.BytesIO(data), formats=[kind]) as picture:
            if page:
                picture.seek(page)
            width, height = picture.size
            if width * height > MAX_PIXELS:
                return Refused(f"a picture of {width * height / 1e6:.0f} megapixels: at most "
                               f"{MAX_PIXELS / 1e6:.0f} are read (scale it down)")
            if min(width, height) < MIN_SIDE:
                return Refused(f"a picture of {width} x {height} pixels is too small to hold a sheet")
            factor = _reduction(width * height)
            if factor > 1 and kind == "JPEG":  # decoded at 1/2, 1/4 or 1/8 scale straight from the file
                picture.draft("RGB", (-(-width // factor), -(-height // factor)))
            picture.load()
            upright = _upright(picture)
            if factor > 1 and upright.mode in SHRUNK_FIRST:  # (smaller before it is made RGB: a 100-megapixel
                upright = upright.reduce(factor)  # grey PNG of 100 kB would take 300 MB more as RGB)
            rgb = _rgb(upright)
    except Image.DecompressionBombError:  # pragma: no cover - the guard above is off; kept as a second line
        return Refused(f"a picture larger than {MAX_PIXELS / 1e6:.0f} megapixels")
    except MemoryError:
        raise
    except Exception as error:  # noqa: BLE001 - any damage Pillow finds: one line, never a traceback
        return Refused(f"the {FORMATS[kind]} picture is damaged or cut short ({_first_line(error)})")
    finally:
        Image.MAX_IMAGE_PIXELS = guard
    factor = _reduction(rgb.width * rgb.height)
    if factor > 1:
        rgb = rgb.reduce(factor)
    import cv2

    pixels = np.frombuffer(rgb.tobytes(), np.uint8).reshape(rgb.height, rgb.width, 3)
    bgr = np.empty_like(pixels)  # (out of memory: MemoryError, as for any array)
    cv2.cvtColor(pixels, cv2.COLOR_RGB2BGR, dst=bgr)  # OpenCV's channel order, writable
    if _bilevel(bgr):  # a scanner's black-and-white mode: its dots averaged back into greys
        descreen(bgr)
    return bgr


def descreen(pixels: np.ndarray, dot: float = 1.0) -> None:
    """A black-and-white scan's `pixels` (its dots `dot` pixels wide) blurred in place, so that its dots read as
    the greys they stand for (BILEVEL_BLUR)."""
    import cv2

    cv2.GaussianBlur(pixels, (0, 0), BILEVEL_BLUR * max(dot, 1.0), dst=pixels)


def _bilevel(pixels: np.ndarray) -> bool:
    """Whether a picture holds only black and white (every BILEVEL_SAMPLE-th pixel of it): a scan in a scanner's
    black-and-white mode (a fax's TIFF, a 1-bit PNG), which dithers every colour and grey into dots of black. Read
    as it is, a printed band's dots would be ink."""
    import numpy as np

    sample = pixels.reshape(-1)[::BILEVEL_SAMPLE]
    return all(bool(np.all((part == 0) | (part == 255))) for part in (sample[:BILEVEL_FIRST], sample[BILEVEL_FIRST:]))


def _heif_opener() -> bool:
    """Whether Pillow can open HEIF pictures (pillow-heif installed; its opener is registered once)."""
    import importlib.util

    if importlib.util.find_spec("pillow_heif") is None:
        return False
    import pillow_heif

    pillow_heif.register_heif_opener()
    return True


def _reduction(pixels: int) -> int:
    """The smallest power of two that a picture's sides must be divided by to hold at most READ_PIXELS."""
    factor = 1
    while pixels > READ_PIXELS * factor * factor:
        factor *= 2
    return factor


TURNED = range(2, 9)
"""The EXIF orientations (tag 0x0112) that turn or mirror a picture (1, or none, leaves it as it is)."""


def _upright(picture: Image.Image) -> Image.Image:
    """`picture` turned (and mirrored) as its EXIF orientation says; as it is (not copied) when it needs no
    turn or that tag cannot be read."""
    from PIL import ExifTags, ImageOps

    try:
        if picture.getexif().get(ExifTags.Base.Orientation, 1) not in TURNED:
            return picture
        return ImageOps.exif_transpose(picture) or picture
    except Exception:  # noqa: BLE001 - a damaged EXIF block: the pixels are still good
        return picture


def _rgb(picture: Image.Image) -> Image.Image:
    """`picture` as 8-bit RGB (itself when it is), transparency laid on white paper, 16-bit and float greys
    scaled to 8 bits."""
    from PIL import Image

    if picture.mode == "RGB":
        return picture
    if picture.mode in ("RGBA", "LA", "PA") or (picture.mode == "P" and "transparency" in picture.info):
        rgba = picture.convert("RGBA")
        paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(paper, rgba).convert("RGB")
    if picture.mode == "F":  # floats 0..1
        return picture.point(lambda v: v * 255).convert("L").convert("RGB")
    if picture.mode.startswith("I"):  # 16-bit greys
        return picture.point(lambda v: v / 256).convert("L").convert("RGB")
    return picture.convert("RGB")


def _first_line(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:80]


def open_photo(path: Path) -> np.ndarray | Refused:
    """The photo at `path` as an upright BGR uint8 array, or why it was not opened."""
    data = read_bytes(path)
    if isinstance(data, Refused):
        return data
    return decode(data)
