"""Progressive pools: one per game, currency and prize schedule, shared by every table of it and
every process, in the database (DESIGN.md's one stated exception to "tables share no state").

A pool's meter is its row in `pools` plus its shards (`pool_shards`, one per serving process):

- each commit of a table adds what its events moved into or out of the table's meter (a
  progressive stake's contribution, a prize of the meter's share, the house's top-up to the
  reset) to the shard of the process that serves the table, in that commit (`Summary.rows`
  writes it with the record's rows). Contributions, the commits of nearly every round, thus
  never wait on another process's commit: each process updates its own row.
- a showdown reads the pool (`meter_now`), in its commit's transaction, after its batch took the
  pool's own row (`take`: `UPDATE pools SET meter = meter`, a row lock on PostgreSQL; SQLite's one
  writer holds the file from its `BEGIN IMMEDIATE`). The table's meter is brought to that amount
  (the engine's `pool` event) and the prizes are fixed from it: the commit that records the round
  fixes the prize, with the meter as it stands there. Two showdowns at once on different tables,
  in different processes, take the row in turn: the second reads the meter the first's commit left
  (after its prize and its top-up to the reset), so a royal flush at each pays the first the whole
  meter and the second the meter as the first left it (docs/development.md). Within one round of
  one table, the engine's rule stands: two royals share the meter equally.
- a batch of commits takes the rows of every pool its jobs may read first, before any job runs,
  in one order for every process (`take`: sorted keys): two processes' batches that read two
  pools never hold one each while waiting for the other's (a deadlock, which PostgreSQL breaks by
  aborting one transaction; were it still to happen there, that batch begins again, once, as no
  job has run yet: `Database._begin`). A table never stops for it.
- the books: a pool's meter equals its reset (the seed it was opened with) plus everything the
  tables' records moved into and out of their meters while they played for it, but for their
  openings' seeds and the `pool` events themselves (`reconcile`).
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from ...engine.events import Event
from ...variants import Variant
from .record import events_in
from .schema import Tx

__all__ = [
    "ADD",
    "POINT",
    "history",
    "meter_now",
    "meters",
    "moved",
    "open_pool",
    "pool_key",
    "pooled",
    "reconcile",
    "summed",
    "take",
]

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
    return sum(moved(e.transfers) for e in events if e.transfers and e.kind not in _UNPOOLED)


def summed(adds: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """`ADD`'s rows of a batch's commits, one a shard: each shard's amounts summed, in the order
    the shards first came (its row is updated once a batch, not once a commit: the batch commits
    all or, where its merged rows fail, each commit alone with its own rows)."""
    total: dict[tuple[Any, Any], int] = {}
    for amount, key, shard in adds:
        total[(key, shard)] = total.get((key, shard), 0) + int(amount)
    return [(amount, key, shard) for (key, shard), amount in total.items()]


def open_pool(tx: Tx, key: str, reset: int, shard: str) -> None:
    """The pool, seeded with its reset, and this process's shard of it, made if missing. Read
    first: a plain read never waits on another transaction's hold of an existing pool's row, where
    an insert meeting it would (and, inside a batch that took another pool first, could close a
    cycle with a batch of another process: `take`)."""
    if tx.one("SELECT 1 FROM pools WHERE pool = ?", (key,)) is None:
        tx.execute("INSERT INTO pools VALUES (?, ?) ON CONFLICT (pool) DO NOTHING", (key, reset))
    tx.execute("INSERT INTO pool_shards VALUES (?, ?, 0) ON CONFLICT (pool, shard) DO NOTHING", (key, shard))


def take(tx: Tx, keys: Sequence[str]) -> None:
    """Takes the pools' rows until the commit, one after the other in sorted order (the one order
    of every process's batches), so that no two transactions wait on each other's in a cycle."""
    for key in sorted(set(keys)):
        tx.execute("UPDATE pools SET meter = meter WHERE pool = ?", (key,))


def meter_now(tx: Tx, key: str) -> int:
    """The pool's meter as this transaction finds it, its row held until the commit by the batch
    that took it before any job (`take`): a job that reads a pool declares it
    (`Database.run(job, pool_keys)`), so the row is taken once a batch, not again here."""
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
    resets = {str(k): int(r) for k, r in tx.all("SELECT pool, meter FROM pools")}
    into: dict[str, int] = dict.fromkeys(resets, 0)
    for table_id, points in _points_by_table(tx).items():
        seqs = [seq for seq, _ in points]
        sql = "SELECT seq, body FROM table_log WHERE table_id = ? AND seq >= ?"
        for seq, body in tx.all(sql, (table_id, seqs[0])):
            key = points[bisect_right(seqs, int(seq)) - 1][1]
            into[key] = into.get(key, 0) + _pooled_json(events_in(body))
    return {key: (meter, resets[key] + into.get(key, 0)) for key, meter in meters(tx).items()}


def _points_by_table(tx: Tx) -> dict[str, list[tuple[int, str]]]:
    """Each table's commits that moved a pool, (seq, pool) in order. A row of its record counts in
    the pool of the latest of them at or before it: a table that changed its prize schedule moves
    the new pool from its first commit there on, and the old one no more; before its first, a
    table moved none (its record was written before pools)."""
    found: dict[str, list[tuple[int, str]]] = {}
    for key, table_id, seq in tx.all("SELECT pool, table_id, seq FROM pool_points ORDER BY table_id, seq"):
        found.setdefault(str(table_id), []).append((int(seq), str(key)))
    return found


def _pooled_json(events: Sequence[dict[str, Any]]) -> int:
    """`pooled` of events as the record keeps them (JSON objects)."""
    return sum(moved([tuple(t) for t in e.get("transfers", [])]) for e in events if e["kind"] not in _UNPOOLED)
