"""`caribbean-fast serve`: the five games as online tables over WebSockets (docs/protocol.md).

A layer over the table engine, never a second engine: one owner task per table runs its commands
and its clock (`tables`), wallets and records live in one database, SQLite or PostgreSQL (`db`,
`wallets`, `record`, `pgstore`; `schema` is what both dialects share), and the sockets only carry
commands in and views out (`ws`, `protocol`). Needs the `server` extra: ``pip install "caribbean-fast[server]"``.
"""

from .app import create_app
from .config import Settings, load_tables

__all__ = ["Settings", "create_app", "load_tables"]
