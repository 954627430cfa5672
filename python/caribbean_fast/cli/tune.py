"""``caribbean-fast tune VARIANT --target-rtp 98.5% --adjust raise:royal-flush,...``: the paytable
designer (`analysis.tune`), its candidates as a table, the chosen paytable written as TOML."""

from __future__ import annotations

import argparse
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..analysis.cache import cache_dir
from ..analysis.resettle import counted
from ..analysis.tune import MOST_SETTLES, Candidate, TuneResult, compare, parse_target, tune
from ..errors import ArgumentError
from ..variants import Variant, load_variant
from ..variants.toml_io import parse_money, to_toml
from .progress import progress_bar


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    t = commands.add_parser(
        "tune",
        help="solve named paytable entries for a target return, exactly",
        description=(
            "Finds the values of the named paytable entries that bring the return to player to the "
            "target under the best strategy, each try an exact re-settle of counts already made "
            f"(kept in {cache_dir()}; delete the folder to count again)."
        ),
    )
    t.add_argument("variant", metavar="NAME_OR_PATH")
    t.add_argument("--target-rtp", required=True, type=_percent, help="e.g. 98.5%% (or 0.985)")
    t.add_argument("--adjust", required=True, help="entries bet:hand, comma-separated, e.g. raise:royal-flush")
    t.add_argument("--step", type=Fraction, default=Fraction(1), help="the unit of a payout: 1 (default) or 1/2")
    t.add_argument(
        "--bound", action="append", default=[], metavar="ENTRY=LOW..HIGH", help="e.g. raise:royal-flush=100..500"
    )
    t.add_argument("--std-dev", metavar="LOW..HIGH", help="a range for the standard deviation, in antes")
    t.add_argument("--name", help="the tuned variant's name (default: NAME-tuned)")
    t.add_argument("--out", type=Path, help="write the chosen paytable as a variant TOML file here")
    t.add_argument("--meter", help="the progressive's meter its prizes are solved at (default: the reset)")
    t.add_argument(
        "--allow-player-edge",
        action="store_true",
        help="accept a paytable that gives the player the edge (refused by default; warned of always)",
    )
    t.add_argument(
        "--most-settles",
        type=int,
        default=MOST_SETTLES,
        help=(
            f"the search's budget in re-settles (default {MOST_SETTLES}; the exact models' work counted "
            "alike); past it the answer says unproven"
        ),
    )
    t.set_defaults(run=run_tune)
    c = commands.add_parser("compare", help="two paytables side by side, with their exact figures")
    c.add_argument("first", metavar="NAME_OR_PATH")
    c.add_argument("second", metavar="NAME_OR_PATH")
    c.set_defaults(run=run_compare)


def _percent(text: str) -> Fraction:
    try:
        return parse_target(text)
    except ArgumentError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _range(text: str, what: str) -> tuple[Fraction, Fraction]:
    low, sep, high = text.partition("..")
    try:
        if not sep:
            raise ValueError
        return Fraction(low), Fraction(high)
    except (ValueError, ZeroDivisionError):
        raise ArgumentError(f"{what}: {text!r} is not LOW..HIGH") from None


def _checked_out(args: argparse.Namespace, variant: Variant) -> str:
    """The tuned variant's name and the file it goes to, checked before the search: a bad name or
    a folder that is not there is refused at once, not after minutes of search."""
    name = args.name or f"{variant.name}-tuned"
    replace(variant, name=name)  # the model checks the name (VariantError names it)
    if args.out is not None:
        if args.out.is_dir():
            raise ArgumentError(f"out: {args.out} is a folder; give a file name such as {args.out / name}.toml")
        if not args.out.parent.is_dir():
            raise ArgumentError(f"out: the folder {args.out.parent} does not exist")
    return name


