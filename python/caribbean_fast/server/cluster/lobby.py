"""The lobby: an entry for every table of the tables file, whichever process serves it.

A table's fixed facts (game, title, seats, limits, currency) come from the tables file, which
every process reads. What changes (the seats taken, the meter, the phase) only the serving
process knows, so each process publishes its tables' changing part to the database on its
lease loop (`lobby_state`, only the entries that changed), and the other processes read it back
there with the leases, for their own lobbies. A table whose state is not published yet is listed
with its fixed facts alone: no seat count is guessed.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..store.lobby import lobby_states, publish_lobby
from ..tables.owner import Owner, TableSpec

__all__ = ["Lobby", "changing", "fixed"]

_CHANGING = ("seats", "taken", "free", "waiting", "meter", "phase", "available")


def fixed(spec: TableSpec) -> dict[str, Any]:
    """What the tables file says of a table."""
    v = spec.variant
    lim = v.limits[spec.limits]
    return {
        "table": spec.id,
        "game": v.name,
        "title": v.title,
        "seats": spec.seats,
        "limits": {"minimum": lim.minimum, "maximum": lim.maximum},
        "currency": v.currency.code,
        "minor_per_major": v.currency.minor_per_major,
    }


def changing(owner: Owner) -> dict[str, Any]:
    """What only the serving process knows of its table now (its seats too: a table restored
    from its record keeps the seats it was opened with). A stopped table says so: `available`
    false, until it is restored from its record."""
    t = owner.table
    seats = owner.spec.seats if t is None else t.seats
    return {
        "seats": seats,
        "taken": sorted(owner.players),
        "free": seats - len(owner.players) if t is None else len(t.free_seats()),
        "waiting": len(owner.waiting),
        "meter": None if t is None else t.meter,
        "phase": "stopped" if t is None else str(t.phase),
        "available": t is not None,
    }


class Lobby:
    """One process's lobby: its own tables read live, the others' as last published."""

    def __init__(self, specs: list[TableSpec]) -> None:
        self.specs = list(specs)
        self._fixed = {s.id: fixed(s) for s in specs}
        self._published: dict[str, bytes] = {}  # table -> the state this process last wrote
        self.elsewhere: dict[str, dict[str, Any]] = {}  # table -> the state its server published

    def follow(self, spec: TableSpec) -> None:
        """The table plays another variant (an approved paytable change): its entry follows."""
        self.specs = [spec if s.id == spec.id else s for s in self.specs]
        self._fixed[spec.id] = fixed(spec)

    def entries(self, owners: dict[str, Owner], endpoints: dict[str, str]) -> list[dict[str, Any]]:
        """Every table of the tables file, those another process serves with `"here": false` and
        its endpoint."""
        return [
            {**self._fixed[s.id], **changing(owners[s.id]), "here": True}
            if s.id in owners
            else {**self._fixed[s.id], **self.elsewhere.get(s.id, {}), "here": False, "endpoint": endpoints.get(s.id)}
            for s in self.specs
        ]

    def changed(self, owners: dict[str, Owner]) -> list[tuple[str, str]]:
        """The rows to publish: this process's tables whose state changed since last written."""
        rows = []
        for table, owner in owners.items():
            if table not in self._fixed:
                continue  # a player's own table: the lobby lists its kind (`Server.kinds`)
            state = orjson.dumps(changing(owner))
            if self._published.get(table) != state:
                self._published[table] = state
                rows.append((table, state.decode()))
        return rows

    def forget(self, rows: list[tuple[str, str]]) -> None:
        """Rows whose write failed: they count as unpublished."""
        for table, _ in rows:
            self._published.pop(table, None)

    publish = staticmethod(publish_lobby)
    read = staticmethod(lobby_states)

    def take(self, rows: list[tuple[Any, ...]], here: dict[str, Owner]) -> None:
        """Keeps the states the other processes published (`read`'s rows); a row this version
        cannot read (another version's server wrote it) is left out, its table listed unpublished."""
        self.elsewhere = {}
        for table, state in rows:
            try:
                read = orjson.loads(state)
            except orjson.JSONDecodeError:
                continue
            if table not in here and isinstance(read, dict):
                self.elsewhere[str(table)] = {k: read[k] for k in _CHANGING if k in read}
