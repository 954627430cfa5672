"""Faults injected under play, and what survives them: every `ok` answer's event in the record, the
books to the cent, every record's audit, no money on a seat nobody holds.

    python benches/server_chaos.py [--bots 6] [--hold 6] [--faults disk_full,read_only,...]

Bots play cyberstud tables (one seat each) over WebSocket against `caribbean-fast serve`
processes while each fault is injected for `--hold` seconds, then cleared; the bench waits for
the server to say it is healthy again, plays on, stops, and reads the database from outside.
SQLite's faults: a full filesystem (a loop-mounted ext4 image), the database file made immutable
(`chattr +i`), another process holding the write lock past the busy timeout, kill -9. PostgreSQL's,
with two server processes: the database stopped and started, the servers' connections
terminated (`pg_terminate_backend`), their statements cancelled for the hold
(`pg_cancel_backend`), kill -9. It prints one JSON object. Root is needed for the mount and
chattr; PostgreSQL's binaries for its faults (`apt-get install postgresql`). The test suite runs
one quick case of each (tests/server/test_server_faults.py).

    python benches/server_chaos.py --nginx [--bots 6] [--calm 3]

instead runs two server processes and PostgreSQL behind Debian's nginx (docs/guides/deploy.md):
the bots play at their tables' own sockets through nginx; one process is killed with SIGKILL and
later started again. It reports the commands relayed (none: nginx routes each table's socket by
the map the servers keep), how long the map took to follow the kill, how long the bots of the
killed process's tables took to come back through nginx, how long the restarted process took to
get its share back, and the books.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect
from websockets.sync.connection import Connection

from caribbean_fast.server.store.db import BUSY_MS

BUSY_SECONDS = BUSY_MS / 1000  # SQLite's wait for another process's write lock
SQLITE_FAULTS = ("disk_full", "read_only", "busy", "kill")
PG_FAULTS = ("pg_restart", "pg_terminate", "pg_cancel", "kill")
RECORDED = {"top_up": "deposit"}  # the event a command records, where it has another name
COMMAND_EVENTS = ("sit", "leave", "deposit", "ante", "deal", "raise", "fold")  # the kinds the bots' commands record
BUY_IN, ANTE = 5_000, 100


# ---- the servers -------------------------------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Serve:
    """`caribbean-fast serve` as a process, restartable on the same port (kill -9)."""

    def __init__(self, database: str, tables: Path, log: Path, extra: tuple[str, ...] = (), port: int = 0) -> None:
        self.database, self.tables, self.log, self.port = database, tables, log, port or _free_port()
        self.extra = extra  # more options (behind nginx: the proxy's)
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        command = [sys.executable, "-m", "caribbean_fast.cli", "serve", "--database", self.database]
        command += ["--port", str(self.port), "--tables", str(self.tables), "--demo", "--grace", "0.5", *self.extra]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def health(self) -> tuple[int, dict[str, Any]]:
        try:
            r = httpx.get(f"{self.http}/healthz", timeout=5)
            return r.status_code, r.json()
        except (httpx.HTTPError, ValueError):
            return 0, {}

    def lobby(self) -> list[dict[str, Any]]:
        try:
            entries: list[dict[str, Any]] = httpx.get(f"{self.http}/api/lobby", timeout=5).json()["tables"]
            return entries
        except (httpx.HTTPError, ValueError, KeyError):
            return []

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def relayed(self) -> int:
        """Commands this process relayed to another (`cf_relayed_commands`), since it started."""
        try:
            lines = httpx.get(f"{self.http}/metrics", timeout=5).text.splitlines()
        except httpx.HTTPError:
            return 0
        return sum(int(float(line.rsplit(" ", 1)[1])) for line in lines if line.startswith("cf_relayed_commands_total"))

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()


def healthy(servers: list[Serve], tables: int, seconds: float = 60) -> float:
    """Waits until the processes answer 200 and serve `tables` tables between them; how long."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        answers = [s.health() for s in servers]
        if all(code == 200 for code, _ in answers) and sum(h["tables"] for _, h in answers) == tables:
            return time.monotonic() - start
        time.sleep(0.1)
    raise TimeoutError(f"not healthy with {tables} tables in {seconds} s: {[s.health() for s in servers]}")


# ---- the bots ----------------------------------------------------------------------------------


