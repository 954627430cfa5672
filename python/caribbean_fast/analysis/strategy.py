"""Strategy tables: a decision for every situation up to suit renaming, found from any deal.

Stud situations are (five cards, up card), keyed with the up card renamed to a club and the hand
at its least renaming of the other suits. Hold'em situations are (two cards, flop), keyed with
the flop at its least renaming and the two cards at their least among the renamings that give it.
The same keys are computed for the enumeration's rows, so a lookup is a binary search.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import numpy as np
import numpy.typing as npt

from ..cards import CardsLike, parse_cards
from ..errors import ArgumentError
from ..settlement import Decision
from ..variants import Family

PERMS = [list(p) for p in permutations(range(4))]

SITUATIONS = {Family.STUD: 5_649_150, Family.HOLDEM: 1_286_792}
"""Situations up to suit renaming, as the exact enumerations list them (tests/test_analysis.py
holds these to the enumerations); a strategy table decides every one of them."""


def _rename(cards: Sequence[int], perm: Sequence[int]) -> list[int]:
    return sorted(4 * (c >> 2) + perm[c & 3] for c in cards)


def _pack(cards: Sequence[int]) -> int:
    key = 0
    for c in cards:
        key = key << 6 | c
    return key


def stud_key(hand: Sequence[int], up: int) -> int:
    """The key of a seat's five cards against an up card."""
    to_club = [0, 1, 2, 3]
    to_club[up & 3], to_club[0] = 0, up & 3
    hand = _rename(hand, to_club)
    least = min(_rename(hand, p) for p in PERMS if p[0] == 0)
    return (up >> 2) << 30 | _pack(least)


def stud_keys(up_rank: npt.NDArray[np.uint8], hand: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Keys of the enumeration's rows, which are already canonical."""
    key = up_rank.astype(np.int64) << 30
    for i in range(5):
        key |= hand[:, i].astype(np.int64) << (6 * (4 - i))
    return key


def holdem_key(hole: Sequence[int], flop: Sequence[int]) -> int:
    """The key of a seat's two cards and a flop."""
    least = min((_rename(flop, p), _rename(hole, p)) for p in PERMS)
    return _pack(least[0] + least[1])


def holdem_keys(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Keys of the enumeration's rows (hole cards then flop, already canonical)."""
    key = np.zeros(len(cards), dtype=np.int64)
    for i in (2, 3, 4, 0, 1):
        key = key << 6 | cards[:, i].astype(np.int64)
    return key


@dataclass(frozen=True)
class StrategyTable:
    """A raise (call) or fold decision for every situation of a family, with a summary a person
    can follow, derived from the table; for game 4, also the fewest exchanges left with which
    each hand is exchanged (0: never; `exchange_from` None: the strategy never exchanges)."""

    family: Family
    keys: npt.NDArray[np.int64]
    raises: npt.NDArray[np.bool_]
    summary_lines: tuple[str, ...]
    exchange_from: npt.NDArray[np.uint8] | None = None

    def __post_init__(self) -> None:
        """A table missing a situation would let a lookup (or the simulator, which folds what it
        cannot find) decide something nobody chose: every situation is there, once, in order."""
        need = SITUATIONS.get(self.family)
        if need is None:
            raise ArgumentError(f"family must be a Family, not {self.family!r}")
        keys, raises = np.asarray(self.keys), np.asarray(self.raises)
        if keys.shape != (need,) or raises.shape != (need,):
            raise ArgumentError(
                f"a {self.family.value} strategy table decides all {need:,} situations: "
                f"{len(keys):,} keys and {len(raises):,} decisions given"
            )
        if keys.dtype != np.int64 or raises.dtype != np.bool_ or not bool(np.all(keys[1:] > keys[:-1])):
            raise ArgumentError("a strategy table needs int64 keys, each once and in order, and bool decisions")
        swaps = self.exchange_from
        if swaps is not None and (np.asarray(swaps).shape != (need,) or np.asarray(swaps).dtype != np.uint8):
            raise ArgumentError(f"exchange_from gives one uint8 per situation ({need:,})")

    @classmethod
    def from_rows(
        cls,
        family: Family,
        keys: npt.NDArray[np.int64],
        raises: npt.NDArray[np.bool_],
        summary: Sequence[str],
        exchange_from: npt.NDArray[np.uint8] | None = None,
    ) -> StrategyTable:
        order = np.argsort(keys, kind="stable")
        swaps = exchange_from[order] if exchange_from is not None else None
        return cls(family, keys[order], raises[order], tuple(summary), swaps)

    def _index(self, key: int) -> int:
        i = int(np.searchsorted(self.keys, key))
        if i >= len(self.keys) or self.keys[i] != key:
            raise ArgumentError(f"no situation with key {key}")
        return i

    def _lookup(self, key: int) -> Decision:
        return Decision.RAISE if self.raises[self._index(key)] else Decision.FOLD

    def exchanges(self, hand: CardsLike, up: CardsLike, left: int) -> bool:
        """Game 4: whether to exchange the five cards against this up card with `left`
        exchanges left (ahead of the raise or fold that `decide` gives)."""
        if self.exchange_from is None or left < 1:
            return False
        cards, up_card = parse_cards(hand, 5), parse_cards(up, 1)[0]
        parse_cards([*cards, up_card])
        first = int(self.exchange_from[self._index(stud_key(cards, up_card))])
        return 0 < first <= left

    def decide(self, cards: CardsLike, board: CardsLike) -> Decision:
        """Stud: `decide(hand, up_card)`; hold'em: `decide(hole_cards, flop)`."""
        if self.family is Family.STUD:
            hand, up = parse_cards(cards, 5), parse_cards(board, 1)[0]
            parse_cards([*hand, up])  # no card twice
            return self._lookup(stud_key(hand, up))
        hole, flop = parse_cards(cards, 2), parse_cards(board, 3)
        parse_cards([*hole, *flop])
        return self._lookup(holdem_key(hole, flop))

    def summary(self) -> str:
        return "\n".join(self.summary_lines)

    def __len__(self) -> int:
        return len(self.keys)
