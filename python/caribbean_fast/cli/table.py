"""``caribbean-fast table run|audit|history``: tables played by a strategy into a store, the audit
of a store, and a seat's game recall."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from ..engine import AuditError, Table, audit, restore
from ..engine.autoplay import play_round
from ..engine.history import seat_history
from ..engine.replay import verified
from ..errors import ArgumentError
from ..seat_strategies import NAMES, seat_strategy
from ..variants import Variant, load_variant
from ..words.history import describe_step
from .arguments import seed
from .progress import progress_bar
from .records import continued, new_record, read_record, refuse_differences


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("table", help="run a recorded table, audit a record, recall a seat's rounds")
    jobs = p.add_subparsers(dest="job", required=True)
    run_p = jobs.add_parser("run", help="seats played by a strategy, every event written to the store")
    run_p.add_argument("variant", metavar="NAME_OR_PATH")
    run_p.add_argument("--store", required=True, type=Path, help="the SQLite record (new; continued with --resume)")
    run_p.add_argument("--seats", type=int, default=None, help="seats at the table (1)")
    run_p.add_argument("--rounds", type=int, default=100, help="settled rounds the table should reach")
    run_p.add_argument("--seed", type=seed, default=None, help="seeded decks (default: the secrets module)")
    run_p.add_argument("--resume", action="store_true", help="continue --store; options given must match it")
    run_p.add_argument("--strategy", choices=NAMES, default=None, help="simple (default), always, best")
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


def _positive(args: argparse.Namespace) -> None:
    for option in ("seats", "balance", "ante"):
        value = getattr(args, option)
        if value is not None and value <= 0:
            raise ArgumentError(f"--{option} must be positive, not {value}")
    if args.rounds < 0:
        raise ArgumentError(f"--rounds must be 0 or more, not {args.rounds}")


def _asked(args: argparse.Namespace) -> dict[str, Any]:
    names = ("seats", "seed", "balance", "ante", "strategy")
    return {f"--{k}": getattr(args, k) for k in names} | {"--progressive": args.progressive or None}


def _resumed(args: argparse.Namespace, variant: Variant) -> Table:
    """The recorded table, after refusing any option that differs from its record; the options
    not given are the record's."""
    store = continued(args.store)
    try:
        recorded = refuse_differences(store, variant, _asked(args))
        for option in ("balance", "ante", "strategy", "progressive"):
            if getattr(args, option) in (None, False):
                setattr(args, option, recorded.get(f"--{option}"))
        args.strategy, args.progressive = args.strategy or "simple", bool(args.progressive)
        return restore(store)
    except BaseException:
        store.close()
        raise


def _started(args: argparse.Namespace, variant: Variant) -> Table:
    """A new table, its options and deposits recorded; no file is left if any of it fails."""
    seats = 1 if args.seats is None else args.seats
    Table.check_config(variant, seats)
    with new_record(args.store) as store:
        table = Table(variant, seats=seats, seed=args.seed, store=store)
        args.strategy = args.strategy or "simple"
        args.balance = args.balance or 200 * _played_ante(args, table)
        options = {k: getattr(args, k) for k in ("strategy", "ante", "progressive", "balance")}
        store.write_meta({"run": json.dumps(options)})
        for seat in range(table.seats):
            table.deposit(seat, args.balance)
    return table


def _played_ante(args: argparse.Namespace, table: Table) -> int:
    """The ante every round stakes: --ante (default the minimum) as the table's limits make it
    (`Limits.adjust`, the rule the engine applies to each ante); refused if the rules refuse it."""
    asked, lim, fmt = args.ante or table.limits.minimum, table.limits, table.variant.currency.format
    ante = lim.adjust(asked)
    if ante is None:
        raise ArgumentError(
            f"--ante {fmt(asked)} is outside the table's limits {fmt(lim.minimum)} to {fmt(lim.maximum)}"
        )
    return ante


def _open(args: argparse.Namespace) -> tuple[Table, int]:
    """The table and the number of rounds it had settled already."""
    _positive(args)
    variant = load_variant(args.variant)
    table = _resumed(args, variant) if args.resume else _started(args, variant)
    settled = sum(1 for e in table.recorded() if e.kind == "round_closed" and not e.public["void"])
    return table, settled


def run(args: argparse.Namespace) -> int:
    table, settled = _open(args)
    try:
        return _play(args, table, settled)
    finally:
        assert table.store is not None
        table.store.close()


def _play(args: argparse.Namespace, table: Table, settled: int) -> int:
    ante, fmt = _played_ante(args, table), table.variant.currency.format
    if args.ante is not None and ante != args.ante:
        print(f"--ante {fmt(args.ante)} is outside the limits: the rules make it {fmt(ante)}")
    with progress_bar(f"enumerating every {table.variant.name} deal") as progress:
        strategy = seat_strategy(args.strategy, table.variant, progress)
    start, before = time.perf_counter(), settled
    while settled < args.rounds and play_round(table, strategy, ante, args.progressive):
        settled += table.events[-1].kind == "round_closed" and not table.events[-1].public["void"]
    seconds = time.perf_counter() - start
    out = RichTable(title=f"{table.variant.title}: {settled} rounds settled", show_header=False)
    for seat in range(table.seats):
        out.add_row(f"seat {seat}", fmt(table.balance(seat)))
    out.add_row("house", fmt(table.house))
    out.add_row("meter", fmt(table.meter))
    out.add_row(
        "this run", f"{settled - before} rounds in {seconds:.2f} s ({(settled - before) / max(seconds, 1e-9):,.0f}/s)"
    )
    Console().print(out)
    if settled < args.rounds:  # play_round stopped: no seat could place the ante
        print(
            f"caribbean-fast: stopped at {settled} of {args.rounds} rounds: no seat can cover an ante of {fmt(ante)}",
            file=sys.stderr,
        )
        return 1
    return 0


def run_audit(args: argparse.Namespace) -> int:
    with read_record(args.store) as store:
        report = audit(store)
    print(report.summary())
    return 0 if report.ok else 1


def run_history(args: argparse.Namespace) -> int:
    """Prints only a record that passes the audit: its events are then what the table wrote."""
    with read_record(args.store) as store:
        try:
            table, events = verified(store)
        except AuditError as err:
            raise AuditError(None, f"{args.store} fails the audit, so its history is not shown: {err}") from None
    if not 0 <= args.seat < table.seats:
        raise ArgumentError(f"no seat {args.seat}: the table has seats 0 to {table.seats - 1}")
    print(f"record checked: {len(events)} events, every row hash, seed and round replayed")
    for steps in seat_history(events, args.seat, args.last):
        print(f"--- round {steps[0]['round']} ({steps[0]['time']})")
        for step in steps:
            if (text := describe_step(step, table.variant)) is not None:
                print("   " + text)
    return 0
