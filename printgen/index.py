"""The preview page: an output folder in, OUT/index.html listing every PDF and SVG set in it out.

The page is made from the files themselves, so it is true after any
sequence of builds: each PDF's page count, paper size and (for printgen's
own files) layout and options read from the file, and one thumbnail per
distinct page — identical pad pages show once, "(+N like it)" — at most
MAX_THUMBNAILS per file, each linking to `file.pdf#page=N`. SVGs are shown
by the browser itself (an <img> of the SVG), identical ones once. What the
page learns of a PDF is kept in OUT/preview/NAME/info.json and reused while
the PDF is the same: for printgen's own PDFs, while its size and /ID (a
hash of its content) are, so a build that writes the same bytes again keeps
its thumbnails; for other PDFs, while its size and time stamp are. The
thumbnails are a cache: written without flushing them to disk, and each
checked against the digest info.json keeps of it before it is reused.
printgen removes preview
folders only when they hold its own info.json and their PDF is gone. A
file the page cannot read or draw (whatever the error) is listed by name
with the reason, so one odd file never keeps the page from being written.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from printgen.errors import display_name
from printgen.files import Written
from printgen.output import atomic_file, check_file_target, folders_flushed_once, safe_folder
from printgen.signals import held_back

MAX_THUMBNAILS = 24
THUMB_WIDTH = 220
PREVIEW = "preview"
MAX_PREVIEW_WORKERS = 4
"""Most processes that draw thumbnails at once."""
INFO = "info.json"
INFO_VERSION = 3
PALETTE = 64
"""Colours of a PDF's thumbnails: one palette for all of them, chosen by fast octree quantisation from a sample of
every thumbnail (a fifth of the size of full colour; a third of the cost of a palette for each)."""
SAMPLE_STEP = 3
"""Every SAMPLE_STEP-th pixel across and down of each thumbnail is what the palette is chosen from."""
PNG_LEVEL = 1
"""zlib level of a thumbnail (a few kB; the default, 6, takes four times as long for a fifth less)."""
TRAILER = 1024
"""Bytes at the end of a PDF searched for its /ID."""


@dataclass(slots=True)
class PageGroup:
    """Pages identical to page `first` (1-based): how many, their size in mm, and the thumbnail's link."""

    first: int
    count: int
    size: tuple[float, float]
    thumbnail: str = ""


@dataclass(slots=True)
class Entry:
    """One PDF or SVG set of the folder, as the page shows it."""

    name: str
    href: str
    kind: str
    size: int
    pages: int
    about: str
    group: str
    groups: list[PageGroup] = field(default_factory=list)
    more: int = 0
    papers: str = ""
    problem: str = ""
    """Why the file is listed without its details and pictures (it could not be read or drawn)."""


def write_index(out: Path, written: Iterable[Written] = ()) -> Path:
    """Write OUT/index.html for every PDF and SVG set now in `out`; returns its path. `written` are the outputs
    the build just made: what they are, and a streamed pad's pages counted, come from there (kept in the
    preview cache for later), never read back out of the files."""
    with folders_flushed_once():
        return _write_index(out, written)


def _write_index(out: Path, written: Iterable[Written]) -> Path:
    from printgen.indexpage import page_html

    check_file_target(out / "index.html")  # the page could not be written there: no thumbnail is drawn for it
    if os.path.lexists(out / PREVIEW):  # the thumbnails' own folder must be a real one (a problem of the folder,
        safe_folder(out / PREVIEW)      # not of one file: the page is then not written)
    fresh = {os.path.abspath(item.path): item for item in written}
    pdfs = [path for path in sorted(out.glob("*.pdf")) if _regular(path)]
    _preview_at_once([(path, fresh.get(os.path.abspath(path))) for path in pdfs if not _fresh(path, out)], out)
    entries = [_listed(_pdf, path, out, fresh) for path in pdfs]
    entries += [_listed(_svg_file, path, out, fresh) for path in sorted(out.glob("*.svg")) if _regular(path)]
    entries += [_listed(_svg_folder, path, out, fresh) for path in sorted(out.iterdir()) if _is_svg_folder(path)]
    _remove_stale_previews(out, {path.stem for path in pdfs})
    groups: dict[str, list[Entry]] = {}
    for entry in sorted(entries, key=lambda e: (_GROUP_ORDER.get(e.group, 9), e.name)):
        groups.setdefault(entry.group, []).append(entry)
    html = page_html(groups, display_name(out.name or str(out)))
    target = out / "index.html"
    with atomic_file(target) as temporary:
        temporary.write_text(html, encoding="utf-8")
    return target


