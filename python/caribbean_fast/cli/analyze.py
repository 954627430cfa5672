"""``caribbean-fast analyze NAME_OR_PATH`` and ``caribbean-fast report``: exact par sheets."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..analysis import TIES, ParSheet, analyze
from ..analysis.cache import cache_dir
from ..analysis.distribution import NetDistribution, volatility_index
from ..analysis.document import DEFAULT_ROUNDS_PER_HOUR, Assumptions, par_document
from ..analysis.markdown import document_markdown
from ..analysis.render import document_dict, render_document
from ..analysis.wording import warnings
from ..errors import ArgumentError
from ..variants import list_variants, load_variant
from ..variants.toml_io import parse_money
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
    a.add_argument(
        "--ties",
        choices=TIES,
        default="raise",
        help="where raising (calling) is worth exactly what folding is: raise (default, as the tables play) or fold",
    )
    a.add_argument("--format", choices=("text", "json", "markdown", "xlsx", "pdf"), default="text")
    a.add_argument("--out", type=Path, help="the file to write (needed for xlsx and pdf)")
    a.add_argument(
        "--rounds-per-hour",
        type=int,
        default=DEFAULT_ROUNDS_PER_HOUR,
        help=f"assumed rounds a seat plays an hour (default {DEFAULT_ROUNDS_PER_HOUR})",
    )
    a.add_argument("--seats", type=int, help="assumed seats playing at a table (default: every seat)")
    a.add_argument("--ante", help="assumed average ante, in the variant's currency (default: the lowest minimum)")
    a.set_defaults(run=run_analyze)
    r = commands.add_parser("report", help="every preset's house edge, return to player and volatility")
    r.set_defaults(run=run_report)


def run_analyze(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant)
    out = _checked_out(args.format, args.out)
    ante = None if args.ante is None else parse_money(args.ante, "--ante", variant.currency)
    assumptions = Assumptions(args.rounds_per_hour, args.seats, ante).checked(variant)
    with progress_bar(f"enumerating every {variant.name} deal") as progress:
        document = par_document(variant, args.strategy, ties=args.ties, assumptions=assumptions, progress=progress)
    if out is not None:
        from ..analysis.export import write_document  # the export libraries are an optional extra

        path = write_document(document, out, args.format)
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    elif args.format == "json":
        print(json.dumps(document_dict(document), indent=2))
    elif args.format == "markdown":
        print(document_markdown(document), end="")
    else:
        Console(width=max(Console().width, 132)).print(render_document(document))
    return 0


def _checked_out(form: str, out: Path | None) -> Path | None:
    """The file to write, checked before any work: xlsx and pdf need one, in a folder that exists."""
    if form in ("xlsx", "pdf"):
        if out is None:
            raise ArgumentError(f"--format {form} needs --out FILE.{form}")
        if out.suffix.lower() != f".{form}":
            raise ArgumentError(f"--out {out}: a {form} file must end in .{form}")
        if not out.parent.is_dir():
            raise ArgumentError(f"--out {out}: the folder {out.parent} does not exist")
        return out
    if out is not None:
        raise ArgumentError(f"--out is for --format xlsx or pdf; {form} is printed")
    return None


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
        "volatility index",
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
            f"{volatility_index(NetDistribution.of((e.net, e.combinations) for e in p.events)):.4f}",
            f"{float(p.p_raise):.2%}",
            _exchanges(p),
            sides,
        )
        notes += warnings(p)
    console = Console(width=max(Console().width, 160))  # one line per preset, even in a pipe
    console.print(table)
    for note in notes:
        console.print(note)
    return 0
