"""PDF file structure both PDF writers share: numbered objects in, a well-formed, reproducible PDF file out.

`PdfFile` writes each object straight to the file and keeps only its offset
(in an array: a 100,000-sheet pad has 100,000 objects); the trailer's /ID is
a hash of every byte written before it. `Copier` brings objects across from
a PDF that `printgen.render.pdfread` read (reportlab's output), renumbered,
streams recompressed, each embedded font subset renamed with a tag derived
from its own glyph program. `PageTree` hangs pages in a balanced tree of /Pages nodes. Text
strings are ASCII (a subset of PDFDocEncoding) or UTF-16BE with a byte
order mark; `output_intent` embeds a press profile as a GTS_PDFX
OutputIntent.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
import zlib
from array import array
from collections import deque
from typing import IO, Any

from printgen.colour_management import BUNDLED_CONDITION, Press
from printgen.render.pdfread import Name, PdfObjects, Ref, Stream, operations

REMEMBERED_PAGES = 10_000
"""Most distinct page contents kept whole for a quick match (a pad has a few hundred; a deck of all-different
pages keeps the first ones, and every page is still counted by its digest)."""
FANOUT = 1000
"""Most kids of one /Pages node (PDF 1.4's implementation limit is 8,191 per array)."""
_TAGGED = re.compile(r"^/[A-Z]{6}\+")
_DEVICE_SPACES = {"/DeviceGray", "/DeviceRGB", "/DeviceCMYK", "/Pattern"}
_SELECTS_SPACE = re.compile(rb"(/[^\s/\[\]()<>{}%]+)\s+(?:CS|cs)\b")
"""A colour space name and the operator selecting it (a quick look before parsing a content stream)."""
_NAME_DELIMITERS = frozenset(b"#()<>[]{}/%")
_PLAIN_NAME = re.compile(rb"[^\x00-\x20\x7f-\xff#()<>\[\]{}/%]*")


class _Raw:
    """Bytes already serialised (a reference into the new file), standing where a value read would."""

    def __init__(self, data: bytes) -> None:
        self.data = data


REGISTRATION_SPACE = (b"[/Separation /All /DeviceCMYK << /FunctionType 2 /Domain [0 1] /C0 [0 0 0 0] /C1 [1 1 1 1] "
                      b"/N 1 >>]")
"""The registration colour space: a full tint of it is a full tint of every ink."""


def text_string(value: str) -> bytes:
    """`value` as a PDF text string: a literal string when it is printable ASCII, else UTF-16BE with a BOM."""
    if all(32 <= ord(ch) < 127 for ch in value):
        escaped = value.encode("ascii").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
        return b"(" + escaped + b")"
    return b"<feff" + value.encode("utf-16-be").hex().encode("ascii") + b">"


def subset_tag(program: bytes) -> str:
    """Six capital letters derived from a font subset's program: different subsets, different tags."""
    number = int.from_bytes(hashlib.sha256(program).digest()[:8], "big")
    letters = []
    for _ in range(6):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(letters)


def pdf_number(value: float) -> bytes:
    """A PDF number with at most four decimals and no trailing zeros."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return (text if text not in ("", "-0") else "0").encode()


def pack(data: bytes) -> bytes:
    """`data` Flate-compressed as every stream printgen writes is (level 6)."""
    return zlib.compress(data, 6)


class PdfFile:
    """A PDF being written: object numbers handed out, objects written as they come, xref and trailer at the end."""

    def __init__(self, out: IO[bytes], version: str = "1.4") -> None:
        self._out = out
        self._hash = hashlib.sha256()
        self._position = 0
        self._offsets = array("Q", [0])  # index: object number; 0 until written
        self._write(b"%PDF-" + version.encode("ascii") + b"\n%\xe2\xe3\xcf\xd3\n")

    def _write(self, data: bytes) -> None:
        self._out.write(data)
        self._hash.update(data)
        self._position += len(data)

    def reserve(self) -> int:
        """A new object number, to be written later."""
        self._offsets.append(0)
        return len(self._offsets) - 1

    def obj(self, number: int, body: bytes) -> None:
        """Write object `number` with `body`."""
        self._offsets[number] = self._position
        self._write(b"%d 0 obj\n%s\nendobj\n" % (number, body))

    def stream(self, number: int, entries: bytes, data: bytes) -> None:
        """Write object `number` as a Flate-compressed stream of `data`; `entries` are its other dictionary entries."""
        self.packed_stream(number, entries, pack(data))

    def packed_stream(self, number: int, entries: bytes, packed: bytes) -> None:
        """Write object `number` as a stream whose data `pack` already compressed (the same for equal data)."""
        self._offsets[number] = self._position
        head = b"%d 0 obj\n<< %s/Filter /FlateDecode /Length %d >>\nstream\n" % (
            number, entries + b" " if entries else b"", len(packed))
        self._write(head + packed + b"\nendstream\nendobj\n")

    def finish(self, root: int, info: int) -> None:
        """Write the cross-reference table and the trailer; /ID is a hash of everything written so far."""
        missing = [n for n in range(1, len(self._offsets)) if self._offsets[n] == 0]
        if missing:
            raise ValueError(f"objects {missing[:5]} were reserved but never written")
        file_id = self._hash.hexdigest()[:32].encode("ascii")
        start = self._position
        size = len(self._offsets)
        self._write(b"xref\n0 %d\n0000000000 65535 f \n" % size)
        for first in range(1, size, 10_000):
            chunk = self._offsets[first:first + 10_000]
            self._write(b"".join(b"%010d 00000 n \n" % offset for offset in chunk))
        self._write(b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%s> <%s>] >>\nstartxref\n%d\n%%%%EOF\n"
                    % (size, root, info, file_id, file_id, start))


class PageTree:
    """Pages in, in order; a balanced tree of /Pages nodes (at most FANOUT kids each) under `root` out."""

    def __init__(self, file: PdfFile, root: int) -> None:
        self.file = file
        self.root = root
        self._pages = array("Q")
        self._leaves = array("Q")

    def parent(self) -> int:
        """The /Pages node the next page hangs from (call once per page, then `add` it)."""
        if len(self._leaves) * FANOUT <= len(self._pages):
            self._leaves.append(self.file.reserve())
        return self._leaves[-1]

    def add(self, page: int) -> None:
        """Record the next page (written with /Parent from `parent()`)."""
        self._pages.append(page)

    def __len__(self) -> int:
        return len(self._pages)

    def write(self) -> None:
        """Write every /Pages node: leaves of pages, nodes of nodes as deep as needed, the root on top."""
        pages = self._pages
        nodes: list[tuple[int, Any, int]] = []  # (object number, kids, pages below)
        level: list[tuple[int, int]] = []  # (object number, pages below) of the level being grouped
        for i, leaf in enumerate(self._leaves):
            kids = pages[i * FANOUT:(i + 1) * FANOUT]
            nodes.append((leaf, kids, len(kids)))
            level.append((leaf, len(kids)))
        while len(level) > FANOUT:
            upper = []
            for i in range(0, len(level), FANOUT):
                group = level[i:i + FANOUT]
                node, total = self.file.reserve(), sum(count for _, count in group)
                nodes.append((node, [kid for kid, _ in group], total))
                upper.append((node, total))
            level = upper
        nodes.append((self.root, [kid for kid, _ in level], len(pages)))
        parent_of = {kid: node for node, kids, _ in nodes[len(self._leaves):] for kid in kids}
        for node, kids, count in nodes:
            parent = b"" if node == self.root else b" /Parent %d 0 R" % parent_of[node]
            refs = b" ".join(b"%d 0 R" % kid for kid in kids)
            self.file.obj(node, b"<< /Type /Pages%s /Count %d /Kids [%s] >>" % (parent, count, refs))


class Copier:
    """Copies objects of a PDF read by `printgen.render.pdfread` (reportlab's output) into a PdfFile, renumbered,
    font subsets renamed by content.

    Values are written as pypdf wrote them when it did this copying (a real
    with at most eight significant decimals, "0.0" for zero), so files stay
    the same byte for byte; a string is written as a literal when it is
    printable ASCII, else as hex of its very bytes. `colour_spaces`
    (resource name -> the colour space's PDF object) fills in colour spaces
    that a form's content selects but its resources do not define
    (reportlab lists none in forms), each written once when first needed;
    any other undefined one is an error rather than a broken file.
    """

    def __init__(self, file: PdfFile, source: PdfObjects, colour_spaces: dict[str, bytes] | None = None) -> None:
        self.file = file
        self.source = source
        self._spaces = colour_spaces or {}
        self._space_numbers: dict[str, int] = {}
        self._numbers: dict[int, int] = {}
        self._pending: deque[Ref] = deque()
        self._tags: dict[int, str] = {}
        self._renames: dict[int, tuple[bytes, bytes]] = {}
        """ToUnicode stream -> (old font name, new) to replace inside it."""

    def ref(self, indirect: Ref) -> bytes:
        """A reference to the copy of `indirect` (queued for copying the first time)."""
        key = indirect.number
        if key not in self._numbers:
            self._numbers[key] = self.file.reserve()
            self._pending.append(indirect)
        return b"%d 0 R" % self._numbers[key]

    def value(self, value: Any) -> bytes:
        """`value` serialised, references renumbered."""
        if isinstance(value, Ref):
            return self.ref(value)
        if isinstance(value, _Raw):
            return value.data
        if isinstance(value, dict):
            return self.dictionary(value)
        if isinstance(value, list):
            return b"[" + b" ".join(self.value(v) for v in value) + b"]"
        if isinstance(value, Name):
            return name_bytes(value)
        if isinstance(value, bool):
            return b"true" if value else b"false"
        if isinstance(value, int):
            return b"%d" % value
        if isinstance(value, float):
            return real(value)
        if value is None:
            return b"null"
        if isinstance(value, bytes):
            if all(32 <= byte < 127 for byte in value):
                return text_string(value.decode("ascii"))
            return b"<" + value.hex().encode("ascii") + b">"
        raise TypeError(f"cannot copy a {type(value).__name__} inside an object")

    def dictionary(self, value: dict[Name, Any], extra: bytes = b"") -> bytes:
        """A dictionary serialised (font subsets retagged), plus `extra` entries."""
        return b"<< " + self.entries(value) + extra + b" >>"

    def entries(self, value: dict[Name, Any], skip: tuple[str, ...] = ()) -> bytes:
        """A dictionary's entries serialised, less the keys in `skip`."""
        renamed = self._font_name(value)
        parts = []
        for key, item in value.items():
            if key in skip:
                continue
            if renamed is not None and key in ("/BaseFont", "/FontName"):
                item = Name(renamed)
            parts.append(name_bytes(key) + b" " + self.value(item))
        return b" ".join(parts)

    def flush(self) -> None:
        """Write every object referenced so far (and what those reference)."""
        while self._pending:
            indirect = self._pending.popleft()
            number = self._numbers[indirect.number]
            target = self.source.get(indirect)
            if isinstance(target, Stream):
                data = target.data()
                rename = self._renames.get(indirect.number)
                if rename is not None:
                    data = data.replace(rename[0], rename[1])
                dictionary = target.dictionary
                if dictionary.get(Name("/Subtype")) == "/Form":
                    dictionary = self._complete_colour_spaces(dictionary, data)
                entries = self.entries(dictionary, skip=("/Length", "/Filter", "/DecodeParms"))
                self.file.stream(number, entries, data)
            else:
                self.file.obj(number, self.value(target))

    def _complete_colour_spaces(self, form: dict[Name, Any], data: bytes) -> dict[Name, Any]:
        """`form`'s dictionary, with every colour space its content selects defined in its resources."""
        if all(m[1].decode("latin-1") in _DEVICE_SPACES for m in _SELECTS_SPACE.finditer(data)):
            return form  # only device colours (the common case): no need to parse the whole stream
        used = {str(operands[0]) for operands, operator in operations(data)
                if operator in (b"CS", b"cs") and operands and str(operands[0]) not in _DEVICE_SPACES}
        resources = self.source.resolve(form.get(Name("/Resources")))
        resources = dict(resources.items()) if resources is not None else {}
        spaces = self.source.resolve(resources.get(Name("/ColorSpace")))
        spaces = dict(spaces.items()) if spaces is not None else {}
        missing = sorted(used - set(spaces))
        if not missing:
            return form
        for name in missing:
            if name[1:] not in self._spaces:
                raise ValueError(f"a form selects colour space {name}, which nothing defines")
            if name not in self._space_numbers:
                self._space_numbers[name] = self.file.reserve()
                self.file.obj(self._space_numbers[name], self._spaces[name[1:]])
            spaces[Name(name)] = _Raw(b"%d 0 R" % self._space_numbers[name])
        resources[Name("/ColorSpace")] = spaces
        completed = dict(form.items())
        completed[Name("/Resources")] = resources
        return completed

    def _font_name(self, value: dict[Name, Any]) -> str | None:
        """The retagged name of a font or font descriptor with a subset tag, else None."""
        name = self.source.resolve(value.get(Name("/BaseFont"), value.get(Name("/FontName"))))
        if not isinstance(name, Name) or not _TAGGED.match(name):
            return None
        descriptor = value if "/FontName" in value else self._descriptor(value)
        if descriptor is None:
            return None
        raw = next((descriptor[Name(k)] for k in ("/FontFile2", "/FontFile3", "/FontFile") if k in descriptor), None)
        if raw is None:
            return None
        key = raw.number if isinstance(raw, Ref) else id(raw)
        if key not in self._tags:
            program = self.source.resolve(raw)
            if not isinstance(program, Stream):
                return None
            self._tags[key] = subset_tag(program.data())
        renamed = f"/{self._tags[key]}{name[7:]}"
        unicode = value.get(Name("/ToUnicode"))
        if isinstance(unicode, Ref):
            self._renames[unicode.number] = (name[1:].encode("latin-1"), renamed[1:].encode("latin-1"))
        return renamed

    def _descriptor(self, font: dict[Name, Any]) -> Any:
        resolve = self.source.resolve
        if "/FontDescriptor" in font:
            return resolve(font[Name("/FontDescriptor")])
        descendants = resolve(font.get(Name("/DescendantFonts")))
        if descendants:
            inner = resolve(descendants[0])
            if "/FontDescriptor" in inner:
                return resolve(inner[Name("/FontDescriptor")])
        return None


def name_bytes(name: str) -> bytes:
    """A name as a PDF writes it: its bytes, delimiters, white space and bytes beyond "~" as #xx."""
    raw = name[1:].encode("latin-1")
    if _PLAIN_NAME.fullmatch(raw):
        return b"/" + raw
    return b"/" + b"".join(bytes([byte]) if 33 <= byte <= 126 and byte not in _NAME_DELIMITERS else b"#%02X" % byte
                           for byte in raw)


def real(value: float) -> bytes:
    """A real number as pypdf wrote it (at most eight significant decimals, "0.0" for zero)."""
    if value == 0:
        return b"0.0"
    decimals = max(1, 8 - int(math.log10(abs(value))))
    return f"{value:.{decimals}f}".rstrip("0").rstrip(".").encode("ascii")


def output_intent(file: PdfFile, press: Press) -> int:
    """Write `press`'s profile and a GTS_PDFX OutputIntent naming it; returns the intent's object number."""
    profile = file.reserve()
    file.stream(profile, b"/N 4", press.data)
    intent = file.reserve()
    entries = [b"/Type /OutputIntent /S /GTS_PDFX",
               b"/OutputConditionIdentifier " + text_string(press.condition),
               b"/Info " + text_string(press.description),
               b"/DestOutputProfile %d 0 R" % profile]
    if press.condition == BUNDLED_CONDITION:
        entries.insert(2, b"/RegistryName (http://www.color.org)")
        entries.insert(3, b"/OutputCondition " + text_string(
            "Offset printing on coated paper (ISO 12647-2:2004/Amd 1, FOGRA39)"))
    file.obj(intent, b"<< " + b" ".join(entries) + b" >>")
    return intent


def write_info(file: PdfFile, title: str, subject: str, timestamp: bool = False, producer: str = "printgen") -> int:
    """Write the document information dictionary; returns its object number (a creation date only if `timestamp`)."""
    entries = [b"/Title " + text_string(title), b"/Subject " + text_string(subject),
               b"/Author (printgen) /Creator (printgen) /Producer " + text_string(producer)]
    if timestamp:
        entries.append(b"/CreationDate " + text_string(time.strftime("D:%Y%m%d%H%M%S")))
    number = file.reserve()
    file.obj(number, b"<< " + b" ".join(entries) + b" >>")
    return number


class PageGroups:
    """A PDF's pages counted by content: identical pages (same size, same content stream) form one group
    [first page (1-based), count, width mm, height mm], in the order their first pages come."""

    def __init__(self) -> None:
        self._groups: dict[bytes, list[Any]] = {}
        self._recent: dict[tuple[tuple[float, float], bytes], list[Any]] = {}
        self.pages = 0

    def add(self, size: tuple[float, float], content: bytes) -> None:
        """Count the next page, of `size` mm, whose content stream is `content`."""
        self.pages += 1
        group = self._recent.get((size, content))
        if group is None:
            digest = hashlib.sha1(repr((round(size[0], 1), round(size[1], 1))).encode() + content,
                                  usedforsecurity=False).digest()
            group = self._groups.get(digest)
            if group is None:
                group = self._groups[digest] = [self.pages, 0, round(size[0], 1), round(size[1], 1)]
            if len(self._recent) < REMEMBERED_PAGES:
                self._recent[(size, content)] = group
        group[1] += 1

    def groups(self) -> list[tuple[int, int, float, float]]:
        """Every group as (first page, count, width mm, height mm), first pages ascending."""
        return [(g[0], g[1], g[2], g[3]) for g in self._groups.values()]
