"""The rules engine's one exception: an illegal move in, a ValueError with the reason out."""


class IllegalMove(ValueError):
    """A move the rules forbid; the state it was tried on is unchanged."""
