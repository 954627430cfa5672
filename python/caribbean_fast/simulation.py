"""Bulk simulation by strategy name: the table comes from the exact analysis (`analyze`), the
rounds are played and settled by `analysis.simulator`, here or on a Dask cluster; and sessions
played from a bankroll until they end or are ruined.

A run's counts depend only on its seed and number of rounds (see `analysis.simulator`): not on
threads, batches, or Dask workers.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from .analysis import analyze
from .analysis.categories import sim_cells
from .analysis.seen import PairedResult, settle_paired
from .analysis.simulator import (
    CHUNK_ROUNDS,
    EXCHANGES,
    SIM_AXES,
    RunFacts,
    SeatFigures,
    SimulationResult,
    batches,
    build_simulator,
    check_arguments,
    exchange_strategies,
    first_cuts,
    settle_counts,
    simulate_table,
)
from .analysis.strategy import StrategyTable
from .bounds import MAX_BANKROLL, checked_number, checked_seed, checked_sessions, checked_threads
from .errors import ArgumentError, ImpossibleOutcomeError
from .progress import ProgressCallback, checked_progress
from .settlement import settle
from .variants import Variant, as_variant

__all__ = [
    "CHUNK_ROUNDS",
    "EXCHANGES",
    "SIM_AXES",
    "PairedResult",
    "SeatFigures",
    "SessionResult",
    "SimulationResult",
    "exchange_strategies",
    "simulate",
    "simulate_paired",
    "simulate_sessions",
]

SESSION_BATCH_ROUNDS = 1 << 24  # the rounds of the sessions played between two progress calls
MIN_SESSION_BATCH = 256  # sessions a batch plays at least, so that every thread has some


@cache
def _cached_simulator(variant: Variant, strategy: str, seats: int, exchange: str) -> _core.Simulator:
    """A worker's simulator, compiled once per (variant, strategy, seats, exchange)."""
    sheet = analyze(variant, strategy)
    return build_simulator(variant, sheet.table, seats, exchange, sheet.exchanges)


def _remote_batch(
    variant: Variant, strategy: str, seats: int, exchange: str, seed: int, start: int, end: int, rounds: int
) -> npt.NDArray[np.uint64]:
    """One batch on a Dask worker, which compiles (and keeps) its own simulator."""
    sim = _cached_simulator(variant, strategy, seats, exchange)
    return sim.run(seed, start, end, rounds)


def _run_dask(
    client: Any, variant: Variant, strategy: str, seats: int, exchange: str, seed: int, rounds: int
) -> npt.NDArray[np.uint64]:
    """Runs the batches on a Dask cluster; each worker compiles its own simulator."""
    futures = client.map(
        _remote_batch,
        *zip(*[(variant, strategy, seats, exchange, seed, a, b, rounds) for a, b in batches(rounds)], strict=True),
        pure=False,
    )
    return np.asarray(np.sum(client.gather(futures), axis=0, dtype=np.uint64), dtype=np.uint64)


def _simulate_on_dask(
    client: Any, variant: Variant, strategy: str, rounds: int, seed: int, seats: int, exchange: str
) -> SimulationResult:
    """A named strategy's run on a Dask cluster, settled here."""
    start = time.perf_counter()
    counts = _run_dask(client, variant, strategy, seats, exchange, seed, rounds)
    return settle_counts(variant, counts, RunFacts(strategy, seed, seats, False, time.perf_counter() - start))


def simulate(
    variant: Variant | str | Path,
    rounds: int,
    seed: int = 0,
    strategy: str | StrategyTable = "best",
    seats: int = 1,
    threads: int | None = None,
    client: Any = None,
    progress: ProgressCallback | None = None,
    exchange: str = "table",
) -> SimulationResult:
    """Simulates `rounds` rounds (each with `seats` seats sharing one deck) and settles them.

    `strategy` is "best" or a named strategy (see `analysis.strategies`), whose table comes from
    the exact analysis, or a `StrategyTable`. The analysis enumerates every deal the first time a
    process needs it: to watch that, call `analyze(variant, strategy, progress=...)` first.
    `exchange`: one of `exchange_strategies(variant)` ("table": the exchanges the strategy table
    makes, the best strategy's in game 4). `client`: a `dask.distributed.Client` to run the chunks
    on; the counts equal a local run's with the same seed. `progress`: called with (rounds done,
    rounds) as a local run goes (see `progress.ProgressCallback`); nothing draws a progress bar
    unless the caller does. Ctrl-C stops a local run and returns the rounds finished, marked
    `partial`."""
    variant, progress = as_variant(variant), checked_progress(progress)
    check_arguments(variant, rounds, seats, exchange)
    seed, threads = checked_seed(seed), checked_threads(threads)
    table = analyze(variant, strategy).table if isinstance(strategy, str) else strategy
    if client is not None:
        if not isinstance(strategy, str):
            raise ArgumentError("strategy: a Dask run takes a named strategy")
        return _simulate_on_dask(client, variant, strategy, rounds, seed, seats, exchange)
    name = strategy if isinstance(strategy, str) else "table"
    plan = analyze(variant, strategy).exchanges if isinstance(strategy, str) else None
    return simulate_table(
        variant,
        table,
        rounds,
        seed=seed,
        seats=seats,
        threads=threads,
        exchange=exchange,
        strategy=name,
        progress=progress,
        plan=plan,
    )


