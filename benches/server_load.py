"""Load on the game server: N bot players over real WebSockets on loopback, at tables of every game,
with random disconnects and reconnects, against `caribbean-fast serve` processes this script starts.

Run: ``python benches/server_load.py --clients 2000 --seconds 60 --pace 1 --format json``
(``--database postgresql://...`` with ``--processes 2``; ``--kill-at 30`` kills the server with
SIGKILL 30 s in and starts it again; ``--idle 10000`` holds that many lobby watchers open instead
and reports the server's memory per connection; ``--floor`` then drives `floor_server.py`, the web
stack doing only what a command must, with the same bots, and prints the ratio of the CPU per
command (``--engine-floor`` also the floor that plays the engine in memory, and that ratio);
``--find-load 80`` runs again at the paced load where the server uses 80% of a core;
``--own-tables`` then runs the same bots, each betting the progressive, at tables of their own
(issue 45: a one-seat game's table opens at its player's sit) beside the tables file's (every
bot betting the progressive there too), and reports what a table costs in memory and to open and
a pooled commit's time beside every commit's: `own_tables`).
Prints one JSON object: clients, tables, rounds,
commands, errors, refused, p50_ms, p99_ms, rounds_per_second, reconciled (every wallet and table
reconciles and every table's record audits clean afterwards), the host it ran on (`host`), the
share of the load's time the hypervisor ran other machines in (`steal_percent`), and more.

The bots' accounts and session tokens are written into the database before the server starts
(hashing 2,000 passwords with argon2id would take minutes and measures nothing about serving).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvloop
import websockets

from caribbean_fast.engine import audit
from caribbean_fast.server.accounts import create_account, hash_password
from caribbean_fast.server.host import quiet_gc
from caribbean_fast.server.store.db import Database, Tx, connect
from caribbean_fast.server.store.record import TableRecord
from caribbean_fast.server.store.wallets import reconcile
from caribbean_fast.server.tables.own import own_table
from caribbean_fast.variants import PRESETS, load_variant

from host import cpu_ticks, describe, steal_since

REFUSALS = {"illegal", "insufficient_funds", "not_seated", "seat_taken"}
DROP = 0.005  # the chance a bot drops its socket after a command, and reconnects
WALLET = 10**8


@dataclass
class Stats:
    commands: int = 0
    refused: int = 0
    errors: int = 0
    lost: int = 0  # commands in flight when the server was killed
    reconnects: int = 0
    moves: int = 0  # sockets opened again where `moved` said the table is served
    latencies: list[float] = field(default_factory=list)
    sits: list[float] = field(default_factory=list)  # the first sit's latency (at an own table: its opening too)
    views: int = 0  # view frames the bots received, and their bytes
    view_bytes: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors += 1
        self.error_codes[code] = self.error_codes.get(code, 0) + 1


# ---- set-up ----------------------------------------------------------------------------------------


def plan(clients: int) -> tuple[str, int, list[tuple[str, int, int]]]:
    """The tables file for `clients` bots spread over every game, how many tables it lists, and
    each bot's table, minimum ante and the table's place in the file (a bot opens its table's
    socket at process `place % processes` first, and follows `moved` to the one serving it)."""
    text, tables, seats_of = "", 0, []
    for k, name in enumerate(PRESETS):
        variant = load_variant(name)
        players = len(range(k, clients, len(PRESETS)))
        count = -(-players // variant.seats)
        if count:
            text += f'[[table]]\nvariant = "{name}"\ncount = {count}\n\n'
            minimum = variant.limits[0].minimum
            seats_of += [
                (f"{name}-{1 + p // variant.seats}", minimum, tables + p // variant.seats) for p in range(players)
            ]
            tables += count
    return text, tables, seats_of


def plan_own(clients: int) -> tuple[str, int, list[tuple[str, int, int]]]:
    """`plan`'s bots, each one-seat game's at a table of its own (`own = true` kinds): the tables
    file (its shared tables alone are opened at start), how many shared tables, each bot's table."""
    _, _, seats = plan(clients)
    shared = sorted({t for t, _, _ in seats if load_variant(t.rsplit("-", 1)[0]).seats > 1})
    text = "".join(f'[[table]]\nvariant = "{n}"\nown = true\n\n' for n in PRESETS if load_variant(n).seats == 1)
    games = {n: sum(1 for t in shared if t.rsplit("-", 1)[0] == n) for n in PRESETS if load_variant(n).seats > 1}
    text += "".join(f'[[table]]\nvariant = "{n}"\ncount = {c}\n\n' for n, c in games.items() if c)
    own = [
        (t if t in shared else own_table(t.rsplit("-", 1)[0], f"bot-{k}"), minimum, place)
        for k, (t, minimum, place) in enumerate(seats)
    ]
    return text, len(shared), own


