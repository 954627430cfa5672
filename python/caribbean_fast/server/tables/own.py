"""Tables of one's own: a one-seat game's table for each player, by kind (a game and its limits).

A kind names no table: it is what a player's own table is made from. Each player has one table of
each kind, its id made from the kind and the account (`own_table`), so the same player finds the
same table, its record and its history, every time they sit. It is opened (restored from its
record, or new) when the player's first command names it and closed when its seat is empty
between rounds; its record stays in the database, audited and recalled as any table's. Which
process serves it is the lease's hash over its id (`placement`), so players' tables spread over
the processes as the tables file's do.

The id holds a digest of the account, never its name (ids reach URLs, logs and the proxy's map):
an HMAC-SHA-256 under the server's key, made once in the database (`store/server_keys`), so the
same account has the same id in every process and after every restart, and nobody without the key
can tell whose table an id is (an unsalted hash of a short name is found by trying names). Ids
made before the key, a plain SHA-256 of the account (`legacy_table`), stay their holder's: a seat
held there is found again (`Server.own`), and their records are read as any table's.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace

from ...errors import ServerError
from .owner import TableSpec

__all__ = ["MARK", "Specs", "check_holder", "kind_of", "legacy_table", "own_table"]

MARK = "-own-"
"""What separates an own table's kind from its account's digest: fixed tables' ids end in a number."""
DIGEST = 16  # hex digits of the account's HMAC: collisions need some 2**32 accounts of one kind


def own_table(kind: str, account: str, key: bytes) -> str:
    """The id of the account's own table of the kind, under the server's key (`server_keys`)."""
    return f"{kind}{MARK}{hmac.new(key, account.encode(), hashlib.sha256).hexdigest()[:DIGEST]}"


def legacy_table(kind: str, account: str) -> str:
    """The id the account's own table of the kind had before the key: still the account's."""
    return f"{kind}{MARK}{hashlib.sha256(account.encode()).hexdigest()[:DIGEST]}"


def check_holder(table: str, kind: str, account: str, key: bytes) -> None:
    """Only the account whose table it is sits at (or opens) an own table."""
    if table not in (own_table(kind, account, key), legacy_table(kind, account)):
        raise ServerError(f"{table} is another player's own table: ask for yours (GET /api/own/{kind})", "illegal")


def kind_of(table: str) -> str | None:
    """The kind the id is an own table of (None: not such an id)."""
    kind, mark, digest = table.rpartition(MARK)
    if not mark or len(digest) != DIGEST or any(c not in "0123456789abcdef" for c in digest):
        return None
    return kind


class Specs(Mapping[str, TableSpec]):
    """Every table a client may name: the tables file's, the kinds (whose ids name the game's rules
    and pages, never a table to play: their `own` is their id), and any own table of a kind, made
    when asked. Iterating lists the first two only: own tables are as many as there are players."""

    def __init__(self, fixed: Iterable[TableSpec], kinds: Iterable[TableSpec]) -> None:
        self.fixed = {s.id: s for s in fixed}
        self.kinds = {s.id: s for s in kinds}
        self.changed: dict[str, TableSpec] = {}  # own tables that took an approved paytable change
        both = set(self.fixed) & set(self.kinds)
        if both:
            raise ServerError(f"{sorted(both)[0]!r} names a table and a kind of own tables", "bad_field")

    def follow(self, spec: TableSpec) -> None:
        """The table plays another variant from now on (an approved paytable change): later
        look-ups give its new spec."""
        if spec.id in self.fixed:
            self.fixed[spec.id] = spec
        else:
            self.changed[spec.id] = spec

    def own(self, table: str) -> TableSpec | None:
        """The spec of an own table (None: the id is no own table of a kind served here)."""
        if table in self.changed:
            return self.changed[table]
        kind = kind_of(table)
        spec = None if kind is None else self.kinds.get(kind)
        return None if spec is None else replace(spec, id=table, own=spec.id)

    def __getitem__(self, table: str) -> TableSpec:
        spec = self.fixed.get(table) or self.kinds.get(table) or self.own(table)
        if spec is None:
            raise KeyError(table)
        return spec

    def __iter__(self) -> Iterator[str]:
        yield from self.fixed
        yield from self.kinds

    def __len__(self) -> int:
        return len(self.fixed) + len(self.kinds)
