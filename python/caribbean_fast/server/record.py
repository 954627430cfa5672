"""One table's record inside the server's database: the engine's `EventStore` interface, written
in the group commits of `db.Database`.

The engine appends each event as it happens; here `append` only chains it and keeps it pending,
and the table's owner writes the pending rows (`flush`) in the same database job as whatever
else the command moved (a wallet), so the answer to a command goes out only once its events are
committed. Rows are never overwritten: `(table_id, seq)` is the key and an insert over an
existing row fails the job, rolling it back.
"""

from __future__ import annotations

from ..engine.events import Event, chain_hash, event_to_json
from ..engine.store import Row, merged_meta
from ..errors import StoreError
from .db import Tx, Writes

__all__ = ["TableRecord"]


class TableRecord:
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self._meta: dict[str, str] = {}
        self._rows: list[Row] | None = []
        self._pending_meta: dict[str, str] = {}
        self._pending: list[tuple[Event, str, str]] = []
        self._last = ""

    # ---- EventStore ------------------------------------------------------------------------------

    def begin(self, meta: dict[str, str]) -> None:
        """A new record; refused for a table whose record holds one (`load` first)."""
        if self._meta or self._rows or self._pending:
            raise StoreError(f"table {self.table_id} holds a record already: restore it to continue it")
        self.write_meta(meta)

    def write_meta(self, meta: dict[str, str]) -> None:
        meta = merged_meta(self._meta, meta, f"table {self.table_id}")
        self._meta |= meta
        self._pending_meta |= meta

    def read_meta(self) -> dict[str, str]:
        return dict(self._meta)

    def append(self, event: Event) -> None:
        text = event_to_json(event)
        self._last = chain_hash(self._last, text)
        self._pending.append((event, text, self._last))

    def rows(self, since: int = 0) -> list[Row]:
        """The rows as loaded (`load`); the engine's `restore` reads them once, then `drop_rows`
        drops them (game recall reads the database: `holds.Holds.rounds`)."""
        if self._rows is None:
            raise StoreError(f"table {self.table_id}: the record is read from the database, not kept in memory")
        return self._rows[since:]

    def close(self) -> None:
        pass

    # ---- the database side -----------------------------------------------------------------------

    def load(self, tx: Tx) -> bool:
        """Reads the table's record; False when the database holds none."""
        meta = tx.all("SELECT key, value FROM table_meta WHERE table_id = ?", (self.table_id,))
        self._meta = {str(k): str(v) for k, v in meta}
        found = tx.all("SELECT body, chain FROM table_events WHERE table_id = ? ORDER BY seq", (self.table_id,))
        self._rows = [Row(text, chain) for text, chain in found]
        self._last = self._rows[-1].chain if self._rows else ""
        return bool(self._rows)

    def drop_rows(self) -> None:
        """The table is restored: the rows read for it are let go."""
        self._rows = None

    def pending_events(self) -> list[Event]:
        """The events appended since the last flush (or `take`)."""
        return [e for e, _, _ in self._pending]

    @property
    def dirty(self) -> bool:
        return bool(self._pending or self._pending_meta)

    def flush(self, tx: Tx) -> int:
        """Writes the pending meta data and events; returns how many events."""
        writes = self.take()
        for sql, rows in writes:
            tx.many(sql, rows)
        return len(writes[-1][1])

    def take(self) -> Writes:
        """The pending meta data and events as statements and rows (`Database.write`), no longer
        pending: the caller writes them, or restores the table when that fails."""
        writes: Writes = []
        if self._pending_meta:
            writes.append(("DELETE FROM table_meta WHERE table_id = ?", [(self.table_id,)]))
            meta = [(self.table_id, k, v) for k, v in self._meta.items()]
            writes.append(("INSERT INTO table_meta VALUES (?, ?, ?)", meta))
        rows = [(self.table_id, e.seq, e.round, e.kind, e.seat, text, chain) for e, text, chain in self._pending]
        writes.append(("INSERT INTO table_events VALUES (?, ?, ?, ?, ?, ?, ?)", rows))
        self._pending_meta, self._pending = {}, []
        return writes
