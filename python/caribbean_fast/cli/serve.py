"""``caribbean-fast serve``: the game server (needs the `server` extra), and ``caribbean-fast
accounts create|deposit|show`` for its play-money accounts."""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import sys
import time
from pathlib import Path

from ..engine.seats import STAND_AFTER
from ..errors import MissingExtraError
from .arguments import addresses, port, positive, positive_int


def _reminders(args: argparse.Namespace) -> dict[str, int]:
    """The reality check's settings given on the command line (the others keep `Settings`' own)."""
    given = {"reality_check_every": args.reality_check, "reality_check_least": args.reality_check_least}
    return {name: value for name, value in given.items() if value is not None}


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("serve", help="the tables as an online game server (WebSocket, docs/protocol.md)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    p.add_argument("--port", type=port, default=8000, help="the port (default: %(default)s)")
    p.add_argument(
        "--database", default="caribbean-fast.db", help="a SQLite file, or postgresql://... (default: %(default)s)"
    )
    p.add_argument("--tables", default=None, help="a TOML file of tables (default: three of each preset)")
    p.add_argument("--demo", action="store_true", help="visitors may play as guests with play money")
    p.add_argument(
        "--host-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name clients reach the server by, accepted in Host and in a page's Origin: host (at any port) "
        "or host:port; repeatable. Besides these the server answers only to the address a client connected "
        "to, with its port (localhost too on a loopback address), and to --public-url's host; a request "
        "naming another host is refused (HTTP 421): this stops DNS rebinding. Behind a proxy, name the "
        "public host (default: none, those addresses alone)",
    )
    p.add_argument("--origin", action="append", default=[], help="another allowed WebSocket Origin")
    p.add_argument(
        "--grace", type=positive, default=10.0, help="seconds a dropped player keeps playing (default: %(default)s)"
    )
    p.add_argument(
        "--reality-check",
        type=int,
        default=None,
        metavar="SECONDS",
        help="seconds between reality checks for an account that chose none (default: an hour)",
    )
    p.add_argument(
        "--reality-check-least",
        type=int,
        default=None,
        metavar="SECONDS",
        help="the shortest interval between reality checks a player may choose (default: 10 minutes)",
    )
    p.add_argument(
        "--away",
        type=positive,
        default=STAND_AFTER,
        help="seconds a player may be away before, between rounds, the seat is stood up and its money "
        "returned to the wallet (a tables file may set its own per table) (default: %(default)s)",
    )
    p.add_argument(
        "--rate",
        type=positive,
        default=20.0,
        help="frames a second a socket may send (flood limit) (default: %(default)s)",
    )
    p.add_argument(
        "--burst", type=positive, default=50.0, help="frames a socket may send at once (default: %(default)s)"
    )
    _front_door(p)
    p.add_argument(
        "--forwarded-allow-ips",
        type=addresses,
        default=(),
        help="the reverse proxies (IP addresses or networks, comma-separated, or *) whose X-Forwarded-For, "
        "-Proto and -Host name the client's address, scheme and host; ignored from any other peer. * "
        "needs --only-via-proxy (default: none)",
    )
    p.add_argument(
        "--only-via-proxy",
        action="store_true",
        help="no client reaches this server but through its reverse proxy (a firewall or a private network "
        "sees to it): only then may --forwarded-allow-ips be *, since with * a client that reaches the "
        "server directly names its own address in X-Forwarded-For (its limits and the logs follow it)",
    )
    p.add_argument(
        "--public-url", default=None, help="this process's WebSocket URL, for the other processes and the proxy's map"
    )
    p.add_argument("--proxy-map", default=None, metavar="FILE", help="keep this nginx map of each table's process")
    p.add_argument(
        "--proxy-reload", default=None, metavar="COMMAND", help='run after the map changed, e.g. "nginx -s reload"'
    )
    p.add_argument("--log-level", default="info", help="debug, info, warning or error (default: %(default)s)")
    p.set_defaults(run=run_serve)
    m = commands.add_parser(
        "proxy-map", help="write a reverse proxy's map of each table's process from the leases (nginx `map`)"
    )
    m.add_argument("--database", required=True, help="the servers' postgresql://... (or SQLite file)")
    m.add_argument("--out", required=True, metavar="FILE", help="the map file (written whole, when it changed)")
    m.add_argument("--reload", default=None, metavar="COMMAND", help='run after it changed, e.g. "nginx -s reload"')
    m.add_argument("--every", type=positive, default=None, metavar="SECONDS", help="keep it current: look again")
    m.set_defaults(run=run_proxy_map)
    a = commands.add_parser("accounts", help="the server's play-money accounts")
    jobs = a.add_subparsers(dest="job", required=True)
    for job, text in (("create", "a new account"), ("deposit", "play money into a wallet"), ("show", "the wallet")):
        j = jobs.add_parser(job, help=text)
        j.add_argument("name")
        j.add_argument("--database", default="caribbean-fast.db")
        if job == "create":
            j.add_argument("--password", default=None, help="default: asked, or $CARIBBEAN_FAST_PASSWORD")
        if job in ("create", "deposit"):
            j.add_argument("--amount", type=int, default=0 if job == "create" else None, required=job == "deposit")
            j.add_argument(
                "--currency", default=None, help="the wallet's currency code (default: USD, the home currency)"
            )
        j.set_defaults(run=run_accounts)


_FRONT_DOOR: tuple[tuple[str, str, float, str], ...] = (  # flag, Settings field and default, what it bounds
    ("--connections-per-address", "connections_per_address", 64, "open connections from one address"),
    ("--connections", "connections", 4096, "open connections in all; past it only /healthz is answered"),
    ("--handshake-timeout", "handshake", 5.0, "seconds to send a request's head or body, or to finish a handshake"),
    ("--address-rate", "address_rate", 100.0, "frames a second from all the sockets of one address; past it they wait"),
    ("--total-rate", "total_rate", 5000.0, "frames a second from all sockets"),
    ("--read-rate", "read_rate", 400.0, "HTTP requests a second from all addresses; past it they wait"),
    ("--registrations", "registrations", 20, "accounts (guests too) one address may open a minute"),
)
"""The front door's limits (server.gate): the defaults are `Settings`'s, which this module cannot
import without the server extra (tests/server/test_server_ops.py holds them equal)."""


def _front_door(p: argparse.ArgumentParser) -> None:
    door = p.add_argument_group("the front door (limits that keep one client from taking the server)")
    for flag, name, default, what in _FRONT_DOOR:
        kind = positive_int if isinstance(default, int) else positive
        door.add_argument(flag, dest=name, type=kind, default=default, help=f"{what} (default: %(default)s)")


def _need_server() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise MissingExtraError('serving needs the server extra: pip install "caribbean-fast[server]"') from None


def run_serve(args: argparse.Namespace) -> int:
    _need_server()
    import uvicorn

    from ..server import Settings, create_app
    from ..server.config import default_own, default_tables, read_tables
    from ..server.wire.logs import setup
    from ..server.wire.serving import uvicorn_options

    if args.tables:
        tables, own = read_tables(args.tables, args.away)
    else:
        tables, own = default_tables(args.away), default_own(args.away)
    settings = Settings(
        args.database,
        tables,
        args.demo,
        own=own,
        origins=tuple(args.origin),
        host_names=tuple(args.host_name),
        grace=args.grace,
        rate=args.rate,
        burst=args.burst,
        forwarded_allow_ips=args.forwarded_allow_ips,
        only_via_proxy=args.only_via_proxy,
        proxy_map=args.proxy_map,
        proxy_reload=args.proxy_reload,
        endpoint=args.public_url or f"ws://{args.host}:{args.port}/ws",
        tune_process=True,
        warm_trainer=True,
        **{name: getattr(args, name) for _, name, _, _ in _FRONT_DOOR},
        **_reminders(args),
    )
    app = create_app(settings)
    # The process's logging is set only once the server will run: a start refused above (a bad
    # option, a file that is not a server's database) leaves the caller's logging as it was.
    setup(args.log_level)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_config=None,
        timeout_graceful_shutdown=5,
        **uvicorn_options(app),
    )
    return 0


