"""``caribbean-fast table run|audit|history``: tables played by a strategy into a store, the audit
of a store, and a seat's game recall."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

from ..engine import SqliteStore, Table, audit, restore
from ..engine.autoplay import STRATEGIES, play_round
from ..engine.history import describe_step, seat_history
from ..engine.replay import table_config
from ..errors import CaribbeanFastError
from ..variants import load_variant


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("table", help="run a recorded table, audit a record, recall a seat's rounds")
    jobs = p.add_subparsers(dest="job", required=True)
    run_p = jobs.add_parser("run", help="seats played by a strategy, every event written to the store")
    run_p.add_argument("variant", metavar="NAME_OR_PATH")
    run_p.add_argument("--store", required=True, type=Path, help="the SQLite record (created, or resumed)")
    run_p.add_argument("--seats", type=int, default=1)
    run_p.add_argument("--rounds", type=int, default=100, help="settled rounds the table should reach")
    run_p.add_argument("--seed", type=int, default=None, help="seeded decks (default: the secrets module)")
    run_p.add_argument("--resume", action="store_true", help="continue the table in --store")
    run_p.add_argument("--strategy", choices=sorted(STRATEGIES), default=None, help="simple (default), always, best")
    run_p.add_argument("--balance", type=int, default=None, help="each seat's deposit, minor units (200 antes)")
    run_p.add_argument("--ante", type=int, default=None, help="minor units (default: the table minimum)")
    run_p.add_argument("--progressive", action="store_true", help="every seat also bets the progressive")
    run_p.set_defaults(run=run)
    audit_p = jobs.add_parser("audit", help="replay every round of a record; exit 1 naming the first that fails")
    audit_p.add_argument("store", type=Path)
    audit_p.set_defaults(run=run_audit)
    hist = jobs.add_parser("history", help="a seat's last rounds, every step")
    hist.add_argument("store", type=Path)
    hist.add_argument("--seat", type=int, default=0)
    hist.add_argument("--last", type=int, default=10)
    hist.set_defaults(run=run_history)


def _existing(path: Path) -> SqliteStore:
    if not path.exists():
        raise CaribbeanFastError(f"{path}: no such record")
    return SqliteStore(path)


def _play_options(args: argparse.Namespace, store: SqliteStore, resumed: bool) -> None:
    """A resumed run plays as it was started unless told otherwise: the options live in the store."""
    saved = json.loads(store.read_meta().get("run", "{}")) if resumed else {}
    args.strategy = args.strategy or saved.get("strategy", "simple")
    args.ante = args.ante or saved.get("ante")
    args.progressive = args.progressive or saved.get("progressive", False)
    store.write_meta(
        {"run": json.dumps({"strategy": args.strategy, "ante": args.ante, "progressive": args.progressive})}
    )


def _open(args: argparse.Namespace) -> tuple[Table, int]:
    """The table and the number of rounds it had settled already."""
    if args.resume:
        store = _existing(args.store)
        _play_options(args, store, resumed=True)
        table = restore(store)
    else:
        if args.store.exists():
            raise CaribbeanFastError(f"{args.store} exists: pass --resume to continue it, or choose a new file")
        variant = load_variant(args.variant)
        Table.check_config(variant, args.seats)
        table = Table(variant, seats=args.seats, seed=args.seed, store=SqliteStore(args.store))
        assert isinstance(table.store, SqliteStore)
        _play_options(args, table.store, resumed=False)
        deposit = args.balance or 200 * (args.ante or table.limits.minimum)
        for seat in range(table.seats):
            table.deposit(seat, deposit)
    settled = sum(1 for e in table.events if e.kind == "round_closed" and not e.public["void"])
    return table, settled


def run(args: argparse.Namespace) -> int:
    table, settled = _open(args)
    ante = args.ante or table.limits.minimum
    start, before = time.perf_counter(), settled
    while settled < args.rounds and play_round(table, args.strategy, ante, args.progressive):
        settled += table.events[-1].kind == "round_closed" and not table.events[-1].public["void"]
    seconds = time.perf_counter() - start
    fmt = table.variant.currency.format
    out = RichTable(title=f"{table.variant.title}: {settled} rounds settled", show_header=False)
    for seat in range(table.seats):
        out.add_row(f"seat {seat}", fmt(table.balance(seat)))
    out.add_row("house", fmt(table.house))
    out.add_row("meter", fmt(table.meter))
    out.add_row(
        "this run", f"{settled - before} rounds in {seconds:.2f} s ({(settled - before) / max(seconds, 1e-9):,.0f}/s)"
    )
    Console().print(out)
    return 0 if settled >= args.rounds else 1


def run_audit(args: argparse.Namespace) -> int:
    report = audit(_existing(args.store))
    print(report.summary())
    return 0 if report.ok else 1


def run_history(args: argparse.Namespace) -> int:
    store = _existing(args.store)
    events = [row.event for row in store.rows()]
    config = table_config(store.read_meta())
    currency, seats = config["variant"].currency, config["seats"]
    if not 0 <= args.seat < seats:
        raise CaribbeanFastError(f"no seat {args.seat}: the table has seats 0 to {seats - 1}")
    for steps in seat_history(events, args.seat, args.last):
        print(f"--- round {steps[0]['round']} ({steps[0]['time']})")
        for step in steps:
            if (text := describe_step(step, currency)) is not None:
                print("   " + text)
    return 0
