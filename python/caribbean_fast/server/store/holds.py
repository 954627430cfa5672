"""Who held each seat for which rounds, as the engine's `seated` and `stood` events say: the
database's index for game recall, which shows an account the rounds it played at whichever seats
it held, across restarts. A hold covers the rounds from the first its account could be dealt
into (the event's `since`) up to the first after it left (`until`). What a seat is shown now is
the engine's view alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.events import Event, event_from_dict
from ...engine.history import round_proof, seat_history
from ...variants import Variant
from .record import events_in
from .schema import Tx

__all__ = ["Hold", "Holds"]

Round = list[dict[str, Any]]


@dataclass
class Hold:
    seat: int
    account: str
    first: int  # the first round the account could be dealt into at the seat
    end: int | None = None  # the first round after it left; None while it holds the seat

    def covers(self, number: int) -> bool:
        return self.first <= number and (self.end is None or number < self.end)


class Holds:
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.all: list[Hold] = []
        self._now: dict[int, Hold] = {}  # seat -> the hold of its holder

    def load(self, tx: Tx) -> None:
        rows = tx.all(
            "SELECT seat, account, first_round, end_round FROM holds WHERE table_id = ? ORDER BY first_round",
            (self.table_id,),
        )
        self.all = [Hold(int(s), str(a), int(f), None if e is None else int(e)) for s, a, f, e in rows]
        self._now = {h.seat: h for h in self.all if h.end is None}

    def current(self, seat: int) -> Hold | None:
        return self._now.get(seat)

    def begin(self, tx: Tx, seat: int, account: str, first: int) -> None:
        tx.execute("INSERT INTO holds VALUES (?, ?, ?, ?, NULL)", (self.table_id, seat, account, first))
        self._now[seat] = Hold(seat, account, first)
        self.all.append(self._now[seat])

    def end(self, tx: Tx, seat: int, end: int) -> None:
        sql = "UPDATE holds SET end_round = ? WHERE table_id = ? AND seat = ? AND end_round IS NULL"
        tx.execute(sql, (end, self.table_id, seat))
        hold = self._now.pop(seat, None)
        if hold is not None:
            hold.end = end

    def rounds(self, tx: Tx, account: str, last: int, after: int = -1, before: int | None = None) -> list[Round]:
        """The last `last` rounds the account was dealt into at this table, at whichever seats it
        held, each as its seat saw it; oldest first; only rounds numbered above `after` (game
        recall asks for those that ended while the player was away: reading and parsing only
        those kept a reconnect from reading ten rounds to show none). Read from the table's
        committed record (the table keeps only its latest round in memory): a round counts once
        its close is committed. `before`: only rounds numbered below it (a history read page by
        page, older each time)."""
        if last <= 0:
            return []
        dealt: list[tuple[int, int]] = []  # (round, seat)
        for h in (h for h in self.all if h.account == account):
            sql = "SELECT DISTINCT round FROM table_log WHERE table_id = ? AND dealt & ? <> 0"
            end = h.end if before is None else before if h.end is None else min(h.end, before)
            sql += " AND round >= ?" + ("" if end is None else " AND round < ?")
            params = (self.table_id, 1 << h.seat, max(h.first, after + 1)) + (() if end is None else (end,))
            rows = tx.all(sql + " ORDER BY round DESC LIMIT ?", (*params, last + 1))
            dealt += [(int(r), h.seat) for (r,) in rows]
        found: list[Round] = []
        for number, seat in sorted(set(dealt))[-(last + 1) :]:
            found += seat_history(self._round_events(tx, number), seat, 1)
        return found[-last:]

    def proof(self, tx: Tx, account: str, number: int, variant: Variant) -> dict[str, Any] | None:
        """The fairness proof of round `number` for the seat the account held in it (None: it held
        none that was dealt into it, or the round is not over)."""
        for h in (h for h in self.all if h.account == account and h.covers(number)):
            found = round_proof(self._round_events(tx, number), h.seat, variant)
            if found is not None:
                return found
        return None

    def _round_events(self, tx: Tx, number: int) -> list[Event]:
        """The round's events, from its opening to its close (its rows' place is the round; those
        after a close are the next round's place, and left out here)."""
        sql = "SELECT body FROM table_log WHERE table_id = ? AND round = ? ORDER BY seq"
        found = [event_from_dict(e) for (body,) in tx.all(sql, (self.table_id, number)) for e in events_in(body)]
        return [e for e in found if e.round == number]
