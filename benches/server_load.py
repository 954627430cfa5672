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
import record
import server_rows
import uvloop
import websockets

from caribbean_fast.engine import audit
from caribbean_fast.server.accounts import create_account, hash_password
from caribbean_fast.server.host import quiet_gc
from caribbean_fast.server.store import server_keys
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


def plan_own(clients: int, key: bytes) -> tuple[str, int, list[tuple[str, int, int]]]:
    """`plan`'s bots, each one-seat game's at a table of its own (`own = true` kinds): the tables
    file (its shared tables alone are opened at start), how many shared tables, each bot's table
    (its id under the database's key, `own_key`)."""
    _, _, seats = plan(clients)
    shared = sorted({t for t, _, _ in seats if load_variant(t.rsplit("-", 1)[0]).seats > 1})
    text = "".join(f'[[table]]\nvariant = "{n}"\nown = true\n\n' for n in PRESETS if load_variant(n).seats == 1)
    games = {n: sum(1 for t in shared if t.rsplit("-", 1)[0] == n) for n in PRESETS if load_variant(n).seats > 1}
    text += "".join(f'[[table]]\nvariant = "{n}"\ncount = {c}\n\n' for n, c in games.items() if c)
    own = [
        (t if t in shared else own_table(t.rsplit("-", 1)[0], f"bot-{k}", key), minimum, place)
        for k, (t, minimum, place) in enumerate(seats)
    ]
    return text, len(shared), own


def own_key(url: str) -> bytes:
    """The key of the own tables' ids in the database at `url` (made there if it has none yet)."""
    db = Database(connect(url))
    try:
        return db.run_now(lambda tx: server_keys.key(tx, server_keys.OWN_TABLES))
    finally:
        db.dialect.close()


def seed_accounts(url: str, n: int) -> list[str]:
    """n accounts with play money and a session each; their tokens."""
    hashed, tokens = hash_password("bench password"), [secrets.token_urlsafe(24) for _ in range(n)]
    currencies = sorted({load_variant(name).currency.code for name in PRESETS})  # every table's
    expires = "9999-01-01T00:00:00+00:00"

    def job(tx: Tx) -> None:
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

    def loop_cpu(self) -> float:
        """CPU seconds so far of the process's main thread, its event loop (the sockets, the
        engine, the commit's statements on SQLite); the rest of its CPU is its other threads' (the
        database's begin and commit, the reads, the trainer's tables built), which the operating
        system does not tell apart (they share the process's name)."""
        stat = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

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

    def __init__(self, port: int, log: Path, view_bytes: int, engine: Path | None = None) -> None:
        self.view_bytes, self.engine = view_bytes, engine  # engine: the tables file it opens
        super().__init__("", log.parent, port, log)

    def command(self) -> list[str]:
        floor = Path(__file__).with_name("floor_server.py")
        engine = ["--engine", "--tables", str(self.engine)] if self.engine else []
        return [sys.executable, str(floor), "--port", str(self.port), "--view-bytes", str(self.view_bytes), *engine]


def wait_served(processes: list[Process], tables: int, seconds: float = 600) -> None:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        served = [p.health() for p in processes]
        warming = any(h.get("warming") for h in served if h)  # the start's one-off work, not the load's
        if all(served) and sum(h["tables"] for h in served if h) == tables and not warming:
            return
        time.sleep(0.5)
    raise TimeoutError("the servers did not serve every table")


# ---- the bots ----------------------------------------------------------------------------------------