MAX_REASON = 200
"""Longest reason the page gives for a file it shows without details (characters)."""


Fresh = dict[str, Written]
"""What this build wrote, by absolute path."""


def _listed(describe: Callable[[Path, Path, Written | None], Entry], path: Path, out: Path, fresh: Fresh) -> Entry:
    """`describe`'s entry for `path`; a file it cannot read or draw (whatever the error) is listed by name with
    the reason instead, so that one odd file never keeps the page from being written."""
    try:
        return describe(path, out, fresh.get(os.path.abspath(path)))
    except Exception as error:  # noqa: BLE001 - one odd file must not cost the whole page
        reason = " ".join(str(error).split()) or type(error).__name__
        if len(reason) > MAX_REASON:
            reason = reason[: MAX_REASON - 3] + "..."
        try:
            size = os.lstat(path).st_size
        except OSError:
            size = 0
        name, href = (display_name(path.name) + "/", link(path, out) + "/") if path.is_dir() else \
            (display_name(path.name), link(path, out))
        return Entry(name, href, "unshown", size, 0, "", "Other files", problem=reason)


def _fresh(path: Path, out: Path) -> bool:
    """True when `path`'s preview (info and thumbnails) was made from the file as it is now."""
    folder = out / PREVIEW / path.stem
    cached = _read_info(folder)
    return cached is not None and _describes(cached, path) and _drawn(cached, folder)


def _describes(info: dict[str, Any], path: Path) -> bool:
    """True when `info` was taken from the file at `path` as it is now: the same size and the same /ID (a printgen
    PDF: a hash of its content, whenever it was written), else (another program's PDF) the same time stamp."""
    stamp = path.stat()
    if info.get("bytes") != stamp.st_size:
        return False
    if info.get("id"):
        return bool(info["id"] == pdf_id(path))
    return bool(info.get("mtime") == stamp.st_mtime_ns)


def pdf_id(path: Path) -> str | None:
    """The /ID of a PDF as its trailer (in the last TRAILER bytes) gives it ("first second" in hex), or None."""
    import re

    with path.open("rb") as handle:
        handle.seek(max(0, path.stat().st_size - TRAILER))
        tail = handle.read(TRAILER)
    found = re.findall(rb"/ID\s*\[\s*<([0-9A-Fa-f]*)>\s*<([0-9A-Fa-f]*)>\s*\]", tail)
    return None if not found else " ".join(part.decode("ascii").lower() for part in found[-1])


def _drawn(info: dict[str, Any], folder: Path) -> bool:
    """True when every thumbnail `info` names is in `folder`, as it was drawn (its digest)."""
    digests = info.get("thumbnails", {})
    for group in info["groups"]:
        name = group[4]
        if not name or name not in digests:
            return False
        try:
            data = (folder / name).read_bytes()
        except OSError:
            return False
        if hashlib.sha1(data, usedforsecurity=False).hexdigest() != digests[name]:
            return False
    return True


def _preview_at_once(pdfs: list[tuple[Path, Written | None]], out: Path) -> None:
    """Analyse `pdfs` and draw their thumbnails in worker processes, one PDF each, when there are several and
    the machine has the cores; each writes only its own preview folder, which `_pdf` then finds up to date.
    (Anything a worker could not do is simply done again, one by one, by `_pdf`.)"""
    workers = min(len(pdfs), os.cpu_count() or 1, MAX_PREVIEW_WORKERS)
    if workers < 2:
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from printgen.workers import pool_worker

    safe_folder(out / PREVIEW)
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"), initializer=pool_worker,
                                 initargs=(os.getpid(),)) as pool:
            with held_back():  # (the workers are forked as the PDFs are handed out: see printgen.signals.held_back)
                done = pool.map(_pdf_info_or_none, [pdf for pdf, _ in pdfs], [out] * len(pdfs),
                                [written for _, written in pdfs])
            try:
                for _ in done:
                    pass
            except BaseException:  # a Ctrl-C or SIGTERM: the PDFs not yet begun are left (each worker ends its own)
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    except Exception:  # noqa: BLE001 - e.g. no processes allowed: the previews are then made one by one
        return


