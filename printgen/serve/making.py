"""Building pads for the build page: a layout's name and build options by their keys in, the PDF (or SVG) and a preview of its first page out.

The options offered and accepted are those the layout's kind declares in
`printgen.options` (nothing is listed twice), read by the same parsers as
on the command line, less the few that name files on the server (`out`,
`output`, `icc`, `backs_file`). A layout is looked up among the built-in
names only, so a path is refused. Files are written to a temporary folder
that is removed once they are read back. Builds have a queue of their own
(WORKERS, WAITING), apart from the uploads'.
"""

from __future__ import annotations

import io
import json
import re
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printgen import layouts
from printgen.build import build_options, plan
from printgen.errors import UsageProblem
from printgen.kinds import Layout, kind_of
from printgen.kinds.common import PLOTTER_PAPERS
from printgen.kinds.score_sheets import PAD
from printgen.options import BUILD_BY_KEY, Option, options_for, parse

HIDDEN = frozenset({"out", "output", "icc", "backs_file"})
"""Build options the server does not take: they name files or folders on the server."""
MOST_SHEETS = 1000
"""Largest pad built for a browser (the command line builds up to 100,000)."""
WORKERS = 1
"""Builds and previews made at once, in their own thread: they never wait behind photos being read."""
WAITING = 4
"""Builds and previews accepted at once (made or waiting); more are refused at once (503)."""
PREVIEW_WIDTH = 900
"""The preview's width in pixels."""
ON = ("on", "true", "1", "yes")
"""What a checked box of a form without JavaScript sends (and a switch may be given as in JSON)."""
OFF = ("off", "false", "0", "no")
"""What the hidden field before each box sends: the box unticked."""
HELP: dict[tuple[str, str], str] = {
    ("sheets", ""): f"Sheets in the pad, 1 to {MOST_SHEETS:,} (default {PAD}; the command line printgen build "
                    "makes larger pads).",
    ("per_page", "score-sheet"): "1, 2 or 4 sheets a page (default: as many as fit the paper at full size, A5 1, "
                                 "A4 and Letter 2, A3 and Tabloid 4; 1: each page is the sheet's own size).",
    ("per_page", "deck"): "At most this many cards a page (default: as many as fit; 1: print-shop pages with trim "
                          "and bleed boxes).",
    ("bleed", "score-sheet"): "Bleed around each sheet when per page is 1 (default 0), 0 to 10 mm; other units: "
                              "0.125in.",
    ("bleed", "deck"): "Bleed around each card (default 3 mm), 0 to 10 mm; other units: 0.125in.",
    ("scan_marks", ""): "Corner markers and a small code that the Score page reads from a photo of the sheet "
                        "(unticked: none).",
    ("crop_marks", ""): "Crop marks outside the bleed (unticked: none).",
    ("alignment_page", ""): "Add a duplex test page; its rulers read off your printer's offset for back offset.",
    ("tile", ""): "Print the board over several pages of the paper chosen, with glue strips and alignment crosses.",
    ("seed", ""): "Seed for sheets that differ (lucky numbers, shuffle): the same seed gives the same pad.",
}
"""The build page's help where the command line's would mislead here (its limits, flags, other kinds), by
option key and layout kind ("" for any kind)."""


@dataclass(frozen=True, slots=True)
class Made:
    """A built file: the name to download it as, its bytes and media type."""

    name: str
    data: bytes
    media_type: str


def layout_names() -> list[str]:
    """The layouts the build page offers: the built-in ones."""
    return layouts.builtin_names()


def load_layout(name: object) -> Layout:
    """The built-in layout called `name`; UsageProblem for anything else (a path included)."""
    if name is None or name == "":
        raise UsageProblem("layout: choose one of the built-in layouts (see the build page's list)")
    if not isinstance(name, str) or name not in layouts.builtin_names():
        raise UsageProblem(f"layout: {_typed(name)} is not a built-in layout (see the build page's list)")
    return layouts.load(name)


def page_help(option: Option, layout: Layout) -> str:
    """What the build page says of `option` for `layout`: the command line's help, or HELP where that would
    name flags, limits or kinds that do not hold here."""
    return HELP.get((option.key, layout.kind)) or HELP.get((option.key, "")) or option.help


def label(option: Option) -> str:
    """The option's name on the build page (`per page`; the JSON API takes per_page and per-page alike)."""
    return option.key.replace("_", " ")


def placeholder(option: Option) -> str:
    """What an empty text box shows: the form of a value and, if it has one, the default as one would type it
    (`X,Y (default 0,0)`, `LENGTH (default 5 mm)`)."""
    default = option.default
    if default is None or isinstance(default, bool):
        return option.metavar
    if isinstance(default, tuple):
        typed = ",".join(_number(v) for v in default)
    else:
        typed = _number(default) + (" mm" if option.metavar == "LENGTH" else "")
    return f"{option.metavar} (default {typed})"


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def offered(layout: Layout) -> list[Option]:
    """The build options `layout` takes and the server accepts, in declaration order."""
    return [option for option in options_for(kind_of(layout).name, layout) if option.key not in HIDDEN]


def choices(option: Option, layout: Layout) -> tuple[str, ...]:
    """The values the build page offers for `option` of `layout`: its choices, less the papers only the board
    prints on for anything else (chosen, they were refused)."""
    if option.key != "paper" or kind_of(layout).name == "board":
        return tuple(option.choices)
    return tuple(c for c in option.choices if c not in PLOTTER_PAPERS)


