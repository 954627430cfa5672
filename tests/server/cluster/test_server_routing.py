"""One socket per table (`/ws/<table>`): a table's socket is served where its table is; one that
reaches another process is told `moved`, with the socket to open, and the clients follow it. Two
real server processes on one database, as in test_server_relay.py."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, ServerProcess, books, settings, split
from test_server_relay import relay_metrics, start
from websockets.exceptions import ConnectionClosed

from caribbean_fast.play.remote import Link, RemoteSession, socket_url
from caribbean_fast.server.cluster.relay import Relay

STUD = "cyberstud-1"


def frames_until_closed(client: Client) -> tuple[list[dict[str, object]], int | None]:
    """Every frame the server sends until it closes the socket, and the close code."""
    frames = []
    try:
        while True:
            frames.append(client.recv())
    except ConnectionClosed as closed:
        return frames, closed.rcvd.code if closed.rcvd else None


def test_a_tables_socket_serves_its_table_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    with LiveServer(settings(str(tmp_path / "casino.db"))) as live:
        player = Client(f"{live.ws}/{STUD}", live.guest())
        assert player.welcome["type"] == "welcome"
        player.ok("sit", table=STUD, buy_in=10_000)
        player.ok("ante", table=STUD, amount=200)
        player.ok("deal", table=STUD)
        assert player.views(STUD)[-1]["phase"] == "deciding"
        player.ok("fold", table=STUD)
        player.ok("leave", table=STUD)
        player.close()
        nowhere = Client(f"{live.ws}/no-such-table")
        assert nowhere.welcome == {"v": 1, "type": "closed", "reason": "no_table"}
        assert frames_until_closed(nowhere)[1] == 4004


def test_a_table_served_here_while_its_socket_is_welcomed_is_in_the_welcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table taken over by this process while a socket's welcome reads the player's seats
    elsewhere from the database: the welcome lists its seat and sends its view (listed by neither
    read, the page offered the sit form, and its sit was refused: "you sit at ... already")."""
    with LiveServer(settings(str(tmp_path / "casino.db"))) as live:
        token = live.guest()
        first = Client(f"{live.ws}/{STUD}", token)  # stays open: the seat is not stood up meanwhile
        first.ok("sit", table=STUD, buy_in=10_000)
        host = live.app.state.server
        owner = host.owners[STUD]
        wallet = host.wallet

        async def taken_over_meanwhile(account: str) -> object:  # the table not served here yet
            del host.owners[STUD]
            owner._hold(0, None)
            return await wallet(account)

        async def seats_elsewhere(self: object) -> list[dict[str, object]]:  # served here once read
            await asyncio.sleep(0)
            host.owners[STUD] = owner
            owner._sync_players()
            return []

        monkeypatch.setattr(host, "wallet", taken_over_meanwhile)
        monkeypatch.setattr(host, "_everywhere", lambda: False)
        monkeypatch.setattr(Relay, "remote_seats", seats_elsewhere)
        second = Client(f"{live.ws}/{STUD}", token)
        assert second.welcome["seats"] == [{"table": STUD, "seat": 0}]
        assert second.recv()["type"] == "view"
        second.close()
        first.close()


@pytest.mark.slow
def test_a_tables_socket_at_another_process_is_moved(database_url: str, tmp_path: Path) -> None:
    first, second = start(database_url, tmp_path)
    where = split([first, second], [STUD, "network-24h-1"], database_url)
    owner, other = where[STUD], second if where[STUD] is first else first
    try:
        token = httpx.post(f"{other.http}/api/guest").json()["token"]
        there = f"{owner.ws}/{STUD}"
        wrong = Client(f"{other.ws}/{STUD}", token)
        assert wrong.welcome["type"] == "welcome" and wrong.welcome["seats"] == []
        frames, code = frames_until_closed(wrong)
        assert frames == [
            {"v": 1, "type": "moved", "table": STUD, "endpoint": there},
            {"v": 1, "type": "closed", "reason": "moved"},
        ]
        assert code == 4009
        both = Client(f"{owner.ws}/{STUD}", token)
        assert both.cmd("history", table="nope")["error"]["code"] == "no_table"
        # the terminal client's link follows `moved` to the serving process and plays there
        link = Link(other.http, token, STUD)
        assert link.url == socket_url(other.http, STUD) == f"{other.ws}/{STUD}"
        link.open()
        assert link.command("sit", table=STUD, buy_in=10_000) == {"seat": 0}
        assert link.command("ante", table=STUD, amount=100) == {}
        assert link.command("leave", table=STUD) == {"returned": 10_000}
        link.close()
        both.close()
        session = RemoteSession(other.http, token, "cyberstud", 5_000)  # the terminal table, through `moved`
        assert session.table_id == STUD and session.seat == 0
        session.link.command("leave", table=STUD)
        session.link.close()
        counted = relay_metrics(other)
        assert counted.get('cf_relayed_commands_total{outcome="ok"}', 0) == 0  # nothing was relayed
    finally:
        for process in (first, second):
            process.kill()
            process.log.close()
    assert books(database_url) == (True, 2)


@pytest.mark.slow
def test_moved_is_a_commands_refusal_on_a_tables_socket(database_url: str, tmp_path: Path) -> None:
    """A table's socket at the process serving its table, sending a command for a table another
    process serves: refused `moved`, naming that table's socket there; nothing was done."""
    if not database_url.startswith("postgresql"):
        pytest.skip("one process serves every table of a SQLite database")
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nvariant = "cyberstud"\nseats = 1\ncount = 16\n')
    processes = [ServerProcess(database_url, str(tables)) for _ in range(2)]
    try:
        where = split(processes, [f"cyberstud-{k + 1}" for k in range(16)], database_url)
        mine = next(t for t, p in where.items() if p is processes[0])
        theirs = next(t for t, p in where.items() if p is processes[1])
        token = httpx.post(f"{processes[0].http}/api/guest").json()["token"]
        here = Client(f"{processes[0].ws}/{mine}", token)
        refused = here.cmd("sit", table=theirs, buy_in=1_000)
        assert refused["error"]["code"] == "moved"
        assert refused["error"]["endpoint"] == f"{processes[1].ws}/{theirs}"
        assert here.ok("sit", table=mine, buy_in=1_000) == {"seat": 0}  # its own table's commands go on
        here.ok("leave", table=mine)
        me = httpx.get(f"{processes[0].http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me["wallets"] == {"USD": 100_000}
        here.close()
    finally:
        for process in processes:
            process.kill()
            process.log.close()
