"""Reading the PDF reportlab writes: a file's bytes in, its objects (and a content stream's operations) out.

printgen copies the forms and fonts that reportlab draws into its own files
(`printgen.render.pdffile`). This reader is all that copying needs, so a
build never loads a general PDF library (importing pypdf took longer than
writing a 1000-sheet pad). It reads the PDF syntax as ISO 32000 defines it
(objects found through a cross-reference table, as reportlab writes them;
cross-reference streams and encryption, which reportlab never writes, are
refused), but it repairs nothing: a damaged file is a `PdfSyntaxError`
naming the offset.

Values are plain Python: a dictionary is a dict keyed by `Name`s, an array
a list, a name a `Name` ("/Type", the bytes between the escapes as
latin-1), an integer an int, a real a float, a string its bytes, true,
false and null True, False and None, an indirect reference a `Ref`, and a
stream a `Stream`: its dictionary and its bytes as stored.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

_WHITE = rb"\x00\t\n\x0c\r "
_SKIP = re.compile(rb"(?:[" + _WHITE + rb"]+|%[^\r\n]*)*")
_REGULAR = re.compile(rb"[^" + _WHITE + rb"()<>\[\]{}/%]+")
_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)")
_REFERENCE = re.compile(rb"[" + _WHITE + rb"]+(\d+)[" + _WHITE + rb"]+R(?![^" + _WHITE + rb"()<>\[\]{}/%])")
_OBJECT = re.compile(rb"(\d+)[" + _WHITE + rb"]+(\d+)[" + _WHITE + rb"]+obj")
_ENTRY = re.compile(rb"(\d{10}) (\d{5}) ([nf])")
_SUBSECTION = re.compile(rb"(\d+)[ ]+(\d+)")
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
            ord("("): b"(", ord(")"): b")", ord("\\"): b"\\"}
_END_OF_IMAGE = re.compile(rb"[" + _WHITE + rb"]EI(?=[" + _WHITE + rb"]|$)")
FILTERS = ("/FlateDecode", "/ASCII85Decode", "/ASCIIHexDecode")
"""The filters a stream may have to be read (reportlab writes only the first two, and only when asked)."""


class PdfSyntaxError(ValueError):
    """Bytes that are not the PDF syntax expected there (the message names the offset)."""


class Name(str):
    """A PDF name, with its slash ("/Type"); characters are the name's bytes (its #xx escapes undone) as latin-1."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Ref:
    """An indirect reference: object `number`, generation `generation`."""

    number: int
    generation: int = 0


class Operator(bytes):
    """A content stream operator ("Do", "cs"): what is left of a content stream once operands are read."""


@dataclass(slots=True)
class Stream:
    """A stream object: its dictionary and its bytes as stored (still encoded by its /Filter)."""

    dictionary: dict[Name, Any]
    stored: bytes

    def data(self) -> bytes:
        """The stream's bytes decoded (FILTERS only, without parameters; any other filter is a ValueError)."""
        filters = self.dictionary.get(Name("/Filter"))
        names = filters if isinstance(filters, list) else [filters] if filters is not None else []
        unknown = [str(f) for f in names if f not in FILTERS]
        if unknown:
            raise ValueError(f"cannot copy a stream with filter {unknown[0]}")
        if names and self.dictionary.get(Name("/DecodeParms")) is not None:
            raise ValueError("cannot copy a stream with /DecodeParms")
        data = self.stored
        for name in names:
            if name == "/FlateDecode":
                data = zlib.decompress(data)
            elif name == "/ASCII85Decode":
                data = _ascii85(data)
            else:
                data = binascii.unhexlify(_hex_digits(data.split(b">", 1)[0]))
        return data


def _skip(data: bytes, position: int) -> int:
    """Where the white space and comments at `position` end."""
    match = _SKIP.match(data, position)
    return match.end() if match else position


def _ascii85(data: bytes) -> bytes:
    body = re.sub(rb"[" + _WHITE + rb"]+", b"", data)
    body = body.removeprefix(b"<~")
    end = body.find(b"~>")
    return base64.a85decode(body[:end] if end >= 0 else body)


def _hex_digits(data: bytes) -> bytes:
    digits = re.sub(rb"[" + _WHITE + rb"]+", b"", data)
    return digits + b"0" if len(digits) % 2 else digits


