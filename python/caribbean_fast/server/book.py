"""Game 1's personal limit for the server: the engine's `AccountBook`, over the database.

The engine reads the book inside a command, on the event loop, so reads come from a cache loaded
at start-up, kept by every change this process makes and read again every few seconds (`load`,
from the server's lease loop), so another process's change reaches this one within seconds; a
change is written in the same database job as the command's events (`flush`). The engine records
the value it read with every bet, so replays never need the book.
"""

from __future__ import annotations

from datetime import datetime

from ..engine.limits import check_limit_change
from .db import Tx

__all__ = ["ServerBook"]


class ServerBook:
    def __init__(self) -> None:
        self._limits: dict[str, tuple[int | None, datetime | None]] = {}
        self._pending: dict[str, tuple[int | None, datetime]] = {}

    def load(self, tx: Tx) -> None:
        for account, amount, changed in tx.all("SELECT account, amount, changed FROM limits"):
            if account not in self._pending:
                self._limits[account] = (amount, datetime.fromisoformat(changed) if changed else None)

    def limit(self, account: str) -> tuple[int | None, datetime | None]:
        return self._limits.get(account, (None, None))

    def set_limit(self, account: str, amount: int | None, at: datetime) -> None:
        check_limit_change(self.limit(account)[1], at)
        self._limits[account] = (amount, at)
        self._pending[account] = (amount, at)

    @property
    def dirty(self) -> bool:
        return bool(self._pending)

    def flush(self, tx: Tx) -> None:
        for account, (amount, at) in self._pending.items():
            tx.execute("DELETE FROM limits WHERE account = ?", (account,))
            tx.execute("INSERT INTO limits VALUES (?, ?, ?)", (account, amount, at.isoformat()))
        self._pending = {}
