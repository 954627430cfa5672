"""Game 1's personal limit for the server: the engine's `AccountBook`, over the database.

The engine reads the book inside a command, on the event loop, so reads come from a cache loaded
at start-up, kept by every change this process makes and read again every few seconds (`load`,
from the server's lease loop), so another process's change reaches this one within seconds. Each
table changes limits through a `TableBook` of its own, whose changes are written in the same
database job as that table's command's events and stay pending until that job has committed: a
change is never carried, or lost, by another table's commit; one whose commit failed (or was
cut off) is undone, the value it replaced put back. The engine records the value it read with
every bet, so replays never need the book.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime

from ...engine.limits import check_limit_change
from .db import Tx

__all__ = ["ServerBook", "TableBook"]

Limit = tuple[int | None, datetime | None]


class ServerBook:
    """Every account's limit as this process knows it, shared by its tables."""

    def __init__(self) -> None:
        self._limits: dict[str, Limit] = {}
        self.pending: Counter[str] = Counter()  # accounts with a change some table has not committed
        self.version = 0  # moves whenever a limit may have: a view made before shows an old one

    def load(self, tx: Tx) -> None:
        """Reads the limits that no table here is changing."""
        for account, amount, changed in tx.all("SELECT account, amount, changed FROM limits"):
            limit = (amount, datetime.fromisoformat(changed) if changed else None)
            if not self.pending[account] and self._limits.get(account) != limit:
                self._limits[account] = limit
                self.version += 1

    def limit(self, account: str) -> Limit:
        return self._limits.get(account, (None, None))

    def change(self, account: str, limit: Limit) -> Limit:
        """Sets the account's limit here (not yet durable); the one it replaced."""
        before = self.limit(account)
        self._limits[account] = limit
        self.pending[account] += 1
        self.version += 1
        return before

    def settled(self, account: str) -> None:
        """A change is durable: no longer pending."""
        self.pending[account] -= 1
        if not self.pending[account]:
            del self.pending[account]

    def dropped(self, account: str, limit: Limit, before: Limit) -> None:
        """A change was not made durable: no longer pending, and the value it replaced is back
        (unless a later change replaced it)."""
        self.settled(account)
        if self._limits.get(account) == limit:
            self._limits[account] = before
            self.version += 1


class TableBook:
    """One table's view of the shared book: reads through it, changes pending here until the
    table's commit (`flush`, then `settle`, or `discard` when the commit failed)."""

    def __init__(self, shared: ServerBook) -> None:
        self.shared = shared
        self._pending: dict[str, tuple[Limit, Limit]] = {}  # account -> (the change, what it replaced)

    def limit(self, account: str) -> Limit:
        return self.shared.limit(account)

    def set_limit(self, account: str, amount: int | None, at: datetime) -> None:
        check_limit_change(*self.limit(account), amount, at)
        if account in self._pending:  # a second change before the commit: one pending change
            before = self._pending.pop(account)[1]
            self.shared.settled(account)
        else:
            before = self.limit(account)
        self.shared.change(account, (amount, at))
        self._pending[account] = ((amount, at), before)

    @property
    def dirty(self) -> bool:
        return bool(self._pending)

    def flush(self, tx: Tx) -> None:
        """Writes this table's changes (kept pending until `settle`)."""
        for account, ((amount, at), _) in self._pending.items():
            assert at is not None
            tx.execute("DELETE FROM limits WHERE account = ?", (account,))
            tx.execute("INSERT INTO limits VALUES (?, ?, ?)", (account, amount, at.isoformat()))

    def settle(self) -> None:
        """The commit holding the changes is durable."""
        for account in self._pending:
            self.shared.settled(account)
        self._pending = {}

    def discard(self) -> None:
        """The commit failed or was cut off: the changes are undone."""
        for account, (change, before) in self._pending.items():
            self.shared.dropped(account, change, before)
        self._pending = {}
