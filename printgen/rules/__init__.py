"""Pure game logic: rule variants in, legal moves, scores and whole games out (no drawing, no files)."""

from printgen.rules import one_to_nine, qwixx, scoring
from printgen.rules.illegal_move import IllegalMove

__all__ = ["IllegalMove", "one_to_nine", "qwixx", "scoring"]
