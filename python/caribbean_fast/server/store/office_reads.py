"""What the office reads, run on the read side (`reads.Reads`), never on the commits' connection:
a round's rows by its place (the record's index on table, round, seq), the rounds an account was
dealt into (its holds, then the rows' `dealt` bits, as game recall finds them), a table's rounds
near a time (a binary search over round numbers, a round's opening read by the index at each
step), and an account's wallets, limit and seats. Nothing here scans a record but
`rows_through`, which a dispute's replay needs and which the office runs on demand."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...engine.events import Event, event_from_dict
from ...engine.store import Row
from .record import events_in, unpack
from .schema import Tx

__all__ = [
    "account_rounds",
    "find_accounts",
    "last_round",
    "meta",
    "player",
    "round_at",
    "round_events",
    "round_rows",
    "rows_through",
    "seats_in",
    "table_rounds",
]


def round_rows(tx: Tx, table: str, number: int) -> list[tuple[int, str, str]]:
    """The rows at the round's place, in order: (seq, chain, text)."""
    sql = "SELECT seq, chain, body FROM table_log WHERE table_id = ? AND round = ? ORDER BY seq"
    return [(int(s), str(c), unpack(b)) for s, c, b in tx.all(sql, (table, number))]


def chain_before(tx: Tx, table: str, seq: int) -> str:
    """The chain hash of the row before the one starting at `seq` ("" for the first)."""
    sql = "SELECT chain FROM table_log WHERE table_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1"
    row = tx.one(sql, (table, seq))
    return "" if row is None else str(row[0])


def round_events(tx: Tx, table: str, number: int) -> list[Event]:
    """The round's events from its opening to its close (those after its close are the next
    round's place)."""
    found = [event_from_dict(e) for _, _, text in round_rows(tx, table, number) for e in events_in(text)]
    return [e for e in found if e.round == number]


def rows_through(tx: Tx, table: str, number: int) -> list[Row]:
    """The table's rows from its first through the round's place: what its replay reads."""
    sql = "SELECT body, chain FROM table_log WHERE table_id = ? AND round <= ? ORDER BY seq"
    return [Row(unpack(b), str(c)) for b, c in tx.all(sql, (table, number))]


def meta(tx: Tx, table: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in tx.all("SELECT key, value FROM table_meta WHERE table_id = ?", (table,))}


def last_round(tx: Tx, table: str) -> int | None:
    row = tx.one("SELECT MAX(round) FROM table_log WHERE table_id = ?", (table,))
    return None if row is None or row[0] is None else int(row[0])


def table_rounds(tx: Tx, table: str, before: int | None, last: int) -> list[int]:
    """The table's latest round numbers (below `before`), latest first."""
    sql = "SELECT DISTINCT round FROM table_log WHERE table_id = ?" + ("" if before is None else " AND round < ?")
    params: tuple[Any, ...] = (table,) if before is None else (table, before)
    return [int(r) for (r,) in tx.all(sql + " ORDER BY round DESC LIMIT ?", (*params, last))]


def _opened_at(tx: Tx, table: str, number: int) -> datetime | None:
    events = round_events(tx, table, number)
    return next((e.time for e in events if e.kind == "round_opened"), None)


def round_at(tx: Tx, table: str, when: datetime) -> int | None:
    """The round in play at `when`: the last one opened at or before it (None: none had opened).
    Rounds open in the order of their numbers, so a binary search reads about log2(rounds) of
    them by the index."""
    top = last_round(tx, table)
    if top is None:
        return None
    low, high, found = 1, top, None
    while low <= high:
        mid = (low + high) // 2
        opened = _opened_at(tx, table, mid)
        if opened is not None and opened <= when:
            found, low = mid, mid + 1
        else:  # opened after it, or not yet (the record's last place)
            high = mid - 1
    return found


def account_rounds(tx: Tx, account: str, last: int) -> list[tuple[str, int, int]]:
    """The latest rounds the account was dealt into, at any table: (table, round, seat), latest
    first; from its holds and the rows' `dealt` bits."""
    holds = tx.all("SELECT table_id, seat, first_round, end_round FROM holds WHERE account = ?", (account,))
    found: list[tuple[str, int, int]] = []
    for table, seat, first, end in holds:
        sql = "SELECT DISTINCT round FROM table_log WHERE table_id = ? AND dealt & ? <> 0 AND round >= ?"
        params: tuple[Any, ...] = (table, 1 << int(seat), int(first))
        if end is not None:
            sql, params = sql + " AND round < ?", (*params, int(end))
        rows = tx.all(sql + " ORDER BY round DESC LIMIT ?", (*params, last))
        found += [(str(table), int(r), int(seat)) for (r,) in rows]
    return sorted(found, key=lambda f: (f[1], f[0]), reverse=True)[:last]


def seats_in(tx: Tx, table: str, number: int) -> dict[int, str]:
    """Who held each seat in the round (its holds)."""
    sql = """SELECT seat, account FROM holds WHERE table_id = ? AND first_round <= ?
             AND (end_round IS NULL OR end_round > ?)"""
    return {int(s): str(a) for s, a in tx.all(sql, (table, number, number))}


def find_accounts(tx: Tx, text: str, last: int) -> list[dict[str, Any]]:
    """Accounts whose name starts with `text` (guests too), by name."""
    pattern = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    sql = "SELECT name, guest, created FROM accounts WHERE name LIKE ? ESCAPE '\\' ORDER BY name LIMIT ?"
    return [{"name": n, "guest": bool(g), "created": c} for n, g, c in tx.all(sql, (pattern, last))]


def player(tx: Tx, name: str) -> dict[str, Any] | None:
    """An account's wallets, personal limit, seats and when it was opened (None: no such account)."""
    row = tx.one("SELECT guest, created FROM accounts WHERE name = ?", (name,))
    if row is None:
        return None
    wallets = tx.all("SELECT currency, amount, granted FROM wallets WHERE account = ? ORDER BY currency", (name,))
    limit = tx.one("SELECT amount, changed FROM limits WHERE account = ?", (name,))
    seats = tx.all("SELECT table_id, seat FROM seats WHERE account = ? ORDER BY table_id", (name,))
    return {
        "name": name,
        "guest": bool(row[0]),
        "created": row[1],
        "wallets": [{"currency": c, "amount": int(a), "granted": int(g)} for c, a, g in wallets],
        "limit": None if limit is None else {"amount": limit[0], "changed": limit[1]},
        "seats": [{"table": t, "seat": int(s)} for t, s in seats],
    }
