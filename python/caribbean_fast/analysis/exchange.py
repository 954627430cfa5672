"""Game 4's exchanges in the exact analysis: the best of fold, call and exchange at each of up to
`most_per_round` decisions.

An exchange gives up all five cards for five from the undealt cards. Given what the seat has
seen (the up card and its discarded cards), the new five and the dealer's four hidden cards are a
uniformly random disjoint pair from the unseen cards. The analysis ignores which cards were
discarded (the approximation): the new hand and the dealer's hidden cards are taken as dealt at
the start of the round against the same up card. Then a fresh hand with k exchanges left is
worth W_k(u) against up card u, whatever hand it replaced, and

    W_0(u) = mean over hands of max(fold, call)
    W_k(u) = mean over hands of max(fold, call, -fee + W_(k-1)(u))

with each mean taken exactly (Fractions) over the enumeration's (hand, up card) rows. Exchanging
pays where -fee + W_(k-1)(u) beats both folding and calling: the fresh hand must be worth more
than the fee, which happens against low up cards. The true return of this strategy, with the
discarded cards really out of play, is measured by simulation (docs/games/caribbean-poker.md)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..settlement import Outcome
from .situations import STUD_DEALER_HANDS

__all__ = ["APPROXIMATION", "ExchangePlan", "exchange_count_table", "exchange_plan"]

UP_RANKS = 13

CountTableOf = Callable[[npt.NDArray[np.bool_], npt.NDArray[np.intp]], list[tuple[Outcome, int]]]
"""The stud count table of the rows numbered, by each row's raise (call) or fold decision."""

APPROXIMATION = (
    "Exchanges are valued ignoring which cards were discarded: a new hand and the dealer's hidden "
    "cards are taken as dealt at the start of the round against the same up card. The return is "
    "exact under that approximation; the strategy's true return, with discarded cards out of "
    "play, is measured by simulation (`simulate`)."
)


@dataclass(frozen=True)
class ExchangePlan:
    """The best exchanges of a variant, by up card rank (0 = deuce .. 12 = ace).

    `fresh[k][u]`: the value in antes of a fresh hand with k exchanges left against up card u;
    `rates[k][u]`: the share of fresh hands exchanged with k exchanges left (0 for k = 0);
    `exchange_from[row]`: the fewest exchanges left with which the row's hand is exchanged
    (0: never), for the enumeration's rows in their order."""

    most: int
    fee: Fraction
    fresh: tuple[tuple[Fraction, ...], ...]
    rates: tuple[tuple[Fraction, ...], ...]
    exchange_from: npt.NDArray[np.uint8]
    never: Fraction  # the best return without exchanges

    def exchange_value(self, left: int, up_rank: int) -> Fraction:
        """What exchanging is worth, in antes, with `left` exchanges left: the fee lost plus a
        fresh hand with one exchange fewer."""
        return -self.fee + self.fresh[left - 1][up_rank]

    @property
    def value(self) -> Fraction:
        """The best strategy's expected return per round, in antes (every up rank equally likely)."""
        return sum(self.fresh[self.most], Fraction(0)) / UP_RANKS

    @property
    def cost_of_never_exchanging(self) -> Fraction:
        return self.value - self.never

    def rate_at(self, decision: int, up_rank: int | None = None) -> Fraction:
        """The share of rounds that exchange at decision `decision` (1 = on the first cards),
        against one up rank or over all of them."""
        ups = range(UP_RANKS) if up_rank is None else (up_rank,)
        total = Fraction(0)
        for u in ups:
            p = Fraction(1)
            for left in range(self.most, self.most - decision, -1):
                p *= self.rates[left][u]
            total += p
        return total / len(ups)


def exchange_plan(
    raise_value: npt.NDArray[np.int64],
    fold_value: int,
    up_rank: npt.NDArray[np.uint8],
    weight: npt.NDArray[np.int64],
    scale: int,
    fee: Fraction,
    most: int,
) -> ExchangePlan:
    """The plan from the enumeration's rows: each row's scaled value of calling (`raise_value`,
    over every hidden dealer hand, times `scale`), the scaled fold value, up rank and weight."""
    per_row = scale * STUD_DEALER_HANDS
    best = np.maximum(raise_value, fold_value)
    exchange_from = np.zeros(len(best), dtype=np.uint8)
    fresh: list[list[Fraction]] = [[] for _ in range(most + 1)]
    rates: list[list[Fraction]] = [[] for _ in range(most + 1)]
    for u in range(UP_RANKS):
        rows = np.flatnonzero(up_rank == u)
        w, b = weight[rows], best[rows]
        n = int(w.sum())
        value = Fraction(int((w * b).sum()), per_row * n)
        fresh[0].append(value)
        rates[0].append(Fraction(0))
        for left in range(1, most + 1):
            scaled = (value - fee) * per_row  # exchanging, in the rows' units
            swaps = b < math.ceil(scaled)  # exchanging beats both folding and calling
            kept = int((w[~swaps] * b[~swaps]).sum())
            swapped = int(w[swaps].sum())
            value = (kept + swapped * scaled) / (per_row * n)
            fresh[left].append(value)
            rates[left].append(Fraction(swapped, n))
            first = rows[swaps & (exchange_from[rows] == 0)]
            exchange_from[first] = left
    never = sum(fresh[0], Fraction(0)) / UP_RANKS
    return ExchangePlan(most, fee, tuple(map(tuple, fresh)), tuple(map(tuple, rates)), exchange_from, never)


def exchange_count_table(
    raises: npt.NDArray[np.bool_],
    up_rank: npt.NDArray[np.uint8],
    weight: npt.NDArray[np.int64],
    plan: ExchangePlan,
    count_table: CountTableOf,
) -> list[tuple[Outcome, int]]:
    """The best strategy's count table with exchanges: a round that made e exchanges ends on a
    fresh hand with `most - e` left that is not exchanged. Every path is counted over the common
    denominator N^(most+1) * 163,185 per up rank (N hands against each up rank)."""
    totals: Counter[Outcome] = Counter()
    for u in range(UP_RANKS):
        at = np.flatnonzero(up_rank == u)
        n, first = int(weight[at].sum()), plan.exchange_from[at]
        reach = 1  # the numerators of the chances of having exchanged so far
        for left in range(plan.most, -1, -1):
            stays = (first == 0) | (first > left)
            made = plan.most - left
            for outcome, count in count_table(raises, at[stays]):
                totals[replace(outcome, exchanges=made)] += count * reach * n**left
            reach *= int(weight[at[~stays]].sum())
    return list(totals.items())
