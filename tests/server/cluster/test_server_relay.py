"""A player reaches every table from any process: the process it is connected to relays its
commands for a table another process serves, and that process's answers and views, unchanged.
Two real server processes on one database; with SQLite the second process serves no table (it
waits on the lease) and relays them all, with PostgreSQL the same through the advisory locks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import Client, ServerProcess, books, split, two_tables
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from caribbean_fast.server.cluster.relay import RELAYED

pytestmark = pytest.mark.slow

GAME3 = "network-24h-1"


def start(database_url: str, tmp_path: Path) -> tuple[ServerProcess, ServerProcess]:
    """Two processes: the one serving game 3's table (with SQLite, both tables), and the other."""
    tables = two_tables(tmp_path)
    first = ServerProcess(database_url, str(tables))
    first.wait(2)
    second = ServerProcess(database_url, str(tables))
    owner = split([first, second], ["cyberstud-1", GAME3], database_url)[GAME3]
    return owner, second if owner is first else first


def wallet(server: ServerProcess, token: str, currency: str = "EUR") -> int:
    """A wallet: the euro one (game 3's) unless told."""
    me = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    return int(me["wallets"][currency])


def cards_in(frames: list[str], cards: list[str]) -> list[str]:
    return [card for card in cards if any(f'"{card}"' in text for text in frames)]


