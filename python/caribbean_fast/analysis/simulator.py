"""Rounds simulated under a strategy table in hand: played in Rust from seeded streams, counted
by outcome category, and settled here with `settle`, like the exact analysis.

The rounds are cut into chunks of `CHUNK_ROUNDS`; chunk k of a run with seed s always draws the
same cards, so the counts depend only on the seed and the number of rounds: not on threads,
batches, or Dask workers. Runs go in batches of chunks, so a caller hears of the progress and
Ctrl-C stops cleanly, returning the rounds finished so far marked as partial.

This module needs no par sheet, only a table: the exact analysis simulates here what it cannot
count (game 4's keep-ace-king figure), and `simulation.simulate`, which takes a strategy by name,
gets the table from the analysis and runs it here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..bounds import MAX_ROUNDS, checked_count, checked_seed, checked_threads
from ..errors import ArgumentError
from ..hands import HandClass
from ..progress import ProgressCallback
from ..settlement import Settlement, settle
from ..variants import ExchangeCards, Family, HandThreshold, Variant
from .categories import MAX_EXCHANGES, MAX_SEATS, representative, sim_cells
from .exchange import ExchangePlan
from .seen import SeenArgs, seen_values
from .strategy import StrategyTable

__all__ = [
    "BATCH_CHUNKS",
    "CHUNK_ROUNDS",
    "EXCHANGES",
    "SIM_AXES",
    "RunFacts",
    "SeatFigures",
    "SimulationResult",
    "batches",
    "build_simulator",
    "check_arguments",
    "exchange_strategies",
    "first_cuts",
    "settle_counts",
    "simulate_table",
]

CHUNK_ROUNDS: int = _core.CHUNK_ROUNDS
SIM_AXES: tuple[str, ...] = tuple(_core.SIM_AXES)  # the axes of the counts a run returns
Z90, Z95 = 1.6448536269514722, 1.959963984540054
BATCH_CHUNKS = 192  # 12.6 M rounds: a thread idles at most one chunk of 192 at a batch's end


@dataclass(frozen=True)
class SeatFigures:
    """One seat's mean net per round in antes, with its standard error."""

    rounds: int
    mean: float
    stderr: float


@dataclass(frozen=True)
class SimulationResult:
    """A simulation's counts, settled: figures per ante per seat-round."""

    variant: Variant
    strategy: str
    seed: int
    seats: int
    rounds: int
    partial: bool
    seconds: float
    mean: float
    stderr: float
    hit_frequency: float
    push_frequency: float
    loss_frequency: float
    per_seat: tuple[SeatFigures, ...]
    side_bets: dict[str, float] = field(default_factory=dict)

    def __repr__(self) -> str:
        """Short: the variant by name (its whole rules would fill a screen)."""
        return (
            f"SimulationResult({self.variant.name!r}, strategy={self.strategy!r}, rounds={self.rounds:,}, "
            f"seats={self.seats}, mean={self.mean:+.6f}, stderr={self.stderr:.6f})"
        )

    progressive_at_reset: float | None = None
    exchanged: tuple[float, ...] = ()  # game 4: the share of seat-rounds with at least 1, 2, 3 exchanges

    @property
    def ci90(self) -> tuple[float, float]:
        return (self.mean - Z90 * self.stderr, self.mean + Z90 * self.stderr)

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - Z95 * self.stderr, self.mean + Z95 * self.stderr)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds * self.seats / self.seconds if self.seconds else float("nan")

    def z_score(self, expected: float) -> float:
        """How many standard errors the simulated mean lies from an expected value."""
        return (self.mean - expected) / self.stderr

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant.name,
            "strategy": self.strategy,
            "seed": self.seed,
            "seats": self.seats,
            "rounds": self.rounds,
            "partial": self.partial,
            "mean": self.mean,
            "stderr": self.stderr,
            "ci90": list(self.ci90),
            "ci95": list(self.ci95),
            "hit_frequency": self.hit_frequency,
            "push_frequency": self.push_frequency,
            "loss_frequency": self.loss_frequency,
            "rounds_per_second": self.rounds_per_second,
            "seconds": self.seconds,
            "per_seat": [vars(s) for s in self.per_seat],
            "side_bets": self.side_bets,
            "progressive_at_reset": self.progressive_at_reset,
            "exchanged": list(self.exchanged),
        }


def _class_cuts(v: Variant) -> list[int]:
    """The lowest strength of each HandClass under the variant (0 where it is no class of it)."""
    return [representative(c, v) if c in v.classes else 0 for c in HandClass]


def first_cuts(v: Variant) -> list[int]:
    """Strength cuts of the first five cards: every class floor and every side-bet tier."""
    cuts = {c for c in _class_cuts(v) if c} | {t.strength for b in v.side_bets for t, _ in b.tiers} | {1}
    return sorted(cuts)


