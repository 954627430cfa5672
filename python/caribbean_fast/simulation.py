"""Bulk simulation: rounds played in Rust from seeded streams, counted by outcome category, and
settled here with `settle`, like the exact analysis.

The rounds are cut into chunks of `CHUNK_ROUNDS`; chunk k of a run with seed s always draws the
same cards, so the counts depend only on the seed and the number of rounds: not on threads,
batches, or Dask workers. Runs go in batches of chunks, so a progress bar moves and Ctrl-C stops
cleanly, returning the rounds finished so far marked as partial.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from rich.progress import Progress

from . import _core
from .analysis import analyze
from .analysis.categories import MAX_EXCHANGES, MAX_SEATS, representative, sim_cells
from .analysis.strategy import StrategyTable
from .bounds import (
    MAX_BANKROLL,
    MAX_ROUNDS,
    checked_count,
    checked_number,
    checked_seed,
    checked_sessions,
    checked_threads,
)
from .errors import ArgumentError, ImpossibleOutcomeError
from .hands import HandClass
from .settlement import Settlement, settle
from .variants import ExchangeCards, Family, HandThreshold, Variant, as_variant

__all__ = [
    "CHUNK_ROUNDS",
    "EXCHANGES",
    "SIM_AXES",
    "SeatFigures",
    "SessionResult",
    "SimulationResult",
    "exchange_strategies",
    "simulate",
    "simulate_sessions",
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


def _first_cuts(v: Variant) -> list[int]:
    """Strength cuts of the first five cards: every class floor and every side-bet tier."""
    cuts = {c for c in _class_cuts(v) if c} | {t.strength for b in v.side_bets for t, _ in b.tiers} | {1}
    return sorted(cuts)


EXCHANGES = {
    "table": "table",  # as the strategy table says: the best strategy's exchanges of all five
    "never": None,
    "all-five": "nothing",  # below Ace-King, exchange all five cards
    "keep-ace-king": "ace-king",  # below Ace-King, keep an ace and a king, exchange the rest (choose only)
}
"""Exchange strategies for game 4: "table" follows the strategy table (the best strategy's
exchanges; a named strategy never exchanges); the others exchange while the hand is below
Ace-King, up to the variant's most per round, then raise or fold by the strategy table."""


def exchange_strategies(variant: Variant) -> tuple[str, ...]:
    """The exchange strategies a variant can be simulated with."""
    x = variant.exchanges
    if x is None:
        return ("table", "never")
    return ("table", "never", "all-five") + (("keep-ace-king",) if x.cards is ExchangeCards.CHOOSE else ())


def _simulator(variant: Variant, table: StrategyTable, seats: int, exchange: str = "table") -> _core.Simulator:
    first, classes = _first_cuts(variant), _class_cuts(variant)
    q = variant.qualifier.strength
    if variant.family is Family.STUD:
        up_rank, hands = table.stud_columns()
        keep, x = EXCHANGES[exchange], variant.exchanges
        from_table = keep == "table" and table.exchange_from is not None
        plan = (keep, HandThreshold("ace-king").strength, x.most_per_round) if x and keep else None
        return _core.Simulator.stud(
            seats,
            q,
            first,
            classes,
            up_rank=up_rank,
            hands=hands,
            raises=table.raises,
            exchange=plan if keep != "table" or from_table else None,
            exchange_from=table.exchange_from if from_table else None,
        )
    return _core.Simulator.holdem(q, first, classes, cards=table.rows, calls=table.raises)


@cache
def _cached_simulator(variant: Variant, strategy: str, seats: int, exchange: str) -> _core.Simulator:
    """A worker's simulator, compiled once per (variant, strategy, seats, exchange)."""
    return _simulator(variant, analyze(variant, strategy).table, seats, exchange)


def _remote_batch(
    variant: Variant, strategy: str, seats: int, exchange: str, seed: int, start: int, end: int, rounds: int
) -> npt.NDArray[np.uint64]:
    """One batch on a Dask worker, which compiles (and keeps) its own simulator."""
    sim = _cached_simulator(variant, strategy, seats, exchange)
    return sim.run(seed, start, end, rounds)


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
class _Run:
    """What a run was asked, and what it took."""

    strategy: str
    seed: int
    seats: int
    partial: bool
    seconds: float


def _settle(v: Variant, counts: npt.NDArray[np.uint64], run: _Run) -> SimulationResult:
    settled = _settled_cells(v, counts, _first_cuts(v))
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


def _check_arguments(variant: Variant, rounds: int, seats: int, exchange: str) -> None:
    """Refuses, before any work, what the simulator cannot play as written."""
    checked_count("rounds", rounds, MAX_ROUNDS)
    most = variant.seats if variant.family is Family.STUD else 1
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


def _batch_count(rounds: int) -> int:
    return math.ceil(math.ceil(rounds / CHUNK_ROUNDS) / BATCH_CHUNKS)


def _batches(rounds: int) -> Iterator[tuple[int, int]]:
    """The run's chunks, `BATCH_CHUNKS` at a time, made as they are needed: a long run holds one
    batch, never the list of them all."""
    chunks = math.ceil(rounds / CHUNK_ROUNDS)
    return ((start, min(start + BATCH_CHUNKS, chunks)) for start in range(0, chunks, BATCH_CHUNKS))


