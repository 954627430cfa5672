"""Table engine throughput: rounds a second played by the `simple` strategy, in memory and into a
SQLite record (one synchronous transaction per event), and how fast a record restores and audits;
and as a game server drives a table: players' commands by their entry of the engine's list
(`Table.play`), as a frame's parse found it, with every seat's view after each, timed apart
(commands a second, microseconds a view).

Run: ``python benches/table_engine.py [--rounds 1000]``
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

from caribbean_fast import load_variant
from caribbean_fast.engine import EventStore, MemoryStore, SqliteStore, Table, audit, restore
from caribbean_fast.engine.autoplay import choose, play_round
from caribbean_fast.engine.commands import ANTE, DEAL, FOLD, RAISE, EngineCommand

GAMES = ("cyberstud", "network-24h", "caribbean-poker", "casino-holdem")


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


def _served(name: str, rounds: int) -> tuple[float, float]:
    """(commands a second, microseconds a view): each seat antes the minimum, the deal, each seat
    raises or folds by the `simple` strategy; after every command, every seat's view."""
    variant = load_variant(name)
    table = Table(variant, seed=1, store=MemoryStore())
    for seat in range(table.seats):
        table.deposit(seat, 10**9)
    commands, views = [0.0, 0], [0.0, 0]

    def command(seat: int, kind: EngineCommand, args: dict[str, object]) -> None:
        start = time.perf_counter()
        table.play(seat, kind, args)
        shown = time.perf_counter()
        seen = [table.view(k) for k in range(table.seats)]
        end = time.perf_counter()
        commands[0], commands[1] = commands[0] + shown - start, commands[1] + 1
        views[0], views[1] = views[0] + end - shown, views[1] + len(seen)

    for _ in range(rounds):
        for seat in range(table.seats):
            command(seat, ANTE, {"amount": table.limits.minimum})
        command(0, DEAL, {})
        for seat in range(table.seats):
            choice = choose("simple", variant, table.view(seat))
            command(seat, FOLD if choice == "fold" else RAISE, {})
    return commands[1] / commands[0], views[0] / views[1] * 1e6


def _per_second(job: Callable[[EventStore], object], store: EventStore, events: int) -> float:
    start = time.perf_counter()
    job(store)
    return events / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
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
            served, per_view = _served(name, args.rounds)
            out.add_row(*row, f"{restoring:,.0f}", f"{auditing:,.0f}", f"{served:,.0f}", f"{per_view:.1f}")
    Console(width=140).print(out)


if __name__ == "__main__":
    main()
