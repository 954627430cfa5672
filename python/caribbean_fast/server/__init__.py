"""`caribbean-fast serve`: the five games as online tables over WebSockets (docs/protocol.md).

A layer over the table engine, never a second engine: one owner task per table runs its commands
and its clock (`tables`), wallets and records live in one database, SQLite or PostgreSQL (`db`,
`wallets`, `record`, `pgstore`; `schema` is what both dialects share), and the sockets only carry
commands in and views out (`ws`, `protocol`). Needs the `server` extra: ``pip install "caribbean-fast[server]"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .config import Settings, load_tables

__all__ = ["Settings", "create_app", "load_tables"]


def __getattr__(name: str) -> Any:
    """The application and its settings, imported when first asked for: a client reading the
    list of commands (`server.commands`) needs none of the server's packages."""
    if name == "create_app":
        from .app import create_app

        return create_app
    if name in ("Settings", "load_tables"):
        from . import config

        return getattr(config, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
