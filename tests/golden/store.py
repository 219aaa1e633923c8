"""The golden reference files: normalised outputs of a group of commands in, one text file out (and back).

A file holds, for each command, every output it made (its printed lines,
then each file it wrote), as normalised by tests/golden/normalise.py. Most
of a deck's card faces, or of a variant of a sheet, repeat or nearly repeat
something earlier in the file, so each block (a PDF page or object, an SVG
`<symbol>`) is written either in full or, when that is much shorter, as the
block it resembles with edits:

    ==> [2] printgen build qwixx-cards-deck --duplex short     a command (numbered in the file)
    --> qwixx-cards-deck-short-edge.pdf                         an output of it, normalised
    page 1 <</MediaBox [0 0 595.2756 841.8898] ...>>            a block in full
    ~~ [1] qwixx-cards-deck.pdf form12                          a block: this earlier one, with the edits
    @@ 3 5                                                      its lines 3 and 4 (from 0) replaced by
    +  .843137 .14902 .239216 rg                                these lines ("@@ 3 3" inserts, no "+" deletes)

Comparison always uses the decoded outputs, whatever was shortened here,
so a failing test shows the lines of the output itself.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from tests.golden.normalise import blocks

COMMAND, OUTPUT, LIKE, EDIT, ADD = "==> ", "--> ", "~~ ", "@@ ", "+"
MARKERS = (COMMAND, OUTPUT, LIKE, EDIT, ADD, "#")
PRINTED = "(printed)"
"""The name of a command's printed lines among its outputs."""

CANDIDATES = 80
"""How many earlier blocks of the same kind are tried as the base of a block (the most recent ones)."""


@dataclass
class Case:
    """One command and what it made: output name -> normalised lines, in the order made."""

    command: str
    outputs: dict[str, list[str]] = field(default_factory=dict)


def _kind(block_name: str) -> str:
    """What kind of block a block is (`page`, `form`, `font`, `symbol`, ...): only blocks of one kind are
    stored as edits of each other."""
    return block_name.rstrip("0123456789 ()").split(" ", 1)[0].rstrip("0123456789")


def _cut(name: str, lines: list[str]) -> list[tuple[str, list[str]]]:
    return [("printed", lines)] if name == PRINTED else blocks(lines)


def _edits(base: list[str], lines: list[str]) -> list[str]:
    found = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, base, lines, autojunk=False).get_opcodes():
        if tag != "equal":
            found.append(f"{EDIT}{i1} {i2}")
            found += [ADD + line for line in lines[j1:j2]]
    return found


def _size(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


def encode(cases: list[Case], header: list[str]) -> str:
    """The text of a golden file holding `cases` (each block in full or as edits of an earlier one)."""
    out = [f"# {line}" if line else "#" for line in header]
    exact: dict[tuple[str, ...], str] = {}
    recent: dict[str, list[tuple[str, list[str]]]] = {}
    for number, case in enumerate(cases, start=1):
        out.append(f"{COMMAND}[{number}] {case.command}")
        for name, lines in case.outputs.items():
            out.append(OUTPUT + name)
            for block, block_lines in _cut(name, lines):
                for line in block_lines:
                    if line.startswith(MARKERS):
                        raise ValueError(f"{name}: the line {line!r} would read as a marker of the golden file")
                reference = f"[{number}] {name} {block}"
                key = tuple(block_lines)
                like = exact.get(key)
                if like is not None:
                    out.append(LIKE + like)
                else:
                    best, best_ratio = None, 0.0
                    matcher = difflib.SequenceMatcher(None, autojunk=False)
                    matcher.set_seq2(block_lines)
                    for candidate, candidate_lines in reversed(recent.get(_kind(block), [])[-CANDIDATES:]):
                        matcher.set_seq1(candidate_lines)
                        if matcher.real_quick_ratio() > best_ratio and matcher.quick_ratio() > best_ratio:
                            ratio = matcher.ratio()
                            if ratio > best_ratio:
                                best, best_ratio = (candidate, candidate_lines), ratio
                    edits = _edits(best[1], block_lines) if best is not None else []
                    if best is not None and _size(edits) + len(best[0]) < _size(block_lines) // 2:
                        out += [LIKE + best[0], *edits]
                    else:
                        out += block_lines
                    exact[key] = reference
                recent.setdefault(_kind(block), []).append((reference, block_lines))
    return "\n".join(out) + "\n"


def decode(text: str) -> list[Case]:
    """The cases of a golden file's `text` (every block in full)."""
    return _Decoder().read(text.splitlines())


class _Decoder:
    def __init__(self) -> None:
        self.cases: list[Case] = []
        self.known: dict[str, list[str]] = {}
        """Every block of the outputs read so far, by the name a "~~" line gives it."""
        self.name = ""
        self.lines: list[str] | None = None

    def remember(self) -> None:
        """Name the blocks of the output being read (all complete up to here)."""
        if self.lines is not None:
            for block, block_lines in _cut(self.name, self.lines):
                self.known[f"[{len(self.cases)}] {self.name} {block}"] = block_lines

    def read(self, text: list[str]) -> list[Case]:
        index = 0
        while index < len(text):
            line = text[index]
            index += 1
            if line.startswith("#") and not self.cases:
                continue
            if line.startswith(COMMAND):
                self.remember()
                self.lines = None
                number, command = line[len(COMMAND):].split(" ", 1)
                if number != f"[{len(self.cases) + 1}]":
                    raise ValueError(f"golden file: command {number} out of order")
                self.cases.append(Case(command))
            elif line.startswith(OUTPUT):
                self.remember()
                self.name = line[len(OUTPUT):]
                self.lines = self.cases[-1].outputs[self.name] = []
            elif self.lines is None:
                raise ValueError(f"golden file: {line[:60]!r} is outside any output")
            elif line.startswith(LIKE):
                self.remember()
                reference = line[len(LIKE):]
                if reference not in self.known:
                    raise ValueError(f"golden file: {reference!r} is not a block earlier in the file")
                base, at = self.known[reference], 0
                while index < len(text) and text[index].startswith((EDIT, ADD)):
                    edit = text[index]
                    index += 1
                    if edit.startswith(EDIT):
                        start, end = map(int, edit[len(EDIT):].split())
                        self.lines += base[at:start]
                        at = end
                    else:
                        self.lines.append(edit[len(ADD):])
                self.lines += base[at:]
            else:
                self.lines.append(line)
        self.remember()
        return self.cases