def _pdf_info_or_none(path: Path, out: Path, written: Written | None) -> dict[str, Any] | None:
    """`_pdf_info` in a worker process: a PDF it cannot read or draw is left to `_listed` (one by one), never
    stopping the others' workers."""
    try:
        with folders_flushed_once():
            return _pdf_info(path, out, written)
    except Exception:  # noqa: BLE001 - `_listed` says why on the page
        return None


_GROUP_ORDER = {"Qwixx score sheets": 0, "Qwixx, the card game": 1, "One to 9": 2, "Other files": 3}


def link(path: Path, out: Path) -> str:
    """A relative, percent-encoded link to `path` from `out` ("./name.pdf"), never a scheme; a name's bytes that
    are not UTF-8 are encoded as they are (%FF), as the file system holds them."""
    relative = Path(os.path.relpath(path, out)).as_posix()
    return "./" + quote(os.fsencode(relative), safe="/")


def _regular(path: Path) -> bool:
    """True for a regular file (not a link, FIFO, device or folder): the only files the page reads."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_svg_folder(path: Path) -> bool:
    return (not path.is_symlink() and path.is_dir() and path.name != PREVIEW
            and any(_regular(file) for file in path.glob("*.svg")))


def _group(group: str) -> str:
    return group if group in _GROUP_ORDER else "Other files"


def _split(subject: str) -> tuple[str, str]:
    """The (group, about) that printgen writes into a file's subject as "GROUP | ABOUT": for files this build
    did not write and no cache describes (made elsewhere, or before the cache)."""
    if " | " not in subject:
        return ("Other files", "")
    group, _, about = subject.partition(" | ")
    return (_group(group), about)


def _pdf(path: Path, out: Path, written: Written | None) -> Entry:
    info = _pdf_info(path, out, written)
    groups = [PageGroup(g[0], g[1], (g[2], g[3]), thumbnail=link(out / PREVIEW / path.stem / g[4], out) if g[4]
                        else "") for g in info["groups"]]
    return Entry(display_name(path.name), link(path, out), "pdf", info["bytes"], info["pages"], info["about"],
                 _group(info["group"]), groups, info["more"], _papers(groups))


def _pdf_info(path: Path, out: Path, written: Written | None = None) -> dict[str, Any]:
    """Pages, distinct pages, sizes, group and about of a PDF: from what the build that wrote it says, else
    from the cache while the file is unchanged, else from the file.

    Only printgen's own PDFs are analysed page by page and get thumbnails; another program's PDF is listed
    with its page count and size alone (nothing of it is rendered).
    """
    folder = out / PREVIEW / path.stem
    cached = _read_info(folder)
    if cached and _describes(cached, path):
        info = cached
    else:
        cached = None
        stamp = path.stat()
        info = _from_build(written) if written is not None else _read_pdf(path)
        info |= {"bytes": stamp.st_size, "mtime": stamp.st_mtime_ns, "version": INFO_VERSION,
                 "id": pdf_id(path) if info["groups"] else None}  # only printgen's own PDFs have page groups
    changed = info is not cached
    if info["groups"] and not _drawn(info, folder):
        safe_folder(out / PREVIEW)
        safe_folder(folder)
        try:
            _render_thumbnails(path, folder, info)
        except Exception:
            _save_info(folder, info)  # without thumbnails, but known as printgen's: removed when its PDF goes
            raise
        changed = True
    if changed:
        _save_info(folder, info)
    return info


def _from_build(written: Written) -> dict[str, Any]:
    """What the build that just wrote a PDF says of it: its group and about, and — for a pad, whose pages it
    counted while streaming — its page groups, so a huge pad is never read back (else read from the file)."""
    if written.groups is None:
        info = _read_pdf(written.path)
    else:
        ordered = sorted(written.groups)
        info = {"pages": written.pages, "more": max(0, len(ordered) - MAX_THUMBNAILS),
                "groups": [[g[0], g[1], g[2], g[3], ""] for g in ordered[:MAX_THUMBNAILS]]}
    return info | {"group": written.group, "about": written.about}


def _read_pdf(path: Path) -> dict[str, Any]:
    try:
        return _analyse(path)
    except Exception:  # noqa: BLE001 - a file the index cannot read is listed as unreadable, never fatal
        return {"pages": 0, "groups": [], "more": 0, "group": "Other files", "about": "not readable as PDF"}


def _save_info(folder: Path, info: dict[str, Any]) -> None:
    safe_folder(folder)
    with atomic_file(folder / INFO) as temporary:
        temporary.write_text(json.dumps(info), encoding="utf-8")


def _read_info(folder: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((folder / INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == INFO_VERSION else None


def _analyse(path: Path) -> dict[str, Any]:
    """Every page's content hashed (identical pages grouped) with pypdf; sizes in mm. Another program's PDF:
    its page count only. (What pypdf logs of a damaged file is not printed: the page says it.)"""
    import logging

    chatty = logging.getLogger("pypdf")
    level = chatty.level
    chatty.setLevel(logging.CRITICAL)
    try:
        return _analysed(path)
    finally:
        chatty.setLevel(level)


def _analysed(path: Path) -> dict[str, Any]:
    from pypdf import PdfReader

    reader = PdfReader(path)
    metadata = reader.metadata
    subject = str(metadata.get("/Subject", "")) if metadata else ""
    if not metadata or metadata.get("/Creator") != "printgen":
        return {"pages": len(reader.pages), "groups": [], "more": 0, "group": "Other files",
                "about": "made by another program"}
    from printgen.page import PT_PER_MM
    from printgen.render.pdffile import PageGroups

    counted = PageGroups()
    for page in reader.pages:
        box = page.mediabox
        counted.add((float(box.width) / PT_PER_MM, float(box.height) / PT_PER_MM), _content(page.get("/Contents")))
    ordered = counted.groups()
    group, about = _split(subject)
    return {"pages": len(reader.pages), "groups": [[*g, ""] for g in ordered[:MAX_THUMBNAILS]],
            "more": len(ordered) - min(len(ordered), MAX_THUMBNAILS), "group": group, "about": about}


def _content(contents: Any) -> bytes:
    """A page's content stream(s), decoded."""
    if contents is None:
        return b""
    contents = contents.get_object()
    if isinstance(contents, list):
        return b"\n".join(_content(part) for part in contents)
    return bytes(contents.get_data())


