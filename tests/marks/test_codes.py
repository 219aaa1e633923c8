"""Sheet codes: every sheet's identity survives the trip to QR text and back, in a code small enough to read."""

from __future__ import annotations

import random

import pytest

from printgen import layouts
from printgen.builders.geometry import sheet_geometry
from printgen.kinds import ScoreSheetLayout
from printgen.labels import languages
from printgen.marks.codes import CodeError, SheetCode, layout_name, layout_version, modules, parse
from printgen.rules.lucky import parse_pool
from printgen.rules.variants import shuffled_numbers, variant

SHEETS = [name for name in layouts.builtin_names() if layouts.load(name).kind == "score-sheet"]


def sheet(name: str) -> ScoreSheetLayout:
    layout = layouts.load(name)
    assert isinstance(layout, ScoreSheetLayout)
    return layout


def version(layout: ScoreSheetLayout) -> str:
    """The version printgen prints on sheets of `layout`."""
    return layout_version(layout, sheet_geometry(layout))


def codes_of(layout: ScoreSheetLayout) -> list[SheetCode]:
    """A spread of codes a pad of `layout` can print: every language, with and without symbols, its own data."""
    spec = variant(layout.rules)
    rng = random.Random(4)
    found = []
    for lang in languages():
        for symbols in (False, True):
            lucky = rng.choice(parse_pool("all", spec.dice_sides)) if layout.lucky_numbers else None
            numbers = shuffled_numbers(spec, rng) if spec.shuffled_lock_numbers else None
            found.append(SheetCode(layout.name, version(layout), lang, symbols, lucky, numbers))
    return found


@pytest.mark.parametrize("name", SHEETS)
def test_codes_round_trip_and_stay_version_two_at_most(name: str) -> None:
    layout = sheet(name)
    for code in codes_of(layout):
        text = code.text(layout)
        assert parse(text, layout) == code
        assert layout_name(text) == layout.name
        assert len(modules(text)) <= 25, f"{text} needs a larger code than version 2"


def test_every_shuffled_order_survives() -> None:
    layout = sheet("qwixx-gemixxt-b")
    rng = random.Random(11)
    for _ in range(300):
        numbers = shuffled_numbers(variant("gemixxt-b"), rng)
        code = SheetCode(layout.name, version(layout), numbers=numbers)
        assert parse(code.text(layout), layout).numbers == numbers


def test_versions_differ_between_layouts_and_follow_the_fields() -> None:
    versions = {version(sheet(name)) for name in SHEETS}
    assert len(versions) == len(SHEETS)
    from dataclasses import replace

    layout = sheet("qwixx-standard")
    assert version(replace(layout, palette=())) == version(layout)  # colours do not move fields
    assert version(replace(layout, height=layout.height + 5)) != version(layout)


@pytest.mark.parametrize("text", ["", "hello", "$STANDARD:ABC", "$STANDARD:ABC:EN:Q12"])
def test_foreign_texts_are_refused(text: str) -> None:
    with pytest.raises(CodeError):
        parse(text, sheet("qwixx-standard"))


def test_a_code_of_another_layout_is_refused() -> None:
    other = SheetCode("qwixx-cards", version(sheet("qwixx-cards"))).text(sheet("qwixx-cards"))
    with pytest.raises(CodeError, match="names layout qwixx-cards"):
        parse(other, sheet("qwixx-standard"))


def test_the_qr_encoder_loaded_on_its_own_draws_what_reportlabs_package_draws() -> None:
    import subprocess
    import sys

    code = ("import sys; from printgen.marks.codes import modules\n"
            "texts = ['$STANDARD:K7Z:EN', '$BIG-POINTS:K7Z:EN*:L5A', '$GEMIXXT-B:K7Z:EN:S0123456789ABCDEF']\n"
            "alone = [modules(t) for t in texts]\n"
            "print(sorted(m for m in sys.modules if m.startswith('reportlab.graphics.barcode')))\n"
            "from reportlab.graphics.barcode import qrencoder\n"
            "for text, grid in zip(texts, alone):\n"
            "    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)\n"
            "    qr.addData(text)\n"
            "    qr.version = qr.calculate_version()\n"
            "    qr.makeImpl(False, 0)\n"
            "    n = qr.getModuleCount()\n"
            "    print(len(grid) == n and grid == tuple(tuple(bool(qr.isDark(r, c)) for c in range(n)) for r in range(n)))")
    lines = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert lines == ["[]", "True", "True", "True"]
