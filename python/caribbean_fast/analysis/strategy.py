"""Strategy tables: a decision for every situation up to suit renaming, found from any deal.

A table holds the canonical rows the exact enumeration lists. Stud: the up card's rank (the up
card renamed to a club) then the hand at its least renaming of the other suits. Hold'em: the two
cards then the flop, the flop at its least renaming and the two cards at their least among the
renamings that keep it. A deal's row is computed the same way, so a lookup is a binary search
over the rows, each read as one number (`row_keys`, the table's private index).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

import numpy as np
import numpy.typing as npt

from ..cards import DECK_SIZE, CardsLike, parse_cards
from ..errors import ArgumentError
from ..settlement import Decision
from ..variants import Family

PERMS = [list(p) for p in permutations(range(4))]

SITUATIONS = {Family.STUD: 5_649_150, Family.HOLDEM: 1_286_792}
"""Situations up to suit renaming, as the exact enumerations list them (tests/analysis/test_analysis.py
holds these to the enumerations); a strategy table decides every one of them."""

ROW_WIDTH = {Family.STUD: 6, Family.HOLDEM: 5}
"""Values in a row: stud, the up rank and five cards; hold'em, two cards and the flop."""


def _rename(cards: Sequence[int], perm: Sequence[int]) -> list[int]:
    return sorted(4 * (c >> 2) + perm[c & 3] for c in cards)


