"""The one home of fonts: a weight and text in, the bundled TTF, its metrics, glyph outlines and coverage out.

Both renderers use the same Roboto files: reportlab embeds them (subset) in
PDFs; SVGs carry the glyphs' outlines (read with fontTools) or name the
family. Text is measured and advanced with reportlab's metrics of the very
same file, so layout decisions and glyph positions agree across backends.
`missing_glyphs` says which characters the bundled fonts cannot draw.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal, TypeAlias

from printgen.resources import resource_dir

Weight: TypeAlias = Literal["regular", "bold"]
"""A font weight: printgen prints Roboto Regular and Bold."""

FAMILY = "Roboto"
SVG_FAMILY = "Roboto, 'Helvetica Neue', Arial, sans-serif"
FILES: dict[Weight, str] = {"regular": "Roboto-Regular.ttf", "bold": "Roboto-Bold.ttf"}
PDF_NAMES: dict[Weight, str] = {"regular": "Roboto", "bold": "Roboto-Bold"}


def font_path(weight: Weight) -> Path:
    """The bundled TTF file of `weight`."""
    return resource_dir("fonts") / FILES[weight]


@cache
def register_pdf_fonts() -> dict[Weight, str]:
    """Register the bundled fonts with reportlab once; returns weight -> reportlab font name."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for weight, name in PDF_NAMES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_path(weight))))
    return dict(PDF_NAMES)


def text_width(text: str, weight: Weight, size: float) -> float:
    """Advance width of `text` set in `weight` at em size `size` (same unit as size)."""
    from reportlab.pdfbase import pdfmetrics

    names = register_pdf_fonts()
    return float(pdfmetrics.stringWidth(text, names[weight], size))


@cache
def cap_height(weight: Weight) -> float:
    """Height of capital letters and digits as a fraction of the em size."""
    from reportlab.pdfbase import pdfmetrics

    names = register_pdf_fonts()
    face = pdfmetrics.getFont(names[weight]).face
    return float(face.capHeight) / 1000.0


def fit_size(text: str, weight: Weight, size: float, max_width: float) -> float:
    """`size`, shrunk just enough that `text` fits `max_width` (labels in long languages)."""
    width = text_width(text, weight, size)
    return size if width <= max_width else size * max_width / width


def wrap(text: str, weight: Weight, size: float, max_width: float, max_lines: int = 2) -> list[str]:
    """`text` broken at spaces into lines no wider than `max_width` (the last may still be wider).

    A word of one letter or digit never ends a line: it stays with the word after it (Polish typesetting
    forbids a lone "z" or "w" at a line's end, and "2 / crosses" or "+1 / small star" read badly anywhere);
    a short last word never starts the last line alone.
    """
    lines: list[str] = []
    words = _glued(text.split())
    while words:
        line = words.pop(0)
        while words and len(lines) < max_lines - 1 and text_width(f"{line} {words[0]}", weight, size) <= max_width:
            line = f"{line} {words.pop(0)}"
        if len(lines) == max_lines - 1:
            line = " ".join([line, *words])
            words = []
        lines.append(line)
    return lines


def balanced(text: str, weight: Weight, size: float, max_width: float, max_lines: int = 2) -> list[str]:
    """`text` in as few lines as `wrap` gives it, broken so that the lines are as even as they can be (no
    short last line: "…when you win / small stars" becomes "…small star / when you win small stars")."""
    lines = wrap(text, weight, size, max_width, max_lines)
    if len(lines) < 2 or any(text_width(line, weight, size) > max_width for line in lines):
        return lines
    low, high = 0.0, max_width
    while high - low > 0.05:
        middle = (low + high) / 2
        tried = wrap(text, weight, size, middle, max_lines)
        if len(tried) <= len(lines) and all(text_width(line, weight, size) <= middle for line in tried):
            high = middle
        else:
            low = middle
    return wrap(text, weight, size, high, max_lines)


