"""The server's database: accounts, wallets, seats and every table's record, in SQLite or PostgreSQL.

All database work runs as jobs on one connection, a batch at a time: PostgreSQL's in a worker
thread, so the event loop never waits on the network; SQLite's statements on the loop itself, as
its calls are short, while from a thread each of its calls waited for the interpreter lock
behind the busy loop (a batch then took far longer than its work); its commit, one local fsync
that releases the interpreter lock, in a thread.
Jobs that arrive while a transaction commits wait for the next one and then share it (group
commit): each job runs in its own savepoint, so a job that refuses (raises a
`CaribbeanFastError`) rolls back alone, and a job's caller is answered only after the transaction
holding it has committed; jobs that only write rows (a table's events) are written together, their
moves of a shared pool's shard summed into one update.
The rows of the progressive pools a batch's jobs may read are taken first, in one order for every
process (`pools.take`), and a deadlock there is retried from the begin, a few times (`_begin`).
Durability is never weakened: SQLite runs with `synchronous=FULL`, PostgreSQL with its default
`synchronous_commit`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO, TypeVar

from ...errors import CaribbeanFastError, ServerError
from . import pools
from .schema import OLD_RECORD, SCHEMA, Dialect, Tx, Writes, migration
from .wallets import split_single

__all__ = ["SCHEMA", "Database", "Dialect", "Tx", "Writes", "connect", "probe"]

T = TypeVar("T")
_log = logging.getLogger(__name__)
# SQLite's result codes that are the machine's doing, not a statement's: a full disk, a file that
# cannot be written or read, a lock held past the busy timeout (extended codes share the prefix)
_FAULTS = (
    "SQLITE_FULL",
    "SQLITE_READONLY",
    "SQLITE_BUSY",
    "SQLITE_LOCKED",
    "SQLITE_IOERR",
    "SQLITE_CANTOPEN",
    "SQLITE_PERM",
)
RECONNECT_FIRST, RECONNECT_MOST = 0.1, 5.0  # seconds between tries to reach a lost database
BUSY_MS = 5000  # how long SQLite waits for another process's write lock before the batch fails
DEADLOCK_TRIES = 4  # begins of a batch that a deadlock taking the pools' rows aborts, the first included
GATHER = 0.002  # seconds a batch waits for more jobs when the last batch has just ended (under load)
PAGE_SIZE = 512
"""Bytes a page of a new SQLite file (an existing file keeps its own). A commit writes each page it
changed whole to the WAL, and a checkpoint writes it again to the file; each command changes a
page of the record's index where its table's rows are (`schema`), whatever the page's size, so
the smallest page writes the fewest bytes: a bench run's commits replayed five a commit wrote
3.7 KB a command at 512 bytes, 4.7 KB at 1 KiB, 8.7 KB at 4 KiB (docs/benchmarks.md)."""
CHECKPOINT_BYTES = 16 * 2**20
"""WAL written before a commit copies its pages to the file (`wal_autocheckpoint`; SQLite's
default, 1,000 pages, is 0.5 MiB at 512 bytes). A page changed again and again between two
checkpoints (every table's latest index page, the lobby's) is copied once: the same commits
wrote 8.8 KB a command at 0.5 MiB, 4.1 KB at 8 MiB, 3.7 KB at 16 MiB, 3.5 KB at 32 MiB, whose
checkpoints each stall the commits twice as long."""


class _SqliteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self._db.execute(sql, tuple(params)).rowcount

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self._db.executemany(sql, rows)

    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        row = self._db.execute(sql, tuple(params)).fetchone()
        return tuple(row) if row is not None else None

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._db.execute(sql, tuple(params)).fetchall()]


class Sqlite:
    """The embedded default: one file, WAL, every commit synchronous."""

    in_loop = True  # see `Dialect.in_loop`: a batch's statements are microseconds of calls
    broken = False  # the connection is a file: it never needs opening again
    shares = False  # one process serves every table (`try_lease`)

    @staticmethod
    def fault(err: Exception) -> bool:
        return isinstance(err, sqlite3.Error) and getattr(err, "sqlite_errorname", "").startswith(_FAULTS)

    @staticmethod
    def deadlock(err: Exception) -> bool:
        return False  # one writer at a time: a transaction waits for the file, never in a cycle

    def __init__(self, path: str, create: bool = True) -> None:
        self.url = path
        self._lease: TextIO | None = None
        if not create and not Path(path).is_file():
            raise ServerError(f"{path}: no server database there")
        db = None
        try:
            db = self._db = sqlite3.connect(Path(path), isolation_level=None, check_same_thread=False)
            _refuse_foreign(self._db, path)
            if self._db.execute("PRAGMA page_count").fetchone()[0] == 0:  # a new file: before WAL, or never
                self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            page = self._db.execute("PRAGMA page_size").fetchone()[0]
            self._db.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_BYTES // page}")
            self._db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            self._db.execute("BEGIN IMMEDIATE")
            for statement in SCHEMA:
                self._db.execute(statement)
            old = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
            moved = self._db.execute(old, (OLD_RECORD,)).fetchone() is not None
            if moved:
                for statement in migration("body"):  # the old text, kept as text in the BLOB column
                    self._db.execute(statement)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(accounts)")}
            if "wallet" in columns:  # a single wallet per account: split by currency, once
                split_single(_SqliteTx(self._db))
            self._db.execute("COMMIT")
            if moved:  # the old record went through the WAL: copied to the file, the WAL cut back
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError as err:
            if db is not None:
                self.rollback()  # the schema and the migration are all or nothing
            raise ServerError(f"{path}: not a server database: {err}") from None

    def tx(self) -> Tx:
        return _SqliteTx(self._db)

    def begin(self) -> None:
        self.rollback()  # a transaction a failure left open ends here, never in the next batch
        self._db.execute("BEGIN IMMEDIATE")

    def begin_at_once(self) -> bool:
        """`begin` where no other connection holds the write lock (False: one does, and nothing
        was begun): it does not wait, so it runs on the loop, where `begin`, which may wait up to
        the busy timeout, runs in the connection's thread. The thread's turn cost more CPU than
        the begin (a hand-off at the interpreter lock each way)."""
        self.rollback()
        self._db.execute("PRAGMA busy_timeout=0")
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            if getattr(err, "sqlite_errorname", "") != "SQLITE_BUSY":
                raise
            return False
        finally:
            self._db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        return True

    def commit(self) -> None:
        self._db.execute("COMMIT")

    def rollback(self) -> None:
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # SQLite has rolled back already when it cannot
                self._db.execute("ROLLBACK")

    def reconnect(self) -> None:
        pass

    def close(self) -> None:
        self._db.close()
        if self._lease is not None:
            self._lease.close()
            self._lease = None

    def try_lease(self, table_id: str) -> bool:
        """SQLite serves from one process: the first to lock the file `<database>.lease` serves
        every table, and another takes over when it dies (the kernel drops its lock)."""
        if self._lease is None:
            lease = open(f"{self.url}.lease", "a+")  # noqa: SIM115 (held open as the lock)
            try:
                fcntl.flock(lease, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                lease.close()
                return False
            self._lease = lease
        return True

    def unlease(self, table_id: str) -> None:
        pass  # the lease is the whole file's: kept while the process serves

    def hold(self, key: int) -> bool:
        return True

    def held(self, keys: list[int]) -> set[int]:
        return set(keys)


def probe(tx: Tx) -> None:
    """The cheapest statement: the database answers (health)."""
    tx.one("SELECT 1")


def _refuse_foreign(db: sqlite3.Connection, path: str) -> None:
    """Someone else's SQLite database is left as it was: the server's schema goes only into a new
    or empty file, or one that already holds the server's tables."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and "accounts" not in tables:
        db.close()
        raise ServerError(f"{path}: not a server database (it holds other tables), left as it was")


