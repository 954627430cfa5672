"""``caribbean-fast play NAME_OR_PATH``: sit at a full-screen terminal table (Textual)."""

from __future__ import annotations

import argparse
import getpass
import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..analysis.advice import Advisor
from ..engine import Table, restore
from ..errors import ArgumentError, MissingExtraError
from ..play import PlaySession
from ..seat_strategies import NAMES, seat_strategy
from ..variants import load_variant
from .arguments import positive, seed
from .progress import progress_bar
from .records import continued, new_record, refuse_differences

if TYPE_CHECKING:
    from ..play.remote import RemoteSession


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("play", help="play a table in the terminal, with the seed's keys")
    p.add_argument("variant", metavar="NAME_OR_PATH")
    p.add_argument("--balance", type=positive, default=None, help="the opening balance, in the currency (1000)")
    p.add_argument("--seats", type=int, default=None, help="seats (1); you are seat 1, the rest play --others")
    p.add_argument("--seed", type=seed, default=None, help="seeded decks (default: the secrets module)")
    p.add_argument("--limits", type=int, default=None, help="the game's table of limits, 0 first (0)")
    p.add_argument("--store", type=Path, default=None, help="record the session; start again to restore it")
    p.add_argument("--others", choices=NAMES, default="simple")
    p.add_argument("--trainer", action="store_true", help="the best choice and its value before each decision")
    p.add_argument(
        "--player-seed",
        metavar="TEXT",
        default=None,
        help="your own seed in every deal (default: a new random one each round; none with --seed)",
    )
    p.add_argument("--connect", metavar="URL", default=None, help="play at a server's table (http://host:8000)")
    p.add_argument(
        "--user",
        default=None,
        help="with --connect: the account (password: $CARIBBEAN_FAST_PASSWORD or asked); default a guest",
    )
    p.set_defaults(run=run)


def open_table(args: argparse.Namespace) -> Table:
    """A new table with its deposits, or the one recorded in --store (after refusing any option
    given that differs from the record)."""
    variant = load_variant(args.variant)
    if args.balance is not None and not 0 < args.balance < 1e15:
        raise ArgumentError(f"--balance must be positive, not {args.balance}")
    deposit = None if args.balance is None else round(args.balance * variant.currency.minor_per_major)
    if args.store is not None and args.store.exists():
        store = continued(args.store)
        try:
            asked = {"--seats": args.seats, "--seed": args.seed, "--balance": deposit, "--limits": args.limits}
            refuse_differences(store, variant, asked)
            return restore(store)
        except BaseException:
            store.close()
            raise
    seats = 1 if args.seats is None else args.seats
    limits = 0 if args.limits is None else args.limits
    Table.check_config(variant, seats, limits)
    if args.store is None:
        return _deposited(Table(variant, seats=seats, limits=limits, seed=args.seed), deposit)
    with new_record(args.store) as store:
        return _deposited(Table(variant, seats=seats, limits=limits, seed=args.seed, store=store), deposit)


def _deposited(table: Table, deposit: int | None) -> Table:
    """The table with every seat's deposit, which must cover a round at the minimum ante."""
    deposit = deposit or 1000 * table.variant.currency.minor_per_major
    least = table.limits.minimum + int(table.limits.minimum * table.variant.raise_multiple)
    if deposit < least:
        fmt = table.variant.currency.format
        raise ArgumentError(
            f"--balance {fmt(deposit)} cannot cover the minimum ante and its {table.variant.raise_word} ({fmt(least)})"
        )
    for seat in range(table.seats):
        table.deposit(seat, deposit)
    return table


def remote_session(args: argparse.Namespace) -> RemoteSession:
    """A seat at a table of the game on the server at --connect (the seat already held there, or
    a free one bought into with --balance)."""
    from ..play.remote import RemoteSession, log_in

    local = [name for name in ("--seats", "--seed", "--store") if getattr(args, name[2:]) is not None]
    if local:
        raise ArgumentError(f"{local[0]} is for a table here, not with --connect")
    base = args.connect.rstrip("/")
    if not base.startswith(("http://", "https://")):
        raise ArgumentError(f"--connect takes the server's http:// or https:// address, not {args.connect!r}")
    password = None
    if args.user is not None:
        password = os.environ.get("CARIBBEAN_FAST_PASSWORD") or getpass.getpass(f"password of {args.user}: ")
    variant = load_variant(args.variant)
    buy_in = None if args.balance is None else round(args.balance * variant.currency.minor_per_major)
    token = log_in(base, args.user, password)
    return RemoteSession(base, token, variant.name, buy_in, trainer=args.trainer, limits=args.limits)


def run(args: argparse.Namespace) -> int:
    try:
        from ..play.app import PlayApp
    except ImportError:
        raise MissingExtraError("the terminal table needs Textual: pip install 'caribbean-fast[play]'") from None
    if args.connect is not None:
        session = remote_session(args)
        session.player_seed = args.player_seed
        remote = PlayApp(session)
        try:
            report = remote.run()
        finally:
            session.link.close()
        if report:
            print(report)
        return remote.return_code or 0  # Textual sets 1 when the app crashed
    table = open_table(args)
    if args.trainer:
        print("The trainer reads the exact tables: a few seconds for stud, about half a minute for hold'em...")
    with progress_bar(f"enumerating every {table.variant.name} deal") as progress:
        advisor = Advisor(table.variant, progress) if args.trainer else None
        others = seat_strategy(args.others, table.variant, progress)
    played = PlaySession(table, others=others, advisor=advisor)
    if args.player_seed is not None:
        played.player_seed = args.player_seed
    app = PlayApp(played)
    try:
        report = app.run()
    finally:
        if table.store is not None:
            table.store.close()
    if report:
        print(report)
    return app.return_code or 0  # Textual sets 1 when the app crashed
