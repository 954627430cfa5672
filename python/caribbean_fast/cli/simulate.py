"""``caribbean-fast simulate NAME_OR_PATH --rounds 1e9 --seed 7``: seeded bulk simulation."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from ..analysis import analyze
from ..analysis.meter import simulate_meter
from ..analysis.simulator import check_arguments
from ..bounds import MAX_METER_ROUNDS, MAX_ROUNDS, checked_seed, checked_threads, parse_count
from ..errors import ArgumentError
from ..simulation import simulate, simulate_paired
from ..variants import Variant, load_variant
from .progress import progress_bar


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("simulate", help="simulate rounds in Rust and settle them; compare with the exact figure")
    p.add_argument("variant", metavar="NAME_OR_PATH")
    p.add_argument("--rounds", default="1e7", help=f"rounds, e.g. 1e9 (default 1e7; at most {MAX_ROUNDS:.0e})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--strategy", default="best")
    p.add_argument("--seats", type=int, default=1)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument(
        "--exchange",
        default="table",
        help="game 4: table (the strategy's own exchanges, the best ones for --strategy best), never, "
        "all-five, keep-ace-king (the example that lets the seat choose), or sees-discards (the best "
        "strategy deciding after an exchange by the cards it has seen)",
    )
    p.add_argument(
        "--paired",
        action="store_true",
        help="game 4: play the same deals by the best strategy's table and by --exchange, and give the difference",
    )
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--meter", action="store_true", help="the progressive meter over time instead of the main game")
    p.set_defaults(run=run)


def _exact(variant: Variant, strategy: str, exchange: str) -> tuple[str, float]:
    """The analysis's figure for what is simulated, and what it is: game 4's best strategy is
    exact under the analysis's approximation (the discarded cards' removal ignored); never
    exchanging is exact; the other exchange strategies have no exact figure, so the strategy
    table's own (never exchanging) is given."""
    sheet = analyze(variant, strategy)
    x = sheet.exchanges
    if variant.exchanges is None or (x is None and exchange in ("table", "never")):
        return "exact expected return", float(sheet.expected_return)
    if x is not None and exchange == "table":
        return "expected return (exact under the approximation)", float(sheet.expected_return)
    never = float(x.never if x else sheet.expected_return)
    if exchange == "never":
        return "exact expected return, never exchanging", never
    return "exact return never exchanging (none for this exchange strategy)", never


def _refuse_bad_arguments(args: argparse.Namespace, variant: Variant) -> None:
    """What `simulate` refuses, refused before the enumeration, which can take a minute."""
    check_arguments(variant, args.rounds, args.seats, args.exchange)
    if args.paired and (args.strategy != "best" or args.seats != 1):
        raise ArgumentError("paired: one seat and the best strategy (--strategy best --seats 1)")
    checked_seed(args.seed)
    checked_threads(args.threads)


def run(args: argparse.Namespace) -> int:
    args.rounds = parse_count(args.rounds, most=MAX_METER_ROUNDS if args.meter else MAX_ROUNDS)
    variant = load_variant(args.variant)
    if args.meter:
        return run_meter(args, variant)
    _refuse_bad_arguments(args, variant)
    with progress_bar(f"enumerating every {variant.name} deal") as progress:
        analyze(variant, args.strategy, progress)  # the strategy's table, which `simulate` reads
    if args.paired:
        return run_paired(args, variant)
    with progress_bar(f"simulating {variant.name}") as progress:
        result = simulate(
            variant,
            args.rounds,
            seed=args.seed,
            strategy=args.strategy,
            seats=args.seats,
            threads=args.threads,
            exchange=args.exchange,
            progress=progress,
        )
    label, exact = _exact(variant, args.strategy, args.exchange)
    if args.format == "json":
        print(json.dumps({**result.to_dict(), "exact_mean": exact, "z_score": result.z_score(exact)}, indent=2))
        return 0
    table = Table(
        title=f"{variant.title}: {result.rounds:,} rounds x {result.seats} seat(s), seed {result.seed}"
        + (" (PARTIAL: interrupted)" if result.partial else ""),
        show_header=False,
    )
    table.add_column("figure", style="bold")
    table.add_column("value")
    rows = [
        ("mean net per ante", f"{result.mean:+.6f}"),
        ("standard error", f"{result.stderr:.6f}"),
        ("90% interval", "{:+.6f} to {:+.6f}".format(*result.ci90)),
        ("95% interval", "{:+.6f} to {:+.6f}".format(*result.ci95)),
        (label, f"{exact:+.6f}  (z = {result.z_score(exact):+.2f})"),
        (
            "hit / push / loss",
            f"{result.hit_frequency:.4%} / {result.push_frequency:.4%} / {result.loss_frequency:.4%}",
        ),
        ("rounds per second", f"{result.rounds_per_second:,.0f} ({result.seconds:.2f} s)"),
    ]
    rows += [(f"seat {i + 1}", f"{s.mean:+.6f} ± {s.stderr:.6f}") for i, s in enumerate(result.per_seat)]
    rows += [(f"{name} (per unit staked)", f"{value:+.6f}") for name, value in result.side_bets.items()]
    if result.progressive_at_reset is not None:
        rows.append(("progressive at the reset meter (per stake)", f"{result.progressive_at_reset:+.6f}"))
    if result.exchanged:
        rows.append(("exchanged at decisions 1 / 2 / 3", " / ".join(f"{x:.4%}" for x in result.exchanged)))
    for k, v in rows:
        table.add_row(k, v)
    Console(width=max(Console().width, 100)).print(table)
    return 0


