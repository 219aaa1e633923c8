"""Opening photos from strangers: only regular files, only the formats meant, the size checked from the header
before a pixel is decoded, damage reported in one line of printgen's own, EXIF turns applied."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from tests.scan.conftest import NEEDS_SCAN

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from printgen.errors import display_name
from printgen.scan import picture
from printgen.scan.picture import Refused, decode, open_photo, read_bytes
from tests.scan.hostile import float_tiff, jpeg, png, radiance


def refused(result: object, *words: str) -> str:
    assert isinstance(result, Refused), f"decoded: {type(result)}"
    assert "\n" not in result.reason
    for word in words:
        assert word in result.reason
    return result.reason


def test_a_png_with_a_bad_ancillary_crc_is_refused_not_decoded_past_the_limit() -> None:
    data = png(11_000, 10_000, bad_crc=True, rows=50)  # 110 megapixels in a small file
    assert len(data) < 200_000
    refused(decode(data), "PNG", "damaged")


def test_a_png_over_the_pixel_limit_is_refused_from_its_header() -> None:
    refused(decode(png(12_000, 10_000, rows=10)), "120 megapixels", "at most 100")


def test_a_radiance_picture_named_jpg_is_refused_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(radiance(30_000, 30_000))
    refused(open_photo(path), "not a picture this reader opens", "JPEG")


@pytest.mark.parametrize("data", [b"", b"\xff\xd8\xff", b"GIF89a" + bytes(40), os.urandom(3000),
                                  b"BM" + bytes(60), b"II*\x00" + bytes(60), b"RIFF\x00\x00\x00\x00WEBPVP8 "])
def test_junk_in_any_format_is_one_line(data: bytes) -> None:
    refused(decode(data))


def test_a_truncated_jpeg_is_one_line_and_nothing_on_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    data = jpeg(np.full((400, 600, 3), 200, np.uint8))
    refused(decode(data[: len(data) // 2]), "JPEG", "damaged or cut short")
    assert capfd.readouterr().err == ""


def test_a_truncated_png_is_one_line_and_nothing_on_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    data = png(600, 400)
    refused(decode(data[: len(data) - 40]), "PNG")
    assert capfd.readouterr().err == ""


def test_a_float_tiff_is_read_as_greys_without_library_lines(capfd: pytest.CaptureFixture[str]) -> None:
    pixels = decode(float_tiff())
    assert not isinstance(pixels, Refused)
    assert pixels.shape == (200, 300, 3) and pixels.dtype == np.uint8
    assert pixels[0, 0, 0] < 5 and pixels[-1, -1, 0] > 250
    assert capfd.readouterr().err == ""


@pytest.mark.parametrize("size", [(1, 100_000), (100_000, 1), (30, 2000)])
def test_a_picture_too_thin_to_hold_a_sheet_is_refused(size: tuple[int, int]) -> None:
    refused(decode(png(*size)), "too small")


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(open_photo(fifo)), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "opening a FIFO blocked"
    refused(result[0], "not a regular file")


def test_a_device_is_refused() -> None:
    refused(read_bytes(Path("/dev/zero")), "not a regular file")


def test_a_file_over_the_byte_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.jpg"
    path.write_bytes(b"\xff\xd8\xff" + bytes(5000))
    monkeypatch.setattr(picture, "MAX_BYTES", 4000)
    refused(read_bytes(path), "MB")


def test_a_large_jpeg_is_decoded_smaller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(picture, "READ_PIXELS", 100_000)
    pixels = decode(jpeg(np.full((800, 1200, 3), 128, np.uint8)))
    assert not isinstance(pixels, Refused)
    assert pixels.shape[0] * pixels.shape[1] <= 100_000 and pixels.shape[1] / pixels.shape[0] == pytest.approx(1.5)


@pytest.mark.parametrize("mode", ["L", "RGBA", "I;16", "P"])
def test_a_large_picture_of_any_mode_is_shrunk_and_a_grey_one_before_it_is_made_colour(
        monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """A 100-megapixel grey PNG of 100 kB took 300 MB more made RGB at full size (a helper's upload bomb)."""
    import io

    from PIL import Image

    made: list[tuple[str, tuple[int, int]]] = []
    original = picture._rgb
    monkeypatch.setattr(picture, "_rgb", lambda p: made.append((p.mode, p.size)) or original(p))
    monkeypatch.setattr(picture, "READ_PIXELS", 100_000)
    buffer = io.BytesIO()
    Image.new("RGB", (1200, 800), (200, 120, 40)).convert(mode).save(buffer, "PNG")
    pixels = decode(buffer.getvalue())
    assert not isinstance(pixels, Refused)
    assert pixels.shape[0] * pixels.shape[1] <= 100_000 and pixels.shape[1] / pixels.shape[0] == pytest.approx(1.5)
    assert made[0][1] == ((300, 200) if mode in ("L", "RGBA") else (1200, 800))  # (Pillow shrinks neither as is)


def test_exif_orientation_and_mirroring_are_applied() -> None:
    from PIL import Image

    source = np.zeros((100, 200, 3), np.uint8)
    source[:20, :40] = (0, 0, 255)  # a red mark at the top left (RGB)
    for orientation, corner in ((1, (0, 0)), (2, (0, -1)), (3, (-1, -1)), (6, (0, -1)), (8, (-1, 0))):
        buffer = io.BytesIO()
        exif = Image.Exif()
        exif[0x0112] = orientation
        Image.fromarray(source).save(buffer, format="PNG", exif=exif)
        pixels = decode(buffer.getvalue())
        assert not isinstance(pixels, Refused)
        assert pixels.shape[:2] == ((200, 100) if orientation in (6, 8) else (100, 200))
        y, x = corner
        assert pixels[y, x, 0] > 200 and pixels[y, x, 2] < 50, orientation  # BGR: red is the last channel


def test_transparency_lies_on_white_paper() -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGBA", (100, 80), (0, 0, 0, 0)).save(buffer, format="PNG")
    pixels = decode(buffer.getvalue())
    assert not isinstance(pixels, Refused) and int(pixels.min()) == 255


def test_names_that_are_not_utf8_are_shown_escaped() -> None:
    assert display_name(Path(os.fsdecode(b"night/\xff\xfe-sheet.jpg"))) == "night/\\xff\\xfe-sheet.jpg"
    assert display_name("caf\u00e9.jpg") == "caf\u00e9.jpg"


def test_warnings_about_odd_metadata_are_silenced() -> None:
    import warnings

    data = bytearray(float_tiff())
    data[8:12] = b"\xff\xff\xff\x0f"  # a tag whose data is claimed far past the end of the file
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        decode(bytes(data))
    assert not caught
