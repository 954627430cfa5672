"""Player accounts across tables: game 1's personal bet limit holds for every game on the account
and changes at most once a week, so it lives in an account book that every table of the player
reads, rather than in one table.

A table reads the book when a command needs the limit and records the value it read among the
command's arguments, so a replay of the table never needs the book."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Protocol

from ..errors import StoreError
from .limits import check_limit_change

__all__ = ["AccountBook", "MemoryAccountBook", "Pool", "SqliteAccountBook"]


class AccountBook(Protocol):
    def limit(self, account: str) -> tuple[int | None, datetime | None]:
        """The account's personal limit (None: none) and when it last changed."""
        ...

    def set_limit(self, account: str, amount: int | None, at: datetime) -> None:
        """Changes the limit; IllegalActionError within a week of the last change."""
        ...


class Pool(Protocol):
    """A progressive pool that several tables share (the server's, in its database)."""

    def meter(self) -> int | None:
        """The pool's amount now, which a showdown's prizes of the meter's share are fixed
        from (None: not known here; the table's own meter stands)."""
        ...


class MemoryAccountBook:
    def __init__(self) -> None:
        self._limits: dict[str, tuple[int | None, datetime | None]] = {}

    def limit(self, account: str) -> tuple[int | None, datetime | None]:
        return self._limits.get(account, (None, None))

    def set_limit(self, account: str, amount: int | None, at: datetime) -> None:
        check_limit_change(*self.limit(account), amount, at)
        self._limits[account] = (amount, at)


class SqliteAccountBook:
    """The account book in a SQLite file that the tables of one casino share. Like a table's
    store, it makes its table only in a new or empty file: a file that is another database, or
    no database, is refused (StoreError) and left as it was."""

    def __init__(self, path: str | Path) -> None:
        path = Path(path)
        try:
            self._db = sqlite3.connect(path, isolation_level=None)
            names = {n for (n,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if names != {"limits"}:
                if names or (path.exists() and path.stat().st_size):
                    raise StoreError(f"{path}: not an account book (a database with other tables)")
                self._db.execute("CREATE TABLE limits (account TEXT PRIMARY KEY, amount INTEGER, changed TEXT)")
            self._db.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as err:
            raise StoreError(f"{path}: not an account book: {err}") from None

    def limit(self, account: str) -> tuple[int | None, datetime | None]:
        row = self._db.execute("SELECT amount, changed FROM limits WHERE account = ?", (account,)).fetchone()
        if row is None:
            return None, None
        try:
            amount, changed = row[0], datetime.fromisoformat(row[1])
        except (TypeError, ValueError):
            raise StoreError(f"account {account!r}: a malformed limit in the book: {row!r}") from None
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise StoreError(f"account {account!r}: a malformed limit in the book: {row!r}")
        return amount, changed

    def set_limit(self, account: str, amount: int | None, at: datetime) -> None:
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")  # the week's check and the change in one transaction
            check_limit_change(*self.limit(account), amount, at)
            self._db.execute("INSERT OR REPLACE INTO limits VALUES (?, ?, ?)", (account, amount, at.isoformat()))
