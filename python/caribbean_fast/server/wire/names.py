"""The names the server answers to and the names it gives: the hosts a request may name (its
`Host`, and a page's `Origin`), and the tables' ids.

A browser that a page of another site points at this server (DNS rebinding: the site's name made
to resolve to 127.0.0.1 or an internal address) sends that site's name as `Host` and `Origin`.
Comparing the Origin with the request's own Host lets it in; so the server keeps a list of its
own names (`serve --host-name`) and answers a request naming any other host with 421. Besides the
names listed, it always answers to the address a connection came to, with its port, to
`localhost` at a loopback address, and to its own public URL's host (the other processes relay
and move sockets to it): numbers cannot be rebound, and these are the server's own.

A table's id reaches URLs, logs and the reverse proxy's map, where nginx reads a key that begins
with `~` as a regular expression: ids keep to a safe alphabet (`TABLE_ID`), checked when the
tables are loaded.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from ...errors import ServerError

__all__ = ["TABLE_ID", "TABLE_RULE", "HostNames", "authority", "check_table_id", "origin_allowed"]

TABLE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
TABLE_RULE = "lowercase letters a-z, digits and '-', at most 64 characters, the first a letter or a digit"
_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")  # a host name, or an IPv4 address
_DEFAULT_PORT = {"http": 80, "ws": 80, "https": 443, "wss": 443}

Authority = tuple[str, int | None]
"""A host (lowercase; an IPv6 address without brackets) and its port, None when none is written."""


def check_table_id(table: str, where: str = "a table") -> str:
    """The id, if it keeps to `TABLE_ID`; ServerError naming it and the rule otherwise."""
    if TABLE_ID.fullmatch(table) is None:
        raise ServerError(f"{where}: the table id {table!r} is not allowed: ids are {TABLE_RULE}", "bad_field")
    return table


def authority(text: str) -> Authority:
    """`host`, `host:port`, `[v6]` or `[v6]:port`, as a Host header writes it; ValueError for
    anything else (userinfo, a path, a character no host name holds)."""
    if not text or any(c in text for c in "@/?#\\ \t"):
        raise ValueError(f"{text!r} is not a host or host:port")
    try:
        parts = urlsplit(f"//{text}")
        host, port = parts.hostname or "", parts.port  # ValueError: a port past 65535 or not a number
    except ValueError as err:
        raise ValueError(f"{text!r} is not a host or host:port ({err})") from None
    if _NAME.fullmatch(host) is None:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise ValueError(f"{text!r} is not a host or host:port") from None
        if not text.startswith("["):
            raise ValueError(f"{text!r}: an IPv6 address is written in brackets, [{host}]")
    return host.rstrip("."), port


def _written(name: Authority) -> str:
    host, port = name
    host = f"[{host}]" if ":" in host else host
    return host if port is None else f"{host}:{port}"


class HostNames:
    """The hosts requests may name: those listed (at their port, or at any when none is given),
    and the server's own (see the module). ServerError for a listed name that is not a host."""

    def __init__(self, listed: Iterable[str] = (), endpoint: str = "") -> None:
        self.listed: list[Authority] = []
        for text in listed:
            try:
                self.listed.append(authority(text.strip().lower()))
            except ValueError as err:
                example = "a name such as casino.example or casino.example:8443"
                raise ServerError(f"host_names: {err} ({example})", "bad_field") from None
        if endpoint:
            url = urlsplit(endpoint)
            if url.hostname:
                self.listed.append((url.hostname, url.port or _DEFAULT_PORT.get(url.scheme)))

    def __str__(self) -> str:
        return ", ".join(_written(n) for n in self.listed)

    def allows(self, host: str | None, scheme: str, server: tuple[str, int] | None) -> bool:
        """Whether a request whose Host (or Origin's host) is `host`, over `scheme`, that came
        to the local address `server` (the ASGI scope's), names this server."""
        try:
            name, written = authority((host or "").lower())
        except ValueError:
            return False
        port = written or _DEFAULT_PORT.get(scheme)
        if any(name == n and p in (None, port) for n, p in self.listed):
            return True
        if server is None or port != server[1]:
            return False
        return name == server[0].lower() or (name == "localhost" and _loopback(server[0]))


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def origin_allowed(origin: str | None, scheme: str, names: HostNames, server: tuple[str, int] | None) -> bool:
    """A WebSocket's Origin: none (a program), or a page of this server: `http://` for a `ws`
    socket, `https://` for `wss`, and a host the server answers to; nothing else (no userinfo,
    no path)."""
    if origin is None:
        return True
    page = "https" if scheme == "wss" else "http"
    prefix = f"{page}://"
    if not origin.lower().startswith(prefix):
        return False
    return names.allows(origin[len(prefix) :], page, server)
