"""Reminders from the server (docs/protocol.md, "Reminders"): the reality check at the interval the
account chose, kept by the server for every client, and the notice before a game ends an idle
session, sent as frames to every socket of the account with the session's time and net."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from live_server import Client, LiveServer, settings, small_tables

from caribbean_fast.errors import ServerError
from caribbean_fast.server import Settings
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import load_variant

EVERY = 2  # seconds between the reality checks the test's account chooses
IDLE = 2.5  # seconds of quiet that end the test's hold'em session (its notice half a second before)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    game5 = load_variant("casino-holdem")
    quick = replace(game5, timing=replace(game5.timing, idle_seconds=IDLE))
    tables = [*small_tables(), TableSpec("quiet-1", quick, 1)]
    path = str(tmp_path_factory.mktemp("reminders") / "reminders.db")
    with LiveServer(settings(path, tables=tables, reality_check_least=EVERY)) as live:
        yield live


def frames(c: Client) -> list[dict[str, Any]]:
    return [json.loads(text) for text in c.raw]


def wait_frame(c: Client, kind: str, ready: Any = lambda f: True, seconds: float = 10) -> dict[str, Any]:
    """The first frame of `kind` (received from now on) for which `ready` holds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        f = c.recv(max(0.05, deadline - time.monotonic()))
        if f["type"] == kind and ready(f):
            return f
    raise AssertionError(f"no {kind} frame in {seconds} s")


def nets_before(stream: list[dict[str, Any]], table: str) -> list[int]:
    """The net of each round settled for the seat, as its views showed them, in order."""
    seen: dict[int, int] = {}
    for f in stream:
        if f["type"] == "view" and f["table"] == table and f["view"].get("result") and f["view"]["seat"] is not None:
            seen.setdefault(f["view"]["round"], int(f["view"]["result"]["net"]["total"]))
    return list(seen.values())


def test_the_interval_is_an_account_setting_the_server_checks(server: LiveServer) -> None:
    token = server.guest()
    c = Client(server.ws, token)
    assert c.ok("reality_check") == {"every": 3600, "default": 3600, "least": EVERY, "most": 86_400}
    short = c.cmd("reality_check", every=EVERY - 1)
    assert short["error"] == {
        "code": "bad_field",
        "message": f"every: must be {EVERY} to 86400 seconds on this server, not 1",
    }
    long = c.cmd("reality_check", every=86_401)
    assert long["error"]["code"] == "bad_field" and "every: must be 1 to 86400" in long["error"]["message"]
    assert c.ok("reality_check", every=900)["every"] == 900
    c.close()
    again = Client(f"{server.ws}/cyberstud-1", token)  # another client of the account reads it
    assert again.ok("reality_check")["every"] == 900
    assert again.ok("reality_check", every=None)["every"] == 3600  # back to the server's default
    again.close()
    anonymous = Client(server.ws)
    assert anonymous.cmd("reality_check")["error"]["code"] == "unauthorized"
    anonymous.close()


@pytest.mark.slow
def test_a_reality_check_arrives_with_the_sessions_time_and_net(server: LiveServer) -> None:
    token = server.guest()
    began = time.monotonic()
    c = Client(server.ws, token)
    c.ok("reality_check", every=EVERY)
    second = Client(f"{server.ws}/cyberstud-1", token)  # a second tab: the same session
    c.ok("sit", table="cyberstud-1", buy_in=20_000)
    for decision in ("fold", "raise", "fold"):
        c.ok("ante", table="cyberstud-1", amount=500)
        c.ok("deal", table="cyberstud-1")
        c.ok(decision, table="cyberstud-1")
    check = wait_frame(c, "reality_check", lambda f: f["session"]["rounds"] == 3)
    within = time.monotonic() - began
    nets = nets_before(frames(c), "cyberstud-1")
    assert len(nets) == 3 and nets[0] == -500  # a fold loses the ante
    assert check["every"] == EVERY
    assert check["session"]["net"] == [{"currency": "USD", "minor_per_major": 100, "amount": sum(nets)}]
    assert EVERY <= check["session"]["seconds"] <= within
    for f in (f for f in frames(c) if f["type"] == "reality_check"):  # each check's net: the rounds before it
        before = nets_before(frames(c)[: frames(c).index(f)], "cyberstud-1")
        assert f["session"]["rounds"] == len(before)
        assert sum(a["amount"] for a in f["session"]["net"]) == sum(before)
    asked = c.ok("session")
    assert asked["rounds"] == 3 and asked["net"] == check["session"]["net"]
    assert wait_frame(second, "reality_check")["session"]["net"] == check["session"]["net"]
    assert c.ok("leave", table="cyberstud-1")["returned"] == 20_000 + sum(nets)
    c.close()
    second.close()


@pytest.mark.slow
def test_the_idle_notice_comes_once_before_the_game_ends_the_session(server: LiveServer) -> None:
    c = Client(server.ws, server.guest())
    c.ok("sit", table="quiet-1", buy_in=5_000)
    sat = time.monotonic()
    notice = wait_frame(c, "idle_notice")
    quiet = time.monotonic() - sat
    assert notice["table"] == "quiet-1" and notice["idle_seconds"] == IDLE
    assert notice["ends_in"] == 1  # half a second left, said in whole seconds
    assert IDLE - IDLE / 5 - 0.2 <= quiet < IDLE
    assert notice["session"] == {"seconds": notice["session"]["seconds"], "rounds": 0, "net": []}
    closed = wait_frame(c, "view", lambda f: f["table"] == "quiet-1" and f["view"]["phase"] == "closed")
    assert closed["view"]["balance"] == 5_000
    time.sleep(0.3)
    c.ok("ping")
    assert sum(1 for f in frames(c) if f["type"] == "idle_notice") == 1  # once, and none once it ended
    c.close()


def test_a_relayed_socket_opens_no_session(tmp_path: Path) -> None:
    """The relay's own socket (another process's player) is not a client: no reminders to it."""
    with LiveServer(settings(str(tmp_path / "r.db"), reality_check_least=1)) as live:
        token = live.guest()
        relay = Client(live.ws, token, headers={"x-caribbean-relay": "1"})
        assert relay.cmd("session")["error"]["code"] == "illegal"
        relay.close()


def test_the_servers_reminder_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ServerError, match=r"reality_check_least: must be 1 to 86400 seconds, not 0"):
        settings(str(tmp_path / "a.db"), reality_check_least=0)
    with pytest.raises(ServerError, match=r"reality_check_every: must be 600 \(the shortest\) to 86400 seconds, not 5"):
        Settings(str(tmp_path / "b.db"), reality_check_every=5)
