"""Normalised text of printgen's output files for the golden references: a PDF, SVG or HTML file in, lines out.

A PDF becomes its document information (without dates), its catalogue
(without the page tree), the page count, then every page — its boxes and
other keys, its resources on a line, and its content stream, decompressed,
one operator (with its operands) a line — and then, once each, every
stream or font the pages use, in the order first met: form XObjects with
their content parsed the same way, fonts as their name and whether they
are embedded. Object numbers, compression, the /ID, /Length and /Filter do
not show; other streams (ICC profiles) and long arrays show as their
length and a SHA-256 prefix, so they are still compared but take a line.

Text is shown as the characters it prints (read through its font's
ToUnicode map), not as the font's codes, and a font as its name without
its subset tag and without its program and widths: which codes and tag a
subset gets depends on the reportlab version (the suite also runs at the
dependency floors, .ci/floors.txt), while what is printed where does not.

An SVG (or the preview page's HTML) is its own text, one tag a line
(printgen writes no whitespace between tags, so splitting at `><` loses
nothing), with the `d` of each glyph outline (`<path d="..." id="g-...">`)
shown as its length and a hash for the same reason; the preview page's
file sizes (which follow the font programs) show as `(size)`.

Each output is also cut into blocks (`blocks`): a PDF's pages and objects,
an SVG's `<symbol>`s, so that tests/golden/store.py can write a block that
repeats or resembles an earlier one as a reference to it.
"""

from __future__ import annotations

import hashlib
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pikepdf

LONG_ARRAY = 32
"""Arrays with more items than this (a font's /Widths) show as their length and a hash."""

SKIPPED_KEYS = frozenset({"/Length", "/Length1", "/Length2", "/Length3", "/Filter", "/DecodeParms", "/Parent"})
"""How a stream is stored, and the back link to the page tree: not what is printed."""

DATES = frozenset({"/CreationDate", "/ModDate"})


def digest(data: bytes) -> str:
    """A short, stable fingerprint of `data`."""
    return hashlib.sha256(data).hexdigest()[:16]


