"""The server's table records, the engine's `EventStore` over SQLite and PostgreSQL alike: rounds
written in group commits restore to the same table and audit clean, a row is never overwritten,
and a refused job rolls back alone; a row holds a command's events under one hash, and a record
written a row an event is moved at start and goes on."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import Client, LiveServer, books, query, recorded, settings

from caribbean_fast import load_variant
from caribbean_fast.engine import AuditReport, Table, audit, restore
from caribbean_fast.engine.autoplay import play_round
from caribbean_fast.engine.events import Event, chain_hash, event_from_dict, event_to_json
from caribbean_fast.errors import InsufficientFundsError, ServerError
from caribbean_fast.server.accounts import create_account
from caribbean_fast.server.store.book import ServerBook, TableBook
from caribbean_fast.server.store.db import BUSY_MS, CHECKPOINT_BYTES, PAGE_SIZE, Database, Sqlite, Tx, connect
from caribbean_fast.server.store.record import TableRecord, events_in, pack, unpack
from caribbean_fast.server.store.wallets import balance, debit, grant


def test_a_record_restores_and_audits(database_url: str) -> None:
    db = Database(connect(database_url))
    record = TableRecord("network-24h-1")
    table = Table(load_variant("network-24h"), seats=4, seed=7, store=record)
    for seat in range(4):
        table.deposit(seat, 100_000)
    for _ in range(20):
        play_round(table, "simple", table.limits.minimum, progressive=True)
        db.run_now(record.flush)
    again = TableRecord("network-24h-1")
    assert db.run_now(again.load)
    restored = restore(again)
    assert [restored.balance(k) for k in range(4)] == [table.balance(k) for k in range(4)]
    assert restored.meter == table.meter and restored.round == table.round == 20
    db.run_now(again.flush)
    report = audit(again)
    assert report.ok and report.settled == 20 and report.void == 0
    db.dialect.close()


def test_a_row_is_never_overwritten(database_url: str) -> None:
    async def main() -> None:
        db = Database(connect(database_url))
        db.start()
        first, stale = TableRecord("cyberstud-1"), TableRecord("cyberstud-1")
        Table(load_variant("cyberstud"), seed=1, store=first)
        Table(load_variant("cyberstud"), seed=2, store=stale)  # a second writer of the same table
        await db.run(first.flush)
        with pytest.raises(ServerError):
            await db.run(stale.flush)
        rows = await db.run(lambda tx: tx.all("SELECT body FROM table_log WHERE table_id = 'cyberstud-1'"))
        assert len(rows) == 1 and '"seed":1' in unpack(rows[0][0])
        await db.stop()

    asyncio.run(main())


def test_a_refused_job_rolls_back_alone(database_url: str) -> None:
    """Two jobs in one group commit: the wallet move that cannot be covered changes nothing, the
    other commits."""

    async def main() -> None:
        db = Database(connect(database_url))
        db.start()
        await db.run(lambda tx: create_account(tx, "carol", "x"))
        await db.run(lambda tx: grant(tx, "carol", "USD", 500))

        def overdraw(tx: Tx) -> None:
            tx.execute("UPDATE accounts SET hash = 'changed' WHERE name = 'carol'")
            debit(tx, "carol", "USD", 501)

        refused, accepted = await asyncio.gather(
            db.run(overdraw), db.run(lambda tx: debit(tx, "carol", "USD", 200)), return_exceptions=True
        )
        assert isinstance(refused, InsufficientFundsError) and accepted is None
        assert await db.run(lambda tx: (balance(tx, "carol", "USD"), tx.one("SELECT hash FROM accounts"))) == (
            300,
            ("x",),
        )
        await db.stop()

    asyncio.run(main())


def test_rows_written_together_fail_alone(database_url: str) -> None:
    """Three tables' events in one batch, written as one statement (`Database.write`): the stale
    writer of an existing row fails alone, the other two commit, and nothing of the failed one
    stays."""

    async def main() -> None:
        db = Database(connect(database_url))
        db.start()
        records = {name: TableRecord(name) for name in ("cyberstud-1", "cyberstud-2", "cyberstud-3")}
        for seed, record in enumerate(records.values()):
            Table(load_variant("cyberstud"), seed=seed, store=record)
        await db.write(records["cyberstud-2"].take())
        stale = TableRecord("cyberstud-2")
        table = Table(load_variant("cyberstud"), seed=9, store=stale)
        table.deposit(0, 500)
        jobs = [
            db.write(records["cyberstud-1"].take()),
            db.write(stale.take()),
            db.write(records["cyberstud-3"].take()),
        ]
        outcomes = await asyncio.gather(*jobs, return_exceptions=True)
        assert outcomes[0] is None and outcomes[2] is None and isinstance(outcomes[1], ServerError)
        rows = await db.run(lambda tx: tx.all("SELECT table_id, COUNT(*) FROM table_log GROUP BY table_id"))
        assert sorted(rows) == [("cyberstud-1", 1), ("cyberstud-2", 1), ("cyberstud-3", 1)]
        assert db.commits == 3  # the first write, the batch of three, the count
        await db.stop()

    asyncio.run(main())


def test_a_started_database_is_its_workers_alone(database_url: str) -> None:
    """`run_now` refuses a started database (its batches own the connection; from the loop's own
    thread it would wait on a commit that needs the loop), and a worker stopped mid-batch leaves
    no job waiting: each gets an answer (a refusal when the commit was under way, which the
    database may or may not have made durable: its record says)."""

    async def main() -> None:
        db = Database(connect(database_url))
        db.start()
        await db.run(lambda tx: create_account(tx, "dave", "x"))
        with pytest.raises(RuntimeError, match="use run"):
            db.run_now(lambda tx: balance(tx, "dave", "USD"))
        job = asyncio.ensure_future(db.run(lambda tx: grant(tx, "dave", "USD", 700)))
        await asyncio.sleep(0)  # queued: the worker takes it on its next turn
        worker = db._worker
        assert worker is not None
        await asyncio.sleep(0)
        worker.cancel()
        outcome = (await asyncio.wait_for(asyncio.gather(job, return_exceptions=True), 5))[0]
        assert outcome is None or "the server stopped" in str(outcome)
        db._worker = None  # the worker is gone: the connection is free for `run_now` again
        assert db.run_now(lambda tx: balance(tx, "dave", "USD")) in ((700,) if outcome is None else (0, 700))
        db.dialect.close()

    asyncio.run(main())


@pytest.mark.parametrize("paid", [False, True], ids=["seat held", "wallet already paid"])
def test_a_record_from_before_the_engine_held_seats_is_put_right(database_url: str, paid: bool) -> None:
    """A record written before the engine kept the seats holds no `seated` event: at the next
    start the engine adopts the seat its database row names, the money staying on it; where the
    row is gone (the old failure: the leave's credit and the hold's end committed, its withdrawal
    lost), the money on the seat nobody holds is withdrawn, the wallet not paid twice."""
    with LiveServer(settings(database_url)) as live:
        token = live.guest()
        account = Client(live.ws, token).welcome["account"]
    _old_style_sit(database_url, account, 7_000)
    if paid:
        query_write(database_url, "UPDATE holds SET end_round = 1")
        query_write(database_url, "UPDATE wallets SET amount = amount + 7000 WHERE currency = 'EUR'")
        query_write(database_url, "DELETE FROM seats")
        assert books(database_url)[0] is False
    with LiveServer(settings(database_url)) as live:
        me = httpx.get(f"{live.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me == {
            "account": account,
            "wallets": {"EUR": 100_000 if paid else 93_000, "USD": 100_000},
            "guest": True,
        }
        lobby = httpx.get(f"{live.http}/api/lobby").json()["tables"]
        taken = [(t["taken"], t["free"]) for t in lobby if t["table"] == "network-24h-1"]
        assert taken == ([([], 4)] if paid else [([0], 3)])
        if not paid:  # the adopted seat plays on, and leaves with its money
            player = Client(live.ws, token)
            assert player.welcome["seats"] == [{"table": "network-24h-1", "seat": 0}]
            assert player.ok("leave", table="network-24h-1") == {"returned": 7_000}
            player.close()
    assert books(database_url) == (True, 3)
    withdrawals = [e for e in recorded(database_url) if e.kind == "withdraw"]
    assert len(withdrawals) == (1 if paid else 0)


def _old_style_sit(url: str, account: str, buy_in: int) -> None:
    """Seat 0 of network-24h-1 as a server wrote it before the engine held seats: a deposit event,
    a seat row and a hold, and the wallet debited, in one transaction."""
    db = Database(connect(url))
    record = TableRecord("network-24h-1")

    def job(tx: Tx) -> None:
        tx.execute("DELETE FROM table_log WHERE table_id = 'network-24h-1'")
        tx.execute("DELETE FROM table_meta WHERE table_id = 'network-24h-1'")
        table = Table(load_variant("network-24h"), store=record, accounts=[f"network-24h-1:{k}" for k in range(4)])
        table.deposit(0, buy_in)
        debit(tx, account, "EUR", buy_in)
        tx.execute("INSERT INTO seats VALUES ('network-24h-1', 0, ?)", (account,))
        tx.execute("INSERT INTO holds VALUES ('network-24h-1', 0, ?, 1, NULL)", (account,))
        record.flush(tx)

    try:
        db.run_now(job)
    finally:
        db.dialect.close()


def query_write(url: str, sql: str) -> None:
    db = Database(connect(url))
    try:
        db.run_now(lambda tx: tx.execute(sql))
    finally:
        db.dialect.close()


def test_a_limit_change_is_its_own_tables_to_commit(tmp_path: Path) -> None:
    """Two tables of one account: a limit changed at one is written only by that table's commit
    and stays pending until it; dropped when that commit fails, the value it replaced is back."""
    db = Database(connect(str(tmp_path / "casino.db")))
    shared = ServerBook()
    first, second = TableBook(shared), TableBook(shared)
    at = datetime(2026, 12, 3, tzinfo=UTC)
    first.set_limit("alice", 600, at)
    assert second.limit("alice") == (600, at) and not second.dirty  # read by both, pending at one
    db.run_now(second.flush)
    assert db.run_now(lambda tx: tx.all("SELECT amount FROM limits")) == []
    db.run_now(shared.load)  # the lease loop's reload keeps a change still pending
    assert shared.limit("alice") == (600, at)
    first.discard()  # its commit failed
    assert shared.limit("alice") == (None, None) and not shared.pending
    first.set_limit("alice", 500, at)
    db.run_now(first.flush)
    first.settle()
    assert db.run_now(lambda tx: tx.all("SELECT amount FROM limits")) == [(500,)] and not first.dirty
    db.dialect.close()


# ---- the record's rows: a row per command, and records written a row per event -----------------------


def test_a_changed_event_in_a_row_fails_the_audit(database_url: str) -> None:
    """A row holds a command's events under one hash: changing one event inside it fails the
    audit at that row; a forger who also writes every hash after it again is caught by the
    replay."""
    db = Database(connect(database_url))
    record = TableRecord("network-24h-1")
    table = Table(load_variant("network-24h"), seats=4, seed=7, store=record)
    for seat in range(4):
        table.deposit(seat, 100_000)
    for _ in range(6):
        play_round(table, "simple", table.limits.minimum, progressive=True)
        db.run_now(record.flush)
    rows = db.run_now(lambda tx: tx.all("SELECT seq, body FROM table_log ORDER BY seq"))
    k, (seq, body) = next((k, r) for k, r in enumerate(rows) if '"kind":"settled"' in unpack(r[1]) and k > 2)
    events = events_in(body)
    at = next(i for i, e in enumerate(events) if e["kind"] == "settled")
    assert len(events) > 1  # a row of several events, one of them changed
    events[at]["public"]["net"]["total"] += 100
    changed = pack("[" + ",".join(event_to_json(event_from_dict(e)) for e in events) + "]")
    db.run_now(lambda tx: tx.execute("UPDATE table_log SET body = ? WHERE seq = ?", (changed, seq)))
    report = _audit(db)
    assert not report.ok and report.round == events[at]["round"]
    assert f"row {k} does not match its hash" in (report.failure or "")

    def rechain(tx: Tx) -> None:  # every hash written again: the forger's second step
        chain = ""
        for s, b in tx.all("SELECT seq, body FROM table_log ORDER BY seq"):
            chain = chain_hash(chain, unpack(b))
            tx.execute("UPDATE table_log SET chain = ? WHERE seq = ?", (chain, s))

    db.run_now(rechain)
    report = _audit(db)
    assert not report.ok and "is not what the table does on replay" in (report.failure or "")
    db.dialect.close()


def _audit(db: Database, table_id: str = "network-24h-1") -> AuditReport:
    record = TableRecord(table_id)
    db.run_now(record.load)
    return audit(record)


def test_a_second_writer_is_refused_whichever_round_its_row_opens(database_url: str) -> None:
    """Two writers of one table from the same record, a round closed: one writes an event
    between rounds (the closed round's number), the other opens the next round. Both rows take
    the same place (the next round, the same seq), so the second is refused, as an event over an
    existing one always was."""

    async def main() -> None:
        db = Database(connect(database_url))
        db.start()
        record = TableRecord("network-24h-1")
        table = Table(load_variant("network-24h"), seats=4, seed=3, store=record)
        table.deposit(0, 10_000)
        play_round(table, "simple", table.limits.minimum)
        await db.run(record.flush)
        first, second = TableRecord("network-24h-1"), TableRecord("network-24h-1")
        await db.run(first.load)
        await db.run(second.load)
        now = datetime.now(UTC)
        first.append([Event(table.seq, 1, "deposit", now, 1, {"args": {"seat": 1, "amount": 5}})])
        second.append([Event(table.seq, 2, "round_opened", now, None, {"commitment": "00"})])
        await db.run(first.flush)
        with pytest.raises(ServerError):
            await db.run(second.flush)
        places = await db.run(lambda tx: tx.all("SELECT round, seq FROM table_log ORDER BY seq DESC LIMIT 1"))
        assert places == [(2, table.seq)]
        await db.stop()

    asyncio.run(main())


def test_a_commit_past_a_rounds_close_is_a_row_for_each_place() -> None:
    """Events of one commit go in one row, but for a commit that closes a round and goes on: the
    events after the close are the next round's place."""
    record = TableRecord("network-24h-1")
    table = Table(load_variant("network-24h"), seats=4, seed=5, store=record)
    table.deposit(0, 10_000)
    play_round(table, "simple", table.limits.minimum)
    table.deposit(0, 500)
    events = record.pending_events()
    places = [(r[1], r[2], len(events_in(r[6]))) for r in record.take()[-1][1]]
    opened = next(e.seq for e in events if e.kind == "round_opened")
    closed = next(e.seq for e in events if e.kind == "round_closed")
    assert places == [(1, 0, closed + 1), (2, closed + 1, table.seq - closed - 1)]
    assert 0 < opened < closed  # the events before round 1 opened share its place


def test_a_record_written_a_row_an_event_is_moved_and_goes_on(database_url: str) -> None:
    """A database from before rows were a command's: its events are moved, as they were, into
    the record at the next start (once: the old table is gone). The table restores, game recall,
    the proof, the progressive's history, the books and the audit read the old rows, and new
    rows follow them on the same chain."""
    table = "cyberstud-1"
    with LiveServer(settings(database_url)) as live:
        token = live.guest()
        player = Client(live.ws, token)
        player.ok("sit", table=table, buy_in=20_000)
        _play(player, table, 3)
        history = player.ok("history", table=table, last=10)["rounds"]
        proof = player.ok("proof", table=table, round=2)
        meter = httpx.get(f"{live.http}/api/progressive/{table}").json()
        player.close()
    before = recorded(database_url, table)
    every = recorded(database_url)
    _as_written_before(database_url)
    assert _raw(database_url, "SELECT COUNT(*) FROM table_events") == [(len(every),)]
    with LiveServer(settings(database_url)) as live:
        player = Client(live.ws, token)
        assert player.welcome["seats"] == [{"table": table, "seat": 0}]  # restored from the old rows
        assert player.ok("history", table=table, last=10)["rounds"] == history
        assert player.ok("proof", table=table, round=2) == proof
        assert httpx.get(f"{live.http}/api/progressive/{table}").json() == meter
        assert books(database_url) == (True, 3)  # the wallets, and every record's audit
        _play(player, table, 2)
        rounds = player.ok("history", table=table, last=10)["rounds"]
        assert [r[0]["round"] for r in rounds] == [1, 2, 3, 4, 5] and rounds[:3] == history
        assert player.ok("leave", table=table)["returned"] > 0
        player.close()
    assert recorded(database_url, table)[: len(before)] == before
    sql = "SELECT body FROM table_log WHERE table_id = ? ORDER BY seq"
    shapes = [unpack(body)[0] for (body,) in query(database_url, sql, (table,))]
    assert shapes[: len(before)] == ["{"] * len(before)  # an event a row, as written before
    assert set(shapes[len(before) :]) == {"["}  # then a row a command
    assert books(database_url) == (True, 3)
    with pytest.raises(Exception, match="table_events"):
        query(database_url, "SELECT COUNT(*) FROM table_events")
    rows = query(database_url, "SELECT * FROM table_log ORDER BY table_id, seq")
    Database(connect(database_url)).dialect.close()  # opened again: nothing is moved twice
    assert query(database_url, "SELECT * FROM table_log ORDER BY table_id, seq") == rows


def _raw(url: str, sql: str) -> list[tuple[Any, ...]]:
    """Reads the database as it is: no schema made, nothing moved (as `connect` would)."""
    if url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(url) as pg:
            return [tuple(r) for r in pg.execute(sql).fetchall()]
    db = sqlite3.connect(url)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def _play(player: Client, table: str, rounds: int) -> None:
    for n in range(rounds):
        player.ok("progressive", table=table, on=True)
        player.ok("ante", table=table, amount=100)
        player.ok("deal", table=table)
        player.ok("raise" if n % 2 else "fold", table=table)


def _as_written_before(url: str) -> None:
    """The database as a server wrote it before a row was a command's: `table_events`, a row an
    event (its kind, seat and round beside it), each hash over the event's text and the hash of
    the event before; no `table_log`."""
    db = Database(connect(url))

    def job(tx: Tx) -> None:
        tx.execute(
            """CREATE TABLE table_events (
            table_id TEXT NOT NULL, seq INTEGER NOT NULL, round INTEGER NOT NULL, kind TEXT NOT NULL,
            seat INTEGER, body TEXT NOT NULL, chain TEXT NOT NULL, PRIMARY KEY (table_id, seq))"""
        )
        tx.execute("CREATE INDEX table_events_round ON table_events (table_id, round)")
        chains: dict[str, str] = {}
        for table_id, body in tx.all("SELECT table_id, body FROM table_log ORDER BY table_id, seq"):
            for e in map(event_from_dict, events_in(body)):
                text = event_to_json(e)
                chains[table_id] = chain = chain_hash(chains.get(table_id, ""), text)
                row = (table_id, e.seq, e.round, e.kind, e.seat, text, chain)
                tx.execute("INSERT INTO table_events VALUES (?, ?, ?, ?, ?, ?, ?)", row)
        tx.execute("DROP TABLE table_log")

    try:
        db.run_now(job)
    finally:
        db.dialect.close()


def test_a_new_sqlite_file_has_small_pages_and_an_existing_one_keeps_its_own(tmp_path: Path) -> None:
    """A new file's pages are `PAGE_SIZE` bytes (set before WAL starts: never again after); a file
    made before keeps its pages; either checkpoints every `CHECKPOINT_BYTES` of WAL."""
    old = tmp_path / "old.db"
    with sqlite3.connect(old) as made:  # SQLite's default pages, as servers made files before
        made.execute("CREATE TABLE accounts (name TEXT PRIMARY KEY)")
    for path, page in ((tmp_path / "new.db", PAGE_SIZE), (old, 4096)):
        dialect = connect(str(path))
        assert isinstance(dialect, Sqlite)
        held = dialect.tx().one("PRAGMA page_size"), dialect.tx().one("PRAGMA wal_autocheckpoint")
        assert held == ((page,), (CHECKPOINT_BYTES // page,))
        dialect.close()


def test_a_sqlite_batch_begins_on_the_loop_unless_another_writer_holds_the_lock(tmp_path: Path) -> None:
    """`begin_at_once` begins where the write lock is free, and where another connection holds
    it returns False at once, nothing begun and the busy timeout as it was (the batch then waits
    for the lock in the connection's thread); a batch behind a held lock still commits once it
    is let go."""
    path = tmp_path / "casino.db"
    db = Sqlite(str(path))
    assert db.begin_at_once() and db._db.in_transaction
    db.commit()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    assert not db.begin_at_once() and not db._db.in_transaction
    assert time.monotonic() - started < 0.5  # did not wait for the lock
    assert db._db.execute("PRAGMA busy_timeout").fetchone()[0] == BUSY_MS

    async def batch_behind_the_lock() -> int:
        database = Database(db)
        database.start()
        asyncio.get_running_loop().call_later(0.2, other.execute, "COMMIT")
        await database.run(lambda tx: create_account(tx, "somebody", "x", 5))
        await database.stop()
        return database.commits

    assert asyncio.run(batch_behind_the_lock()) == 1
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 1
