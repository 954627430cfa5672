"""Wallets: each account's money off the tables, in the database.

Money leaves a wallet for a seat (sit, top up) and comes back (leave) inside the same database job
as the table's deposit or withdrawal event, so the move is one transaction: a crash leaves either
both or neither. The books reconcile when, over every account, what was granted equals what the
wallets hold plus what the tables took in less what they paid back (`reconcile`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine.ledger import OUTSIDE
from ...errors import InsufficientFundsError, ServerError
from .db import Tx
from .record import events_in

__all__ = ["Books", "balance", "check_amount", "credit", "debit", "grant", "reconcile"]

MOST = 10**12  # the largest amount the protocol accepts, far below any overflow


def balance(tx: Tx, account: str) -> int:
    row = tx.one("SELECT wallet FROM accounts WHERE name = ?", (account,))
    if row is None:
        raise ServerError(f"no account {account!r}", "bad_field")
    return int(row[0])


def debit(tx: Tx, account: str, amount: int) -> None:
    """Takes `amount` from the wallet; InsufficientFundsError (nothing changed) if it holds less."""
    if tx.execute("UPDATE accounts SET wallet = wallet - ? WHERE name = ? AND wallet >= ?", (amount, account, amount)):
        return
    raise InsufficientFundsError(f"the wallet holds {balance(tx, account)}: cannot move {amount} to the table")


def credit(tx: Tx, account: str, amount: int) -> None:
    if not tx.execute("UPDATE accounts SET wallet = wallet + ? WHERE name = ?", (amount, account)):
        raise ServerError(f"no account {account!r}", "bad_field")


def check_amount(amount: int) -> None:
    """The one rule for play money granted to a wallet: 1 to `MOST` minor units."""
    if not 0 < amount <= MOST:
        raise ServerError(f"a deposit is 1 to {MOST} minor units, not {amount}", "bad_field")


def grant(tx: Tx, account: str, amount: int) -> int:
    """Play money into a wallet (`accounts deposit`); returns the new balance."""
    check_amount(amount)
    if not tx.execute(
        "UPDATE accounts SET wallet = wallet + ?, granted = granted + ? WHERE name = ?", (amount, amount, account)
    ):
        raise ServerError(f"no account {account!r}", "bad_field")
    return balance(tx, account)


@dataclass(frozen=True)
class Books:
    granted: int
    wallets: int
    into_tables: int  # deposits less withdrawals over every table's record

    @property
    def reconciled(self) -> bool:
        return self.granted == self.wallets + self.into_tables


def reconcile(tx: Tx) -> Books:
    """Sums the books: money granted, in wallets, and moved to tables by their records."""
    granted, wallets = tx.one("SELECT COALESCE(SUM(granted), 0), COALESCE(SUM(wallet), 0) FROM accounts") or (0, 0)
    net = 0
    for (body,) in tx.all("SELECT body FROM table_log WHERE funds = 1"):
        for event in (e for e in events_in(body) if e["kind"] == "funds"):
            for source, target, amount in event["transfers"]:
                net += int(amount) if source == OUTSIDE else -int(amount) if target == OUTSIDE else 0
    return Books(int(granted), int(wallets), net)
