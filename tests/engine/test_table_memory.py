"""A table with a store keeps only its latest events in memory, however long it plays; game
recall, restore and the audit read the store and answer exactly as a table keeping every event."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from tables import START, Clock

from caribbean_fast.engine import SqliteStore, Table, audit, restore
from caribbean_fast.engine.core import KEEP
from caribbean_fast.variants import load_variant

ROUNDS = 120


def play(table: Table, clock: Clock, rounds: int) -> int:
    """Plays `rounds` rounds at seats 0 and 1 (seat 1 sits out every third); returns the most
    events the table held in memory at any point."""
    most = len(table.events)
    for n in range(rounds):
        for seat in (0, 1) if n % 3 else (0,):
            table.ante(seat, table.limits.minimum)
            clock.advance(1)
        table.deal()
        for seat in table.undecided():
            (table.raise_ if (n + seat) % 2 else table.fold)(seat)
            clock.advance(1)
        most = max(most, len(table.events))
    return most


def twins(tmp_path: Path) -> tuple[Table, Table, SqliteStore]:
    """The same table twice, on the same seed and clock: one with a store, one without."""
    variant, store = load_variant("network-24h"), SqliteStore(tmp_path / "t.db")
    tables = []
    for s in (store, None):
        clock = Clock()
        table = Table(variant, seats=2, seed=7, clock=clock, store=s)
        for seat in (0, 1):
            table.deposit(seat, 10**9)
        tables.append((table, play(table, clock, ROUNDS)))
    (stored, most), (whole, _) = tables
    assert most <= 2 * 40 < KEEP  # the latest round and what follows it, never the past
    assert whole.seq == len(whole.events) == stored.seq > 40 * ROUNDS / 10
    return stored, whole, store


def same(a: object, b: object) -> bool:
    """Equal as the JSON a client gets (the store's rows hold the keys sorted)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.slow
def test_memory_is_bounded_and_recall_reads_the_store(tmp_path: Path) -> None:
    stored, whole, store = twins(tmp_path)
    assert stored.events == whole.events[-len(stored.events) :]
    assert stored.events[0].kind == "round_opened" and stored.events[0].round == ROUNDS
    for seat, last in ((0, 10), (1, 7), (1, ROUNDS)):
        assert same(stored.history(seat, last), whole.history(seat, last))
    assert len(stored.history(1, ROUNDS)) == ROUNDS - len(range(0, ROUNDS, 3))
    assert [r[0]["round"] for r in stored.history(0, 3)] == [ROUNDS - 2, ROUNDS - 1, ROUNDS]
    assert [e.seq for e in stored.recorded(100)] == list(range(100, whole.seq))  # read from event 100 on
    store.close()


@pytest.mark.slow
def test_restore_and_audit_read_the_whole_record(tmp_path: Path) -> None:
    _, whole, store = twins(tmp_path)
    store.close()
    report = audit(SqliteStore(tmp_path / "t.db", mode="read"))
    assert report.ok and report.events == whole.seq and report.rounds == ROUNDS
    again = restore(SqliteStore(tmp_path / "t.db"), Clock(START + timedelta(hours=1)))  # after the record
    assert [e.kind for e in again.recorded()[whole.seq :]][:1] == ["restore"]  # the record was whole
    assert len(again.events) <= 2 * 40
    assert same(again.history(1, 5), whole.history(1, 5))
    assert again.balance(0) == whole.balance(0) and again.house == whole.house
    assert again.store is not None
    again.store.close()


def test_the_tables_of_a_variant_share_one_memory_of_pays() -> None:
    """A thousand tables of one's own keep one memory of what each outcome paid, not a thousand;
    a table whose paytable changes keeps the new variant's."""
    variant = load_variant("cyberstud")
    first, second = (Table(variant, seed=s) for s in (1, 2))
    for t in (first, second):
        t.deposit(0, 10**6)
        for _ in range(5):
            t.ante(0, t.limits.minimum)
            t.deal()
            t.raise_(0)
    assert first._pays is second._pays and first._pays
    assert Table(replace(variant), seed=3)._pays is first._pays  # an equal variant read again: a restored table's
    changed = replace(variant, name="cyberstud-changed")
    first.change_variant(changed)
    assert first._pays is not second._pays
