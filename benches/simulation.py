"""Simulation throughput and agreement with the exact figures: each preset under its best
strategy, with rounds per second on both cores and the z-score of the simulated mean against the
exact expected return.

Run: ``python benches/simulation.py [--rounds 1e9]`` (the issue's figure uses 1e9 rounds).
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from caribbean_fast import analyze, load_variant, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=float, default=1e9)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--variants", nargs="*", default=["cyberstud", "casino-holdem"])
    args = parser.parse_args()
    table = Table(title=f"{int(args.rounds):,} rounds each, best strategy, seed {args.seed}")
    for column in ("variant", "M rounds/s", "target", "simulated mean", "stderr", "exact", "z"):
        table.add_column(column, justify="left" if column == "variant" else "right")
    for name in args.variants:
        v = load_variant(name)
        exact = float(analyze(v).expected_return)
        r = simulate(v, int(args.rounds), seed=args.seed)
        target = "100" if v.family == "stud" else "50"  # issue 17's goals (the first were 30 and 10)
        table.add_row(
            name,
            f"{r.rounds_per_second / 1e6:.1f}",
            target,
            f"{r.mean:+.6f}",
            f"{r.stderr:.6f}",
            f"{exact:+.6f}",
            f"{r.z_score(exact):+.2f}",
        )
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
