"""Event stores: where a table writes every event as it happens, and reads them back to restore.

`EventStore` is the interface, and its docstring is the contract every store keeps (SQLite here,
PostgreSQL in the server): a record is never changed by opening it, a writer holds its store
alone, and a reader changes nothing. A row holds the events of one command, as the server's record
keeps them too (a record written before holds a row an event: both read alike). `MemoryStore`
keeps a list; `SqliteStore` (the embedded default) keeps a SQLite file in WAL mode with one
transaction a command, each row chained to the one before by a hash so that the audit notices any
row changed, removed or reordered.
"""

from __future__ import annotations

import bisect
import contextlib
import fcntl
import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol
from urllib.parse import quote

from ..errors import StoreError
from .events import Event, built, chain_hash, event_from_dict, events_to_json

__all__ = ["IN_USE", "EventStore", "MemoryStore", "Row", "SqliteStore"]

IN_USE = "store in use by another writer"
"""The words every store uses when a second writer tries to open a store that has one."""


@dataclass(frozen=True)
class Row:
    """One stored row: its text as written and its chain hash. The text is a JSON array of the
    events one command made, in order, or in a record written before rows were a command's, one
    event's JSON (an object)."""

    text: str
    chain: str

    @property
    def events(self) -> list[Event]:
        """The events the row holds, in order; StoreError for a row that is not one event or a
        non-empty array of them."""
        try:
            found = json.loads(self.text)
            events = [event_from_dict(d) for d in found] if isinstance(found, list) else [event_from_dict(found)]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            raise StoreError(f"a malformed row: {type(err).__name__}: {err}") from None
        if not events:
            raise StoreError("a malformed row: an array of no events")
        return events

    @property
    def event(self) -> Event:
        """The event a row of one event holds; StoreError for a row that is not one."""
        events = self.events
        if len(events) != 1:
            raise StoreError(f"a row of {len(events)} events where one was expected")
        return events[0]


class EventStore(Protocol):
    """The contract of a table's record, whatever keeps it.

    - Opening a store for writing takes it for this writer alone until `close`: a second writer,
      in this process or another, is refused with a StoreError saying `IN_USE`.
    - A record is never rewritten: `begin` starts a new one and refuses a store that holds a table
      already (meta data or events); `write_meta` adds keys and refuses to change one; rows are
      only appended, one transaction each, and events whose seqs are not the next are refused.
    - A store opened to read changes nothing, not even its schema; a store that is not a table's
      record (empty, foreign, malformed) is a StoreError naming what is wrong, never a crash.
    """

    def begin(self, meta: dict[str, str]) -> None:
        """Starts a new record with this meta data; StoreError if the store holds one already."""
        ...

    def write_meta(self, meta: dict[str, str]) -> None:
        """Adds these keys to the meta data; StoreError for a key already set to another value."""
        ...

    def read_meta(self) -> dict[str, str]: ...
    def append(self, events: Sequence[Event]) -> None:
        """Writes the events of one command (in order, at least one) as one row; StoreError, writing
        nothing, where the first is not the record's next event."""
        ...

    def rows(self, since: int = 0) -> list[Row]:
        """The rows in order, from the one holding event `since` on (a row holds the events of
        one command, or in a record written before, one event)."""
        ...

    def close(self) -> None: ...


def merged_meta(old: dict[str, str], new: dict[str, str], where: str) -> dict[str, str]:
    """The meta data with `new` added; StoreError naming the first key `new` would change."""
    for key, value in new.items():
        if key in old and old[key] != value:
            raise StoreError(f"{where}: the record's {key!r} is set already and is never changed")
    return old | new


def _first_rows(rows: list[Row], firsts: list[int], since: int) -> list[Row]:
    """The rows from the one holding event `since` on (`firsts`: each row's first seq)."""
    return rows[max(0, bisect.bisect_right(firsts, since) - 1) :]


