"""A long-running server's tables stay small: a table keeps only its latest round's events in
memory, and game recall (`history`, `recall`) reads the rounds from the database, answering as
the whole record says, across a restart too; and a closed socket or a refused command leaves nothing
behind for the cyclic collector to find."""

from __future__ import annotations

import gc
import json
import time
from typing import Any

import httpx
from live_server import Client, LiveServer, recorded, settings

from caribbean_fast.engine.history import seat_history
from caribbean_fast.errors import CaribbeanFastError
from caribbean_fast.server.host import Server
from caribbean_fast.server.tables.owner import Owner
from caribbean_fast.server.wire.hub import Connection
from caribbean_fast.server.wire.serving import BurstWebSockets, GatedHttp

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


def alive(kind: type) -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, kind))


def test_closed_sockets_and_refused_commands_are_freed_without_the_collector(database_url: str) -> None:
    """With the cyclic collector off, every Connection, every refusal and each socket's protocols
    are freed once its socket closes: none is kept in a reference cycle (a cancelled writer's error
    holding its connection, a refusal's traceback holding the futures and the database batch it
    came through, the HTTP protocol's parser, the scope holding its protocol), which a
    serving process, whose collector makes a full pass rarely, would hold for minutes."""
    cycles = 12
    with LiveServer(settings(database_url)) as live:
        server: Server = live.app.state.server
        token = live.guest()
        first = Client(live.ws, token)
        first.ok("sit", table=TABLE, buy_in=50_000)
        first.close()
        gc.collect()
        gc.disable()
        try:
            refused = 0
            for _ in range(cycles):
                player = Client(live.ws, token)
                player.ok("ante", table=TABLE, amount=100)
                player.ok("deal", table=TABLE)
                for kind in ("deal", "ante"):  # refused while deciding: in the pool's job, in the database
                    refused += not player.cmd(kind, table=TABLE, amount=100)["ok"]
                player.ok("fold", table=TABLE)
                refused += not player.cmd("fold", table=TABLE)["ok"]  # refused before the commit
                player.close()
            deadline = time.monotonic() + 10
            while (alive(Connection) or server.hub.connections) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert refused == 3 * cycles
            assert (alive(Connection), len(server.hub.connections), dict(server.hub._accounts)) == (0, 0, {})
            assert alive(CaribbeanFastError) == 0
            assert (alive(GatedHttp), alive(BurstWebSockets)) == (0, 0)  # each socket's protocols
        finally:
            gc.enable()
