"""Label catalogues: every language has every key, and the CLI offers exactly the bundled languages."""

from __future__ import annotations

import pytest

from printgen.labels import catalogue, languages
from printgen.options import BUILD_BY_KEY, SIMULATE_BY_KEY


def test_the_five_languages_are_bundled_and_offered() -> None:
    assert languages() == sorted(["en", "it", "de", "pl", "fr"])
    assert sorted(BUILD_BY_KEY["lang"].choices) == languages() == sorted(SIMULATE_BY_KEY["lang"].choices)


@pytest.mark.parametrize("lang", ["it", "de", "pl", "fr"])
def test_every_catalogue_has_every_key(lang: str) -> None:
    missing = set(catalogue("en")) - set(catalogue(lang))
    extra = set(catalogue(lang)) - set(catalogue("en"))
    assert not missing, f"{lang} misses {sorted(missing)}"
    assert not extra, f"{lang} has unknown keys {sorted(extra)}"
    assert all(value.strip() for value in catalogue(lang).values())


def test_unknown_language_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="known: de, en, fr, it, pl"):
        catalogue("xx")


FEWEST = {"en": "fewest crosses", "de": "wenigsten Kreuzen", "fr": "le moins de croix",
          "it": "minor numero di crocette", "pl": "najmniejszą liczbą krzyżyków"}


@pytest.mark.parametrize("lang", sorted(FEWEST))
def test_bonus_b_labels_say_fewest_crosses(lang: str) -> None:
    """Seed 003 (003_fa4fce078a64c9bc.txt) names "la riga di colori con ... il minor numero di crocette" (the
    row with the fewest crosses); every row has 11 numbers, so no row is "the shortest"."""
    labels = catalogue(lang)
    for key in ("bonus_1", "bonus_3"):
        assert FEWEST[lang] in labels[key], f"{lang}.{key} = {labels[key]!r}"
    banned = ("shortest", "kürzeste", "plus courte", "più corta", "najkrótsz")
    assert not any(word in value for value in labels.values() for word in banned)


@pytest.mark.parametrize("lang", ["en", "it", "de", "pl", "fr"])
def test_the_name_prompt_ends_in_a_colon_as_its_language_writes_it(lang: str) -> None:
    """French sets a no-break space before a colon ("Nom :", which never breaks from its word); the others none."""
    name = catalogue(lang)["name"]
    assert name.endswith(":") and not name.endswith(" :")  # an ordinary space could break the line there
    assert name.endswith("\u00a0:") == (lang == "fr")
