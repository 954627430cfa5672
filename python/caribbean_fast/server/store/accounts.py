"""Accounts and sessions in the database: one named query each (the server's accounts, wallets
and seats are read and written only here)."""

from __future__ import annotations

from .schema import Tx

__all__ = [
    "account_exists",
    "delete_session",
    "insert_account",
    "insert_session",
    "live_sessions",
    "password_hash",
    "seats_of",
    "session_account",
    "wallet_of",
]

_CHUNK = 500  # token hashes asked at once: under every dialect's limit on parameters


def account_exists(tx: Tx, name: str) -> bool:
    return tx.one("SELECT 1 FROM accounts WHERE name = ?", (name,)) is not None


def insert_account(tx: Tx, name: str, hashed: str, guest: bool, created: str) -> None:
    tx.execute("INSERT INTO accounts VALUES (?, ?, ?, ?)", (name, hashed, int(guest), created))


def password_hash(tx: Tx, name: str) -> str | None:
    row = tx.one("SELECT hash FROM accounts WHERE name = ?", (name,))
    return None if row is None else str(row[0])


def wallet_of(tx: Tx, name: str) -> tuple[dict[str, int], bool] | None:
    """The account's wallets by currency and whether it is a guest's (None: no such account)."""
    row = tx.one("SELECT guest FROM accounts WHERE name = ?", (name,))
    if row is None:
        return None
    found = tx.all("SELECT currency, amount FROM wallets WHERE account = ? ORDER BY currency", (name,))
    return {str(c): int(a) for c, a in found}, bool(row[0])


def seats_of(tx: Tx, account: str) -> list[tuple[str, int]]:
    """The (table, seat) the account holds at every table, whichever process serves it."""
    rows = tx.all("SELECT table_id, seat FROM seats WHERE account = ? ORDER BY table_id", (account,))
    return [(str(t), int(s)) for t, s in rows]


def insert_session(tx: Tx, key: str, account: str, expires: str) -> None:
    tx.execute("INSERT INTO sessions VALUES (?, ?, ?)", (key, account, expires))


def session_account(tx: Tx, key: str, now: str) -> str | None:
    """The account a token's hash opens at `now` (None: unknown or expired)."""
    row = tx.one("SELECT account FROM sessions WHERE token_hash = ? AND expires > ?", (key, now))
    return None if row is None else str(row[0])


def delete_session(tx: Tx, key: str) -> None:
    tx.execute("DELETE FROM sessions WHERE token_hash = ?", (key,))


def live_sessions(tx: Tx, keys: list[str], now: str) -> set[str]:
    """Which of these token hashes still open a session at `now`."""
    found: set[str] = set()
    for start in range(0, len(keys), _CHUNK):
        part = keys[start : start + _CHUNK]
        sql = f"SELECT token_hash FROM sessions WHERE expires > ? AND token_hash IN ({', '.join('?' * len(part))})"
        found |= {str(k) for (k,) in tx.all(sql, (now, *part))}
    return found