def _glued(words: list[str]) -> list[str]:
    """`words` with each one-character word (a letter or digit, or a sign and one digit: "+1") joined to
    the word after it, so no line ends on it, and a short last word (SHORT_LAST) joined to the one before."""
    glued: list[str] = []
    carry = ""
    for index, word in enumerate(words):
        joined = f"{carry} {word}" if carry else word
        short = len(word.lstrip("+−-")) == 1 and word[-1].isalnum()
        carry = joined if short and index < len(words) - 1 else ""
        if not carry:
            glued.append(joined)
    if len(glued) > 1 and len(glued[-1]) <= SHORT_LAST:  # a short last word never stands alone on the last line
        glued[-2:] = [f"{glued[-2]} {glued[-1]}"]
    return glued


SHORT_LAST = 4
"""Characters of a last word that `wrap` keeps with the word before it ("… to jest / X,Y." read badly)."""


MIN_TEXT: float = 6.0 * 25.4 / 72
"""The smallest em size printgen prints, in mm (6 pt)."""


def fit_lines(text: str, weight: Weight, size: float, max_width: float, max_lines: int) -> tuple[float, list[str]]:
    """`text` in up to `max_lines` lines no wider than `max_width`: the largest size from `size` down to
    MIN_TEXT at which it fits, and its lines (at MIN_TEXT it may still be wider: never smaller)."""
    current = size
    while True:
        lines = wrap(text, weight, current, max_width, max_lines)
        if all(text_width(line, weight, current) <= max_width + 1e-9 for line in lines) or current <= MIN_TEXT:
            return current, lines
        current = max(MIN_TEXT, current * 0.95)


WEIGHTS: tuple[Weight, ...] = ("regular", "bold")


@cache
def _font(weight: Weight) -> Any:
    from fontTools.ttLib import TTFont

    return TTFont(str(font_path(weight)), lazy=True)


@cache
def _covered(weight: Weight) -> frozenset[int]:
    """Every code point the bundled font of `weight` has a glyph for (its cmap, read without reportlab)."""
    from printgen.cmap import mapped_code_points

    return mapped_code_points(font_path(weight))


def missing_glyphs(text: str, weights: tuple[Weight, ...] = WEIGHTS) -> str:
    """The characters of `text` (each once, in order) that a bundled font of `weights` has no glyph for."""
    missing = ""
    for char in text:
        if char not in missing and any(ord(char) not in _covered(weight) for weight in weights):
            missing += char
    return missing


def require_glyphs(text: str, weights: tuple[Weight, ...], where: str) -> None:
    """Raise UsageProblem, naming `where` and the characters, if the bundled fonts cannot draw all of `text`."""
    missing = missing_glyphs(text, weights)
    if missing:
        from printgen.errors import UsageProblem

        raise UsageProblem(f"{where}: {problem(missing)}")


def problem(missing: str) -> str:
    """What is wrong with text holding the characters `missing`, for an error line."""
    return f"cannot print {describe(missing)}: the bundled fonts ({FAMILY}) have no glyph for {'it' if len(missing) == 1 else 'them'}"


def describe(chars: str) -> str:
    """Characters named for an error message: U+05D0 'א', U+1F3B2 '🎲'."""
    return ", ".join(f"U+{ord(char):04X} {char!r}" for char in chars)


def units_per_em(weight: Weight) -> int:
    """The font's design units per em (glyph outlines and advances are in these units)."""
    return int(_font(weight)["head"].unitsPerEm)


def advances(text: str, weight: Weight) -> list[float]:
    """Where each character of `text` starts, in font units from the start of the text, as reportlab places it."""
    em = units_per_em(weight)
    starts, at = [], 0.0
    for char in text:
        starts.append(at)
        at += _advance(char, weight, em)
    return starts


@cache
def _advance(char: str, weight: Weight, em: int) -> float:
    return round(text_width(char, weight, em), 3)


def glyph(char: str, weight: Weight) -> tuple[int, str] | None:
    """The glyph drawing `char`: (its glyph index, SVG path data in font units with y down); None if it has no ink.

    Raises KeyError for a character the font has no glyph for.
    """
    name = _glyph_names(weight)[ord(char)]
    return _outline(name, weight)