def run_proxy_map(args: argparse.Namespace) -> int:
    """Writes the map once, or (`--every`) keeps it current until stopped; reloads the proxy
    after each change."""
    _need_server()
    from ..server.cluster.proxymap import read_routes, reload, render, write_map
    from ..server.store.db import Database, connect

    db = Database(connect(args.database, create=False))
    try:
        while True:
            try:
                routes = db.run_now(lambda tx: read_routes(tx, db))
            except Exception as err:  # the database is failing: looked again at the next turn
                if args.every is None:
                    raise
                print(f"caribbean-fast: proxy-map: {err}", file=sys.stderr)
                time.sleep(args.every)
                with contextlib.suppress(Exception):  # still down: said again at the next turn
                    db.dialect.reconnect()
                continue
            if write_map(Path(args.out), render(routes)):
                print(f"{args.out}: {len(routes)} tables")
                if args.reload:
                    reload(args.reload)
            if args.every is None:
                return 0
            time.sleep(args.every)
    finally:
        db.dialect.close()


def run_accounts(args: argparse.Namespace) -> int:
    _need_server()
    from ..server.accounts import check_name, create_account, hash_password
    from ..server.store.db import Database, connect
    from ..server.store.wallets import HOME, balances, check_amount, check_currency, grant

    name = check_name(args.name)
    currency = check_currency(getattr(args, "currency", None) or HOME)
    if args.job == "deposit" or getattr(args, "amount", 0):
        check_amount(args.amount)
    db = Database(connect(args.database, create=args.job == "create"))
    try:
        if args.job == "create":
            password = args.password or os.environ.get("CARIBBEAN_FAST_PASSWORD") or getpass.getpass()
            hashed = hash_password(password)
            db.run_now(lambda tx: create_account(tx, name, hashed))
            if args.amount:
                db.run_now(lambda tx: grant(tx, name, currency, args.amount))
        elif args.job == "deposit":
            db.run_now(lambda tx: grant(tx, name, currency, args.amount))
        held = db.run_now(lambda tx: balances(tx, name))
        print(f"{name}: " + (", ".join(f"wallet {n} {c}" for c, n in held.items()) or "no wallet yet"))
    finally:
        db.dialect.close()
    return 0