def _render_thumbnails(path: Path, folder: Path, info: dict[str, Any]) -> None:
    import io

    from PIL import Image

    from printgen.preview import MAX_PIXELS, PageTooLarge, opened_pdf, render_page

    pixels = sum(THUMB_WIDTH * THUMB_WIDTH * group[3] / group[2] for group in info["groups"] if group[2] > 0)
    if pixels > MAX_PIXELS and len(info["groups"]) > 1:  # (one page too large: render_page says so)
        raise PageTooLarge(f"its {len(info['groups'])} thumbnails would be {pixels:,.0f} pixels, more than "
                           f"{MAX_PIXELS:,}")  # (all are in memory at once: they share one palette)
    with opened_pdf(path) as document:
        images = [_rgb(render_page(document, group[0] - 1, THUMB_WIDTH)) for group in info["groups"]]
    palette = _palette(images)
    digests: dict[str, str] = {}
    for group, image in zip(info["groups"], images, strict=True):
        name = f"page-{group[0]:06d}.png"
        buffer = io.BytesIO()
        image.quantize(palette=palette, dither=Image.Dither.NONE).save(buffer, format="PNG",
                                                                        compress_level=PNG_LEVEL)
        data = buffer.getvalue()
        with atomic_file(folder / name, flush=False) as temporary:  # a cache, checked by its digest
            temporary.write_bytes(data)
        group[4] = name
        digests[name] = hashlib.sha1(data, usedforsecurity=False).hexdigest()
    info["thumbnails"] = digests
    wanted = {group[4] for group in info["groups"]} | {INFO}
    for old in folder.glob("page-*.png"):
        if old.name not in wanted:
            old.unlink()


def _rgb(image: Any) -> Any:
    """A PIL image in RGB (the image itself when it is)."""
    return image if image.mode == "RGB" else image.convert("RGB")


