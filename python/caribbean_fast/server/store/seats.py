"""Who sits where, as the database keeps it for the relays and the welcome (the engine's seats are
the truth; these rows follow each commit): one named query each."""

from __future__ import annotations

from .schema import Tx

__all__ = ["held_tables", "seat_rows", "set_seat_rows", "sit", "stand"]


def sit(tx: Tx, table: str, seat: int, account: str) -> None:
    tx.execute("INSERT INTO seats VALUES (?, ?, ?)", (table, seat, account))


def stand(tx: Tx, table: str, seat: int) -> None:
    tx.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table, seat))


def seat_rows(tx: Tx, table: str) -> list[tuple[int, str]]:
    """(seat, account) of every row of the table."""
    return [(int(s), str(a)) for s, a in tx.all("SELECT seat, account FROM seats WHERE table_id = ?", (table,))]


def set_seat_rows(tx: Tx, table: str, held: list[tuple[int, str]]) -> None:
    """The table's rows, all of them, as these (seat, account)."""
    tx.execute("DELETE FROM seats WHERE table_id = ?", (table,))
    if held:
        tx.many("INSERT INTO seats VALUES (?, ?, ?)", [(table, k, a) for k, a in held])


def held_tables(tx: Tx) -> list[str]:
    """Every table where a seat is held (the server takes over the own tables among them)."""
    return [str(t) for (t,) in tx.all("SELECT DISTINCT table_id FROM seats")]
