"""Outcome categories of the count tables, and their payouts compiled from `settle`.

A count table's cell is a category: a decision, the seat's final class and a showdown outcome
(the column order of the Rust counts: dealer does not qualify, seat higher, equal, dealer
higher). `settle` gives each category's net; the enumerations need those nets as integers over
one common denominator, so that a seat's best decision is an exact integer comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import lcm

import numpy as np
import numpy.typing as npt

from ..errors import ImpossibleOutcomeError
from ..hands import DISTINCT_STRENGTHS, HandClass
from ..settlement import Decision, Outcome, Showdown, settle
from ..variants import Variant

SHOWDOWNS = (Showdown.PUSH, Showdown.WIN, Showdown.PUSH, Showdown.LOSE)
HOLDEM_SLOTS = tuple(c for c in HandClass if c is not HandClass.ACE_KING)  # Rust's class slots


def raise_outcome(hand_class: HandClass, column: int) -> Outcome:
    """The category of a raised (called) hand in count column `column`."""
    return Outcome(Decision.RAISE, hand_class, dealer_qualifies=column != 0, showdown=SHOWDOWNS[column])


def raise_nets(variant: Variant, classes: tuple[HandClass, ...]) -> list[list[Fraction | None]]:
    """Main-game net in antes of raising, by class and count column; None where it cannot happen
    (a class below the qualifier beating a qualifying dealer)."""
    table: list[list[Fraction | None]] = []
    for c in classes:
        row: list[Fraction | None] = []
        for column in range(4):
            try:
                row.append(settle(variant, raise_outcome(c, column)).main)
            except ImpossibleOutcomeError:
                row.append(None)
        table.append(row)
    return table


@dataclass(frozen=True)
class ScaledNets:
    """Nets as integers: `raise_[class index, column]` and `fold` are the nets times `scale`."""

    raise_: npt.NDArray[np.int64]
    fold: int
    scale: int


def scaled_nets(variant: Variant, classes: tuple[HandClass, ...]) -> ScaledNets:
    nets = raise_nets(variant, classes)
    fold = settle(variant, Outcome(Decision.FOLD)).main
    values = [v for row in nets for v in row if v is not None] + [fold]
    scale = lcm(*(v.denominator for v in values))
    table = np.array([[int(v * scale) if v is not None else 0 for v in row] for row in nets], dtype=np.int64)
    return ScaledNets(table, int(fold * scale), scale)


@cache
def _class_lookup(variant: Variant) -> npt.NDArray[np.int64]:
    """`variant.classify` of every strength (index 0 unused), once per variant."""
    return np.array([0] + [int(variant.classify(s)) for s in range(1, DISTINCT_STRENGTHS + 1)], dtype=np.int64)


def classify_many(variant: Variant, strengths: npt.NDArray[np.uint16]) -> npt.NDArray[np.int64]:
    """`variant.classify` over an array of strengths (HandClass values)."""
    return _class_lookup(variant)[strengths]


def representative(hand_class: HandClass, variant: Variant) -> int:
    """A strength of this class under the variant (its lowest), to settle bets that read the
    first five."""
    return variant.floor(hand_class)


__all__ = [
    "HOLDEM_SLOTS",
    "ScaledNets",
    "classify_many",
    "raise_nets",
    "raise_outcome",
    "representative",
    "scaled_nets",
]
