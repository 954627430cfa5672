"""What the office needs of the running server: its database (for the office's own few writes:
sessions and the log), its read side (every read), and its tables. The host (`host.Server`) has
them; the office names this protocol, never the host's class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from starlette.requests import Request

from ..store.db import Database
from ..store.reads import Reads
from ..tables.owner import TableSpec

__all__ = ["OfficeHost", "host_of"]


class OfficeHost(Protocol):
    db: Database
    reads: Reads

    def tables(self) -> Mapping[str, TableSpec]: ...


def host_of(request: Request) -> OfficeHost:
    host: OfficeHost = request.app.state.server
    return host