def connect(url: str, create: bool = True) -> Dialect:
    """`postgresql://...` opens PostgreSQL; anything else is a SQLite file's path, made when
    missing only if `create` (a reader never makes one)."""
    if url.startswith(("postgresql://", "postgres://")):
        from .pgstore import Postgres

        dialect: Dialect = Postgres(url)
        return dialect
    return Sqlite(url, create)


@dataclass
class _Job:
    run: Callable[[Tx], Any]
    done: asyncio.Future[Any]
    writes: Writes | None = None  # rows only: written with the batch's other rows, merged
    pools: tuple[str, ...] = ()  # the pools whose rows the job may take: the batch takes them first


def _fail(batch: list[_Job], error: Exception) -> None:
    for job in batch:
        if not job.done.done():
            job.done.set_exception(error)


def _write(writes: Writes) -> Callable[[Tx], None]:
    def job(tx: Tx) -> None:
        for sql, rows in writes:
            tx.many(sql, rows)

    return job


class Database:
    """Runs jobs on the dialect's connection, a batch of them per transaction."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._jobs: list[_Job] = []
        self._wake: asyncio.Event | None = None
        self._worker: asyncio.Task[None] | None = None
        # The connection's own thread (PostgreSQL's batches, SQLite's commits): never queued
        # behind password hashing or other work of the loop's default executor.
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="database")
        self.commits = 0
        self.deadlocks = 0  # batches begun again after a deadlock taking the pools' rows (`_begin`)
        self.generation = 0  # connections made again: a lease taken on an earlier one is gone
        self.failing: str | None = None  # why the last transaction failed, until one commits
        self.on_reconnect: Callable[[], None] | None = None  # connection lost: the server gives up its leases
        self._lost_told = False  # the server was told this connection is lost (`_lost`)
        self._retry_at, self._backoff = 0.0, RECONNECT_FIRST
        self._busy = False  # a batch is being written (PostgreSQL's in the thread, SQLite's partly)
        self._ended = 0.0  # when the last batch was answered (time.monotonic)

    @property
    def url(self) -> str:
        return self.dialect.url

    def start(self) -> None:
        self._wake = asyncio.Event()
        self._worker = asyncio.create_task(self._work())

    async def stop(self) -> None:
        """Commits what is queued, then closes the connection."""
        if self._worker is not None:
            while self._jobs or self._busy:
                await asyncio.sleep(0.01)
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
        self._thread.shutdown(wait=True)
        self.dialect.close()

    async def run(self, job: Callable[[Tx], T], pool_keys: Sequence[str] = ()) -> T:
        """Runs `job` in the next transaction; returns its result once that has committed, or
        raises what the job raised (its savepoint rolled back, nothing changed). `pool_keys`: the
        progressive pools whose rows the job may take (`pools.meter_now`)."""
        return await self.landing(job, pool_keys)

    def landing(self, job: Callable[[Tx], T], pool_keys: Sequence[str] = ()) -> asyncio.Future[T]:
        """`run`'s job, queued; the future its outcome lands in (a caller that must see the
        outcome even when it is cancelled meanwhile shields it: `tables.Owner._commit`)."""
        assert self._wake is not None, "Database.start() first"
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.append(_Job(job, done, pools=tuple(pool_keys)))
        self._wake.set()
        return done

    async def write(self, writes: Writes) -> None:
        """Writes rows in the next transaction, once that has committed (`writing`)."""
        await self.writing(writes)

    def writing(self, writes: Writes) -> asyncio.Future[None]:
        """Rows to write in the next transaction, queued; the future its outcome lands in. The
        batch writes every such job's rows in one statement each (a few calls to the database for
        hundreds of tables, where a job of its own costs a savepoint and the worker thread's turn
        at the interpreter lock around each call); where that fails, each job is tried alone, so a
        job whose rows cannot go in fails alone, as `run`'s do."""
        assert self._wake is not None, "Database.start() first"
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._jobs.append(_Job(_write(writes), done, writes))
        self._wake.set()
        return done

    def run_now(self, job: Callable[[Tx], T]) -> T:
        """Runs `job` in a transaction of its own, here and now (command-line tools, checks),
        on a database whose worker is not started: the worker's batches own the connection."""
        if self._worker is not None:
            raise RuntimeError("run_now on a started Database: its worker owns the connection; use run")
        self.dialect.begin()
        try:
            result = job(self.dialect.tx())
            self.dialect.commit()
            return result
        except BaseException:
            self.dialect.rollback()
            raise

    async def _work(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            if time.monotonic() - self._ended < GATHER:  # under load: more commands share the commit,
                try:  # which writes each page it changed whole, and one fsync
                    await asyncio.sleep(GATHER)
                except asyncio.CancelledError:  # stopped (the loop's end): no queued job waits forever
                    queued, self._jobs = self._jobs, []
                    _fail(queued, ServerError("the server stopped before this commit; nothing was changed"))
                    raise
            self._wake.clear()
            batch, self._jobs = self._jobs, []
            if not batch:
                continue
            self._busy = True
            try:
                if self.dialect.broken:
                    self._lost()
                    refusal = await self._reconnect()
                    batch, self._jobs = batch + self._jobs, []  # queued for the lost connection
                    outcomes: list[Any] = [refusal] * len(batch)
                else:
                    outcomes = await self._outcomes(batch)
            except Exception:  # a bug: the worker lives on, or every later job would wait forever
                _log.exception("a database batch failed")
                outcomes = [ServerError("the server failed; nothing was changed")] * len(batch)
            finally:
                self._busy, self._ended = False, time.monotonic()
            for job, outcome in zip(batch, outcomes, strict=True):
                if job.done.cancelled():
                    continue
                if isinstance(outcome, BaseException):
                    job.done.set_exception(outcome)
                else:
                    job.done.set_result(outcome[0])

    async def _outcomes(self, batch: list[_Job]) -> list[Any]:
        """The batch in one transaction: (result,) or the exception, per job. A transaction that
        fails as a whole (its begin, a statement outside the jobs, its commit) refuses every job
        with `unavailable`, and is rolled back."""
        try:
            if self.dialect.in_loop:
                outcomes = await self._batch_on_loop(batch)
            else:
                outcomes = await self._in_thread(lambda: self._batch(batch))
        except asyncio.CancelledError:  # stopped mid-batch (the loop's end): no job waits forever
            _fail(batch, ServerError("the server stopped during this commit; its record says whether it happened"))
            raise
        except Exception as err:
            self.failing = f"{type(err).__name__}: {err}"
            _log.error("a commit failed", extra={"fields": {"error": self.failing, "jobs": len(batch)}})
            if self.dialect.broken:  # the connection, and its table leases, are gone: said at once
                self._lost()
            return [ServerError(f"the database did not commit: {self.failing}", "unavailable")] * len(batch)
        self.failing = None
        return outcomes

    async def _reconnect(self) -> ServerError:
        """The connection was lost (PostgreSQL): a new one, at most one try a back-off step. The
        jobs waiting are refused either way: they were queued under the lost connection's table
        leases, which the server gives up (`on_reconnect`) before any later job runs."""
        now = time.monotonic()
        if now < self._retry_at:
            return ServerError("the database connection is lost; reconnecting", "unavailable")
        try:
            await asyncio.get_running_loop().run_in_executor(self._thread, self.dialect.reconnect)
        except Exception as err:
            self.failing = f"cannot reconnect: {type(err).__name__}"
            self._retry_at, self._backoff = now + self._backoff, min(2 * self._backoff, RECONNECT_MOST)
            _log.error("the database is unreachable", extra={"fields": {"error": self.failing, "retry": self._backoff}})
            return ServerError(f"the database is unreachable ({type(err).__name__}); try again", "unavailable")
        self._retry_at, self._backoff, self.failing = 0.0, RECONNECT_FIRST, None
        self._lost_told = False
        _log.warning("reconnected to the database", extra={"fields": {"generation": self.generation}})
        return ServerError("the database connection was lost and is back; try again", "unavailable")

    def _lost(self) -> None:
        """The connection is lost: its table leases went with it (PostgreSQL's advisory locks are
        the connection's), so the server gives up every table now, before any later job and
        without waiting for a new connection: another process may take them over at once, and
        this one must not go on listing them as its own meanwhile."""
        if self._lost_told:
            return
        self._lost_told = True
        self.generation += 1
        if self.on_reconnect is not None:
            try:
                self.on_reconnect()
            except Exception:  # the worker must live on: every later job waits on it
                _log.exception("giving up the tables after the connection was lost failed")

    def _batch(self, batch: list[_Job]) -> list[Any]:
        """One transaction; each job in a savepoint. Returns (result,) or the exception per job."""
        try:
            self._begin(batch)
            outcomes = self._jobs_run(batch)
            self.dialect.commit()
        except BaseException:
            self.dialect.rollback()
            raise
        self.commits += 1
        return outcomes

    def _begin(self, batch: list[_Job]) -> None:
        """Begins the batch's transaction and takes the rows of every pool its jobs may read, in
        the one order of every process (`pools.take`), before any job runs; jobs that open a pool
        read its row before writing it (`pools.open_pool`). Another writer that took them in
        another order may still close a cycle: PostgreSQL aborts one transaction, and if it is
        this one, the batch begins again after a pause that lets the other take the row it waited
        for (begun at once, it could take that row first and close the same cycle again), up to
        `DEADLOCK_TRIES` times. No job has run yet, so nothing of any table has moved: each job
        then runs as if the first try never was."""
        keys = [k for job in batch for k in job.pools]
        for attempt in range(DEADLOCK_TRIES):
            self.dialect.begin()
            try:
                pools.take(self.dialect.tx(), keys)
                return
            except Exception as err:
                if attempt == DEADLOCK_TRIES - 1 or not self.dialect.deadlock(err):
                    raise
                self.dialect.rollback()
                self.deadlocks += 1
                _log.warning(
                    "a deadlock taking the pools' rows: the batch begins again",
                    extra={"fields": {"pools": len(set(keys))}},
                )
                time.sleep(0.01 * 2**attempt)  # the connection's own thread: no job of the batch has run

    async def _batch_on_loop(self, batch: list[_Job]) -> list[Any]:
        """`_batch` for SQLite: the statements on the loop; the begin where it would wait for another
        process's write lock (up to the busy timeout: `Sqlite.begin_at_once`) and the commit (the
        fsync, which the loop would otherwise wait for) in the connection's thread, while the loop
        runs the commands of other tables (whose rows wait for the next batch); nothing else touches
        the connection meanwhile (`_work` runs one batch at a time, and `run_now` refuses a started
        database). No pools are taken first (`_begin`): SQLite's one writer holds the whole file, so
        no two transactions can wait on each other's rows."""
        try:
            if not (isinstance(self.dialect, Sqlite) and self.dialect.begin_at_once()):
                await self._in_thread(self.dialect.begin)
            outcomes = self._jobs_run(batch)
            await self._in_thread(self.dialect.commit)
        except BaseException:
            self.dialect.rollback()
            raise
        self.commits += 1
        return outcomes

    async def _in_thread(self, call: Callable[[], T]) -> T:
        """`call` in the connection's thread; if cancelled, the connection stays the thread's
        until the call ends."""
        running = asyncio.get_running_loop().run_in_executor(self._thread, call)
        try:
            return await asyncio.shield(running)
        finally:
            if not running.done():
                await asyncio.wait({running})

    def _jobs_run(self, batch: list[_Job]) -> list[Any]:
        """Every job of the batch in the open transaction: the rows-only ones merged, the others
        each in its savepoint."""
        tx = self.dialect.tx()
        outcomes: dict[int, Any] = {}
        self._write_merged(tx, [(k, j) for k, j in enumerate(batch) if j.writes is not None], outcomes)
        for k, job in enumerate(batch):
            if job.writes is None:
                outcomes[k] = self._one(tx, job)
        return [outcomes[k] for k in range(len(batch))]

    def _write_merged(self, tx: Tx, jobs: list[tuple[int, _Job]], outcomes: dict[int, Any]) -> None:
        """Every rows-only job's rows in one `many` per statement, in one savepoint; if that
        fails, it is rolled back and each job runs alone in its own."""
        if not jobs:
            return
        merged: dict[str, list[tuple[Any, ...]]] = {}
        for _, job in jobs:
            for sql, rows in job.writes or ():
                merged.setdefault(sql, []).extend(rows)
        if pools.ADD in merged:  # every pooled table's commit adds to the one shard of its pool
            merged[pools.ADD] = pools.summed(merged[pools.ADD])
        tx.execute("SAVEPOINT writes")
        try:
            for sql, rows in merged.items():
                if rows:
                    tx.many(sql, rows)
        except Exception:
            tx.execute("ROLLBACK TO SAVEPOINT writes")
            tx.execute("RELEASE SAVEPOINT writes")
            for k, job in jobs:
                outcomes[k] = self._one(tx, job)
            return
        tx.execute("RELEASE SAVEPOINT writes")
        for k, _ in jobs:
            outcomes[k] = (None,)

    def _one(self, tx: Tx, job: _Job) -> Any:
        tx.execute("SAVEPOINT job")
        try:
            result = job.run(tx)
        except Exception as err:
            tx.execute("ROLLBACK TO SAVEPOINT job")
            tx.execute("RELEASE SAVEPOINT job")
            if isinstance(err, CaribbeanFastError):  # a refusal: its traceback would hold this frame, and
                return err.with_traceback(None)  # so the job, its future and the batch, in a cycle
            if self.dialect.fault(err):  # the database's fault (full, read-only, cancelled), not the job's
                _log.error("a database job failed", extra={"fields": {"error": f"{type(err).__name__}: {err}"}})
                why = f"the database refused a write ({type(err).__name__}); nothing was changed"
                return ServerError(why, "unavailable")
            _log.exception("a database job failed")
            return ServerError("the server failed; nothing was changed")
        tx.execute("RELEASE SAVEPOINT job")
        return (result,)
