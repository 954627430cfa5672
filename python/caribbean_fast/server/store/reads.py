"""The database's read side: reads for people (a progressive's history, who a token is, an
account's seats) on a connection of their own, in a thread of their own.

The commits run as batches on the `db.Database` connection; a read queued there would wait for a
commit and hold the next one up (one slow read stalled every table). Here a read never joins a
batch nor runs on the commits' thread: SQLite's write-ahead log lets a reader see the last
commit while the next one is written, and PostgreSQL's snapshots do the same. Each job is one
read-only transaction, so what it reads is one commit's state; a read may wait for other reads,
never for a commit. What the public pages ask again and again is kept a moment (`fresh`), and
asked once however many ask at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ...errors import ServerError
from .db import Sqlite, _SqliteTx
from .schema import Tx

__all__ = ["Reads"]

T = TypeVar("T")
STATEMENT_SECONDS = 5  # a read that runs longer is cancelled (PostgreSQL), and refused `unavailable`


class _Reader(Protocol):
    def tx(self) -> Tx: ...
    def begin(self) -> None: ...
    def end(self) -> None: ...
    def close(self) -> None: ...
    def fault(self, err: Exception) -> bool: ...


class _SqliteReader:
    """A second connection to the server's SQLite file, which may only read."""

    def __init__(self, path: str) -> None:
        uri = Path(path).resolve().as_uri() + "?mode=rw"  # never makes a file: the server's is there
        self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA query_only=1")
        self._db.execute(f"PRAGMA busy_timeout={STATEMENT_SECONDS * 1000}")

    def tx(self) -> Tx:
        return _SqliteTx(self._db)

    def begin(self) -> None:
        self._db.execute("BEGIN")  # deferred: its first read takes the snapshot, no lock a writer waits on

    def end(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def close(self) -> None:
        self._db.close()

    def fault(self, err: Exception) -> bool:
        return Sqlite.fault(err)


class _PostgresReader:
    def __init__(self, url: str) -> None:
        import psycopg

        from .pgstore import CONNECT_TIMEOUT, _PgTx

        self._db = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
        self._db.execute(f"SET statement_timeout = {STATEMENT_SECONDS * 1000}")
        self._tx, self._error = _PgTx, psycopg.OperationalError

    def tx(self) -> Tx:
        return self._tx(self._db)

    def begin(self) -> None:
        self._db.execute("BEGIN READ ONLY")

    def end(self) -> None:
        if not self._db.closed:
            self._db.execute("ROLLBACK")

    def close(self) -> None:
        self._db.close()

    def fault(self, err: Exception) -> bool:
        return isinstance(err, self._error) or self._db.closed or self._db.broken


def _reader(url: str) -> _Reader:
    if url.startswith(("postgresql://", "postgres://")):
        return _PostgresReader(url)
    return _SqliteReader(url)


class Reads:
    """Read-only jobs on a connection of their own, one at a time, in a thread of their own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._reader: _Reader | None = None  # opened at the first read, again after a fault
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="reads")
        self._kept: dict[Hashable, tuple[float, asyncio.Future[Any]]] = {}

    def submit(self, job: Callable[[Tx], T]) -> Future[T]:
        """`job` in a read-only transaction, in the read thread; its future."""
        return self._thread.submit(self._run, job)

    async def run(self, job: Callable[[Tx], T]) -> T:
        return await asyncio.wrap_future(self.submit(job))

    async def fresh(self, key: Hashable, job: Callable[[Tx], T], seconds: float) -> T:
        """`job`'s result as read at most `seconds` ago under `key`; one read under way is shared
        by every caller meanwhile, and a failed one is not kept."""
        now = time.monotonic()
        for stale in [k for k, (until, _) in self._kept.items() if until <= now]:
            del self._kept[stale]
        kept = self._kept.get(key)
        if kept is None or (kept[1].done() and (kept[1].cancelled() or kept[1].exception() is not None)):
            kept = self._kept[key] = (now + seconds, asyncio.ensure_future(self.run(job)))
        found: T = await asyncio.shield(kept[1])
        return found

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _run(self, job: Callable[[Tx], T]) -> T:
        try:
            if self._reader is None:
                self._reader = _reader(self.url)
            reader = self._reader
            reader.begin()
            try:
                return job(reader.tx())
            finally:
                reader.end()
        except ServerError:
            raise
        except Exception as err:
            if self._reader is None or self._reader.fault(err):  # opened again at the next read
                self._drop()
                raise ServerError(f"the database did not answer a read ({type(err).__name__})", "unavailable") from None
            raise

    def _drop(self) -> None:
        if self._reader is not None:
            with contextlib.suppress(Exception):  # a broken connection may fail to close: let go either way
                self._reader.close()
            self._reader = None
