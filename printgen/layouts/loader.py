"""Layout loading: a TOML file in, a validated frozen layout out (or LayoutError, one line per problem)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from printgen.errors import LayoutError
from printgen.fonts import missing_glyphs
from printgen.fonts import problem as glyph_problem
from printgen.labels import catalogue
from printgen.layouts.fields import Fields
from printgen.layouts.model import (
    BoardLayout,
    CardGroup,
    DeckLayout,
    Layout,
    PenaltyLayout,
    PointsTableLayout,
    RowLayout,
    ScoreSheetLayout,
    TokenGroup,
    TokenLayout,
)
from printgen.rules import qwixx
from printgen.rules.variants import COLOURS
from printgen.tomlfile import parse_toml

GAMES = ("qwixx-cards", "one-to-9")
CARD_KINDS = ("number", "joker", "number-joker", "draw3")
TOKEN_KINDS = ("small-star", "big-star")


def load_file(path: Path, shown: str | None = None) -> Layout:
    """Read and validate the layout at `path`; errors name it as `shown` (default: the path)."""
    name = shown or str(path)
    data = parse_toml(path, name)
    problems: list[tuple[str, str]] = []
    top = Fields(data, "", problems)
    kind = top.string("kind")
    if kind is not None and kind not in KINDS:
        top.problem("kind", f"{kind!r} is not a known kind ({', '.join(KINDS)})")
    layout: Layout | None = None
    reader = _READERS.get(kind or "")
    if reader is not None:  # what the other keys mean depends on the kind: with an unknown kind, report only that
        description = top.string("description", "") or ""
        layout = reader(top, path.stem, name)
        top.finish()
        if layout is not None:
            layout = replace(layout, description=description or f"{layout.title} {layout.kind}")
    if problems or layout is None:
        raise LayoutError([f"{name}: {key}: {message}" for key, message in problems])
    return layout


def _title(fields: Fields) -> str | None:
    """The layout's title, if every character of it (and of its capitals, as sheets print it) can be printed."""
    title = fields.string("title")
    if title is not None:
        missing = missing_glyphs(title + title.upper())
        if missing:
            fields.problem("title", glyph_problem(missing))
            return None
    return title


def _score_sheet(top: Fields, name: str, source: str) -> ScoreSheetLayout | None:
    title = _title(top)
    rules = top.string("rules")
    spec = None
    if rules is not None:
        try:
            spec = qwixx.variant(rules)
        except ValueError as error:
            top.problem("rules", str(error))
    size = top.table("size")
    width = height = None
    if size is not None:
        width = size.number("width", 50, 500)
        height = size.number("height", 30, 500)
        size.finish()
    palette = _palette(top)
    rows = [_row(fields, spec, palette, index) for index, fields in enumerate(top.tables("rows", 1, 8))]
    penalties = _penalties(top)
    table = _points_table(top, rows)
    totals = top.table("totals")
    totals_label = None
    if totals is not None:
        totals_label = _label(totals, "label")
        totals.finish()
    lucky_numbers = top.flag("lucky_numbers")
    bonus_row: tuple[str, ...] | None = ()
    if top.has("bonus_row"):
        bonus_row = top.strings("bonus_row", 1, 30)
        if bonus_row is not None and palette is not None:
            unknown = [c for c in bonus_row if c not in palette]
            if unknown:
                top.problem("bonus_row", f"{unknown[0]!r} is not in [palette] ({', '.join(palette)})")
                bonus_row = None
    parts = (title, rules, spec, width, height, palette, penalties, table, totals_label, bonus_row, *rows)
    if top.problems or any(part is None for part in parts):
        return None
    assert bonus_row is not None
    assert title and rules and width and height and palette and penalties and table and totals_label
    return ScoreSheetLayout(
        name=name,
        source=source,
        title=title,
        rules=rules,
        width=width,
        height=height,
        palette=tuple(palette.items()),
        rows=tuple(r for r in rows if r is not None),
        penalties=penalties,
        points_table=table,
        totals_label=totals_label,
        lucky_numbers=lucky_numbers,
        bonus_row=bonus_row,
    )


def _deck(top: Fields, name: str, source: str) -> DeckLayout | None:
    title = _title(top)
    game = _game(top)
    card_size = _card_size(top)
    palette = _palette(top)
    back = None
    if palette is not None:
        back = palette.get("back")
        if back is None:
            top.problem("palette.back", "is missing (the neutral colour of the card backs)")
    groups = [_card_group(fields, palette) for fields in top.tables("cards", 1, 20)]
    if palette is not None and game is not None:
        multicoloured = any(g is not None and g.kind in ("joker", "number-joker") for g in groups)
        _require(top, palette, (*(COLOURS if multicoloured else ()), *(("star",) if game == "one-to-9" else ())),
                 "the cards draw it")
    if top.problems or None in (title, game, card_size, palette, back, *groups):
        return None
    assert title and game and card_size and palette and back
    return DeckLayout(name, source, title, game, card_size, tuple(palette.items()), back,
                      tuple(g for g in groups if g is not None))


