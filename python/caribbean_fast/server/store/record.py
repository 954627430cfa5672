"""One table's record inside the server's database: the engine's `EventStore` interface, written
in the group commits of `db.Database`.

The engine appends each command's events; here `append` only keeps them pending, and the
table's owner writes the pending events (`flush`, `take`) in the same database job as whatever
else the command moved (a wallet), so the answer to a command goes out only once its events are
committed.

The rules of the record (`table_log`, schema.py):

- A row holds the events of one commit of the table (a command's), in order, as one JSON array
  of their texts (each as `event_to_json` writes it), with one chain hash over the array's text
  and the hash of the row before (`chain_hash`): changing an event of a row, or removing or
  reordering rows, breaks the chain. Its `seq` is its first event's.
- A row's `round` is its place in the record: its events' round, or, for events after a round's
  close and before the next one opens, the next round's number (the engine numbers them with
  the round closed). A commit whose events close a round and go on past it is two rows, one a
  place. So every row a table could write next, whatever the command, has the same place
  `(round, seq)`; `(table_id, round, seq)` is unique, and a second writer's row there (a process
  that lost the table's lease) fails the job, rolling it back. Rows are never overwritten or
  changed.
- `dealt` is the seats dealt cards in the row (a bit each: 1 << seat), `funds` is 1 where the
  row holds a `funds` event: game recall and the books find their rows by them without reading
  the text. Like the place, the audit does not cover them; readers take the events from the text.
- The text is kept deflated (`pack`: zlib at its fastest, 12 us a row here; 900 bytes of JSON
  take 350), and a command writes 3.7 KB to the disk where it wrote 5.2 (its row goes twice: to
  the WAL, then the file; docs/benchmarks.md). The chain hash and the audit cover the text
  itself, and every reader reads it through `unpack`.
- A record written before rows were a command's holds a row per event (an object, not an array:
  `schema.MIGRATE` moved them here as they were, the text undeflated, the round their place);
  its new rows follow it on one chain. `engine.store.Row.events` reads both.
"""

from __future__ import annotations

import bisect
import json
import zlib
from collections.abc import Sequence
from typing import Any, Protocol

from ...engine.events import Event, chain_hash, events_to_json
from ...engine.store import Row, merged_meta
from ...errors import StoreError
from .schema import Tx, Writes

__all__ = ["INSERT", "Summary", "TableRecord", "events_in", "pack", "place", "unpack"]

INSERT = "INSERT INTO table_log VALUES (?, ?, ?, ?, ?, ?, ?)"
"""A row of `table_log`: table_id, round (its place), seq, dealt, funds, chain, body."""


WINDOW = 12
"""zlib's window for a row: 4 KiB, as much as a row's text holds (a larger one costs time to set
up for every row, and deflates a row no smaller)."""


def pack(text: str) -> bytes:
    """A row's text as stored: deflated (zlib's format, at its fastest level), in one call (the
    same stream as a compressor object and its flush, a few percent sooner: deflate's own work,
    about 13 us for a command's 880 bytes here, is nearly all of it)."""
    return zlib.compress(text.encode(), 1, WINDOW)


def unpack(body: str | bytes | memoryview) -> str:
    """A row's text from its `body`: deflated (`pack`), or the text itself (the rows of a record
    written before), as text or as bytes (PostgreSQL's column). A zlib stream never starts with
    `{` or `[`. StoreError for a body that is neither."""
    if isinstance(body, str):
        return body
    raw = bytes(body)
    try:
        return (raw if raw[:1] in (b"{", b"[") else zlib.decompress(raw)).decode()
    except (zlib.error, UnicodeDecodeError) as err:
        raise StoreError(f"a row that cannot be read: {type(err).__name__}: {err}") from None


def events_in(body: str | bytes | memoryview) -> list[dict[str, Any]]:
    """The events of a row (its `body`) as JSON objects, in order: a row of a command's events
    (an array) or, written before those, of one event (an object)."""
    found = json.loads(unpack(body))
    return found if isinstance(found, list) else [found]


def place(event: Event, opened: int | None) -> int:
    """The place (`round`) of the row holding `event`, when the round open before it is `opened`
    (None: none is open): its round, or the next after a round's close."""
    return event.round if event.kind == "round_opened" or event.round == opened else event.round + 1


class Summary(Protocol):
    """What a table's commits keep beside its record, for reads that must not scan it
    (`jackpots.Summary`)."""

    def rows(self, events: Sequence[Event]) -> Writes:
        """The rows `events` (the record's next, in order) add, in statements of a fixed order."""
        ...


