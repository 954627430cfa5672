"""Hand evaluation through the Rust core: ``evaluate`` for one hand, ``evaluate_many`` for arrays.

A hand's strength is an integer from 1 (7-5-4-3-2 offsuit) to 7462 (royal flush): greater is
stronger, equal is a tie. It is the rank of the best five cards among the 7,462 distinct
five-card poker hands, so it compares hands of 5, 6 and 7 cards alike.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache, lru_cache
from numbers import Integral
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .cards import CardsLike, format_cards, parse_cards
from .errors import ArgumentError, ArgumentTypeError

__all__ = [
    "DISTINCT_STRENGTHS",
    "HandClass",
    "HandValue",
    "class_floor",
    "class_of",
    "evaluate",
    "evaluate_many",
    "strength_of_ids",
    "value_of_ids",
]

DISTINCT_STRENGTHS: int = _core.DISTINCT_STRENGTHS

RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)


class HandClass(IntEnum):
    """Hand classes, lowest to highest. The evaluator never yields ACE_KING: a variant that names
    Ace-King as a class (Caribbean Poker) reads it from high-card hands holding an ace and a king."""

    HIGH_CARD = 0
    ACE_KING = 1
    ONE_PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    @property
    def label(self) -> str:
        """The class as people write it: "Four of a kind"."""
        return "Ace-King" if self is HandClass.ACE_KING else self.name.replace("_", " ").capitalize()

    @classmethod
    def parse(cls, name: str) -> HandClass:
        """A class from its name in any case, with spaces, hyphens or underscores: "full house"."""
        key = name.strip().upper().replace("-", "_").replace(" ", "_")
        try:
            return cls[key]
        except KeyError:
            raise ArgumentError(
                f"{name!r} is not a hand class; expected one of {', '.join(c.name.lower() for c in cls)}"
            ) from None


_CLASSES = tuple(HandClass)  # by value: a lookup, not the enum's call


@cache
def _floors() -> tuple[int, ...]:
    return tuple(_core.class_floors())


def class_floor(hand_class: HandClass) -> int:
    """The lowest strength of a class (ACE_KING's is that of ONE_PAIR: the evaluator has none)."""
    if isinstance(hand_class, bool) or not isinstance(hand_class, int) or hand_class not in set(HandClass):
        raise ArgumentError(f"hand_class must be a HandClass (0 to {len(HandClass) - 1}), not {hand_class!r}")
    return _floors()[HandClass(hand_class)]


@cache
def _evaluator_floors() -> tuple[list[int], list[HandClass]]:
    """The floors of the classes the evaluator yields (every class but ACE_KING), ascending."""
    classes: list[HandClass] = [c for c in HandClass if c is not HandClass.ACE_KING]
    return [_floors()[c] for c in classes], classes


def class_of(strength: int) -> HandClass:
    """The evaluator's class of a strength: the class whose floor is the highest at or below it."""
    if type(strength) is int and 1 <= strength <= DISTINCT_STRENGTHS:  # the usual case, before the ABC's check
        return _class_table()[strength]
    if isinstance(strength, bool) or not isinstance(strength, Integral) or not 1 <= strength <= DISTINCT_STRENGTHS:
        raise ArgumentError(f"strength must be 1 to {DISTINCT_STRENGTHS}, not {strength!r}")
    floors, classes = _evaluator_floors()
    return classes[bisect_right(floors, int(strength)) - 1]


@cache
def _class_table() -> tuple[HandClass, ...]:
    """The evaluator's class of every strength, by strength (index 0 unused): a lookup a call."""
    floors, classes = _evaluator_floors()
    return (HandClass.HIGH_CARD, *(classes[bisect_right(floors, s) - 1] for s in range(1, DISTINCT_STRENGTHS + 1)))


def _plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name == "Six" else "s")


@dataclass(frozen=True, slots=True)
class HandValue:
    """The value of a hand: its strength, its class and its best five cards (ids, best first)."""

    strength: int
    hand_class: HandClass
    best_five: tuple[int, ...]

    def describe(self) -> str:
        """The hand in words, e.g. "Two pair, Kings and Fives" or "Straight, Five high"."""
        return _words(self.hand_class, tuple(c >> 2 for c in self.best_five))

    @property
    def text(self) -> str:
        """The best five cards as text."""
        return format_cards(self.best_five)

    def __str__(self) -> str:
        return f"{self.describe()} ({self.text}), strength {self.strength}"


