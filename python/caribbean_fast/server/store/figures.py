"""The office's figures, which each table's commit keeps beside its record: counters upserted by
day, table, game and spot (the main game, each side bet, the progressive), and by account, game
and spot; read on the read side (`reads`), never from the record.

What a settled seat adds to its spot's counters (`analysis.actual.Moments`): one hand, the amount
wagered (every bet: ante, raise and exchange fees for the main game; the stake of a side bet or
of the progressive), the house's win (the seat's net, negated: a progressive's stake counts whole,
its contribution to the meter included), and the sums of its unit (ante or stake), its square,
and of them times the meter the bet found, from which the office works out the theoretical and
its band without reading a round again. A round counts once, on the main spot of its day.

A table's rows are written by its owner alone; an account's by whichever table it plays at, in
that table's commit (an upsert: a player at two tables of two processes adds to one row in turn).
A table whose record began before the figures were kept is counted from the first commit after;
`reconcile` holds a day's counters to the records (a check, which reads the records).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC
from operator import attrgetter
from typing import Any

from ...analysis.actual import MAIN, PROGRESSIVE, Moments
from ...engine.events import Event
from ...variants import Variant
from . import pools
from .record import TableRecord, events_in
from .schema import Tx, Writes

__all__ = [
    "FiguresSummary",
    "Row",
    "account_rows",
    "days",
    "open_figures",
    "points",
    "reconcile",
    "table_rows",
]

_COUNTS = ("hands", "wagered", "win", "units", "units2", "meter1", "meter2", "meter3")
_SLOTS = ", ".join("?" for _ in _COUNTS)
_LIST = ", ".join(_COUNTS)
_SUMS = ", ".join(f"SUM({c})" for c in _COUNTS)
_ADD = ", ".join(f"{c} = {{t}}.{c} + excluded.{c}" for c in _COUNTS)
_TABLE = f"""INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, {_SLOTS})
    ON CONFLICT (day, table_id, game, spot) DO UPDATE SET rounds = figures.rounds + excluded.rounds,
    {_ADD.format(t="figures")}"""
_POINT = f"INSERT INTO figure_points VALUES (?, ?, ?, ?, ?, {_SLOTS})"
STEP = 50
"""A table's running figures are kept every `STEP` rounds (its chart's points)."""
_ACCOUNT = f"""INSERT INTO account_figures VALUES (?, ?, ?, ?, ?, {_SLOTS})
    ON CONFLICT (account, game, currency, spot) DO UPDATE SET {_ADD.format(t="account_figures")},
    most = CASE WHEN excluded.most > account_figures.most THEN excluded.most ELSE account_figures.most END"""


_counts = attrgetter(*_COUNTS)


def _values(m: Moments) -> tuple[Any, ...]:
    found: tuple[Any, ...] = _counts(m)  # the columns in `_COUNTS`' order
    return found


def _spots(e: Event, meter: int) -> dict[str, tuple[int, int, int, int]]:
    """A settled event's bets by spot: (wagered, house win, unit, meter found)."""
    bets = e.public.get("bets")
    net = e.public["net"]
    found: dict[str, tuple[int, int, int, int]] = {}
    if bets is None:  # a record of an edition before each bet's result was kept: the main game only
        return found
    stakes = {b["spot"]: int(b["stake"]) for b in bets}
    fees = -int(net.get("exchange_fees", 0))
    main = stakes.get("ante", 0) + stakes.get("raise", 0) + fees
    found[MAIN] = (main, -(int(net["ante"]) + int(net["raise"]) - fees), stakes.get("ante", 0), 0)
    for name, amount in net.get("side_bets", {}).items():
        found[f"side:{name}"] = (stakes[f"side:{name}"], -int(amount), stakes[f"side:{name}"], 0)
    if PROGRESSIVE in stakes:
        stake = stakes[PROGRESSIVE]
        found[PROGRESSIVE] = (stake, -int(net[PROGRESSIVE]), stake, meter)
    return found