@dataclass
class Tally:
    """The event kind each `ok` answer records, by table in the order answered, and refusals by
    code; shared by the bots (one a table)."""

    ok: dict[str, list[str]] = field(default_factory=dict)
    refused: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, table: str, kind: str, answer: dict[str, Any]) -> None:
        with self.lock:
            if answer["ok"]:
                self.ok.setdefault(table, []).append(RECORDED.get(kind, kind))
            else:
                self.refused[answer["error"]["code"]] += 1


class Bot(threading.Thread):
    """Plays one table, reconnecting to any live server whenever its socket drops; behind a proxy
    (`entry`), at its table's own socket there, following `moved`."""

    def __init__(
        self, servers: list[Serve], token: str, table: str, tally: Tally, seed: int, entry: str | None = None
    ) -> None:
        super().__init__(daemon=True)
        self.servers, self.token, self.table, self.tally, self.entry = servers, token, table, tally, entry
        self.random, self.halt = random.Random(seed), threading.Event()
        self.ok_at: list[float] = []  # when each `ok` answer came
        self._id = 0

    def _url(self) -> str:
        if self.entry is not None:
            return f"{self.entry}/ws/{self.table}"
        return self.random.choice([s.ws for s in self.servers if s.alive()] or [self.servers[0].ws])

    def run(self) -> None:
        while not self.halt.is_set():
            try:
                url = self._url()
                auth = {"Authorization": f"Bearer {self.token}"}
                # a refused handshake waits 1 s, not 10, for the close: nginx reloading may keep it open
                with connect(url, additional_headers=auth, open_timeout=5, close_timeout=1) as ws:
                    self._play(ws)
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError):
                time.sleep(0.2)

    def _play(self, ws: Connection) -> None:
        welcome = json.loads(ws.recv(10))
        seated = any(s["table"] == self.table for s in welcome.get("seats", ()))
        view: dict[str, Any] = {}
        while not self.halt.is_set():
            kind, args = self._choose(seated, view)
            answer, view = self._command(ws, kind, args, view)
            if answer is None:
                return  # no answer: the socket is gone or stuck
            self.tally.answered(self.table, kind, answer)
            if answer["ok"]:
                self.ok_at.append(time.monotonic())
            elif answer["error"]["code"] == "moved":
                return  # its table is served elsewhere: opened again where `moved` says (the same URL behind a proxy)
            if answer["ok"] and kind in ("sit", "leave"):
                seated = kind == "sit"
            elif not answer["ok"]:
                code = answer["error"]["code"]
                seated = seated or (kind == "sit" and code == "seat_taken")
                seated = seated and not (kind != "sit" and code == "not_seated")
                time.sleep(0.05 if code != "unavailable" else 0.2)

    def _choose(self, seated: bool, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        actions = view.get("actions", [])
        if not seated:
            return "sit", {"buy_in": BUY_IN}
        if view.get("balance", BUY_IN) < 4 * ANTE and "ante" in actions:
            return "top_up", {"amount": BUY_IN}
        if "deal" in actions and view.get("bets", {}).get("ante"):
            return "deal", {}
        if "ante" in actions:
            return ("leave", {}) if self.random.random() < 0.05 else ("ante", {"amount": ANTE})
        if "raise" in actions:
            return ("fold" if self.random.random() < 0.4 else "raise"), {}
        return "ante", {"amount": ANTE}  # no view yet: the table says what it takes

    def _command(
        self, ws: Connection, kind: str, args: dict[str, Any], view: dict[str, Any]
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        self._id += 1
        ws.send(json.dumps({"v": 1, "id": self._id, "type": kind, "table": self.table, **args}))
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            frame = json.loads(ws.recv(max(0.1, deadline - time.monotonic())))
            if frame["type"] == "view" and frame["table"] == self.table:
                view = frame["view"]
            elif frame["type"] == "answer" and frame["id"] == self._id:
                return frame, view
            elif frame["type"] == "closed":
                return None, view
        return None, view


def guests(server: Serve, count: int) -> list[str]:
    return [str(httpx.post(f"{server.http}/api/guest", timeout=30).json()["token"]) for _ in range(count)]


# ---- the faults --------------------------------------------------------------------------------


@dataclass
class Stage:
    """What a fault acts on: the server processes, the SQLite file and its mount, or PostgreSQL."""

    servers: list[Serve]
    database: str
    disk: Path | None = None  # the mount the SQLite file lives on
    postgres: Any = None  # pg_server.Cluster


def inject(fault: str, stage: Stage, hold: float) -> None:
    """Injects the fault, holds it `hold` seconds under play, and clears it."""
    FAULTS[fault](stage, hold)


def _disk_full(stage: Stage, hold: float) -> None:
    """The filesystem filled up. SQLite writes over its write-ahead log's pages once they are
    checkpointed, so a full disk bites only when the log must grow: it is checkpointed and
    truncated first (from outside, as a backup tool would), and its next pages need new space."""
    assert stage.disk is not None
    with contextlib.closing(sqlite3.connect(stage.database, timeout=10)) as outside:
        outside.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    filler = stage.disk / "filler"
    with contextlib.suppress(OSError), filler.open("wb") as f:
        while True:
            f.write(b"\0" * (1 << 20))
            f.flush()
    time.sleep(hold)
    filler.unlink()


def _read_only(stage: Stage, hold: float) -> None:
    """The database file and its write-ahead log made immutable (not the shared-memory index:
    SQLite maps it, and a write to an immutable mapping is SIGBUS, which no server survives)."""
    files = [p for p in (stage.database, f"{stage.database}-wal") if os.path.exists(p)]
    subprocess.run(["chattr", "+i", *files], check=True)
    try:
        time.sleep(hold)
    finally:
        subprocess.run(["chattr", "-i", *files], check=True)


def _busy(stage: Stage, hold: float) -> None:
    """Another process holds SQLite's write lock for `hold` seconds."""
    hold_lock = "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
    hold_lock += "c.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(float(sys.argv[2]))"
    command = [sys.executable, "-c", hold_lock, stage.database, str(hold)]
    with subprocess.Popen(command, stdout=subprocess.PIPE) as holder:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        holder.wait(hold + 30)


def _kill(stage: Stage, hold: float) -> None:
    victim = stage.servers[0]
    victim.kill()
    time.sleep(hold)
    victim.start()


def _pg_restart(stage: Stage, hold: float) -> None:
    stage.postgres.stop()
    time.sleep(hold)
    stage.postgres.start()


def _pg_terminate(stage: Stage, hold: float) -> None:
    stage.postgres.each_backend(stage.database, "pg_terminate_backend")
    time.sleep(hold)


def _pg_cancel(stage: Stage, hold: float) -> None:
    """Every statement the servers run for `hold` seconds is cancelled, as far as one connection
    asking as fast as it can reaches (a statement takes a millisecond or so)."""
    import psycopg

    name = stage.database.rsplit("/", 1)[1]
    sql = "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = %s AND state = 'active'"
    sql += " AND pid <> pg_backend_pid()"
    end = time.monotonic() + hold
    with psycopg.connect(stage.postgres.url, autocommit=True) as canceller:
        while time.monotonic() < end:
            canceller.execute(sql, (name,))


FAULTS: dict[str, Callable[[Stage, float], None]] = {
    "disk_full": _disk_full,
    "read_only": _read_only,
    "busy": _busy,
    "kill": _kill,
    "pg_restart": _pg_restart,
    "pg_terminate": _pg_terminate,
    "pg_cancel": _pg_cancel,
}


# ---- a run and its check -----------------------------------------------------------------------


def tables_file(folder: Path, count: int) -> Path:
    path = folder / "tables.toml"
    path.write_text(f'[[table]]\nvariant = "cyberstud"\nseats = 1\ncount = {count}\n')
    return path


def play_through(stage: Stage, faults: list[str], bots: int, hold: float, calm: float) -> dict[str, Any]:
    """Bots play while each fault is injected in turn; after each, the servers must be healthy
    again (every table restored) and play on. Returns the tally and the recoveries' seconds."""
    healthy(stage.servers, bots)
    tally = Tally()
    players = [
        Bot(stage.servers, t, f"cyberstud-{k + 1}", tally, k) for k, t in enumerate(guests(stage.servers[0], bots))
    ]
    for bot in players:
        bot.start()
    recovered: dict[str, float] = {}
    refused: dict[str, int] = {}
    health: dict[str, dict[str, Any]] = {}
    try:
        time.sleep(calm)
        for fault in faults:
            before = tally.refused["unavailable"]
            with _health_seen(stage.servers) as health[fault]:
                inject(fault, stage, hold)
                recovered[fault] = round(healthy(stage.servers, bots), 2)
            refused[fault] = tally.refused["unavailable"] - before
            time.sleep(calm)
    finally:
        for bot in players:
            bot.halt.set()
        for bot in players:
            bot.join(20)
    return {"tally": tally, "recovered_seconds": recovered, "unavailable": refused, "health": health}


@contextlib.contextmanager
def _health_seen(servers: list[Serve]) -> Iterator[dict[str, Any]]:
    """While the block runs, every 0.1 s: the /healthz status codes the servers answered (0: no
    answer), and the most processes beyond one that listed a table as theirs at once (a table
    served by two processes)."""
    seen: set[int] = set()
    over = 0
    done = threading.Event()

    def poll() -> None:
        nonlocal over
        while not done.wait(0.1):
            seen.update(s.health()[0] for s in servers)
            claims = Counter(entry["table"] for s in servers for entry in s.lobby() if entry["here"])
            over = max(over, max(claims.values(), default=1) - 1)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    found: dict[str, Any] = {}
    try:
        yield found
    finally:
        done.set()
        poller.join(10)
        found |= {"codes": sorted(seen), "claimed_twice": over}


def check(database: str) -> dict[str, Any]:
    """Reads the stopped servers' database: the books, every record's audit, the command events
    by (table, kind), and the money on seats nobody holds."""
    from caribbean_fast.engine import audit, restore
    from caribbean_fast.server.store.db import Database
    from caribbean_fast.server.store.db import connect as open_database
    from caribbean_fast.server.store.record import TableRecord
    from caribbean_fast.server.store.wallets import reconcile

    db = Database(open_database(database, create=False))
    try:
        books = db.run_now(reconcile)
        ids = sorted(str(t) for (t,) in db.run_now(lambda tx: tx.all("SELECT DISTINCT table_id FROM table_log")))
        recorded: dict[str, list[str]] = {}
        audits, stranded = True, 0
        for table_id in ids:
            record = TableRecord(table_id)
            db.run_now(record.load)
            kinds = [e.kind for row in record.rows() for e in row.events if e.kind in COMMAND_EVENTS]
            if not kinds:
                continue
            recorded[table_id] = kinds
            audits = audits and audit(record).ok
            table = restore(record)
            stranded += sum(table.balance(k) for k in range(table.seats) if table.holder(k) is None)
    finally:
        db.dialect.close()
    return {
        "recorded": recorded,
        "reconciled": all(b.reconciled for b in books.values()),
        "granted": sum(b.granted for b in books.values()),
        "audits_clean": audits,
        "stranded_on_unheld_seats": stranded,
    }


def _in_order(answered: list[str], recorded: list[str]) -> int:
    """How many of a table's `ok` answers its record holds, in the order they were answered (the
    record may hold more: commands whose answer was lost, the clock's): the longest prefix of
    `answered` that is a subsequence of `recorded`."""
    found, events = 0, iter(recorded)
    for kind in answered:
        if not any(event == kind for event in events):
            break
        found += 1
    return found


def outcome(faults: list[str], played: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    tally: Tally = played["tally"]
    recorded: dict[str, list[str]] = found["recorded"]
    in_records = sum(_in_order(answered, recorded.get(table, [])) for table, answered in tally.ok.items())
    answers = sum(len(kinds) for kinds in tally.ok.values())
    return {
        "faults": faults,
        "ok_answers": answers,
        "ok_in_records": in_records,
        "ok_missing": answers - in_records,
        "refused": dict(tally.refused),
        "unavailable_during": played["unavailable"],
        "healthz_during": {f: h["codes"] for f, h in played["health"].items()},
        "tables_claimed_twice": max((h["claimed_twice"] for h in played["health"].values()), default=0),
        "recovered_seconds": played["recovered_seconds"],
        "books_reconcile": found["reconciled"],
        "granted": found["granted"],
        "audits_clean": found["audits_clean"],
        "stranded_on_unheld_seats": found["stranded_on_unheld_seats"],
    }


@contextlib.contextmanager
def sqlite_stage(folder: Path, bots: int, disk_mb: int = 64) -> Iterator[Stage]:
    """One server on a SQLite file in a small ext4 filesystem of its own, loop-mounted (root):
    the disk_full fault fills it, and on ext4 `chattr +i` stops writes through open files too
    (on a tmpfs it does not)."""
    disk, image = folder / "disk", folder / "disk.img"
    disk.mkdir()
    with image.open("wb") as f:
        f.truncate(disk_mb << 20)
    subprocess.run(["mkfs.ext4", "-q", "-F", "-m", "0", str(image)], check=True)
    subprocess.run(["mount", "-o", "loop", str(image), str(disk)], check=True)
    server = None
    try:
        database = str(disk / "casino.db")
        server = Serve(database, tables_file(folder, bots), folder / "serve.log")
        yield Stage([server], database, disk=disk)
    finally:
        if server is not None:
            server.stop()
        subprocess.run(["umount", "-l", str(disk)], check=False)


@contextlib.contextmanager
def postgres_stage(folder: Path, bots: int) -> Iterator[Stage]:
    """Two server processes sharing a PostgreSQL cluster of the bench's own."""
    pg = pg_server()
    found = pg.binaries()
    if found is None:
        raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
    servers: list[Serve] = []
    with pg.Cluster(found) as cluster:
        database = pg.fresh_database(cluster.url)
        tables = tables_file(folder, bots)
        try:
            servers = [Serve(database, tables, folder / f"serve-{k}.log") for k in range(2)]
            yield Stage(servers, database, postgres=cluster)
        finally:
            for server in servers:
                server.stop()


# ---- behind nginx ------------------------------------------------------------------------------


def behind_nginx(bots: int, calm: float) -> dict[str, Any]:
    """Two server processes and PostgreSQL behind nginx (docs/guides/deploy.md): the bots play at
    their tables' sockets through nginx, one process is killed with SIGKILL, its tables move and
    the map follows, then it starts again and takes its share back; the database's check after."""
    pg, proxy_tools = pg_server(), tests_module("nginx_server")
    found, nginx = pg.binaries(), proxy_tools.binary()
    if found is None or nginx is None:
        raise SystemExit("--nginx needs PostgreSQL and nginx (apt-get install postgresql nginx)")
    with tempfile.TemporaryDirectory(prefix="cf-nginx-") as tmp, pg.Cluster(found) as cluster:
        folder, database = Path(tmp), pg.fresh_database(cluster.url)
        ports = [_free_port() for _ in range(2)]
        proxy = proxy_tools.Nginx([f"127.0.0.1:{p}" for p in ports], nginx)
        proxy.start()
        extra: tuple[str, ...] = ("--forwarded-allow-ips", "127.0.0.1", "--host-name", proxy.host_name)
        extra += ("--proxy-map", str(proxy.map_file))
        extra += (
            "--proxy-reload",
            proxy.reload_command,
            "--connections-per-address",
            "100000",
            "--registrations",
            "100000",
        )
        servers: list[Serve] = []
        try:
            tables = tables_file(folder, bots)
            servers = [Serve(database, tables, folder / f"serve-{k}.log", extra, p) for k, p in enumerate(ports)]
            played = _play_behind(proxy, servers, bots, calm)
        finally:
            for server in servers:
                server.stop()
            proxy.stop()
        found_out = check(database)
    tally: Tally = played.pop("tally")
    recorded: dict[str, list[str]] = found_out["recorded"]
    in_records = sum(_in_order(answered, recorded.get(table, [])) for table, answered in tally.ok.items())
    books = {k: found_out[k] for k in ("reconciled", "audits_clean", "stranded_on_unheld_seats")}
    return {
        "bots": bots,
        "database": "postgresql behind nginx",
        **played,
        "ok_missing": played["ok_answers"] - in_records,
        **books,
    }


def _play_behind(proxy: Any, servers: list[Serve], bots: int, calm: float) -> dict[str, Any]:
    victim, survivor = servers
    healthy(servers, bots)
    _map_follows(proxy.map_file, servers, bots)
    tally, entry = Tally(), f"ws://127.0.0.1:{proxy.port}"
    players = [Bot(servers, t, f"cyberstud-{k + 1}", tally, k, entry) for k, t in enumerate(guests(servers[0], bots))]
    for bot in players:
        bot.start()
    try:
        time.sleep(calm)
        moved_tables = {e["table"] for e in victim.lobby() if e["here"]}
        relayed_before_kill = victim.relayed()  # its counter dies with it; the survivor's runs on
        victim.kill()
        killed = time.monotonic()
        map_seconds = _map_follows(proxy.map_file, [survivor], bots)
        healthy([survivor], bots)
        taken_seconds = time.monotonic() - killed
        time.sleep(calm)
        victim.start()
        restarted = time.monotonic()
        healthy(servers, bots)
        share_back = time.monotonic() - restarted
        time.sleep(calm)
        relayed = relayed_before_kill + survivor.relayed() + victim.relayed()
    finally:
        for bot in players:
            bot.halt.set()
        for bot in players:
            bot.join(20)
    back = sorted(_first_ok_after(b, killed) for b in players if b.table in moved_tables)
    answers = sum(len(kinds) for kinds in tally.ok.values())
    return {
        "tally": tally,
        "ok_answers": answers,
        "refused": dict(tally.refused),
        "relayed_commands": relayed,
        "tables_moved": len(moved_tables),
        "map_followed_seconds": round(map_seconds, 2),
        "taken_over_seconds": round(taken_seconds, 2),
        "back_through_nginx_seconds": {"median": round(back[len(back) // 2], 2), "max": round(back[-1], 2)}
        if back
        else None,
        "share_back_seconds": round(share_back, 2),
    }


def _first_ok_after(bot: Bot, moment: float) -> float:
    """Seconds from `moment` to the bot's first `ok` answer after it (inf: none came)."""
    return next((t - moment for t in list(bot.ok_at) if t > moment), float("inf"))


def _map_follows(path: Path, live: list[Serve], tables: int, seconds: float = 60) -> float:
    """Waits until the proxy's map names a live process for every table; how long it took."""
    start, ports = time.monotonic(), {f"127.0.0.1:{s.port}" for s in live}
    while time.monotonic() - start < seconds:
        routes = [line.rstrip(";").split()[-1] for line in path.read_text().splitlines() if not line.startswith("#")]
        if len(routes) == tables and set(routes) <= ports:
            return time.monotonic() - start
        time.sleep(0.05)
    raise TimeoutError(f"the proxy's map did not follow in {seconds} s")


def tests_module(name: str) -> ModuleType:
    """A helper of the tests (tests/helpers/<name>.py): the throwaway PostgreSQL clusters, nginx."""
    sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "helpers"))
    return importlib.import_module(name)


def pg_server() -> ModuleType:
    """The tests' throwaway PostgreSQL clusters (tests/helpers/pg_server.py)."""
    return tests_module("pg_server")


def run(kind: str, faults: list[str], bots: int, hold: float, calm: float) -> dict[str, Any]:
    """One stage (`sqlite` or `postgresql`) through its faults, then the database's check."""
    stage_of = sqlite_stage if kind == "sqlite" else postgres_stage
    with tempfile.TemporaryDirectory(prefix="cf-chaos-") as tmp, stage_of(Path(tmp), bots) as stage:
        played = play_through(stage, faults, bots, hold, calm)
        for server in stage.servers:
            server.stop()
        found = check(stage.database)
    return {"database": kind, **outcome(faults, played, found)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", type=int, default=6, help="players, each at a table of its own (default 6)")
    parser.add_argument(
        "--hold",
        type=float,
        default=BUSY_SECONDS + 1,
        help="seconds each fault lasts (default: SQLite's busy timeout + 1)",
    )
    parser.add_argument("--calm", type=float, default=3.0, help="seconds of play before and after each (default 3)")
    parser.add_argument("--faults", default=",".join(dict.fromkeys(SQLITE_FAULTS + PG_FAULTS)))
    parser.add_argument(
        "--nginx", action="store_true", help="instead: two processes behind nginx, one killed (docs/guides/deploy.md)"
    )
    args = parser.parse_args()
    if args.nginx:
        print(json.dumps(behind_nginx(args.bots, args.calm), indent=1))
        return
    wanted = args.faults.split(",")
    if unknown := set(wanted) - set(FAULTS):
        parser.error(f"unknown faults {sorted(unknown)}; known: {', '.join(FAULTS)}")
    if os.geteuid() != 0:
        parser.error("the faults need root (a loop mount, chattr, PostgreSQL run as its own user)")
    stages = []
    for kind, known in (("sqlite", SQLITE_FAULTS), ("postgresql", PG_FAULTS)):
        faults = [f for f in wanted if f in known]
        if faults:
            stages.append(run(kind, faults, args.bots, args.hold, args.calm))
    print(json.dumps({"bots": args.bots, "hold_seconds": args.hold, "stages": stages}, indent=1))


if __name__ == "__main__":
    main()
