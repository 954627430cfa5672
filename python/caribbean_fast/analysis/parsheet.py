"""The par sheet: a count table of outcome categories settled with `settle` into the figures a
casino's math report carries. Family-specific code only builds the count tables."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..settlement import Decision, Outcome, settle
from ..variants import Variant
from .exchange import ExchangePlan
from .strategy import StrategyTable

TIES = ("raise", "fold")
"""What the best strategy does where raising (calling) is worth exactly what folding is: the
package raises by default; an independent count that folds there finds the same expected value,
but another raise rate, average wager, return per unit wagered and element of risk."""


def best_decisions(value: npt.NDArray[np.int64], fold: npt.NDArray[np.int64] | int, ties: str) -> npt.NDArray[np.bool_]:
    """Where the best strategy raises (calls): where that is worth more than folding, and where
    it is worth the same if `ties` is "raise"."""
    return np.asarray(value >= fold if ties == "raise" else value > fold, dtype=np.bool_)


@dataclass(frozen=True)
class Event:
    """One row of the return table: a category, what it nets, how many deals end in it."""

    label: str
    net: Fraction
    combinations: int
    probability: Fraction
    contribution: Fraction


@dataclass(frozen=True)
class SideBetReturn:
    """A side bet's expected net per unit staked, by how the main game is played."""

    name: str
    returns: Mapping[str, Fraction]

    def rtp(self, way: str) -> Fraction:
        return 1 + self.returns[way]


@dataclass(frozen=True)
class ProgressiveReturn:
    """The progressive's expected net per stake as `fixed + per_meter * meter` (meter in minor
    units); it breaks even at `break_even_meter`."""

    fixed: Fraction
    per_meter: Fraction
    reset: int
    stake: int

    def expected(self, meter: int) -> Fraction:
        return self.fixed + self.per_meter * meter

    @property
    def break_even_meter(self) -> int | None:
        if self.per_meter <= 0:
            return None
        return math.ceil(-self.fixed / self.per_meter)


@dataclass(frozen=True)
class BeatenBy:
    """A strategy that gives the player the edge, with its simulated return per round (antes)."""

    strategy: str
    description: str
    mean: float
    stderr: float
    rounds: int
    seed: int

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - 1.96 * self.stderr, self.mean + 1.96 * self.stderr)


@dataclass(frozen=True)
class ParSheet:
    """The exact mathematics of a variant under a strategy."""

    variant: Variant
    strategy: str
    total_deals: int
    expected_return: Fraction
    average_wager: Fraction
    p_raise: Fraction
    variance: Fraction
    hit_frequency: Fraction
    push_frequency: Fraction
    loss_frequency: Fraction
    events: tuple[Event, ...]
    table: StrategyTable
    side_bets: tuple[SideBetReturn, ...] = ()
    progressive: ProgressiveReturn | None = None
    cost_against_best: Fraction | None = None
    seconds: float = 0.0  # the enumeration's, when it ran (in the process that filled the cache)
    notes: tuple[str, ...] = field(default_factory=tuple)
    exchanges: ExchangePlan | None = None  # game 4's best exchanges, under the best strategy
    beaten_by: BeatenBy | None = None  # a strategy the analysis found that beats the house
    ties: str = "raise"  # see TIES

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per ante."""
        return -self.expected_return

    @property
    def rtp(self) -> Fraction:
        """Return to player per unit wagered (ante, raise)."""
        return (self.average_wager + self.expected_return) / self.average_wager

    @property
    def element_of_risk(self) -> Fraction:
        """The house's expected win per unit wagered."""
        return -self.expected_return / self.average_wager

    @property
    def std_dev(self) -> float:
        """Standard deviation of one round's net, in antes."""
        return math.sqrt(self.variance)

    @property
    def player_edge(self) -> bool:
        """Whether the variant returns more than 100% under this strategy, or under a strategy
        the analysis found (`beaten_by`)."""
        return self.expected_return > 0 or self.beaten_by is not None


def _label(o: Outcome, bet: str) -> str:
    """An outcome in words, its second bet named as the game names it (`bet`: "raise", "call")."""
    after = f"{o.exchanges} exchange{'s' if o.exchanges > 1 else ''}, " if o.exchanges else ""
    if o.decision is Decision.FOLD:
        return f"{after}fold"
    if not o.dealer_qualifies:
        return f"{after}{bet}, {o.hand_class.label}, dealer does not qualify"
    return f"{after}{bet}, {o.hand_class.label}, {o.showdown}"


@dataclass(frozen=True)
class MainGame:
    """The main game's moments, settled from a count table of (outcome, deals)."""

    expected_return: Fraction
    average_wager: Fraction
    p_raise: Fraction
    variance: Fraction
    frequencies: tuple[Fraction, Fraction, Fraction]
    events: tuple[Event, ...]


def settle_count_table(variant: Variant, table: Sequence[tuple[Outcome, int]]) -> MainGame:
    """Settles every category once; every figure of the main game follows from the sums."""
    total, bet = sum(n for _, n in table), variant.bet_words.bet
    rows = [(o, n, settle(variant, o).main) for o, n in table if n]
    mean = Fraction(sum(n * net for _, n, net in rows), total)
    square = Fraction(sum(n * net * net for _, n, net in rows), total)
    raised = Fraction(sum(n for o, n, _ in rows if o.decision is Decision.RAISE), total)
    fees = Fraction(sum(n * o.exchanges for o, n, _ in rows), total) * (
        variant.exchanges.fee_antes if variant.exchanges else 0
    )
    won = Fraction(sum(n for _, n, net in rows if net > 0), total)
    pushed = Fraction(sum(n for _, n, net in rows if net == 0), total)
    events = tuple(
        sorted(
            (Event(_label(o, bet), net, n, Fraction(n, total), Fraction(n, total) * net) for o, n, net in rows),
            key=lambda e: (-e.net, e.label),
        )
    )
    return MainGame(
        mean,
        1 + variant.raise_multiple * raised + fees,
        raised,
        square - mean * mean,
        (won, pushed, 1 - won - pushed),
        events,
    )


def assemble(
    variant: Variant,
    strategy: str,
    main: MainGame,
    best: MainGame,
    table: StrategyTable,
    *,
    side_bets: tuple[SideBetReturn, ...] = (),
    progressive: ProgressiveReturn | None = None,
    seconds: float = 0.0,
    notes: tuple[str, ...] = (),
    exchanges: ExchangePlan | None = None,
    beaten_by: BeatenBy | None = None,
    ties: str = "raise",
) -> ParSheet:
    """The par sheet of a strategy's main game, with its cost against the best strategy's."""
    return ParSheet(
        variant=variant,
        strategy=strategy,
        total_deals=sum(e.combinations for e in main.events),
        expected_return=main.expected_return,
        average_wager=main.average_wager,
        p_raise=main.p_raise,
        variance=main.variance,
        hit_frequency=main.frequencies[0],
        push_frequency=main.frequencies[1],
        loss_frequency=main.frequencies[2],
        events=main.events,
        table=table,
        side_bets=side_bets,
        progressive=progressive,
        cost_against_best=None if strategy == "best" else best.expected_return - main.expected_return,
        seconds=seconds,
        notes=notes,
        exchanges=exchanges,
        beaten_by=beaten_by,
        ties=ties,
    )