@dataclass
class FiguresSummary:
    """What a table's events add to the figures; `meter` is the table's meter after the events
    summed so far, `accounts` who holds each seat."""

    table_id: str
    variant: Variant
    meter: int = 0
    accounts: dict[int, str] = field(default_factory=dict)
    rounds: int = 0  # the table's rounds of this game so far, and its spots' sums (`totals`)
    totals: dict[str, Moments] = field(default_factory=lambda: defaultdict(Moments))
    pool: str = field(init=False)  # the variant's pool ("": none), worked out once: a hash of its schedule

    def __post_init__(self) -> None:
        self.pool = pools.pool_key(self.variant) or ""

    def rows(self, events: Sequence[Event]) -> Writes:
        """The counters' upserts for `events` (the record's next, in order)."""
        if all(e.kind != "settled" for e in events):  # most commands: no seat settled, nothing counted
            for e in events:
                self._follow(e)
            return []
        by_table: dict[tuple[str, str], Moments] = defaultdict(Moments)
        rounds: dict[str, int] = defaultdict(int)
        by_account: dict[tuple[str, str], Moments] = defaultdict(Moments)
        most: dict[tuple[str, str], int] = defaultdict(int)  # an account's largest unit at a spot
        counted: set[int] = set()
        points: list[tuple[Any, ...]] = []
        for e in events:
            if e.kind == "settled" and e.seat is not None:
                day = e.time.astimezone(UTC).date().isoformat()
                if e.round not in counted:
                    counted.add(e.round)
                    rounds[day] += 1
                    self.rounds += 1
                account = self.accounts.get(e.seat, f"{self.table_id}:{e.seat}")
                for spot, (wagered, win, unit, meter) in _spots(e, self.meter).items():
                    for m in (by_table[(day, spot)], by_account[(account, spot)], self.totals[spot]):
                        m.add(wagered, win, unit, meter)
                    most[(account, spot)] = max(most[(account, spot)], unit)
            elif e.kind == "round_closed" and e.round in counted and self.rounds % STEP == 0:  # settled here
                points += self._point(e)
            self._follow(e)
        if not by_table:
            return []
        v = self.variant
        game, currency, pool = v.name, v.currency.code, self.pool
        table = [
            (day, self.table_id, game, spot, currency, pool, rounds[day] if spot == MAIN else 0, *_values(m))
            for (day, spot), m in by_table.items()
        ]
        accounts = [(a, game, currency, spot, most[(a, spot)], *_values(m)) for (a, spot), m in by_account.items()]
        return [(_TABLE, table), (_ACCOUNT, accounts)] + ([(_POINT, points)] if points else [])

    def _follow(self, e: Event) -> None:
        """What any event changes here, after it is counted: who holds its seat, the meter."""
        if e.kind == "seated" and e.seat is not None:
            self.accounts[e.seat] = str(e.public["account"])
        if e.transfers:
            self.meter += pools.moved(e.transfers)

    def _point(self, e: Event) -> list[tuple[Any, ...]]:
        """The table's running sums by spot after its `rounds`-th round of this game."""
        game, time = self.variant.name, e.time.isoformat()
        return [(self.table_id, game, self.rounds, spot, time, *_values(m)) for spot, m in self.totals.items()]


def open_figures(
    tx: Tx, record: TableRecord, meter: int, variant: Variant, accounts: Mapping[int, str]
) -> FiguresSummary:
    """The figures of a table being opened, whose meter is `meter` after its pending events (which
    the opening's flush adds), and whose seats are held by `accounts`; its running sums read back
    from its counters (a row per day and spot)."""
    summary = FiguresSummary(record.table_id, variant, accounts=dict(accounts))
    summary.meter = meter - sum(pools.moved(e.transfers) for e in record.pending_events())
    sql = f"""SELECT spot, SUM(rounds), {_SUMS} FROM figures
        WHERE table_id = ? AND game = ? GROUP BY spot"""
    for spot, rounds, *counts in tx.all(sql, (record.table_id, variant.name)):
        summary.totals[str(spot)] = _moments(counts)
        summary.rounds += int(rounds)
    return summary


