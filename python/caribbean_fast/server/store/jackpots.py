"""A progressive's summary, which each table's commit writes beside its record, and the public
history read from it (`GET /api/progressive/<table>`).

Each commit adds what its events did to the progressive (`Summary.rows`, in the rows the record
writes: `record.TableRecord.take`), so the history is read a page at a time from the summary on
the read connection (`reads`), never from the record, whatever the table's age. What it tells is
what a casino's jackpot board tells, and nothing that names a seat's hand:

- the meter after each round that moved it (the latest `POINTS`);
- each prize of the meter's share (the royal's 100%, a straight flush's 10%), its time, hand and
  amount (the latest `MOST_PRIZES`): announced as casinos announce a jackpot; the meter's drop in
  that round tells it anyway;
- the fixed prizes (a flush's 50, ...) only counted, with their amount, by hand and day over every
  table of the game, for days that have ended (the last `DAYS`): tied to a round, a time or a
  table, a fixed prize at a table of two would tell one player the other's hand, as the game's
  own views never do. Those prizes show in the winner's own history.

The summary's rows of a table are written by its owner alone (a process that holds its lease),
so no process waits on another's; a table whose record was written before the summary existed
gets its summary filled in from the record once, when it is opened (`open_summary`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from ...engine.events import Event, Transfer
from ...variants import Variant
from . import pools
from .record import TableRecord
from .schema import Tx, Writes

__all__ = [
    "DAYS",
    "MOST_PRIZES",
    "POINTS",
    "Summary",
    "fixed_prizes",
    "meter_history",
    "open_summary",
    "pool_history",
    "told_through",
]

POINTS = 500
"""The meter's latest points a history gives."""
MOST_PRIZES = 50
"""The latest prizes of the meter's share a history gives."""
DAYS = 30
"""The ended days whose fixed prizes a history counts."""
SETTLED = timedelta(minutes=5)
"""How long after a day ends its fixed prizes are told: the commits of its last rounds have landed."""

_POINT = "INSERT INTO meter_points VALUES (?, ?, ?, ?)"
_PRIZE = "INSERT INTO meter_prizes VALUES (?, ?, ?, ?, ?, ?)"
_FIXED = """INSERT INTO fixed_prizes VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game, day, table_id, hand)
    DO UPDATE SET count = fixed_prizes.count + excluded.count, amount = fixed_prizes.amount + excluded.amount"""


def _meter_moved(transfers: Sequence[Transfer]) -> int:
    return sum(int(n) if to == "meter" else -int(n) if source == "meter" else 0 for source, to, n in transfers)


@dataclass
class Summary:
    """What a table's events add to its progressive's summary; `meter` is the meter after the
    events summed so far, `shown` the meter's last point."""

    table_id: str
    variant: Variant
    meter: int = 0
    shown: int | None = None
    pool: str | None = None  # the shared pool whose shard `shard` each commit's moves go to (`pools`)
    shard: str = ""

    def rows(self, events: Sequence[Event]) -> Writes:
        """The summary's rows for `events` (the next of the table's record, in order), in the
        same statements every time, so that the batch merges them with other tables' rows."""
        points: list[tuple[Any, ...]] = []
        prizes: list[tuple[Any, ...]] = []
        fixed: dict[tuple[str, str], tuple[int, int]] = {}
        for e in events:
            if e.transfers:
                self.meter += _meter_moved(e.transfers)
            if e.kind == "settled":
                self._prize(e, prizes, fixed)
            elif e.kind == "round_closed" and self.meter != self.shown and self.pool is None:
                points.append((self.table_id, e.round, e.time.isoformat(), self.meter))
                self.shown = self.meter
        game = self.variant.name
        counted = [(game, day, self.table_id, hand, n, amount) for (day, hand), (n, amount) in fixed.items()]
        writes = [(sql, rows) for sql, rows in ((_POINT, points), (_PRIZE, prizes), (_FIXED, counted)) if rows]
        amount = pools.pooled(events) if self.pool is not None and events else 0
        if amount:
            won = json.dumps([[p[3], p[4], p[5]] for p in prizes]) if prizes else None
            first, last = events[0], events[-1]
            writes.append((pools.ADD, [(amount, self.pool, self.shard)]))
            point = (self.pool, self.table_id, first.seq, first.round, last.time.isoformat(), amount, won)
            writes.append((pools.POINT, [point]))
        return writes

    def _prize(self, e: Event, prizes: list[tuple[Any, ...]], fixed: dict[tuple[str, str], tuple[int, int]]) -> None:
        """A settled seat's progressive prize, if it won one: a prize of the meter's share with its
        time; a fixed one counted on its day (UTC) and hand, as nothing else."""
        p, net = self.variant.progressive, e.public.get("net", {})
        if p is None or int(net.get("progressive", 0)) <= 0:
            return
        prize = int(net["progressive"]) + p.stake  # the paytable's prize (the net is less the stake)
        from_meter = int(net.get("meter_paid", 0))
        first_five = e.public.get("outcome", {}).get("first_five")
        if first_five is None:  # a record written before the first five were kept
            hand, of_meter = str(e.public.get("hand", "")), from_meter > 0
        else:
            kind = self.variant.classify(int(first_five))
            paid = p.prizes.get(kind)
            hand, of_meter = kind.label, (paid.meter_share > 0 if paid is not None else from_meter > 0)
        if of_meter:
            prizes.append((self.table_id, e.seq, e.time.isoformat(), hand, prize, from_meter))
            return
        key = (e.time.astimezone(UTC).date().isoformat(), hand)
        n, amount = fixed.get(key, (0, 0))
        fixed[key] = (n + 1, amount + prize)


