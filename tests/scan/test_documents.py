"""Photo files of every kind: a scanner app's PDF or a scanner's TIFF is read page by page (bounded), HEIC where pillow-heif is
installed (one line saying how to get it where not), EXIF turns honoured in what is read and in annotations."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.scan.conftest import NEEDS_SCAN

np = pytest.importorskip("numpy", reason=NEEDS_SCAN)
cv2 = pytest.importorskip("cv2", reason=NEEDS_SCAN)

from PIL import Image

from printgen.cli import main
from printgen.scan import documents, picture
from printgen.scan.documents import pictures
from printgen.scan.picture import Refused


def pdf(*pages: Image.Image) -> bytes:
    """A PDF such as a scanner app writes: one picture a page."""
    buffer = io.BytesIO()
    pages[0].save(buffer, format="PDF", save_all=True, append_images=list(pages[1:]), resolution=200)
    return buffer.getvalue()


def test_each_page_of_a_pdf_is_a_picture_named_by_its_page(demo: Any) -> None:
    photo = Image.open(io.BytesIO(demo.jpeg))
    found = list(pictures(pdf(photo, Image.new("RGB", (800, 600), "white")), "scan.pdf"))
    assert [name for name, _ in found] == ["scan.pdf [page 1 of 2]", "scan.pdf [page 2 of 2]"]
    first = found[0][1]
    assert isinstance(first, np.ndarray) and first.shape[1] == pytest.approx(photo.size[0], abs=2)
    original = cv2.imdecode(np.frombuffer(demo.jpeg, np.uint8), cv2.IMREAD_COLOR)  # BGR, as OpenCV reads it
    assert np.abs(first.reshape(-1, 3).mean(axis=0) - original.reshape(-1, 3).mean(axis=0)).max() < 2


def test_a_long_pdf_is_read_up_to_its_limit_and_the_rest_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents, "MAX_PAGES", 2)
    page = Image.new("RGB", (400, 300), "white")
    found = list(pictures(pdf(page, page, page, page, page), "long.pdf"))
    assert [name for name, _ in found] == ["long.pdf [page 1 of 5]", "long.pdf [page 2 of 5]", "long.pdf"]
    last = found[-1][1]
    assert isinstance(last, Refused) and last.reason.startswith("3 more pages not read: at most 2 pages")


def test_a_huge_pdf_page_is_rendered_within_the_pixel_budget() -> None:
    page = Image.new("RGB", (1200, 1200), "white")
    buffer = io.BytesIO()
    page.save(buffer, format="PDF", resolution=2)  # 600 x 600 inches
    ((_, pixels),) = list(pictures(buffer.getvalue(), "poster.pdf"))
    assert isinstance(pixels, np.ndarray) and pixels.shape[0] * pixels.shape[1] <= picture.READ_PIXELS


def test_a_tiny_pdf_of_huge_pages_is_rendered_at_a_phone_photos_pixels_and_a_budget_in_all() -> None:
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    drawn = canvas.Canvas(buffer, pagesize=(200 * 72, 200 * 72))  # 200 x 200 inches a page
    for _ in range(documents.MAX_PAGES):
        drawn.rect(100, 100, 1000, 1000, fill=1)
        drawn.showPage()
    drawn.save()
    assert len(buffer.getvalue()) < 20_000  # a few kilobytes
    found = list(pictures(buffer.getvalue(), "huge.pdf"))
    rendered = [p.shape[0] * p.shape[1] for _, p in found if isinstance(p, np.ndarray)]
    assert rendered and max(rendered) <= documents.PAGE_PIXELS and sum(rendered) <= documents.PDF_PIXELS
    assert len(rendered) == documents.PDF_PIXELS // documents.PAGE_PIXELS  # six pages, then the budget is spent
    rest = found[-1][1]
    assert isinstance(rest, Refused) and rest.reason.startswith(f"pages {len(rendered) + 1} to 20 not read")
    assert "pixels in all" in rest.reason and "\n" not in rest.reason


def tiff(*pages: Image.Image) -> bytes:
    """A TIFF of one picture a page, as a scanner writes one."""
    buffer = io.BytesIO()
    pages[0].save(buffer, format="TIFF", save_all=True, append_images=list(pages[1:]))
    return buffer.getvalue()


def test_each_page_of_a_tiff_is_a_picture_named_by_its_page(demo: Any) -> None:
    photo = Image.open(io.BytesIO(demo.jpeg))
    found = list(pictures(tiff(Image.new("RGB", (800, 600), "white"), photo), "scan.tiff"))
    assert [name for name, _ in found] == ["scan.tiff [page 1 of 2]", "scan.tiff [page 2 of 2]"]
    assert found[0][1].shape == (600, 800, 3)  # type: ignore[union-attr]
    original = cv2.imdecode(np.frombuffer(demo.jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(found[1][1], original)  # the second page whole, in OpenCV's order (BGR)
    ((name, alone),) = list(pictures(tiff(photo), "one.tiff"))  # one page: no page in its name
    assert name == "one.tiff" and np.array_equal(alone, original)


def test_a_long_tiff_is_read_up_to_its_limits_and_the_rest_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    page = Image.new("RGB", (400, 300), "white")
    monkeypatch.setattr(documents, "MAX_PAGES", 2)
    found = list(pictures(tiff(page, page, page, page), "long.tiff"))
    assert [name for name, _ in found] == ["long.tiff [page 1 of over 2]", "long.tiff [page 2 of over 2]", "long.tiff"]
    last = found[-1][1]
    assert isinstance(last, Refused) and last.reason == "more pages not read: at most 2 pages of one file are read " \
                                                        "(split it)"
    monkeypatch.setattr(documents, "MAX_PAGES", 20)
    monkeypatch.setattr(documents, "PDF_PIXELS", 2 * 400 * 300)
    found = list(pictures(tiff(page, page, page, page), "many.tiff"))
    assert sum(isinstance(p, np.ndarray) for _, p in found) == 2
    assert isinstance(found[-1][1], Refused) and found[-1][1].reason.startswith("pages 3 to 4 not read")


def test_a_tiff_whose_second_page_is_cut_short_gives_its_first_and_one_line() -> None:
    data = tiff(Image.new("RGB", (400, 300), "white"), Image.new("RGB", (400, 300), "black"))
    found = list(pictures(data[:-5000], "cut.tiff"))  # the second page's pixels lie at the end
    assert isinstance(found[0][1], np.ndarray)
    assert isinstance(found[-1][1], Refused) and "\n" not in found[-1][1].reason
    assert found[-1][1].reason.startswith("the TIFF picture is damaged or cut short")


def test_a_pdf_of_no_pages_says_so() -> None:
    buffer = io.BytesIO()
    import pypdf

    pypdf.PdfWriter().write(buffer)
    ((_, found),) = list(pictures(buffer.getvalue(), "empty.pdf"))
    assert isinstance(found, Refused) and found.reason == "the PDF cannot be opened (it has no pages)"


def test_an_empty_file_says_it_is_empty() -> None:
    ((_, found),) = list(pictures(b"", "IMG_1.jpg"))
    assert isinstance(found, Refused) and found.reason == "an empty file (0 bytes): copy or export the photo again"


@pytest.mark.parametrize("data", [b"%PDF-1.7\n" + bytes(200), b"%PDF-", b"junk" * 10 + b"%PDF-1.4\n1 0 obj"])
def test_a_damaged_pdf_is_one_line(data: bytes) -> None:
    ((_, found),) = list(pictures(data, "bad.pdf"))
    assert isinstance(found, Refused) and "\n" not in found.reason and found.reason.startswith("the PDF")


def test_a_file_of_no_kind_read_names_every_kind_including_pdf() -> None:
    ((_, found),) = list(pictures(b"GIF89a" + bytes(64), "x.gif"))
    assert isinstance(found, Refused) and found.reason.endswith("(it reads JPEG, PNG, WebP, BMP, TIFF, HEIC, PDF)")


def test_a_pdf_is_scored_page_by_page_and_annotated_as_one_picture(tmp_path: Path, demo: Any) -> None:
    photo = Image.open(io.BytesIO(demo.jpeg))
    (tmp_path / "scan.pdf").write_bytes(pdf(photo, photo.rotate(180)))
    result = CliRunner().invoke(main, ["score", str(tmp_path / "scan.pdf"), "--annotate", str(tmp_path / "read.png"),
                                       "--csv", str(tmp_path / "s.csv")])
    assert result.exit_code == 0, result.output
    assert result.output.count(f": qwixx-standard: total {demo.total}, legal") == 2
    assert "scan.pdf [page 2 of 2]: qwixx-standard" in result.output
    drawn = cv2.imread(str(tmp_path / "read.png"))
    assert drawn.shape[0] > 1.5 * drawn.shape[1] * photo.size[1] / photo.size[0]  # the pages one under another
    rows = (tmp_path / "s.csv").read_text().splitlines()
    assert rows[1].startswith(f"1,scan,{2 * demo.total},2,{demo.total},{demo.total},yes")


def test_exif_turns_are_honoured_in_reading_and_in_the_annotation(tmp_path: Path, demo: Any) -> None:
    photo = Image.open(io.BytesIO(demo.jpeg))
    turned = photo.transpose(Image.Transpose.ROTATE_90)  # stored on its side, as a phone held upright does
    exif = Image.Exif()
    exif[0x0112] = 6  # "turn 90 degrees clockwise to show"
    turned.save(tmp_path / "side.jpg", exif=exif, quality=92)
    result = CliRunner().invoke(main, ["score", str(tmp_path / "side.jpg"), "--annotate", str(tmp_path / "a.png")])
    assert result.exit_code == 0, result.output
    assert f"total {demo.total}, legal" in result.output
    drawn = cv2.imread(str(tmp_path / "a.png"))
    assert (drawn.shape[1] > drawn.shape[0]) == (photo.size[0] > photo.size[1])  # upright, as the photo was taken


def test_a_mirrored_photo_is_read_as_a_mirror_shows_it_and_annotated_that_way_round(tmp_path: Path,
                                                                                      demo: Any) -> None:
    mirrored = Image.open(io.BytesIO(demo.jpeg)).transpose(Image.Transpose.FLIP_LEFT_RIGHT)  # a front camera's
    mirrored.save(tmp_path / "selfie.jpg", quality=92)  # (its pixels mirrored, no EXIF to say so)
    result = CliRunner().invoke(main, ["score", str(tmp_path / "selfie.jpg"), "--annotate", str(tmp_path / "a.png")])
    assert result.exit_code == 0, result.output
    assert f"total {demo.total}, legal" in result.output
    drawn = cv2.cvtColor(cv2.imread(str(tmp_path / "a.png")), cv2.COLOR_BGR2GRAY)
    photo = cv2.resize(cv2.cvtColor(cv2.imdecode(np.frombuffer(demo.jpeg, np.uint8), cv2.IMREAD_COLOR),
                                    cv2.COLOR_BGR2GRAY), drawn.shape[::-1])
    as_taken, as_mirrored = (float(np.mean(np.abs(drawn.astype(float) - p.astype(float)))) for p in
                             (photo, cv2.flip(photo, 1)))
    assert as_taken < as_mirrored  # drawn over the photo the right way round, as the sheet lies


def test_heic_is_read_where_pillow_heif_is_installed(tmp_path: Path, demo: Any) -> None:
    heif = pytest.importorskip("pillow_heif", reason="pillow-heif is optional (pip install '.[heic]')")
    heif.register_heif_opener()
    buffer = io.BytesIO()
    Image.open(io.BytesIO(demo.jpeg)).save(buffer, format="HEIF", quality=90)
    (tmp_path / "IMG_0001.HEIC").write_bytes(buffer.getvalue())
    result = CliRunner().invoke(main, ["score", str(tmp_path / "IMG_0001.HEIC")])
    assert result.exit_code == 0, result.output
    assert f"total {demo.total}, legal" in result.output


def test_heic_without_pillow_heif_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(picture, "_heif_opener", lambda: False)
    found = picture.decode(b"\x00\x00\x00\x18ftypheic" + bytes(100))
    assert isinstance(found, Refused) and found.reason == picture.HEIC_HINT
    assert "pip install '.[heic]'" in found.reason


def test_a_pdf_locked_with_a_password_says_so(tmp_path: Path) -> None:
    """A scanner app's PDF saved with a password: one line saying what to do (the same words in serve, where the
    decoder's own words were dropped as meaningless to a player)."""
    import pikepdf

    plain = pytest.importorskip("printgen.serve.uploads", reason="the serve extra").plain
    plain_pdf = tmp_path / "plain.pdf"
    plain_pdf.write_bytes(pdf(Image.new("RGB", (400, 300), "white")))
    with pikepdf.open(plain_pdf) as document:
        document.save(tmp_path / "locked.pdf", encryption=pikepdf.Encryption(owner="o", user="u"))
    ((_, refused),) = pictures((tmp_path / "locked.pdf").read_bytes(), "locked.pdf")
    assert isinstance(refused, Refused)
    assert plain(refused.reason) == refused.reason == ("the PDF is locked with a password: save or export it again "
                                                       "without one")


