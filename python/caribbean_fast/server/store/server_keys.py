"""The server's own secret keys, each made once in the database and kept there, so that every
process sharing the database, and every restart, uses the same one: the key of the own tables'
ids (an HMAC of the account under it, `tables/own`). A key never leaves the server."""

from __future__ import annotations

import secrets

from .schema import Tx

__all__ = ["OWN_TABLES", "key"]

OWN_TABLES = "own_tables"
"""The key under which an own table's id digests its account."""
_BYTES = 32


def key(tx: Tx, name: str) -> bytes:
    """The key of that name, made now if the database has none yet (two processes making it at
    once: the second's insert does nothing, and both read the first's)."""
    made = secrets.token_hex(_BYTES)
    tx.execute("INSERT INTO server_keys VALUES (?, ?) ON CONFLICT (name) DO NOTHING", (name, made))
    row = tx.one("SELECT value FROM server_keys WHERE name = ?", (name,))
    assert row is not None  # inserted just now, or there before
    return bytes.fromhex(str(row[0]))
