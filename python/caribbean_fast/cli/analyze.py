"""``caribbean-fast analyze NAME_OR_PATH`` and ``caribbean-fast report``: exact par sheets."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from ..analysis import ParSheet, analyze
from ..analysis.cache import cache_dir
from ..analysis.report import par_sheet_dict, par_sheet_markdown, render_par_sheet, warnings
from ..variants import list_variants, load_variant
from .progress import progress_bar


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    a = commands.add_parser(
        "analyze",
        help="the exact par sheet of a variant, by enumerating every deal",
        description=(
            "The exact par sheet of a variant, by enumerating every deal. The enumeration's counts "
            "do not depend on the payouts: they are counted once per dealer qualifier and kept in "
            f"{cache_dir()} ($CARIBBEAN_FAST_CACHE names another folder), so that any other paytable of a counted "
            "game, in this process or another, is settled from them without enumerating again. To "
            "clear the cache, delete the folder: the next analysis counts again."
        ),
    )
    a.add_argument("variant", metavar="NAME_OR_PATH")
    a.add_argument("--strategy", default="best", help="best (default) or a named strategy")
    a.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    a.set_defaults(run=run_analyze)
    r = commands.add_parser("report", help="every preset's house edge, return to player and volatility")
    r.set_defaults(run=run_report)


def run_analyze(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant)
    with progress_bar(f"enumerating every {variant.name} deal") as progress:
        sheet = analyze(variant, args.strategy, progress)
    if args.format == "json":
        print(json.dumps(par_sheet_dict(sheet), indent=2))
    elif args.format == "markdown":
        print(par_sheet_markdown(sheet), end="")
    else:
        Console(width=max(Console().width, 132)).print(render_par_sheet(sheet))
    return 0


def _exchanges(p: ParSheet) -> str:
    """Game 4: the share of rounds with an exchange, and what exchanging adds to never doing so."""
    x = p.exchanges
    return f"{float(x.rate_at(1)):.2%} / {float(x.cost_of_never_exchanging):+.2%}" if x else "-"


def run_report(args: argparse.Namespace) -> int:
    table = Table(title="Every preset under its best strategy (exact, every deal enumerated)")
    for column in (
        "variant",
        "house edge",
        "return to player",
        "element of risk",
        "std dev",
        "raise rate",
        "exchanged / worth",
        "side bets (always settled)",
    ):
        table.add_column(column, justify="left" if column == "variant" else "right")
    notes = []
    for name in list_variants():
        with progress_bar(f"enumerating every {name} deal") as progress:
            p = analyze(load_variant(name), progress=progress)
        sides = ", ".join(f"{b.name} {float(b.rtp('always settled')):.2%}" for b in p.side_bets) or "-"
        table.add_row(
            name,
            f"{float(p.house_edge):.4%}",
            f"{float(p.rtp):.4%}",
            f"{float(p.element_of_risk):.4%}",
            f"{p.std_dev:.4f}",
            f"{float(p.p_raise):.2%}",
            _exchanges(p),
            sides,
        )
        notes += warnings(p)
    console = Console(width=max(Console().width, 140))  # one line per preset, even in a pipe
    console.print(table)
    for note in notes:
        console.print(note)
    return 0
