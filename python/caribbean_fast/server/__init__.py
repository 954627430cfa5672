"""`caribbean-fast serve`: the five games as online tables over WebSockets (docs/protocol.md).

A layer over the table engine, never a second engine: one owner task per table runs its commands
and its clock (`tables`), wallets and records live in one database, SQLite or PostgreSQL (`db`,
`wallets`, `record`, `pgstore`; `schema` is what both dialects share), and the sockets only carry
commands in and views out (`ws`, `protocol`). Needs the `server` extra: ``pip install "caribbean-fast[server]"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from .config import Settings, load_tables

__all__ = ["Settings", "create_app", "load_tables"]


def create_app(settings: Settings) -> Starlette:
    """The application (`app`) over this process's host (`host`): the one place that names both,
    so the edge reaches the host only through `front.Front`. Imported when called: a client
    reading the list of commands (`server.commands`) needs none of the server's packages."""
    from .app import asgi_app
    from .host import Server

    return asgi_app(settings, Server)


def __getattr__(name: str) -> Any:
    """The settings, imported when first asked for."""
    if name in ("Settings", "load_tables"):
        from . import config

        return getattr(config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
