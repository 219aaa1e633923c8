"""Qwixx scoring: a number of crosses in, points out (points(n) = n(n+1)/2)."""


def points(crosses: int) -> int:
    """Points for a row with `crosses` crosses (the lock counts as one).

    >>> [points(n) for n in (0, 1, 4, 12)]
    [0, 1, 10, 78]
    """
    if crosses < 0:
        raise ValueError(f"crosses must be >= 0, not {crosses}")
    return crosses * (crosses + 1) // 2


def points_table(max_crosses: int) -> list[int]:
    """Points for 1..max_crosses crosses, as printed under the rows.

    >>> points_table(5)
    [1, 3, 6, 10, 15]
    """
    return [points(n) for n in range(1, max_crosses + 1)]
