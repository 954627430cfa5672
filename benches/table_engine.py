"""Table engine throughput: rounds a second played by the `simple` strategy, in memory and into a
SQLite record (one synchronous transaction a command), and how fast a record restores and audits;
and as a game server drives a table: players' commands by their entry of the engine's list
(`Table.play`), as a frame's parse found it, with every seat's view after each, timed apart
(commands a second, microseconds a view).

With ``--peer CHECKOUT`` it measures only the served table, a command with every seat's view
after it, in microseconds, here and in another checkout of the package (its ``python/`` first on
the path of a fresh interpreter; the same compiled core), in turn (ABBA, ``--turns`` pairs), and
the ratio of the medians: the issue's goal is at most 0.4 of commit f859cf1's engine.

With ``--peer`` and ``--record`` it writes its row of benches/results.toml (`record.py`).

Run: ``python benches/table_engine.py [--rounds 1000] [--peer CHECKOUT [--turns 2] [--record]]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import record
from rich.console import Console
from rich.table import Table as RichTable

from caribbean_fast import load_variant
from caribbean_fast.engine import EventStore, MemoryStore, SqliteStore, Table, audit, restore
from caribbean_fast.engine.autoplay import choose, play_round
from caribbean_fast.engine.commands import PLAYED

GAMES = ("atlantic-city", "cyberstud", "network-24h", "caribbean-poker", "casino-holdem")

RECORDED = ["benches/table_engine.py", "python/caribbean_fast/engine", "python/caribbean_fast/settlement.py"]
"""The files whose change makes the recorded row stale (a folder: any file in it)."""


def _play(name: str, store: EventStore, rounds: int) -> tuple[float, int]:
    """(rounds a second, events written)."""
    variant = load_variant(name)
    table = Table(variant, seed=1, store=store)
    for seat in range(table.seats):
        table.deposit(seat, 10**9)
    start = time.perf_counter()
    for _ in range(rounds):
        play_round(table, "simple", table.limits.minimum, variant.progressive is not None)
    return rounds / (time.perf_counter() - start), table.seq


def _entry(name: str) -> Any:
    """What `Table.play` takes for a command: its entry of the engine's list, or in an engine
    before the entries held their methods (a peer such as f859cf1), its name."""
    entry = PLAYED[name]
    return entry if callable(getattr(entry, "player", None)) else name


class Served(NamedTuple):
    per_second: float  # commands a second
    per_view: float  # microseconds a view
    with_views: float  # microseconds a command with every seat's view after it: the median round's


def _served(name: str, rounds: int) -> Served:
    """Each seat antes the minimum, the deal, each seat raises or folds by the `simple` strategy;
    after every command, every seat's view. A command with its views is taken from the median
    round, so that a shared host's stalls (another process's turn on the core) stay out of it."""
    variant = load_variant(name)
    table = Table(variant, seed=1, store=MemoryStore())
    for seat in range(table.seats):
        table.deposit(seat, 10**9)
    commands, views, per_round = [0.0, 0], [0.0, 0], []

    ante, deal, fold, raise_ = (_entry(c) for c in ("ante", "deal", "fold", "raise"))

    def command(seat: int, kind: Any, args: dict[str, object]) -> float:
        start = time.perf_counter()
        table.play(seat, kind, args)
        shown = time.perf_counter()
        seen = [table.view(k) for k in range(table.seats)]
        end = time.perf_counter()
        commands[0], commands[1] = commands[0] + shown - start, commands[1] + 1
        views[0], views[1] = views[0] + end - shown, views[1] + len(seen)
        return end - start

    for _ in range(rounds):
        spent = sum(command(seat, ante, {"amount": table.limits.minimum}) for seat in range(table.seats))
        spent += command(0, deal, {})
        for seat in range(table.seats):
            choice = choose("simple", variant, table.view(seat))
            spent += command(seat, fold if choice == "fold" else raise_, {})
        per_round.append(spent / (2 * table.seats + 1))
    return Served(commands[1] / commands[0], views[0] / views[1] * 1e6, statistics.median(per_round) * 1e6)


def _with_views(rounds: int) -> dict[str, float]:
    """Each game's microseconds a command with every seat's view after it (`_served`)."""
    return {name: _served(name, rounds).with_views for name in GAMES}


def _turn(python_path: Path, rounds: int) -> dict[str, float]:
    """`_with_views` in a fresh interpreter with `python_path` first on its path."""
    env = os.environ | {"PYTHONPATH": str(python_path)}
    command = [sys.executable, __file__, "--rounds", str(rounds), "--worker"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def _against(peer: Path, rounds: int, turns: int) -> dict[str, tuple[float, float]]:
    """This checkout's engine and the peer's in turn, ABBA: the medians (here, the peer's) by game,
    printed with their ratios."""
    ours = Path(__file__).resolve().parents[1] / "python"
    runs: dict[str, list[dict[str, float]]] = {"this": [], "peer": []}
    for _ in range(turns):
        for side in ("this", "peer", "peer", "this"):
            runs[side].append(_turn(ours if side == "this" else peer / "python", rounds))
    out = RichTable(title=f"A command with every seat's view, µs ({rounds} rounds, {turns} ABBA pairs, medians)")
    for column in ("game", "seats", "this", f"peer {peer.name}", "ratio"):
        out.add_column(column, justify="right")
    medians = {name: (_median(runs["this"], name), _median(runs["peer"], name)) for name in GAMES}
    for name, (this, that) in medians.items():
        out.add_row(name, str(load_variant(name).seats), f"{this:.1f}", f"{that:.1f}", f"{this / that:.2f}")
    Console(width=140).print(out)
    ratios = [this / that for this, that in medians.values()]
    print(f"ratio over the games (geometric mean): {statistics.geometric_mean(ratios):.2f}, at most {max(ratios):.2f}")
    return medians


def _median(runs: list[dict[str, float]], name: str) -> float:
    return statistics.median(r[name] for r in runs)


def _row(peer: Path, rounds: int, turns: int, medians: dict[str, tuple[float, float]]) -> dict[str, object]:
    """The peer comparison's row of benches/results.toml, naming the peer by its commit."""
    found = subprocess.run(["git", "-C", str(peer), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    name = f"commit {found.stdout.strip()}" if found.returncode == 0 else peer.name
    ratios = {name: round(this / that, 2) for name, (this, that) in medians.items()}
    times = ", ".join(f"{name} {this:.0f} against {that:.0f}" for name, (this, that) in medians.items())
    mean = statistics.geometric_mean(list(ratios.values()))
    return {
        "id": "table-engine-peer",
        "section": "The table engine",
        "what": f"a command with every seat's view as the server drives a table, against {name}'s engine run in turn",
        "values": ratios,
        "unit": f"times {name}'s",
        "goal": "<= 0.4",
        "command": f"python benches/table_engine.py --peer {peer} --rounds {rounds} --turns {turns} --record",
        "note": f"medians of {2 * turns} runs a side, ABBA, µs: {times}; {mean:.2f} over the games (geometric mean)",
    }


def _per_second(job: Callable[[EventStore], object], store: EventStore, events: int) -> float:
    start = time.perf_counter()
    job(store)
    return events / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--peer", type=Path, help="another checkout of the package, measured in turn")
    parser.add_argument("--turns", type=int, default=2, help="ABBA pairs with --peer")
    parser.add_argument("--record", action="store_true", help="with --peer: write its row of benches/results.toml")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_with_views(args.rounds)))
        return
    if args.peer is not None:
        if not (args.peer / "python" / "caribbean_fast").is_dir():
            parser.error(f"--peer: {args.peer} holds no python/caribbean_fast")
        medians = _against(args.peer, args.rounds, args.turns)
        if args.record:
            record.write([_row(args.peer, args.rounds, args.turns, medians)], RECORDED)
        return
    out = RichTable(title=f"Table engine, {args.rounds} rounds per game, seats as the preset (2 cores)")
    columns = ("game", "seats", "events/round", "memory rounds/s", "SQLite rounds/s", "restore ev/s", "audit ev/s")
    for column in (*columns, "commands/s", "us/view"):
        out.add_column(column, justify="right")
    with tempfile.TemporaryDirectory() as folder:
        for name in GAMES:
            memory = MemoryStore()
            in_memory, events = _play(name, memory, args.rounds)
            sqlite = SqliteStore(Path(folder) / f"{name}.db")
            on_disk, _ = _play(name, sqlite, max(args.rounds // 5, 1))
            restoring = _per_second(restore, memory, events)
            auditing = _per_second(audit, memory, events)
            seats = load_variant(name).seats
            row = (name, str(seats), f"{events / args.rounds:.0f}", f"{in_memory:,.0f}", f"{on_disk:,.0f}")
            served, per_view, _ = _served(name, args.rounds)
            out.add_row(*row, f"{restoring:,.0f}", f"{auditing:,.0f}", f"{served:,.0f}", f"{per_view:.1f}")
    Console(width=140).print(out)


if __name__ == "__main__":
    main()