EXCHANGES = {
    "table": "table",  # as the strategy table says: the best strategy's exchanges of all five
    "never": None,
    "all-five": "nothing",  # below Ace-King, exchange all five cards
    "keep-ace-king": "ace-king",  # below Ace-King, keep an ace and a king, exchange the rest (choose only)
    "sees-discards": "sees-discards",  # the table's first decision, then by the cards seen (`analysis.seen`)
}
"""Exchange strategies for game 4: "table" follows the strategy table (the best strategy's
exchanges; a named strategy never exchanges); "sees-discards" too at the first decision, then
decides by the cards it has seen; the others exchange while the hand is below Ace-King, up to
the variant's most per round, then raise or fold by the strategy table."""


def exchange_strategies(variant: Variant) -> tuple[str, ...]:
    """The exchange strategies a variant can be simulated with."""
    x = variant.exchanges
    if x is None:
        return ("table", "never")
    choose = ("keep-ace-king",) if x.cards is ExchangeCards.CHOOSE else ()
    return ("table", "never", "all-five", *choose, "sees-discards")


def _seen(variant: Variant, exchange: str, plan: ExchangePlan | None) -> SeenArgs | None:
    """The sees-discards seat's values, from the best strategy's exchange plan."""
    if exchange != "sees-discards":
        return None
    if plan is None:
        raise ArgumentError("exchange: sees-discards plays the best strategy (--strategy best), which has the plan")
    return seen_values(variant, plan)


def build_simulator(
    variant: Variant, table: StrategyTable, seats: int, exchange: str = "table", plan: ExchangePlan | None = None
) -> _core.Simulator:
    """The simulator of `table`; `plan`, the best strategy's exchange plan, for sees-discards."""
    first, classes = first_cuts(variant), _class_cuts(variant)
    q = variant.qualifier.strength
    if variant.family is Family.STUD:
        up_rank, hands = table.stud_columns()
        keep, x = EXCHANGES[exchange], variant.exchanges
        seen = _seen(variant, exchange, plan)
        from_table = keep in ("table", "sees-discards") and table.exchange_from is not None
        rule = (keep, HandThreshold("ace-king").strength, x.most_per_round) if x and keep else None
        return _core.Simulator.stud(
            seats,
            q,
            first,
            classes,
            up_rank=up_rank,
            hands=hands,
            raises=table.raises,
            exchange=rule if keep != "table" or from_table else None,
            exchange_from=table.exchange_from if from_table else None,
            seen=seen,
        )
    return _core.Simulator.holdem(q, first, classes, cards=table.rows, calls=table.raises)


@dataclass(frozen=True)
class _Settled:
    """The nonzero cells of a run, summed over seats, each with its settlement."""

    counts: npt.NDArray[np.uint64]  # by `_core.SIM_AXES`
    totals: npt.NDArray[np.uint64]  # the same, summed over seats
    cells: dict[tuple[int, int, int, int], Settlement]


def _settled_cells(v: Variant, counts: npt.NDArray[np.uint64], first: Sequence[int]) -> _Settled:
    """Settles each cell that some round fell into, through `categories.sim_cells`."""
    totals = counts.sum(axis=0)
    cells = {cell.index: settle(v, cell.outcome) for cell in sim_cells(counts.shape, first) if totals[cell.index]}
    return _Settled(counts, totals, cells)


@dataclass
class _Moments:
    """Running sums of a seat's rounds: how many, the sum of nets and of squared nets, in antes."""

    n: int = 0
    s1: float = 0.0
    s2: float = 0.0
    won: int = 0
    pushed: int = 0

    def figures(self) -> SeatFigures:
        if not self.n:
            return SeatFigures(0, float("nan"), float("nan"))
        mean = self.s1 / self.n
        return SeatFigures(self.n, mean, math.sqrt((self.s2 / self.n - mean * mean) / self.n))


def _seat_moments(settled: _Settled, seat: int) -> _Moments:
    m = _Moments()
    for index, s in settled.cells.items():
        k = int(settled.counts[(seat, *index)])
        net = float(s.main)
        m.n, m.s1, m.s2 = m.n + k, m.s1 + k * net, m.s2 + k * net * net
        m.won += k if s.main > 0 else 0
        m.pushed += k if s.main == 0 else 0
    return m


def _side_returns(v: Variant, settled: _Settled, n: int) -> dict[str, float]:
    """Each side bet's mean net per unit staked, per seat-round."""
    return {
        b.name: sum(int(settled.totals[k]) * float(s.side_bets[b.name]) for k, s in settled.cells.items()) / max(n, 1)
        for b in v.side_bets
    }


def _exchanged(v: Variant, settled: _Settled, n: int) -> tuple[float, ...]:
    """Game 4: the share of seat-rounds with at least 1, 2, ... exchanges, up to the variant's
    most (none without exchanges)."""
    if not v.exchanges:
        return ()
    by_exchanges = settled.totals.sum(axis=(0, 1, 3)).astype(float)
    return tuple(float(by_exchanges[e:].sum()) / max(n, 1) for e in range(1, v.exchanges.most_per_round + 1))


