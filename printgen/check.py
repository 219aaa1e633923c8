"""The cross-check: a layout in, every disagreement with the rules engine out (as printable lines).

The rules engine is the authority; a layout is checked against it, never the
other way round. `build` refuses a layout with any mismatch.
"""

from __future__ import annotations

from collections import Counter

from printgen.errors import CheckFailed
from printgen.layouts.model import BoardLayout, DeckLayout, Layout, ScoreSheetLayout, TokenLayout
from printgen.rules import one_to_nine, qwixx


def mismatches(layout: Layout) -> list[str]:
    """Every way `layout` disagrees with the rules, each as `file: key: what` (empty when it agrees)."""
    if isinstance(layout, DeckLayout):
        found = _deck(layout)
    elif isinstance(layout, BoardLayout):
        found = _board(layout)
    elif isinstance(layout, TokenLayout):
        found = _tokens(layout)
    else:
        found = _score_sheet(layout)
    if not found:
        found = _drawing(layout)
    return [f"{layout.source}: {key}: {message}" for key, message in found]


def _drawing(layout: Layout) -> list[tuple[str, str]]:
    """Draw the layout's page descriptions once (nothing is written), so `check` finds whatever `build` would
    trip over: a problem here is a layout the loader let through but the drawing cannot use."""
    from printgen.builders.cards import deck_faces
    from printgen.builders.one_to_nine import board_item, token_items
    from printgen.builders.scoresheet import build_sheet, title_size
    from printgen.labels import catalogue, languages
    from printgen.measure import MIN_TEXT_PT, sizes
    from printgen.printing.cards import card_size

    try:
        if isinstance(layout, DeckLayout):
            deck_faces(layout, card_size(layout.card_size), 3.0)
        elif isinstance(layout, BoardLayout):
            board_item(layout, card_size(layout.card_size))
        elif isinstance(layout, TokenLayout):
            token_items(layout)
        else:
            for lang in languages():
                if title_size(layout, catalogue(lang)) * 72 / 25.4 < MIN_TEXT_PT:
                    return [("title", (f"{layout.title!r} is too long for a {layout.width:g} mm sheet: beside the "
                                      f"name line it would print below {MIN_TEXT_PT:g} pt ({lang})"))]
            measured = sizes(build_sheet(layout).as_page())
            if measured.text_pt < IMPOSSIBLE_PT or measured.field_mm < IMPOSSIBLE_MM:
                return [("size", (f"{layout.width:g} x {layout.height:g} mm is too small for this sheet: "
                                 f"{' and '.join(measured.problems())}"))]
    except (KeyError, ValueError, IndexError, AssertionError, ZeroDivisionError) as error:
        return [("layout", f"cannot be drawn: {type(error).__name__} {error}")]
    return []


IMPOSSIBLE_PT = 3.0
IMPOSSIBLE_MM = 3.5
"""Below these a sheet cannot be used at all (refused); between them and the minimums, a warning."""


def require_agreement(layout: Layout) -> None:
    """Raise CheckFailed naming every mismatch of `layout` with the rules."""
    found = mismatches(layout)
    if found:
        raise CheckFailed(found)


def rules_deck(game: str) -> list[tuple[str, str | None, int | None]]:
    """The deck the rules of `game` prescribe, as (kind, colour, number)."""
    if game == "one-to-9":
        return [(card.kind, card.colour, card.number) for card in one_to_nine.deck()]
    return [("joker" if c.is_joker else "number", c.colour, c.number) for c in qwixx.qwixx_deck(jokers=True)]


def _deck(layout: DeckLayout) -> list[tuple[str, str]]:
    printed = Counter(layout.cards())
    rules = Counter(rules_deck(layout.game))
    found = []
    for kind, colour, number in sorted(printed.keys() | rules.keys(), key=str):
        key = (kind, colour, number)
        if printed[key] != rules[key]:
            what = " ".join(str(part) for part in (colour, kind if kind != "number" else None, number) if part)
            found.append(("cards", f"{what} is printed {printed[key]} times, the rules deck has {rules[key]}"))
    return found


def _board(layout: BoardLayout) -> list[tuple[str, str]]:
    found = []
    if layout.game != "one-to-9":
        found.append(("game", f"{layout.game!r}: only One to 9 has a board"))
    if layout.colours != one_to_nine.COLOURS:
        found.append(("colours", f"{list(layout.colours)}, the rules say {list(one_to_nine.COLOURS)}"))
    if layout.numbers != one_to_nine.NUMBERS:
        found.append(("numbers", f"{list(layout.numbers)}, the rules say {list(one_to_nine.NUMBERS)}"))
    return found


def _tokens(layout: TokenLayout) -> list[tuple[str, str]]:
    rules = {"small-star": one_to_nine.SMALL_STARS, "big-star": one_to_nine.BIG_STARS}
    printed: Counter[str] = Counter()
    for group in layout.groups:
        printed[group.kind] += group.count
    return [(f"tokens.{kind}", f"{printed[kind]} printed, the rules have {count}")
            for kind, count in rules.items() if printed[kind] != count]