def _row_text(events: Sequence[Event], next_seq: int, where: str) -> str:
    """A command's row, once its events are found to be the record's next."""
    if not events:
        raise StoreError(f"{where}: a row of no events")
    if events[0].seq != next_seq:
        raise StoreError(f"{where}: event {events[0].seq} is not the next ({next_seq})")
    return events_to_json(events)


class MemoryStore:
    def __init__(self) -> None:
        self.meta: dict[str, str] = {}
        self._rows: list[Row] = []
        self._firsts: list[int] = []  # each row's first seq
        self._next = 0

    def begin(self, meta: dict[str, str]) -> None:
        if self.meta or self._rows:
            raise StoreError("the store holds a table already: restore it to continue")
        self.meta = dict(meta)

    def write_meta(self, meta: dict[str, str]) -> None:
        self.meta = merged_meta(self.meta, meta, "memory store")

    def read_meta(self) -> dict[str, str]:
        return dict(self.meta)

    def append(self, events: Sequence[Event]) -> None:
        text = _row_text(events, self._next, "memory store")
        chain = chain_hash(self._rows[-1].chain if self._rows else "", text)
        self._rows.append(built(Row, text=text, chain=chain))
        self._firsts.append(self._next)
        self._next = events[-1].seq + 1

    def rows(self, since: int = 0) -> list[Row]:
        return _first_rows(self._rows, self._firsts, since)

    def close(self) -> None:
        pass


_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY, round INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER,
    body TEXT NOT NULL, chain TEXT NOT NULL
);
"""
_COLUMNS = {"meta": ["key", "value"], "events": ["seq", "round", "kind", "seat", "body", "chain"]}

Mode = Literal["write", "new", "continue", "read"]


class SqliteStore:
    """A table's record in one SQLite file (WAL while written, one transaction a command: a row
    whose `seq`, `round`, `kind` and `seat` are its first event's, the command's).

    `mode`: "write" opens a record to continue, or makes a new file; "new" refuses a file that
    exists; "continue" refuses one that is not a record already; "read" opens read-only (SQLite's
    mode=ro): no lock, no schema, nothing written. A writer holds an exclusive `flock` on the
    file until `close`, so a second writer (another process, or another store in this one) is
    refused; readers may read a store being written. A writer that only reads leaves the file
    byte for byte as it was: WAL mode starts with the first write and ends at `close`.
    """

    def __init__(self, path: str | Path, mode: Mode = "write") -> None:
        self.path, self.mode = Path(path), mode
        self._lock: int | None = None
        self._wal = False
        if mode != "read":
            self._lock = _take_lock(self.path, mode)
        try:
            self._db = self._connect()
            last = self._db.execute("SELECT body, chain FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        except (sqlite3.Error, StoreError) as err:
            self._release()
            if isinstance(err, StoreError):
                raise
            raise StoreError(f"{self.path}: not a table record: {err}") from None
        self._last = last[1] if last else ""
        self._last_text = last[0] if last else None  # read for the next seq when a writer appends
        self._next: int | None = None if last else 0

    def _connect(self) -> sqlite3.Connection:
        if self.mode == "read":
            if not self.path.is_file():
                raise StoreError(f"{self.path}: no such record")
            db = sqlite3.connect(f"file:{quote(str(self.path.resolve()))}?mode=ro", uri=True, isolation_level=None)
            _check_schema(db, self.path)
            return db
        db = sqlite3.connect(self.path, isolation_level=None)
        if not _tables(db) and self.mode != "continue":
            if self.path.stat().st_size:
                raise StoreError(f"{self.path}: not a table record (a database with other tables)")
            db.executescript(_SCHEMA)
        _check_schema(db, self.path)
        return db

    def _writing(self) -> None:
        """WAL and synchronous writes from the first write on: a writer that only reads (a
        resume refused) leaves the file byte for byte as it was."""
        if self.mode == "read":
            raise StoreError(f"{self.path} is open read-only")
        if not self._wal:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._wal = True

    def begin(self, meta: dict[str, str]) -> None:
        held = self.read_meta()
        if held or self._last:
            what = held.get("variant", "").partition("\n")[0] or "events"
            raise StoreError(f"{self.path} holds a table already ({what}): restore it to continue it")
        self.write_meta(meta)

    def write_meta(self, meta: dict[str, str]) -> None:
        merged = merged_meta(self.read_meta(), meta, str(self.path))
        self._writing()
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)", merged.items())

    def read_meta(self) -> dict[str, str]:
        try:
            found = self._db.execute("SELECT key, value FROM meta").fetchall()
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot read the meta data: {err}") from None
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in found):
            raise StoreError(f"{self.path}: malformed meta data (a key or value that is not text)")
        return dict(found)

    def append(self, events: Sequence[Event]) -> None:
        if self._next is None:  # the last row's last event, read once: the row may hold one or many
            self._next = Row(str(self._last_text), self._last).events[-1].seq + 1
        text = _row_text(events, self._next, str(self.path))
        chain, first = chain_hash(self._last, text), events[0]
        try:
            self._writing()
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(
                    "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                    (first.seq, first.round, first.kind, first.seat, text, chain),
                )
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: event {first.seq} not written: {err}") from None
        self._last, self._next = chain, events[-1].seq + 1

    def rows(self, since: int = 0) -> list[Row]:
        query = "SELECT body, chain FROM events WHERE seq >= (SELECT COALESCE(MAX(seq), 0) FROM events WHERE seq <= ?)"
        try:
            found = self._db.execute(query + " ORDER BY seq", (since,)).fetchall()
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot read the events: {err}") from None
        if not all(isinstance(t, str) and isinstance(c, str) for t, c in found):
            raise StoreError(f"{self.path}: a malformed row (a body or hash that is not text)")
        return [Row(text, chain) for text, chain in found]

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __del__(self) -> None:  # a store dropped unclosed still lets the next writer in
        if getattr(self, "_lock", None) is not None:
            self.close()

    def close(self) -> None:
        """Closes the store; a writer leaves the file in rollback mode (no -wal or -shm files), so
        that a read-only reader later creates none."""
        if self._lock is not None and self._wal:  # a writer that wrote, not closed yet
            with contextlib.suppress(sqlite3.Error):  # a reader holds it: it stays in WAL, as good
                self._db.execute("PRAGMA journal_mode=DELETE")
        self._db.close()
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            _HELD.discard(_identity(os.fstat(self._lock)))
            os.close(self._lock)  # closing the descriptor releases the flock
            self._lock = None


_HELD: set[tuple[int, int]] = set()
"""(device, inode) of the files this process writes: a second writer here is refused before it
opens the file, since closing any descriptor of a file drops the process's fcntl locks on it,
SQLite's included."""


