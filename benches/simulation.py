"""Simulation throughput and agreement with the exact figures: each preset under its best
strategy (or the strategies named), with rounds per second, nanoseconds a round per thread, the
share of the run the hypervisor gave to other machines (steal) and the z-score of the simulated
mean against the exact expected return.

Run: ``python benches/simulation.py [--rounds 1e9] [--runs 5]`` (the issue's figure uses 1e9
rounds, both cores). With ``--runs``, each row's rate and time a round are the median of that
many runs and its steal the largest; the rows' runs are taken in turn, so that the host's drift
touches all alike, and a run whose mean differs from the row's first stops the bench.
``--threads 1 --rounds 2e8 --strategies best always-raise`` puts one thread's cost of the best
strategy beside a threshold's (a strategy a variant does not have is skipped). ``--record``
writes the best strategy's rows of benches/results.toml (`record`), on every core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from dataclasses import dataclass

import record
from rich.console import Console
from rich.table import Table

from caribbean_fast import SimulationResult, Variant, analyze, load_variant, simulate
from caribbean_fast.analysis import strategies
from caribbean_fast.variants import Family

from host import cpu_ticks, describe, steal_since

# A row's columns after its variant and strategy (`_figures`).
FIGURES = ("M rounds/s", "range", "ns/round/thread", "steal %", "simulated mean", "stderr", "exact", "z")


@dataclass(frozen=True)
class Run:
    """One run of a row: its result and the share of it the hypervisor gave to other machines."""

    result: SimulationResult
    steal: float


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=float, default=1e9)
    parser.add_argument("--runs", type=int, default=1, help="runs of each row; the row shows their median and range")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variants", nargs="*", default=["cyberstud", "casino-holdem"])
    parser.add_argument("--strategies", nargs="*", default=["best"])
    parser.add_argument("--threads", type=int, default=None, help="default: every core (more inflate ns/round/thread)")
    parser.add_argument("--record", action="store_true", help="write the best strategy's rows of results.toml")
    args = parser.parse_args()
    known = {name for family in Family for name in strategies(family)}
    if unknown := sorted(set(args.strategies) - known):
        parser.error(f"no variant has the strategies {', '.join(unknown)}; they are {', '.join(sorted(known))}")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    threads = args.threads or os.cpu_count() or 1  # passed to the run, so the figure is per thread used
    variants = [load_variant(name) for name in args.variants]
    rows = [(v, s) for v in variants for s in args.strategies if s in strategies(v.family)]
    runs_by_row: list[list[Run]] = [[] for _ in rows]
    for _ in range(args.runs):
        for (v, strategy), runs in zip(rows, runs_by_row, strict=True):
            runs.append(_run(v, strategy, int(args.rounds), args.seed, threads))
            if runs[-1].result.mean != runs[0].result.mean:
                raise SystemExit(f"{v.name} {strategy}: runs with the same seed gave different means")
    runs_said = f", median of {args.runs} runs in turn" if args.runs > 1 else ""
    title = f"{int(args.rounds):,} rounds each, seed {args.seed}, {threads} thread(s){runs_said}\n{describe()}"
    table = Table(title=title)
    columns = ("variant", "strategy", *FIGURES)
    for column in columns:
        table.add_column(column, justify="left" if column in ("variant", "strategy") else "right")
    for (v, strategy), runs in zip(rows, runs_by_row, strict=True):
        exact = float(analyze(v, strategy).expected_return)
        table.add_row(v.name, strategy, *_figures(runs, threads, exact))
    Console(width=150).print(table)
    if args.record:
        best = [(v, runs) for (v, strategy), runs in zip(rows, runs_by_row, strict=True) if strategy == "best"]
        command = " ".join(["python benches/simulation.py", *(a for a in sys.argv[1:] if a != "--record")])
        record.write([_row(v, runs, threads, command) for v, runs in best], RECORDED)


RECORDED = ["benches/simulation.py", "python/caribbean_fast/simulation.py", "rust/sim", "rust/eval"]
"""The files whose change makes the recorded rows stale."""


def _row(v: Variant, runs: list[Run], threads: int, command: str) -> dict[str, object]:
    """A variant's row of benches/results.toml: the median and range of its runs."""
    rates = sorted(run.result.rounds_per_second / 1e6 for run in runs)
    note = f"{len(runs)} runs in turn, {runs[0].result.rounds:,} rounds each; the steal at most "
    note += f"{max(run.steal for run in runs):.0f}%; the simulated mean the same in every run"
    return {
        "id": f"simulation-{v.name}",
        "section": "Simulation",
        "what": f"simulated rounds, best strategy, {threads} threads: {v.name}",
        "value": round(statistics.median(rates), 1),
        "range": [round(rates[0], 1), round(rates[-1], 1)],
        "unit": "M rounds/s",
        "command": command,
        "readme": True,
        "note": note,
    }


def _run(v: Variant, strategy: str, rounds: int, seed: int, threads: int) -> Run:
    start = cpu_ticks()
    result = simulate(v, rounds, seed=seed, strategy=strategy, threads=threads)
    if result.partial:  # Ctrl-C: `simulate` returns the rounds so far, which are no figure
        raise SystemExit("interrupted")
    return Run(result, steal_since(start))


def _figures(runs: list[Run], threads: int, exact: float) -> list[str]:
    """A row's `FIGURES`: the runs' median rate, their range ("-" for one run) and the median's
    time a round a thread, the largest steal of the runs, and the simulated mean (the
    same in every run: the same seed) against the exact one."""
    rates = sorted(run.result.rounds_per_second for run in runs)
    median = statistics.median(rates)
    result = runs[-1].result
    return [
        f"{median / 1e6:.1f}",
        f"{rates[0] / 1e6:.1f}-{rates[-1] / 1e6:.1f}" if len(rates) > 1 else "-",
        f"{threads * 1e9 / median:.1f}",
        f"{max(run.steal for run in runs):.0f}",
        f"{result.mean:+.6f}",
        f"{result.stderr:.6f}",
        f"{exact:+.6f}",
        f"{result.z_score(exact):+.2f}",
    ]


if __name__ == "__main__":
    main()