def simulate_paired(
    variant: Variant | str | Path,
    rounds: int,
    seed: int = 0,
    exchange: str = "sees-discards",
    threads: int | None = None,
    progress: ProgressCallback | None = None,
) -> PairedResult:
    """The same deals played by the best strategy's table and by the exchange strategy
    `exchange` (one seat): their difference per ante, with its standard error from the paired
    rounds (`analysis.seen`). Each round deals the seat's every exchange up front, so its
    cards are not those of `simulate` with the same seed."""
    variant, progress = as_variant(variant), checked_progress(progress)
    check_arguments(variant, rounds, 1, exchange)
    if exchange in ("table", "never") or variant.exchanges is None:
        raise ArgumentError(f"exchange: a paired run sets an exchanging strategy against the table, not {exchange!r}")
    seed, threads = checked_seed(seed), checked_threads(threads)
    sheet = analyze(variant, "best")
    table = build_simulator(variant, sheet.table, 1, "table", sheet.exchanges)
    other = build_simulator(variant, sheet.table, 1, exchange, sheet.exchanges)
    start, joint = time.perf_counter(), None
    if progress is not None:
        progress(0, rounds)
    for a, b in batches(rounds):
        part = table.paired(other, seed, a, b, rounds, threads)
        joint = part if joint is None else joint + part
        if progress is not None:
            progress(min(b * CHUNK_ROUNDS, rounds), rounds)
    assert joint is not None  # rounds >= 1
    columns = variant.exchanges.most_per_round + 1
    return settle_paired(variant, joint, columns, seed, time.perf_counter() - start)


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
    for cell in sim_cells(shape, first_cuts(v)):
        try:
            nets.append(float(settle(v, cell.outcome).main))
        except ImpossibleOutcomeError:
            nets.append(0.0)
    return nets


def _session_batches(sessions: int, rounds: int) -> Iterator[tuple[int, int]]:
    """The sessions in batches of about `SESSION_BATCH_ROUNDS` rounds: each session is seeded by
    its number, so the batches play what one call for them all would."""
    size = max(MIN_SESSION_BATCH, SESSION_BATCH_ROUNDS // rounds)
    return ((start, min(start + size, sessions)) for start in range(0, sessions, size))


Ended = tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]  # sessions' final bankrolls and ruin


def _play_in_batches(
    play: Callable[[int, int], Ended], sessions: int, rounds: int, progress: ProgressCallback | None
) -> Ended:
    """Sessions [0, sessions) played by `play(start, end)` a batch at a time, telling `progress`."""
    finals, ruins = [], []
    if progress is not None:
        progress(0, sessions)
    for start, end in _session_batches(sessions, rounds):
        final, ruined = play(start, end)
        finals.append(final)
        ruins.append(ruined)
        if progress is not None:
            progress(end, sessions)
    return np.concatenate(finals), np.concatenate(ruins)


def _worst_loss(variant: Variant, exchange: str) -> float:
    """A round's worst loss in antes: the ante, the raise, and the fee of every exchange made."""
    most = variant.exchanges.most_per_round if variant.exchanges and exchange != "never" else 0
    fee = float(variant.exchanges.fee_antes) if variant.exchanges else 0.0
    return 1 + float(variant.raise_multiple) + most * fee


def simulate_sessions(
    variant: Variant | str | Path,
    sessions: int,
    rounds: int,
    bankroll: float,
    seed: int = 0,
    strategy: str = "best",
    exchange: str = "table",
    threads: int | None = None,
    progress: ProgressCallback | None = None,
) -> SessionResult:
    """Plays `sessions` sessions of `rounds` rounds, one seat starting with `bankroll` antes; a
    session ends early, ruined, when the bankroll can no longer cover a round's worst loss.
    `progress`: called with (sessions played, sessions) before the first batch of sessions and
    after each one (see `progress.ProgressCallback`)."""
    sessions, rounds = checked_sessions(sessions, rounds)  # before Rust allocates a result for each
    bankroll, seed = checked_number("bankroll", bankroll, MAX_BANKROLL), checked_seed(seed)
    threads, progress = checked_threads(threads), checked_progress(progress)
    variant = as_variant(variant)
    check_arguments(variant, 1, 1, exchange)
    sheet = analyze(variant, strategy)
    sim = build_simulator(variant, sheet.table, 1, exchange, sheet.exchanges)
    nets, worst = _cell_nets(variant, sim.shape), _worst_loss(variant, exchange)

    def play(start: int, end: int) -> Ended:
        return sim.sessions(seed, start, end, rounds, nets, bankroll, worst, threads)

    final, ruined = _play_in_batches(play, sessions, rounds, progress)
    return SessionResult(variant, strategy, rounds, bankroll, final, ruined)
