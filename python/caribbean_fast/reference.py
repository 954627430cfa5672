"""A pure-Python reference evaluator: the oracle the Rust core is tested against.

It shares nothing with the Rust tables: it sorts the ranks, counts them, and reads the class off
the counts, the suits and the gaps between ranks, as a person would; for six or seven cards it
tries every five-card subset. Slow (microseconds a hand) and obvious on purpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .hands import HandClass

__all__ = ["reference_key", "reference_value"]

RankValue = tuple[HandClass, tuple[int, ...]]

_ACE = 12
_WHEEL = [_ACE, 3, 2, 1, 0]


def _straight_top(distinct_desc: list[int]) -> int | None:
    """The top rank if five distinct ranks (high to low) run in sequence; the wheel's is the five."""
    if distinct_desc == _WHEEL:
        return 3
    if len(distinct_desc) == 5 and distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    return None


def _five(cards: Sequence[int]) -> RankValue:
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Group by how many of each rank, then by rank: (3, 3, 3, 9, 9) for threes full of jacks.
    grouped = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = [counts[r] for r in grouped]
    flush = len({c & 3 for c in cards}) == 1
    top = _straight_top(grouped) if len(grouped) == 5 else None
    if top is not None and flush:
        return (HandClass.ROYAL_FLUSH if top == _ACE else HandClass.STRAIGHT_FLUSH), (top,)
    if shape[0] == 4:
        return HandClass.FOUR_OF_A_KIND, tuple(grouped)
    if shape == [3, 2]:
        return HandClass.FULL_HOUSE, tuple(grouped)
    if flush:
        return HandClass.FLUSH, tuple(grouped)
    if top is not None:
        return HandClass.STRAIGHT, (top,)
    by_shape = {3: HandClass.THREE_OF_A_KIND, 2: HandClass.ONE_PAIR, 1: HandClass.HIGH_CARD}
    hand_class = HandClass.TWO_PAIR if shape[:2] == [2, 2] else by_shape[shape[0]]
    return hand_class, tuple(grouped)


def reference_value(cards: Sequence[int]) -> RankValue:
    """The class and tie-break ranks of the best five of 5 to 7 card ids; compare as tuples."""
    if len(cards) == 5:
        return _five(cards)
    return max(_five(five) for five in combinations(cards, 5))


def reference_key(cards: Sequence[int]) -> int:
    """``reference_value`` packed into one integer with the same order, for bulk comparison."""
    hand_class, ranks = reference_value(cards)
    key = int(hand_class)
    for r in (*ranks, 0, 0, 0, 0)[:5]:
        key = key << 4 | r
    return key