def run_paired(args: argparse.Namespace, variant: Variant) -> int:
    """The same deals by the table and by `--exchange`: the difference per ante."""
    with progress_bar(f"pairing {args.exchange} with the table") as progress:
        r = simulate_paired(variant, args.rounds, args.seed, args.exchange, args.threads, progress)
    if args.format == "json":
        print(json.dumps(r.to_dict(), indent=2))
        return 0
    table = Table(title=f"{variant.title}: {r.rounds:,} deals played both ways, seed {r.seed}", show_header=False)
    table.add_column("figure", style="bold")
    table.add_column("value")
    for k, v in (
        ("the table's mean net per ante", f"{r.mean_a:+.6f}"),
        (f"{args.exchange}'s mean net per ante", f"{r.mean_b:+.6f}"),
        ("difference", f"{r.difference:+.6f} ± {r.stderr:.6f}"),
        ("95% interval", "{:+.6f} to {:+.6f}".format(*r.ci95)),
        ("rounds ended differently", f"{r.parted:.4%}"),
        ("time", f"{r.seconds:.1f} s"),
    ):
        table.add_row(k, v)
    Console(width=max(Console().width, 100)).print(table)
    return 0


def run_meter(args: argparse.Namespace, variant: Variant) -> int:
    with progress_bar(f"the {variant.name} meter") as progress:
        r = simulate_meter(variant, args.rounds, seed=args.seed, seats=args.seats, progress=progress)
    fmt = variant.currency.format
    prizes = variant.progressive.prizes if variant.progressive else {}
    hits = {c.name.lower(): n for c, n in r.hits.items() if c in prizes}
    figures = {
        "rounds": r.rounds,
        "partial": r.partial,
        "seats": r.seats,
        "rtp": r.rtp,
        "exact_rtp_at_mean_meter": r.exact_rtp_at_mean_meter,
        "mean_meter_at_hits": r.mean_meter_at_hits,
        "final_meter": r.final_meter,
        "house_top_ups": r.house_top_ups,
        "hits": {
            c.name.lower(): n for c, n in r.hits.items() if variant.progressive and c in variant.progressive.prizes
        },
    }
    if args.format == "json":
        print(json.dumps(figures, indent=2))
        return 0
    stopped = " (PARTIAL: interrupted)" if r.partial else ""
    table = Table(title=f"{variant.title}: the progressive meter over {r.rounds:,} rounds x {r.seats} seat(s){stopped}")
    table.add_column("figure", style="bold")
    table.add_column("value")
    table.add_row(
        "return per stake", f"{r.rtp:.4%}  (exact at the mean meter the prizes found: {r.exact_rtp_at_mean_meter:.4%})"
    )
    table.add_row("mean meter when a meter prize hit", fmt(round(r.mean_meter_at_hits)))
    table.add_row("meter at the end", fmt(r.final_meter))
    table.add_row("the house's top-ups to the reset", fmt(r.house_top_ups))
    for name, n in hits.items():
        table.add_row(f"{name.replace('_', ' ')} hits", f"{n:,}")
    Console(width=max(Console().width, 100)).print(table)
    return 0
