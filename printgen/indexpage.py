"""The preview page's HTML: the folder's entries, by group, in; the text of OUT/index.html out.

Written with plain string building rather than a template engine: importing
jinja2 and compiling the template cost more CPU than writing a one-sheet
PDF, on every build. Every value from a file (names, links, what a layout
says of itself, the reason a file is not shown) is escaped as jinja2's
autoescape did (& < > " ' as entities), so a file named `<b>.pdf` shows as
its name. `printgen.index` gathers what the page shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from printgen.index import Entry, PageGroup

_ENTITIES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})

STYLE = """\
  body { font-family: Roboto, "Helvetica Neue", Arial, sans-serif; margin: 2rem; color: #222; background: #fafafa; }
  h1 { margin-bottom: .2rem; } h2 { margin-top: 2.2rem; border-bottom: 2px solid #ddd; padding-bottom: .3rem; }
  nav > ul { columns: 2; } nav li { margin: .15rem 0; } nav > ul > li { break-inside: avoid; }
  .file { background: #fff; border: 1px solid #e2e2e2; border-radius: 8px; padding: 1rem; margin: 1rem 0; }
  .file h3 { margin: 0 0 .4rem; } .details { color: #555; font-size: .9rem; margin-bottom: .6rem; }
  .pages { display: flex; flex-wrap: wrap; gap: .8rem; }
  figure { margin: 0; text-align: center; font-size: .8rem; color: #555; }
  figure img { width: 130px; border: 1px solid #ccc; box-shadow: 0 1px 3px rgba(0,0,0,.12); background: #fff; display: block; }
  .more { align-self: center; color: #777; font-size: .85rem; }
  .problem { color: #8a4b00; }
"""


INTRODUCTION = ("<p>Every PDF and SVG set in this folder. Print PDFs at 100 % (actual size). Click a page to open "
                "it.</p>")


def escape(text: object) -> str:
    """`text` safe inside HTML text and quoted attributes."""
    return str(text).translate(_ENTITIES)


def page_html(groups: dict[str, list[Entry]], folder: str) -> str:
    """The whole page: a contents list of every group and file, then each file with its pages."""
    title = escape(folder)
    lines = ["<!doctype html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             f"<title>printgen: {title}</title>", "<style>", STYLE + "</style>", "</head>", "<body>",
             f"<h1>printgen: {title}</h1>",
             INTRODUCTION, "<nav><ul>"]
    for group, entries in groups.items():
        anchor = _anchor(group)
        files = "".join(f'<li><a href="#file-{number}-{anchor}">{escape(entry.name)}</a></li>'
                        for number, entry in enumerate(entries, 1))
        lines += [f'  <li><a href="#{anchor}">{escape(group)}</a>', f"    <ul>{files}</ul></li>"]
    lines.append("</ul></nav>")
    for group, entries in groups.items():
        anchor = _anchor(group)
        lines.append(f'<h2 id="{anchor}">{escape(group)}</h2>')
        for number, entry in enumerate(entries, 1):
            lines += _entry(entry, f"file-{number}-{anchor}")
    lines += ["</body>", "</html>", ""]
    return "\n".join(lines)


def _anchor(group: str) -> str:
    return escape(group.replace(" ", "-").replace(",", "").lower())


def _entry(entry: Entry, anchor: str) -> list[str]:
    """One file's block: its name and link, what it is (or why it is not shown), its distinct pages."""
    kilobytes = f"{entry.size / 1000:.1f} KB"
    lines = [f'<div class="file" id="{anchor}">', f'  <h3><a href="{escape(entry.href)}">{escape(entry.name)}</a></h3>']
    if entry.problem:
        lines.append(f'  <div class="details problem">not shown: {escape(entry.problem)} · {kilobytes}</div>')
    else:
        plural = "s" if entry.pages != 1 else ""
        what = {"pdf": f"PDF · {entry.pages} page{plural}", "svg": "SVG"}.get(entry.kind,
                                                                              f"{entry.pages} SVG file{plural}")
        parts = [what, escape(entry.papers), kilobytes, escape(entry.about)]
        lines.append(f'  <div class="details">{" · ".join(part for part in parts if part)}</div>')
    if entry.groups:
        lines.append('  <div class="pages">')
        for page in entry.groups:
            lines += ["    <figure>", *_figure(entry, page), "    </figure>"]
        if entry.more:
            lines.append(f'    <div class="more">and {entry.more} more distinct '
                         f'{"pages" if entry.kind == "pdf" else "files"}</div>')
        lines.append("  </div>")
    lines.append("</div>")
    return lines


def _figure(entry: Entry, page: PageGroup) -> list[str]:
    """A page's picture, linking to it, and its caption (how many pages are the same)."""
    name, thumbnail = escape(entry.name), escape(page.thumbnail)
    if entry.kind == "pdf":
        picture = (f'<img src="{thumbnail}" alt="{name} page {page.first}" loading="lazy">' if page.thumbnail
                   else "")
        times = f" (+{page.count - 1:,} like it)" if page.count > 1 else ""
        return [f'      <a href="{escape(entry.href)}#page={page.first}">{picture}</a>',
                f"      <figcaption>page {page.first}{times}</figcaption>"]
    caption = f"(+{page.count - 1:,} like it)" if page.count > 1 else "&nbsp;"
    return [f'      <a href="{thumbnail}"><img src="{thumbnail}" alt="{name} {page.first}" loading="lazy"></a>',
            f"      <figcaption>{caption}</figcaption>"]
