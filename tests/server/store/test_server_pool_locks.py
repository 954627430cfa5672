"""Two server processes' batches that read two progressive pools never deadlock: each batch takes
the rows of the pools its jobs may read first, in one order for every process (`pools.take`), and
a deadlock with another writer there is retried once from the begin (`Database._begin`). On real
PostgreSQL, where row locks can form a cycle; each `Database` is a process's connection."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import psycopg
import pytest

from caribbean_fast.server.store import pools
from caribbean_fast.server.store.db import Database, Tx, connect

P1, P2 = "cyberstud:USD:one", "cyberstud:USD:two"
RESET = {P1: 100_000, P2: 200_000}
WAIT = 3.0  # seconds a job waits for the other process's job to have taken its first pool


@pytest.fixture
def postgres(postgres_database: str) -> Iterator[str]:
    """A fresh PostgreSQL database holding the two pools."""
    url = postgres_database
    db = Database(connect(url))
    for key, reset in RESET.items():
        db.run_now(partial(pools.open_pool, key=key, reset=reset, shard="tests"))
    db.dialect.close()
    yield url


def _reads(key: str, took: threading.Event, other: threading.Event | None = None) -> Callable[[Tx], int]:
    """A job that reads the pool (takes its row), says so, and then waits a while for the other
    process's job to have taken its own first pool (as two showdowns at once would)."""

    def job(tx: Tx) -> int:
        meter = pools.meter_now(tx, key)
        took.set()
        if other is not None:
            other.wait(WAIT)
        return meter

    return job


def test_two_processes_reading_two_pools_in_opposite_order_both_commit(postgres: str) -> None:
    """Process A's batch reads P1 then P2, process B's P2 then P1, at once. Taken as the jobs
    come, A holds P1 and B P2, each waiting for the other's: PostgreSQL aborts one, and its table
    stops. Taken in one order at each batch's begin, one batch waits for the other: both commit."""

    async def main() -> list[Any]:
        a, b = Database(connect(postgres)), Database(connect(postgres))
        a.start()
        b.start()
        a_took, b_took = threading.Event(), threading.Event()
        landed = [
            a.landing(_reads(P1, a_took, b_took), [P1]),  # one batch each: queued before the worker runs
            a.landing(_reads(P2, threading.Event()), [P2]),
            b.landing(_reads(P2, b_took, a_took), [P2]),
            b.landing(_reads(P1, threading.Event()), [P1]),
        ]
        try:
            return await asyncio.gather(*landed, return_exceptions=True)
        finally:
            assert a.deadlocks == b.deadlocks == 0
            await a.stop()
            await b.stop()

    outcomes = asyncio.run(main())
    assert outcomes == [RESET[P1], RESET[P2], RESET[P2], RESET[P1]]


def test_a_deadlock_taking_the_pools_begins_the_batch_again(postgres: str) -> None:
    """Another writer holds P2 and then asks for P1 while the batch holds P1 and waits for P2: the
    batch's connection finds the deadlock first (the writer waits 10 s before it looks), is
    aborted, and begins again after a pause, once the writer has taken P1 (begun at once, it
    could take P1 first and close the cycle again: CI saw the batch refused): the job commits."""
    writer = psycopg.connect(postgres, autocommit=True)
    writer.execute("SET deadlock_timeout = '10s'")
    writer.execute("BEGIN")
    writer.execute("UPDATE pools SET meter = meter + 1 WHERE pool = %s", (P2,))

    def close_the_cycle() -> None:  # once the batch waits for P2, the writer asks for P1
        deadline = time.monotonic() + 10
        with psycopg.connect(postgres, autocommit=True) as look:
            waiting = "SELECT COUNT(*) FROM pg_locks WHERE NOT granted"
            while look.execute(waiting).fetchone() == (0,) and time.monotonic() < deadline:
                time.sleep(0.02)
        writer.execute("UPDATE pools SET meter = meter + 1 WHERE pool = %s", (P1,))
        writer.execute("COMMIT")

    async def main() -> tuple[int, int]:
        db = Database(connect(postgres))
        db.start()
        cycle = threading.Thread(target=close_the_cycle)
        cycle.start()
        try:
            meter = await db.run(lambda tx: pools.meter_now(tx, P1) + pools.meter_now(tx, P2), [P1, P2])
            return meter, db.deadlocks
        finally:
            await db.stop()
            cycle.join(15)

    try:
        meter, deadlocks = asyncio.run(main())
    finally:
        writer.close()
    assert meter == RESET[P1] + 1 + RESET[P2] + 1 and deadlocks >= 1


def test_opening_a_table_of_a_taken_pool_does_not_wait_for_it(postgres: str) -> None:
    """A batch of another process holds P1's row (taken first, `pools.take`); a job that opens a
    table of P1 (`open_pool`) reads the row and goes on, where an insert meeting the held row
    waited for that batch's end (and inside a batch that took another pool, could close a cycle)."""
    holder = psycopg.connect(postgres, autocommit=True)
    holder.execute("BEGIN")
    holder.execute("UPDATE pools SET meter = meter WHERE pool = %s", (P1,))
    try:
        db = Database(connect(postgres))

        def open_without_waiting(tx: Tx) -> None:
            tx.execute("SET LOCAL lock_timeout = '500ms'")  # a wait fails the job, not hangs it
            pools.open_pool(tx, P1, 1, "other")

        db.run_now(open_without_waiting)
        db.dialect.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