@cache
def _glyph_names(weight: Weight) -> dict[int, str]:
    names: dict[int, str] = _font(weight).getBestCmap()
    return names


@cache
def _outline(name: str, weight: Weight) -> tuple[int, str] | None:
    font = _font(weight)
    pen = _svg_path_pen()(font.getGlyphSet())
    font.getGlyphSet()[name].draw(pen)
    if not pen.parts:
        return None
    return font.getGlyphID(name), "".join(pen.parts)


@cache
def _svg_path_pen() -> Any:
    """The class of a pen writing glyph outlines as SVG path data, made on first use: fontTools is loaded only
    when an SVG draws glyphs."""
    from fontTools.pens.basePen import BasePen

    class SvgPathPen(BasePen):  # type: ignore[misc]
        """A fontTools pen writing compact SVG path data: y flipped to point down, relative moves after the first."""

        def __init__(self, glyph_set: Any) -> None:
            super().__init__(glyph_set)
            self.parts: list[str] = []

        def _emit(self, command: str, points: tuple[tuple[float, float], ...], relative: bool = True) -> None:
            x0, y0 = self._getCurrentPoint() if relative else (0.0, 0.0)
            numbers = []
            for x, y in points:
                numbers += [x - x0, -(y - y0)]
            items = []
            for value in numbers:
                rounded = round(value, 2)
                items.append(str(int(rounded)) if rounded == int(rounded) else f"{rounded:g}")
            text = command + " ".join(items)
            self.parts.append(text)

        def _moveTo(self, point: tuple[float, float]) -> None:
            self._emit("M", (point,), relative=False)

        def _lineTo(self, point: tuple[float, float]) -> None:
            self._emit("l", (point,))

        def _curveToOne(self, one: tuple[float, float], two: tuple[float, float], three: tuple[float, float]) -> None:
            self._emit("c", (one, two, three))

        def _qCurveToOne(self, one: tuple[float, float], two: tuple[float, float]) -> None:
            self._emit("q", (one, two))

        def _closePath(self) -> None:
            self.parts.append("z")

    return SvgPathPen


GREEK_CAPITAL_ACCENTS = frozenset("\u0300\u0301\u0313\u0314\u0342\u0343\u0344\u0345")
"""Marks (accents, breathings, iota subscript) that Greek typesetting drops from words set in capitals; the
diaeresis stays."""


def capitals(text: str) -> str:
    """`text` in capitals as a typesetter sets them: Greek letters lose their accents and breathings
    (ΕΛΛΗΝΙΚΑ, not ΕΛΛΗΝΙΚΆ), and an Ι or Υ after a vowel whose accent drops takes a diaeresis, so
    the two stay apart (Μάιος: ΜΑΪΟΣ); every other script as str.upper has it."""
    import unicodedata

    upper = text.upper()
    if not any("\u0370" <= char <= "\u03ff" or "\u1f00" <= char <= "\u1fff" for char in upper):
        return upper
    letters: list[list[str]] = []  # each base character with its marks
    for char in unicodedata.normalize("NFD", upper):
        if unicodedata.combining(char) and letters:
            letters[-1].append(char)
        else:
            letters.append([char])
    kept: list[str] = []
    parted = False  # the letter before lost an accent that kept it apart from an Ι or Υ after it
    for base, *marks in letters:
        greek = unicodedata.name(base, "").startswith("GREEK")
        dropped = greek and any(mark in GREEK_CAPITAL_ACCENTS for mark in marks)
        if greek:
            marks = [mark for mark in marks if mark not in GREEK_CAPITAL_ACCENTS]
        if parted and base in "ΙΥ" and not marks:
            marks = ["\u0308"]
        kept.append(base + "".join(marks))
        parted = dropped and base in "ΑΕΟΥ"
    return unicodedata.normalize("NFC", "".join(kept))