@lru_cache(maxsize=8192)
def _words(hand_class: HandClass, held: tuple[int, ...]) -> str:
    """`HandValue.describe` from the class and the best five's ranks, remembered: a table
    describes two hands a showdown, of a few thousand by their ranks."""
    ranks = sorted(set(held), key=lambda r: (held.count(r), r), reverse=True)
    top = ranks[0]
    if hand_class in (HandClass.STRAIGHT, HandClass.STRAIGHT_FLUSH) and ranks == _WHEEL:
        top = 3  # the wheel is five-high
    match hand_class:
        case HandClass.ROYAL_FLUSH:
            return "Royal flush"
        case HandClass.STRAIGHT_FLUSH | HandClass.STRAIGHT | HandClass.FLUSH | HandClass.HIGH_CARD:
            return f"{hand_class.label}, {RANK_NAMES[top]} high"
        case HandClass.FULL_HOUSE:
            return f"Full house, {_plural(top)} full of {_plural(ranks[1])}"
        case HandClass.TWO_PAIR:
            return f"Two pair, {_plural(top)} and {_plural(ranks[1])}"
        case HandClass.ONE_PAIR:
            return f"Pair of {_plural(top)}"
        case _:
            return f"{hand_class.label}, {_plural(top)}"


_WHEEL = [12, 3, 2, 1, 0]  # A-5-4-3-2's ranks as `_words` orders them: by count, then rank


def _best_first(five: tuple[int, ...]) -> tuple[int, ...]:
    """The five ordered by how many of their rank, then rank, then suit (an id is 4 rank + suit)."""
    ranks = [c >> 2 for c in five]
    return tuple(sorted(five, key=lambda c: (ranks.count(c >> 2), c), reverse=True))


def evaluate(cards: CardsLike) -> HandValue:
    """The value of 5 to 7 cards, given as text ("As Kd Qh Jc Th") or ids."""
    return value_of_ids(parse_cards(cards, count=(5, 6, 7)))


def strength_of_ids(ids: Sequence[int]) -> int:
    """`value_of_ids(ids).strength` alone, where the best five and their words are not wanted
    (whether a dealer qualifies, a seat's first five)."""
    strength: int = _core.best_five(ids)[0]
    return strength


def value_of_ids(ids: Sequence[int]) -> HandValue:
    """`evaluate` of card ids as plain integers, unparsed: the table engine's own cards (a few
    per view and showdown). The core still refuses a bad id, a repeated card or a wrong count."""
    strength, five = _core.best_five(ids)
    return HandValue(strength, _CLASSES[_core.class_of(strength)], _best_first(tuple(five)))


def _as_card_array(cards: npt.ArrayLike) -> npt.NDArray[np.integer[Any]]:
    """The cards as a C-contiguous integer array in the machine's byte order, the dtype kept: the
    core reads every integer dtype in place and checks each id itself. Only an array that is not
    C-contiguous or not in native byte order is copied (once, in its own dtype)."""
    if isinstance(cards, np.ma.MaskedArray):  # np.asarray would drop the mask, evaluating masked cards
        raise ArgumentTypeError("cards: a masked array's mask would be ignored; pass the rows to evaluate")
    try:
        array = np.asarray(cards)
    except (ValueError, OverflowError) as err:  # ragged rows, ints past any dtype
        raise ArgumentError(f"cards must be a rectangular integer array of card ids: {err}") from None
    if array.dtype.kind not in "iu":
        raise ArgumentTypeError(f"cards must be an integer array of card ids, not dtype {array.dtype}")
    if array.ndim != 2 or array.shape[1] not in (5, 6, 7):
        raise ArgumentError(f"cards must have shape (n, 5), (n, 6) or (n, 7), not {array.shape}")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    return np.ascontiguousarray(array)


def evaluate_many(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of an (n, 5|6|7) array of card ids, computed on every core with the GIL released.

    Any integer dtype is read in place, with no converted copy; uint8, the fewest bytes to read,
    is the fastest. An array that is not C-contiguous (a transposed or strided view) or not in the
    machine's byte order is copied once first, in its own dtype.

    Raises InvalidCardsError naming the first row with an id outside 0..51 or a repeated card,
    TypeError for a non-integer array, and ValueError for a wrong shape."""
    return _core.evaluate_many(_as_card_array(cards))
