"""``caribbean-fast play NAME_OR_PATH``: sit at a full-screen terminal table (Textual)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..analysis.advice import Advisor
from ..engine import SqliteStore, Table, restore
from ..engine.autoplay import STRATEGIES
from ..errors import CaribbeanFastError
from ..play import PlaySession
from ..variants import load_variant


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("play", help="play a table in the terminal, with the seed's keys")
    p.add_argument("variant", metavar="NAME_OR_PATH")
    p.add_argument("--balance", type=float, default=1000.0, help="the opening balance, in the currency (1000)")
    p.add_argument("--seats", type=int, default=1, help="seats at the table; you are seat 0, the rest play --others")
    p.add_argument("--seed", type=int, default=None, help="seeded decks (default: the secrets module)")
    p.add_argument("--store", type=Path, default=None, help="record the session; start again to restore it")
    p.add_argument("--others", choices=sorted(STRATEGIES), default="simple")
    p.add_argument("--trainer", action="store_true", help="the best choice and its value before each decision")
    p.set_defaults(run=run)


def open_table(args: argparse.Namespace) -> Table:
    """A new table with its deposits, or the one recorded in --store."""
    if args.store is not None and args.store.exists():
        return restore(SqliteStore(args.store))
    variant = load_variant(args.variant)
    Table.check_config(variant, args.seats)
    store = SqliteStore(args.store) if args.store is not None else None
    table = Table(variant, seats=args.seats, seed=args.seed, store=store)
    deposit = round(args.balance * variant.currency.minor_per_major)
    for seat in range(table.seats):
        table.deposit(seat, deposit)
    return table


def run(args: argparse.Namespace) -> int:
    try:
        from ..play.app import PlayApp
    except ImportError:
        raise CaribbeanFastError("the terminal table needs Textual: pip install 'caribbean-fast[play]'") from None
    table = open_table(args)
    if args.trainer:
        print("The trainer reads the exact tables: a few seconds for stud, about half a minute for hold'em...")
    advisor = Advisor(table.variant) if args.trainer else None
    report = PlayApp(PlaySession(table, others=args.others, advisor=advisor)).run()
    if report:
        print(report)
    return 0
