"""What every database dialect shares: the schema, and the interfaces a job and the `Database`
see (`Tx`, `Dialect`). Its own module so that `db` (SQLite, and the choice of dialect) and
`pgstore` (PostgreSQL) both import it and neither imports the other at load time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["OLD_RECORD", "SCHEMA", "Dialect", "Tx", "Writes", "migration"]

Writes = list[tuple[str, list[tuple[Any, ...]]]]
"""Statements and their rows, in a fixed order of statements (a table's record: its meta data,
then its events), so that the writes of many jobs merge into one `many` per statement."""

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS accounts (
        name TEXT PRIMARY KEY, hash TEXT NOT NULL, guest INTEGER NOT NULL, created TEXT NOT NULL)""",
    # a wallet per account and currency (`wallets`): made when money first comes into it
    """CREATE TABLE IF NOT EXISTS wallets (
        account TEXT NOT NULL, currency TEXT NOT NULL, amount BIGINT NOT NULL CHECK (amount >= 0),
        granted BIGINT NOT NULL, PRIMARY KEY (account, currency))""",
    # what the single wallet of a database made before `wallets` had sent to each currency's
    # tables when it was split (`wallets.split_single`): one more line of each currency's books
    "CREATE TABLE IF NOT EXISTS books_opening (currency TEXT PRIMARY KEY, moved BIGINT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS sessions (
        token_hash TEXT PRIMARY KEY, account TEXT NOT NULL, expires TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS limits (account TEXT PRIMARY KEY, amount BIGINT, changed TEXT)",
    # The operator's office (`operators`, `office_log`): its accounts apart from the players', their
    # sessions (a token's hash, its CSRF token, its start and last use), and its append-only log
    """CREATE TABLE IF NOT EXISTS operators (
        name TEXT PRIMARY KEY, role TEXT NOT NULL, hash TEXT NOT NULL, totp TEXT NOT NULL,
        last_step BIGINT NOT NULL, created TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS office_sessions (
        token_hash TEXT PRIMARY KEY, operator TEXT NOT NULL, csrf TEXT NOT NULL, started TEXT NOT NULL,
        seen TEXT NOT NULL)""",
    "CREATE TABLE IF NOT EXISTS office_log (seq BIGINT PRIMARY KEY, chain TEXT NOT NULL, body TEXT NOT NULL)",
    # paytable changes the office proposes and a second operator approves (`paytables`), each
    # variant's text kept by its SHA-256, so a round played under it still replays from its text
    "CREATE TABLE IF NOT EXISTS variant_texts (hash TEXT PRIMARY KEY, text TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS paytable_changes (
        id BIGINT PRIMARY KEY, game TEXT NOT NULL, name TEXT NOT NULL, hash TEXT NOT NULL, sheet TEXT NOT NULL,
        proposed_by TEXT NOT NULL, proposed TEXT NOT NULL, why TEXT NOT NULL, approved_by TEXT, approved TEXT)""",
    # each approved change as a table took it, at a round boundary, in the commit of its record's event
    """CREATE TABLE IF NOT EXISTS paytable_applied (
        table_id TEXT NOT NULL, change_id BIGINT NOT NULL, round BIGINT NOT NULL, applied TEXT NOT NULL,
        PRIMARY KEY (table_id, change_id))""",
    # the seconds between reality checks each account chose (`reminders`); none: the server's default
    "CREATE TABLE IF NOT EXISTS reminders (account TEXT PRIMARY KEY, every INTEGER NOT NULL)",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, account TEXT NOT NULL, PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS holds (
        table_id TEXT NOT NULL, seat INTEGER NOT NULL, account TEXT NOT NULL,
        first_round INTEGER NOT NULL, end_round INTEGER)""",
    """CREATE TABLE IF NOT EXISTS table_meta (
        table_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (table_id, key))""",
    "CREATE TABLE IF NOT EXISTS leases (table_id TEXT PRIMARY KEY, endpoint TEXT NOT NULL)",
    # the endpoints of the processes that serve (PostgreSQL): live while each holds its lock (`placement`)
    "CREATE TABLE IF NOT EXISTS processes (endpoint TEXT PRIMARY KEY)",
    # each table's seats taken, meter and phase, as its serving process last published them
    "CREATE TABLE IF NOT EXISTS lobby_state (table_id TEXT PRIMARY KEY, state TEXT NOT NULL)",
    # Every table's record (`record.TableRecord`): a row per command, in the order written (a
    # SQLite rowid table: each commit appends at its end), and one index, which restores a table
    # in order, finds a round for game recall, and refuses a second row at a table's place. The
    # small columns come before the text, so a row's are read without its overflow pages. BLOB
    # is PostgreSQL's BYTEA (`pgstore` writes it so).
    """CREATE TABLE IF NOT EXISTS table_log (
        table_id TEXT NOT NULL, round INTEGER NOT NULL, seq INTEGER NOT NULL, dealt INTEGER,
        funds INTEGER, chain TEXT NOT NULL, body BLOB NOT NULL)""",
    "CREATE UNIQUE INDEX IF NOT EXISTS table_log_place ON table_log (table_id, round, seq)",
    # The progressive's summary (`jackpots`), written by each commit with the record's rows it
    # sums up, so its history is read a page at a time, never from the record: the meter after each
    # round that moved it; each prize of the meter's share, with its time; the fixed prizes
    # counted by day and hand (a table's rows are its owner's alone: no process waits on another's);
    # and the tables whose summary is whole (written since their record began, or filled in once
    # from a record written before: `jackpots.open_summary`).
    """CREATE TABLE IF NOT EXISTS meter_points (
        table_id TEXT NOT NULL, round INTEGER NOT NULL, time TEXT NOT NULL, meter BIGINT NOT NULL,
        PRIMARY KEY (table_id, round))""",
    """CREATE TABLE IF NOT EXISTS meter_prizes (
        table_id TEXT NOT NULL, seq INTEGER NOT NULL, time TEXT NOT NULL, hand TEXT NOT NULL,
        prize BIGINT NOT NULL, from_meter BIGINT NOT NULL, PRIMARY KEY (table_id, seq))""",
    """CREATE TABLE IF NOT EXISTS fixed_prizes (
        game TEXT NOT NULL, day TEXT NOT NULL, table_id TEXT NOT NULL, hand TEXT NOT NULL,
        count BIGINT NOT NULL, amount BIGINT NOT NULL, PRIMARY KEY (game, day, table_id, hand))""",
    "CREATE TABLE IF NOT EXISTS summarized (table_id TEXT PRIMARY KEY)",
    # The progressive pools (`pools`): each one's reset, the shards its processes' commits add
    # to, and each commit that moved it (its history, read by time)
    "CREATE TABLE IF NOT EXISTS pools (pool TEXT PRIMARY KEY, meter BIGINT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS pool_shards (
        pool TEXT NOT NULL, shard TEXT NOT NULL, amount BIGINT NOT NULL, PRIMARY KEY (pool, shard))""",
    """CREATE TABLE IF NOT EXISTS pool_points (
        pool TEXT NOT NULL, table_id TEXT NOT NULL, seq INTEGER NOT NULL, round INTEGER NOT NULL,
        time TEXT NOT NULL, amount BIGINT NOT NULL, prizes TEXT, PRIMARY KEY (table_id, seq))""",
    "CREATE INDEX IF NOT EXISTS pool_points_by_time ON pool_points (pool, time)",
    # The office's figures (`figures`), counters each commit upserts: by day, table, game and
    # spot, and by account, game, currency and spot; the meter's sums are floats (their squares
    # outgrow 64 bits), the money exact
    """CREATE TABLE IF NOT EXISTS figures (
        day TEXT NOT NULL, table_id TEXT NOT NULL, game TEXT NOT NULL, spot TEXT NOT NULL,
        currency TEXT NOT NULL, pool TEXT NOT NULL, rounds BIGINT NOT NULL, hands BIGINT NOT NULL,
        wagered BIGINT NOT NULL, win BIGINT NOT NULL, units BIGINT NOT NULL, units2 BIGINT NOT NULL,
        meter1 DOUBLE PRECISION NOT NULL, meter2 DOUBLE PRECISION NOT NULL, meter3 DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (day, table_id, game, spot))""",
    """CREATE TABLE IF NOT EXISTS account_figures (
        account TEXT NOT NULL, game TEXT NOT NULL, currency TEXT NOT NULL, spot TEXT NOT NULL, most BIGINT NOT NULL,
        hands BIGINT NOT NULL, wagered BIGINT NOT NULL, win BIGINT NOT NULL, units BIGINT NOT NULL,
        units2 BIGINT NOT NULL, meter1 DOUBLE PRECISION NOT NULL, meter2 DOUBLE PRECISION NOT NULL,
        meter3 DOUBLE PRECISION NOT NULL, PRIMARY KEY (account, game, currency, spot))""",
    # a table's running sums every `figures.STEP` rounds of a game: its chart's points
    """CREATE TABLE IF NOT EXISTS figure_points (
        table_id TEXT NOT NULL, game TEXT NOT NULL, rounds BIGINT NOT NULL, spot TEXT NOT NULL, time TEXT NOT NULL,
        hands BIGINT NOT NULL, wagered BIGINT NOT NULL, win BIGINT NOT NULL, units BIGINT NOT NULL,
        units2 BIGINT NOT NULL, meter1 DOUBLE PRECISION NOT NULL, meter2 DOUBLE PRECISION NOT NULL,
        meter3 DOUBLE PRECISION NOT NULL, PRIMARY KEY (table_id, game, rounds, spot))""",
    # the server's own secret keys (`server_keys`), made once and shared by every process
    "CREATE TABLE IF NOT EXISTS server_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
]

OLD_RECORD = "table_events"
"""The record as servers wrote it before `table_log`, a row per event: moved into `table_log` at
start (`migration`), its rows as they were."""


def migration(body: str) -> list[str]:
    """The statements that move a database's old record into `table_log`, run in the transaction
    that creates the schema and only while the old table exists (so at most once; all or
    nothing): each event a row of its own, its text and chain hash unchanged (the audit checks
    rows of one event and rows of a command as one chain), its round its place, its text as is
    (`record.unpack` reads it). `body`: the dialect's expression of the old text as `table_log`'s
    column holds it."""
    return [
        f"""INSERT INTO table_log (table_id, round, seq, dealt, funds, chain, body)
            SELECT table_id, round, seq, CASE WHEN kind = 'dealt' AND seat IS NOT NULL THEN 1 << seat END,
                CASE WHEN kind = 'funds' THEN 1 END, chain, {body}
            FROM {OLD_RECORD}""",
        f"DROP TABLE {OLD_RECORD}",
    ]


class Tx(Protocol):
    """A job's view of the open transaction; SQL uses `?` placeholders in both dialects."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Runs one statement; returns the number of rows it changed."""
        ...

    def many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...
    def one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None: ...
    def all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...


