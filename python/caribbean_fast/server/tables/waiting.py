"""A shared table's waiting list (game 3): who waits for a seat, first first, with the buy-in each
will sit with. The server keeps it; the engine seats the first (`sit`) when a seat frees up."""

from __future__ import annotations

from ...errors import ServerError

__all__ = ["WAITING_MOST", "WaitingList"]

WAITING_MOST = 100  # accounts on one table's waiting list


class WaitingList(dict[str, int]):
    """account -> its buy-in, in the order the accounts joined."""

    def ahead_of(self, account: str) -> list[str]:
        """Everyone waiting but the account."""
        return [a for a in self if a != account]

    def may_sit_now(self, account: str, free: int) -> bool:
        """A seat is free for the account: more seats free than accounts waiting before it."""
        return free > len(self.ahead_of(account))

    def join(self, table: str, account: str, buy_in: int) -> dict[str, int]:
        """Joins (or changes the buy-in, keeping the place); the place and the list's length."""
        if account not in self and len(self) >= WAITING_MOST:
            raise ServerError(f"the waiting list of {table} is full ({WAITING_MOST})", "illegal")
        self[account] = buy_in
        return {"place": list(self).index(account) + 1, "waiting": len(self)}

    def first(self) -> str | None:
        return next(iter(self), None)
