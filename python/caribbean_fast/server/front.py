"""What the edge (app.py, web.py, ws.py) needs of the host (host.py): the one interface through
which a request or a socket reaches the tables, the accounts, the wallets and the front door's
parts. The edge names this, never the host's class, so the host's insides can change freely."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any, Protocol

from .accounts import Accounts
from .cluster.relay import Relay
from .config import Settings
from .store.book import Limit
from .tables.advice import Advisors
from .tables.owner import Owner, TableSpec
from .wire.forwarded import Trusted
from .wire.gate import Gate
from .wire.hub import Connection, Hub
from .wire.metrics import Metrics
from .wire.names import HostNames

__all__ = ["Front"]


class Front(Protocol):
    settings: Settings
    metrics: Metrics
    hub: Hub  # who is connected (wire)
    gate: Gate  # the front door's limits (wire)
    names: HostNames
    proxies: Trusted
    accounts: Accounts  # register, log in, who a token is
    advisors: Advisors  # the trainer's exact tables
    specs: Mapping[str, TableSpec]  # every table of the tables file
    owners: Mapping[str, Owner]  # the tables served here
    elsewhere: Mapping[str, str]  # table -> the endpoint of the process serving it
    relays: dict[Connection, Relay]  # each socket's links to the other processes

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    def lobby(self) -> list[dict[str, Any]]: ...

    def meter(self, table: str) -> int | None: ...

    def seats_of(self, account: str) -> list[dict[str, Any]]: ...

    async def seats_anywhere(self, account: str) -> dict[str, int]: ...

    async def wallet(self, account: str) -> tuple[dict[str, int], bool, int | None]: ...

    def limit(self, account: str) -> Limit: ...

    async def reality_check_every(self, account: str) -> int | None: ...

    async def choose_reality_check(self, account: str, every: int | None) -> None: ...

    async def progressive(
        self, table: str, game: str, through: date
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]: ...

    def relay(self, conn: Connection, token: str | None, relayed: bool) -> Relay: ...

    def went_away(self, account: str) -> None: ...

    async def look_up(self, table: str) -> None: ...

    def send_moved(self, conn: Connection) -> None: ...

    async def database_health(self) -> str: ...
