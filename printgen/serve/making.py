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
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from printgen import layouts
from printgen.build import build_options, plan
from printgen.errors import UsageProblem, shown
from printgen.kinds import Layout, kind_of
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
"""What a checked box of a form without JavaScript sends."""


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
    if not isinstance(name, str) or name not in layouts.builtin_names():
        raise UsageProblem(f"layout: {shown(name)} is not a built-in layout (see the build page's list)")
    return layouts.load(name)


def offered(layout: Layout) -> list[Option]:
    """The build options `layout` takes and the server accepts, in declaration order."""
    return [option for option in options_for(kind_of(layout).name, layout) if option.key not in HIDDEN]


def read_request(values: Mapping[str, Any], from_form: bool = False) -> tuple[Layout, dict[str, Any]]:
    """The layout and the options a build request names (empty values left out: the defaults hold), each
    read by its declaration; UsageProblem `key: what is wrong` for anything else."""
    layout = load_layout(values.get("layout"))
    taken = {option.key: option for option in offered(layout)}
    given: dict[str, Any] = {}
    for key, value in values.items():
        if key == "layout" or value is None or value == "":
            continue
        option = taken.get(key)
        if option is None:
            about = "is not a build option" if key not in BUILD_BY_KEY else f"does not apply to {layout.name} here"
            raise UsageProblem(f"{shown(key)}: {about}")
        if option.switch and from_form and isinstance(value, str):
            value = value.lower() in ON
        if isinstance(value, str) and any(c.isdigit() and not c.isascii() for c in value):  # int() takes them
            raise UsageProblem(f"{key}: {value[:40]}: write numbers with the digits 0 to 9")
        given[key] = parse(option, value, key)
    if given.get("sheets", 0) > MOST_SHEETS:
        raise UsageProblem(f"sheets: at most {MOST_SHEETS:,} here (printgen build makes larger pads)")
    return layout, given


def make(layout: Layout, given: Mapping[str, Any]) -> Made:
    """Build `layout` with `given` options; the PDF or the SVG, or one ZIP file when more is written (several
    SVGs, or both formats: `--format both`)."""
    with tempfile.TemporaryDirectory(prefix="printgen-serve-") as folder:
        options = build_options(layout, {**given, "out": Path(folder)}, shown=_key)
        written = [item.path for item in plan(layout, options, shown=_key).write()]
        if len(written) > 1 or written[0].is_dir():
            name = written[0].stem if len(written) == 1 else layout.name
            return Made(f"{name}.zip", _zipped(written, Path(folder)), "application/zip")
        path = written[0]
        media = "application/pdf" if path.suffix == ".pdf" else "image/svg+xml"
        return Made(path.name, path.read_bytes(), media)


def preview(layout: Layout, given: Mapping[str, Any]) -> bytes:
    """The first page of the PDF `given` would build, as PNG (a few sheets are enough to show it)."""
    from printgen.preview import open_pdf, render_page

    quick = {key: value for key, value in given.items() if key not in ("format", "svg_text")}
    if "sheets" in quick:
        quick["sheets"] = min(quick["sheets"], 4)
    made = make(layout, quick)
    document = open_pdf(io.BytesIO(made.data))
    try:
        picture = render_page(document, 0, PREVIEW_WIDTH)
    finally:
        document.close()
    out = io.BytesIO()
    picture.save(out, "PNG", optimize=True)
    return out.getvalue()


def _key(option: Option) -> str:
    return option.key


def _zipped(written: list[Path], base: Path) -> bytes:
    """The files written (and those in the folders written), named from `base`, as one ZIP file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for item in written:
            for path in sorted([item, *item.rglob("*")] if item.is_dir() else [item]):
                if path.is_file():
                    archive.write(path, path.relative_to(base).as_posix())
    return out.getvalue()
