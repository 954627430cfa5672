"""PostgreSQL behind the same interface as the SQLite database (psycopg 3).

The statements are the SQLite ones with `?` placeholders, turned into psycopg's `%s` here; the
schema is the same. Several server processes may share one PostgreSQL database: accounts and
wallets are shared rows (a wallet move is a conditional UPDATE, atomic across processes), and
each table is leased to one process by a session-level advisory lock (`try_lease`), which the
database itself releases when the process's connection dies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import psycopg

from ...errors import ServerError
from .schema import OLD_RECORD, SCHEMA, Tx, migration
from .wallets import split_single

__all__ = ["Postgres", "lease_key"]


def _sql(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


def lease_key(table_id: str) -> int:
    """The advisory lock's 64-bit key of a table."""
    return int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:8], "big", signed=True)


class _PgTx:
    def __init__(self, db: psycopg.Connection[Any]) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._db.execute(_sql(sql), tuple(params)).rowcount

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self._db.cursor() as cur:
                cur.executemany(_sql(sql), [tuple(r) for r in rows])

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row = self._db.execute(_sql(sql), tuple(params)).fetchone()
        return tuple(row) if row is not None else None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._db.execute(_sql(sql), tuple(params)).fetchall()]


CONNECT_TIMEOUT = 5  # seconds to reach the database before a try fails
_MASK = (1 << 64) - 1
_SINGLE_WALLET = """SELECT 1 FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'accounts' AND column_name = 'wallet'"""
_HELD = """SELECT classid::bigint, objid::bigint FROM pg_locks
    WHERE locktype = 'advisory' AND granted AND objsubid = 1 AND objid::bigint = ANY(%s)
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"""


class Postgres:
    in_loop = False  # each statement waits on the network: batches run in a worker thread
    shares = True  # several processes serve, each table leased to one

    @staticmethod
    def fault(err: Exception) -> bool:
        """The database's doing: the connection lost or shut down, a statement cancelled."""
        return isinstance(err, psycopg.OperationalError)

    @staticmethod
    def deadlock(err: Exception) -> bool:
        """PostgreSQL broke a cycle of transactions waiting on each other by aborting this one."""
        return isinstance(err, psycopg.errors.DeadlockDetected)

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self._db = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            with self._db.transaction():
                self._db.execute("SELECT pg_advisory_xact_lock(1)")  # one process creates the schema
                for statement in SCHEMA:
                    self._db.execute(statement.replace(" BLOB ", " BYTEA "))
                old = self._db.execute("SELECT to_regclass(%s)", (OLD_RECORD,)).fetchone()
                if old is not None and old[0] is not None:  # in the same transaction: all or nothing
                    for statement in migration("convert_to(body, 'UTF8')"):
                        self._db.execute(statement)
                if self._db.execute(_SINGLE_WALLET).fetchone() is not None:  # split by currency, once
                    # a process of the older version still running writes no wallet meanwhile
                    self._db.execute("LOCK TABLE accounts, table_log IN EXCLUSIVE MODE")
                    split_single(_PgTx(self._db))
        except psycopg.Error as err:
            raise ServerError(f"cannot open the PostgreSQL database: {type(err).__name__}") from None

    def tx(self) -> Tx:
        return _PgTx(self._db)

    @property
    def broken(self) -> bool:
        return self._db.closed or self._db.broken

    def begin(self) -> None:
        if self._db.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            self.rollback()  # a transaction a failure left open (or aborted) ends here
        self._db.execute("BEGIN")

    def commit(self) -> None:
        self._db.execute("COMMIT")

    def rollback(self) -> None:
        if self._db.closed:
            return
        try:
            self._db.execute("ROLLBACK")
        except psycopg.Error:  # a cancel or a lost connection mid-rollback: its state is unknown
            self._db.close()

    def reconnect(self) -> None:
        self._db.close()
        self._db = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)

    def close(self) -> None:
        self._db.close()

    def try_lease(self, table_id: str) -> bool:
        """Takes the table's lease if no live process holds it (held until this connection ends)."""
        return self.hold(lease_key(table_id))

    def unlease(self, table_id: str) -> None:
        """Lets go of the table's lease at once (an advisory lock is not part of the transaction)."""
        self._db.execute("SELECT pg_advisory_unlock(%s)", (lease_key(table_id),))

    def hold(self, key: int) -> bool:
        row = self._db.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
        return bool(row and row[0])

    def held(self, keys: list[int]) -> set[int]:
        """Which of these advisory locks some session of this database holds: pg_locks shows a
        64-bit key as its high half (`classid`) and low half (`objid`), `objsubid` 1."""
        halves = {((k & _MASK) >> 32, k & 0xFFFFFFFF): k for k in keys}
        rows = self._db.execute(_HELD, ([lo for _, lo in halves],)).fetchall()
        return {halves[(int(hi), int(lo))] for hi, lo in rows if (int(hi), int(lo)) in halves}
