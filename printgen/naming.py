"""Output names: a layout and its build options in, the base name and every path a build writes out.

The default name is the layout's name plus what sets this build apart from
the plain one, so common variants never replace each other in one folder.
Both formats: the language when not English, the card size when not the
layout's, `symbols`, `shuffled`, `unmarked` (no scan marks) and `seedN` for pads whose
sheets differ.
PDFs only (an SVG is the same whatever the paper): the paper when not the
default (for the board: `tiles-PAPER` when tiled), `Nup` for a pad not
printed 2 a page, `print-shop` for one-card pages, `short-edge` or `fronts`
for the duplex mode, `alignment` for a deck with the alignment page, `cmyk`
(`cmyk-PROFILE` with --icc). SVGs only: `font` for editable text.
`-o/--output` replaces all of it. E.g. qwixx-big-points-it.pdf,
one-to-9-board-tiles-a4.pdf, qwixx-cards-deck-letter-short-edge.pdf.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from printgen.layouts.model import BoardLayout, DeckLayout, Layout, ScoreSheetLayout, TokenLayout


def base_name(layout: Layout, options: Any, fmt: str = "pdf") -> str:
    """The base name of the `fmt` ("pdf" or "svg") files a build of `layout` with `options` writes."""
    if options.output:
        return str(options.output)
    parts = [layout.name]
    if options.lang != "en":
        parts.append(options.lang)
    if fmt == "pdf":
        parts += _paper_parts(layout, options)
    if isinstance(layout, DeckLayout | BoardLayout) and _other_card_size(layout, options.card_size):
        parts.append(re.sub(r"[^a-z0-9]+", "_", options.card_size.lower()))
    if fmt == "pdf":
        parts += _print_parts(layout, options)
    if options.symbols:
        parts.append("symbols")
    if options.shuffle:
        parts.append("shuffled")
    if isinstance(layout, ScoreSheetLayout) and not options.scan_marks:
        parts.append("unmarked")
    if isinstance(layout, ScoreSheetLayout) and (layout.lucky_numbers or options.shuffle) and options.seed != 1:
        parts.append(f"seed{options.seed}")
    if fmt == "svg" and options.svg_text == "font":
        parts.append("font")
    return "-".join(parts)


def _paper_parts(layout: Layout, options: Any) -> list[str]:
    if isinstance(layout, BoardLayout):
        return ["tiles", options.paper or "a4"] if options.tile else ([options.paper] if options.paper else [])
    return [options.paper] if options.paper and options.paper != "a4" else []


def _print_parts(layout: Layout, options: Any) -> list[str]:
    parts = []
    if isinstance(layout, ScoreSheetLayout) and options.per_page not in (None, 2):
        parts.append(f"{options.per_page}up")
    if isinstance(layout, DeckLayout):
        if options.per_page is not None:
            parts.append("print-shop" if options.per_page == 1 else f"{options.per_page}up")
        parts += {"long": [], "short": ["short-edge"], "off": ["fronts"]}[options.duplex]
        if options.alignment_page:
            parts.append("alignment")
    if options.icc:
        parts.append(f"cmyk-{re.sub(r'[^A-Za-z0-9]+', '_', Path(options.icc).stem)}")
    elif options.cmyk:
        parts.append("cmyk")
    return parts


def _other_card_size(layout: DeckLayout | BoardLayout, chosen: str | None) -> bool:
    """True when `chosen` is a card size other than the layout's own (63.5x88.9mm is just poker)."""
    if not chosen:
        return False
    from printgen.printing.cards import card_size

    mine, theirs = card_size(layout.card_size), card_size(chosen)
    return abs(mine[0] - theirs[0]) > 0.05 or abs(mine[1] - theirs[1]) > 0.05


def svg_is_folder(layout: Layout, options: Any) -> bool:
    """True when the SVG output is a folder of files (cards, tokens, sheets that differ) rather than one file."""
    if isinstance(layout, DeckLayout | TokenLayout):
        return True
    if isinstance(layout, ScoreSheetLayout):
        return layout.lucky_numbers or bool(options.shuffle)
    return False


def planned_outputs(layout: Layout, options: Any) -> list[Path]:
    """Every file or folder a build writes, before it runs (for collision checks)."""
    out = Path(options.out)
    paths: list[Path] = []
    if "pdf" in options.formats:
        name = base_name(layout, options, "pdf")
        paths.append(out / f"{name}.pdf")
        if isinstance(layout, DeckLayout) and options.duplex == "off" and options.backs_file:
            paths.append(out / f"{name}-backs.pdf")
    if "svg" in options.formats:
        name = base_name(layout, options, "svg")
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
