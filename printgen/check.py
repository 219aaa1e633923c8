"""The cross-check: a layout in, every disagreement with the rules engine out (as printable lines).

The rules engine is the authority; a layout is checked against it, never
the other way round, by its kind (`printgen.kinds`). `build` refuses a
layout with any mismatch. Legibility warnings come from the kind too.
"""

from __future__ import annotations

from functools import cache

from printgen.errors import CheckFailed
from printgen.kinds import Layout, kind_of
from printgen.kinds.common import CommonOptions


def mismatches(layout: Layout) -> list[str]:
    """Every way `layout` disagrees with the rules, each as `file: key: what` (empty when it agrees)."""
    return list(_mismatches(layout))


@cache
def _mismatches(layout: Layout) -> tuple[str, ...]:
    """Layouts are frozen, so each is checked once per process however many builds use it."""
    return tuple(f"{layout.source}: {key}: {message}" for key, message in kind_of(layout).mismatches(layout))


def require_agreement(layout: Layout) -> None:
    """Raise CheckFailed naming every mismatch of `layout` with the rules."""
    found = mismatches(layout)
    if found:
        raise CheckFailed(found)


def warnings(layout: Layout, options: CommonOptions | None = None) -> list[str]:
    """Legibility warnings (each a line `file: what`) for `layout` as `options` print it (None: as `printgen
    check` sees it: English, A4, the default sheets a page)."""
    return kind_of(layout).warnings(layout, options)
