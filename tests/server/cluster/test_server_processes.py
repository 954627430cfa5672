"""Server processes killed with SIGKILL: another process (or a restart) takes the tables over
within seconds and restores them by the engine's rules; no money is lost or doubled, the audit
passes. SQLite and PostgreSQL alike: with SQLite the second process waits on the database's lease
file, with PostgreSQL on each table's advisory lock."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from live_server import Client, ServerProcess, books, split, two_tables
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.slow


def test_a_killed_process_tables_are_taken_over(database_url: str, tmp_path: Path) -> None:
    tables = two_tables(tmp_path)
    first = ServerProcess(database_url, str(tables))
    second: ServerProcess | None = None
    try:
        first.wait(2)
        second = ServerProcess(database_url, str(tables))
        where = split([first, second], ["cyberstud-1", "network-24h-1"], database_url)
        victim = where["cyberstud-1"]
        survivor = second if victim is first else first
        time.sleep(2.5)  # a lease period: each process has published its tables and read the others'
        lobby = httpx.get(f"{survivor.http}/api/lobby").json()["tables"]
        assert [(t["table"], t["here"], t.get("endpoint")) for t in lobby] == [
            (t, where[t] is survivor, None if where[t] is survivor else where[t].ws) for t in where
        ]  # a player finds every table from any process's lobby
        token = httpx.post(f"{survivor.http}/api/guest").json()["token"]  # accounts are shared
        player = Client(victim.ws, token)
        player.ok("sit", table="cyberstud-1", buy_in=10_000)
        player.ok("ante", table="cyberstud-1", amount=200)
        player.ok("deal", table="cyberstud-1")
        cards = player.views("cyberstud-1")[-1]["cards"]
        victim.kill()
        assert survivor.wait(2, seconds=15) < 8  # the lease is retried every 2 s
        time.sleep(1.5)  # past the survivor's grace for the absent player: the round still waits
        back = Client(survivor.ws, token)
        assert back.welcome["seats"] == [{"table": "cyberstud-1", "seat": 0}]
        view = back.recv()["view"]
        assert view["phase"] == "deciding" and view["cards"] == cards  # the hand as the player left it
        back.ok("fold", table="cyberstud-1")
        assert back.ok("leave", table="cyberstud-1") == {"returned": 10_000 - 200}
        me = httpx.get(f"{survivor.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me["wallets"]["USD"] == 100_000 - 200
        back.close()
        messages = [line["message"] for line in survivor.stop()]  # SIGTERM: a clean shut-down
        assert "stopped" in messages and messages[-1] == f"Finished server process [{survivor.process.pid}]"
        if survivor is second:  # it started while the first served every table: it said so
            assert any(m.startswith("standing by for") for m in messages)
    finally:
        for process in (first, second):
            if process is not None and process.process.poll() is None:
                process.kill()
    assert books(database_url) == (True, 2)


def test_sigterm_closes_each_socket_with_the_protocols_reason(tmp_path: Path) -> None:
    server = ServerProcess(str(tmp_path / "casino.db"), str(two_tables(tmp_path)))
    try:
        server.wait(2)
        player = Client(server.ws, httpx.post(f"{server.http}/api/guest").json()["token"])
        player.ok("sit", table="cyberstud-1", buy_in=1_000)
        server.process.terminate()
        assert _close_frame(player) == (1001, "shutdown")
        assert player.raw[-1] == '{"v":1,"type":"closed","reason":"shutdown"}'
        assert "stopped" in [line["message"] for line in server.stop()]
    finally:
        if server.process.poll() is None:
            server.kill()


def _close_frame(client: Client) -> tuple[int, str] | None:
    """Reads until the server closes the socket: the close frame's code and reason."""
    try:
        while True:
            client.recv()
    except ConnectionClosed as closed:
        return (closed.rcvd.code, closed.rcvd.reason) if closed.rcvd else None
