"""SVG text as glyph outlines: no <text>, each glyph once, every glyph where the PDF puts its character,
and the same picture as the PDF in independent SVG renderers on a machine without Roboto."""

from __future__ import annotations

import ctypes
import io
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from PIL import Image, ImageChops

from printgen import fonts, layouts
from printgen.builders.pad import pad_items
from printgen.builders.scoresheet import build_sheet
from printgen.files import write_items_svg
from printgen.kinds import DeckLayout, ScoreSheetLayout
from printgen.kinds.decks import deck_faces
from printgen.page import PT_PER_MM, Document, Item, Page, Symbol, Text, Use
from printgen.printing.card_grid import card_size
from printgen.render.pdf import write_pdf
from printgen.render.svg import svg_document, write_svg
from tests.render.svgtree import SVG, XLINK, placed, transform_of

PX_PER_MM = 10
"""Comparison resolution (254 dpi): the sheet (190 x 115 mm) and the cards (69.5 x 94.9 mm with bleed) are whole
numbers of pixels, so no renderer stretches a page to round its size."""
DIFFERING = 96
"""A pixel differs when one of its channels is off by more than 96 of 255 (38 %). Two rasterizers anti-alias the
same edge within that; a stroke in another place (half a pixel is 0.05 mm) or in another font is off by up to 100 %."""
LIMIT = 0.1
"""Percent of pixels that may differ."""


def sheet_page() -> Page:
    layout = layouts.load("qwixx-standard")
    assert isinstance(layout, ScoreSheetLayout)
    return build_sheet(layout).as_page()


def card_page(back: bool = False) -> Page:
    layout = layouts.load("qwixx-cards-deck")
    assert isinstance(layout, DeckLayout)
    name, front_face, back_face = deck_faces(layout, card_size(layout.card_size), 3.0, False, False)[5]
    return Item(name, back_face if back else front_face).as_page()


PAGES: dict[str, Callable[[], Page]] = {"sheet": sheet_page, "card front": card_page,
                                        "card back": lambda: card_page(back=True)}


def outlined_glyphs(root: ET.Element) -> list[tuple[str, float, float, int, float]]:
    """(character, x, y, its index in its text, em size) in page mm of every glyph the outlined texts place."""
    found: list[tuple[str, float, float, int, float]] = []
    for group, dx, dy, s in placed(root, lambda g: g.find(f"{SVG}title") is not None):
        title = group.find(f"{SVG}title")
        if group.tag != f"{SVG}g" or title is None:
            continue
        tx, ty, sc = transform_of(group)
        uses = [u for u in group if u.tag == f"{SVG}use"]
        weight = "bold" if uses and uses[0].get(XLINK, "").startswith("#g-b") else "regular"
        inked = [(i, c) for i, c in enumerate(title.text or "")
                 if fonts.glyph(c, weight) is not None]  # type: ignore[arg-type]
        assert len(inked) == len(uses), (title.text, len(uses))
        em = s * sc * fonts.units_per_em(weight)  # type: ignore[arg-type]
        for (index, char), use in zip(inked, uses):
            found.append((char, dx + s * (tx + sc * float(use.get("x", 0))), dy + s * ty, index, em))
    return found


def test_default_svg_draws_text_as_glyphs_each_defined_once() -> None:
    root = ET.fromstring(svg_document(sheet_page(), "Sheet").tostring())
    assert not list(root.iter(f"{SVG}text"))
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert titles[0] == "Sheet" and "Misthrows" in titles and titles.count("12") == 4  # the words, for search
    glyphs = [p.get("id") for p in root.iter(f"{SVG}path") if (p.get("id") or "").startswith("g-")]
    assert len(glyphs) == len(set(glyphs)) > 20
    placed = {u.get(XLINK, "")[1:] for u in root.iter(f"{SVG}use")}
    assert set(glyphs) <= placed  # every defined glyph is used


