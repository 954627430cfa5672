"""Each account's chosen interval between reality checks, in the database."""

from __future__ import annotations

from .schema import Tx

__all__ = ["read_every", "write_every"]


def read_every(tx: Tx, account: str) -> int | None:
    """The account's chosen interval (None: it chose none)."""
    row = tx.one("SELECT every FROM reminders WHERE account = ?", (account,))
    return None if row is None else int(row[0])


def write_every(tx: Tx, account: str, every: int | None) -> None:
    tx.execute("DELETE FROM reminders WHERE account = ?", (account,))
    if every is not None:
        tx.execute("INSERT INTO reminders VALUES (?, ?)", (account, every))
