"""Messages: values from outside shown in them."""

from __future__ import annotations


def test_a_long_text_in_a_message_is_cut_short_keeping_its_closing_quote() -> None:
    """A title too long was shown as 'Das allerschönste Würfelspiel der ga... (its quote left open)."""
    from printgen.errors import shown

    title = "Das allerschönste Würfelspiel der ganzen weiten Welt"
    assert shown(title) == "'Das allerschönste Würfelspiel der g...'" and len(shown(title)) == 40
    assert shown(10**60) == "1" + "0" * 36 + "..."
    assert shown("short") == "'short'"