def _run_local(
    sim: _core.Simulator, label: str, seed: int, rounds: int, threads: int | None, show: bool
) -> tuple[npt.NDArray[np.uint64], bool]:
    """Runs the batches here with a progress bar; Ctrl-C keeps the batches finished (partial)."""
    counts = np.zeros(sim.shape, dtype=np.uint64)
    try:
        with Progress(transient=True, disable=not show) as bar:
            task = bar.add_task(f"simulating {label}", total=_batch_count(rounds))
            for a, b in _batches(rounds):
                counts += sim.run(seed, a, b, rounds, threads)
                bar.advance(task)
    except KeyboardInterrupt:
        return counts, True
    return counts, False


def _run_dask(
    client: Any, variant: Variant, strategy: str, seats: int, exchange: str, seed: int, rounds: int
) -> npt.NDArray[np.uint64]:
    """Runs the batches on a Dask cluster; each worker compiles its own simulator."""
    futures = client.map(
        _remote_batch,
        *zip(*[(variant, strategy, seats, exchange, seed, a, b, rounds) for a, b in _batches(rounds)], strict=True),
        pure=False,
    )
    return np.asarray(np.sum(client.gather(futures), axis=0, dtype=np.uint64), dtype=np.uint64)


def simulate(
    variant: Variant | str | Path,
    rounds: int,
    seed: int = 0,
    strategy: str | StrategyTable = "best",
    seats: int = 1,
    threads: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    exchange: str = "table",
) -> SimulationResult:
    """Simulates `rounds` rounds (each with `seats` seats sharing one deck) and settles them.

    `strategy` is "best" or a named strategy (see `analysis.strategies`), whose table comes from
    the exact analysis, or a `StrategyTable`. `exchange`: one of `exchange_strategies(variant)`
    ("table": the exchanges the strategy table makes, the best strategy's in game 4). `client`: a
    `dask.distributed.Client` to run the chunks on; the counts equal a local run's with the same
    seed."""
    variant = as_variant(variant)
    _check_arguments(variant, rounds, seats, exchange)
    seed, threads = checked_seed(seed), checked_threads(threads)
    name = strategy if isinstance(strategy, str) else "table"
    table = analyze(variant, strategy).table if isinstance(strategy, str) else strategy
    partial = False
    if client is not None:
        if not isinstance(strategy, str):
            raise ArgumentError("strategy: a Dask run takes a named strategy")
        start_time = time.perf_counter()
        counts = _run_dask(client, variant, strategy, seats, exchange, seed, rounds)
    else:
        sim = _simulator(variant, table, seats, exchange)
        show = sys.stderr.isatty() if progress is None else progress
        start_time = time.perf_counter()
        counts, partial = _run_local(sim, variant.name, seed, rounds, threads, show)
    run = _Run(name, seed, seats, partial, time.perf_counter() - start_time)
    return _settle(variant, counts, run)


@dataclass(frozen=True)
class SessionResult:
    """Sessions of `rounds` rounds from a bankroll of `bankroll` antes: where each one ended."""

    variant: Variant
    strategy: str
    rounds: int
    bankroll: float
    final: npt.NDArray[np.float64]
    ruined: npt.NDArray[np.bool_]

    def __repr__(self) -> str:
        return (
            f"SessionResult({self.variant.name!r}, strategy={self.strategy!r}, rounds={self.rounds:,}, "
            f"bankroll={self.bankroll:g}, sessions={len(self.final):,}, ruined={float(self.ruined.mean()):.4f})"
        )

    @property
    def risk_of_ruin(self) -> float:
        """The share of sessions that could no longer cover a round."""
        return float(self.ruined.mean())

    @property
    def risk_of_ruin_stderr(self) -> float:
        p = self.risk_of_ruin
        return math.sqrt(p * (1 - p) / len(self.ruined))

    def percentiles(self, qs: Sequence[float] = (5, 25, 50, 75, 95)) -> dict[float, float]:
        """Percentiles of the final bankroll, in antes."""
        return {q: float(np.percentile(self.final, q)) for q in qs}


def _cell_nets(v: Variant, shape: Sequence[int]) -> list[float]:
    """The main game's net in antes of every count cell of one seat, in the simulator's order
    (0 where none can happen)."""
    nets = []
    for cell in sim_cells(shape, _first_cuts(v)):
        try:
            nets.append(float(settle(v, cell.outcome).main))
        except ImpossibleOutcomeError:
            nets.append(0.0)
    return nets


def simulate_sessions(
    variant: Variant | str | Path,
    sessions: int,
    rounds: int,
    bankroll: float,
    seed: int = 0,
    strategy: str = "best",
    exchange: str = "table",
    threads: int | None = None,
) -> SessionResult:
    """Plays `sessions` sessions of `rounds` rounds, one seat starting with `bankroll` antes; a
    session ends early, ruined, when the bankroll can no longer cover a round's worst loss."""
    sessions, rounds = checked_sessions(sessions, rounds)  # before Rust allocates a result for each
    bankroll, seed = checked_number("bankroll", bankroll, MAX_BANKROLL), checked_seed(seed)
    threads = checked_threads(threads)
    variant = as_variant(variant)
    _check_arguments(variant, 1, 1, exchange)
    sim = _simulator(variant, analyze(variant, strategy).table, 1, exchange)
    most = variant.exchanges.most_per_round if variant.exchanges and exchange != "never" else 0
    fee = float(variant.exchanges.fee_antes) if variant.exchanges else 0.0
    worst = 1 + float(variant.raise_multiple) + most * fee
    final, ruined = sim.sessions(seed, 0, sessions, rounds, _cell_nets(variant, sim.shape), bankroll, worst, threads)
    return SessionResult(variant, strategy, rounds, bankroll, final, ruined)
