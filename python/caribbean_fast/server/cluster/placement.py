"""Which process serves which table: rendezvous hashing (highest random weight) over the live
processes' endpoints.

Every process works out the same owner for a table from the same live set: the endpoint whose
hash with the table's id weighs most. A process takes the free tables it owns so, and gives a
table it serves to the process that owns it, between rounds (`server.Server._give_back`): after a
restart each process takes back its share, and when one dies each of its tables goes to the
survivor it weighs most with, so they spread over the survivors instead of piling onto one; a
process joining or leaving moves only the tables it owns or owned.

A process is live while its PostgreSQL session holds the advisory lock of its endpoint
(`process_key`), which PostgreSQL drops the moment the session ends (the process killed, its
connection cut); the `processes` table names the endpoints that have served. With SQLite one
process serves every table: it is the only live one.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable

from ..store import leases
from ..store.schema import Dialect, Tx

__all__ = ["Placement", "live_endpoints", "owner_of", "process_key", "weight"]

_log = logging.getLogger(__name__)


def weight(endpoint: str, table: str) -> int:
    """The table's weight at the process: the same on every process, and as good as random."""
    return int.from_bytes(hashlib.sha256(f"{endpoint}\n{table}".encode()).digest()[:8], "big")


def owner_of(table: str, live: Iterable[str]) -> str:
    """The live endpoint the table weighs most with (ties, never seen in practice, by name)."""
    return max(live, key=lambda endpoint: (weight(endpoint, table), endpoint))


def process_key(endpoint: str) -> int:
    """The advisory lock's 64-bit key a process holds while it is live (made as `pgstore.lease_key`
    makes a table's, from a name no table has)."""
    return int.from_bytes(hashlib.sha256(f"process {endpoint}".encode()).digest()[:8], "big", signed=True)


class Placement:
    """This process's view of the live processes, read again every lease period."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.live: frozenset[str] = frozenset({endpoint})
        self._registered = -1  # the database connection (generation) that holds this process's lock

    def owner(self, table: str) -> str:
        return owner_of(table, self.live)

    def mine(self, table: str) -> bool:
        return self.owner(table) == self.endpoint

    def read_live(self, tx: Tx, dialect: Dialect, generation: int) -> frozenset[str]:
        """A database job: this process registered on this connection (its lock taken again after a
        reconnect), then the live set, which always holds this process."""
        if not dialect.shares:
            return frozenset({self.endpoint})
        if self._registered != generation:
            leases.register_process(tx, self.endpoint)
            if not dialect.hold(process_key(self.endpoint)):
                _log.warning("another live process announces %s: give each its own --public-url", self.endpoint)
            self._registered = generation
        named = leases.processes(tx)
        live = live_endpoints(tx, dialect, named)
        dead = [e for e in named if e not in live and e != self.endpoint]
        if dead:  # a process that comes back registers again
            leases.forget_processes(tx, dead)
        return frozenset({self.endpoint, *live})


def live_endpoints(tx: Tx, dialect: Dialect, named: list[str] | None = None) -> set[str]:
    """The endpoints of the live processes (PostgreSQL): those of `processes` (or `named`) whose
    lock a session holds."""
    if named is None:
        named = leases.processes(tx)
    held = dialect.held([process_key(e) for e in named])
    return {e for e in named if process_key(e) in held}
