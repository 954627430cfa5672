"""The running server: its database, accounts, connections and the owners of its tables.

Start-up restores every table from its record (or opens it); shut-down closes the sockets, lets
each owner finish the command it runs, commits what is queued and closes the database. A round
in play stays in the record as it was: at the next start the engine's rules finish or void it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .accounts import Accounts
from .book import ServerBook
from .config import Settings
from .db import Database, connect
from .hub import Hub
from .metrics import Metrics
from .tables import Owner

__all__ = ["Server"]

_log = logging.getLogger(__name__)


class Server:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(connect(settings.database))
        self.accounts = Accounts(self.db)
        self.hub, self.metrics, self.book = Hub(), Metrics(), ServerBook()
        self.owners: dict[str, Owner] = {}
        self._grace: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self.db.start()
        await self.db.run(self.book.load)
        for spec in self.settings.tables:
            owner = Owner(spec, self.db, self.book, self.hub, self.metrics)
            await owner.open()
            owner.start(self.settings.tick)
            self.owners[spec.id] = owner
        self.metrics.tables.set(len(self.owners))
        _log.info("serving", extra={"fields": {"tables": len(self.owners), "database": _safe(self.db.url)}})

    async def stop(self) -> None:
        for conn in list(self.hub.connections):
            conn.close(1001, "shutdown")
        await asyncio.sleep(0.05)
        for task in self._grace:
            task.cancel()
        for owner in self.owners.values():
            await owner.stop()
        await self.db.stop()
        _log.info("stopped", extra={"fields": {"tables": len(self.owners)}})

    def seats_of(self, account: str) -> list[dict[str, Any]]:
        return [
            {"table": tid, "seat": seat}
            for tid, owner in self.owners.items()
            if (seat := owner.seat_of(account)) is not None
        ]

    def went_away(self, account: str) -> None:
        """The account's last socket closed: after the grace period, the game's disconnect rule."""
        held = [o for o in self.owners.values() if o.seat_of(account) is not None]
        for owner in held:
            owner.went_away(account)
        if held:
            task = asyncio.create_task(self._after_grace(account, held))
            self._grace.add(task)
            task.add_done_callback(self._grace.discard)

    async def _after_grace(self, account: str, held: list[Owner]) -> None:
        await asyncio.sleep(self.settings.grace)
        if self.hub.online(account):
            return
        for owner in held:
            try:
                await owner.disconnect(account)
            except Exception as err:  # the seat was left meanwhile, or the table refused
                _log.info("disconnect", extra={"fields": {"table": owner.spec.id, "outcome": type(err).__name__}})


def _safe(url: str) -> str:
    """A database URL without its password, for the logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url