class _PdfText:
    """One PDF's normalised lines; streams and fonts get labels (form1, font2, ...) in the order first met."""

    def __init__(self) -> None:
        self.labels: dict[tuple[int, int], str] = {}
        self.counts: dict[str, int] = {}
        self.pending: list[tuple[str, Any]] = []

    def label(self, obj: Any) -> str:
        key = obj.objgen
        if key not in self.labels:
            kind = _kind(obj)
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.labels[key] = f"{kind}{self.counts[kind]}"
            self.pending.append((self.labels[key], obj))
        return self.labels[key]

    def value(self, obj: Any, depth: int = 0) -> str:
        if depth > 30:
            raise ValueError("the PDF nests objects more than 30 deep")
        if isinstance(obj, pikepdf.Stream) or (isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font"):
            return self.label(obj)
        if isinstance(obj, pikepdf.Dictionary):
            return self.dictionary(obj, depth)
        if isinstance(obj, pikepdf.Array):
            items = [self.value(item, depth + 1) for item in obj]
            if len(items) > LONG_ARRAY:
                return f"[{len(items)} items sha:{digest(' '.join(items).encode())}]"
            return "[" + " ".join(items) + "]"
        if isinstance(obj, pikepdf.Name):
            return str(obj)
        if isinstance(obj, pikepdf.String):
            return repr(bytes(obj))
        if isinstance(obj, bool):
            return "true" if obj else "false"
        if isinstance(obj, int):
            return str(obj)
        if isinstance(obj, Decimal | float):
            return _number(obj)
        if obj is None:
            return "null"
        return repr(obj)

    def dictionary(self, obj: Any, depth: int, skipped: frozenset[str] = SKIPPED_KEYS) -> str:
        parts = [f"{key} {self.value(obj[key], depth + 1)}" for key in sorted(obj.keys()) if key not in skipped]
        return "<<" + " ".join(parts) + ">>"

    def objects(self) -> list[str]:
        """Each labelled stream or font once (labelling what they use in turn)."""
        lines: list[str] = []
        while self.pending:
            name, obj = self.pending.pop(0)
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Form":
                lines += self.drawing(name, obj.stream_dict, obj)
            elif isinstance(obj, pikepdf.Stream):
                lines.append(f"{name} {self.dictionary(obj.stream_dict, 0)}")
                data = obj.read_bytes()
                lines.append(f"  <{len(data)} bytes sha:{digest(data)}>")
            else:
                lines.append(f"{name} {_font(obj)}")
        return lines

    def drawing(self, name: str, keys: Any, drawn: Any) -> list[str]:
        """A page or form: its keys, its resources on a line of their own, then its content."""
        lines = [f"{name} {self.dictionary(keys, 0, SKIPPED_KEYS | {'/Contents', '/Resources'})}"]
        resources = keys.get("/Resources")
        if resources is not None:
            lines.append(f"  resources {self.value(resources)}")
        fonts = resources.get("/Font") if resources is not None else None
        return lines + [f"  {line}" for line in content(drawn, fonts)]


def _font(font: Any) -> str:
    """A font as its name without the subset tag, its type and whether its program is embedded."""
    base = str(font.get("/BaseFont", "/?"))[1:]
    tag, plus, rest = base.partition("+")
    untagged = rest if plus and len(tag) == 6 and tag.isupper() else base
    target = font["/DescendantFonts"][0] if "/DescendantFonts" in font else font
    descriptor = target.get("/FontDescriptor")
    files = [key for key in ("/FontFile", "/FontFile2", "/FontFile3") if descriptor is not None and key in descriptor]
    encoding = font.get("/Encoding")
    parts = [str(font.get("/Subtype")), "embedded" if files else "not embedded"]
    if isinstance(encoding, pikepdf.Name):
        parts.append(str(encoding))
    return f"{untagged} ({', '.join(parts)})"


def _unicode(font: Any) -> dict[int, str]:
    """Code -> the characters it prints, from `font`'s ToUnicode map (bfchar and bfrange entries)."""
    cmap = font.get("/ToUnicode") if font is not None else None
    if not isinstance(cmap, pikepdf.Stream):
        return {}
    text = cmap.read_bytes().decode("latin-1")
    found: dict[int, str] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", text, re.DOTALL):
        for code, chars in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>", block):
            found[int(code, 16)] = bytes.fromhex(chars).decode("utf-16-be", "replace")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", text, re.DOTALL):
        for low, high, first in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            for offset, code in enumerate(range(int(low, 16), int(high, 16) + 1)):
                found[code] = chr(int(first, 16) + offset)
    return found


def _kind(obj: Any) -> str:
    if isinstance(obj, pikepdf.Stream):
        subtype = obj.get("/Subtype")
        if subtype == "/Form":
            return "form"
        if subtype == "/Image":
            return "image"
        if "/FunctionType" in obj:
            return "function"
        return "profile" if "/N" in obj else "stream"
    return "font" if obj.get("/Type") == "/Font" else "descriptor"


def _number(value: Decimal | float) -> str:
    text = format(Decimal(value).normalize(), "f")
    return "0" if text in ("-0", "0") else text


SHOWS_TEXT = frozenset({"Tj", "TJ", "'", '"'})


def content(obj: Any, fonts: Any = None) -> list[str]:
    """The content stream of a page or form, one operator (with its operands) a line; the strings that show
    text as the characters they print, through the ToUnicode maps of `fonts` (the stream's /Font resources)."""
    lines = []
    maps: dict[str, dict[int, str]] = {}
    current: dict[int, str] | None = None
    for instruction in pikepdf.parse_content_stream(obj):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            data = pikepdf.unparse_content_stream([instruction])
            lines.append(f"<inline image, {len(data)} bytes sha:{digest(data)}>")
            continue
        operator = str(instruction.operator)
        if operator == "Tf" and fonts is not None:
            name = str(instruction.operands[0])
            if name not in maps:
                maps[name] = _unicode(fonts.get(name))
            current = maps[name]
        if operator in SHOWS_TEXT and current:
            shown = [_shown(operand, current) for operand in _flat(instruction.operands)]
            lines.append(" ".join([*shown, operator]))
        else:
            lines.append(pikepdf.unparse_content_stream([instruction]).decode("latin-1"))
    return lines


def _shown(operand: Any, characters: dict[int, str]) -> str:
    """An operand of a text-showing operator: a string as the characters it prints (in JSON quotes)."""
    if isinstance(operand, pikepdf.String):
        return json.dumps("".join(characters.get(byte, f"<{byte:02x}>") for byte in bytes(operand)),
                          ensure_ascii=False)
    if isinstance(operand, str):
        return operand
    if isinstance(operand, int):
        return str(operand)
    if isinstance(operand, Decimal | float):
        return _number(operand)
    return repr(operand)


def _flat(operands: Any) -> list[Any]:
    """The operands of a text-showing operator, TJ's array spelt out (strings and the kerning between them)."""
    found: list[Any] = []
    for operand in operands:
        if isinstance(operand, pikepdf.Array):
            found += ["[", *operand, "]"]
        else:
            found.append(operand)
    return found


def pdf_lines(path: Path) -> list[str]:
    """The normalised text of the PDF at `path`, as lines."""
    text = _PdfText()
    with pikepdf.open(path) as pdf:
        lines = []
        info = pdf.trailer.get("/Info")
        if info is not None:
            lines.append("info " + text.dictionary(info, 0, SKIPPED_KEYS | DATES))
        lines.append("catalog " + text.dictionary(pdf.Root, 0, SKIPPED_KEYS | {"/Pages"}))
        lines.append(f"pages {len(pdf.pages)}")
        for number, page in enumerate(pdf.pages, start=1):
            lines += text.drawing(f"page {number}", page.obj, page)
        lines += text.objects()
    return lines


SIZE = re.compile(r"\b\d+(?:\.\d+)? (?:KB|MB)\b")
GLYPH = re.compile(r'<path d="([^"]*)" id="(g-[^"]+)" />')


def markup_lines(path: Path) -> list[str]:
    """The normalised text of the SVG (or HTML) file at `path`, as lines: one tag a line, glyph outlines hashed."""
    text = path.read_text(encoding="utf-8")

    def hashed(match: re.Match[str]) -> str:
        return f'<path d="<{len(match[1])} chars sha:{digest(match[1].encode())}>" id="{match[2]}" />'

    lines = [line.rstrip() for line in GLYPH.sub(hashed, text).replace("><", ">\n<").splitlines()]
    if path.suffix == ".html":
        lines = [SIZE.sub("(size)", line) for line in lines]
    return lines


def file_lines(path: Path) -> list[str]:
    """The normalised text of one output file (PDF, SVG or HTML)."""
    if path.suffix == ".pdf":
        return pdf_lines(path)
    if path.suffix in (".svg", ".html"):
        return markup_lines(path)
    data = path.read_bytes()
    return [f"<{len(data)} bytes sha:{digest(data)}>"]


SYMBOL = re.compile(r'<symbol\b[^>]*\bid="([^"]+)"')


def blocks(lines: list[str]) -> list[tuple[str, list[str]]]:
    """`lines` (one output's normalised text) cut into named blocks, in order: in a PDF every line at the left
    margin starts a block (`page 3`, `form12`, ...) holding the indented lines after it; in an SVG every
    `<symbol>` is a block (named by its id) and the lines between symbols are blocks too (`part N`)."""
    found: list[tuple[str, list[str]]] = []
    names: set[str] = set()

    def start(name: str) -> list[str]:
        unique, n = name, 1
        while unique in names:
            n += 1
            unique = f"{name} ({n})"
        names.add(unique)
        found.append((unique, []))
        return found[-1][1]

    current: list[str] | None = None
    svg = bool(lines) and lines[0].startswith("<")
    for line in lines:
        if svg:
            symbol = SYMBOL.match(line)
            if symbol:
                current = start(f"symbol {symbol[1]}")
            elif current is None:
                current = start(f"part {len(found) + 1}")
            current.append(line)
            if line.startswith("</symbol>"):
                current = None
        else:
            if not line.startswith(" ") or current is None:
                words = line.split(" ", 2)
                current = start(" ".join(words[:2]) if words[0] == "page" else words[0])
            current.append(line)
    return found
