"""Output names: a layout and its build options in, the base names of its files and the words that say what it is out.

The default name is the layout's name plus what sets this build apart from
the plain one, so common variants never replace each other in one folder.
Both formats: the language when not English, the card size when not the
layout's, `symbols`, `bleedNmm` for a deck's bleed when given, `shuffled`,
`unmarked` (no scan marks), `corner-guide`, `pool-all` or `pool-4-9_5-8` for a lucky pool
not the balanced one, and `seedN` for pads whose sheets differ. PDFs only
(an SVG is the same whatever the paper): the paper when not the default
(for the board: `tiles-PAPER` when tiled; any paper of a one-up pad), `Nup`
for a pad not printed 2 a page, `bleedNmm` for a one-up pad's bleed, `print-shop` for one-card pages, `gapNmm` for a deck's gap when
given, `marginNmm` for a --printer-margin not the default 5 mm,
`short-edge` or `fronts` for the duplex mode, `offsetX_Ymm` for backs
moved by --back-offset, `no-crop-marks`, `alignment` for a deck with the
alignment page, `cmyk` (`cmyk-PROFILE` with --icc). SVGs only: `font`
for editable text. `-o/--output` replaces all of it. E.g.
qwixx-big-points-it.pdf, one-to-9-board-tiles-a4.pdf,
qwixx-cards-deck-letter-short-edge.pdf. What is kind-specific, each kind
says (`printgen.kinds`); the order is kept here.
"""

from __future__ import annotations

import re
from pathlib import Path

from printgen.kinds import Layout, Names, kind_of
from printgen.kinds.common import CommonOptions
from printgen.options import BUILD_BY_KEY, BUILD_OPTIONS


def names(layout: Layout, options: CommonOptions) -> Names:
    """The base names of the PDF and SVG files a build of `layout` with `options` writes, and their about texts."""
    group, what, svg_what = kind_of(layout).game(layout).group, about(layout, options), about(layout, options, "svg")
    return Names(base_name(layout, options, "pdf"), base_name(layout, options, "svg"), f"{group} | {what}", group,
                 what, f"{group} | {svg_what}", svg_what)


def base_name(layout: Layout, options: CommonOptions, fmt: str = "pdf") -> str:
    """The base name of the `fmt` ("pdf" or "svg") files a build of `layout` with `options` writes."""
    if options.output:
        return str(options.output)
    kind = kind_of(layout)
    parts = [layout.name]
    if options.lang != "en":
        parts.append(options.lang)
    if fmt == "pdf":
        parts += kind.paper_part(layout, options)
    parts += kind.size_part(layout, options)
    if fmt == "pdf":
        parts += kind.print_part(layout, options)
        margin = getattr(options, "printer_margin", None)
        if margin is not None and margin != BUILD_BY_KEY["printer_margin"].default:  # (it moves what is near the
            # paper's edge)
            parts.append(f"margin{margin:g}mm")
        if options.icc:
            parts.append(f"cmyk-{re.sub(r'[^A-Za-z0-9]+', '_', Path(options.icc).stem)}")
        elif options.cmyk:
            parts.append("cmyk")
    parts += kind.variant_part(layout, options)
    if fmt == "svg" and options.svg_text == "font":
        parts.append("font")
    return "-".join(parts)


def about(layout: Layout, options: CommonOptions, fmt: str = "pdf") -> str:
    """What a build's `fmt` ("pdf" or "svg") output is, for its files and the preview page: "layout (kind):
    options" (the options that differ from their defaults and change that output)."""
    kind = kind_of(layout)
    leading, said = kind.about(layout, options, fmt)
    defaults = type(options)()
    shown = []
    for option in BUILD_OPTIONS:
        if option.key in ("out", "output", "format", "timestamp", "svg_text") or option.key in said:
            continue
        if fmt == "svg" and option.pdf_only:
            continue
        value = getattr(options, option.key, None)
        if value is None or value == getattr(defaults, option.key):
            continue
        if isinstance(value, bool):
            shown.append(option.flag.lstrip("-") if value else option.off.lstrip("-"))
        elif isinstance(value, tuple):
            shown.append(f"{option.flag.lstrip('-')} {','.join(f'{v:g}' for v in value)}")
        else:
            shown.append(f"{option.flag.lstrip('-')} {value}")
    shown = leading + shown
    return f"{layout.name} ({layout.kind}): {', '.join(shown) or 'defaults'}"