@dataclass
class Start:
    """The bots' start: each opens its socket and waits for `go`, set once every socket is open
    (the server's memory is read then: its sockets open, nothing played); then they play until
    `until`."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    opened: int = 0
    until: float = float("inf")


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
        start: Start,
        pooled: bool = False,
    ) -> None:
        self.token, self.table, self.minimum, self.ports, self.start = token, table, minimum, ports, start
        self.pooled, self.sat = pooled, False  # `pooled`: bets the progressive each round (`--own-tables`)
        self.stats, self.pace, self.rng = stats, pace, random.Random(token)
        self.url = self._socket(ports[place % len(ports)])  # the table's socket: `moved` says where it is
        self.moved_to: str | None = None
        self.view: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.answers: dict[int, asyncio.Future[dict[str, Any] | None]] = {}
        self.next = 0

    async def run(self) -> None:
        if self.pace:  # paced players come in over the first interval, as they then act: not all at once
            await asyncio.sleep(self.rng.uniform(0, self.pace))
        while time.monotonic() < self.start.until:
            try:
                await self._session(self.start.until)
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
                if not self.start.go.is_set():  # the first socket: played once every bot's is open
                    self.start.opened += 1
                    await self.start.go.wait()
                await self._play(ws, self.start.until)
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


OPEN_MOST = 120.0  # seconds the bots' sockets may take to open before the play starts anyway


async def load(
    bots: list[Bot], seconds: float, kill_at: float | None, processes: list[Process], rss: list[tuple[float, int]]
) -> tuple[float, int]:
    """The bots' run: their sockets opened first (`Start`), then `seconds` of play; `rss` gets
    the (first) server's memory every `RSS_EVERY` seconds of the play, the last sample a second
    before the bots stop (every one still connected). The play's time, and the server's memory
    once every socket was open, before any command."""
    tasks = [asyncio.create_task(b.run()) for b in bots]
    begun, opening = bots[0].start, time.monotonic() + OPEN_MOST
    while begun.opened < len(bots) and time.monotonic() < opening:
        await asyncio.sleep(0.1)
    await asyncio.sleep(1)  # the last welcomes sent
    opened = processes[0].rss_kb()
    start = time.monotonic()
    until = begun.until = start + seconds
    begun.go.set()
    sampler = asyncio.create_task(sample_rss(processes[0], start, until - 1, rss))
    if kill_at is not None:
        await asyncio.sleep(kill_at)
        await asyncio.to_thread(processes[0].kill_and_restart)
    await asyncio.gather(*tasks)
    sampler.cancel()
    return time.monotonic() - start, opened


RSS_EVERY = 1.0


async def sample_rss(process: Process, start: float, last: float, rss: list[tuple[float, int]]) -> None:
    while (now := time.monotonic()) < last:
        rss.append((now - start, process.rss_kb()))
        await asyncio.sleep(min(RSS_EVERY, max(0.0, last - now)))
    rss.append((time.monotonic() - start, process.rss_kb()))


def rss_growth(rss: list[tuple[float, int]], window: tuple[float, float]) -> float:
    """How much the RSS grew, in percent, from the sample nearest the window's start to the last
    one at or before its end."""
    inside = [kb for t, kb in rss if t <= window[1]] or [0]
    first = min(rss, key=lambda sample: abs(sample[0] - window[0]))[1] if rss else 0
    return round(100 * (inside[-1] - first) / first, 2) if first else 0.0


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
    parser.add_argument("--clients", type=int, nargs="+", default=[100], help="one load each, in turn")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--minutes", type=float, default=None, help="a long run: the RSS from the 2nd to the 10th minute"
    )
    parser.add_argument("--database", default=None, help="default: a SQLite file in a temporary folder")
    parser.add_argument("--pace", type=float, default=None, help="each client acts about once every PACE s")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--kill-at", type=float, default=None, help="SIGKILL the (first) server this many s in")
    parser.add_argument("--idle", type=int, default=0, help="hold this many lobby watchers open instead")
    parser.add_argument("--floor", action="store_true", help="the floor server in turn (ABBA), and the ratios")
    parser.add_argument(
        "--engine-floor", action="store_true", help="with --floor, also the floor that plays the engine in memory"
    )
    parser.add_argument("--split", action="store_true", help="then one more server run under py-spy: CPU by layer")
    parser.add_argument("--stacks", type=Path, default=None, help="with --split: py-spy's raw stacks kept here")
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
    parser.add_argument("--record", action="store_true", help="write this run's rows of benches/results.toml")
    parser.add_argument("--format", choices=["json"], default="json")
    args = parser.parse_args()
    if args.minutes is not None:
        args.seconds = 60 * args.minutes
    if args.floor and (args.database or args.processes > 1):
        parser.error("--floor runs each server on a fresh SQLite file in turn: no --database, one process")
    if args.engine_floor and not args.floor:
        parser.error("--engine-floor goes with --floor")
    if args.own_tables and args.floor:
        parser.error("--own-tables compares the server at two kinds of tables: without --floor")
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:  # on the machine's disk: /tmp is no tmpfs here
        for clients in args.clients:
            result = measure(args, Path(folder) / f"clients-{clients}", clients)
            if args.find_load and args.pace and not results:  # after the first load only
                cpu_s = result["cpu_us_per_command"] / 1e6  # a client sends about one command a pace
                at = int(args.find_load / 100 * args.pace / cpu_s)
                result = {**result, "at_load": measure(args, Path(folder) / f"at-load-{clients}", at)}
            if args.own_tables:
                own = own_tables(args, result, Path(folder) / f"own-{clients}", clients)
                result = {**result, "own_tables": own}
            results.append(result)
    if args.record:
        record.write(server_rows.rows(args, results, sys.argv[1:]), server_rows.RECORDED)
    print(json.dumps(results[0] if len(results) == 1 else {"loads": results}))


def rss_window(seconds: float) -> tuple[float, float]:
    """The RSS growth's window: the 2nd to the 10th minute of a run that long (`--minutes`); in a
    shorter run, from a fifth of it to its end (said in the output as `rss_window_s`)."""
    return (120.0, 600.0) if seconds >= 600 else (seconds / 5, seconds)


def measure(args: argparse.Namespace, folder: Path, clients: int) -> dict[str, Any]:
    """One run against the game server at `clients` bots; with `--floor`, the server and the
    floors in turn, then in the reverse order (`turns`); a fresh database each server run."""
    folder.mkdir()
    host = describe()  # before the load: its load average is other work's
    text, tables, seats = plan(max(clients, 1))
    tables_file = folder / "tables.toml"
    tables_file.write_text(text)
    if args.idle:
        url = args.database or str(folder / "casino.db")
        seed_accounts(url, len(seats))
        processes = [Process(url, tables_file, _free_port(), folder / "serve.log") for _ in range(args.processes)]
        return idle_memory(processes, tables, args.idle, host)
    if args.floor:
        return turns(args, folder, tables_file, tables, seats) | {"host": host}
    raw = folder / "split.txt" if args.split else None  # alone, the server's one run is the one sampled
    result = serve(args, folder / "server", tables_file, tables, seats, profile=raw)[1] | {"host": host}
    return result | ({"split": by_layer(raw, result["cpu_us_per_command"], args.stacks)} if raw else {})


def serve(
    args: argparse.Namespace, folder: Path, tables_file: Path, tables: int, seats: Any, profile: Path | None = None
) -> tuple[list[str], dict[str, Any]]:
    """The bots against `caribbean-fast serve` on a fresh database (`--database`: that one); the
    bots' tokens and the run's figures, its books checked after."""
    folder.mkdir()
    url = args.database or str(folder / "casino.db")
    tokens = seed_accounts(url, len(seats))
    processes = [Process(url, tables_file, _free_port(), folder / "serve.log") for _ in range(args.processes)]
    found: dict[str, Any] = {}
    _, result = drive(args, processes, tokens, seats, lambda: ready(processes, tables, found), profile)
    result["rss_start_kb"] = found["rss_start_kb"]  # every table open, no socket yet
    result["start_ms_per_table"] = round(1000 * found["ready_seconds"] / max(tables, 1), 3)  # opened at start
    reconciled, rounds, failed = books(url)
    return tokens, result | {
        "tables": tables,
        "rounds": rounds,
        "rounds_per_second": round(rounds / result["seconds"], 1),
        "reconciled": reconciled,
        "audit_failures": failed[:5],
        "processes": args.processes,
        "database": "postgresql" if url.startswith("postgres") else "sqlite",
    }


def turns(args: argparse.Namespace, folder: Path, tables_file: Path, tables: int, seats: Any) -> dict[str, Any]:
    """The server, the floor (and the engine floor) in turn, then the same in reverse (ABBA), the
    same bots each time: each kind's figures over its two runs, and the ratios the goals read.
    The floor's views are padded to the first server run's mean size."""
    kinds = ["server", "floor", *(["engine_floor"] if args.engine_floor else [])]
    runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in kinds}
    tokens, view_bytes = [f"floor-{k}" for k in range(len(seats))], 900
    for k, kind in enumerate(kinds + kinds[::-1]):
        if kind == "server":
            _, result = serve(args, folder / f"{k}-server", tables_file, tables, seats)
            view_bytes = view_bytes if runs["server"] else result["view_bytes"]
        else:
            engine = tables_file if kind == "engine_floor" else None
            floor = FloorProcess(_free_port(), folder / f"{k}-{kind}.log", view_bytes, engine)
            _, result = drive(args, [floor], tokens, seats, lambda f=floor: wait_answering(f))
        runs[kind].append(result)
    found: dict[str, Any] = {"clients": len(seats), "order": kinds + kinds[::-1]}
    found |= {kind: combined(results) for kind, results in runs.items()}
    server, floor = found["server"], found["floor"]
    found |= {
        "cpu_us_per_command": server["cpu_us_per_command"],
        "cpu_ratio_to_floor": _ratio(server["cpu_us_per_command"], floor["cpu_us_per_command"]),
        "memory_ratio_to_floor": _ratio(server["kb_per_client"], floor["kb_per_client"]),
        # a client's memory in its two parts, each kind's: its socket open, and what its play added
        "kb_parts": {k: {"connection": found[k]["kb_per_connection"], "play": found[k]["kb_of_play"]} for k in kinds},
        "reconciled": all(r["reconciled"] for r in runs["server"]),
    }
    if args.engine_floor:
        engine = found["engine_floor"]
        found |= {
            "engine_floor_ratio_to_floor": _ratio(engine["cpu_us_per_command"], floor["cpu_us_per_command"]),
            "cpu_ratio_to_engine_floor": _ratio(server["cpu_us_per_command"], engine["cpu_us_per_command"]),
        }
    if args.split:
        found["split"] = split_run(args, folder, tables_file, tables, seats)
    return found | {"runs": runs}


def split_run(args: argparse.Namespace, folder: Path, tables_file: Path, tables: int, seats: Any) -> dict[str, Any]:
    """One more server run (not in the ratios) with py-spy sampling it: the CPU a command by layer."""
    raw = folder / "split.txt"
    _, result = serve(args, folder / "split-server", tables_file, tables, seats, profile=raw)
    return by_layer(raw, result["cpu_us_per_command"], args.stacks)


def by_layer(raw: Path, us: float, stacks: Path | None = None) -> dict[str, Any]:
    """The CPU a command `us` split by layer from py-spy's samples in `raw` (`layers`)."""
    import layers

    text = raw.read_text() if raw.exists() else ""
    if stacks is not None:
        stacks.write_text(text)
    return {
        "cpu_us_per_command": us,
        "us_per_command": layers.per_command(layers.split(text), us),
        "hot": layers.hot(text, us),  # each layer's innermost frames that took most
    }


