"""Lengths as users write them: a number in mm, or with a unit."""

from __future__ import annotations

import pytest

from printgen.lengths import length


@pytest.mark.parametrize("text, mm", [("3", 3.0), ("3mm", 3.0), ("0.5 cm", 5.0), ("0.125in", 3.175), ("9pt", 3.175)])
def test_a_length_is_read_in_mm_or_its_unit(text: str, mm: float) -> None:
    assert length(text) == pytest.approx(mm)


@pytest.mark.parametrize("text", ["nan", "inf", "3parsecs", ""])
def test_what_is_no_length_is_said_in_one_plain_sentence(text: str) -> None:
    """The hint was nested in brackets: "(a number with an optional unit mm, cm, in or pt (mm by default))"."""
    with pytest.raises(ValueError, match=r"is not a length \(a number in mm, or with a unit: cm, in or pt\)$"):
        length(text)