class PdfObjects:
    """A PDF file's objects, read when asked for: `trailer`, `get` (an indirect object), `resolve` (a value
    that may be a reference) and `first_page`."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._offsets: dict[int, int] = {}
        self._cache: dict[int, Any] = {}
        self.trailer = self._read_xref()

    def _read_xref(self) -> dict[Name, Any]:
        data = self.data
        found = data.rfind(b"startxref")
        if found < 0:
            raise PdfSyntaxError("no startxref")
        match = _NUMBER.match(data, _skip(data, found + 9))
        if match is None:
            raise PdfSyntaxError(f"offset {found}: startxref without an offset")
        start: int | None = int(match[0])
        trailer: dict[Name, Any] | None = None
        seen = set()
        while start is not None and start not in seen:
            seen.add(start)
            section_trailer = self._read_section(start)
            if trailer is None:
                trailer = section_trailer
            previous = section_trailer.get(Name("/Prev"))
            start = previous if isinstance(previous, int) else None
        assert trailer is not None
        if Name("/Encrypt") in trailer:
            raise PdfSyntaxError("an encrypted file is not read")
        return trailer

    def _read_section(self, start: int) -> dict[Name, Any]:
        """Read the cross-reference section at `start` (entries already known from a later section win)."""
        data = self.data
        if not data.startswith(b"xref", start):
            raise PdfSyntaxError(f"offset {start}: no cross-reference table (a cross-reference stream is not read)")
        position = start + 4
        while True:
            position = _skip(data, position)
            match = _SUBSECTION.match(data, position)
            if match is None:
                break
            first, count = int(match[1]), int(match[2])
            position = match.end()
            for number in range(first, first + count):
                entry = _ENTRY.match(data, _skip(data, position))
                if entry is None:
                    raise PdfSyntaxError(f"offset {position}: not a cross-reference entry")
                position = entry.end()
                if entry[3] == b"n" and number not in self._offsets:
                    self._offsets[number] = int(entry[1])
        if not data.startswith(b"trailer", position):
            raise PdfSyntaxError(f"offset {position}: no trailer after the cross-reference table")
        trailer, _ = self._value(position + 7)
        if not isinstance(trailer, dict):
            raise PdfSyntaxError(f"offset {position}: the trailer is not a dictionary")
        return trailer

    def get(self, ref: Ref) -> Any:
        """The object `ref` refers to (null, as PDF says, when the file has no such object)."""
        if ref.number in self._cache:
            return self._cache[ref.number]
        offset = self._offsets.get(ref.number)
        if offset is None:
            return None
        header = _OBJECT.match(self.data, offset)
        if header is None or int(header[1]) != ref.number:
            raise PdfSyntaxError(f"offset {offset}: not object {ref.number}")
        value, position = self._value(header.end())
        position = _skip(self.data, position)
        if isinstance(value, dict) and self.data.startswith(b"stream", position):
            value = self._stream(value, position + 6)
        self._cache[ref.number] = value
        return value

    def resolve(self, value: Any) -> Any:
        """`value`, or what it refers to when it is a reference."""
        return self.get(value) if isinstance(value, Ref) else value

    def first_page(self) -> dict[Name, Any]:
        """The first page's dictionary (the first leaf of the page tree)."""
        node = self.resolve(self.resolve(self.trailer[Name("/Root")])[Name("/Pages")])
        for _ in range(64):
            if node.get(Name("/Type")) == "/Page":
                return node  # type: ignore[no-any-return]
            node = self.resolve(self.resolve(node[Name("/Kids")])[0])
        raise PdfSyntaxError("the page tree is deeper than 64 levels")

    def contents(self, page: dict[Name, Any]) -> bytes:
        """A page's content stream(s), decoded and joined."""
        contents = self.resolve(page.get(Name("/Contents")))
        parts = [self.resolve(part) for part in contents] if isinstance(contents, list) else [contents]
        return b"\n".join(part.data() for part in parts if part is not None)

    def _stream(self, dictionary: dict[Name, Any], position: int) -> Stream:
        data = self.data
        if data.startswith(b"\r\n", position):
            position += 2
        elif data[position:position + 1] in (b"\n", b"\r"):
            position += 1
        length = self.resolve(dictionary.get(Name("/Length")))
        if not isinstance(length, int) or isinstance(length, bool) or length < 0:
            raise PdfSyntaxError(f"offset {position}: a stream without a usable /Length")
        end = _skip(data, position + length)
        if not data.startswith(b"endstream", end):
            raise PdfSyntaxError(f"offset {position + length}: a stream's /Length does not reach its endstream")
        return Stream(dictionary, data[position:position + length])

    def _value(self, position: int) -> tuple[Any, int]:
        """The object at `position` (whitespace and comments first) and where it ends."""
        value, end = parse_value(self.data, position, references=True)
        if isinstance(value, Operator):
            raise PdfSyntaxError(f"offset {position}: {bytes(value)[:20]!r} where an object was expected")
        return value, end