def open_summary(tx: Tx, record: TableRecord, meter: int, variant: Variant) -> Summary | None:
    """The summary of a table being opened, whose record `record` has just loaded (its rows not
    yet dropped) and whose meter is `meter` after its pending events; None for a game without a
    progressive. A table whose summary is not whole yet (its record was written before there was
    one) gets it from the loaded rows, here, in the opening's transaction: once, all or nothing."""
    if variant.progressive is None:
        return None
    summary = Summary(record.table_id, variant)
    if tx.one("SELECT 1 FROM summarized WHERE table_id = ?", (record.table_id,)) is None:
        for sql, rows in summary.rows([e for row in record.rows() for e in row.events]):
            tx.many(sql, rows)
        tx.execute("INSERT INTO summarized VALUES (?)", (record.table_id,))
    else:
        summary.meter = meter - sum(_meter_moved(e.transfers) for e in record.pending_events())
        summary.shown = summary.meter
    return summary


def meter_history(tx: Tx, table_id: str) -> dict[str, Any]:
    """{"points": [{"round", "time", "meter"}], "meter_prizes": [{"time", "hand", "prize",
    "from_meter"}]}, oldest first: the latest `POINTS` and `MOST_PRIZES`, by the primary keys."""
    sql = "SELECT round, time, meter FROM meter_points WHERE table_id = ? ORDER BY round DESC LIMIT ?"
    points = [{"round": int(r), "time": t, "meter": int(m)} for r, t, m in tx.all(sql, (table_id, POINTS))]
    sql = "SELECT time, hand, prize, from_meter FROM meter_prizes WHERE table_id = ? ORDER BY seq DESC LIMIT ?"
    prizes = tx.all(sql, (table_id, MOST_PRIZES))
    paid = [{"time": t, "hand": h, "prize": int(p), "from_meter": int(m)} for t, h, p, m in prizes]
    return {"points": points[::-1], "meter_prizes": paid[::-1]}


def pool_history(tx: Tx, key: str, table_id: str) -> dict[str, Any]:
    """A table of a shared pool: the pool's history (`pools.history`), after the table's own
    meter's from before it joined a pool (a record written before pools), oldest first."""
    own, pooled = meter_history(tx, table_id), pools.history(tx, key, POINTS)
    points = (own["points"] + pooled["points"])[-POINTS:]
    return {"points": points, "meter_prizes": (own["meter_prizes"] + pooled["meter_prizes"])[-MOST_PRIZES:]}


def told_through(now: datetime) -> date:
    """The last day whose fixed prizes are told at `now`: the day before the day `SETTLED` ago."""
    return (now.astimezone(UTC) - SETTLED).date() - timedelta(days=1)


def fixed_prizes(tx: Tx, game: str, through: date) -> list[dict[str, Any]]:
    """[{"day", "hand", "count", "amount"}]: the game's fixed prizes over every table, by day and
    hand, for the `DAYS` days up to `through`, oldest first (rows: at most the game's tables times
    its prizes a day)."""
    first = (through - timedelta(days=DAYS - 1)).isoformat()
    sql = """SELECT day, hand, SUM(count), SUM(amount) FROM fixed_prizes WHERE game = ? AND day >= ? AND day <= ?
        GROUP BY day, hand ORDER BY day, SUM(amount) DESC, hand"""
    rows = tx.all(sql, (game, first, through.isoformat()))
    return [{"day": d, "hand": h, "count": int(n), "amount": int(a)} for d, h, n, a in rows]
