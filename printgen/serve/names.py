"""Names of games and players: text from a client (a form field or an address) in, the one tidied name or a one-line refusal out.

Every route tidies a name the same way before it is used or looked up:
Unicode NFC (so `Chloé` typed as e + combining accent is the `Chloé` typed
as one letter), runs of spaces as one space, a curly apostrophe (’ ‘ ʼ) as
the straight one. A name is then 1 to MOST characters: a letter or digit
of any script first, then letters (with their combining marks: Devanagari,
Thai, Arabic vowel signs), digits, spaces and . ' - _. Control characters,
slashes, letters that show as nothing (Hangul fillers) and everything else
are refused; nothing ever builds a path from a name.
"""

from __future__ import annotations

import unicodedata

MOST = 40
"""Longest name, in characters (after tidying)."""
PUNCTUATION = frozenset(" .'-_")
"""What may stand in a name beside letters, marks and digits."""
JOINERS = frozenset("\u200c\u200d")
"""Zero-width (non-)joiners: part of how Persian and Indic names are written, never first."""
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Hangul fillers (letters to Unicode) and the blank Braille pattern: they show as nothing (a player nobody sees)."""
APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
ALLOWED = "letters, digits, spaces and . ' - _"


class BadName(ValueError):
    """A name that is not one: its message is one line for the person who typed it."""


def tidy(value: object) -> str:
    """`value` as names are kept: NFC, one space between words, straight apostrophes (not checked)."""
    text = value if isinstance(value, str) else ""
    return " ".join(unicodedata.normalize("NFC", text).translate(APOSTROPHES).split())


def checked(value: object, what: str) -> str:
    """`value` tidied (see `tidy`) when it is a name; BadName `WHAT: what is wrong` otherwise."""
    text = tidy(value)
    if not text:
        raise BadName(f"{what}: give a name ({ALLOWED})")
    if len(text) > MOST:
        raise BadName(f"{what}: a name has at most {MOST} characters (this one has {len(text)})")
    if unicodedata.category(text[0])[0] not in "LN":
        raise BadName(f"{what}: a name starts with a letter or digit, not {_named(text[0])}")
    for char in text[1:]:
        if unicodedata.category(char)[0] not in "LMN" and char not in PUNCTUATION and char not in JOINERS:
            raise BadName(f"{what}: {_named(char)} cannot be in a name (use {ALLOWED})")
    blank = next((char for char in text if char in BLANK_LETTERS), None)
    if blank is not None:
        raise BadName(f"{what}: U+{ord(blank):04X} shows as nothing and cannot be in a name (use {ALLOWED})")
    return text


def _named(char: str) -> str:
    """A character as a message shows it: itself when it can be seen, else its code (U+0000)."""
    visible = unicodedata.category(char)[0] in "LNPS" and char not in JOINERS and char not in BLANK_LETTERS
    return f"“{char}”" if visible else f"U+{ord(char):04X}"
