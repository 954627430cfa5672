"""Who sits where, kept in the database beside the engine's seats: the seat rows and the holds
(which game recall reads) written from the engine's `seated` and `stood` events in the commit's
transaction, and, when a table is restored, the seats the record and the database disagree on."""

from __future__ import annotations

import logging

from ...engine import Table
from ...engine.events import Event
from ...errors import CaribbeanFastError
from ..store import seats, wallets
from ..store.db import Tx
from ..store.holds import Hold, Holds

__all__ = ["adopt", "record_seating", "return_unheld", "seat_rows"]

_log = logging.getLogger(__name__)


def record_seating(tx: Tx, table_id: str, currency: str, events: list[Event], holds: Holds) -> None:
    """The seat rows, the holds, and the money a seat stood up returns to the account's wallet
    of the table's `currency` (its buy-in left that wallet in the sit's own job), for these
    `seated` and `stood` events."""
    for e in events:
        assert e.seat is not None
        if e.kind == "seated":
            seats.sit(tx, table_id, e.seat, e.public["account"])
            holds.begin(tx, e.seat, e.public["account"], e.public["since"])
            continue
        seats.stand(tx, table_id, e.seat)
        holds.end(tx, e.seat, e.public["until"])
        if e.public["returned"]:
            wallets.credit(tx, e.public["account"], currency, e.public["returned"])


def return_unheld(tx: Tx, table: Table, holds: Holds) -> None:
    """Money the record leaves on a seat that no account holds goes back to the account of the
    seat's last hold, in the restore's transaction: a withdrawal event, and the wallet's credit
    unless the hold has ended (a leave ends it in the same transaction as its credit, so then the
    wallet was paid and only the event is missing, as a record written before fail-stop can be;
    a record written before the engine held the seats leaves every seat's money so)."""
    for seat in range(table.seats):
        amount = table.balance(seat)
        if table.holder(seat) is not None or not amount:
            continue
        hold = _last_hold(holds, seat)
        if hold is None:
            _log.error("table %s seat %d: %d on the seat and no hold on record", holds.table_id, seat, amount)
            continue
        try:
            table.withdraw(seat, amount)
        except CaribbeanFastError as err:  # in play: kept on the seat, which nobody may take, until a restore
            _log.error("table %s seat %d: %d not returned: %s", holds.table_id, seat, amount, err)
            continue
        if hold.end is None:
            wallets.credit(tx, hold.account, table.variant.currency.code, amount)
            holds.end(tx, seat, table.edge)
        _log.warning(
            "table %s seat %d: %d on the unheld seat returned to %s", holds.table_id, seat, amount, hold.account
        )


def adopt(tx: Tx, table: Table, holds: Holds) -> None:
    """Seats the database says are held and the record does not (a record written before the
    engine kept the seats): the engine adopts their holders, money and all."""
    for k, account in seats.seat_rows(tx, holds.table_id):
        if k < table.seats and table.holder(k) is None and account not in map(table.holder, range(table.seats)):
            hold = holds.current(k)
            table.adopt(k, account, hold.first if hold is not None and hold.account == account else 0)


def seat_rows(tx: Tx, table_id: str, table: Table) -> None:
    """The database's seat rows (which the relays and the welcome read) as the engine's seats."""
    seats.set_seat_rows(tx, table_id, [(k, a) for k in range(table.seats) if (a := table.holder(k)) is not None])


def _last_hold(holds: Holds, seat: int) -> Hold | None:
    """The seat's latest hold: an open one, else the one that ended last."""
    mine = [h for h in holds.all if h.seat == seat]
    return max(mine, key=lambda h: (h.end is None, h.end or 0, h.first), default=None)