def seed_accounts(url: str, n: int) -> list[str]:
    """n accounts with play money and a session each; their tokens."""
    hashed, tokens = hash_password("bench password"), [secrets.token_urlsafe(24) for _ in range(n)]
    expires = "9999-01-01T00:00:00+00:00"

    def job(tx: Tx) -> None:
        currencies = sorted({load_variant(name).currency.code for name in PRESETS})  # a wallet each
        for k in range(len(tokens)):
            create_account(tx, f"bot-{k}", hashed, WALLET, currencies=currencies)
        tx.many(
            "INSERT INTO sessions VALUES (?, ?, ?)",
            [(hashlib.sha256(t.encode()).hexdigest(), f"bot-{k}", expires) for k, t in enumerate(tokens)],
        )

    db = Database(connect(url))
    db.run_now(job)
    db.dialect.close()
    return tokens


class Process:
    def __init__(self, url: str, tables: Path, port: int, log: Path) -> None:
        self.url, self.tables, self.port, self.log = url, tables, port, log
        self.killed_cpu = 0.0  # CPU seconds of the processes `kill_and_restart` killed
        self.proc = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(self.command(), stdout=subprocess.DEVNULL, stderr=self.log.open("ab"))

    def command(self) -> list[str]:
        command = [
            sys.executable,
            "-m",
            "caribbean_fast.cli",
            "serve",
            "--database",
            self.url,
            "--port",
            str(self.port),
        ]
        command += ["--tables", str(self.tables), "--rate", "1000", "--burst", "1000", "--grace", "2"]
        command += ["--log-level", "warning"]
        # every bot is on 127.0.0.1: the front door's limits by address lifted
        command += ["--registrations", "1000000", "--address-rate", "1000000", "--total-rate", "1000000"]
        command += ["--connections-per-address", "100000", "--connections", "100000"]
        return command

    def health(self) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=5) as r:
                answer: dict[str, Any] = json.loads(r.read())
            return answer
        except OSError:
            return None

    def metrics(self) -> dict[str, float]:
        """The server's counters (/metrics) by name, for the commits' times."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/metrics", timeout=5) as r:
                text = r.read().decode()
        except OSError:
            return {}
        lines = (line.split() for line in text.splitlines() if line and not line.startswith("#"))
        return {f[0]: float(f[1]) for f in lines if len(f) == 2}

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user and system, from /proc), with that of the
        processes `kill_and_restart` killed."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return self.killed_cpu
        return self.killed_cpu + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def disk_bytes(self) -> int:
        """Bytes the process sent to the storage layer so far (`write_bytes` of /proc/<pid>/io)."""
        for line in Path(f"/proc/{self.proc.pid}/io").read_text().splitlines():
            if line.startswith("write_bytes:"):
                return int(line.split()[1])
        return 0

    def kill_and_restart(self) -> None:
        self.killed_cpu = self.cpu_seconds()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = self._start()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(120)


class FloorProcess(Process):
    """`floor_server.py`: the web stack doing only what a command must (`--floor`), its views
    `view_bytes` long."""

    def __init__(self, port: int, log: Path, view_bytes: int, engine: bool = False) -> None:
        self.view_bytes, self.engine = view_bytes, engine
        super().__init__("", log.parent, port, log)

    def command(self) -> list[str]:
        floor = Path(__file__).with_name("floor_server.py")
        engine = ["--engine"] if self.engine else []
        return [sys.executable, str(floor), "--port", str(self.port), "--view-bytes", str(self.view_bytes), *engine]


def wait_served(processes: list[Process], tables: int, seconds: float = 600) -> None:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        served = [p.health() for p in processes]
        if all(served) and sum(h["tables"] for h in served if h) == tables:
            return
        time.sleep(0.5)
    raise TimeoutError("the servers did not serve every table")


# ---- the bots ----------------------------------------------------------------------------------------


class Bot:
    def __init__(
        self,
        token: str,
        table: str,
        minimum: int,
        place: int,
        ports: list[int],
        stats: Stats,
        pace: float | None,
        pooled: bool = False,
    ) -> None:
        self.token, self.table, self.minimum, self.ports = token, table, minimum, ports
        self.pooled, self.sat = pooled, False  # `pooled`: bets the progressive each round (`--own-tables`)
        self.stats, self.pace, self.rng = stats, pace, random.Random(token)
        self.url = self._socket(ports[place % len(ports)])  # the table's socket: `moved` says where it is
        self.moved_to: str | None = None
        self.view: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.answers: dict[int, asyncio.Future[dict[str, Any] | None]] = {}
        self.next = 0

    async def run(self, until: float) -> None:
        if self.pace:  # paced players come in over the first interval, as they then act: not all at once
            await asyncio.sleep(self.rng.uniform(0, self.pace))
        while time.monotonic() < until:
            try:
                await self._session(until)
            except (OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake):
                if self.moved_to is not None:  # told where the table is served: straight there
                    self.stats.moves += 1
                    self.url, self.moved_to = self.moved_to, None
                    await asyncio.sleep(0.05)
                    continue
                self.stats.reconnects += 1
                self.url = self._socket(self.rng.choice(self.ports))
                await asyncio.sleep(0.5)

    def _socket(self, port: int) -> str:
        return f"ws://127.0.0.1:{port}/ws/{self.table}"

    async def _session(self, until: float) -> None:
        url, headers = self.url, {"Authorization": f"Bearer {self.token}"}
        # a refused handshake waits 1 s, not 10, for the close: nginx reloading may keep it open
        opening = websockets.connect(url, additional_headers=headers, max_size=None, open_timeout=30, close_timeout=1)
        async with opening as ws:
            reader = asyncio.create_task(self._read(ws))
            try:
                await self._play(ws, until)
            finally:
                reader.cancel()

    async def _read(self, ws: Any) -> None:
        try:
            async for text in ws:
                frame = orjson.loads(text)
                if frame["type"] == "answer" and frame["id"] in self.answers:
                    self.answers.pop(frame["id"]).set_result(frame)
                elif frame["type"] == "moved":  # the socket closes: the next one opens there
                    self.moved_to = frame["endpoint"]
                elif frame["type"] == "view" and frame["table"] == self.table:
                    self.stats.views += 1
                    self.stats.view_bytes += len(text)
                    self.view = frame["view"]
                    self.changed.set()
        finally:  # the socket is gone: the commands in flight will get no answer
            for done in self.answers.values():
                if not done.done():
                    self.stats.lost += 1
                    done.set_result(None)
            self.answers.clear()

    async def _command(self, ws: Any, kind: str, **fields: Any) -> dict[str, Any] | None:
        self.next += 1
        done: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.answers[self.next] = done
        start = time.perf_counter()
        await ws.send(orjson.dumps({"v": 1, "id": self.next, "type": kind, "table": self.table, **fields}).decode())
        answer = await asyncio.wait_for(done, 30)
        if answer is None:
            raise ConnectionError("the socket closed before the answer")
        self.stats.latencies.append((time.perf_counter() - start) * 1000)
        self.stats.commands += 1
        if not answer["ok"]:
            code = answer["error"]["code"]
            if code == "unavailable":
                raise OSError("the table is served elsewhere")
            if code == "moved":
                self.moved_to = answer["error"]["endpoint"]
                raise OSError("the table is served elsewhere")
            if code in REFUSALS:
                self.stats.refused += 1
            else:
                self.stats.error(code)
        return answer

    async def _play(self, ws: Any, until: float) -> None:
        start = time.perf_counter()
        sit = await self._command(ws, "sit", buy_in=1000 * self.minimum)
        if not self.sat and sit and sit["ok"]:
            self.sat = True
            self.stats.sits.append((time.perf_counter() - start) * 1000)
        if sit and not sit["ok"] and sit["error"]["code"] != "seat_taken":
            return
        while time.monotonic() < until:
            if self.pace:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.pace)
            action = self._choose()
            if action is None:
                self.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), 5)
                continue
            await self._command(ws, *action[:1], **action[1])
            if self.rng.random() < DROP:
                return

    def _choose(self) -> tuple[str, dict[str, Any]] | None:
        v = self.view
        if v is None:
            return None
        phase, actions = v["phase"], v["actions"]
        if v["balance"] < 20 * self.minimum and phase != "deciding":
            return ("top_up", {"amount": 1000 * self.minimum})
        if phase in ("waiting", "settled") or (phase == "betting" and not v["bets"]["ante"]):
            return ("ante", {"amount": self.minimum})
        if phase == "betting" and self.pooled and "progressive" in actions and not v["bets"]["progressive"]:
            return ("progressive", {"on": True})
        if phase == "betting":
            return ("deal", {})
        if "raise" in actions:
            return ("raise", {}) if self.rng.random() < 0.6 else ("fold", {})
        if "fold" in actions:
            return ("fold", {})
        return None


async def load(bots: list[Bot], seconds: float, kill_at: float | None, processes: list[Process]) -> float:
    start = time.monotonic()
    until = start + seconds
    tasks = [asyncio.create_task(b.run(until)) for b in bots]
    if kill_at is not None:
        await asyncio.sleep(kill_at)
        await asyncio.to_thread(processes[0].kill_and_restart)
    await asyncio.gather(*tasks)
    return time.monotonic() - start


async def idle(n: int, port: int) -> int:
    """Opens n lobby watchers and keeps them; returns how many answered."""
    sockets, answered = [], 0
    for k in range(0, n, 500):
        batch = await asyncio.gather(
            *(websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=60) for _ in range(min(500, n - k)))
        )
        sockets += batch
    for ws in sockets:
        await ws.send(json.dumps({"v": 1, "id": 1, "type": "lobby"}))
    for ws in sockets:
        while json.loads(await ws.recv())["type"] != "answer":
            pass
        answered += 1
    await asyncio.sleep(2)
    return answered


# ---- after -------------------------------------------------------------------------------------------


def books(url: str) -> tuple[bool, int, list[str]]:
    """(reconciled, rounds closed, tables whose audit failed)."""
    db = Database(connect(url))
    sums = db.run_now(reconcile)
    ids = [r[0] for r in db.run_now(lambda tx: tx.all("SELECT DISTINCT table_id FROM table_log"))]
    failed, rounds = [], 0
    for table_id in ids:
        record = TableRecord(table_id)
        db.run_now(record.load)
        report = audit(record)
        rounds += report.settled + report.void
        if not report.ok:
            failed.append(f"{table_id}: {report.summary()}")
    db.dialect.close()
    return all(b.reconciled for b in sums.values()) and not failed, rounds, failed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2) if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--database", default=None, help="default: a SQLite file in a temporary folder")
    parser.add_argument("--pace", type=float, default=None, help="each client acts about once every PACE s")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--kill-at", type=float, default=None, help="SIGKILL the (first) server this many s in")
    parser.add_argument("--idle", type=int, default=0, help="hold this many lobby watchers open instead")
    parser.add_argument("--floor", action="store_true", help="then drive the floor server in turn, and compare")
    parser.add_argument(
        "--engine-floor", action="store_true", help="with --floor, also the floor that plays the engine in memory"
    )
    parser.add_argument(
        "--find-load",
        type=float,
        default=None,
        metavar="PERCENT",
        help="after the run, the paced clients at which the server uses PERCENT of a core, run there (with --floor)",
    )
    parser.add_argument(
        "--own-tables",
        action="store_true",
        help="then the same bots at tables of their own (one-seat games), every bot betting the progressive",
    )
    parser.add_argument("--format", choices=["json"], default="json")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    with tempfile.TemporaryDirectory() as folder:  # on the machine's disk: /tmp is no tmpfs here
        result = measure(args, Path(folder) / "first", args.clients)
        if args.own_tables:
            result = {**result, "own_tables": own_tables(args, result, Path(folder) / "own", args.clients)}
        if args.find_load and args.pace:
            cpu_s = result["cpu_us_per_command"] / 1e6  # a client sends about one command a pace
            clients = int(args.find_load / 100 * args.pace / cpu_s)
            result = {**result, "at_load": measure(args, Path(folder) / "at-load", clients)}
        print(json.dumps(result))


def measure(args: argparse.Namespace, folder: Path, clients: int) -> dict[str, Any]:
    """One run against the game server at `clients` bots, then (`--floor`) the floor's with the
    same bots; a fresh database each."""
    folder.mkdir()
    host = describe()  # before the load: its load average is other work's
    url = args.database or str(folder / "casino.db")
    text, tables, seats = plan(max(clients, 1))
    tables_file = folder / "tables.toml"
    tables_file.write_text(text)
    tokens = seed_accounts(url, len(seats))
    ports = [_free_port() for _ in range(args.processes)]
    log = folder / "serve.log"
    processes = [Process(url, tables_file, p, log) for p in ports]
    if args.idle:
        return idle_memory(processes, tables, args.idle, host)
    found: dict[str, Any] = {}
    stats, result = drive(args, processes, tokens, seats, lambda: ready(processes, tables, found))
    result["rss_start_kb"] = found["rss_start_kb"]  # every table open, no socket yet
    result["start_ms_per_table"] = round(1000 * found["ready_seconds"] / max(tables, 1), 3)  # opened at start
    reconciled, rounds, failed = books(url)
    result |= {
        "tables": tables,
        "rounds": rounds,
        "rounds_per_second": round(rounds / result["seconds"], 1),
        "reconciled": reconciled,
        "audit_failures": failed[:5],
        "processes": args.processes,
        "database": "postgresql" if url.startswith("postgres") else "sqlite",
        "host": host,
    }
    if args.floor:
        result |= against_floor(args, result, stats, tokens, seats, folder)
    return result


FLOOR_FIGURES = ("commands", "reconnects", "p50_ms", "p99_ms", "views_per_command", "view_bytes", "servers_cpu_percent")


def against_floor(
    args: argparse.Namespace, served: dict[str, Any], stats: Stats, tokens: list[str], seats: Any, folder: Path
) -> dict[str, Any]:
    """The floor server driven by the same bots, its views padded to the game server's mean size;
    with `--engine-floor`, then the floor that plays the engine in memory (`engine_floor`)."""
    floor = FloorProcess(_free_port(), folder / "floor.log", stats.view_bytes // max(stats.views, 1))
    _, result = drive(args, [floor], tokens, seats, lambda: wait_answering(floor))
    found = {
        "floor": {k: result[k] for k in FLOOR_FIGURES},
        "floor_cpu_us_per_command": result["cpu_us_per_command"],
        "cpu_ratio_to_floor": round(served["cpu_us_per_command"] / max(result["cpu_us_per_command"], 1), 2),
    }
    if args.engine_floor:
        engine = FloorProcess(_free_port(), folder / "engine-floor.log", 0, engine=True)
        _, result = drive(args, [engine], tokens, seats, lambda: wait_answering(engine))
        found |= {
            "engine_floor": {k: result[k] for k in FLOOR_FIGURES} | {"refused": result["refused"]},
            "engine_floor_cpu_us_per_command": result["cpu_us_per_command"],
            "cpu_ratio_to_engine_floor": round(served["cpu_us_per_command"] / max(result["cpu_us_per_command"], 1), 2),
        }
    return found


def ready(processes: list[Process], tables: int, into: dict[str, Any]) -> None:
    """Every table of the file served (own tables open later); how long that took from the
    processes' start, and the first process's memory then, with its tables and no socket."""
    start = time.monotonic()
    wait_served(processes, tables)
    into["ready_seconds"] = time.monotonic() - start
    into["rss_start_kb"] = steady_rss(processes[0])


def steady_rss(process: Process, seconds: float = 30) -> int:
    """The process's memory once it stops growing (the trainer's tables are built in the
    background after start): two readings a second apart within 0.5%."""
    last, end = process.rss_kb(), time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(1)
        now = process.rss_kb()
        if abs(now - last) <= last / 200:
            return now
        last = now
    return last


def own_tables(args: argparse.Namespace, fixed: dict[str, Any], folder: Path, clients: int) -> dict[str, Any]:
    """The same bots at tables of their own (`plan_own`), on a fresh database: the load's figures,
    what a table costs in memory (the first run's memory at start, every table open, against this
    run's, its shared tables alone) and to open (its first sit's latency against the first run's),
    and a pooled commit's time against every commit's."""
    folder.mkdir()
    url = args.database or str(folder / "casino.db")
    text, shared, seats = plan_own(max(clients, 1))
    tokens = seed_accounts(url, len(seats))
    log, tables = folder / "serve.log", folder / "tables.toml"
    tables.write_text(text)
    processes = [Process(url, tables, _free_port(), log) for _ in range(args.processes)]
    found: dict[str, Any] = {}
    _, result = drive(args, processes, tokens, seats, lambda: ready(processes, shared, found), pooled=True)
    reconciled, rounds, failed = books(url)
    opened = fixed["tables"] - shared  # the first run's tables that this one opens as its players sit
    return result | {
        "shared_tables": shared,
        "rounds": rounds,
        "rounds_per_second": round(rounds / result["seconds"], 1),
        "reconciled": reconciled,
        "audit_failures": failed[:5],
        "rss_start_kb": found["rss_start_kb"],
        "kb_per_table": round((fixed["rss_start_kb"] - found["rss_start_kb"]) / max(opened, 1), 1),
        "open_ms": round(result["sit_p50_ms"] - fixed["sit_p50_ms"], 2),
        "cpu_ratio_to_fixed": round(result["cpu_us_per_command"] / max(fixed["cpu_us_per_command"], 1), 2),
    }


def drive(
    args: argparse.Namespace,
    processes: list[Process],
    tokens: list[str],
    seats: Any,
    ready: Any,
    pooled: bool | None = None,
) -> tuple[Stats, dict[str, Any]]:
    """The bots against the processes, once they are `ready`; the load's figures (`pooled`: the
    bots bet the progressive; default: with `--own-tables`, so both runs play alike)."""
    ports = [p.port for p in processes]
    pooled = args.own_tables if pooled is None else pooled
    try:
        ready()
        stats = Stats()
        bots = [
            Bot(tok, t, m, k, ports, stats, args.pace, pooled) for tok, (t, m, k) in zip(tokens, seats, strict=True)
        ]
        quiet_gc()  # the bots: 5.6 s of collector passes a 2,000-client run, pauses up to 275 ms, in the latencies
        cpu_before, disk_before, ticks = _cpu(processes), sum(p.disk_bytes() for p in processes), cpu_ticks()
        elapsed = uvloop.run(load(bots, args.seconds, args.kill_at, processes))  # the server's loop too
        cpu = [b - a for a, b in zip(cpu_before, _cpu(processes), strict=True)]
        disk = sum(p.disk_bytes() for p in processes) - disk_before
        steal = steal_since(ticks)
        served = sum((p.health() or {}).get("tables", 0) for p in processes)  # own tables open at the end
        commits = _commits(processes)
    finally:
        for p in processes:
            p.stop()
    commands = max(stats.commands, 1)
    return (
        stats,
        {
            "clients": len(bots),
            "seconds": round(elapsed, 1),
            "commands": stats.commands,
            "errors": stats.errors,
            "refused": stats.refused,
            "lost": stats.lost,
            "reconnects": stats.reconnects,
            "moves": stats.moves,
            "p50_ms": percentile(stats.latencies, 0.5),
            "p99_ms": percentile(stats.latencies, 0.99),
            "error_codes": stats.error_codes,
            "views_per_command": round(stats.views / commands, 2),
            "view_bytes": stats.view_bytes // max(stats.views, 1),
            "bots_cpu_percent": round(100 * cpu[0] / elapsed),  # of one core, over the load
            "servers_cpu_percent": [round(100 * c / elapsed) for c in cpu[1:]],
            # The whole server process's CPU per command answered, its threads (the commit's) included.
            "cpu_us_per_command": round(1e6 * sum(cpu[1:]) / commands),
            "disk_bytes_per_command": round(disk / commands),  # reaching the storage layer (/proc/<pid>/io)
            "steal_percent": round(steal, 1),  # of both cores' time over the load, run elsewhere
            "sit_p50_ms": percentile(stats.sits, 0.5),
            "served_tables": served,
            **commits,
        },
    )


def _commits(processes: list[Process]) -> dict[str, Any]:
    """Every commit's mean time, and that of the commits whose step read a shared pool (a dealt
    round's at a table of a pool), from the servers' metrics since their start."""
    found = [p.metrics() for p in processes]

    def mean(name: str) -> tuple[float, int]:
        total, count = sum(m.get(f"{name}_sum", 0.0) for m in found), sum(m.get(f"{name}_count", 0.0) for m in found)
        return round(1000 * total / max(count, 1), 3), int(count)

    (commit, commits), (pool, pools) = mean("cf_commit_seconds"), mean("cf_pool_commit_seconds")
    opening, opened = mean("cf_table_open_seconds")
    return {
        "commit_ms": commit,
        "commits": commits,
        "pool_commit_ms": pool,
        "pool_commits": pools,
        "open_table_ms": opening,  # a table's opening job, from its start (at start) or its player's sit (own)
        "tables_opened": opened,
    }


def wait_answering(process: Process, seconds: float = 60) -> None:
    start = time.monotonic()
    while process.health() is None:
        if time.monotonic() - start > seconds:
            raise TimeoutError("the floor server did not start")
        time.sleep(0.2)


def idle_memory(processes: list[Process], tables: int, n: int, host: str) -> dict[str, Any]:
    """n lobby watchers held open: the server's memory per connection."""
    try:
        wait_served(processes, tables)
        before = processes[0].rss_kb()
        answered = uvloop.run(idle(n, processes[0].port))
        after = processes[0].rss_kb()
    finally:
        for p in processes:
            p.stop()
    return {
        "connections": n,
        "answered": answered,
        "rss_before_kb": before,
        "rss_after_kb": after,
        "kb_per_connection": round((after - before) / n, 2),
        "host": host,
    }


def _cpu(processes: list[Process]) -> list[float]:
    """CPU seconds so far: the bots' (this process) and each server's (a restarted one counts
    from its start)."""
    return [time.process_time(), *(p.cpu_seconds() for p in processes)]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


if __name__ == "__main__":
    main()