def _palette(images: list[Any]) -> Any:
    """One PALETTE-colour palette (a "P" image) for all of `images` (RGB), from every SAMPLE_STEP-th pixel of
    each: its colours exactly, no blends (a deck's pages differ, a pad's hardly at all)."""
    from PIL import Image

    samples = [image.resize((max(1, image.width // SAMPLE_STEP), max(1, image.height // SAMPLE_STEP)),
                            Image.Resampling.NEAREST) for image in images]
    sheet = Image.new("RGB", (max((s.width for s in samples), default=1), sum(s.height for s in samples) or 1),
                      "white")
    top = 0
    for sample in samples:
        sheet.paste(sample, (0, top))
        top += sample.height
    return sheet.quantize(colors=PALETTE, method=Image.Quantize.FASTOCTREE)


def _remove_stale_previews(out: Path, names: set[str]) -> None:
    """Remove preview folders of PDFs that are gone, but only folders printgen made (they hold its info.json)."""
    root = out / PREVIEW
    if not root.is_dir() or root.is_symlink():
        return
    for folder in root.iterdir():
        if folder.name in names or folder.is_symlink() or not folder.is_dir():
            continue
        if _read_info(folder) is not None and all(p.name == INFO or p.name.startswith("page-")
                                                   for p in folder.iterdir()):
            shutil.rmtree(folder)


def _what(path: Path, written: Written | None) -> tuple[str, str]:
    """(group, about) of an SVG (or an SVG folder's first file): what this build says, else its <desc>."""
    return (_group(written.group), written.about) if written is not None else _split(_svg_subject(path))


def _svg_file(path: Path, out: Path, written: Written | None) -> Entry:
    group, about = _what(path, written)
    entry = Entry(display_name(path.name), link(path, out), "svg", path.stat().st_size, 1, about, group)
    entry.groups = [PageGroup(1, 1, _svg_size(path), link(path, out))]
    entry.papers = _papers(entry.groups)
    return entry


def _svg_folder(path: Path, out: Path, written: Written | None) -> Entry:
    files = sorted(file for file in path.glob("*.svg") if _regular(file))
    seen: dict[bytes, PageGroup] = {}
    for file in files:
        digest = hashlib.sha1(_svg_body(file), usedforsecurity=False).digest()
        if digest in seen:
            seen[digest].count += 1
        else:
            seen[digest] = PageGroup(len(seen) + 1, 1, _svg_size(file), link(file, out))
    groups = list(seen.values())
    group, about = _what(files[0], written)
    entry = Entry(display_name(path.name) + "/", link(path, out) + "/", "svg-folder", sum(f.stat().st_size for f in files),
                  len(files), about, group, groups[:MAX_THUMBNAILS], max(0, len(groups) - MAX_THUMBNAILS))
    entry.papers = _papers(entry.groups)
    return entry


def _svg_head(path: Path) -> str:
    with path.open("rb") as handle:
        return handle.read(4096).decode("utf-8", "replace")


def _svg_subject(path: Path) -> str:
    import re
    from html import unescape

    match = re.search(r"<desc>(.*?)</desc>", _svg_head(path), re.DOTALL)
    return unescape(match[1]) if match else ""


def _svg_body(path: Path) -> bytes:
    """The SVG without its title and description (sheets of a pad differ only in their names there)."""
    import re

    return re.sub(rb"<title>.*?</title>|<desc>.*?</desc>", b"", path.read_bytes(), flags=re.DOTALL)


def _svg_size(path: Path) -> tuple[float, float]:
    import re

    head = _svg_head(path)
    width, height = re.search(r'\swidth="([\d.]+)mm"', head), re.search(r'\sheight="([\d.]+)mm"', head)
    return (float(width[1]), float(height[1])) if width and height else (0.0, 0.0)


def _papers(groups: list[PageGroup]) -> str:
    """The page sizes of `groups` in words: "A4 portrait", "Letter landscape", "190 x 115 mm"."""
    from printgen.printing.paper import PAPERS

    named = []
    for group in groups:
        w, h = group.size
        words = f"{w:g} x {h:g} mm" if w > 0 and h > 0 else "no size in mm"  # (an SVG another program wrote, or none)
        for paper, (pw, ph) in PAPERS.items():
            if abs(w - pw) < 1 and abs(h - ph) < 1:
                words = f"{paper.upper() if paper[0] == 'a' else paper.title()} portrait"
            elif abs(w - ph) < 1 and abs(h - pw) < 1:
                words = f"{paper.upper() if paper[0] == 'a' else paper.title()} landscape"
        if words not in named:
            named.append(words)
    return ", ".join(named)
