"""Session reminders, sent by the server: the reality check at the interval the account chose, and
the notice before a game ends an idle session, as `reality_check` and `idle_notice` frames to every socket of the
account (docs/protocol.md, "Reminders"). Clients show them; they keep no timer of their own.

A session is the time an account has a socket open on this process, with no gap longer than the
grace period (a reload, a short drop or a second tab keep it; a socket the relay opens for
another process's socket does not open one). Its net is what the engine settled for the
account's seats at this process's tables while it lasted (each `settled` event's `net.total`),
by currency, in minor units. The rules here are the only ones: a reality check every `every`
seconds of the session; an idle notice once per quiet spell of a table whose game ends an idle
session (the variant's `timing.idle_seconds`), `idle_warning` before the end.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ...engine import Table
from ...errors import ServerError
from ...variants import Currency
from .commands import EVERY_MOST
from .protocol import frame

__all__ = ["EVERY_DEFAULT", "EVERY_LEAST", "Session", "Sessions", "idle_warning"]

EVERY_DEFAULT = 3600
"""Seconds between reality checks for an account that chose none (an hour)."""
EVERY_LEAST = 600
"""The shortest interval a player may choose, unless the server's settings say otherwise (tests)."""
IDLE_WARNING = 60.0
"""Seconds before an idle session ends that its notice goes out (a fifth of a shorter idle time)."""


def idle_warning(idle_seconds: float) -> float:
    """How long before a game ends an idle session its notice goes out."""
    return min(IDLE_WARNING, idle_seconds / 5)


@dataclass
class Session:
    """One account's session on this process."""

    every: int
    started: float  # the clock's reading when it began
    reminded: float  # when the last reality check went out (its start before the first)
    sockets: int = 0
    left: float | None = None  # when its last socket closed (None: one is open)
    rounds: int = 0
    net: dict[tuple[str, int], int] = field(default_factory=dict)  # (currency, minor per major) -> amount
    noticed: set[tuple[str, datetime]] = field(default_factory=set)  # idle notices sent: (table, last activity)

    def summary(self, now: float) -> dict[str, Any]:
        """The session's time and net as the frames carry them."""
        net = [{"currency": c, "minor_per_major": m, "amount": a} for (c, m), a in sorted(self.net.items())]
        return {"seconds": int(now - self.started), "rounds": self.rounds, "net": net}


class Sessions:
    """Every account's session on this process; the frames that are due, for the server to send."""

    def __init__(self, grace: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.grace, self.clock = grace, clock
        self._sessions: dict[str, Session] = {}

    def get(self, account: str) -> Session | None:
        return self._sessions.get(account)

    def opened(self, account: str, every: int) -> Session:
        """A socket of the account opened: its session goes on (within the grace) or begins."""
        now = self.clock()
        s = self._sessions.get(account)
        if s is None or (s.left is not None and now - s.left > self.grace):
            s = self._sessions[account] = Session(every, now, now)
        s.sockets, s.left, s.every = s.sockets + 1, None, every
        return s

    def closed(self, account: str) -> None:
        s = self._sessions.get(account)
        if s is not None and s.sockets:
            s.sockets -= 1
            if not s.sockets:
                s.left = self.clock()

    def chose(self, account: str, every: int) -> None:
        """The account chose a new interval: the next check comes `every` after the last."""
        s = self._sessions.get(account)
        if s is not None:
            s.every = every

    def settled(self, account: str, currency: Currency, amount: int) -> None:
        """A round the engine settled for the account's seat here (counted while its session lasts)."""
        s = self._sessions.get(account)
        if s is not None:
            key = (currency.code, currency.minor_per_major)
            s.rounds, s.net[key] = s.rounds + 1, s.net.get(key, 0) + amount

    def summary(self, account: str) -> dict[str, Any]:
        s = self._sessions.get(account)
        if s is None:
            raise ServerError(f"{account} has no session on this process (a relay's socket opens none)", "illegal")
        return s.summary(self.clock())

    def due(self) -> list[tuple[str, str]]:
        """The reality checks due now, as (account, frame); sessions ended past the grace go."""
        now, out = self.clock(), []
        for account, s in list(self._sessions.items()):
            if s.left is not None:
                if now - s.left > self.grace:
                    del self._sessions[account]
                continue
            if now >= s.reminded + s.every:
                s.reminded = now
                out.append((account, frame("reality_check", every=s.every, session=s.summary(now))))
        return out

    def idle(self, table_id: str, table: Table, holders: Iterable[str]) -> list[tuple[str, str]]:
        """The idle notices due at a table whose game ends an idle session, as (account, frame):
        once per quiet spell (the engine's last activity), to each holder with a session here."""
        idle, since = table.variant.timing.idle_seconds, table.state.last_activity
        if idle is None or since is None or table.session_ended:
            return []
        left = idle - (table.clock() - since).total_seconds()
        if not 0 < left <= idle_warning(idle):
            return []
        out = []
        for account in holders:
            s = self._sessions.get(account)
            if s is None or s.left is not None or (table_id, since) in s.noticed:
                continue
            s.noticed = {n for n in s.noticed if n[0] != table_id} | {(table_id, since)}
            fields = {"table": table_id, "idle_seconds": idle, "ends_in": math.ceil(left)}
            out.append((account, frame("idle_notice", **fields, session=s.summary(self.clock()))))
        return out


def check_every(every: int | None, least: int, default: int) -> int:
    """The interval an account may choose (None: the server's default); ServerError `bad_field`
    naming the bounds otherwise."""
    if every is None:
        return default
    if not least <= every <= EVERY_MOST:
        raise ServerError(f"every: must be {least} to {EVERY_MOST} seconds on this server, not {every}", "bad_field")
    return every
