"""Lucky numbers of Big Points sheets: dice and a pool choice in, pairs dealt evenly to a pad's sheets out.

The default ("balanced") pool is every pair of distinct sums whose combined
chance equals that of the seed's example pairs {5, 10} and {6, 11}: 11/64
with two eight-sided dice (RULES.md section 2).
"""

from __future__ import annotations

import random
from itertools import combinations

from printgen.errors import shown

Pair = tuple[int, int]
REFERENCE_PAIR: Pair = (5, 10)


def ways(total: int, sides: int) -> int:
    """How many of the sides**2 rolls of two dice sum to `total`."""
    return sum(1 for a in range(1, sides + 1) if 1 <= total - a <= sides)


def balanced_pool(sides: int = 8) -> list[Pair]:
    """Every pair of distinct sums as likely (together) as the seed's example pairs.

    >>> balanced_pool()
    [(4, 9), (5, 8), (5, 10), (6, 7), (6, 11), (7, 12), (8, 13), (9, 14), (10, 13), (11, 12)]
    """
    target = sum(ways(n, sides) for n in REFERENCE_PAIR)
    sums = range(2, 2 * sides + 1)
    return [(a, b) for a, b in combinations(sums, 2) if ways(a, sides) + ways(b, sides) == target]


def all_pairs(sides: int = 8) -> list[Pair]:
    """Every pair of two distinct possible sums."""
    return list(combinations(range(2, 2 * sides + 1), 2))


def parse_pool(text: str, sides: int = 8) -> list[Pair]:
    """A pool named "balanced" or "all", or written as pairs "5-10,6-11"; ValueError if invalid."""
    if text == "balanced":
        return balanced_pool(sides)
    if text == "all":
        return all_pairs(sides)
    pool: list[Pair] = []
    high = 2 * sides
    for part in text.split(","):
        bits = part.strip().split("-")
        if len(bits) != 2 or not all(b.strip().isdigit() and len(b.strip()) <= 4 for b in bits):
            raise ValueError(f"{shown(part.strip())} is not a pair like 5-10 (or use balanced, all)")
        a, b = sorted(int(x) for x in bits)
        if a == b:
            raise ValueError(f"{shown(part.strip())}: the two lucky numbers must differ")
        if not (2 <= a and b <= high):
            raise ValueError(f"{shown(part.strip())}: lucky numbers must be possible sums 2..{high}")
        if (a, b) not in pool:
            pool.append((a, b))
    return pool


def deal(pool: list[Pair], sheets: int, seed: int) -> list[Pair]:
    """`sheets` pairs from `pool`: each used equally often (±1), neighbours never equal, same for the same seed."""
    if not pool:
        raise ValueError("the lucky pool is empty")
    if len(pool) == 1 and sheets > 1:
        raise ValueError(f"a pool of one pair {list(pool[0])} cannot fill a pad without equal neighbouring sheets")
    rng = random.Random(seed)
    dealt: list[Pair] = []
    while len(dealt) < sheets:
        cycle = list(pool)
        rng.shuffle(cycle)
        if dealt and cycle[0] == dealt[-1]:
            cycle[0], cycle[1] = cycle[1], cycle[0]
        dealt += cycle
    return dealt[:sheets]
