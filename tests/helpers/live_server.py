"""A real server on loopback for the server tests: uvicorn in a thread (or a process), and a
programmatic WebSocket client that keeps every raw frame it receives."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from caribbean_fast.engine import audit
from caribbean_fast.engine.events import Event, event_from_dict
from caribbean_fast.server import Settings, create_app
from caribbean_fast.server.cluster.placement import owner_of
from caribbean_fast.server.store import pools
from caribbean_fast.server.store.db import Database
from caribbean_fast.server.store.db import connect as open_database
from caribbean_fast.server.store.record import TableRecord, events_in
from caribbean_fast.server.store.wallets import reconcile
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.server.wire.serving import uvicorn_options
from caribbean_fast.variants import load_variant


def small_tables() -> list[TableSpec]:
    """A one-seat stud table, a four-seat stud table and a hold'em table."""
    return [
        TableSpec("cyberstud-1", load_variant("cyberstud"), 1),
        TableSpec("network-24h-1", load_variant("network-24h"), 4),
        TableSpec("casino-holdem-1", load_variant("casino-holdem"), 1),
    ]


class LiveServer:
    """`create_app(settings)` served by uvicorn on 127.0.0.1 at a free port, in a thread."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_config=None, lifespan="on", **uvicorn_options(self.app))
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.uvicorn.serve(sockets=[self.sock])))

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.uvicorn.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(20)

    def guest(self) -> str:
        return str(httpx.post(f"{self.http}/api/guest").json()["token"])

    def register(self, name: str, password: str = "correct horse") -> str:
        r = httpx.post(f"{self.http}/api/register", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])


def settings(database: str, **changes: Any) -> Settings:
    base = Settings(database, small_tables(), demo=True, demo_balance=100_000, grace=0.3, tick=0.05, own=[])
    base = replace(base, registrations=10_000, address_rate=10_000.0, read_rate=10_000.0)  # all on 127.0.0.1
    return replace(base, **changes)


class Client:
    """One socket; `raw` holds every text frame received, in order."""

    def __init__(self, url: str, token: str | None = None, headers: dict[str, str] | None = None) -> None:
        extra = dict(headers or {})
        if token:
            extra["Authorization"] = f"Bearer {token}"
        self.ws: ClientConnection = connect(url, additional_headers=extra, max_size=None, open_timeout=10)
        self.raw: list[str] = []
        self._next = 0
        self.welcome = self.recv()

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        frame: dict[str, Any] = json.loads(text)
        return frame

    def send(self, **fields: Any) -> int:
        self._next += 1
        self.ws.send(json.dumps({"v": 1, "id": self._next, **fields}))
        return self._next

    def cmd(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Sends a command; returns its answer (other frames meanwhile are kept in `raw`)."""
        ident = self.send(type=kind, **fields)
        return self.answer(ident)

    def answer(self, ident: int | str | None) -> dict[str, Any]:
        while True:
            frame = self.recv()
            if frame["type"] == "answer" and frame["id"] == ident:
                return frame

    def ok(self, kind: str, **fields: Any) -> dict[str, Any]:
        answer = self.cmd(kind, **fields)
        assert answer["ok"], answer
        result: dict[str, Any] = answer["result"]
        return result

    def views(self, table: str) -> list[dict[str, Any]]:
        frames = [json.loads(t) for t in self.raw]
        return [f["view"] for f in frames if f["type"] == "view" and f["table"] == table]

    def close(self) -> None:
        self.ws.close()


def query(url: str, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Reads the database from outside the server (another connection)."""
    db = Database(open_database(url))
    try:
        return db.run_now(lambda tx: tx.all(sql, params))
    finally:
        db.dialect.close()


def recorded(url: str, table_id: str | None = None) -> list[Event]:
    """Every event of the table's record (or of every table's, table by table), in order: read
    from outside the server, as the record's rows hold them."""
    where, params = ("WHERE table_id = ?", (table_id,)) if table_id is not None else ("", ())
    rows = query(url, f"SELECT body FROM table_log {where} ORDER BY table_id, seq", params)
    return [event_from_dict(e) for (body,) in rows for e in events_in(body)]


