"""A table's variant changed between rounds (`change_variant`): taken only at a round boundary,
refused mid-round with nothing changed, and recorded so that restore, replay and the audit play
every round, before and after the change, under the text it was played with."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from caribbean_fast.engine import MemoryStore, SqliteStore, Table, audit, restore
from caribbean_fast.engine.events import event_to_json
from caribbean_fast.engine.paytable import variant_hash
from caribbean_fast.errors import ArgumentError, IllegalActionError
from caribbean_fast.hands import HandClass
from caribbean_fast.variants import Currency, Variant, load_variant
from caribbean_fast.variants.model import OutOfRange
from caribbean_fast.variants.toml_io import to_toml


def richer(minimum: int = 500) -> Variant:
    """Cyberstud with two pair paying 3, and an ante below `minimum` raised to it."""
    base = load_variant("cyberstud")
    pays = dict(base.raise_paytable) | {HandClass.TWO_PAIR: base.raise_paytable[HandClass.TWO_PAIR] + 1}
    limits = (replace(base.limits[0], minimum=minimum, below_minimum=OutOfRange.ADJUST),)
    return replace(base, name="cyberstud-rich", raise_paytable=pays, limits=limits)


def played(table: Table, rounds: int, ante: int = 500) -> None:
    for _ in range(rounds):
        table.ante(0, ante)
        table.deal()
        table.raise_(0)


def test_the_change_takes_effect_between_rounds() -> None:
    table = Table("cyberstud", seed=3, store=MemoryStore())
    table.deposit(0, 100_000)
    played(table, 2)
    events = table.change_variant(richer(1000))
    assert [e.kind for e in events] == ["change_variant", "variant_changed"]
    digest = variant_hash(to_toml(richer(1000)))
    assert events[1].public == {"variant": "cyberstud-rich", "hash": digest, "was": "cyberstud"}
    assert table.variant == richer(1000) and table.limits.minimum == 1000
    table.ante(0, 500)  # below the new minimum: adjusted to it, as the new variant's limits say
    assert table.state.seats[0].bets.ante == 1000
    assert table.view(0).actions == ("ante", "progressive", "clear", "deal")


@pytest.mark.parametrize("stage", ["bet", "dealt"])
def test_refused_mid_round_changing_nothing(stage: str) -> None:
    table = Table("cyberstud", seed=3)
    table.deposit(0, 100_000)
    table.ante(0, 500)
    if stage == "dealt":
        table.deal()
    seq, before = table.seq, table.view(0)
    with pytest.raises(IllegalActionError, match="round 1 is open: the variant changes between rounds"):
        table.change_variant(richer())
    assert not table.can_change_variant()
    assert (table.seq, table.variant.name, table.view(0)) == (seq, "cyberstud", before)


@pytest.mark.parametrize(
    ("variant", "why"),
    [
        (load_variant("casino-holdem"), "casino-holdem is a game of holdem in EUR, not stud in USD"),
        (replace(richer(), currency=Currency("EUR")), "cyberstud-rich is a game of stud in EUR, not stud in USD"),
    ],
)
def test_a_variant_the_table_cannot_take_is_refused(variant: Variant, why: str) -> None:
    table = Table("cyberstud", seed=3)
    seq = table.seq
    with pytest.raises(ArgumentError, match=why):
        table.change_variant(variant)
    assert (table.seq, table.variant.name) == (seq, "cyberstud")


def test_a_text_that_is_not_its_hash_is_refused() -> None:
    table = Table("cyberstud", seed=3)
    text = to_toml(richer())
    with pytest.raises(ArgumentError, match="does not match its SHA-256"):
        table.execute("change_variant", {"sha256": variant_hash(text), "text": text.replace("= 3", "= 4")})
    with pytest.raises(ArgumentError, match="the variant's text"):
        table.execute("change_variant", {"sha256": variant_hash("x = "), "text": "x = "})
    assert (table.seq, table.variant.name) == (1, "cyberstud")


def test_restore_replay_and_audit_across_the_change(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with SqliteStore(path) as store:
        table = Table("cyberstud", seed=11, store=store)
        table.deposit(0, 1_000_000)
        played(table, 30)
        table.change_variant(richer(1000))
        played(table, 30, ante=1000)
        money = (table.balance(0), table.house, table.meter)
    with SqliteStore(path, mode="read") as store:
        report = audit(store)
        assert (report.ok, report.rounds, report.settled, report.void) == (True, 60, 60, 0)
        recorded = [e for row in store.rows() for e in row.events]
    changed = [e for e in recorded if e.kind == "variant_changed"]
    assert [(e.round, e.public["variant"]) for e in changed] == [(30, "cyberstud-rich")]
    with SqliteStore(path, mode="continue") as store:
        again = restore(store)
        assert again.variant == richer(1000) and again.limits.minimum == 1000
        assert (again.balance(0), again.house, again.meter) == money
        played(again, 1, ante=1000)  # the restored table plays on under the new variant
        assert audit(store).ok


def test_settlement_follows_the_new_paytable() -> None:
    """The same deals under each variant: the rounds that differ are exactly the two pairs raised
    against a qualifying dealer, each paying one more raise."""
    old, new = Table("cyberstud", seed=5), Table("cyberstud", seed=5)
    for t in (old, new):
        t.deposit(0, 10_000_000)
        played(t, 1)
    new.change_variant(richer())
    played(old, 200)
    played(new, 200)
    settled = [[e for e in t.events if e.kind == "settled" and e.round > 1] for t in (old, new)]
    gained = [b.public["net"]["total"] - a.public["net"]["total"] for a, b in zip(*settled, strict=True)]
    outcomes = [a.public["outcome"] for a in settled[0]]
    two_pairs = [o["hand_class"] == "two_pair" and o["dealer_qualifies"] and o["showdown"] == "win" for o in outcomes]
    assert gained == [1000 if won else 0 for won in two_pairs]
    assert sum(two_pairs) > 0


def test_records_without_a_change_replay_as_before() -> None:
    """A record from before the command, edition 1 included, replays event for event."""
    for edition in (1, 4):
        store = MemoryStore()
        table = Table("cyberstud", seed=2, store=store, edition=edition)
        table.deposit(0, 100_000)
        played(table, 5)
        written = [event_to_json(e) for e in table.recorded()]
        again = restore(store)
        assert [event_to_json(e) for e in again.recorded()][: len(written)] == written
        assert again.variant.name == "cyberstud" and audit(store).ok
