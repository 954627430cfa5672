"""Game 1's personal limit for the server: the engine's `AccountBook`, over the database.

The engine reads the book inside a command, on the event loop, so reads come from a cache loaded
at start-up, kept by every change this process makes and read again every few seconds (`load`,
from the server's lease loop), so another process's change reaches this one within seconds. Each
table changes limits through a `TableBook` of its own, whose changes are written in the same
database job as that table's command's events and stay pending until that job has committed: a
change is never carried, or lost, by another table's commit; one whose commit failed is read
again from the database when its table is restored. The engine records the value it read with
every bet, so replays never need the book.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from ..engine.limits import check_limit_change
from .db import Tx

__all__ = ["ServerBook", "TableBook"]

Limit = tuple[int | None, datetime | None]


class ServerBook:
    """Every account's limit as this process knows it, shared by its tables."""

    def __init__(self) -> None:
        self._limits: dict[str, Limit] = {}
        self.pending: Counter[str] = Counter()  # accounts with a change some table has not committed

    def load(self, tx: Tx, accounts: Iterable[str] | None = None) -> None:
        """Reads the limits (those of `accounts` only, if given) that no table here is changing."""
        rows = tx.all("SELECT account, amount, changed FROM limits")
        wanted = None if accounts is None else set(accounts)
        for account in wanted or ():
            self._limits.pop(account, None)  # no row: no limit
        for account, amount, changed in rows:
            if (wanted is None or account in wanted) and not self.pending[account]:
                self._limits[account] = (amount, datetime.fromisoformat(changed) if changed else None)

    def limit(self, account: str) -> Limit:
        return self._limits.get(account, (None, None))


class TableBook:
    """One table's view of the shared book: reads through it, changes pending here until the
    table's commit (`flush`, then `settle`, or `discard` when the commit failed)."""

    def __init__(self, shared: ServerBook) -> None:
        self.shared = shared
        self._pending: dict[str, tuple[int | None, datetime]] = {}

    def limit(self, account: str) -> Limit:
        return self.shared.limit(account)

    def set_limit(self, account: str, amount: int | None, at: datetime) -> None:
        check_limit_change(self.limit(account)[1], at)
        self.shared._limits[account] = (amount, at)
        if account not in self._pending:
            self.shared.pending[account] += 1
        self._pending[account] = (amount, at)

    @property
    def dirty(self) -> bool:
        return bool(self._pending)

    def flush(self, tx: Tx) -> None:
        """Writes this table's changes (kept pending until `settle`)."""
        for account, (amount, at) in self._pending.items():
            tx.execute("DELETE FROM limits WHERE account = ?", (account,))
            tx.execute("INSERT INTO limits VALUES (?, ?, ?)", (account, amount, at.isoformat()))

    def settle(self) -> None:
        """The commit holding the changes is durable."""
        for account in self._pending:
            self.shared.pending[account] -= 1
            if not self.shared.pending[account]:
                del self.shared.pending[account]
        self._pending = {}

    def discard(self) -> list[str]:
        """The commit failed: the changes are dropped; the accounts to read again."""
        accounts = list(self._pending)
        self.settle()
        return accounts