class Dialect(Protocol):
    """What differs between SQLite and PostgreSQL: the connection and the placeholders."""

    url: str
    shares: bool
    """Several processes serve its tables (PostgreSQL), each table leased to one; else (SQLite)
    one process serves them all."""
    in_loop: bool
    """Whether a batch's statements run on the event loop itself (and only its commit, the fsync,
    in a worker thread) rather than all of it in the thread: SQLite's calls are microseconds,
    while from a thread each call waits its turn at the interpreter lock behind a busy loop;
    PostgreSQL's wait on the network."""

    @property
    def broken(self) -> bool:
        """The connection is lost (PostgreSQL): `reconnect` before the next transaction."""
        ...

    def fault(self, err: Exception) -> bool:
        """Whether the error is the database's fault, not a job's (full, read-only, busy,
        cancelled, lost): a job failing with one is refused `unavailable`, no traceback logged."""
        ...

    def deadlock(self, err: Exception) -> bool:
        """Whether the error is the database aborting this transaction to break a deadlock
        (PostgreSQL's SQLSTATE 40P01): the transaction may be tried again from its begin."""
        ...

    def tx(self) -> Tx: ...
    def begin(self) -> None: ...
    def commit(self) -> None: ...
    def rollback(self) -> None:
        """Ends any open transaction; never raises (a connection it cannot roll back is closed,
        and `broken`)."""
        ...

    def reconnect(self) -> None:
        """A new connection in place of a lost one (its leases were lost with it)."""
        ...

    def close(self) -> None: ...
    def try_lease(self, table_id: str) -> bool:
        """Takes the right to serve the table if no live process holds it; kept until this
        connection closes or the process dies."""
        ...

    def unlease(self, table_id: str) -> None:
        """Gives up the right to serve the table (another process may take it at once)."""
        ...

    def hold(self, key: int) -> bool:
        """Takes the advisory lock `key` for this connection's life (False: another holds it)."""
        ...

    def held(self, keys: list[int]) -> set[int]:
        """Which of these advisory locks live sessions hold now."""
        ...