def row_keys(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Each row (values below the deck's size) read as one number, in base `DECK_SIZE`: an
    index that orders and finds rows, never stored or passed on."""
    key = np.zeros(len(rows), dtype=np.int64)
    for column in range(rows.shape[1]):
        key = key * DECK_SIZE + rows[:, column].astype(np.int64)
    return key


TRUST_SAMPLE = 997  # every this many rows' keys are read again when rows are trusted
_TRUSTED: dict[int, tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]] = {}
# By id of rows array: the array is held here, so its id is never another's.


def trust_rows(rows: npt.NDArray[np.uint8], keys: npt.NDArray[np.int64]) -> None:
    """Tells strategy tables that `rows` (read-only: the exact enumeration's) are in order, each
    once, with these keys: a table of these very rows takes the keys instead of reading every
    row again (the enumeration checked them when it counted). The keys' order and a sample of
    the rows are checked here, cheaply: a kept file that does not belong with its rows is an
    error, not a table that finds the wrong situations."""
    if rows.flags.writeable or keys.flags.writeable:
        raise ArgumentError("only read-only rows and keys can be trusted: a change would go unseen")
    sample = slice(None, None, TRUST_SAMPLE)
    if len(keys) != len(rows) or not bool(np.all(keys[1:] > keys[:-1])):
        raise ArgumentError("trusted rows need their keys, in order, each once")
    if not np.array_equal(row_keys(rows[sample]), keys[sample]):
        raise ArgumentError("trusted rows need their own keys")
    _TRUSTED[id(rows)] = (rows, keys)


def _trusted_keys(rows: object) -> npt.NDArray[np.int64] | None:
    known = _TRUSTED.get(id(rows))
    return known[1] if known is not None and known[0] is rows else None


def _key(row: Sequence[int]) -> int:
    return int(row_keys(np.array([row], dtype=np.uint8))[0])


def stud_row(hand: Sequence[int], up: int) -> list[int]:
    """The canonical row of a seat's five cards against an up card."""
    to_club = [0, 1, 2, 3]
    to_club[up & 3], to_club[0] = 0, up & 3
    hand = _rename(hand, to_club)
    return [up >> 2, *min(_rename(hand, p) for p in PERMS if p[0] == 0)]


def stud_rows(up_rank: npt.NDArray[np.uint8], hand: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The enumeration's stud situations (already canonical) as rows."""
    return np.ascontiguousarray(np.column_stack([up_rank, hand]).astype(np.uint8))


def holdem_row(hole: Sequence[int], flop: Sequence[int]) -> list[int]:
    """The canonical row of a seat's two cards and a flop."""
    least_flop, least_hole = min((_rename(flop, p), _rename(hole, p)) for p in PERMS)
    return [*least_hole, *least_flop]


def stud_key(hand: Sequence[int], up: int) -> int:
    """The lookup key of a seat's five cards against an up card."""
    return _key(stud_row(hand, up))


def stud_keys(up_rank: npt.NDArray[np.uint8], hand: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Lookup keys of the enumeration's stud rows."""
    return row_keys(stud_rows(up_rank, hand))


def holdem_key(hole: Sequence[int], flop: Sequence[int]) -> int:
    """The lookup key of a seat's two cards and a flop."""
    return _key(holdem_row(hole, flop))


def holdem_keys(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Lookup keys of the enumeration's hold'em rows (hole cards then flop)."""
    return row_keys(cards)


def _checked_keys(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """The keys of a table's rows, which must be card ids and ranks, in order, each once."""
    if bool((rows >= DECK_SIZE).any()):
        raise ArgumentError("a strategy table needs uint8 rows of card ids and ranks, and bool decisions")
    keys = row_keys(rows)
    if not bool(np.all(keys[1:] > keys[:-1])):
        raise ArgumentError("a strategy table lists each row once, in order")
    return keys


@dataclass(frozen=True)
class StrategyTable:
    """A raise (call) or fold decision for every situation of a family, by canonical row (see
    the module), with a summary a person can follow, derived from the table; for game 4, also
    the fewest exchanges left with which each hand is exchanged (0: never; `exchange_from` None:
    the strategy never exchanges)."""

    family: Family
    rows: npt.NDArray[np.uint8]
    raises: npt.NDArray[np.bool_]
    summary_lines: tuple[str, ...]
    exchange_from: npt.NDArray[np.uint8] | None = None
    _keys: npt.NDArray[np.int64] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """A table missing a situation would let a lookup (or the simulator, which folds what it
        cannot find) decide something nobody chose: every situation is there, once, in order."""
        need = SITUATIONS.get(self.family)
        if need is None:
            raise ArgumentError(f"family must be a Family, not {self.family!r}")
        rows, raises = np.asarray(self.rows), np.asarray(self.raises)
        width = ROW_WIDTH[self.family]
        if rows.shape != (need, width) or raises.shape != (need,):
            raise ArgumentError(
                f"a {self.family.value} strategy table decides all {need:,} situations: "
                f"{rows.shape} rows (of {width}) and {len(raises):,} decisions given"
            )
        if rows.dtype != np.uint8 or raises.dtype != np.bool_:
            raise ArgumentError("a strategy table needs uint8 rows of card ids and ranks, and bool decisions")
        keys = _trusted_keys(self.rows)
        if keys is None:
            keys = _checked_keys(rows)
        swaps = self.exchange_from
        if swaps is not None and (np.asarray(swaps).shape != (need,) or np.asarray(swaps).dtype != np.uint8):
            raise ArgumentError(f"exchange_from gives one uint8 per situation ({need:,})")
        object.__setattr__(self, "_keys", keys)

    @classmethod
    def from_rows(
        cls,
        family: Family,
        rows: npt.NDArray[np.uint8],
        raises: npt.NDArray[np.bool_],
        summary: Sequence[str],
        exchange_from: npt.NDArray[np.uint8] | None = None,
    ) -> StrategyTable:
        """A table of rows in any order."""
        if _trusted_keys(rows) is not None:  # in order already
            return cls(family, rows, raises, tuple(summary), exchange_from)
        order = np.argsort(row_keys(rows), kind="stable")
        swaps = exchange_from[order] if exchange_from is not None else None
        return cls(family, np.ascontiguousarray(rows[order]), raises[order], tuple(summary), swaps)

    def stud_columns(self) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
        """Stud: the up ranks and the hands of the rows."""
        return np.ascontiguousarray(self.rows[:, 0]), np.ascontiguousarray(self.rows[:, 1:])

    def _index(self, key: int) -> int:
        i = int(np.searchsorted(self._keys, key))
        if i >= len(self._keys) or self._keys[i] != key:
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
        return len(self.rows)