def points(tx: Tx, table_id: str, game: str, last: int = 500) -> list[tuple[int, str, dict[str, Moments]]]:
    """The table's latest `last` running points of `game`, oldest first: (rounds, time, sums by spot)."""
    sql = f"""SELECT rounds, time, spot, {_LIST} FROM figure_points WHERE table_id = ? AND game = ?
        AND rounds >= (SELECT COALESCE(MAX(rounds), 0) FROM figure_points WHERE table_id = ? AND game = ?) - ?
        ORDER BY rounds, spot"""
    found: dict[int, tuple[str, dict[str, Moments]]] = {}
    for rounds, time, spot, *counts in tx.all(sql, (table_id, game, table_id, game, last * STEP)):
        found.setdefault(int(rounds), (str(time), {}))[1][str(spot)] = _moments(counts)
    return [(r, t, spots) for r, (t, spots) in found.items()]


@dataclass(frozen=True)
class Row:
    """One row of counters: its key's fields (day, table, game, currency, pool, spot; account for
    an account's) and its `Moments`; `rounds` for a table's main spot."""

    key: dict[str, str]
    rounds: int
    moments: Moments
    most: int = 0  # an account's largest unit staked at the spot


def _moments(values: Sequence[Any]) -> Moments:
    hands, wagered, win, units, units2, m1, m2, m3 = values  # the columns in `_COUNTS`' order
    return Moments(int(hands), int(wagered), int(win), int(units), int(units2), float(m1), float(m2), float(m3))


def table_rows(tx: Tx, first: str = "", last: str = "9999-12-31", table_id: str | None = None) -> list[Row]:
    """Every table's counters for the days `first` to `last` (ISO dates, both included), or one
    table's, ordered by day, table, game and spot."""
    where, params = "day >= ? AND day <= ?", [first, last]
    if table_id is not None:
        where, params = where + " AND table_id = ?", [*params, table_id]
    sql = f"""SELECT day, table_id, game, currency, pool, spot, rounds, {_LIST} FROM figures
        WHERE {where} ORDER BY day, table_id, game, spot"""
    found = []
    for day, table, game, currency, pool, spot, rounds, *counts in tx.all(sql, params):
        key = {"day": day, "table": table, "game": game, "currency": currency, "pool": pool, "spot": spot}
        found.append(Row(key, int(rounds), _moments(counts)))
    return found


def account_rows(tx: Tx, least_hands: int = 1) -> list[Row]:
    """Every account's counters (of accounts with at least `least_hands` hands at some spot)."""
    sql = f"""SELECT account, game, currency, spot, most, {_LIST} FROM account_figures
        WHERE hands >= ? ORDER BY account, game, currency, spot"""
    found = []
    for account, game, currency, spot, most, *counts in tx.all(sql, (least_hands,)):
        key = {"account": account, "game": game, "currency": currency, "spot": spot}
        found.append(Row(key, 0, _moments(counts), int(most)))
    return found


def days(tx: Tx) -> list[str]:
    """The days the figures hold, oldest first."""
    return [str(d) for (d,) in tx.all("SELECT DISTINCT day FROM figures ORDER BY day")]


def reconcile(tx: Tx, day: str) -> dict[str, tuple[int, int]]:
    """Each currency's house win on `day` (UTC): (the figures' sum, the records' settled nets
    negated). Equal when the figures hold; reads the day's record rows (a check, not a read for
    people)."""
    currency_of = {str(t): str(c) for t, c in tx.all("SELECT DISTINCT table_id, currency FROM figures")}
    kept: dict[str, int] = defaultdict(int)
    for currency, win in tx.all("SELECT currency, SUM(win) FROM figures WHERE day = ? GROUP BY currency", (day,)):
        kept[str(currency)] += int(win)
    found: dict[str, int] = defaultdict(int)
    for table_id, body in tx.all("SELECT table_id, body FROM table_log"):
        for e in events_in(body):
            if e["kind"] == "settled" and e["time"][:10] == day and str(table_id) in currency_of:
                found[currency_of[str(table_id)]] -= int(e["public"]["net"]["total"])
    return {c: (kept.get(c, 0), found.get(c, 0)) for c in sorted(set(kept) | set(found))}
