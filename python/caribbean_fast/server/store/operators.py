"""The office's accounts and sessions in the database: operators apart from the players (their own
table, never `accounts`), each with a role, an argon2id password hash and a TOTP secret, and the
office's sessions (a SHA-256 of the token, the session's CSRF token, when it began and when it was
last used, for the idle and the absolute timeouts). One named query each."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import ServerError
from .schema import Tx

__all__ = [
    "ROLES",
    "OfficeSession",
    "Operator",
    "delete_session",
    "end_sessions_of",
    "insert_operator",
    "insert_session",
    "operator",
    "reset_operator",
    "session",
    "touch_session",
    "use_step",
]

ROLES = ("operator", "auditor")
"""An operator acts (answers disputes, approves changes); an auditor only reads."""


@dataclass(frozen=True)
class Operator:
    name: str
    role: str
    hash: str
    totp: str  # base32 secret
    last_step: int  # the last TOTP time step used to log in: a code is used once


@dataclass(frozen=True)
class OfficeSession:
    operator: str
    role: str
    csrf: str
    started: str  # ISO times, UTC
    seen: str


def operator(tx: Tx, name: str) -> Operator | None:
    row = tx.one("SELECT name, role, hash, totp, last_step FROM operators WHERE name = ?", (name,))
    return None if row is None else Operator(str(row[0]), str(row[1]), str(row[2]), str(row[3]), int(row[4]))


def insert_operator(tx: Tx, name: str, role: str, hashed: str, secret: str, created: str) -> None:
    """A new operator; `name_taken` if one has the name (never overwritten: `reset_operator`)."""
    if role not in ROLES:
        raise ServerError(f"role {role!r}: one of {', '.join(ROLES)}", "bad_field")
    if operator(tx, name) is not None:
        raise ServerError(f"an operator {name!r} exists: reset it instead", "name_taken")
    tx.execute("INSERT INTO operators VALUES (?, ?, ?, ?, 0, ?)", (name, role, hashed, secret, created))


def reset_operator(tx: Tx, name: str, hashed: str, secret: str) -> None:
    """A new password and TOTP secret; the operator's sessions end."""
    if tx.execute("UPDATE operators SET hash = ?, totp = ?, last_step = 0 WHERE name = ?", (hashed, secret, name)) != 1:
        raise ServerError(f"no operator {name!r}", "bad_field")
    end_sessions_of(tx, name)


def use_step(tx: Tx, name: str, step: int) -> bool:
    """Marks the TOTP step used; False when it (or a later one) was used already: a code seen once
    by someone looking over a shoulder opens nothing."""
    sql = "UPDATE operators SET last_step = ? WHERE name = ? AND last_step < ?"
    return tx.execute(sql, (step, name, step)) == 1


def insert_session(tx: Tx, key: str, name: str, csrf: str, now: str) -> None:
    tx.execute("INSERT INTO office_sessions VALUES (?, ?, ?, ?, ?)", (key, name, csrf, now, now))


def session(tx: Tx, key: str) -> OfficeSession | None:
    """The session a token's hash opens, with its operator's role (None: unknown)."""
    sql = """SELECT s.operator, o.role, s.csrf, s.started, s.seen FROM office_sessions s
             JOIN operators o ON o.name = s.operator WHERE s.token_hash = ?"""
    row = tx.one(sql, (key,))
    return None if row is None else OfficeSession(*(str(v) for v in row))


def touch_session(tx: Tx, key: str, now: str) -> None:
    tx.execute("UPDATE office_sessions SET seen = ? WHERE token_hash = ?", (now, key))


def delete_session(tx: Tx, key: str) -> None:
    tx.execute("DELETE FROM office_sessions WHERE token_hash = ?", (key,))


def end_sessions_of(tx: Tx, name: str) -> None:
    tx.execute("DELETE FROM office_sessions WHERE operator = ?", (name,))
