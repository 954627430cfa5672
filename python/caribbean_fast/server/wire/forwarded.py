"""Behind a reverse proxy: the client's address, scheme and host from the forwarded headers, and
only from a proxy the server trusts (`serve --forwarded-allow-ips`, as uvicorn's option reads).

A request from a trusted proxy is seen as the client made it: its address is the last one
`X-Forwarded-For` names that is not itself a trusted proxy, its scheme `X-Forwarded-Proto`'s
(`wss` for a socket that came over `https`), its host `X-Forwarded-Host`'s (most proxies pass the
`Host` header itself). So the per-address limits (`gate`: frames, registrations, logins) count
clients, not the proxy; the Host and Origin checks (`names`) see the host the client named; the
session cookie is Secure when the client came over TLS; and a table's socket is told
`moved` to the same public URL (`routing`). From any other peer these headers are ignored: a
client cannot name itself someone else. Trusting every peer (`*`) hands that choice to any client
that reaches the server directly: it needs `serve --only-via-proxy` (`Server`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from .routing import PROXIED

__all__ = ["Forwarded", "Trusted", "client_of"]

_SCHEMES = {"http": ("http", "ws"), "https": ("https", "wss"), "ws": ("http", "ws"), "wss": ("https", "wss")}


class Trusted:
    """The proxies whose forwarded headers are believed: addresses and networks (`10.0.0.0/8`),
    or `*` for any peer. ValueError for an entry that is neither."""

    def __init__(self, entries: Iterable[str] = ()) -> None:
        listed = [e.strip() for e in entries if e.strip()]
        self.any = "*" in listed
        self.networks = [ipaddress.ip_network(e, strict=False) for e in listed if e != "*"]

    def __bool__(self) -> bool:
        return self.any or bool(self.networks)

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str):
            return False
        if self.any:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


def _host(hop: str) -> str:
    """An address of `X-Forwarded-For` without its port: `[::1]:80`, `1.2.3.4:80`, `::1`."""
    if hop.startswith("[") and "]" in hop:
        return hop[1 : hop.index("]")]
    return hop.rsplit(":", 1)[0] if hop.count(":") == 1 else hop


def client_of(forwarded_for: str, trusted: Trusted) -> str | None:
    """The client `X-Forwarded-For` names: each proxy appends the address it was reached from,
    so the last one that is not a trusted proxy (all trusted: the first)."""
    hops = [_host(h.strip()) for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if hop not in trusted:
            return hop
    return hops[0] if hops else None


def _first(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    values = [v.decode("latin-1") for k, v in headers if k == name]
    return values[0].split(",")[0].strip() if values else None


class Forwarded:
    """The ASGI middleware that applies the forwarded headers of a trusted peer (see the module)."""

    def __init__(self, app: ASGIApp, trusted: Trusted) -> None:
        self.app, self.trusted = app, trusted

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """The app's own call, returned, not awaited here: no frame of this one is kept for a
        socket's life."""
        peer = (scope.get("client") or ("", 0))[0]
        if scope["type"] in ("http", "websocket") and self.trusted and peer in self.trusted:
            scope = self._as_the_client(scope)
        return self.app(scope, receive, send)

    def _as_the_client(self, scope: Scope) -> Scope:
        headers: list[tuple[bytes, bytes]] = list(scope["headers"])
        scope = dict(scope, headers=headers)
        scope[PROXIED] = True
        chain = ", ".join(v.decode("latin-1") for k, v in headers if k == b"x-forwarded-for")
        client = client_of(chain, self.trusted)
        if client:
            scope["client"] = (client, 0)
        proto = (_first(headers, b"x-forwarded-proto") or "").lower()
        if proto in _SCHEMES:
            http, ws = _SCHEMES[proto]
            scope["scheme"] = ws if scope["type"] == "websocket" else http
        host = _first(headers, b"x-forwarded-host")
        if host:
            scope["headers"] = [(k, v) for k, v in headers if k != b"host"] + [(b"host", host.encode("latin-1"))]
        return scope
