"""Colour management: every palette colour printed within ΔE2000 3 through the press profile, no colour above
300 % ink, greys and black in black ink alone, user profiles checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageCms

from printgen import layouts
from printgen.builders.one_to_nine_pieces import board_item, token_items
from printgen.builders.pad import pad_items
from printgen.colour_management import bundled_profile, delta_e2000, press, srgb_lab
from printgen.errors import UsageProblem
from printgen.kinds import BoardLayout, DeckLayout, ScoreSheetLayout, TokenLayout
from printgen.kinds.decks import deck_faces
from printgen.page import REGISTRATION, Element, Group, Item, Text, Use
from printgen.printing.card_grid import card_size


def palettes() -> list[tuple[str, str, str]]:
    """(layout, colour name, colour) of every palette entry of every built-in layout."""
    return [(name, key, colour) for name in layouts.builtin_names() for key, colour in layouts.load(name).palette]


def printed_colours() -> set[str]:
    """Every colour any built-in layout prints (fills, strokes, text), found in its page descriptions."""
    items: list[Item] = []
    for name in layouts.builtin_names():
        layout = layouts.load(name)
        if isinstance(layout, ScoreSheetLayout):
            items += list(pad_items(layout, 2, symbols=True, shuffle=name == "qwixx-gemixxt-b"))
        elif isinstance(layout, DeckLayout):
            faces = deck_faces(layout, card_size(layout.card_size), 3.0, True, True)
            items += [Item(n, face) for n, front, back in faces for face in (front, back)]
        elif isinstance(layout, BoardLayout):
            items.append(board_item(layout, card_size(layout.card_size)))
        elif isinstance(layout, TokenLayout):
            items += token_items(layout)
        else:
            raise AssertionError(f"{name}: a layout of no kind this test knows, so none of its colours is checked")
    found: set[str] = set()
    seen: set[str] = set()

    def walk(elements: tuple[Element, ...]) -> None:
        for element in elements:
            if isinstance(element, Group):
                walk(element.elements)
            elif isinstance(element, Use):
                if element.symbol.id not in seen:
                    seen.add(element.symbol.id)
                    walk(element.symbol.elements)
            elif isinstance(element, Text):
                found.add(element.fill)
            else:
                found.update(c for c in (element.paint.fill, element.paint.stroke) if c)

    for item in items:
        walk((Use(item.art, 0, 0), *item.extras))
    return found - {REGISTRATION}


def test_delta_e2000_matches_sharmas_test_data() -> None:
    # pairs and differences from Sharma, Wu and Dalal's CIEDE2000 test data (2005)
    pairs = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
             ((50, 0, 0), (50, -1, 2), 2.3669),
             ((50, 2.49, -0.001), (50, -2.49, 0.0009), 7.1792),
             ((50, 2.5, 0), (73, 25, -18), 27.1492),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]
    for one, other, expected in pairs:
        assert delta_e2000(one, other) == pytest.approx(expected, abs=1e-4)
        assert delta_e2000(other, one) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("layout, key, colour", palettes())
def test_every_palette_colour_prints_within_delta_e_3(layout: str, key: str, colour: str) -> None:
    ink = press().cmyk(colour)
    difference = delta_e2000(srgb_lab(colour), press().lab(ink))
    print(f"{layout} {key} {colour}: CMYK {tuple(round(100 * v) for v in ink)}, ΔE2000 {difference:.2f}")
    assert difference < 3, f"{layout}: palette.{key} {colour} prints as {ink}, ΔE2000 {difference:.2f}"


def test_no_printed_colour_exceeds_300_percent_ink() -> None:
    colours = printed_colours() | {colour for _, _, colour in palettes()} | {"#000000", "#1a1a2e", "#0b3d0b"}
    assert len(colours) > 30
    for colour in sorted(colours):
        ink = press().cmyk(colour)
        assert all(0 <= v <= 1 for v in ink)
        assert sum(ink) <= 3.0 + 1e-9, f"{colour} needs {100 * sum(ink):.0f} % ink"


def test_greys_print_in_black_ink_alone_and_black_text_is_solid_black() -> None:
    assert press().cmyk("#222222") == (0, 0, 0, 1)  # printgen's text ink, and anything darker
    assert press().cmyk("#000000") == (0, 0, 0, 1)
    assert press().cmyk("#ffffff") == (0, 0, 0, 0)
    greys = [f"#{v:02x}{v:02x}{v:02x}" for v in range(0x30, 0xff, 0x10)]
    blacks = [press().cmyk(grey) for grey in greys]
    assert all(c == m == y == 0 for c, m, y, _ in blacks)
    assert [k for *_, k in blacks] == sorted((k for *_, k in blacks), reverse=True)  # lighter grey, less ink
    for grey, ink in zip(greys, blacks):  # and the right lightness
        assert delta_e2000(srgb_lab(grey), press().lab(ink)) < 1.5, grey


def test_a_user_profile_is_used_and_named_custom(tmp_path: Path) -> None:
    mine = tmp_path / "shop.icc"
    mine.write_bytes(bundled_profile().read_bytes())
    shop = press(mine)
    assert shop is not press() and shop.condition == "Custom" and press().condition == "FOGRA39"
    assert shop.data == mine.read_bytes() and "FOGRA39" in shop.description
    assert shop.cmyk("#d7263d") == press().cmyk("#d7263d")


def test_profiles_that_are_not_cmyk_printer_profiles_are_refused(tmp_path: Path) -> None:
    rgb = tmp_path / "srgb.icc"
    rgb.write_bytes(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    with pytest.raises(UsageProblem, match=r"^--icc: .*srgb.icc: not a CMYK printer profile"):
        press(rgb)
    junk = tmp_path / "junk.icc"
    junk.write_bytes(b"not a profile")
    with pytest.raises(UsageProblem, match=r"junk.icc: not an ICC profile"):
        press(junk)
    with pytest.raises(UsageProblem, match=r"missing.icc: cannot read"):
        press(tmp_path / "missing.icc")


@pytest.mark.parametrize("kept", [2_000, 60_000])
def test_a_damaged_profile_is_refused_before_anything_is_written(tmp_path: Path, kept: int) -> None:
    from click.testing import CliRunner

    from printgen.cli import main

    cut = tmp_path / "cut.icc"  # the header (and so colour space and class) intact, the tables cut off
    cut.write_bytes(bundled_profile().read_bytes()[:kept])
    out = tmp_path / "out"
    for args in (["build", "qwixx-standard", "--icc", str(cut), "--out", str(out)],
                 ["build", "qwixx-cards-deck", "-f", "both", "--icc", str(cut), "--out", str(out)]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2, result.output
        assert result.output == (f"Error: --icc: {cut}: a damaged ICC profile: littleCMS cannot convert colours "
                                 "through it\n")
    assert not out.exists()
