"""The one home of fonts: a weight in, the bundled TTF file, its PDF name and text metrics out.

Both renderers use the same Roboto files: reportlab embeds them (subset) in
PDFs, SVGs name the family. Text is measured with reportlab's metrics of the
very same file, so layout decisions agree across backends.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from printgen.page import Weight
from printgen.resources import resource_dir

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
    """`text` broken at spaces into lines no wider than `max_width` (the last may still be wider)."""
    lines: list[str] = []
    words = text.split()
    while words:
        line = words.pop(0)
        while words and len(lines) < max_lines - 1 and text_width(f"{line} {words[0]}", weight, size) <= max_width:
            line = f"{line} {words.pop(0)}"
        if len(lines) == max_lines - 1:
            line = " ".join([line, *words])
            words = []
        lines.append(line)
    return lines


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