def combined(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A kind's figures over its runs: the CPU a command over every command of them, each run's
    latency and memory figures, the memory a client their mean."""
    commands = sum(r["commands"] for r in results)
    cpu = sum(r["cpu_us_per_command"] * r["commands"] for r in results)
    each = ("cpu_us_per_command", "p50_ms", "p99_ms", "servers_cpu_percent", "rss_growth_percent", "errors")
    threads = {k: sum(r["threads_us_per_command"][k] * r["commands"] for r in results) for k in ("loop", "threads")}
    return {
        "cpu_us_per_command": round(cpu / max(commands, 1)),
        "threads_us_per_command": {k: round(v / max(commands, 1)) for k, v in threads.items()},
        "commands": commands,
        "kb_per_client": round(sum(r["kb_per_client"] for r in results) / len(results), 1),
        "kb_per_connection": round(sum(r["kb_per_connection"] for r in results) / len(results), 1),
        "kb_of_play": round(sum(r["kb_of_play"] for r in results) / len(results), 1),
        "views_per_command": results[0]["views_per_command"],
        "view_bytes": results[0]["view_bytes"],
        "disk_bytes_per_command": round(sum(r["disk_bytes_per_command"] for r in results) / len(results)),
    } | {f"runs_{key}": [r[key] for r in results] for key in each}


def _ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else 0.0


def drive(
    args: argparse.Namespace,
    processes: list[Process],
    tokens: list[str],
    seats: Any,
    ready: Any,
    profile: Path | None = None,
    pooled: bool | None = None,
) -> tuple[Stats, dict[str, Any]]:
    """The bots against the processes, once they are `ready`; the load's figures. `profile`:
    py-spy samples the first process over the load, into that file (`layers`); `pooled`: the
    bots bet the progressive (default: with `--own-tables`, so both runs play alike)."""
    ports = [p.port for p in processes]
    pooled = args.own_tables if pooled is None else pooled
    rss: list[tuple[float, int]] = []
    spy = None
    try:
        ready()
        stats, start = Stats(), Start()
        bots = [
            Bot(tok, t, m, k, ports, stats, args.pace, start, pooled)
            for tok, (t, m, k) in zip(tokens, seats, strict=True)
        ]
        quiet_gc()  # the bots: 5.6 s of collector passes a 2,000-client run, pauses up to 275 ms, in the latencies
        rss_before = processes[0].rss_kb()  # every table open, no client yet
        if profile is not None:
            import layers

            spy = layers.start(processes[0].proc.pid, profile, args.seconds - 1)
        cpu_before, disk_before, ticks = _cpu(processes), sum(p.disk_bytes() for p in processes), cpu_ticks()
        loop_before = processes[0].loop_cpu()
        elapsed, rss_open = uvloop.run(load(bots, args.seconds, args.kill_at, processes, rss))  # the server's loop too
        cpu = [b - a for a, b in zip(cpu_before, _cpu(processes), strict=True)]
        loop = processes[0].loop_cpu() - loop_before
        threads = {"loop": loop, "threads": cpu[1] - loop}  # the first process's: its main thread, the others
        disk = sum(p.disk_bytes() for p in processes) - disk_before
        steal = steal_since(ticks)
        if spy is not None:
            spy.wait(60)
        served = sum((p.health() or {}).get("tables", 0) for p in processes)  # own tables open at the end
        commits = _commits(processes)
    finally:
        for p in processes:
            p.stop()
    commands = max(stats.commands, 1)
    window = rss_window(elapsed)
    clients, rss_end = max(len(bots), 1), rss[-1][1] if rss else 0
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
            "threads_us_per_command": {k: round(1e6 * v / commands) for k, v in threads.items()},
            "disk_bytes_per_command": round(disk / commands),  # reaching the storage layer (/proc/<pid>/io)
            "steal_percent": round(steal, 1),  # of both cores' time over the load, run elsewhere
            # The (first) server's memory: before any client, with every socket open and nothing
            # played, at the end (every client connected); a client's, and its two parts: its
            # socket's (opened, idle), and what its play added (its table's state, its frames).
            "rss_before_kb": rss_before,
            "rss_open_kb": rss_open,
            "rss_end_kb": rss_end,
            "kb_per_client": round((rss_end - rss_before) / clients, 1),
            "kb_per_connection": round((rss_open - rss_before) / clients, 1),
            "kb_of_play": round((rss_end - rss_open) / clients, 1),
            "rss_growth_percent": rss_growth(rss, window),
            "rss_window_s": [round(window[0]), round(window[1])],
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
    text, shared, seats = plan_own(max(clients, 1), own_key(url))
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
