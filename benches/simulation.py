"""Simulation throughput and agreement with the exact figures: each preset under its best
strategy (or the strategies named), with rounds per second, nanoseconds a round per thread, the
share of the run the hypervisor gave to other machines (steal) and the z-score of the simulated
mean against the exact expected return.

Run: ``python benches/simulation.py [--rounds 1e9]`` (the issue's figure uses 1e9 rounds, both
cores); ``--threads 1 --rounds 2e8 --strategies best always-raise`` puts one thread's cost of
the best strategy beside a threshold's (a strategy a variant does not have is skipped).
"""

from __future__ import annotations

import argparse
import os

from rich.console import Console
from rich.table import Table

from caribbean_fast import analyze, load_variant, simulate
from caribbean_fast.analysis import strategies
from caribbean_fast.variants import Family

from host import cpu_ticks, describe, steal_since


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=float, default=1e9)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variants", nargs="*", default=["cyberstud", "casino-holdem"])
    parser.add_argument("--strategies", nargs="*", default=["best"])
    parser.add_argument("--threads", type=int, default=None, help="default: every core (more inflate ns/round/thread)")
    args = parser.parse_args()
    known = {name for family in Family for name in strategies(family)}
    if unknown := sorted(set(args.strategies) - known):
        parser.error(f"no variant has the strategies {', '.join(unknown)}; they are {', '.join(sorted(known))}")
    threads = args.threads or os.cpu_count() or 1  # passed to the run, so the figure is per thread used
    title = f"{int(args.rounds):,} rounds each, seed {args.seed}, {threads} thread(s)\n{describe()}"
    table = Table(title=title)
    columns = ("variant", "strategy", "M rounds/s", "ns/round/thread", "steal %", "goal", "simulated mean", "stderr")
    for column in (*columns, "exact", "z"):
        table.add_column(column, justify="left" if column in ("variant", "strategy") else "right")
    for name in args.variants:
        v = load_variant(name)
        for strategy in (s for s in args.strategies if s in strategies(v.family)):
            exact = float(analyze(v, strategy).expected_return)
            start = cpu_ticks()
            r = simulate(v, int(args.rounds), seed=args.seed, strategy=strategy, threads=threads)
            steal = steal_since(start)
            # issue 17's goals: the best strategy on two cores
            goal = ("100" if v.family == "stud" else "50") if strategy == "best" and threads == 2 else "-"
            table.add_row(
                name,
                strategy,
                f"{r.rounds_per_second / 1e6:.1f}",
                f"{threads * 1e9 / r.rounds_per_second:.1f}",
                f"{steal:.0f}",
                goal,
                f"{r.mean:+.6f}",
                f"{r.stderr:.6f}",
                f"{exact:+.6f}",
                f"{r.z_score(exact):+.2f}",
            )
    Console(width=140).print(table)


if __name__ == "__main__":
    main()
