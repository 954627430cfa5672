"""The waiting list (`wait`, `unwait`): the server keeps the list in the table owner's memory, the
engine seats. A full table's next free seat goes to the first account waiting, with its buy-in,
through the engine's `sit` in the normal money job, and the account is told with a `waitlist`
frame; while accounts wait, `sit` leaves the seats that free to them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, settings

from caribbean_fast.server.config import default_own, default_tables


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path / "t.db"))) as server:
        yield server


def _frames(c: Client, kind: str) -> list[dict[str, object]]:
    return [f for f in map(json.loads, c.raw) if f["type"] == kind]


def _await(c: Client, kind: str) -> dict[str, object]:
    while not _frames(c, kind):
        c.recv()
    return _frames(c, kind)[-1]


def test_the_first_waiting_account_takes_the_seat_that_frees(live: LiveServer) -> None:
    table = "cyberstud-1"  # one seat
    alice, bob, carol = (Client(live.ws, live.guest()) for _ in range(3))
    assert alice.ok("wait", table=table, buy_in=5_000) == {"seat": 0}  # free and nobody waits: sits at once
    assert bob.ok("wait", table=table, buy_in=4_000) == {"place": 1, "waiting": 1}
    assert carol.ok("wait", table=table, buy_in=3_000) == {"place": 2, "waiting": 2}
    assert bob.ok("wait", table=table, buy_in=4_500) == {"place": 1, "waiting": 2}  # keeps its place
    lobby = httpx.get(f"{live.http}/api/lobby").json()["tables"]
    assert next(e for e in lobby if e["table"] == table)["waiting"] == 2
    alice.ok("leave", table=table)
    frame = _await(bob, "waitlist")
    assert frame == {"v": 1, "type": "waitlist", "table": table, "seat": 0, "reason": None}
    owner = live.app.state.server.owners[table]
    assert owner.players == {0: bob.welcome["account"]}
    assert owner.t.balance(0) == 4_500
    assert list(owner.waiting) == [carol.welcome["account"]]
    assert _frames(carol, "waitlist") == []
    carol.ok("unwait", table=table)
    assert owner.waiting == {}
    for c in (alice, bob, carol):
        c.close()


def test_a_sit_leaves_a_freed_seat_to_those_waiting(live: LiveServer) -> None:
    table = "cyberstud-1"
    alice, bob, dave = (Client(live.ws, live.guest()) for _ in range(3))
    alice.ok("sit", table=table, buy_in=5_000)
    bob.ok("wait", table=table, buy_in=5_000)
    bob.close()  # not connected when the seat frees: it leaves the list, the seat stays free
    alice.ok("leave", table=table)
    owner = live.app.state.server.owners[table]
    refused = dave.cmd("sit", table=table, buy_in=5_000)
    if refused["ok"]:  # bob's turn came and went first
        assert owner.waiting == {}
    else:
        assert refused["error"]["code"] == "seat_taken" and "waiting list" in refused["error"]["message"]
        while owner.waiting:
            dave.cmd("ping")
        assert dave.ok("sit", table=table, buy_in=5_000) == {"seat": 0}
    alice.close()
    dave.close()


def test_a_waiting_account_whose_wallet_is_short_is_told_why(live: LiveServer) -> None:
    table = "cyberstud-1"
    alice, bob = Client(live.ws, live.guest()), Client(live.ws, live.guest())
    alice.ok("sit", table=table, buy_in=5_000)
    bob.ok("wait", table=table, buy_in=live.settings.demo_balance + 1)
    alice.ok("leave", table=table)
    frame = _await(bob, "waitlist")
    assert frame["seat"] is None
    assert "wallet" in str(frame["reason"]), frame
    assert live.app.state.server.owners[table].waiting == {}
    alice.close()
    bob.close()


def test_the_default_server_has_own_tables_for_one_seat_games_and_game_3_by_limits() -> None:
    from caribbean_fast.variants import PRESETS

    specs = {s.id: s for s in default_tables()}
    assert sorted(specs) == ["network-24h-1", "network-24h-high-1"]
    kinds = {s.id: s for s in default_own()}
    assert sorted(kinds) == sorted(name for name in PRESETS if name != "network-24h")  # one limit table each
    assert all(s.own == s.id and s.seats == 1 and s.limits == 0 for s in kinds.values())
    low, high = specs["network-24h-1"], specs["network-24h-high-1"]
    assert (low.limits, low.seats, high.limits, high.seats) == (0, 4, 1, 4)
    limits = [(t.minimum, t.maximum) for t in (low.variant.limits[0], high.variant.limits[1])]
    assert limits == [(50, 1_000), (1_000, 10_000)]  # RULES.md: antes 0.50 to 10 and 10 to 100 euros
