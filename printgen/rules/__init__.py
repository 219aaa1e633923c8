"""Pure game logic: rule variants in, legal moves, scores and whole games out (no drawing, no files).

Its modules are imported by name (`from printgen.rules import qwixx`), each when needed: a score sheet's
build never loads One to 9's rules, nor One to 9's the dice game's.
"""

from printgen.rules.illegal_move import IllegalMove

__all__ = ["IllegalMove", "one_to_nine", "qwixx", "scoring"]
