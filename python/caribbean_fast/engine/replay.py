"""Restoring a table from its record, and auditing a record.

Both run the recorded commands again on a fresh table, with the recorded times and server
seeds, and hold every event the table emits to the recorded one: a record that a table did not
write (a changed amount, a changed card, a seed that does not match its commitment) fails,
naming the first round at fault. Events missing at the very end belong to a command that a crash
cut off; the replay has derived them again and `restore` writes them.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import ArgumentTypeError, AuditError, CaribbeanFastError, StoreError, VariantError
from ..variants.toml_io import from_dict
from .accounts import AccountBook
from .core import Clock, utc_now
from .events import Event, chain_hash, event_to_json
from .shuffle import SecureSeeds, SeededSeeds, SeedSource, commitment
from .store import EventStore, Row
from .table import Table

__all__ = ["AuditReport", "audit", "restore", "table_config", "verified"]


class _RecordedSeeds:
    """The server seeds the record holds, round by round; fresh ones after its end."""

    def __init__(self, events: list[Event], fallback: SeedSource) -> None:
        self.recorded = {e.round: bytes.fromhex(e.secret["seed"]) for e in events if e.kind == "round_opened"}
        self.fallback = fallback

    def __call__(self, round_number: int) -> bytes:
        return self.recorded.get(round_number) or self.fallback(round_number)


class _RecordedPool:
    """The shared pool as each recorded showdown read it (its `pool` event, which brought the
    table's meter to it): the pool is outside the table, so its replay reads the record. A
    showdown with no `pool` event found the pool at the table's own meter (None: it stands)."""

    def __init__(self, events: list[Event]) -> None:
        self.read = {e.round: int(e.public["meter"]) for e in events if e.kind == "pool"}
        self.table: Table | None = None

    def meter(self) -> int | None:
        return None if self.table is None else self.read.get(self.table.round)


def table_config(meta: dict[str, str]) -> dict[str, Any]:
    """The variant, seats, limits, seed and accounts a store's meta data records; StoreError in
    one line for meta data a table did not write."""
    if "variant" not in meta:
        raise StoreError("the store holds no table (no variant in its meta data)")
    try:
        seed = meta.get("seed", "None")
        accounts = json.loads(meta["accounts"]) if "accounts" in meta else None
        if accounts is not None and not (isinstance(accounts, list) and all(isinstance(a, str) for a in accounts)):
            raise ValueError("accounts must be a list of names")
        return {
            "variant": from_dict(tomllib.loads(meta["variant"])),
            "seats": int(meta["seats"]),
            "limits": int(meta["limits"]),
            "seed": None if seed == "None" else int(seed),
            "accounts": accounts,
            "edition": int(meta.get("edition", "1")),  # a record from before editions: the first
        }
    except VariantError as err:
        raise StoreError(f"malformed meta data: the recorded variant: {err}") from None
    except KeyError as err:
        raise StoreError(f"malformed meta data: no {err.args[0]!r}") from None
    except (ValueError, TypeError, RecursionError) as err:  # tomllib, json and int errors are ValueErrors
        raise StoreError(f"malformed meta data: {type(err).__name__}: {err}".partition("\n")[0]) from None


def _check_chain(rows: list[Row]) -> list[Event]:
    """The rows' events, in order, once every row's hash holds: each covers the row's text (one
    event, or a command's events) and the hash before, whichever shape each row has, so a record
    whose rows of one event go on in rows of a command checks as one chain."""
    previous = ""
    for i, row in enumerate(rows):
        if chain_hash(previous, row.text) != row.chain:
            raise AuditError(_round_of(row), f"row {i} does not match its hash: changed, removed or reordered")
        previous = row.chain
    return [e for row in rows for e in row.events]


def _round_of(row: Row) -> int | None:
    """The round a row's command played in (its last event's: a command may close a round and
    stand a seat up, or open a round after events between rounds)."""
    try:
        return row.events[-1].round
    except StoreError:
        return None


def _check_seeds(events: list[Event]) -> None:
    seeds: dict[int, str] = {}
    for e in events:
        if e.kind == "round_opened":
            seeds[e.round] = e.secret["seed"]
            if commitment(bytes.fromhex(e.secret["seed"])) != e.public["commitment"]:
                raise AuditError(e.round, "the server seed does not match the commitment made before the deal")
        if e.kind == "revealed" and e.public["seed"] != seeds.get(e.round):
            raise AuditError(e.round, "the seed revealed is not the seed committed")


def _same(produced: list[Event], recorded: list[Event], at: int) -> int:
    for event in produced:
        if at < len(recorded) and event_to_json(event) != event_to_json(recorded[at]):
            raise AuditError(
                recorded[at].round, f"event {at} ({recorded[at].kind}) is not what the table does on replay"
            )
        at += 1
    return at


def replay(
    meta: dict[str, str], events: list[Event], clock: Clock | None = None, book: AccountBook | None = None
) -> tuple[Table, int]:
    """The table the record describes, and how many of its events the record holds (the table
    may hold more: the rest of a command cut off at the end). The replay reads the personal
    limits from the record; `book` is what the table reads from afterwards. A record whose
    chain holds but whose rows a table could not have written is an AuditError, never a crash."""
    try:
        return _replay(meta, events, clock, book)
    except CaribbeanFastError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as err:
        raise AuditError(None, f"a malformed record: {type(err).__name__}: {err}") from None


def _replay(
    meta: dict[str, str], events: list[Event], clock: Clock | None, book: AccountBook | None
) -> tuple[Table, int]:
    config = table_config(meta)
    fallback = SeededSeeds(config["seed"]) if config["seed"] is not None else SecureSeeds()
    first: datetime = events[0].time if events else (clock or utc_now)()
    pool = _RecordedPool(events)
    table = Table(
        config["variant"],
        seats=config["seats"],
        limits=config["limits"],
        seed=config["seed"],
        seeds=_RecordedSeeds(events, fallback),
        clock=lambda: first,
        book=book,
        accounts=config["accounts"],
        edition=config["edition"],
        pool=pool,
    )
    pool.table = table
    at = _same(table.events, events, 0)
    while at < len(events):
        command = events[at]
        if not command.is_command:
            raise AuditError(command.round, f"event {at} ({command.kind}) follows no command")
        with table.clock_at(command.time):
            try:
                produced = table.execute(command.kind, dict(command.public["args"]))
            except CaribbeanFastError as err:
                raise AuditError(command.round, f"command {at} ({command.kind}) is refused on replay: {err}") from None
        if not produced:
            raise AuditError(command.round, f"command {at} ({command.kind}) does nothing on replay")
        at = _same(produced, events, at)
    table.clock = clock or utc_now
    table.pool = None  # the record's pool is read no further: whoever serves the table binds its own
    return table, len(events)


def _check_store(store: object, what: str) -> None:
    """A path is the likeliest mistake: the store is opened by the caller, who chooses its mode."""
    if not callable(getattr(store, "rows", None)):
        given = f"{type(store).__name__} {store!r:.60}"
        raise ArgumentTypeError(f"{what} takes an event store such as SqliteStore(path, mode='read'), not {given}")


def restore(store: EventStore, clock: Clock | None = None, book: AccountBook | None = None) -> Table:
    """The table as its store left it; a command cut off by a crash is completed, then the open
    round goes on or is void by the variant's rule (`Timing.unfinished`). Pass the account book
    the table was playing with, if any."""
    _check_store(store, "restore")
    events = _check_chain(store.rows())
    table, held = replay(store.read_meta(), events, clock, book)
    if table.seq > held:  # the rest of a command cut off, as one row
        store.append(table.events[held:])
    table.store = store  # from here on the table keeps only its latest events in memory
    table.restored()
    return table


@dataclass(frozen=True)
class AuditReport:
    events: int
    rounds: int
    settled: int
    void: int
    cut_off: int  # events a crash kept from the record, derived again by the replay
    failure: str | None = None
    round: int | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        head = f"{self.events} events, {self.rounds} rounds ({self.settled} settled, {self.void} void)"
        if self.cut_off:
            head += f"; the last command was cut off ({self.cut_off} events to restore)"
        if self.failure is None:
            return f"OK: {head}"
        return f"FAILED at round {self.round}: {self.failure}" if self.round is not None else f"FAILED: {self.failure}"


def verified(store: EventStore) -> tuple[Table, list[Event]]:
    """The record's table replayed and its events, after every check of the audit (row hashes,
    seeds against commitments, every round replayed); AuditError or StoreError naming the first
    failure. The events are then exactly what a table writes, whoever else touched the store."""
    events = _check_chain(store.rows())
    try:
        _check_seeds(events)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise AuditError(None, f"a malformed record: {type(err).__name__}: {err}") from None
    table, _ = replay(store.read_meta(), events)
    return table, events


def audit(store: EventStore) -> AuditReport:
    """Checks the row hashes, every seed against its commitment, and replays every round."""
    _check_store(store, "audit")
    try:
        table, events = verified(store)
    except (AuditError, StoreError) as err:
        if isinstance(err, AuditError):
            return AuditReport(0, 0, 0, 0, 0, err.reason, err.round)
        return AuditReport(0, 0, 0, 0, 0, str(err))
    closed = Counter(bool(e.public.get("void")) for e in events if e.kind == "round_closed")
    rounds = sum(1 for e in events if e.kind == "round_opened")
    return AuditReport(len(events), rounds, closed[False], closed[True], table.seq - len(events))
