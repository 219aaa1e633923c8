"""Layout kinds: a layout (or a kind's name) in, the one unit that knows everything about layouts of that kind out.

Each kind is one module here — `score_sheets`, `decks`, `boards`,
`token_sheets` — holding its layout model and how to read it from a layout
file, its own frozen options dataclass (the common options in
`common.CommonOptions`), its check against the rules, its output names and
its plan. A new kind is one more module implementing `Kind`, added to
`KINDS`, plus its layout file: the CLI, batch manifests, `printgen.toml`,
`show`, `check` and the preview page all ask this registry.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, cast

from printgen.games import Game
from printgen.kinds.common import CommonOptions, Names, OptionProblem, Plan
from printgen.tomlkeys import Fields

if TYPE_CHECKING:
    from printgen.kinds.boards import BoardLayout, BoardOptions
    from printgen.kinds.decks import DeckLayout, DeckOptions
    from printgen.kinds.score_sheets import ScoreSheetLayout, SheetOptions
    from printgen.kinds.token_sheets import TokenLayout, TokenOptions

__all__ = ["KINDS", "BoardLayout", "BoardOptions", "CommonOptions", "DeckLayout", "DeckOptions", "Kind", "Layout",
           "Names", "OptionProblem", "Plan", "ScoreSheetLayout", "SheetOptions", "TokenLayout", "TokenOptions",
           "kind_of", "score_sheet"]

Layout: TypeAlias = "ScoreSheetLayout | DeckLayout | BoardLayout | TokenLayout"


class Kind(Protocol):
    """What a layout kind knows: its names, model, options, reading, rules check, output names and plan."""

    @property
    def name(self) -> str:
        """As layout files name it (`kind = "score-sheet"`)."""

    @property
    def noun(self) -> str:
        """In a sentence: "a score sheet"."""

    @property
    def plural(self) -> str:
        """In a list of who takes an option: "score sheets"."""

    @property
    def layout_type(self) -> type:
        """Its layout model."""

    @property
    def options_type(self) -> type[CommonOptions]:
        """Its options dataclass: the fields it owns are the options it takes."""

    def read(self, top: Fields, name: str, source: str) -> Any:
        """The layout the keys of a layout file describe, or None with every problem noted in `top`."""

    def game(self, layout: Any) -> Game:
        """The game the layout belongs to."""

    def describe(self, layout: Any) -> str:
        """A few words on what it prints and how big (for `printgen list`)."""

    def mismatches(self, layout: Any) -> list[tuple[str, str]]:
        """Every way the layout disagrees with the rules (key, what), else whether it can be drawn at all."""

    def warnings(self, layout: Any, options: CommonOptions | None = None) -> list[str]:
        """Legibility warnings (`file: what`) for the layout as `options` print it (None: as `check` does)."""

    def check_options(self, layout: Any, options: Any) -> None:
        """OptionProblem (naming the option's key) for options of this kind that cannot work together."""

    def takes_paper(self, layout: Any, values: Mapping[str, Any]) -> bool:
        """Whether a default paper applies to a build with these option `values` (some pages have their own)."""

    def paper_part(self, layout: Any, options: Any) -> list[str]:
        """The output name's part for the paper (PDFs only)."""

    def size_part(self, layout: Any, options: Any) -> list[str]:
        """The output name's part for a card size of the user's."""

    def print_part(self, layout: Any, options: Any) -> list[str]:
        """The output name's parts for how the pages are printed (PDFs only)."""

    def variant_part(self, layout: Any, options: Any) -> list[str]:
        """The output name's parts for what makes this build's sheets or cards look different."""

    def svg_folder(self, layout: Any, options: Any) -> bool:
        """True when the SVG output is a folder of files rather than one file."""

    def about(self, layout: Any, options: Any, fmt: str) -> tuple[list[str], frozenset[str]]:
        """Words that lead what a build's `fmt` ("pdf" or "svg") output is (e.g. "50 sheets, 2 a page"), and the
        options they say already."""

    def plan(self, layout: Any, options: Any, names: Names) -> Plan:
        """Every check of a build made now, and the writers of its files."""


_MODULES = {"score-sheet": "score_sheets", "deck": "decks", "board": "boards", "tokens": "token_sheets"}
"""Each kind's name (as layout files write it) and its module, in the order `printgen build --help` lists them."""
_CLASSES = {"ScoreSheetLayout": "score_sheets", "SheetOptions": "score_sheets", "DeckLayout": "decks",
            "DeckOptions": "decks", "BoardLayout": "boards", "BoardOptions": "boards", "TokenLayout": "token_sheets",
            "TokenOptions": "token_sheets"}


class _Kinds(Mapping[str, Kind]):
    """The kinds by name, each kind's module imported when the kind is first asked for: a build of score sheets
    never loads the code of decks, boards and tokens."""

    def __getitem__(self, name: str) -> Kind:
        kind: Kind = import_module(f"printgen.kinds.{_MODULES[name]}").KIND
        return kind

    def __contains__(self, name: object) -> bool:
        return name in _MODULES  # (without importing the kind)

    def __iter__(self) -> Iterator[str]:
        return iter(_MODULES)

    def __len__(self) -> int:
        return len(_MODULES)


KINDS: Mapping[str, Kind] = _Kinds()
"""Every layout kind by name, in the order `printgen build --help` lists them."""


def __getattr__(name: str) -> Any:
    """A kind's layout model or options class, from its module (imported then)."""
    if name in _CLASSES:
        return getattr(import_module(f"printgen.kinds.{_CLASSES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def kind_of(layout: Layout) -> Kind:
    """The kind of `layout`."""
    return KINDS[layout.kind]


def score_sheet(layout: Layout) -> ScoreSheetLayout | None:
    """`layout` if it is a score sheet, else None (for code that reads only score sheets)."""
    return cast("ScoreSheetLayout", layout) if layout.kind == "score-sheet" else None