def _card_group(fields: Fields, palette: dict[str, str] | None) -> CardGroup | None:
    kind = fields.string("kind")
    if kind is not None and kind not in CARD_KINDS:
        fields.problem("kind", f"{kind!r} is not one of {', '.join(CARD_KINDS)}")
        kind = None
    colours: tuple[str, ...] | None = ()
    if kind == "number":
        colours = fields.strings("colours", 1, 8)
        if colours is not None and palette is not None:
            for colour in colours:
                if colour not in palette:
                    fields.problem("colours", f"{colour!r} is not in [palette] ({', '.join(palette)})")
                    colours = None
                    break
    numbers: tuple[int, ...] | None = ()
    if kind in ("number", "number-joker") or fields.has("numbers"):
        numbers = fields.integers("numbers", 1, 30)
    copies = fields.integer("copies", 1, 20) if fields.has("copies") else 1
    fields.finish()
    if kind is None or colours is None or numbers is None or copies is None:
        return None
    return CardGroup(kind, colours, numbers, copies)


def _card_size(top: Fields) -> str | None:
    """The layout's card size: poker, bridge, mini or WxH with an optional unit (as --card-size takes)."""
    from printgen.options import card_size

    text = top.string("card_size", "poker")
    if text is None:
        return None
    try:
        return card_size(text)
    except ValueError as error:
        top.problem("card_size", str(error))
        return None


def _game(top: Fields) -> str | None:
    game = top.string("game")
    if game is not None and game not in GAMES:
        top.problem("game", f"{game!r} is not a known card game ({', '.join(GAMES)})")
        return None
    return game


def _board(top: Fields, name: str, source: str) -> BoardLayout | None:
    title = _title(top)
    game = _game(top)
    card_size = _card_size(top)
    palette = _palette(top)
    colours = top.strings("colours", 1, 8)
    if colours is not None and palette is not None and any(c not in palette for c in colours):
        top.problem("colours", f"every colour must be in [palette] ({', '.join(palette)})")
        colours = None
    numbers = top.integers("numbers", 1, 20)
    if palette is not None:
        _require(top, palette, ("board", "star"), "the board draws it")
    if top.problems or None in (title, game, card_size, palette, colours, numbers):
        return None
    assert title and game and card_size and palette and colours and numbers
    return BoardLayout(name, source, title, game, card_size, tuple(palette.items()), colours, numbers)


def _tokens(top: Fields, name: str, source: str) -> TokenLayout | None:
    title = _title(top)
    game = _game(top)
    palette = _palette(top)
    if palette is not None:
        _require(top, palette, ("star", "ink"), "the tokens draw it")
    groups = []
    for fields in top.tables("tokens", 1, 10):
        kind = fields.string("kind")
        if kind is not None and kind not in TOKEN_KINDS:
            fields.problem("kind", f"{kind!r} is not one of {', '.join(TOKEN_KINDS)}")
            kind = None
        count = fields.integer("count", 1, 500)
        diameter = fields.number("diameter", 8, 120)
        fields.finish()
        groups.append(TokenGroup(kind, count, diameter) if kind and count and diameter else None)
    if top.problems or None in (title, game, palette, *groups):
        return None
    assert title and game and palette
    return TokenLayout(name, source, title, game, tuple(palette.items()), tuple(g for g in groups if g))


def _require(top: Fields, palette: dict[str, str], names: tuple[str, ...], why: str) -> None:
    """A problem for every colour `names` asks of [palette] that it lacks."""
    for colour in names:
        if colour not in palette:
            top.problem(f"palette.{colour}", f"is missing ({why})")


def _palette(top: Fields) -> dict[str, str] | None:
    fields = top.table("palette")
    if fields is None:
        return None
    palette: dict[str, str] = {}
    for colour in fields.data:
        # an invalid value is reported here; the name still counts, so rows naming it raise no second error
        palette[colour] = fields.colour(colour) or "#000000"
    return palette


