"""A seated player's commands beside anonymous readers of every public endpoint: public reads
must never stall a table, however old the table they read. With `--office`, the readers are
logged-in operators polling the office's figures and reports instead (issue 50: reading the
office never slows the tables).

    python benches/server_readers.py [--office] [--rows 30000] [--readers 20] [--addresses 20] [--seconds 10]
        [--rounds 5]

Before the server starts, the engine plays `cyberstud-2` straight into a SQLite database (the
progressive staked every round, a row a command as the server writes them, the progressive's
summary beside them as its commits write it) until its record holds `--rows` rows. One
`caribbean-fast serve` process then serves it and `cyberstud-1`, where a player (from 127.0.0.1)
plays ante, deal, fold at `--pace` commands a second and times each answer. The readers, in a
process of their own, are `--readers` clients (from `--addresses` addresses: the front door
paces each apart) each asking every public endpoint in turn (the old table's progressive history
among them, and a token that opens no session), one request after another on a kept-alive
connection as fast as the answers come. Phases without and with
the readers are taken in turn (off, on, off, on, ...: `--rounds` of each), so the host's drift
touches both alike; it prints one JSON object: the record's rows, the load average, each phase's
p50 and p99, the server's CPU share and the readers' requests (and their own CPU a request),
the p99 of every command without the readers and of every command beside them, and their ratio
(the goal: at most 1.5). On a shared host one phase's p99 (its third slowest of some 200
commands) swings with the host: the p99 over every phase of a kind is steadier.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from server_chaos import Serve, healthy, tables_file
from server_front_door import _answer, _ms, player
from websockets.asyncio.client import connect

from caribbean_fast.engine import Table
from caribbean_fast.server.accounts import hash_password
from caribbean_fast.server.office.auth import COOKIE
from caribbean_fast.server.office.totp import STEP, code_at, new_secret
from caribbean_fast.server.store import figures as counters
from caribbean_fast.server.store import operators
from caribbean_fast.server.store.db import Database, Tx
from caribbean_fast.server.store.db import connect as open_database
from caribbean_fast.server.store.jackpots import open_summary
from caribbean_fast.server.store.record import INSERT, TableRecord
from caribbean_fast.variants import Variant, load_variant

OLD = "cyberstud-2"
"""The table whose record is built before the server starts."""
ENDPOINTS = (
    f"/api/progressive/{OLD}",
    "/api/progressive/cyberstud-1",
    f"/api/rules/{OLD}",
    "/api/lobby",
    "/api/me",
    "/healthz",
    "/metrics",
    "/",
    "/play/cyberstud",
    f"/progressive/{OLD}",
    f"/rules/{OLD}",
    f"/history/{OLD}",
    "/progressive",
    "/limit",
    "/static/js/progressive.js",
    "/favicon.ico",
)
"""Every public endpoint (no login), as a reader asks them in turn."""
OFFICE = (
    "/office/api/figures",
    "/office/api/report?first={month}&last={today}",
    "/office/api/report",
    "/office/api/figures",
)
"""The office's readers' polling (`--office`), in turn: the Figures screen (each table's, game's
and pool's lines, a chart per table, the alarms) and the Reports screen (a month, and today)."""
PASSWORD = "bench operator password"


def source(k: int, addresses: int) -> str:
    """Reader `k`'s address, one of `addresses` from 127.0.0.2 (the player's is 127.0.0.1): the front
    door paces each address apart."""
    return f"127.0.0.{2 + k % addresses}"


BOGUS = "Authorization: Bearer not-a-session-token\r\n"  # every other request: a token is looked up


def build_record(
    url: str, table_id: str, rows: int, start: datetime | None = None, variant: Variant | None = None
) -> int:
    """Plays a one-seat table of `variant` (cyberstud by default) on the engine straight into the
    database until its record holds `rows` rows (a row a command, as the server writes them; its
    summary beside them), its events 0.2 s apart from `start` (default: `rows` seconds ago); the
    seat's money taken off at the end, as a player's leave would. Returns the rows written."""
    variant, seats = variant or load_variant("cyberstud"), 1
    at = [start or datetime.now(UTC) - timedelta(seconds=rows)]

    def clock() -> datetime:
        at[0] += timedelta(milliseconds=200)
        return at[0]

    db = Database(open_database(url))
    record = TableRecord(table_id)
    record.figures = counters.FiguresSummary(table_id, variant)  # the office's counters, as an owner keeps them
    accounts = [f"{table_id}:{k}" for k in range(seats)]
    table = Table(variant, seats=seats, seed=7, store=record, accounts=accounts, clock=clock)
    db.run_now(lambda tx: setattr(record, "summary", open_summary(tx, record, table.meter, variant)))
    for seat in range(seats):
        table.deposit(seat, 10**9)
    ante = table.limits.minimum
    steps: list[Callable[[], object]] = [
        *(partial(table.ante, k, ante) for k in range(seats)),
        *(partial(table.progressive, k) for k in range(seats)),
        table.deal,
        *(partial(table.raise_ if k % 2 else table.fold, k) for k in range(seats)),
    ]
    written, pending = 0, []
    while written < rows:
        for step in steps:
            step()
            writes = record.take()  # a row a command, as the server's commits write them
            written += sum(len(r) for sql, r in writes if sql == INSERT)
            pending += writes
        if len(pending) > 20_000:
            _write(db, pending)
            pending = []
    for seat in range(seats):
        table.withdraw(seat, table.balance(seat))
    _write(db, [*pending, *record.take()])
    db.dialect.close()
    return written + 1  # the withdrawals' row


def _write(db: Database, writes: list[tuple[str, list[tuple[Any, ...]]]]) -> None:
    def job(tx: Tx) -> None:
        for sql, rows in writes:
            if rows:
                tx.many(sql, rows)

    db.run_now(job)


# ---- the readers -------------------------------------------------------------------------------------


async def _answer_of(stream: asyncio.StreamReader) -> int:
    """Reads one HTTP/1.1 answer whole (its body by its Content-Length); its status."""
    head = (await stream.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
    if "transfer-encoding: chunked" in head:
        raise RuntimeError(f"a chunked answer: {head.splitlines()[0]}")
    length = next((int(line.split(":")[1]) for line in head.splitlines() if line.startswith("content-length:")), 0)
    await stream.readexactly(length)
    return int(head.split(" ", 2)[1])


def add_operators(url: str, n: int) -> list[tuple[str, str]]:
    """`n` operators in the database, as the command line makes them: (name, TOTP secret)."""
    made, hashed, now = [(f"bench-{k}", new_secret()) for k in range(n)], hash_password(PASSWORD), datetime.now(UTC)
    db = Database(open_database(url))
    for name, secret in made:
        db.run_now(
            partial(
                operators.insert_operator,
                name=name,
                role="operator",
                hashed=hashed,
                secret=secret,
                created=now.isoformat(),
            )
        )
    db.dialect.close()
    return made


def office_cookies(http: str, made: list[tuple[str, str]]) -> list[str]:
    """Each operator logged in once (its code used once): the session cookies' headers."""
    found = []
    for name, secret in made:
        body = {"name": name, "password": PASSWORD, "code": code_at(secret, int(time.time()) // STEP)}
        answer = httpx.post(f"{http}/office/api/login", json=body, timeout=60)
        answer.raise_for_status()
        found.append(f"Cookie: {COOKIE}={answer.cookies[COOKIE]}\r\n")
    return found


def office_paths() -> tuple[str, ...]:
    today = datetime.now(UTC).date()
    return tuple(p.format(month=today - timedelta(days=30), today=today) for p in OFFICE)


async def _reader(
    http: str, stop: float, counts: dict[str, int], k: int, address: str, cookie: str | None = None
) -> None:
    """One client asking the endpoints in turn on one kept-alive connection from `address`. Plain
    HTTP/1.1 on a socket: an HTTP library's own CPU (httpx's was several times the server's a
    request) would be taken from the cores the server and the player share, as readers on other
    hosts never do; the readers' CPU a request is printed beside the server's share."""
    host, port = http.removeprefix("http://").rsplit(":", 1)
    stream, writer = await asyncio.open_connection(host, int(port), local_addr=(address, 0))
    try:
        turn, paths = k, ENDPOINTS if cookie is None else office_paths()
        while time.monotonic() < stop:
            path = paths[turn % len(paths)]
            token = cookie if cookie is not None else BOGUS if turn % 2 else ""
            turn += 1
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{token}\r\n".encode())
            status = await _answer_of(stream)
            counts["requests"] += 1
            if status >= 500 or status == 429:
                counts["refused"] += 1
            elif cookie is not None and status != 200:  # an operator's read refused: the bench is wrong
                counts["not_ok"] += 1
    finally:
        writer.close()


def readers(http: str, n: int, addresses: int, seconds: float, out: Any, cookies: list[str] | None = None) -> None:
    """The readers' process: `n` clients from `addresses` addresses for `seconds` (with `cookies`,
    operators in the office, one session each); puts its counts in `out`, and its own CPU time a
    request."""
    counts: dict[str, Any] = {"requests": 0, "refused": 0, "not_ok": 0}

    async def clients() -> None:
        stop = time.monotonic() + seconds
        cookie = (lambda k: cookies[k]) if cookies else (lambda k: None)
        await asyncio.gather(*(_reader(http, stop, counts, k, source(k, addresses), cookie(k)) for k in range(n)))

    cpu = time.process_time()
    asyncio.run(clients())
    counts["cpu_ms_a_request"] = round(1000 * (time.process_time() - cpu) / max(1, counts["requests"]), 3)
    out.put(counts)


# ---- the phases ---------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far, user and system (from /proc: Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def phase(
    server: Serve, token: str, args: argparse.Namespace, reading: bool
) -> tuple[dict[str, Any], list[float]]:
    """One phase of play, with the readers or without: its figures, and each command's seconds."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    crowd_args = (server.http, args.readers, args.addresses, args.seconds + 1.5, out, args.cookies)
    crowd = context.Process(target=readers, args=crowd_args)
    if reading:
        crowd.start()
        await asyncio.sleep(1.0)  # the readers at full speed first
    assert server.process is not None
    cpu, start = cpu_seconds(server.process.pid), time.monotonic()
    took = await player(f"{server.ws}/cyberstud-1", token, args.seconds, args.pace)
    share = (cpu_seconds(server.process.pid) - cpu) / (time.monotonic() - start)
    counts = {}
    if reading:
        counts = await asyncio.to_thread(out.get, True, 60)
        await asyncio.to_thread(crowd.join, 30)
    ordered = sorted(took)
    figures = {"readers": reading, "commands": len(took), "p50_ms": _ms(ordered, 0.5), "p99_ms": _ms(ordered, 0.99)}
    return {**figures, "server_cpu_share": round(share, 3), **counts}, took


async def run(server: Serve, args: argparse.Namespace) -> dict[str, Any]:
    """The phases in turn; the p99 of every command without the readers and of every command
    beside them, each over all its phases, and their ratio."""
    token = str(httpx.post(f"{server.http}/api/guest").json()["token"])
    args.cookies = office_cookies(server.http, args.operators) if args.office else None
    async with connect(f"{server.ws}/cyberstud-1", additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        await ws.recv()
        await ws.send(json.dumps({"v": 1, "id": 1, "type": "sit", "table": "cyberstud-1", "buy_in": 90_000}))
        assert (await _answer(ws, 1))["ok"]
    phases: list[dict[str, Any]] = []
    took: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        for reading in (False, True):
            figures, seconds = await phase(server, token, args, reading)
            phases.append(figures)
            took[reading] += seconds
    alone, read = (_ms(sorted(took[reading]), 0.99) for reading in (False, True))
    return {"phases": phases, "p99_ms_alone": alone, "p99_ms_readers": read, "ratio": round(read / alone, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=30_000, help="rows of the old table's record (default 30,000)")
    parser.add_argument("--readers", type=int, default=20, help="readers of the public endpoints (default 20)")
    parser.add_argument(
        "--addresses", type=int, default=20, help="the readers' addresses, 1 to 200 (default 20: one each)"
    )
    parser.add_argument("--pace", type=float, default=20.0, help="the player's commands a second (default 20)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play a phase (default 10)")
    parser.add_argument("--rounds", type=int, default=5, help="phases without and with readers, in turn (default 5)")
    parser.add_argument("--office", action="store_true", help="the readers: operators polling the office's figures")
    args = parser.parse_args()
    if not 1 <= args.addresses <= 200:
        parser.error(f"--addresses: 1 to 200 (127.0.0.2 onward), not {args.addresses}")
    with tempfile.TemporaryDirectory(prefix="cf-readers-") as tmp:
        folder = Path(tmp)
        database = str(folder / "casino.db")
        start = time.monotonic()
        rows = build_record(database, OLD, args.rows)
        args.operators = add_operators(database, args.readers) if args.office else []
        built = round(time.monotonic() - start, 1)
        server = Serve(database, tables_file(folder, 2), folder / "serve.log")
        try:
            healthy([server], 2, seconds=300)
            answer = httpx.get(f"{server.http}/api/progressive/{OLD}", timeout=60)
            shape = {k: len(v) for k, v in answer.json().items() if isinstance(v, list)}
            result = asyncio.run(run(server, args))
        finally:
            server.stop()
    head = {"rows": rows, "built_seconds": built, "readers": args.readers, "addresses": args.addresses}
    head["endpoints"] = len(OFFICE) if args.office else len(ENDPOINTS)
    head["office"] = args.office
    head["load_average"] = [round(x, 2) for x in os.getloadavg()]  # at the end: the host is shared
    print(json.dumps({**head, "history": shape, **result}, indent=1))


if __name__ == "__main__":
    main()
