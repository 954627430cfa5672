"""The books of the progressive pools across a change of prize schedule: a table that changed its
schedule plays for a new pool from its first commit there on, and its later rounds count in that
pool only, never in the old one (`pools.reconcile`)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from functools import partial

from caribbean_fast import load_variant
from caribbean_fast.engine import Table
from caribbean_fast.engine.autoplay import play_round
from caribbean_fast.server.store import pools
from caribbean_fast.server.store.db import Database, Tx, connect
from caribbean_fast.server.store.jackpots import open_summary
from caribbean_fast.server.store.record import TableRecord
from caribbean_fast.variants import Variant

OLD = load_variant("cyberstud")
assert OLD.progressive is not None
NEW = replace(OLD, name="cyberstud-more", progressive=replace(OLD.progressive, contribution=OLD.progressive.stake // 2))
ROUNDS = 25


def _plays_for(tx: Tx, record: TableRecord, table: Table, variant: Variant) -> str:
    """The table's summary and pool for its variant, as its owner opens them (`Owner._open_summaries`)."""
    key, p = pools.pool_key(variant), variant.progressive
    assert key is not None and p is not None
    record.summary = summary = open_summary(tx, record, table.meter, variant)
    assert summary is not None
    pools.open_pool(tx, key, p.reset, "tests")
    summary.pool, summary.shard = key, "tests"
    return key


def _rounds(db: Database, table: Table, record: TableRecord) -> None:
    for _ in range(ROUNDS):
        play_round(table, "simple", table.limits.minimum, progressive=True)
        db.run_now(record.flush)


def test_a_change_of_schedule_counts_the_later_rounds_in_the_new_pool_only(database_url: str) -> None:
    db = Database(connect(database_url))
    record = TableRecord("cyberstud-1")
    table = Table(OLD, seats=1, seed=11, store=record)
    old = db.run_now(lambda tx: _plays_for(tx, record, table, OLD))
    table.deposit(0, 10**8)
    _rounds(db, table, record)

    def change(tx: Tx) -> str:  # the engine's change and the new pool in one commit, as the owner's job
        table.change_variant(NEW)
        key = _plays_for(tx, record, table, NEW)
        record.flush(tx)
        return key

    new = db.run_now(change)
    _rounds(db, table, record)
    books = db.run_now(pools.reconcile)
    db.dialect.close()
    assert old != new and set(books) == {old, new}
    assert books[old][0] == books[old][1] and books[new][0] == books[new][1], books
    assert OLD.progressive is not None and NEW.progressive is not None
    # each pool took a contribution a round while the table played for it (prizes aside: none of
    # the meter's share in these rounds, as the meters show)
    assert books[old][0] == OLD.progressive.reset + ROUNDS * OLD.progressive.contribution
    assert books[new][0] == NEW.progressive.reset + ROUNDS * NEW.progressive.contribution


def test_the_pooled_tables_of_a_batch_move_their_shard_once_and_the_books_hold(database_url: str) -> None:
    """Three tables of one pool write each round's rows in one batch (rows-only jobs, merged): their
    moves of the process's shard are summed into one update a batch (`pools.summed`), and the pool
    still reconciles with their records, a contribution a round from each."""
    adds = [(5, "p", "a"), (7, "q", "a"), (-2, "p", "a"), (1, "p", "b")]
    assert pools.summed(adds) == [(3, "p", "a"), (7, "q", "a"), (1, "p", "b")]
    db = Database(connect(database_url))
    records = [TableRecord(f"cyberstud-{k}") for k in range(3)]
    tables = [Table(OLD, seats=1, seed=20 + k, store=r) for k, r in enumerate(records)]
    pairs = zip(records, tables, strict=True)
    keys = {db.run_now(partial(_plays_for, record=r, table=t, variant=OLD)) for r, t in pairs}
    for table in tables:
        table.deposit(0, 10**8)

    async def play() -> None:
        db.start()
        for _ in range(ROUNDS):
            for table in tables:
                play_round(table, "simple", table.limits.minimum, progressive=True)
            await asyncio.gather(*(db.writing(r.take()) for r in records))  # queued together: one batch
        await db.stop()

    asyncio.run(play())
    again = Database(connect(database_url))
    books = again.run_now(pools.reconcile)
    again.dialect.close()
    (key,) = keys
    assert OLD.progressive is not None
    assert books[key][0] == books[key][1] == OLD.progressive.reset + 3 * ROUNDS * OLD.progressive.contribution
