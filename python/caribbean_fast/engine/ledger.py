"""The ledger: every amount of money at a table, in minor units, moved only by transfers.

Accounts: each seat's wallet (`wallet:K`), what it has on the table this round (`table:K`), the
house, and the progressive meter; `outside` is where deposits come from and withdrawals go. The
reconciliation `wallets + table + house + meter == deposits - withdrawals` is checked after every
event; wallets, table spots and the meter never go below zero (the house may).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..errors import InsufficientFundsError, ReconciliationError
from .events import Transfer

__all__ = ["OUTSIDE", "POOL", "Ledger", "table_spot", "wallet"]

OUTSIDE = "outside"
POOL = "pool"
"""A progressive pool shared by many tables, outside this one (the server's, in its database):
the meter is brought to the pool's amount from it, or back to it, at a showdown (`Table.pool`)."""


_UNBOUNDED = frozenset({"house", POOL, OUTSIDE})
"""The accounts that may go below zero: the house (it pays out before it takes in), and the
money outside the table."""


def wallet(seat: int) -> str:
    return f"wallet:{seat}"


def table_spot(seat: int) -> str:
    return f"table:{seat}"


class Ledger:
    def __init__(self) -> None:
        self.balances: Counter[str] = Counter()
        self.deposits = 0
        self.withdrawals = 0

    def balance(self, account: str) -> int:
        return self.balances[account]

    def check(self, transfers: Iterable[Transfer]) -> None:
        """Raises InsufficientFundsError, changing nothing, when these transfers would take an
        account that must stay whole below zero."""
        self._moved(transfers)

    def _moved(self, transfers: Iterable[Transfer]) -> dict[str, int]:
        """What these transfers change each account they touch by, once `check` finds them
        allowed: only those accounts can go below zero."""
        moved: dict[str, int] = {}
        for source, target, amount in transfers:
            if amount < 0:
                raise ReconciliationError(f"a transfer of {amount} from {source} to {target} is negative")
            moved[source] = moved.get(source, 0) - amount
            moved[target] = moved.get(target, 0) + amount
        balances = self.balances
        for account, change in moved.items():
            value = balances[account] + change
            if value < 0 and account not in _UNBOUNDED:
                raise InsufficientFundsError(f"{account} would hold {value}: not enough money")
        return moved

    def apply(self, transfers: Sequence[Transfer]) -> None:
        """Moves the money, checked first (`check`): each account by its change, and the outside's
        flows counted apart, so that `reconcile` can check the table against them."""
        if not transfers:  # most events move no money: nothing to check or reconcile
            return
        moved = self._moved(transfers)
        if OUTSIDE in moved:  # a deposit or a withdrawal: counted by transfer, as each is one
            del moved[OUTSIDE]
            for source, target, amount in transfers:
                self.deposits += amount if source == OUTSIDE else 0
                self.withdrawals += amount if target == OUTSIDE else 0
        balances = self.balances
        for account, change in moved.items():
            balances[account] += change
        self.reconcile()

    def reconcile(self) -> None:
        """wallets + table spots + house + meter == deposits - withdrawals, to the minor unit."""
        held, net = sum(self.balances.values()), self.deposits - self.withdrawals
        if held != net:
            raise ReconciliationError(f"the table holds {held} but deposits less withdrawals are {net}")
