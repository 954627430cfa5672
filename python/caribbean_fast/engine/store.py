"""Event stores: where a table writes every event as it happens, and reads them back to restore.

`EventStore` is the small interface; `MemoryStore` keeps a list, `SqliteStore` (the embedded
default) keeps a SQLite file in WAL mode with one transaction per event, each row chained to the
one before by a hash so that the audit notices any row changed, removed or reordered.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..errors import CaribbeanFastError
from .events import Event, chain_hash, event_from_json, event_to_json

__all__ = ["EventStore", "MemoryStore", "Row", "SqliteStore", "StoreError"]


class StoreError(CaribbeanFastError):
    """A store that cannot be opened or read as a table's record."""


@dataclass(frozen=True)
class Row:
    """One stored event: its text as written and its chain hash."""

    text: str
    chain: str

    @property
    def event(self) -> Event:
        return event_from_json(self.text)


class EventStore(Protocol):
    def write_meta(self, meta: dict[str, str]) -> None:
        """Sets these keys of the table's meta data (others stay)."""
        ...

    def read_meta(self) -> dict[str, str]: ...
    def append(self, event: Event) -> None: ...
    def rows(self) -> list[Row]: ...
    def close(self) -> None: ...


class MemoryStore:
    def __init__(self) -> None:
        self.meta: dict[str, str] = {}
        self._rows: list[Row] = []

    def write_meta(self, meta: dict[str, str]) -> None:
        self.meta |= meta

    def read_meta(self) -> dict[str, str]:
        return dict(self.meta)

    def append(self, event: Event) -> None:
        text = event_to_json(event)
        self._rows.append(Row(text, chain_hash(self._rows[-1].chain if self._rows else "", text)))

    def rows(self) -> list[Row]:
        return list(self._rows)

    def close(self) -> None:
        pass


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY, round INTEGER NOT NULL, kind TEXT NOT NULL, seat INTEGER,
    body TEXT NOT NULL, chain TEXT NOT NULL
);
"""


class SqliteStore:
    """A table's record in one SQLite file (WAL, synchronous writes, one transaction per event)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            last = self._db.execute("SELECT chain FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path}: not a table record: {err}") from None
        self._last = last[0] if last else ""

    def write_meta(self, meta: dict[str, str]) -> None:
        with self._db:
            self._db.execute("BEGIN")
            self._db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta.items())

    def read_meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta").fetchall())

    def append(self, event: Event) -> None:
        text = event_to_json(event)
        chain = chain_hash(self._last, text)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (event.seq, event.round, event.kind, event.seat, text, chain),
            )
        self._last = chain

    def rows(self) -> list[Row]:
        try:
            found = self._db.execute("SELECT body, chain FROM events ORDER BY seq").fetchall()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"{self.path}: cannot read the events: {err}") from None
        return [Row(text, chain) for text, chain in found]

    def close(self) -> None:
        self._db.close()
