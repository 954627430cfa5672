"""One progressive pool per game, currency and prize schedule, shared by every table and process:
each bet's contribution reaches it in its round's commit, the meter follows at every table within
a second, a prize of the meter's share is fixed by the commit that records the round, and two hits
at once on tables served by two processes take the pool in turn (docs/development.md)."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from live_server import Client, LiveServer, ServerProcess, query, settings, split
from tables import stacked_deck

from caribbean_fast.cards import format_cards
from caribbean_fast.server.store import pools
from caribbean_fast.server.store.db import Database
from caribbean_fast.server.store.db import connect as open_database
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import load_variant

pytestmark = pytest.mark.slow

CYBERSTUD = load_variant("cyberstud")
_PROGRESSIVE, _KEY = CYBERSTUD.progressive, pools.pool_key(CYBERSTUD)
assert _PROGRESSIVE is not None and _KEY is not None
PROGRESSIVE, KEY = _PROGRESSIVE, _KEY
RIGGED = Path(__file__).parents[2] / "helpers" / "rigged_serve.py"


def _reconciled(url: str) -> dict[str, tuple[int, int]]:
    db = Database(open_database(url))
    try:
        return db.run_now(pools.reconcile)
    finally:
        db.dialect.close()


def _bet_and_deal(c: Client, table: str) -> None:
    c.ok("ante", table=table, amount=500)
    c.ok("progressive", table=table, on=True)
    c.ok("deal", table=table)


def _pool_frames(c: Client, table: str, seconds: float) -> list[dict[str, Any]]:
    found, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            frame = c.recv(max(0.01, end - time.monotonic()))
        except TimeoutError:
            break
        if frame.get("type") == "pool" and frame.get("table") == table:
            found.append(frame)
    return found


def test_every_bet_reaches_the_pool_and_every_table_shows_it_within_a_second(tmp_path: Path) -> None:
    specs = [TableSpec(f"cyberstud-{k}", CYBERSTUD, 1) for k in (1, 2)]
    url = str(tmp_path / "casino.db")
    with LiveServer(settings(url, tables=specs)) as live:
        alice, bob = Client(live.ws, live.guest()), Client(live.ws, live.guest())
        alice.ok("sit", table="cyberstud-1", buy_in=20_000)
        bob.ok("sit", table="cyberstud-2", buy_in=20_000)
        assert query(url, "SELECT meter FROM pools") == [(PROGRESSIVE.reset,)]
        _bet_and_deal(alice, "cyberstud-1")  # the deal's commit holds the contribution
        assert _reconciled(url)[KEY] == (PROGRESSIVE.reset + PROGRESSIVE.contribution,) * 2
        told = _pool_frames(bob, "cyberstud-2", 1.2)  # bob's table shows alice's contribution
        assert [f["meter"] for f in told][-1:] == [PROGRESSIVE.reset + PROGRESSIVE.contribution]
        lobby = {t["table"]: t["meter"] for t in live.app.state.server.lobby()}
        assert lobby == dict.fromkeys(("cyberstud-1", "cyberstud-2"), PROGRESSIVE.reset + PROGRESSIVE.contribution)
        alice.ok("fold", table="cyberstud-1")
        _bet_and_deal(bob, "cyberstud-2")
        bob.ok("fold", table="cyberstud-2")
        meter, expected = _reconciled(url)[KEY]
        assert meter == expected == PROGRESSIVE.reset + 2 * PROGRESSIVE.contribution
        alice.close()
        bob.close()


def _royal_deck() -> str:
    return format_cards(stacked_deck(["Ah Kh Qh Jh Th"], "2c 3d 5h 7s 9c"))


def test_two_royals_at_once_on_two_processes_take_the_pool_in_turn(database_url: str, tmp_path: Path) -> None:
    """Two tables, each served by its own process on PostgreSQL (by one on SQLite), each dealt a
    royal flush; both raise at once. The first commit to take the pool pays the meter as both
    bets left it; the second pays the meter as the first left it (its reset); nothing is paid
    twice, and the pool reconciles with the records."""
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nvariant = "cyberstud"\nseats = 1\ncount = 8\n')
    program = [sys.executable, str(RIGGED), _royal_deck()]
    processes = [ServerProcess(database_url, str(tables), program=program) for _ in range(2)]
    try:
        ids = [f"cyberstud-{k}" for k in range(1, 9)]
        where = split(processes, ids, database_url)
        first = ids[0]
        second = next((t for t in ids if where[t] is not where[first]), ids[1])
        assert (where[first] is not where[second]) == database_url.startswith("postgres")
        players = []
        for table in (first, second):
            c = Client(f"{where[table].ws}/{table}", httpx_guest(where[table]))
            c.ok("sit", table=table, buy_in=50_000)
            _bet_and_deal(c, table)
            players.append((c, table))
        before = _reconciled(database_url)[KEY][0]
        assert before == PROGRESSIVE.reset + 2 * PROGRESSIVE.contribution
        answers: list[dict[str, Any]] = []
        ids_sent = [(c, c.send(type="raise", table=t)) for c, t in players]  # both at once
        threads = [threading.Thread(target=lambda c=c, i=i: answers.append(c.answer(i))) for c, i in ids_sent]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
        assert len(answers) == 2 and all("error" not in a for a in answers), answers
        paid = sorted(_meter_paid(database_url, t) for _, t in players)
        assert paid == sorted([before, PROGRESSIVE.reset])  # the whole meter, then the meter the first left
        meter, expected = _reconciled(database_url)[KEY]
        assert meter == expected == PROGRESSIVE.reset
        for c, _ in players:
            c.close()
    finally:
        for process in processes:
            process.stop()


def httpx_guest(process: ServerProcess) -> str:
    import httpx

    return str(httpx.post(f"{process.http}/api/guest").json()["token"])


def _meter_paid(url: str, table: str) -> int:
    from live_server import recorded

    settled = [e for e in recorded(url, table) if e.kind == "settled"]
    assert len(settled) == 1
    return int(settled[0].public["net"]["meter_paid"])
