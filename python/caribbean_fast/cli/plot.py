"""``caribbean-fast plot strategy|session|meter NAME -o FILE.png``: the pictures of `plots`."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..bounds import MAX_PLOT_ROUNDS, parse_count
from ..variants import load_variant
from .progress import progress_bar


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("plot", help="draw the best strategy, simulated sessions or the progressive's meter")
    kinds = p.add_subparsers(dest="kind", required=True)
    for kind, what in (
        ("strategy", "stud: Ace-King hands raised by up card; hold'em: call rate by starting hand"),
        ("session", "simulated bankroll paths and where sessions end, with the risk of ruin"),
        ("meter", "the progressive's return against its meter, and its break-even point"),
        ("payout", "the return against one paytable entry (--entry raise:one-pair), strategy changes marked"),
    ):
        k = kinds.add_parser(kind, help=what)
        k.add_argument("variant", metavar="NAME_OR_PATH")
        k.add_argument("-o", "--output", type=Path, required=True, help="FILE.png, .svg or .pdf")
        if kind == "payout":
            k.add_argument("--entry", required=True, help="bet:hand, e.g. raise:one-pair")
        if kind == "session":
            k.add_argument("--rounds", default="1000", help="rounds a session (at most 1e6)")
            k.add_argument("--bankroll", type=_number, default=100.0, help="in antes")
            k.add_argument("--sessions", default="10000")
            k.add_argument("--seed", type=int, default=0)
        k.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from .. import plots  # matplotlib is an optional extra: imported only here

    variant = load_variant(args.variant)
    # The bar moves while the enumeration a plot reads is counted (once a process), not while it draws.
    with progress_bar(f"plotting the {variant.name} {args.kind}") as progress:
        if args.kind == "strategy":
            path = plots.plot_strategy(variant, args.output, progress)
        elif args.kind == "session":
            rounds, sessions = parse_count(args.rounds, most=MAX_PLOT_ROUNDS), parse_count(args.sessions, "sessions")
            path = plots.plot_session(variant, rounds, args.bankroll, args.output, sessions, args.seed, progress)
        elif args.kind == "payout":
            path = plots.plot_payout(variant, args.entry, args.output)
        else:
            path = plots.plot_meter(variant, args.output, progress)
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0