def _take_lock(path: Path, mode: Mode) -> int:
    """An exclusive flock on the database file itself (SQLite locks with fcntl, which flock does
    not touch); "new" creates the file atomically, so two runs cannot both start one."""
    create = {"new": os.O_CREAT | os.O_EXCL, "write": os.O_CREAT}.get(mode, 0)
    try:
        if path.exists() and _identity(os.stat(path)) in _HELD:
            raise StoreError(f"{path}: {IN_USE} (a store this process opened holds it)")
        fd = os.open(path, os.O_RDWR | create, 0o644)
    except FileExistsError:
        raise StoreError(f"{path} exists: continue it (--resume), or choose a new file") from None
    except FileNotFoundError:
        raise StoreError(f"{path}: no such record") from None
    except OSError as err:
        raise StoreError(f"{path}: cannot open: {err.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise StoreError(f"{path}: {IN_USE} (another process holds it)") from None
    _HELD.add(_identity(os.fstat(fd)))
    return fd


def _identity(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_dev, stat.st_ino


def _tables(db: sqlite3.Connection) -> dict[str, list[str]]:
    names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {n: [c for (c,) in db.execute("SELECT name FROM pragma_table_info(?)", (n,))] for n in names}


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    found = _tables(db)
    for table, columns in _COLUMNS.items():
        if found.get(table) != columns:
            raise StoreError(f"{path}: not a table record (no {table} table as a table writes it)")
