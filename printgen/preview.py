"""Previews: PDFs and batch results in, PNG thumbnails of every page and the OUT/index.html page out.

Thumbnails are rendered with pypdfium2 (a pip wheel, no system package).
The index page is a jinja2 template with autoescaping on: every name and
option that reaches it is escaped.
"""

from __future__ import annotations

import os
from pathlib import Path

from printgen.output import atomic_file, atomic_folder

THUMB_WIDTH = 260
"""Thumbnail width in pixels."""


def page_count(pdf: Path) -> int:
    """Pages in a PDF."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


def thumbnails(pdf: Path, folder: Path, width: int = THUMB_WIDTH) -> list[Path]:
    """A PNG of every page of `pdf`, `width` pixels wide, written into `folder` (replaced whole)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    names = []
    try:
        with atomic_folder(folder) as temporary:
            for index, page in enumerate(document):
                scale = width / page.get_width()
                name = f"page-{index + 1:03d}.png"
                page.render(scale=scale).to_pil().save(temporary / name)
                names.append(name)
    finally:
        document.close()
    return [folder / name for name in names]


def write_index(results: list, out: Path) -> Path:  # type: ignore[type-arg]
    """OUT/index.html: every file of a batch, grouped by game, with its details and page thumbnails."""
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("printgen", "templates"), autoescape=select_autoescape(["html", "j2"]))
    groups: dict[str, list[dict[str, object]]] = {}
    failures = []
    for result in results:
        if result.error:
            failures.append({"label": result.job.label, "error": result.error})
            continue
        for item in result.files:
            groups.setdefault(result.group, []).append({
                "name": item.path.name,
                "href": _relative(item.path, out),
                "is_folder": item.path.is_dir(),
                "layout": result.job.layout,
                "kind": result.kind,
                "options": _options(result.job.options),
                "pages": item.pages,
                "size": f"{item.size / 1000:.1f} KB",
                "thumbnails": [_relative(t, out) for t in item.thumbnails],
            })
    html = env.get_template("index.html.j2").render(groups=groups, failures=failures)
    target = out / "index.html"
    with atomic_file(target) as temporary:
        temporary.write_text(html, encoding="utf-8")
    return target


def _relative(path: Path, out: Path) -> str:
    return Path(os.path.relpath(path, out)).as_posix()


def _options(options: object) -> str:
    from dataclasses import fields

    from printgen.build import BuildOptions

    defaults = BuildOptions()
    shown = []
    for item in fields(BuildOptions):
        value = getattr(options, item.name)
        if item.name != "out" and value != getattr(defaults, item.name):
            shown.append(f"{item.name.replace('_', '-')} {value if not isinstance(value, tuple) else ','.join(map(str, value))}")
    return ", ".join(shown) or "defaults"
