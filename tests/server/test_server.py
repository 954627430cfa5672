"""The game server over real sockets: accounts, a round played, wallets, durability, reconnects.

Every test runs a real uvicorn server on loopback (`live_server.LiveServer`) and talks to it with
WebSocket and HTTP clients, as a program would."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from live_server import Client, LiveServer, books, query, recorded, settings

from caribbean_fast import Variant, load_variant
from caribbean_fast.analysis.advice import Advisor
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.words.views import view_from_json


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    with LiveServer(settings(database_url)) as live:
        yield live


def test_register_login_me_logout(server: LiveServer) -> None:
    token = server.register("alice")
    me = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert me == {"account": "alice", "wallets": {}, "guest": False}
    again = httpx.post(f"{server.http}/api/register", json={"name": "alice", "password": "another one"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "name_taken"
    login = httpx.post(f"{server.http}/api/login", json={"name": "alice", "password": "correct horse"})
    assert login.status_code == 200
    cookie = login.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    fresh = login.json()["token"]
    assert httpx.post(f"{server.http}/api/logout", headers={"Authorization": f"Bearer {fresh}"}).status_code == 200
    gone = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {fresh}"})
    assert gone.status_code == 401


@pytest.mark.slow
def test_logins_are_rate_limited(server: LiveServer) -> None:
    server.register("bob")
    codes = [
        httpx.post(f"{server.http}/api/login", json={"name": "bob", "password": "wrong password"}).status_code
        for _ in range(6)
    ]
    assert codes == [401] * 5 + [429]
    right = httpx.post(f"{server.http}/api/login", json={"name": "bob", "password": "correct horse"})
    assert right.status_code == 429  # the name is locked for the minute, even with the right password


def test_lobby_lists_every_table(server: LiveServer) -> None:
    lobby = httpx.get(f"{server.http}/api/lobby").json()["tables"]
    assert [t["table"] for t in lobby] == ["cyberstud-1", "network-24h-1", "casino-holdem-1"]
    assert [t["free"] for t in lobby] == [1, 4, 1]
    health = httpx.get(f"{server.http}/healthz").json()
    assert health.pop("open") >= 1  # this request's own connection, counted at the door
    assert health == {"status": "ok", "database": "ok", "stopped": [], "tables": 3, "connections": 0, "warming": False}


def test_a_round_moves_money_exactly(server: LiveServer) -> None:
    token = server.guest()
    c = Client(server.ws, token)
    assert c.welcome["wallets"] == {"EUR": 100_000, "USD": 100_000} and c.welcome["guest"] is True
    assert c.ok("sit", table="cyberstud-1", buy_in=10_000) == {"seat": 0}
    c.ok("ante", table="cyberstud-1", amount=100)
    c.ok("deal", table="cyberstud-1")
    view = c.views("cyberstud-1")[-1]
    assert view["phase"] == "deciding" and len(view["cards"]) == 5 and len(view["dealer"]) == 1
    c.ok("fold", table="cyberstud-1")
    settled = c.views("cyberstud-1")[-1]
    assert settled["phase"] == "settled" and settled["result"]["net"]["total"] == -100
    assert settled["balance"] == 9_900 and len(settled["dealer"]) == 5
    assert c.ok("leave", table="cyberstud-1") == {"returned": 9_900}
    me = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {token}"})
    assert me.json()["wallets"] == {"EUR": 100_000, "USD": 100_000 - 100}
    c.close()
    assert books(server.settings.database) == (True, 3)


def test_an_answer_is_durable_before_it_is_sent(server: LiveServer) -> None:
    c = Client(server.ws, server.guest())
    c.ok("sit", table="cyberstud-1", buy_in=5_000)
    for k in range(5):
        c.ok("ante", table="cyberstud-1", amount=100 + k)
        url = server.settings.database  # read by another connection, outside the server
        assert sum(e.kind == "ante" for e in recorded(url)) == k + 1
        assert query(
            url, "SELECT currency, amount FROM wallets WHERE account = ? ORDER BY currency", (c.welcome["account"],)
        ) == [("EUR", 100_000), ("USD", 95_000)]
    c.close()


def test_a_dropped_connection_finds_its_hand_as_it_left_it(server: LiveServer) -> None:
    """Issue 42: a lost connection never decides a one-seat round; the player comes back to the
    same cards, bets and decision, and decides it themselves."""
    token = server.guest()
    c = Client(server.ws, token)
    c.ok("sit", table="cyberstud-1", buy_in=5_000)
    c.ok("ante", table="cyberstud-1", amount=100)
    c.ok("deal", table="cyberstud-1")
    dealt = _last_view(c)
    c.close()  # away while dealt, well past the grace period
    time.sleep(1.0)
    back = Client(server.ws, token)
    assert back.welcome["seats"] == [{"table": "cyberstud-1", "seat": 0}]
    view = back.recv()["view"]
    assert view["phase"] == "deciding" and view["cards"] == dealt["cards"] and view["bets"] == dealt["bets"]
    assert {"raise", "fold"} <= set(view["actions"]) and back.recv()["rounds"] == []  # nothing ended
    back.ok("raise", table="cyberstud-1")
    assert _last_view(back)["result"]["auto"] is False
    back.close()
    assert books(server.settings.database) == (True, 3)


def _waiting(name: str, seconds: float) -> Variant:
    """The preset with a dealt round left open completed (or void) after `seconds`, not a day."""
    v = load_variant(name)
    return replace(v, timing=replace(v.timing, open_round_seconds=seconds))


def _closed(url: str, number: int) -> bool:
    """Whether round `number` is closed in the committed record."""
    return any(e.kind == "round_closed" and e.round == number for e in recorded(url))


def _last_view(c: Client) -> dict[str, Any]:
    return next(json.loads(r)["view"] for r in reversed(c.raw) if json.loads(r).get("type") == "view")


@pytest.mark.slow
def test_a_round_left_open_is_completed_by_the_best_strategy_and_recalled(database_url: str) -> None:
    """Past its limit, a round left open is completed by the best strategy (never folding a hand
    it raises), marked automatic, and recalled to the player with the rounds that ended away."""
    variant = _waiting("cyberstud", 2.0)
    with LiveServer(settings(database_url, tables=[TableSpec("cyberstud-1", variant, 1)])) as live:
        token = live.guest()
        c = Client(live.ws, token)
        c.ok("sit", table="cyberstud-1", buy_in=5_000)
        for _ in range(2):  # two rounds played and settled while connected
            c.ok("ante", table="cyberstud-1", amount=100)
            c.ok("deal", table="cyberstud-1")
            c.ok("fold", table="cyberstud-1")
        c.ok("ante", table="cyberstud-1", amount=100)
        c.ok("deal", table="cyberstud-1")
        dealt = view_from_json(_last_view(c))
        c.close()  # away in round 3: completed once its two seconds have passed
        best = Advisor(variant).advise_view(dealt).completion
        deadline = time.monotonic() + 20
        while not _closed(database_url, 3) and time.monotonic() < deadline:
            time.sleep(0.05)
        back = Client(live.ws, token)
        result = back.recv()["view"]["result"]
        assert result["auto"] is True and result["outcome"]["decision"] == best
        recall = back.recv()
        assert recall["type"] == "recall" and [r[0]["round"] for r in recall["rounds"]] == [3]
        decided = [s for s in recall["rounds"][0] if s["kind"] == "decided"]
        assert [(s["decision"], s["auto"]) for s in decided] == [(best, True)]  # its history says so
        history = back.ok("history", table="cyberstud-1")["rounds"]
        assert [r[0]["round"] for r in history] == [1, 2, 3]  # the record holds all three
        back.close()
        again = Client(live.ws, token)  # back at once, no round ended since: nothing to recall
        assert again.recv()["type"] == "view" and again.recv()["rounds"] == []
        again.close()
    assert books(database_url) == (True, 1)


def test_a_seat_whose_player_stays_away_is_stood_up_and_its_money_returned(database_url: str) -> None:
    """A closed browser never holds a seat for good: after the grace period the seat is marked
    away; its dealt round is completed once left open past its limit, and once its `away` seconds
    pass between rounds the engine stands it up, the money back in the wallet in the same
    transaction, the seat free for the next player."""
    tables = [TableSpec("cyberstud-1", _waiting("cyberstud", 0.5), 1, away=0.5)]
    with LiveServer(settings(database_url, tables=tables)) as live:
        token = live.guest()
        c = Client(live.ws, token)
        c.ok("sit", table="cyberstud-1", buy_in=5_000)
        c.ok("ante", table="cyberstud-1", amount=100)
        c.ok("deal", table="cyberstud-1")
        c.close()  # the hand waits its half second, then the seat its half second
        deadline = time.monotonic() + 20
        while _lobby(live)["free"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        me = httpx.get(f"{live.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        stood = [e for e in recorded(live.settings.database, "cyberstud-1") if e.kind == "stood"]
        assert _lobby(live)["free"] == 1 and [e.public["reason"] for e in stood] == ["away"]
        assert me["wallets"]["USD"] == live.settings.demo_balance - 5_000 + stood[0].public["returned"]
        next_player = Client(live.ws, live.guest())
        assert next_player.ok("sit", table="cyberstud-1", buy_in=1_000) == {"seat": 0}
        next_player.close()
    assert books(database_url) == (True, 1)


def _lobby(live: LiveServer) -> dict[str, Any]:
    tables: list[dict[str, Any]] = httpx.get(f"{live.http}/api/lobby").json()["tables"]
    return tables[0]
