"""Public reads through the real server, SQLite and PostgreSQL: the progressive's history is read
from the summary the commits write (bounded, whatever the record's length), tells a prize of the
meter's share with its time and a fixed prize only counted by day over the game's tables, a
record written before the summary gets it at the next start, and a read held open never holds a
table's command up."""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from live_server import Client, LiveServer, query, recorded, settings

from caribbean_fast import load_variant
from caribbean_fast.hands import HandClass
from caribbean_fast.server.store.db import Database, connect
from caribbean_fast.server.store.jackpots import MOST_PRIZES, POINTS
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import Variant
from caribbean_fast.variants.model import Prize

ROWS = 3000  # 750 rounds: more meter points than a history gives
A_ROUND: list[tuple[str, dict[str, Any]]] = [
    ("ante", {"amount": 500}),
    ("progressive", {"on": True}),
    ("deal", {}),
    ("fold", {}),
]
SUMMARY = ("meter_points", "meter_prizes", "fixed_prizes", "summarized")


def _bench() -> ModuleType:
    """benches/server_readers.py, whose `build_record` the tests share."""
    benches = Path(__file__).parents[3] / "benches"
    spec = importlib.util.spec_from_file_location("benches_server_readers", benches / "server_readers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(benches))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(benches))
    return module


def _often_paid() -> Variant:
    """cyberstud whose progressive pays one pair 1% of the meter and two pair a fixed 5.00,
    so that a few hundred rounds pay both kinds."""
    v = load_variant("cyberstud")
    assert v.progressive is not None
    prizes = {**v.progressive.prizes, HandClass.ONE_PAIR: Prize(meter_share=Fraction(1, 100))}
    prizes[HandClass.TWO_PAIR] = Prize(amount=500)
    return replace(v, progressive=replace(v.progressive, prizes=prizes))


def _tables(v: Variant) -> list[TableSpec]:
    return [TableSpec("cyberstud-1", v, 1), TableSpec("cyberstud-2", v, 1)]


def _yesterday() -> datetime:
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return today - timedelta(days=1) + timedelta(minutes=1)


def _expected(url: str, v: Variant) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """From the record itself: its prizes of the meter's share (time, hand, prize, part from the
    meter), its fixed prizes counted by day and hand, and how many rounds it closed."""
    assert v.progressive is not None
    jackpots, fixed, closed = [], Counter[tuple[str, str]](), 0
    amounts: Counter[tuple[str, str]] = Counter()
    for e in recorded(url, "cyberstud-2"):
        closed += e.kind == "round_closed"
        net = e.public.get("net", {}) if e.kind == "settled" else {}
        if int(net.get("progressive", 0)) <= 0:
            continue
        hand = v.classify(int(e.public["outcome"]["first_five"]))
        prize = int(net["progressive"]) + v.progressive.stake
        if v.progressive.prizes[hand].meter_share:
            jackpots.append({"time": e.time.isoformat(), "hand": hand.label, "prize": prize, "from_meter": prize})
        else:
            fixed[(e.time.date().isoformat(), hand.label)] += 1
            amounts[(e.time.date().isoformat(), hand.label)] += prize
    counted = [{"day": d, "hand": h, "count": n, "amount": amounts[(d, h)]} for (d, h), n in fixed.items()]
    return jackpots, sorted(counted, key=lambda c: (c["day"], -c["amount"], c["hand"])), closed


@pytest.mark.slow
def test_the_history_tells_jackpots_by_time_and_fixed_prizes_only_by_day(database_url: str) -> None:
    v = _often_paid()
    _bench().build_record(database_url, "cyberstud-2", ROWS, _yesterday(), v)
    jackpots, fixed, closed = _expected(database_url, v)
    assert len(jackpots) > MOST_PRIZES and fixed and closed > POINTS  # the record pays both kinds, and more
    with LiveServer(settings(database_url, tables=_tables(v))) as live:
        answer = httpx.get(f"{live.http}/api/progressive/cyberstud-2").json()
        meter = live.app.state.server.meter("cyberstud-2")
    assert answer["meter_prizes"] == jackpots[-MOST_PRIZES:]  # the latest, with their times
    assert answer["fixed_prizes"] == fixed  # yesterday's, counted: no round, time or table
    assert answer["fixed_through"] == (_yesterday()).date().isoformat()
    assert len(answer["points"]) == POINTS and answer["points"][-1]["meter"] == meter
    assert [p["round"] for p in answer["points"]] == sorted({p["round"] for p in answer["points"]})
    assert "prizes" not in answer  # the old list, a round and hand a prize, is gone


def test_a_fixed_prize_of_today_is_not_told(database_url: str) -> None:
    """Today's fixed prizes wait for the day's end: told now, at a table of two they would say
    which round paid one."""
    v = _often_paid()
    _bench().build_record(database_url, "cyberstud-2", 400, datetime.now(UTC) - timedelta(seconds=90), v)
    with LiveServer(settings(database_url, tables=_tables(v))) as live:
        answer = httpx.get(f"{live.http}/api/progressive/cyberstud-2").json()
    paid_today = query(database_url, "SELECT SUM(count) FROM fixed_prizes WHERE table_id = 'cyberstud-2'")[0][0]
    assert paid_today and answer["fixed_prizes"] == []


@pytest.mark.slow
def test_the_history_is_read_from_the_summary(database_url: str) -> None:
    """A point written into the summary alone (none in the record) is in the answer; the record's
    700-odd rounds give the latest `POINTS` points, no more."""
    v = _often_paid()
    _bench().build_record(database_url, "cyberstud-2", ROWS, _yesterday(), v)
    db = Database(connect(database_url))
    db.run_now(lambda tx: tx.execute("INSERT INTO meter_points VALUES ('cyberstud-2', 999999, 'then', 42)"))
    db.dialect.close()
    with LiveServer(settings(database_url, tables=_tables(v))) as live:
        points = httpx.get(f"{live.http}/api/progressive/cyberstud-2").json()["points"]
    assert len(points) == POINTS and points[-1] == {"round": 999999, "time": "then", "meter": 42}


@pytest.mark.slow
def test_a_record_written_before_the_summary_gets_it_at_the_next_start(database_url: str, tmp_path: Path) -> None:
    """A database as the server wrote it before the summary (no summary tables): at the next
    start each table's summary is filled in from its record, and the history is the one a
    summary written all along gives."""
    v = _often_paid()
    start = _yesterday()
    _bench().build_record(database_url, "cyberstud-2", ROWS, start, v)
    with LiveServer(settings(database_url, tables=_tables(v))) as live:
        kept = httpx.get(f"{live.http}/api/progressive/cyberstud-2").json()
    db = Database(connect(database_url))
    db.run_now(lambda tx: [tx.execute(f"DROP TABLE {table}") for table in SUMMARY])
    db.dialect.close()
    with LiveServer(settings(database_url, tables=_tables(v))) as live:
        filled = httpx.get(f"{live.http}/api/progressive/cyberstud-2").json()
    assert filled == kept and filled["meter_prizes"] and filled["fixed_prizes"]
    assert query(database_url, "SELECT COUNT(*) FROM summarized") == [(2,)]


def test_a_read_held_open_holds_no_command_up(database_url: str) -> None:
    """The read connection is held inside a transaction (its snapshot taken) for as long as the
    test says; meanwhile a history asked waits for it, while a seated player's commands are
    answered at once and commit; released, the history answers with the rounds played."""
    with LiveServer(settings(database_url)) as live:
        player = Client(f"{live.ws}/cyberstud-1", live.guest())
        player.ok("sit", table="cyberstud-1", buy_in=20_000)
        release, holding = threading.Event(), threading.Event()

        def hold(tx: Any) -> int:
            count = int(tx.one("SELECT COUNT(*) FROM meter_points")[0])
            holding.set()
            release.wait(30)
            return count

        held = live.app.state.server.reads.submit(hold)
        assert holding.wait(10)
        with ThreadPoolExecutor(1) as pool:
            asked = pool.submit(httpx.get, f"{live.http}/api/progressive/cyberstud-1", timeout=30)
            took = []
            for _ in range(3):
                for kind, fields in A_ROUND:
                    start = time.monotonic()
                    player.ok(kind, table="cyberstud-1", **fields)
                    took.append(time.monotonic() - start)
            assert not asked.done() and not held.done()  # the read still waits; the commands did not
            assert max(took) < 2.0
            release.set()
            answer = asked.result(30)
        assert held.result(10) == 0  # read before any round closed
        player.close()
    assert answer.status_code == 200
    points = answer.json()["points"]
    assert len(points) == 3 and points[-1]["meter"] == answer.json()["meter"]  # the three rounds' commits read
    rounds = [e.round for e in recorded(database_url, "cyberstud-1") if e.kind == "round_closed"]
    assert rounds == [1, 2, 3]
