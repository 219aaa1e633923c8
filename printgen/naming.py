"""Output names: a layout and its build options in, the base name and every path a build writes out.

The default name is the layout's name plus what sets this build apart from
the plain one, so common variants never replace each other in one folder:
the language when not English, the paper when not the default, the card size
when not the layout's, `tiles` for a tiled board, `Nup` for a pad that is not
2 a page, `symbols` and `cmyk`. `-o/--output` replaces all of it.
E.g. qwixx-big-points-it, one-to-9-board-tiles-a4, qwixx-cards-deck-letter-mini.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from printgen.layouts.model import BoardLayout, DeckLayout, Layout, ScoreSheetLayout, TokenLayout


def base_name(layout: Layout, options: Any) -> str:
    """The base name of the files a build of `layout` with `options` writes."""
    if options.output:
        return str(options.output)
    parts = [layout.name]
    if options.lang != "en":
        parts.append(options.lang)
    if isinstance(layout, BoardLayout):
        if options.tile:
            parts += ["tiles", options.paper or "a4"]
        elif options.paper:
            parts.append(options.paper)
    elif options.paper and options.paper != "a4":
        parts.append(options.paper)
    if isinstance(layout, DeckLayout | BoardLayout) and options.card_size and options.card_size != layout.card_size:
        parts.append(options.card_size.replace(".", "_"))
    if isinstance(layout, ScoreSheetLayout) and options.per_page not in (None, 2):
        parts.append(f"{options.per_page}up")
    if isinstance(layout, DeckLayout) and options.per_page is not None:
        parts.append("print-shop" if options.per_page == 1 else f"{options.per_page}up")
    if options.symbols:
        parts.append("symbols")
    if options.cmyk or options.icc:
        parts.append("cmyk")
    return "-".join(parts)


def svg_is_folder(layout: Layout, options: Any) -> bool:
    """True when the SVG output is a folder of files (cards, tokens, sheets that differ) rather than one file."""
    if isinstance(layout, DeckLayout | TokenLayout):
        return True
    if isinstance(layout, ScoreSheetLayout):
        return layout.lucky_numbers or bool(options.shuffle)
    return False


def planned_outputs(layout: Layout, options: Any) -> list[Path]:
    """Every file or folder a build writes, before it runs (for collision checks)."""
    name = base_name(layout, options)
    out = Path(options.out)
    paths: list[Path] = []
    if "pdf" in options.formats:
        paths.append(out / f"{name}.pdf")
        if isinstance(layout, DeckLayout) and options.duplex == "off" and options.backs_file:
            paths.append(out / f"{name}-backs.pdf")
    if "svg" in options.formats:
        paths.append(out / name if svg_is_folder(layout, options) else out / f"{name}.svg")
    return paths


def group_of(layout: Layout) -> str:
    """The game a layout belongs to, for grouping the preview page."""
    game = getattr(layout, "game", "")
    if game == "one-to-9":
        return "One to 9"
    if game == "qwixx-cards" or getattr(layout, "rules", "") == "cards":
        return "Qwixx, the card game"
    return "Qwixx score sheets"


def subject(layout: Layout, options: Any) -> str:
    """What a file is, for its PDF /Subject or SVG <desc> and the preview page: "GROUP | layout (kind): options"."""
    from printgen.options import BUILD_OPTIONS

    shown = []
    defaults = type(options)()
    for option in BUILD_OPTIONS:
        if option.key in ("out", "output", "format", "timestamp", "svg_text") or (
                isinstance(layout, ScoreSheetLayout) and option.key in ("sheets", "per_page")):
            continue
        value = getattr(options, option.key)
        if value is None or value == getattr(defaults, option.key):
            continue
        if isinstance(value, bool):
            shown.append(option.flag.lstrip("-") if value else option.off.lstrip("-"))
        elif isinstance(value, tuple):
            shown.append(f"{option.flag.lstrip('-')} {','.join(f'{v:g}' for v in value)}")
        else:
            shown.append(f"{option.flag.lstrip('-')} {value}")
    if isinstance(layout, ScoreSheetLayout):
        shown.insert(0, f"{options.pad_sheets} sheets, {options.sheets_per_page} a page")
    return f"{group_of(layout)} | {layout.name} ({layout.kind}): {', '.join(shown) or 'defaults'}"
