"""Where a client finds a table: the socket of the process serving it (docs/protocol.md, "One
socket per table").

Each table has its own socket path, `/ws/<table>`, so a standard proxy routes a table's sockets
by path to the process that serves it (its map kept from the leases: `proxymap`). A socket that
reaches a process not serving its table is told where to go (`moved`): behind a trusted proxy,
the same public URL again (the proxy routes it, its map following the leases within a lease
period); without one, the serving process's own URL, as that process announced it.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

from starlette.websockets import WebSocket

__all__ = ["PROXIED", "moved_to", "proxied", "table_path", "table_url"]

PROXIED = "caribbean_fast.proxied"
"""A request's scope key: it came through a trusted proxy (`forwarded`)."""


def table_path(table: str) -> str:
    return f"/ws/{quote(table, safe='')}"


def table_url(endpoint: str, table: str) -> str:
    """The table's socket at the process whose lobby socket is `endpoint` (`ws://host:port/ws`)."""
    return endpoint.rstrip("/") + table_path(table).removeprefix("/ws")


def proxied(ws: WebSocket) -> bool:
    """Whether the socket came through a trusted proxy, which routes it by the leases' map."""
    return bool(ws.scope.get(PROXIED))


def moved_to(ws: WebSocket, table: str, elsewhere: Mapping[str, str]) -> str | None:
    """The URL a client of this socket opens for the table's socket; None while no process is
    known to serve it (it is being taken over)."""
    if proxied(ws):
        return str(ws.url.replace(path=table_path(table), query=""))
    endpoint = elsewhere.get(table)
    return None if endpoint is None else table_url(endpoint, table)