@pytest.mark.parametrize("form, options", [("TIFF", {"compression": "group4"}), ("PDF", {"resolution": 200})])
def test_a_black_and_white_scan_is_read_as_its_greys(demo: Any, form: str, options: dict[str, Any]) -> None:
    """A scanner's black-and-white mode dithers every band into black dots (a 1-bit PNG, a fax TIFF, a PDF of
    one such picture a page; a 1-bit PNG is decoded as the TIFF is): read as they were, a helper's 2-up page had
    every number crossed (259 for 23), the demo photo 35 fields to check. Its dots averaged back into greys, it
    reads as the colour photo does."""
    from printgen.scan.score import read_file, reader_for

    reader = reader_for(())
    ((_, colour),) = list(read_file(demo.jpeg, "demo.jpg", reader))
    buffer = io.BytesIO()
    Image.open(io.BytesIO(demo.jpeg)).convert("1").save(buffer, form, **options)
    ((_, results),) = list(read_file(buffer.getvalue(), f"scan.{form.lower()}", reader))
    (sheet,) = results
    assert sheet.verdict.total == colour[0].verdict.total == demo.total  # type: ignore[union-attr]
    assert not sheet.uncertain  # type: ignore[union-attr]
    assert [r.crossed for r in sheet.readings] == [r.crossed for r in colour[0].readings]  # type: ignore[union-attr]


def test_only_a_picture_of_black_and_white_alone_is_averaged() -> None:
    """A photo holds greys (every photo does); a scan in black and white only black and white."""
    from printgen.scan.picture import _bilevel

    grey = np.full((60, 80, 3), 255, np.uint8)
    grey[20:40, 20:60] = 0
    assert _bilevel(grey)
    grey[30, 30] = 128
    grey[::2, ::3] = 200
    assert not _bilevel(grey)