def run_tune(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant)
    name = _checked_out(args, variant)
    bounds = {}
    for text in args.bound:
        entry, _, span = text.partition("=")
        bounds[entry] = _range(span, f"bound {entry}")
    std = _range(args.std_dev, "std-dev") if args.std_dev else None
    with progress_bar(f"tuning {variant.name}") as progress:
        result = tune(
            variant,
            args.target_rtp,
            [a.strip() for a in args.adjust.split(",") if a.strip()],
            step=args.step,
            bounds=bounds,
            std_range=(float(std[0]), float(std[1])) if std else None,
            meter=parse_money(args.meter, "meter", variant.currency) if args.meter else None,
            allow_player_edge=args.allow_player_edge,
            most_settles=args.most_settles,
            progress=progress,
        )
    console = Console(width=max(Console().width, 132))
    console.print(_table(result, variant.bet_words.bet))
    for line in (result.note, *result.warnings):
        if line:
            console.print(line)
    console.print(_proof(result))
    chosen = result.chosen
    console.print(f"chosen: {_values(result, chosen)}: return {chosen.rtp} = {float(chosen.rtp):.6%} exactly")
    progressive = chosen.variant.progressive
    if progressive is not None and any(e.kind == "progressive" for e in result.entries):
        even = analyze_progressive_break_even(chosen)
        at = variant.currency.format(even) if even is not None else "no meter"
        console.print(f"the progressive returns 100% at a meter of {at}")
    if args.out:
        args.out.write_text(to_toml(replace(chosen.variant, name=name)))
        console.print(f"written: {args.out} (caribbean-fast analyze {args.out} confirms it)")
    return 0


def analyze_progressive_break_even(chosen: Candidate) -> int | None:
    """The meter at which the chosen paytable's progressive returns 100% to the player."""
    counts = counted(chosen.variant)
    return counts.progressive(chosen.variant, counts.main(chosen.variant)[1]).break_even_meter


def run_compare(args: argparse.Namespace) -> int:
    first, second = load_variant(args.first), load_variant(args.second)
    table = Table(title="Two paytables, row by row (figures exact, under each one's best strategy)")
    for column in ("", first.name, second.name):
        table.add_column(column, justify="left" if not column else "right")
    for row in compare(first, second):
        table.add_row(*row, style="bold" if row[1] != row[2] else None)
    Console(width=max(Console().width, 100)).print(table)
    return 0


def _proof(result: TuneResult) -> str:
    """Whether the chosen paytable is proven the nearest, in words."""
    if result.proven:
        return (
            f"proven: the nearest allowed paytable at or above the target among all {result.grid_size:,} "
            f"on the grid ({result.tries:,} re-settled, the rest bounded exactly)"
        )
    bound = f"{float(result.bound):.6%}" if result.bound is not None else "the target"
    return (
        f"NOT proven within the budget of {result.settles:,} re-settles (the search's work, the "
        "exact models' counted alike): an allowed paytable not seen may "
        f"return from the target to {bound}; raise --most-settles to search further"
    )


def _values(result: TuneResult, c: Candidate) -> str:
    return ", ".join(f"{e.name} {v}" for e, v in zip(result.entries, c.values, strict=True))


def _table(result: TuneResult, bet: str) -> Table:
    table = Table(
        title=f"Paytables nearest a return of {float(result.target):.4%} ({result.tries} re-settled, each exact)"
    )
    table.add_column("")
    for column in (*(e.name.replace(":", "\n") for e in result.entries), "return", "house edge", "element\nof risk"):
        table.add_column(column, justify="right")
    table.add_column("std dev", justify="right")
    table.add_column(f"{bet} rate", justify="right")
    table.add_column("hit freq.", justify="right")
    rows = [("below", c) for c in reversed(result.below)] + [("above", c) for c in result.above]
    for side, c in rows:
        mark = "chosen" if c is result.chosen else side
        table.add_row(
            mark,
            *(str(v) for v in c.values),
            f"{float(c.rtp):.6%}",
            f"{float(c.house_edge):.4%}",
            f"{float(c.element_of_risk):.4%}",
            f"{c.std_dev:.4f}",
            f"{float(c.raise_rate):.2%}",
            f"{float(c.hit_frequency):.2%}",
        )
    return table
