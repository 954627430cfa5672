"""Game 4 played by a seat that sees its discards (`--exchange sees-discards`): what the simulator
is given for it, and the paired run's figures against the best strategy's table.

The best strategy's exchanges value a fresh hand as if dealt at the start (`analysis.exchange`,
the approximation). A seat that remembers its discards can do better after an exchange: the Rust
simulator (`rust/sim/seen.rs`) counts, at each decision after the first, the exact value of
calling over the dealer's hidden cards drawn from the cards the seat has not seen, calls when it
beats folding, and exchanges when the approximation's value of an exchange beats keeping. Its
first decision sees no discard and is the table's. A paired run plays the same deals both ways,
so the standard error of the difference is that of the rounds where the two part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..errors import ImpossibleOutcomeError
from ..hands import HandClass
from ..settlement import Decision, Outcome, settle
from ..variants import Variant
from .categories import sim_cells
from .exchange import UP_RANKS, ExchangePlan

__all__ = ["PairedResult", "SeenArgs", "main_nets", "seen_values", "settle_paired"]

Z95 = 1.959963984540054

SeenArgs = tuple[list[list[float]], list[list[float]], float]
"""The simulator's `seen`: exchange values by exchanges left (less one) and up rank, raised
nets by class and outcome column with no exchange made, the fold net; in antes."""


def main_nets(variant: Variant, exchange_columns: int) -> list[Fraction]:
    """The main game's net in antes of each main cell (class, exchanges made, outcome), in the
    simulator's row-major order; 0 where no round can fall."""
    shape = (1, 1, len(HandClass), exchange_columns, len(_core.SIM_OUTCOMES))
    nets = []
    for cell in sim_cells(shape, [1]):
        try:
            nets.append(settle(variant, cell.outcome).main)
        except ImpossibleOutcomeError:
            nets.append(Fraction(0))
    return nets


def seen_values(variant: Variant, plan: ExchangePlan) -> SeenArgs:
    """What the seat that sees its discards weighs beside its own counts: the approximation's
    value of an exchange, and the nets of raising (by class and outcome) and of folding."""
    exchange = [[float(plan.exchange_value(left, u)) for u in range(UP_RANKS)] for left in range(1, plan.most + 1)]
    outcomes = len(_core.SIM_OUTCOMES)
    flat = main_nets(variant, 1)
    raised = [[float(v) for v in flat[c * outcomes : (c + 1) * outcomes]] for c in range(len(HandClass))]
    fold = float(settle(variant, Outcome(Decision.FOLD)).main)
    return exchange, raised, fold


@dataclass(frozen=True)
class PairedResult:
    """The same deals played by the best strategy's table (`a`) and by the seat that sees its
    discards (`b`): each one's mean net per ante, and the difference b - a with its standard
    error (from the rounds' paired differences)."""

    rounds: int
    seed: int
    seconds: float
    mean_a: float
    mean_b: float
    difference: float
    stderr: float
    parted: float  # the share of rounds the two ended differently

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.difference - Z95 * self.stderr, self.difference + Z95 * self.stderr)

    def to_dict(self) -> dict[str, Any]:
        return {**vars(self), "ci95": list(self.ci95)}


def settle_paired(
    variant: Variant, joint: npt.NDArray[np.uint64], exchange_columns: int, seed: int, seconds: float
) -> PairedResult:
    """A paired run's joint counts (a's main cell by row, b's by column), settled exactly: the
    sums of nets and of squared differences are taken in integers over the nets' common
    denominator."""
    nets = main_nets(variant, exchange_columns)
    scale = lcm(*(v.denominator for v in nets))
    scaled = [int(v * scale) for v in nets]
    n = s_a = s_b = s_d2 = parted = 0
    for i, j in zip(*np.nonzero(joint), strict=True):
        k, a, b = int(joint[i, j]), scaled[i], scaled[j]
        n, s_a, s_b, s_d2 = n + k, s_a + k * a, s_b + k * b, s_d2 + k * (b - a) ** 2
        parted += k if i != j else 0
    d = Fraction(s_b - s_a, n * scale)
    variance = Fraction(s_d2, n * scale * scale) - d * d
    return PairedResult(
        n,
        seed,
        seconds,
        s_a / (n * scale),
        s_b / (n * scale),
        float(d),
        math.sqrt(variance / n),
        parted / n,
    )