def _row(fields: Fields, spec: qwixx.VariantSpec | None, palette: dict[str, str] | None,
         index: int) -> RowLayout | None:
    colour = _palette_colour(fields, "colour", palette)
    numbers = fields.integers("numbers", 2, 20)
    if numbers is not None and spec is not None:
        numbers = _possible(fields, "numbers", numbers, spec)
    if numbers is not None and len(set(numbers)) != len(numbers):
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        fields.problem("numbers", f"{', '.join(map(str, twice))} printed twice")
        numbers = None
    locks = fields.integers("locks_with", 1, 4)
    if locks is not None and numbers is not None and tuple(numbers[-len(locks) :]) != locks:
        rule_locks = spec.lock_numbers(index) if spec is not None and index < len(spec.rows) else ()
        if set(locks) <= set(numbers) and set(locks) == set(rule_locks):
            # the lock numbers are the rules' and are printed, only not last: the numbers are in the wrong order
            fields.problem("numbers", f"the row locks with {_words(locks)} (locks_with), so "
                                      f"{'it' if len(locks) == 1 else 'they'} must be printed last, not "
                                      f"{_words(numbers[-len(locks):])}")
            numbers = None
        else:
            fields.problem("locks_with", f"{list(locks)} must be the row's rightmost numbers")
        locks = None
    segments = _segments(fields, numbers, palette) if fields.has("segments") else ()
    bonus: tuple[int, ...] | None = ()
    if fields.has("bonus"):
        bonus = fields.integers("bonus", 1, 20)
        bonus = _on_row(fields, "bonus", bonus, numbers)
    bonus_fields = _bonus_fields(fields, numbers) if fields.has("bonus_fields") else ()
    fields.finish()
    if None in (colour, numbers, locks, segments, bonus, bonus_fields):
        return None
    assert colour and numbers and locks and segments is not None and bonus is not None and bonus_fields is not None
    return RowLayout(colour, numbers, locks, segments, bonus, bonus_fields)


def _words(numbers: tuple[int, ...]) -> str:
    return " and ".join(map(str, numbers))


def _palette_colour(fields: Fields, name: str, palette: dict[str, str] | None) -> str | None:
    colour = fields.string(name)
    if colour is not None and palette is not None and colour not in palette:
        fields.problem(name, f"{colour!r} is not in [palette] ({', '.join(palette)})")
        return None
    return colour


def _possible(fields: Fields, name: str, numbers: tuple[int, ...], spec: qwixx.VariantSpec) -> tuple[int, ...] | None:
    sums = spec.possible_sums
    for number in numbers:
        if number not in sums:
            fields.problem(name, f"{number} is not a possible sum ({sums.start}..{sums.stop - 1})")
            return None
    return numbers


def _on_row(fields: Fields, name: str, values: tuple[int, ...] | None,
            numbers: tuple[int, ...] | None) -> tuple[int, ...] | None:
    if values is None or numbers is None:
        return values
    for value in values:
        if value not in numbers:
            fields.problem(name, f"{value} is not a number of this row")
            return None
    return values


def _segments(fields: Fields, numbers: tuple[int, ...] | None,
              palette: dict[str, str] | None) -> tuple[tuple[str, tuple[int, ...]], ...] | None:
    segments = []
    for part in fields.tables("segments", 1, 20):
        colour = _palette_colour(part, "colour", palette)
        run = part.integers("numbers", 1, 20)
        part.finish()
        if colour is None or run is None:
            return None
        segments.append((colour, run))
    if not segments:
        return None
    if numbers is not None and tuple(n for _, run in segments for n in run) != numbers:
        fields.problem("segments", "the segments' numbers, in order, must be the row's numbers")
        return None
    return tuple(segments)


def _bonus_fields(fields: Fields, numbers: tuple[int, ...] | None) -> tuple[tuple[int, int], ...] | None:
    found = []
    for part in fields.tables("bonus_fields", 1, 20):
        number = part.integer("number", 1, 99)
        kind = part.integer("kind", 1, 5)
        part.finish()
        if number is None or kind is None or _on_row(part, "number", (number,), numbers) is None:
            return None
        found.append((number, kind))
    return tuple(found) if found else None


def _penalties(top: Fields) -> PenaltyLayout | None:
    fields = top.table("penalties")
    if fields is None:
        return None
    count = fields.integer("count", 1, 10)
    points = fields.integer("points", -100, -1)
    label = _label(fields, "label")
    fields.finish()
    if count is None or points is None or label is None:
        return None
    return PenaltyLayout(count, points, label)


def _points_table(top: Fields, rows: list[RowLayout | None]) -> PointsTableLayout | None:
    fields = top.table("points_table")
    if fields is None:
        return None
    crosses = fields.integers("crosses", 1, 20)
    points = fields.integers("points", 1, 20)
    if crosses is not None and points is not None and len(crosses) != len(points):
        fields.problem("points", f"has {len(points)} entries but crosses has {len(crosses)}")
        points = None
    first = rows[0] if rows else None
    if crosses is not None and first is not None:
        most = len(first.numbers) - len(first.locks_with) + 2  # numbers before the locks, one lock number, the lock
        if len(crosses) != most:
            fields.problem("crosses", f"has {len(crosses)} entries, but a row of this sheet holds up to {most} crosses")
            crosses = None
    fields.finish()
    if crosses is None or points is None:
        return None
    return PointsTableLayout(crosses, points)


def _label(fields: Fields, name: str) -> str | None:
    key = fields.string(name)
    if key is not None and key not in catalogue():
        from printgen.options import did_you_mean

        hint = did_you_mean(key, catalogue()) or f" ({', '.join(sorted(catalogue()))})"
        fields.problem(name, f"{key!r} is not a label key{hint}")
        return None
    return key


_READERS = {"score-sheet": _score_sheet, "deck": _deck, "board": _board, "tokens": _tokens}
KINDS = tuple(_READERS)
