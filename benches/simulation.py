"""Simulation throughput and agreement with the exact figures: each preset under its best
strategy (or the strategies named), with rounds per second, nanoseconds a round per thread, the
share of the run the hypervisor gave to other machines (steal) and the z-score of the simulated
mean against the exact expected return.

Run: ``python benches/simulation.py [--rounds 1e9] [--runs 5]`` (the issue's figure uses 1e9
rounds, both cores; with ``--runs``, each row is the median of that many runs, the rows' runs
taken in turn so that the host's drift touches all alike); ``--threads 1 --rounds 2e8
--strategies best always-raise`` puts one thread's cost of the best strategy beside a
threshold's (a strategy a variant does not have is skipped).
"""

from __future__ import annotations

import argparse
import os
import statistics
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from caribbean_fast import SimulationResult, Variant, analyze, load_variant, simulate
from caribbean_fast.analysis import strategies
from caribbean_fast.variants import Family

from host import cpu_ticks, describe, steal_since


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=float, default=1e9)
    parser.add_argument("--runs", type=int, default=1, help="runs of each row; the row shows their median and range")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variants", nargs="*", default=["cyberstud", "casino-holdem"])
    parser.add_argument("--strategies", nargs="*", default=["best"])
    parser.add_argument("--threads", type=int, default=None, help="default: every core (more inflate ns/round/thread)")
    args = parser.parse_args()
    known = {name for family in Family for name in strategies(family)}
    if unknown := sorted(set(args.strategies) - known):
        parser.error(f"no variant has the strategies {', '.join(unknown)}; they are {', '.join(sorted(known))}")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    threads = args.threads or os.cpu_count() or 1  # passed to the run, so the figure is per thread used
    variants = [load_variant(name) for name in args.variants]
    rows = [(v, s) for v in variants for s in args.strategies if s in strategies(v.family)]
    runs: list[list[Run]] = [[] for _ in rows]
    for _ in range(args.runs):
        for (v, strategy), row_runs in zip(rows, runs, strict=True):
            row_runs.append(_run(v, strategy, int(args.rounds), args.seed, threads))
    runs_said = f", median of {args.runs} runs in turn" if args.runs > 1 else ""
    title = f"{int(args.rounds):,} rounds each, seed {args.seed}, {threads} thread(s){runs_said}\n{describe()}"
    table = Table(title=title)
    columns = ("variant", "strategy", "M rounds/s", "range", "ns/round/thread", "steal %", "goal")
    for column in (*columns, "simulated mean", "stderr", "exact", "z"):
        table.add_column(column, justify="left" if column in ("variant", "strategy") else "right")
    for (v, strategy), row_runs in zip(rows, runs, strict=True):
        table.add_row(v.name, strategy, *_figures(v, strategy, row_runs, threads))
    Console(width=150).print(table)


@dataclass(frozen=True)
class Run:
    """One run of a row: its result and the share of it the hypervisor gave to other machines."""

    result: SimulationResult
    steal: float


def _run(v: Variant, strategy: str, rounds: int, seed: int, threads: int) -> Run:
    start = cpu_ticks()
    result = simulate(v, rounds, seed=seed, strategy=strategy, threads=threads)
    return Run(result, steal_since(start))


def _figures(v: Variant, strategy: str, runs: list[Run], threads: int) -> list[str]:
    """A row's cells after "strategy": the runs' median rate and range, the largest steal, the
    goal, and the simulated mean against the exact one (the same seed: every run's counts are
    the same, which is checked)."""
    rates = sorted(r.result.rounds_per_second for r in runs)
    means = {r.result.mean for r in runs}
    if len(means) > 1:
        raise SystemExit(f"{v.name} {strategy}: runs with the same seed gave different means {sorted(means)}")
    r, median = runs[-1].result, statistics.median(rates)
    exact = float(analyze(v, strategy).expected_return)
    # issue 17's goals: the best strategy on two cores
    goal = ("100" if v.family == "stud" else "50") if strategy == "best" and threads == 2 else "-"
    return [
        f"{median / 1e6:.1f}",
        f"{rates[0] / 1e6:.1f}-{rates[-1] / 1e6:.1f}" if len(rates) > 1 else "-",
        f"{threads * 1e9 / median:.1f}",
        f"{max(run.steal for run in runs):.0f}",
        goal,
        f"{r.mean:+.6f}",
        f"{r.stderr:.6f}",
        f"{exact:+.6f}",
        f"{r.z_score(exact):+.2f}",
    ]


if __name__ == "__main__":
    main()
