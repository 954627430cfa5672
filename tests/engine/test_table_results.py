"""Each bet's result is settled once (issue 43): from the rules' third edition the settled event
carries it and the views read it; a record of an earlier edition, without it, still replays,
audits and shows the same results; and views keep what they work out in their own cache, never
in the table's state."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from caribbean_fast import load_variant
from caribbean_fast.engine import MemoryStore, Table, audit, restore
from caribbean_fast.engine.core import EDITION
from caribbean_fast.engine.state import RoundState, SeatState, TableState


def _played(edition: int, store: MemoryStore | None = None) -> Table:
    """Game 3, two seats with the progressive, three rounds of seeded deals: one seat raises, one folds."""
    t = Table(load_variant("network-24h"), seats=2, seed=11, edition=edition, store=store)
    for k, name in enumerate(("ann", "bob")):
        t.sit(k, name, 50_000)
    for k in (0, 1):
        t.progressive(k, True)  # game 3's box stays ticked for the next rounds
    for _ in range(3):
        for k in (0, 1):
            t.ante(k, 100)
        t.deal()
        t.raise_(0)
        t.fold(1)
    return t


def _settled(t: Table) -> list[Mapping[str, Any]]:
    return [e.public for e in t.events if e.kind == "settled"]


def test_the_settled_event_carries_each_bets_result_and_the_view_reads_it() -> None:
    assert EDITION >= 3  # the fourth (seats' seeds, issue 46) keeps the third's settled events
    t = _played(EDITION)
    settled = _settled(t)
    assert len(settled) == 6 and all("bets" in s for s in settled)  # three rounds, two seats
    for k, titles in ((0, ["Ante", "Raise", "Progressive"]), (1, ["Ante", "Progressive"])):
        shown = t.view(k).result
        assert shown is not None
        mine = t.state.seats[k].results  # the last settled event of the seat
        assert mine is not None and mine in settled
        assert [{key: v for key, v in b.items() if key != "title"} for b in shown["bets"]] == mine["bets"]
        assert [b["title"] for b in shown["bets"]] == titles
        assert sum(b["net"] for b in shown["bets"]) == mine["net"]["total"] - mine["net"]["exchange_fees"]
    folded = t.view(1).result
    assert folded is not None and folded["bets"][0]["result"] == "lost"  # the ante, on a fold


def test_an_earlier_editions_record_replays_audits_and_shows_the_same_results() -> None:
    old, new = MemoryStore(), MemoryStore()
    before, now = _played(2, old), _played(EDITION, new)
    assert not any("bets" in s for s in _settled(before))  # written as the second edition wrote it
    for k in (0, 1):
        assert before.view(k).result == now.view(k).result  # derived again, the same words and odds
    for store, edition in ((old, 2), (new, EDITION)):
        assert audit(store).ok
        again = restore(store)
        assert again.edition == edition and _settled(again)[-2:] == _settled(before if edition == 2 else now)[-2:]
        assert [again.view(k).result for k in (0, 1)] == [now.view(k).result for k in (0, 1)]


def _rules_state(state: TableState) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return [dataclasses.asdict(s) for s in state.seats], dataclasses.asdict(state.round)


def test_views_leave_the_state_as_the_events_made_it() -> None:
    store = MemoryStore()
    t = _played(EDITION, store)
    untouched = _rules_state(t.state)
    for seat in (0, 1, None):
        view = t.view(seat)
        assert view.commitment and (seat is None or view.proof is not None)
    assert _rules_state(t.state) == untouched  # the proofs, the results and the root are the views' own
    assert _rules_state(restore(store).state) == untouched  # the table its record restores, views or none
    names = {f.name for f in (*dataclasses.fields(SeatState), *dataclasses.fields(RoundState))}
    assert not names & {"result_shown", "proof_shown", "leaves", "root"}
