"""Progressive pools: one per game, currency and prize schedule, shared by every table of it and
every process, in the database (DESIGN.md's one stated exception to "tables share no state").

A pool's meter is its row in `pools` plus its shards (`pool_shards`, one per serving process):

- each commit of a table adds what its events moved into or out of the table's meter (a
  progressive stake's contribution, a prize of the meter's share, the house's top-up to the
  reset) to the shard of the process that serves the table, in that commit (`Summary.rows`
  writes it with the record's rows). Contributions, the commits of nearly every round, thus
  never wait on another process's commit: each process updates its own row.
- a showdown reads the pool (`meter_now`), in its commit's transaction, after taking the pool's
  own row (`UPDATE pools SET meter = meter`, a row lock on PostgreSQL; SQLite's one writer holds
  the file). The table's meter is brought to that amount (the engine's `pool` event) and the
  prizes are fixed from it: the commit that records the round fixes the prize, with the meter
  as it stands there. Two showdowns at once on different tables, in different processes, take
  the row in turn: the second reads the meter the first's commit left (after its prize and its
  top-up to the reset), so a royal flush at each pays the first the whole meter and the
  second the meter as the first left it (docs/development.md). Within one round of one table,
  the engine's rule stands: two royals share the meter equally.
- the books: a pool's meter equals its reset (the seed it was opened with) plus everything the
  tables' records moved into and out of their meters since, but for their openings' seeds and
  the `pool` events themselves (`reconcile`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from ...engine.events import Event
from ...variants import Variant
from .record import events_in
from .schema import Tx

__all__ = ["ADD", "POINT", "history", "meter_now", "meters", "moved", "open_pool", "pool_key", "pooled", "reconcile"]

ADD = "UPDATE pool_shards SET amount = amount + ? WHERE pool = ? AND shard = ?"
"""A commit's move of the pool, on the serving process's shard: (amount, pool, shard)."""
POINT = "INSERT INTO pool_points VALUES (?, ?, ?, ?, ?, ?, ?)"
"""A commit that moved the pool: (pool, table_id, seq, round, time, amount, its prizes of the
meter's share as JSON [[hand, prize, from_meter]] or None)."""
_UNPOOLED = frozenset({"table_opened", "pool", "variant_changed"})  # a table's own seeds, the meter brought to the pool


def pool_key(variant: Variant) -> str | None:
    """The pool of a variant's tables: its game, currency and prize schedule (None: no progressive)."""
    p = variant.progressive
    if p is None:
        return None
    schedule = hashlib.sha256(repr(p).encode()).hexdigest()[:12]
    return f"{variant.name}:{variant.currency.code}:{schedule}"


def moved(transfers: Sequence[tuple[str, str, int]]) -> int:
    return sum(int(n) if to == "meter" else -int(n) if source == "meter" else 0 for source, to, n in transfers)


def pooled(events: Sequence[Event]) -> int:
    """What these events moved into (or out of) the pool: their meter's moves but the unpooled."""
    return sum(moved(e.transfers) for e in events if e.kind not in _UNPOOLED)


def open_pool(tx: Tx, key: str, reset: int, shard: str) -> None:
    """The pool, seeded with its reset, and this process's shard of it, made if missing."""
    tx.execute("INSERT INTO pools VALUES (?, ?) ON CONFLICT (pool) DO NOTHING", (key, reset))
    tx.execute("INSERT INTO pool_shards VALUES (?, ?, 0) ON CONFLICT (pool, shard) DO NOTHING", (key, shard))


def meter_now(tx: Tx, key: str) -> int:
    """The pool's meter as this transaction finds it, its row taken until the commit."""
    tx.execute("UPDATE pools SET meter = meter WHERE pool = ?", (key,))
    row = tx.one(
        "SELECT p.meter + COALESCE((SELECT SUM(amount) FROM pool_shards s WHERE s.pool = p.pool), 0) "
        "FROM pools p WHERE p.pool = ?",
        (key,),
    )
    return 0 if row is None else int(row[0])


def meters(tx: Tx) -> dict[str, int]:
    """Every pool's meter, as of the last commit (the read side)."""
    sql = """SELECT p.pool, p.meter + COALESCE(SUM(s.amount), 0) FROM pools p
        LEFT JOIN pool_shards s ON s.pool = p.pool GROUP BY p.pool, p.meter"""
    return {str(k): int(m) for k, m in tx.all(sql)}


def history(tx: Tx, key: str, last: int) -> dict[str, list[dict[str, Any]]]:
    """The pool's meter after each of the latest `last` commits that moved it, oldest first:
    walked back from the meter now, in one read transaction (so one commit's state)."""
    now = meters(tx).get(key)
    if now is None:
        return {"points": [], "meter_prizes": []}
    sql = "SELECT round, time, amount, prizes FROM pool_points WHERE pool = ? ORDER BY time DESC, seq DESC LIMIT ?"
    points, paid, meter = [], [], now
    for number, time, amount, prizes in tx.all(sql, (key, last)):
        points.append({"round": int(number), "time": time, "meter": meter})
        paid += [{"time": time, "hand": h, "prize": p, "from_meter": m} for h, p, m in json.loads(prizes or "[]")]
        meter -= int(amount)
    return {"points": points[::-1], "meter_prizes": paid[::-1]}


def days(tx: Tx, first: str, last: str) -> dict[tuple[str, str], tuple[int, int, int]]:
    """Each (day, pool) from `first` to `last` (ISO dates, included): the commits that moved the
    pool, their net move, and the prizes its meter paid."""
    day = "SUBSTR(time, 1, 10)"
    where = f"{day} >= ? AND {day} <= ?"
    sql = f"SELECT {day}, pool, COUNT(*), SUM(amount) FROM pool_points WHERE {where} GROUP BY {day}, pool"
    found = {(str(d), str(p)): [int(n), int(a), 0] for d, p, n, a in tx.all(sql, (first, last))}
    sql = f"SELECT {day}, pool, prizes FROM pool_points WHERE {where} AND prizes IS NOT NULL"
    for d, p, prizes in tx.all(sql, (first, last)):
        found[(str(d), str(p))][2] += sum(int(m) for _, _, m in json.loads(prizes))
    return {k: (n, a, m) for k, (n, a, m) in found.items()}


def reconcile(tx: Tx) -> dict[str, tuple[int, int]]:
    """Each pool: (its meter, its reset plus what the records moved into it): equal when the
    books hold. Reads every record row of the pool's tables (a check, not a read for people)."""
    found: dict[str, tuple[int, int]] = {}
    resets = {str(k): int(r) for k, r in tx.all("SELECT pool, meter FROM pools")}
    # a table's moves count from its first commit that moved the pool: before, it had none
    tables = tx.all("SELECT pool, table_id, MIN(seq) FROM pool_points GROUP BY pool, table_id")
    into: dict[str, int] = dict.fromkeys(resets, 0)
    for key, table_id, first in tables:
        for (body,) in tx.all("SELECT body FROM table_log WHERE table_id = ? AND seq >= ?", (table_id, first)):
            for e in events_in(body):
                if e["kind"] not in _UNPOOLED:
                    into[str(key)] = into.get(str(key), 0) + moved([tuple(t) for t in e.get("transfers", [])])
    for key, meter in meters(tx).items():
        found[key] = (meter, resets[key] + into.get(key, 0))
    return found
