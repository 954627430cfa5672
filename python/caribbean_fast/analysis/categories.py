"""The cells of the count tables as settlement outcomes, and their payouts compiled from `settle`.

Rust owns the layout of every count table it fills (`rust/layout.rs`) and exports it through
`_core`: the showdown columns of the exact counts, the axes and outcome columns of simulated
counts, hold'em's class slots, the simulator's limits. This module is the one place in Python
that reads them: it gives each column name its meaning as an `Outcome`, so the exact analysis,
the simulation, its sessions and the meter all settle their cells through the functions here.

The enumerations need nets as integers over one common denominator, so that a seat's best
decision is an exact integer comparison (`scaled_nets`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import lcm

import numpy as np
import numpy.typing as npt

from .. import _core
from ..errors import ImpossibleOutcomeError
from ..hands import HandClass
from ..settlement import Decision, Outcome, Showdown, settle
from ..variants import Variant

__all__ = [
    "HOLDEM_SLOTS",
    "MAX_EXCHANGES",
    "MAX_SEATS",
    "SHOWDOWN_COLUMNS",
    "STRENGTHS",
    "ScaledNets",
    "SimCell",
    "classify_many",
    "first_five_outcome",
    "raise_nets",
    "raise_outcome",
    "representative",
    "scaled_nets",
    "sim_cells",
]

# What each column name of `_core` means: (decision, dealer qualifies, showdown).
_MEANING = {
    "folded": (Decision.FOLD, True, Showdown.PUSH),
    "dealer_not_qualifying": (Decision.RAISE, False, Showdown.PUSH),
    "seat_higher": (Decision.RAISE, True, Showdown.WIN),
    "equal": (Decision.RAISE, True, Showdown.PUSH),
    "dealer_higher": (Decision.RAISE, True, Showdown.LOSE),
}
_unknown = {*_core.SHOWDOWNS, *_core.SIM_OUTCOMES} - _MEANING.keys()
if _unknown or tuple(_core.SIM_AXES) != ("seat", "first", "class", "exchanges", "outcome"):
    raise ImportError(f"the Rust core's count layout is not the one this package reads: {sorted(_unknown)}")

SHOWDOWN_COLUMNS = len(_core.SHOWDOWNS)
"""Columns of the exact counts of a raised hand, in `_core.SHOWDOWNS` order."""
HOLDEM_SLOTS = tuple(HandClass(c) for c in _core.HOLDEM_CLASS_SLOTS)
"""The class slots of hold'em's exact counts."""
STRENGTHS = range(1, _core.DISTINCT_STRENGTHS + 1)
"""Every strength a hand can have."""
MAX_SEATS: int = _core.MAX_SEATS
MAX_EXCHANGES: int = _core.MAX_EXCHANGES


def raise_outcome(hand_class: HandClass, column: int) -> Outcome:
    """The category of a raised (called) hand in column `column` of the exact counts."""
    decision, qualifies, showdown = _MEANING[_core.SHOWDOWNS[column]]
    return Outcome(decision, hand_class, qualifies, showdown)


@dataclass(frozen=True)
class SimCell:
    """A cell of one seat's simulated counts: its index (first bucket, class, exchanges, outcome)
    and the outcome it counts."""

    index: tuple[int, int, int, int]
    outcome: Outcome


def sim_cells(shape: Sequence[int], first_cuts: Sequence[int]) -> Iterator[SimCell]:
    """Every cell of one seat's simulated counts, in row-major order. `shape` is the simulator's
    (by `_core.SIM_AXES`) and `first_cuts` the cuts of its first axis (a strength of each
    bucket); the class axis is numbered as `HandClass`."""
    _, firsts, classes, exchanges, outcomes = shape
    for f, c, e, col in product(range(firsts), range(classes), range(exchanges), range(outcomes)):
        decision, qualifies, showdown = _MEANING[_core.SIM_OUTCOMES[col]]
        yield SimCell((f, c, e, col), Outcome(decision, HandClass(c), qualifies, showdown, e, first_cuts[f]))


def first_five_outcome(variant: Variant, hand_class: HandClass, decision: Decision = Decision.RAISE) -> Outcome:
    """An outcome whose first five cards are of `hand_class`: what the progressive settles on."""
    return Outcome(decision, hand_class, first_five=representative(hand_class, variant))


def raise_nets(variant: Variant, classes: tuple[HandClass, ...]) -> list[list[Fraction | None]]:
    """Main-game net in antes of raising, by class and count column; None where it cannot happen
    (a class below the qualifier beating a qualifying dealer)."""
    table: list[list[Fraction | None]] = []
    for c in classes:
        row: list[Fraction | None] = []
        for column in range(SHOWDOWN_COLUMNS):
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
    return np.array([0] + [int(variant.classify(s)) for s in STRENGTHS], dtype=np.int64)


def classify_many(variant: Variant, strengths: npt.NDArray[np.uint16]) -> npt.NDArray[np.int64]:
    """`variant.classify` over an array of strengths (HandClass values)."""
    return _class_lookup(variant)[strengths]


def representative(hand_class: HandClass, variant: Variant) -> int:
    """A strength of this class under the variant (its lowest), to settle bets that read the
    first five."""
    return variant.floor(hand_class)
