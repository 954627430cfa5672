"""Leases by rendezvous hashing over the live processes (`server/cluster/placement.py`): the tables split
between the processes, a process that dies leaves its tables to the survivors, and one that
starts again takes back its share, each table given back between rounds (never mid-round)."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
from live_server import Client, ServerProcess, _free_port, books
from test_server_relay import relay_metrics, wait_for

from caribbean_fast.errors import ServerError
from caribbean_fast.play.remote import Link
from caribbean_fast.server.cluster.placement import owner_of

TABLES = 16


def test_each_table_has_one_owner_and_a_process_leaving_moves_only_its_own() -> None:
    three = ["ws://10.0.0.1:8001/ws", "ws://10.0.0.1:8002/ws", "ws://10.0.0.2:8001/ws"]
    tables = [f"cyberstud-{k}" for k in range(3000)]
    owners = {t: owner_of(t, three) for t in tables}
    assert owners == {t: owner_of(t, reversed(three)) for t in tables}  # the order of the set is no matter
    share = Counter(owners.values())
    assert all(900 < share[e] < 1100 for e in three)  # about a third each
    survivors = {t: owner_of(t, three[:2]) for t in tables}
    assert all(survivors[t] == owners[t] for t in tables if owners[t] != three[2])  # the others' stay put
    moved = Counter(survivors[t] for t in tables if owners[t] == three[2])
    assert all(400 < moved[e] < 600 for e in three[:2])  # the dead one's spread over both


def tables_file(folder: Path) -> Path:
    path = folder / "tables.toml"
    path.write_text(f'[[table]]\nvariant = "cyberstud"\nseats = 1\ncount = {TABLES}\n')
    return path


def share_of(process: ServerProcess, live: list[ServerProcess]) -> list[str]:
    ends = [p.ws for p in live]
    return [t for t in (f"cyberstud-{k + 1}" for k in range(TABLES)) if owner_of(t, ends) == process.ws]


def command(link: Link, kind: str, seconds: float = 15, **fields: object) -> dict[str, object]:
    """The command's result, sent again while its table is between processes (`unavailable`)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if link.ws is None:
                link.open()
            return link.command(kind, **fields)
        except ServerError as err:
            if err.code != "unavailable" or time.monotonic() > deadline:
                raise
            time.sleep(0.3)


@pytest.mark.slow
def test_a_process_started_again_takes_back_its_share_between_rounds(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("one process serves every table of a SQLite database")
    tables = str(tables_file(tmp_path))
    first = ServerProcess(database_url, tables)
    second: ServerProcess | None = None
    restarted: ServerProcess | None = None
    try:
        first.wait(TABLES)  # alone: every table
        second = ServerProcess(database_url, tables)
        mine = share_of(second, [first, second])
        assert 0 < len(mine) < TABLES
        second.wait(len(mine), seconds=20)  # the first gave them back: idle, between rounds
        first.wait(TABLES - len(mine))
        table = mine[0]
        token = httpx.post(f"{first.http}/api/guest").json()["token"]
        link = Link(first.http, token, table)  # the table's socket at the first: moved to the second
        link.open()
        assert command(link, "sit", table=table, buy_in=10_000) == {"seat": 0}
        command(link, "ante", table=table, amount=200)
        command(link, "deal", table=table)
        second.kill()
        first.wait(TABLES, seconds=20)  # the survivor takes the dead one's tables
        link.close()
        link.open()  # the table's socket at the first again: it serves it now, mid-round
        restarted = ServerProcess(database_url, tables, port=second.port)  # the same endpoint
        restarted.wait(len(mine) - 1, seconds=20)  # its share back, but the table in play
        time.sleep(1)
        assert restarted.health()["tables"] == len(mine) - 1  # type: ignore[index]
        assert command(link, "fold", table=table) == {}  # the round ends: the table goes back now
        restarted.wait(len(mine), seconds=20)
        returned = command(link, "leave", table=table)  # moved, and followed, to the restarted one
        assert returned == {"returned": 10_000 - 200}
        assert link.url.endswith(f"/ws/{table}")
        link.close()
        metrics = httpx.get(f"{first.http}/metrics").text
        given = next(line for line in metrics.splitlines() if line.startswith("cf_tables_given_total"))
        assert float(given.split()[1]) == 2 * len(mine)  # its share at start, and again after the restart
    finally:
        for process in (first, second, restarted):
            if process is not None and process.process.poll() is None:
                process.kill()
    assert books(database_url)[0]


@pytest.mark.slow
def test_a_lobby_socket_keeps_its_seat_when_its_table_is_given_back(database_url: str, tmp_path: Path) -> None:
    """A player on the lobby's socket (`/ws`, the fallback of one socket) at the process that gives
    the table away: that process relays the seat from then on, its view first."""
    if not database_url.startswith("postgresql"):
        pytest.skip("one process serves every table of a SQLite database")
    tables = str(tables_file(tmp_path))
    first = ServerProcess(database_url, tables)
    port = _free_port()
    second: ServerProcess | None = None
    try:
        first.wait(TABLES)
        ends = [first.ws, f"ws://127.0.0.1:{port}/ws"]
        table = next(t for t in (f"cyberstud-{k + 1}" for k in range(TABLES)) if owner_of(t, ends) == ends[1])
        player = Client(first.ws, httpx.post(f"{first.http}/api/guest").json()["token"])
        player.ok("sit", table=table, buy_in=10_000)
        second = ServerProcess(database_url, tables, port=port)
        view = wait_for(player, "view", table)["view"]  # the second's, relayed: the table moved, the seat kept
        assert view["seat"] == 0 and view["balance"] == 10_000
        assert player.ok("ante", table=table, amount=100) == {}  # relayed to the second
        assert relay_metrics(first)['cf_relayed_commands_total{outcome="ok"}'] >= 1
        assert player.ok("leave", table=table) == {"returned": 10_000}
        player.close()
    finally:
        for process in (first, second):
            if process is not None:
                process.kill()
                process.log.close()