def books(url: str) -> tuple[bool, int]:
    """(the books reconcile, each currency's and each progressive pool's, how many tables'
    records audit clean; a failing audit raises)."""
    db = Database(open_database(url))
    try:
        sums = db.run_now(reconcile)
        pooled = all(meter == expected for meter, expected in db.run_now(pools.reconcile).values())
        ids = [r[0] for r in db.run_now(lambda tx: tx.all("SELECT DISTINCT table_id FROM table_log"))]
        for table_id in ids:
            record = TableRecord(table_id)
            db.run_now(record.load)
            report = audit(record)
            assert report.ok, (table_id, report.summary())
        return all(b.reconciled for b in sums.values()) and pooled, len(ids)
    finally:
        db.dialect.close()


def two_tables(folder: Path) -> Path:
    """A tables file for several processes: one cyberstud table, one four-seat network-24h table."""
    path = folder / "tables.toml"
    path.write_text('[[table]]\nvariant = "cyberstud"\nseats = 1\n\n[[table]]\nvariant = "network-24h"\nseats = 4\n')
    return path


class ServerProcess:
    """`caribbean-fast serve` as a process of its own, to be killed with SIGKILL."""

    def __init__(
        self, database: str, tables: str, *extra: str, port: int | None = None, program: list[str] | None = None
    ) -> None:
        self.port = port or _free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="cf-serve-", suffix=".log")  # noqa: SIM115
        command = program or [sys.executable, "-m", "caribbean_fast.cli"]  # `rigged_serve`: named deals
        command = [*command, "serve", "--database", database]
        command += ["--port", str(self.port), "--tables", tables, "--demo", "--grace", "0.5", *extra]
        command += ["--registrations", "10000", "--address-rate", "10000"]  # the tests' sockets share 127.0.0.1
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def health(self) -> dict[str, Any] | None:
        try:
            answer: dict[str, Any] = httpx.get(f"{self.http}/healthz", timeout=2).json()
            return answer
        except httpx.HTTPError:
            return None

    def wait(self, tables: int, seconds: float = 30) -> float:
        """Waits until the process serves `tables` tables; returns how long it took."""
        start = time.monotonic()
        while time.monotonic() - start < seconds:
            health = self.health()
            if health is not None and health["tables"] == tables:
                return time.monotonic() - start
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.logs()[-2000:]}")
            time.sleep(0.1)
        raise TimeoutError(f"the server did not serve {tables} tables in {seconds} s")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> list[dict[str, Any]]:
        """SIGTERM, as an operator would; the server's log lines."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        self.process.wait(20)
        return [json.loads(line) for line in self.logs().splitlines() if line.startswith("{")]

    def logs(self) -> str:
        return Path(self.log.name).read_text()


def split(processes: list[ServerProcess], tables: list[str], database: str) -> dict[str, ServerProcess]:
    """Each table's process, once every process serves its share: with PostgreSQL the hash over
    the processes' endpoints (`placement`) splits them, with SQLite one serves them all (the one
    that took the database's leases first: started together, either may)."""
    ends = [p.ws for p in processes]
    if not database.startswith("postgres"):  # one of them serves them all: whichever took the file first
        deadline = time.monotonic() + 30
        while True:
            served = [(p.health() or {"tables": None})["tables"] for p in processes]
            if None not in served and sorted(served) == [0] * (len(served) - 1) + [len(tables)]:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"no process serves the {len(tables)} tables in 30 s: {served}")
            time.sleep(0.1)
        serving = processes[served.index(len(tables))]
        return dict.fromkeys(tables, serving)
    where = {t: processes[ends.index(owner_of(t, ends))] for t in tables}
    for process in processes:
        process.wait(sum(1 for serving in where.values() if serving is process))
    return where


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