def wait_for(client: Client, kind: str, table: str, seconds: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        frame = client.recv(max(0.1, deadline - time.monotonic()))
        if frame["type"] == kind and frame.get("table") == table:
            return frame


def lobby_shows(server: ServerProcess, table: str, taken: list[int], seconds: float = 10) -> dict[str, Any]:
    """The table's entry in the server's lobby, once it shows these seats taken."""
    deadline = time.monotonic() + seconds
    while True:
        tables: list[dict[str, Any]] = httpx.get(f"{server.http}/api/lobby").json()["tables"]
        entry = next(t for t in tables if t["table"] == table)
        if entry.get("taken") == taken or time.monotonic() > deadline:
            return entry
        time.sleep(0.2)


def relay_metrics(server: ServerProcess) -> dict[str, float]:
    """The relay's lines of the server's Prometheus metrics, by series."""
    lines = httpx.get(f"{server.http}/metrics").text.splitlines()
    return {k: float(v) for k, v in (line.rsplit(" ", 1) for line in lines if line.startswith("cf_relay"))}


def test_a_round_at_a_table_of_another_process(database_url: str, tmp_path: Path) -> None:
    owner, relay = start(database_url, tmp_path)
    try:
        alice_token, bob_token = (httpx.post(f"{relay.http}/api/guest").json()["token"] for _ in range(2))
        alice = Client(relay.ws, alice_token)  # through the relay
        bob = Client(owner.ws, bob_token)  # at the owner itself
        spectator = Client(relay.ws)
        spectator.ok("watch", table=GAME3)
        assert alice.ok("sit", table=GAME3, buy_in=10_000, seat=1) == {"seat": 1}
        bob.ok("sit", table=GAME3, buy_in=10_000, seat=2)
        here, there = lobby_shows(owner, GAME3, [1, 2]), lobby_shows(relay, GAME3, [1, 2])
        assert here["here"] and not there["here"] and there["endpoint"] == owner.ws
        assert {k: v for k, v in there.items() if k not in ("here", "endpoint")} == {
            k: v for k, v in here.items() if k != "here"
        }  # the other process's lobby shows the table as its owner does, published through the database
        assert there["free"] == 2 and there["limits"]["minimum"] > 0 and there["title"]
        for player in (alice, bob):
            player.ok("ante", table=GAME3, amount=100)
        for process in (owner, relay):  # the relay opened no door for a page of another site
            with pytest.raises(InvalidStatus) as forbidden:
                connect(process.ws, additional_headers={"Origin": "http://evil.example", RELAYED: "1"})
            assert forbidden.value.response.status_code == 403
        hop = Client(relay.ws, alice_token, headers={RELAYED: "1"})  # a relay's own socket
        assert hop.cmd("history", table=GAME3)["error"]["code"] == "moved"  # relays no further
        hop.close()
        refused = alice.cmd("fold", table=GAME3)  # the owner's refusal, relayed as it is
        assert not refused["ok"] and refused["error"]["code"] == "illegal"
        assert alice.cmd("ante", table=GAME3, amount=-5)["error"]["code"] == "bad_field"
        alice.ok("deal", table=GAME3)
        dealt = alice.views(GAME3)[-1]  # the view came before the answer, as at the owner
        assert dealt["phase"] == "deciding" and len(dealt["cards"]) == 5 and dealt["seat"] == 1
        hand = bob.views(GAME3)[-1]["cards"]
        alice.ok("raise", table=GAME3)
        bob.ok("fold", table=GAME3)
        end = wait_for(alice, "view", GAME3)["view"]
        while end["phase"] != "settled":
            end = wait_for(alice, "view", GAME3)["view"]
        assert end["cards"] == dealt["cards"] and end["result"] is not None
        assert cards_in(alice.raw, hand) == []  # bob folded: his cards never reach alice
        while wait_for(spectator, "view", GAME3)["view"]["phase"] != "settled":
            pass
        before = [t for t in spectator.raw if '"phase":"settled"' not in t]
        assert len(before) > 3 and cards_in(before, dealt["cards"] + hand) == []
        assert spectator.views(GAME3)[-1]["seat"] is None
        assert cards_in(bob.raw + spectator.raw, dealt["cards"]) == []  # alice's cards: never (game 3)
        rounds = alice.ok("history", table=GAME3, last=5)["rounds"]
        counted = relay_metrics(relay)  # alice's and the spectator's links, and their commands above
        assert counted["cf_relay_links"] == 2 and counted['cf_relayed_commands_total{outcome="ok"}'] == 6
        assert counted['cf_relayed_commands_total{outcome="illegal"}'] == 1  # the fold
        assert counted['cf_relayed_commands_total{outcome="moved"}'] == 1  # the second hop
        assert 'outcome="bad_field"' not in str(counted)  # a bad amount is refused before any relay
        assert [r[0]["round"] for r in rounds] == [end["round"]]
        net = int(end["result"]["net"]["total"])
        assert alice.ok("leave", table=GAME3) == {"returned": 10_000 + net}
        assert wallet(relay, alice_token) == 100_000 + net
        # away while dealt: the relayed socket's close reaches the owner, whose grace runs out
        bob.ok("leave", table=GAME3)  # else the round waits for his bet (game 3 deals once every seat has bet)
        alice.ok("sit", table=GAME3, buy_in=5_000, seat=1)
        alice.ok("ante", table=GAME3, amount=100)
        alice.ok("deal", table=GAME3)
        alice.close()
        time.sleep(2)
        back = Client(relay.ws, alice_token)
        assert back.welcome["seats"] == [{"table": GAME3, "seat": 1}]
        view = wait_for(back, "view", GAME3)["view"]
        recall = wait_for(back, "recall", GAME3)
        assert view["phase"] == "settled" and [r[0]["round"] for r in recall["rounds"]] == [view["round"]]
        decided = [s for s in recall["rounds"][0] if s["kind"] == "decided" and s["seat"] == 1]
        assert decided[0]["auto"] is True
        back.ok("leave", table=GAME3)
        for client in (back, bob, spectator):
            client.close()
        logs = owner.logs() + relay.logs()
        assert "relay lost" not in logs and alice_token not in logs and cards_in([logs], dealt["cards"]) == []
    finally:
        for process in (owner, relay):
            process.kill()
            process.log.close()  # the log file goes with it
    assert books(database_url) == (True, 2)


@pytest.mark.parametrize("at", [1, 2])
def test_the_owner_killed_mid_round(database_url: str, tmp_path: Path, at: int) -> None:
    """Two processes relay, the player is at one of them: whichever takes the table over (the one
    the hash names next, with PostgreSQL: the player's own process or the other one), the seat is
    re-attached within seconds, here or through a new link, and the round goes on by the rules."""
    first, second = start(database_url, tmp_path)
    third = ServerProcess(database_url, str(tmp_path / "tables.toml"))
    try:
        everyone = [first, second, third]
        owner = split(everyone, ["cyberstud-1", GAME3], database_url)["cyberstud-1"]
        relay, other = (p for p in everyone if p is not owner)
        here = (relay, other)[at - 1]
        token = httpx.post(f"{here.http}/api/guest").json()["token"]
        player = Client(here.ws, token)
        player.ok("sit", table="cyberstud-1", buy_in=10_000)
        player.ok("ante", table="cyberstud-1", amount=200)
        player.ok("deal", table="cyberstud-1")
        cards = player.views("cyberstud-1")[-1]["cards"]
        owner.kill()
        killed = time.monotonic()
        assert player.cmd("ping")["ok"]  # the relaying process is unaffected
        refused = player.cmd("raise", table="cyberstud-1")  # before the takeover: a clear refusal
        if not refused["ok"]:
            assert refused["error"]["code"] == "unavailable"
        view = wait_for(player, "view", "cyberstud-1")["view"]  # re-attached where it is served now
        assert time.monotonic() - killed < 10 and "relay lost" in here.logs()
        assert view["cards"] == cards and view["phase"] in ("deciding", "settled")
        if view["phase"] == "deciding":
            player.ok("fold", table="cyberstud-1")
            view = player.views("cyberstud-1")[-1]
        net = int(view["result"]["net"]["total"])
        assert player.ok("leave", table="cyberstud-1") == {"returned": 10_000 + net}
        assert wallet(here, token, "USD") == 100_000 + net  # cyberstud's dollars
        player.close()
    finally:
        for process in (first, second, third):
            process.kill()
            process.log.close()  # the log file goes with it
    assert books(database_url) == (True, 2)
