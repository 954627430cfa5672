"""Which process serves each table (`leases`: the one table every process writes its own rows
of) and which processes are live (`processes`), in the database: one named query each."""

from __future__ import annotations

from .schema import Tx

__all__ = [
    "announce",
    "endpoints",
    "forget",
    "forget_processes",
    "holder",
    "processes",
    "register_process",
]


def announce(tx: Tx, table: str, endpoint: str) -> None:
    """Where the table is served now, for the other processes' lobbies and the proxy's map."""
    tx.execute("DELETE FROM leases WHERE table_id = ?", (table,))
    tx.execute("INSERT INTO leases VALUES (?, ?)", (table, endpoint))


def holder(tx: Tx, table: str) -> str | None:
    """The process the table's lease row names (None: no row)."""
    row = tx.one("SELECT endpoint FROM leases WHERE table_id = ?", (table,))
    return None if row is None else str(row[0])


def forget(tx: Tx, table: str, endpoint: str) -> None:
    """The table's lease row, if this process's: gone."""
    tx.execute("DELETE FROM leases WHERE table_id = ? AND endpoint = ?", (table, endpoint))


def endpoints(tx: Tx) -> dict[str, str]:
    """Every table's serving process, as each announced it."""
    return {str(t): str(e) for t, e in tx.all("SELECT table_id, endpoint FROM leases")}


def register_process(tx: Tx, endpoint: str) -> None:
    tx.execute("INSERT INTO processes VALUES (?) ON CONFLICT (endpoint) DO NOTHING", (endpoint,))


def processes(tx: Tx) -> list[str]:
    return [str(e) for (e,) in tx.all("SELECT endpoint FROM processes")]


def forget_processes(tx: Tx, dead: list[str]) -> None:
    tx.many("DELETE FROM processes WHERE endpoint = ?", [(e,) for e in dead])