def test_every_glyph_sits_where_the_pdf_puts_its_character(tmp_path: Path) -> None:
    page = sheet_page()
    write_pdf(Document(page.symbols(), [page]), tmp_path / "sheet.pdf")
    pdf = pdfium.PdfDocument(str(tmp_path / "sheet.pdf"))
    text_page = pdf[0].get_textpage()
    origins: dict[str, list[tuple[float, float]]] = {}
    x, y = ctypes.c_double(), ctypes.c_double()
    for i in range(text_page.count_chars()):
        char = text_page.get_text_range(i, 1)
        if pdfium_c.FPDFText_GetCharOrigin(text_page.raw, i, ctypes.byref(x), ctypes.byref(y)):
            origins.setdefault(char, []).append((x.value / PT_PER_MM, page.height - y.value / PT_PER_MM))
    pdf.close()
    glyphs = outlined_glyphs(ET.fromstring(svg_document(page, "t").tostring()))
    assert len(glyphs) > 100
    for char, gx, gy, index, em in glyphs:
        # pdfium truncates the PDF's glyph widths to whole thousandths of an em, so its origins drift back by
        # up to that much per character before this one
        allowed = 0.01 + index * em / 1000
        distance = min(max(abs(gx - px), abs(gy - py)) for px, py in origins[char])
        assert distance < allowed, f"{char!r} at ({gx:.3f}, {gy:.3f}) mm: the PDF's nearest is {distance:.3f} mm away"


def test_anchors_place_outlines_at_reportlabs_advances() -> None:
    width = fonts.text_width("Wörter", "bold", 10.0)
    for anchor, start in (("start", 50.0), ("middle", 50.0 - width / 2), ("end", 50.0 - width)):
        page = Page(100, 20, (Text(50, 10, "Wörter", 10.0, weight="bold", anchor=anchor),))  # type: ignore[arg-type]
        glyphs = outlined_glyphs(ET.fromstring(svg_document(page, "t").tostring()))
        assert [g[0] for g in glyphs] == list("Wörter")
        for i, glyph in enumerate(glyphs):  # each glyph where reportlab's widths put it
            assert abs(glyph[1] - start - fonts.text_width("Wörter"[:i], "bold", 10.0)) < 1e-3


def test_sheet_svgs_stay_under_80_kb(tmp_path: Path) -> None:
    checked = 0
    for name in layouts.builtin_names():
        layout = layouts.load(name)
        if not isinstance(layout, ScoreSheetLayout):
            continue
        for lang in ("en", "de", "pl"):
            items = pad_items(layout, 1, lang=lang, symbols=True)
            target = write_items_svg(f"{name}-{lang}", items, tmp_path, folder=False).path
            assert target.stat().st_size < 80_000, (name, lang, target.stat().st_size)
            checked += 1
    assert checked == 7 * 3  # seven score sheets in three languages


def test_svg_text_must_be_outline_or_font() -> None:
    with pytest.raises(ValueError, match="svg_text"):
        svg_document(sheet_page(), "t", svg_text="paths")


# --- the same picture in other programs ------------------------------------------------------------------

NO_FONTS = """<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>{empty}</dir><cachedir>{cache}</cachedir></fontconfig>"""


