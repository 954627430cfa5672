"""What the edge (app.py, web.py, ws.py) works with: the host (host.py) through the few calls of
`Front`, never its parts, and the front door's own parts (`Door`), which the edge makes from the
settings. The edge names `Front`, never the host's class, so the host's insides can change freely."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, Protocol

from .accounts import Session
from .config import Settings
from .store.book import Limit
from .tables.owner import Owner, TableSpec
from .wire.forwarded import Trusted
from .wire.gate import Gate
from .wire.hub import Connection
from .wire.metrics import Metrics
from .wire.names import HostNames
from .wire.protocol import Command

__all__ = ["Door", "Front"]


@dataclass(frozen=True)
class Door:
    """The edge's own parts, made from the settings before the host: the hosts it answers to, the
    proxies it believes, the limits on connections and frames, and the metrics (the host counts
    its tables into the same registry)."""

    settings: Settings
    names: HostNames
    proxies: Trusted
    gate: Gate
    metrics: Metrics


class Front(Protocol):
    """The host as the edge sees it: calls only, named for what a request or a socket wants."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def health(self) -> dict[str, Any]:
        """The database (`ok` or why not), the stopped tables, the tables served, the sockets."""
        ...

    def tables(self) -> Mapping[str, TableSpec]:
        """Every table of the tables file, whichever process serves it."""
        ...

    def lobby(self) -> list[dict[str, Any]]: ...

    def kinds(self) -> list[dict[str, Any]]:
        """The kinds of own tables (a one-seat game and its limits), as the lobby lists them."""
        ...

    async def own(self, kind: str, account: str) -> str:
        """The id of the account's own table of the kind (ServerError `no_table`: no such kind)."""
        ...

    async def claim(self, conn: Connection, table: str) -> Owner | None:
        """The owner of a table served here, an own table opened here for its player's command;
        None: another process serves it (`forward`)."""
        ...

    async def progressive(
        self, table: str, game: str, through: date
    ) -> tuple[int | None, dict[str, Any], list[dict[str, Any]]]:
        """The table's meter now, its meter's history, and its game's fixed prizes by day."""
        ...

    async def register(self, name: object, password: object, address: str) -> Session: ...

    async def login(self, name: object, password: object, address: str) -> Session: ...

    async def guest(self, address: str) -> Session: ...

    async def logout(self, token: str) -> None:
        """The session ends, its sockets with it."""
        ...

    async def who(self, token: str) -> str | None:
        """The account whose session the token is, if it is one."""
        ...

    async def wallet(self, account: str) -> tuple[dict[str, int], bool, int | None]:
        """The wallets by currency, whether it is a guest's, and the chosen interval between reality checks."""
        ...

    def limit(self, account: str) -> Limit: ...

    async def seats(self, account: str) -> dict[str, int]:
        """The account's seats at every table, whichever process serves it."""
        ...

    async def connect(self, conn: Connection, token: str | None, relayed: bool) -> None:
        """A socket opened: it is welcomed (its wallet, its seats and their views) and kept."""
        ...

    async def disconnect(self, conn: Connection) -> None: ...

    async def forward(self, conn: Connection, command: Command) -> dict[str, Any]:
        """A command naming a table another process serves: relayed, or refused `moved`."""
        ...

    def watch(self, conn: Connection, table: str, on: bool) -> None: ...

    def advise(self, owner: Owner, account: str | None) -> dict[str, Any]: ...

    async def reality_check(self, account: str, every: int | None, given: bool) -> dict[str, Any]:
        """The account's interval between reality checks: read, or (`given`) chosen and kept."""
        ...

    def session(self, account: str) -> dict[str, Any]: ...
