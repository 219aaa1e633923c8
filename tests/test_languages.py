"""Every word printgen prints, in every layout, comes from the chosen language's catalogue (or a title)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from printgen import layouts
from printgen.build import build, options_for
from printgen.labels import catalogue
from printgen.render.recording import record

WORD = re.compile(r"[^\W\d_]{2,}")
EXTRA: dict[str, dict[str, Any]] = {"deck": {"alignment_page": True}, "board": {"tile": True}}


def words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", "", text))}


@pytest.mark.parametrize("lang", ["de", "fr", "it", "pl"])
@pytest.mark.parametrize("name", layouts.builtin_names())
def test_no_english_word_is_left(tmp_path: Path, pages: list[Any], name: str, lang: str) -> None:
    layout = layouts.load(name)
    build(name, options_for(name, out=tmp_path, lang=lang, **EXTRA.get(layout.kind, {})))
    allowed = set().union(*(words(value) for value in catalogue(lang).values())) | words(layout.title)
    english = set().union(*(words(value) for value in catalogue("en").values())) - allowed
    printed = set().union(*(words(d.text) for page in pages for d in record(page) if d.kind == "text"))
    assert printed, "nothing was printed"
    assert not printed - allowed, f"{name} in {lang} prints {sorted(printed - allowed)}"
    assert not printed & english