def read_request(values: Mapping[str, Any], from_form: bool = False) -> tuple[Layout, dict[str, Any]]:
    """The layout and the options a build request names by key (per_page or per-page; empty values left out:
    the defaults hold), each read by its declaration; UsageProblem `key: what is wrong`, in plain words and
    values as a person types them, for anything else."""
    layout = load_layout(values.get("layout"))
    taken = {option.key: option for option in offered(layout)}
    given: dict[str, Any] = {}
    spelt: dict[str, str] = {}
    for named, value in values.items():
        key = named.replace("-", "_")
        if key in spelt:  # per_page and per-page both: which one was meant?
            raise UsageProblem(f"{named[:40]}: given twice, also as {spelt[key][:40]}; give it once")
        spelt[key] = named
        if key == "layout" or value is None or value == "":
            continue
        option = taken.get(key)
        if option is None:
            about = ("is not a build option" if key not in BUILD_BY_KEY else
                     "is not offered here: it names a file or folder on the server (printgen build takes it)"
                     if key in HIDDEN else f"does not apply to {layout.name}")
            raise UsageProblem(f"{label(BUILD_BY_KEY[key]) if key in BUILD_BY_KEY else named[:40] or chr(34) * 2}: "
                               f"{about}")
        shown = label(option)  # every message names the option as the build page does (per page)
        if option.switch:
            given[key] = _switch(shown, value)
            continue
        text = _typed(value, shown)
        if any(c.isdigit() and not c.isascii() for c in text):  # int() takes them
            raise UsageProblem(f"{shown}: {text[:40]}: write numbers with the digits 0 to 9")
        try:
            given[key] = parse(option, text, shown)
        except UsageProblem as error:
            if key == "sheets":
                raise UsageProblem(f"sheets: {text[:40]}: give a whole number from 1 to {MOST_SHEETS:,}") from None
            raise UsageProblem(_plain(str(error), text)) from None
    if given.get("sheets", 0) > MOST_SHEETS:
        raise UsageProblem(f"sheets: at most {MOST_SHEETS:,} here (the command line printgen build makes larger "
                           "pads)")
    return layout, given


def _switch(key: str, value: object) -> bool:
    """A switch's value: true or false (JSON), or on/off and the like (a form, or words); UsageProblem else."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ON + OFF:
        return value.strip().lower() in ON
    raise UsageProblem(f"{key}: {_typed(value)[:40]} is not on or off (give true or false)")


def _typed(value: object, key: str = "") -> str:
    """A value from a request as a person would type it: text as it is, numbers and true/false as in JSON;
    UsageProblem for a list or an object."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)) or value is None:
        return json.dumps(value)
    raise UsageProblem(f"{key or 'layout'}: give one value, not a list or an object")


def _plain(message: str, text: str) -> str:
    """A parser's message with the value as typed (no Python quotes) and ranges in words."""
    message = message.replace(repr(text), text)
    return re.sub(r"is out of range ([\d,.-]+)\.\.([\d,.-]+)", r"must be from \1 to \2", message)


def make(layout: Layout, given: Mapping[str, Any]) -> Made:
    """Build `layout` with `given` options; the PDF or the SVG, or one ZIP file when more is written (several
    SVGs, or both formats: `--format both`)."""
    with tempfile.TemporaryDirectory(prefix="printgen-serve-") as folder:
        try:
            options = build_options(layout, {**given, "out": Path(folder)}, shown=label)
            written = [item.path for item in plan(layout, options, shown=label).write()]
        except UsageProblem as error:
            raise UsageProblem(as_named_here(str(error))) from None
        if len(written) > 1 or written[0].is_dir():
            name = written[0].stem  # (both formats: the PDF's name, which says the most: qwixx-standard-2sheets)
            return Made(f"{name}.zip", _zipped(written, Path(folder)), "application/zip")
        path = written[0]
        media = "application/pdf" if path.suffix == ".pdf" else "image/svg+xml"
        return Made(path.name, path.read_bytes(), media)


def preview(layout: Layout, given: Mapping[str, Any]) -> bytes:
    """The first page of the PDF `given` would build, as PNG (a few sheets are enough to show it)."""
    from printgen.preview import opened_pdf, render_page

    quick = {key: value for key, value in given.items() if key not in ("format", "svg_text")}
    if "sheets" in quick:
        quick["sheets"] = min(quick["sheets"], 4)
    made = make(layout, quick)
    with opened_pdf(io.BytesIO(made.data)) as document:
        picture = render_page(document, 0, PREVIEW_WIDTH)
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()


SHORT_FLAGS = {"-f": "format", "-p": "paper"}
"""The command line's short flags a library message may use, by the names the build page gives them."""


def as_named_here(message: str) -> str:
    """A build's message with the command line's flags (`--per-page 2`, `-f svg`) named as the build page names
    the options (`per page 2`, `format svg`)."""
    message = re.sub(r"(?<![\w-])--(no-)?([a-z][a-z0-9-]*)",
                     lambda m: m.group(2).replace("-", " ") + (" unticked" if m.group(1) else ""), message)
    return re.sub(r"(?<![\w-])(-[fp]) (?=\w)", lambda m: SHORT_FLAGS[m.group(1)] + " ", message)




def _zipped(written: list[Path], base: Path) -> bytes:
    """The files written (and those in the folders written), named from `base`, as one ZIP file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for item in written:
            for path in sorted([item, *item.rglob("*")] if item.is_dir() else [item]):
                if path.is_file():
                    archive.write(path, path.relative_to(base).as_posix())
    return out.getvalue()