class TableRecord:
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.summary: Summary | None = None  # its rows go with each take, in the same transaction
        self.figures: Summary | None = None  # the office's counters (`figures`), the same way
        self._meta: dict[str, str] = {}
        self._rows: list[Row] | None = []
        self._firsts: list[int] = []  # each loaded row's first seq
        self._pending_meta: dict[str, str] = {}
        self._pending: list[tuple[Event, int]] = []  # event, place
        self._last = ""
        self._opened: int | None = None  # the round open after the last event appended

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

    def append(self, events: Sequence[Event]) -> None:
        """A command's events, pending until `take` writes them in rows of a place each."""
        for event in events:  # written at `take`, a row's events at once (`events_to_json`)
            self._pending.append((event, place(event, self._opened)))
            if event.kind == "round_opened":
                self._opened = event.round
            elif event.kind == "round_closed":
                self._opened = None

    def rows(self, since: int = 0) -> list[Row]:
        """The rows as loaded (`load`), from the one holding event `since` on; the engine's
        `restore` reads them once, then `drop_rows` drops them (game recall reads the database:
        `holds.Holds.rounds`)."""
        if self._rows is None:
            raise StoreError(f"table {self.table_id}: the record is read from the database, not kept in memory")
        return self._rows[max(0, bisect.bisect_right(self._firsts, since) - 1) :]

    def close(self) -> None:
        pass

    # ---- the database side -----------------------------------------------------------------------

    def load(self, tx: Tx) -> bool:
        """Reads the table's record; False when the database holds none."""
        meta = tx.all("SELECT key, value FROM table_meta WHERE table_id = ?", (self.table_id,))
        self._meta = {str(k): str(v) for k, v in meta}
        found = tx.all("SELECT seq, body, chain FROM table_log WHERE table_id = ? ORDER BY seq", (self.table_id,))
        self._rows = [Row(unpack(body), chain) for _, body, chain in found]
        self._firsts = [int(seq) for seq, _, _ in found]
        self._last = self._rows[-1].chain if self._rows else ""
        self._opened = _opened(self._rows)
        return bool(self._rows)

    def drop_rows(self) -> None:
        """The table is restored: the rows read for it are let go."""
        self._rows, self._firsts = None, []

    def pending_events(self) -> list[Event]:
        """The events appended since the last flush (or `take`)."""
        return [e for e, _ in self._pending]

    @property
    def dirty(self) -> bool:
        return bool(self._pending or self._pending_meta)

    def flush(self, tx: Tx) -> int:
        """Writes the pending meta data and events; returns how many events."""
        events = len(self._pending)
        for sql, rows in self.take():
            tx.many(sql, rows)
        return events

    def take(self) -> Writes:
        """The pending meta data and events as statements and rows (`Database.write`), no longer
        pending: the caller writes them, or restores the table when that fails. The events are a
        row per round they belong to (one, but for a commit that closes a round and goes on)."""
        writes: Writes = []
        if self._pending_meta:
            writes.append(("DELETE FROM table_meta WHERE table_id = ?", [(self.table_id,)]))
            meta = [(self.table_id, k, v) for k, v in self._meta.items()]
            writes.append(("INSERT INTO table_meta VALUES (?, ?, ?)", meta))
        rows: list[tuple[Any, ...]] = []
        start = 0
        pending = self._pending
        for k in range(1, len(pending) + 1):
            if k == len(pending) or pending[k][1] != pending[start][1]:
                rows.append(self._row(pending[start:k]))
                start = k
        writes.append((INSERT, rows))
        events = [e for e, _ in pending]
        for summary in (self.summary, self.figures):
            if summary is not None:
                writes += summary.rows(events)
        self._pending_meta, self._pending = {}, []
        return writes

    def _row(self, events: Sequence[tuple[Event, int]]) -> tuple[Any, ...]:
        text = events_to_json([e for e, _ in events])
        self._last = chain_hash(self._last, text)
        dealt = funds = 0
        for e, _ in events:
            if e.kind == "dealt" and e.seat is not None:
                dealt |= 1 << e.seat
            elif e.kind == "funds":
                funds = 1
        first, where = events[0]
        return (self.table_id, where, first.seq, dealt or None, funds or None, self._last, pack(text))


def _opened(rows: list[Row]) -> int | None:
    """The round open at the record's end (None: none), from its last opening or close. A row
    that is not one is left to the restore's audit to name."""
    for row in reversed(rows):
        try:
            events = row.events
        except StoreError:
            return None
        for e in reversed(events):
            if e.kind == "round_opened":
                return e.round
            if e.kind == "round_closed":
                return None
    return None
