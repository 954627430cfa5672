"""The server's clock runs the games' time rules with nobody acting: game 3's bet timer deals and
its decision timer decides automatically; game 5's idle session voids the dealt round and refunds
it. Times are shortened in copies of the presets so the tests take seconds."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from live_server import Client, LiveServer, books, recorded, settings

from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import load_variant

pytestmark = pytest.mark.slow


def wait_for(client: Client, table: str, done: Callable[[dict[str, Any]], bool], seconds: float = 10) -> dict[str, Any]:
    """Reads frames until a view of the table satisfies `done`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = client.recv(timeout=seconds)
        view: dict[str, Any] = frame.get("view", {})
        if frame["type"] == "view" and frame["table"] == table and done(view):
            return view
    raise TimeoutError(f"no such view of {table}")


def test_game_3_timers_deal_and_decide(tmp_path: Path) -> None:
    game3 = load_variant("network-24h")
    quick = replace(game3, timing=replace(game3.timing, bet_seconds=1, decision_seconds=1))
    with LiveServer(settings(str(tmp_path / "casino.db"), tables=[TableSpec("g3-1", quick, 4)])) as server:
        c = Client(server.ws, server.guest())
        c.ok("sit", table="g3-1", buy_in=5_000)
        c.ok("ante", table="g3-1", amount=50)
        dealt = wait_for(c, "g3-1", lambda v: v["phase"] == "deciding")
        assert len(dealt["cards"]) == 5  # dealt by the bet timer
        settled = wait_for(c, "g3-1", lambda v: v["phase"] == "settled")
        decision = settled["result"]["outcome"]["decision"]
        assert decision in ("raise", "fold") and settled["result"]["net"]["total"] != 0
        c.close()
        database = server.settings.database
    assert books(database) == (True, 1)


def test_game_5_round_left_open_is_void_then_the_idle_session_ends(tmp_path: Path) -> None:
    """The dealt round waits for its player past the idle time, then past its own limit it is void
    and its bets refunded; the idle session then ends between rounds."""
    game5 = load_variant("casino-holdem")
    quick = replace(game5, timing=replace(game5.timing, idle_seconds=1, open_round_seconds=2))
    with LiveServer(settings(str(tmp_path / "casino.db"), tables=[TableSpec("g5-1", quick, 1)])) as server:
        c = Client(server.ws, server.guest())
        c.ok("sit", table="g5-1", buy_in=5_000)
        c.ok("ante", table="g5-1", amount=quick.limits[0].minimum)
        c.ok("deal", table="g5-1")
        closed = wait_for(c, "g5-1", lambda v: v["phase"] == "closed")
        assert closed["balance"] == 5_000
        events = recorded(server.settings.database, "g5-1")
        dealt = next(e.time for e in events if e.kind == "dealing")
        void = next(e for e in events if e.kind == "round_closed")
        assert void.public["void"] and (void.time - dealt).total_seconds() >= 2  # at its limit, not the idle time
        assert c.ok("leave", table="g5-1") == {"returned": 5_000}
        c.close()
        database = server.settings.database
    assert books(database) == (True, 1)
