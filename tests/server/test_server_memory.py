"""A long-running server's tables stay small: a table keeps only its latest round's events in
memory, and game recall (`history`, `recall`) reads the rounds from the database, answering as
the whole record says, across a restart too."""

from __future__ import annotations

import json
from typing import Any

import httpx
from live_server import Client, LiveServer, recorded, settings

from caribbean_fast.engine.history import seat_history
from caribbean_fast.server.tables.owner import Owner

TABLE = "cyberstud-1"
ROUNDS = 30


def owner_of(server: LiveServer) -> Owner:
    owner: Owner = server.app.state.server.owners[TABLE]
    return owner


def from_the_store(url: str, seat: int, last: int) -> list[list[dict[str, Any]]]:
    """The seat's rounds as the engine's game recall reads the whole record."""
    return seat_history(recorded(url, TABLE), seat, last)


def closed_rounds(server: LiveServer) -> int:
    """The server's count of rounds closed (its metrics)."""
    lines = httpx.get(f"{server.http}/metrics").text.splitlines()
    return int(float(next(line.split()[-1] for line in lines if line.startswith("cf_rounds_total "))))


def same(a: object, b: object) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_a_table_played_long_holds_one_round_and_recalls_every_round(database_url: str) -> None:
    # 92 commands back to back: faster than the flood limit's 20 a second (not what this tests)
    with LiveServer(settings(database_url, rate=1e6, burst=1e6)) as server:
        token = server.guest()
        player = Client(server.ws, token)
        player.ok("sit", table=TABLE, buy_in=50_000)
        most = 0
        for n in range(ROUNDS):
            player.ok("ante", table=TABLE, amount=100)
            player.ok("deal", table=TABLE)
            player.ok("raise" if n % 2 else "fold", table=TABLE)
            most = max(most, len(owner_of(server).t.events))
        seq = owner_of(server).t.seq
        assert seq > 10 * ROUNDS and most <= seq // ROUNDS + 2  # one round (and the sit), never the past
        assert closed_rounds(server) == ROUNDS  # counted from memory: none is let go uncounted
        rounds = player.ok("history", table=TABLE, last=50)["rounds"]
        assert [r[0]["round"] for r in rounds] == list(range(1, ROUNDS + 1))
        assert same(rounds, from_the_store(database_url, 0, 50))
        last = player.ok("history", table=TABLE, last=10)["rounds"]
        assert same(last, rounds[-10:])
        player.close()
    with LiveServer(settings(database_url)) as server:  # restored: the rows read are let go
        assert len(owner_of(server).t.events) <= seq // ROUNDS + 2
        back = Client(server.ws, token)
        assert same(back.ok("history", table=TABLE, last=50)["rounds"], rounds)
        back.close()