def _score_sheet(layout: ScoreSheetLayout) -> list[tuple[str, str]]:
    spec = qwixx.variant(layout.rules)
    found: list[tuple[str, str]] = []
    if len(layout.rows) != len(spec.rows):
        found.append(("rows", f"{len(layout.rows)} rows, the {spec.name} rules have {len(spec.rows)}"))
    for index, (row, rule) in enumerate(zip(layout.rows, spec.rows)):
        key = f"rows[{index}]"
        if row.colour != rule.colour:
            found.append((f"{key}.colour", f"{row.colour!r}, the rules say {rule.colour!r}"))
        if row.numbers != rule.numbers:
            found.append((f"{key}.numbers", f"{list(row.numbers)}, the rules say {list(rule.numbers)}"))
        locks = spec.lock_numbers(index)
        if row.locks_with != locks:
            found.append((f"{key}.locks_with", f"{list(row.locks_with)}, the rules say {list(locks)}"))
        if (row.segments or len(set(rule.cell_colours)) > 1) and row.cell_colours != rule.cell_colours:
            found.append((f"{key}.segments", (f"cell colours {list(row.cell_colours)}, "
                                             f"the rules say {list(rule.cell_colours)}")))
        boxed = spec.bonus_numbers[index] if spec.bonus_numbers else frozenset()
        if set(row.bonus) != boxed:
            found.append((f"{key}.bonus", f"{sorted(row.bonus)}, the rules say {sorted(boxed)}"))
        kinds = {n: k for (r, n), k in spec.bonus_kinds.items() if r == index}
        if dict(row.bonus_fields) != kinds:
            found.append((f"{key}.bonus_fields", f"{dict(row.bonus_fields)}, the rules say {kinds}"))
    if layout.bonus_row != spec.bonus_row:
        found.append(("bonus_row", f"{list(layout.bonus_row)}, the rules say {list(spec.bonus_row)}"))
    if layout.lucky_numbers != spec.lucky:
        found.append(("lucky_numbers", (f"{str(layout.lucky_numbers).lower()}, the rules say "
                                       f"{str(spec.lucky).lower()}")))
    penalty_word = "misplays" if spec.card_game else "misthrows"
    if layout.penalties.label != penalty_word:
        found.append(("penalties.label", (f"{layout.penalties.label!r}, the {spec.name} rules call them "
                                         f"{penalty_word!r}")))
    if layout.penalties.count != spec.max_penalties:
        found.append(("penalties.count", f"{layout.penalties.count}, the rules say {spec.max_penalties}"))
    if layout.penalties.points != -spec.penalty_points:
        found.append(("penalties.points", f"{layout.penalties.points}, the rules say {-spec.penalty_points}"))
    table = qwixx.points_table(spec.name)
    crosses = list(range(1, len(table) + 1))
    if list(layout.points_table.crosses) != crosses:
        found.append(("points_table.crosses", f"{list(layout.points_table.crosses)}, the rules say {crosses}"))
    for i, (printed, right) in enumerate(zip(layout.points_table.points, table)):
        if printed != right:
            found.append((f"points_table.points[{i}]", f"{printed} for {i + 1} crosses, the rules say {right}"))
    if len(layout.points_table.points) != len(table):
        found.append(("points_table.points", f"{len(layout.points_table.points)} entries, the rules say {len(table)}"))
    return found


def warnings(layout: Layout, lang: str = "en", paper: str = "a4", per_page: int = 2) -> list[str]:
    """Legibility warnings (each a line `file: what`): for a score sheet, text or fields below the minimums at
    100 %, or a sheet printed scaled down on `paper` at `per_page` sheets a page; for a deck or board, text
    that reads at less than 3:1 against what is behind it (a palette of one's own)."""
    if isinstance(layout, DeckLayout | BoardLayout):
        return _contrast_warnings(layout, lang)
    if not isinstance(layout, ScoreSheetLayout):
        return []
    from printgen.builders.scoresheet import build_sheet
    from printgen.measure import sizes
    from printgen.printing.imposition import plan_grid
    from printgen.printing.paper import paper_size

    found = [f"{layout.source}: {problem} at 100 %"
             for problem in sizes(build_sheet(layout, lang).as_page()).problems()]
    grid = plan_grid(paper_size(paper), layout.width, layout.height, per_page)
    if per_page > 1 and grid.scale < 0.999:
        found.append(f"{layout.source}: the {layout.width:g} x {layout.height:g} mm sheet is printed at "
                     f"{grid.scale:.0%} on {paper} with {per_page} a page (it does not fit at 100 %)")
    return found


def _contrast_warnings(layout: DeckLayout | BoardLayout, lang: str) -> list[str]:
    from printgen.builders.cards import deck_faces
    from printgen.builders.one_to_nine import board_item
    from printgen.colours import MIN_CONTRAST
    from printgen.measure import contrasts
    from printgen.page import Item
    from printgen.printing.cards import card_size

    size = card_size(layout.card_size)
    if isinstance(layout, BoardLayout):
        pages = [(board_item(layout, size, lang).as_page(), layout.colour("board"))]
    else:
        faces = {face.id: face for _, front, back in deck_faces(layout, size, 3.0, lang=lang) for face in (front, back)}
        pages = [(Item(name, face).as_page(), "#ffffff") for name, face in faces.items()]
    worst = min((found for page, paper in pages for found in contrasts(page, paper)), key=lambda c: c.ratio,
                default=None)
    if worst is None or worst.ratio >= MIN_CONTRAST:
        return []
    return [(f"{layout.source}: palette: {worst.text!r} in {worst.ink} on {worst.ground} reads at "
            f"{worst.ratio:.1f}:1 (in colour or in grey); printgen's own palettes keep {MIN_CONTRAST:g}:1")]