@pytest.fixture(scope="module")
def fontless(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment in which fontconfig finds no font at all, so certainly no Roboto."""
    folder = tmp_path_factory.mktemp("fontless")
    (folder / "empty").mkdir()
    config = folder / "fonts.conf"
    config.write_text(NO_FONTS.format(empty=folder / "empty", cache=folder / "cache"), encoding="utf-8")
    return {**os.environ, "FONTCONFIG_FILE": str(config)}


def _rsvg(svg: Path, width: int, height: int, env: dict[str, str]) -> Image.Image:
    if shutil.which("rsvg-convert") is None:
        pytest.skip("rsvg-convert is not installed (Debian: apt-get install librsvg2-bin)")
    png = subprocess.run(["rsvg-convert", "-w", str(width), "-h", str(height), "-b", "white", str(svg)],
                         capture_output=True, check=True, env=env).stdout
    return Image.open(io.BytesIO(png)).convert("RGB")


CAIROSVG = """import sys, cairosvg
sys.stdout.buffer.write(cairosvg.svg2png(url=sys.argv[1], output_width=int(sys.argv[2]),
                                         output_height=int(sys.argv[3]), background_color="white"))"""


def _cairosvg(svg: Path, width: int, height: int, env: dict[str, str]) -> Image.Image:
    probe = subprocess.run([sys.executable, "-c", "import cairosvg"], check=False, capture_output=True, text=True,
                           env=env)
    if probe.returncode:
        pytest.skip(f"cairosvg cannot run: {probe.stderr.strip().splitlines()[-1]} (pip install cairosvg; it needs "
                    "the cairo library, Debian: apt-get install libcairo2)")
    png = subprocess.run([sys.executable, "-c", CAIROSVG, str(svg), str(width), str(height)], capture_output=True,
                         check=True, env=env).stdout
    return Image.open(io.BytesIO(png)).convert("RGB")


def _resvg(svg: Path, width: int, height: int, env: dict[str, str]) -> Image.Image:
    resvg_py = pytest.importorskip("resvg_py", reason="resvg-py is not installed (pip install resvg-py)")
    png = bytes(resvg_py.svg_to_bytes(svg_path=str(svg), dpi=25.4 * PX_PER_MM, background="white",
                                      skip_system_fonts=True))
    return Image.open(io.BytesIO(png)).convert("RGB").crop((0, 0, width, height))


RENDERERS = {"librsvg": _rsvg, "cairosvg": _cairosvg, "resvg": _resvg}


def _pdf_picture(page: Page, folder: Path) -> Image.Image:
    write_pdf(Document(page.symbols(), [page]), folder / "page.pdf")
    pdf = pdfium.PdfDocument(str(folder / "page.pdf"))
    try:
        rendered = pdf[0]
        width, height = round(page.width * PX_PER_MM), round(page.height * PX_PER_MM)
        # pypdfium2 rounds the bitmap size up and stretches the page to fill it: aim just below whole pixels
        scale = min((width - 1e-3) / rendered.get_width(), (height - 1e-3) / rendered.get_height())
        picture = rendered.render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()
    assert picture.size == (width, height)
    return picture


def differing(one: Image.Image, other: Image.Image) -> float:
    """Percent of pixels where some channel differs by more than DIFFERING."""
    assert one.size == other.size, (one.size, other.size)
    red, green, blue = ImageChops.difference(one, other).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return 100 * sum(worst.histogram()[DIFFERING + 1:]) / (one.size[0] * one.size[1])


@pytest.mark.parametrize("renderer", RENDERERS)
@pytest.mark.parametrize("name", PAGES)
def test_outline_svg_looks_like_the_pdf_without_roboto(tmp_path: Path, fontless: dict[str, str], name: str,
                                                       renderer: str) -> None:
    page = PAGES[name]()
    expected = _pdf_picture(page, tmp_path)
    write_svg(page, tmp_path / "page.svg", name)
    picture = RENDERERS[renderer](tmp_path / "page.svg", *expected.size, fontless)
    share = differing(expected, picture)
    print(f"{name}, {renderer}: {share:.4f} % of pixels differ")
    assert share < LIMIT, f"{name} in {renderer}: {share:.3f} % of pixels differ from the PDF"


@pytest.mark.parametrize("renderer", ["librsvg", "cairosvg"])
def test_editable_text_without_roboto_is_what_the_measure_catches(tmp_path: Path, fontless: dict[str, str],
                                                                  renderer: str) -> None:
    """The measure can fail: `svg_text="font"` rendered without Roboto differs far beyond the limit."""
    page = sheet_page()
    expected = _pdf_picture(page, tmp_path)
    write_svg(page, tmp_path / "page.svg", "sheet", svg_text="font")
    picture = RENDERERS[renderer](tmp_path / "page.svg", *expected.size, fontless)
    assert differing(expected, picture) > 10 * LIMIT


def test_a_symbol_named_like_a_glyph_is_refused_not_drawn_as_one() -> None:
    found = fonts.glyph("Q", "bold")
    assert found is not None
    clash = Symbol(f"g-b{found[0]}", 10, 10, (Text(1, 8, "Q", 5, weight="bold"),))
    with pytest.raises(ValueError, match=f"'g-b{found[0]}' names both a glyph and a symbol"):
        svg_document(Page(20, 20, (Use(clash, 0, 0),)), "t")
