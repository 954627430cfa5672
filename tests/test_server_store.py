"""The server's table records, the engine's `EventStore` over SQLite and PostgreSQL alike: rounds
written in group commits restore to the same table and audit clean, a row is never overwritten,
and a refused job rolls back alone."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, books, query, settings

from caribbean_fast import load_variant
from caribbean_fast.engine import Table, audit, restore
from caribbean_fast.engine.autoplay import play_round
from caribbean_fast.errors import InsufficientFundsError, ServerError
from caribbean_fast.server.accounts import create_account
from caribbean_fast.server.book import ServerBook, TableBook
from caribbean_fast.server.db import Database, Tx, connect
from caribbean_fast.server.record import TableRecord
from caribbean_fast.server.wallets import balance, debit, grant


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
        rows = await db.run(lambda tx: tx.all("SELECT body FROM table_events WHERE table_id = 'cyberstud-1'"))
        assert len(rows) == 1 and '"seed":1' in rows[0][0]
        await db.stop()

    asyncio.run(main())


def test_a_refused_job_rolls_back_alone(database_url: str) -> None:
    """Two jobs in one group commit: the wallet move that cannot be covered changes nothing, the
    other commits."""

    async def main() -> None:
        db = Database(connect(database_url))
        db.start()
        await db.run(lambda tx: create_account(tx, "carol", "x", 0))
        await db.run(lambda tx: grant(tx, "carol", 500))

        def overdraw(tx: Tx) -> None:
            tx.execute("UPDATE accounts SET hash = 'changed' WHERE name = 'carol'")
            debit(tx, "carol", 501)

        refused, accepted = await asyncio.gather(
            db.run(overdraw), db.run(lambda tx: debit(tx, "carol", 200)), return_exceptions=True
        )
        assert isinstance(refused, InsufficientFundsError) and accepted is None
        assert await db.run(lambda tx: (balance(tx, "carol"), tx.one("SELECT hash FROM accounts"))) == (300, ("x",))
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
        rows = await db.run(lambda tx: tx.all("SELECT table_id, COUNT(*) FROM table_events GROUP BY table_id"))
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
        await db.run(lambda tx: create_account(tx, "dave", "x", 0))
        with pytest.raises(RuntimeError, match="use run"):
            db.run_now(lambda tx: balance(tx, "dave"))
        job = asyncio.ensure_future(db.run(lambda tx: grant(tx, "dave", 700)))
        await asyncio.sleep(0)  # queued: the worker takes it on its next turn
        worker = db._worker
        assert worker is not None
        await asyncio.sleep(0)
        worker.cancel()
        outcome = (await asyncio.wait_for(asyncio.gather(job, return_exceptions=True), 5))[0]
        assert outcome is None or "stopped during this commit" in str(outcome)
        db._worker = None  # the worker is gone: the connection is free for `run_now` again
        assert db.run_now(lambda tx: balance(tx, "dave")) in ((700,) if outcome is None else (0, 700))
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
        query_write(database_url, "UPDATE accounts SET wallet = wallet + 7000")
        query_write(database_url, "DELETE FROM seats")
        assert books(database_url)[0] is False
    with LiveServer(settings(database_url)) as live:
        me = httpx.get(f"{live.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
        assert me == {"account": account, "wallet": 100_000 if paid else 93_000, "guest": True}
        lobby = httpx.get(f"{live.http}/api/lobby").json()["tables"]
        taken = [(t["taken"], t["free"]) for t in lobby if t["table"] == "network-24h-1"]
        assert taken == ([([], 4)] if paid else [([0], 3)])
        if not paid:  # the adopted seat plays on, and leaves with its money
            player = Client(live.ws, token)
            assert player.welcome["seats"] == [{"table": "network-24h-1", "seat": 0}]
            assert player.ok("leave", table="network-24h-1") == {"returned": 7_000}
            player.close()
    assert books(database_url) == (True, 3)
    [(withdrawals,)] = query(database_url, "SELECT COUNT(*) FROM table_events WHERE kind = 'withdraw'")
    assert withdrawals == (1 if paid else 0)


def _old_style_sit(url: str, account: str, buy_in: int) -> None:
    """Seat 0 of network-24h-1 as a server wrote it before the engine held seats: a deposit event,
    a seat row and a hold, and the wallet debited, in one transaction."""
    db = Database(connect(url))
    record = TableRecord("network-24h-1")

    def job(tx: Tx) -> None:
        tx.execute("DELETE FROM table_events WHERE table_id = 'network-24h-1'")
        tx.execute("DELETE FROM table_meta WHERE table_id = 'network-24h-1'")
        table = Table(load_variant("network-24h"), store=record, accounts=[f"network-24h-1:{k}" for k in range(4)])
        table.deposit(0, buy_in)
        debit(tx, account, buy_in)
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