def _progressive_at_reset(v: Variant, settled: _Settled, n: int) -> float | None:
    """The progressive's mean net per stake with the meter at its reset value."""
    p = v.progressive
    if p is None:
        return None
    return sum(
        int(settled.totals[k]) * float(s.progressive.stakes + s.progressive.meter_share * p.reset / p.stake)
        for k, s in settled.cells.items()
        if s.progressive
    ) / max(n, 1)


@dataclass(frozen=True)
class RunFacts:
    """What a run was asked, and what it took."""

    strategy: str
    seed: int
    seats: int
    partial: bool
    seconds: float


def settle_counts(v: Variant, counts: npt.NDArray[np.uint64], run: RunFacts) -> SimulationResult:
    """A run's counts (by `SIM_AXES`), settled into its figures."""
    settled = _settled_cells(v, counts, first_cuts(v))
    seats = [_seat_moments(settled, seat) for seat in range(run.seats)]
    total = _Moments(
        sum(m.n for m in seats),
        sum(m.s1 for m in seats),
        sum(m.s2 for m in seats),
        sum(m.won for m in seats),
        sum(m.pushed for m in seats),
    )
    n, figures = total.n, total.figures()
    return SimulationResult(
        v,
        run.strategy,
        run.seed,
        run.seats,
        n // run.seats if run.seats else 0,
        run.partial,
        run.seconds,
        figures.mean,
        figures.stderr,
        total.won / max(n, 1),
        total.pushed / max(n, 1),
        (n - total.won - total.pushed) / max(n, 1),
        tuple(m.figures() for m in seats),
        _side_returns(v, settled, n),
        _progressive_at_reset(v, settled, n),
        _exchanged(v, settled, n),
    )


def check_arguments(variant: Variant, rounds: int, seats: int, exchange: str) -> None:
    """Refuses, before any work, what the simulator cannot play as written."""
    checked_count("rounds", rounds, MAX_ROUNDS)
    most = variant.seats if variant.family is Family.STUD else 1
    if isinstance(seats, bool) or not isinstance(seats, int):  # True is no seat count
        raise ArgumentError(f"seats: a whole number of seats, not {type(seats).__name__} {seats!r}")
    if not 1 <= seats <= most:
        raise ArgumentError(f"seats: {variant.name} seats 1 to {most}, not {seats}")
    if seats > MAX_SEATS:
        raise ArgumentError(f"seats: the simulator deals at most {MAX_SEATS} seats, not {seats}")
    if exchange not in exchange_strategies(variant):
        raise ArgumentError(
            f"exchange: {exchange!r} is not an exchange strategy of {variant.name} "
            f"({', '.join(exchange_strategies(variant))})"
        )
    if variant.exchanges and variant.exchanges.most_per_round > MAX_EXCHANGES:
        raise ArgumentError(
            f"exchanges.most_per_round: the simulator makes at most {MAX_EXCHANGES} exchanges a round, "
            f"not {variant.exchanges.most_per_round}"
        )


def batches(rounds: int) -> Iterator[tuple[int, int]]:
    """The run's chunks, `BATCH_CHUNKS` at a time, made as they are needed: a long run holds one
    batch, never the list of them all."""
    chunks = math.ceil(rounds / CHUNK_ROUNDS)
    return ((start, min(start + BATCH_CHUNKS, chunks)) for start in range(0, chunks, BATCH_CHUNKS))


def _run_local(
    sim: _core.Simulator, seed: int, rounds: int, threads: int | None, progress: ProgressCallback | None
) -> tuple[npt.NDArray[np.uint64], bool]:
    """Runs the batches here, telling `progress` the rounds done after each; Ctrl-C keeps the
    batches finished (partial)."""
    counts = np.zeros(sim.shape, dtype=np.uint64)
    try:
        if progress is not None:
            progress(0, rounds)
        for a, b in batches(rounds):
            counts += sim.run(seed, a, b, rounds, threads)
            if progress is not None:
                progress(min(b * CHUNK_ROUNDS, rounds), rounds)
    except KeyboardInterrupt:
        return counts, True
    return counts, False


def simulate_table(
    variant: Variant,
    table: StrategyTable,
    rounds: int,
    *,
    seed: int = 0,
    seats: int = 1,
    threads: int | None = None,
    exchange: str = "table",
    strategy: str = "table",
    progress: ProgressCallback | None = None,
    plan: ExchangePlan | None = None,
) -> SimulationResult:
    """Simulates `rounds` rounds (each with `seats` seats sharing one deck) played by `table`, and
    settles them; `strategy` is the name the result carries. `progress`, if given, is called with
    (rounds done, rounds) before the first batch and after each one. `plan`: the best strategy's
    exchange plan, which sees-discards needs."""
    check_arguments(variant, rounds, seats, exchange)
    seed, threads = checked_seed(seed), checked_threads(threads)
    sim = build_simulator(variant, table, seats, exchange, plan)
    start = time.perf_counter()
    counts, partial = _run_local(sim, seed, rounds, threads, progress)
    return settle_counts(variant, counts, RunFacts(strategy, seed, seats, partial, time.perf_counter() - start))
