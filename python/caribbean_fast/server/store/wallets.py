"""Wallets: each account's money off the tables, a wallet per currency, in the database.

Money leaves a wallet for a seat (sit, top up) and comes back (leave) inside the same database job
as the table's deposit or withdrawal event, so the move is one transaction: a crash leaves either
both or neither. A table draws only on the wallet of its own currency: a seat at a euro table is
paid from and back to the euro wallet, never another. The books reconcile currency by currency
when what was granted (and what the split of a single wallet moved, `books_opening`) equals what
the wallets hold plus what the tables took in less what they paid back (`reconcile`).

A database made before there was a wallet per currency holds one number per account, which its
tables of every currency drew on at 1:1. It is split at start (`split_single`, in the schema's
transaction: once, all or nothing): the whole of each wallet, and what was granted, go to the
wallet of `HOME`, and what the single wallets had sent to each other currency's tables (read
from the records) is written as that currency's opening line, taken from `HOME`'s; nothing is
lost, and each currency's books reconcile from then on.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass

from ...engine.ledger import OUTSIDE
from ...errors import InsufficientFundsError, ServerError
from .record import events_in
from .schema import Tx

__all__ = [
    "HOME",
    "Books",
    "balance",
    "balances",
    "check_amount",
    "credit",
    "debit",
    "grant",
    "reconcile",
    "split_single",
]

MOST = 10**12  # the largest amount the protocol accepts, far below any overflow
HOME = "USD"
"""The currency a single wallet of an older database becomes (the variants' default currency)."""


def balance(tx: Tx, account: str, currency: str) -> int:
    """The account's wallet in `currency` (0 where none was made yet)."""
    row = tx.one("SELECT amount FROM wallets WHERE account = ? AND currency = ?", (account, currency))
    return 0 if row is None else int(row[0])


def balances(tx: Tx, account: str) -> dict[str, int]:
    """Every wallet of the account, by currency code; ServerError for no such account."""
    if tx.one("SELECT 1 FROM accounts WHERE name = ?", (account,)) is None:
        raise ServerError(f"no account {account!r}", "bad_field")
    rows = tx.all("SELECT currency, amount FROM wallets WHERE account = ? ORDER BY currency", (account,))
    return {str(c): int(a) for c, a in rows}


def debit(tx: Tx, account: str, currency: str, amount: int) -> None:
    """Takes `amount` from the account's wallet in `currency`; InsufficientFundsError (nothing
    changed) if it holds less: another currency's wallet is never touched."""
    sql = "UPDATE wallets SET amount = amount - ? WHERE account = ? AND currency = ? AND amount >= ?"
    if tx.execute(sql, (amount, account, currency, amount)):
        return
    held = balance(tx, account, currency)
    raise InsufficientFundsError(f"the {currency} wallet holds {held}: cannot move {amount} to the table")


def _add(tx: Tx, account: str, currency: str, amount: int, granted: int) -> None:
    if tx.one("SELECT 1 FROM accounts WHERE name = ?", (account,)) is None:
        raise ServerError(f"no account {account!r}", "bad_field")
    sql = """INSERT INTO wallets VALUES (?, ?, ?, ?) ON CONFLICT (account, currency)
        DO UPDATE SET amount = wallets.amount + excluded.amount, granted = wallets.granted + excluded.granted"""
    tx.execute(sql, (account, currency, amount, granted))


def credit(tx: Tx, account: str, currency: str, amount: int) -> None:
    """Money back from a table of `currency` into the account's wallet of that currency."""
    _add(tx, account, currency, amount, 0)


def check_amount(amount: int) -> None:
    """The one rule for play money granted to a wallet: 1 to `MOST` minor units."""
    if not 0 < amount <= MOST:
        raise ServerError(f"a deposit is 1 to {MOST} minor units, not {amount}", "bad_field")


def check_currency(code: str) -> str:
    """A currency code as the variants write it: three letters, upper case."""
    if not (isinstance(code, str) and len(code) == 3 and code.isalpha() and code.isascii()):
        raise ServerError(f"a currency is a 3-letter code, not {code!r}", "bad_field")
    return code.upper()


def grant(tx: Tx, account: str, currency: str, amount: int) -> int:
    """Play money into the account's wallet of `currency` (`accounts deposit`); the new balance."""
    check_amount(amount)
    _add(tx, account, check_currency(currency), amount, amount)
    return balance(tx, account, currency)


@dataclass(frozen=True)
class Books:
    currency: str
    granted: int
    wallets: int
    into_tables: int  # deposits less withdrawals over every table's record of the currency
    opening: int = 0  # what a single wallet sent to this currency's tables before the split

    @property
    def reconciled(self) -> bool:
        return self.granted + self.opening == self.wallets + self.into_tables


def table_currencies(tx: Tx) -> dict[str, str]:
    """Each table's currency, from the variant its record began with."""
    rows = tx.all("SELECT table_id, value FROM table_meta WHERE key = 'variant'")
    return {str(t): str(tomllib.loads(str(v)).get("currency", {}).get("code", HOME)) for t, v in rows}


def into_tables(tx: Tx) -> Counter[str]:
    """By currency: the money the tables' records took from wallets less what they paid back."""
    currency_of = table_currencies(tx)
    net: Counter[str] = Counter()
    for table_id, body in tx.all("SELECT table_id, body FROM table_log WHERE funds = 1"):
        currency = currency_of.get(str(table_id), HOME)
        for event in (e for e in events_in(body) if e["kind"] == "funds"):
            for source, target, amount in event["transfers"]:
                net[currency] += int(amount) if source == OUTSIDE else -int(amount) if target == OUTSIDE else 0
    return net


def reconcile(tx: Tx) -> dict[str, Books]:
    """Each currency's books: money granted, in wallets, and moved to tables by their records."""
    sums = {
        str(c): (int(g), int(w))
        for c, g, w in tx.all("SELECT currency, SUM(granted), SUM(amount) FROM wallets GROUP BY currency")
    }
    opening = {str(c): int(m) for c, m in tx.all("SELECT currency, moved FROM books_opening")}
    net = into_tables(tx)
    found = {}
    for currency in sorted(set(sums) | set(opening) | set(net)):
        granted, held = sums.get(currency, (0, 0))
        found[currency] = Books(currency, granted, held, net[currency], opening.get(currency, 0))
    return found


def split_single(tx: Tx) -> None:
    """A single wallet per account (a database made before wallets by currency) becomes its
    wallet of `HOME`, what was granted with it; each other currency's tables' net intake so far
    becomes that currency's opening line, and `HOME`'s less their sum; then the old columns go.
    Called in the schema's transaction, only while `accounts` still has its `wallet` column."""
    tx.execute("INSERT INTO wallets SELECT name, ?, wallet, granted FROM accounts", (HOME,))
    moved = {c: n for c, n in into_tables(tx).items() if c != HOME and n}
    rows = [(c, n) for c, n in moved.items()] + ([(HOME, -sum(moved.values()))] if moved else [])
    tx.many("INSERT INTO books_opening VALUES (?, ?)", rows)
    tx.execute("ALTER TABLE accounts DROP COLUMN wallet")
    tx.execute("ALTER TABLE accounts DROP COLUMN granted")