def parse_value(data: bytes, position: int, references: bool) -> tuple[Any, int]:
    """The value at `position` (after whitespace and comments) and where it ends; a keyword that is no value is
    an Operator (`references`: read "1 0 R" as a Ref, as in a file; a content stream has none)."""
    position = _skip(data, position)
    if position >= len(data):
        raise PdfSyntaxError(f"offset {position}: the data ends where a value was expected")
    first = data[position]
    if first == 0x2F:  # /
        match = _REGULAR.match(data, position + 1)
        end = match.end() if match else position + 1
        return Name("/" + _unescape_name(data[position + 1:end]).decode("latin-1")), end
    if data.startswith(b"<<", position):
        return _dictionary(data, position + 2, references)
    if first == 0x5B:  # [
        items: list[Any] = []
        position += 1
        while True:
            position = _skip(data, position)
            if data.startswith(b"]", position):
                return items, position + 1
            item, position = parse_value(data, position, references)
            if isinstance(item, Operator):
                raise PdfSyntaxError(f"offset {position}: {bytes(item)[:20]!r} inside an array")
            items.append(item)
    if first == 0x28:  # (
        return _literal(data, position + 1)
    if first == 0x3C:  # <
        end = data.find(b">", position)
        if end < 0:
            raise PdfSyntaxError(f"offset {position}: a hex string without its end")
        try:
            return binascii.unhexlify(_hex_digits(data[position + 1:end])), end + 1
        except binascii.Error:
            raise PdfSyntaxError(f"offset {position}: not a hex string") from None
    match = _REGULAR.match(data, position)
    if match is None:
        raise PdfSyntaxError(f"offset {position}: unexpected {data[position:position + 1]!r}")
    token, end = match[0], match.end()
    if _NUMBER.fullmatch(token):
        if b"." in token:
            return float(token), end
        if references:
            reference = _REFERENCE.match(data, end)
            if reference is not None:
                return Ref(int(token), int(reference[1])), reference.end()
        return int(token), end
    if token in (b"true", b"false"):
        return token == b"true", end
    if token == b"null":
        return None, end
    return Operator(token), end


def _dictionary(data: bytes, position: int, references: bool) -> tuple[dict[Name, Any], int]:
    entries: dict[Name, Any] = {}
    while True:
        position = _skip(data, position)
        if data.startswith(b">>", position):
            return entries, position + 2
        key, position = parse_value(data, position, references)
        if not isinstance(key, Name):
            raise PdfSyntaxError(f"offset {position}: a dictionary key that is not a name")
        value, position = parse_value(data, position, references)
        if isinstance(value, Operator):
            raise PdfSyntaxError(f"offset {position}: {bytes(value)[:20]!r} as a dictionary value")
        entries[key] = value


def _unescape_name(raw: bytes) -> bytes:
    if b"#" not in raw:
        return raw
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m[1], 16)]), raw)


def _literal(data: bytes, position: int) -> tuple[bytes, int]:
    """A literal string's bytes (escapes and line ends as PDF reads them); `position` follows its "("."""
    out = bytearray()
    depth = 1
    size = len(data)
    while position < size:
        char = data[position]
        position += 1
        if char == 0x5C:  # backslash
            if position >= size:
                break
            following = data[position]
            position += 1
            if following in _ESCAPES:
                out += _ESCAPES[following]
            elif 0x30 <= following <= 0x37:
                digits = bytes([following])
                while len(digits) < 3 and position < size and 0x30 <= data[position] <= 0x37:
                    digits += data[position:position + 1]
                    position += 1
                out.append(int(digits, 8) & 0xFF)
            elif following == 0x0D:  # a line continuation
                if data.startswith(b"\n", position):
                    position += 1
            elif following != 0x0A:
                out.append(following)  # an unknown escape: the backslash is dropped
        elif char == 0x0D:  # an end of line in a string is a line feed
            out.append(0x0A)
            if data.startswith(b"\n", position):
                position += 1
        else:
            if char == 0x28:
                depth += 1
            elif char == 0x29:
                depth -= 1
                if depth == 0:
                    return bytes(out), position
            out.append(char)
    raise PdfSyntaxError(f"offset {position}: a string without its end")


def operations(content: bytes) -> Iterator[tuple[list[Any], bytes]]:
    """A content stream's operations in order: (operands, operator), an inline image's data skipped."""
    operands: list[Any] = []
    position = 0
    size = len(content)
    while True:
        position = _skip(content, position)
        if position >= size:
            return
        value, position = parse_value(content, position, references=False)
        if not isinstance(value, Operator):
            operands.append(value)
            continue
        yield operands, bytes(value)
        operands = []
        if value == b"ID":  # an inline image: its data runs to the EI after it
            end = _END_OF_IMAGE.search(content, position + 1)
            if end is None:
                raise PdfSyntaxError(f"offset {position}: an inline image without its EI")
            position = end.end()
            yield [], b"EI"
