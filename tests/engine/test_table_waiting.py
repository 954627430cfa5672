"""Nothing decided or told silently (issue 42): a one-seat round waits for its player, a round left
open past its limit is completed by the host's best strategy or void, every automatic decision
says so, and game 3's other seats learn that a seat decided, never what."""

from __future__ import annotations

import pytest
from tables import Clock, rig, stacked_deck

from caribbean_fast import IllegalActionError, load_variant
from caribbean_fast.engine import MemoryStore, Phase, Table, audit, restore
from caribbean_fast.variants.model import DAY

JACKS = stacked_deck(["Jc Jd 2h 5s 9c"], "Ac Kh 8s 5h Qs")


def table(name: str, clock: Clock, **kw: object) -> Table:
    t = Table(load_variant(name), clock=clock, **kw)  # type: ignore[arg-type]
    t.sit(0, "ann", 10_000)
    return t


def test_a_lost_connection_never_decides_a_one_seat_round(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, JACKS)
    clock = Clock()
    t = table("cyberstud", clock)
    t.ante(0, 100)
    t.deal()
    t.away(0, stand_after=1)
    clock.advance(DAY - 1)  # idle, away, past its stand-up time: the hand is still there
    t.tick()
    assert t.phase is Phase.DECIDING and t.undecided() == [0] and t.holder(0) is not None
    assert t.view(0).cards == ("Jc", "Jd", "2h", "5s", "9c") and t.view(0).actions == ("raise", "fold")
    assert t.balance(0) == 9_900 and t.overdue() == []
    t.back(0)
    t.raise_(0)
    result = t.view(0).result
    assert result is not None and result["auto"] is False


def test_a_round_left_open_past_its_limit_is_completed_by_the_hosts_decision() -> None:
    clock = Clock()
    store = MemoryStore()
    t = table("atlantic-city", clock, store=store, seed=42)
    t.ante(0, 500)
    t.deal()
    t.disconnect(0)
    with pytest.raises(IllegalActionError, match="no round left open past its limit"):
        t.complete(0, "raise")
    clock.advance(DAY)
    assert t.overdue() == [0]
    with pytest.raises(IllegalActionError, match="by raise or fold, not 'exchange'"):
        t.complete(0, "exchange")
    t.complete(0, "raise")
    decided = next(e for e in t.events if e.kind == "decided")
    assert decided.public["decision"] == "raise" and decided.public["auto"] is True  # the record says so
    result = t.view(0).result
    assert result is not None and result["auto"] is True and result["outcome"]["decision"] == "raise"
    steps = t.history(0, 1)[0]
    assert [s["auto"] for s in steps if s["kind"] == "decided"] == [True]  # and the history
    assert audit(store).ok and restore(store).view(0).result == result  # replays to the same


def test_holdem_waits_a_day_then_voids_and_an_idle_session_ends_between_rounds() -> None:
    clock = Clock()
    t = table("casino-holdem", clock)
    t.ante(0, 500)
    t.deal()
    clock.advance(900)  # the idle session's limit: the dealt round waits
    t.tick()
    assert t.phase is Phase.DECIDING and t.overdue() == []  # hold'em voids: nothing to complete
    clock.advance(DAY - 900)
    t.tick()
    assert t.view(0).phase is Phase.SETTLED and t.view(0).void and t.balance(0) == 10_000
    clock.advance(900)
    t.tick()
    assert t.view(0).phase is Phase.CLOSED


def test_restore_keeps_a_waiting_round_and_an_old_record_replays_by_its_own_rules() -> None:
    for edition, voided in ((2, False), (1, True)):
        store = MemoryStore()
        t = table("casino-holdem", Clock(), store=store, edition=edition)
        if edition == 1:
            store.meta.pop("edition")  # a record written before editions
        t.ante(0, 500)
        t.deal()
        again = restore(store)
        assert again.phase is (Phase.SETTLED if voided else Phase.DECIDING) and again.edition == edition
        assert again.balance(0) == (10_000 if voided else 9_500) and audit(store).ok


def test_an_old_record_whose_disconnect_folded_still_audits() -> None:
    store = MemoryStore()
    t = table("cyberstud", Clock(), store=store, edition=1)
    store.meta.pop("edition")
    t.ante(0, 100)
    t.deal()
    t.disconnect(0)  # the first edition's rule: high card or not, the hand folds
    assert t.phase is Phase.SETTLED and audit(store).ok and restore(store).phase is Phase.SETTLED


def test_game3_seats_learn_that_another_decided_never_what(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc", "2c 7d 9h Jc As"], "Ac Kh 8s 5h Qs"))
    clock = Clock()
    t = Table(load_variant("network-24h"), seats=2, clock=clock)
    for k, name in enumerate(("ann", "bob")):
        t.sit(k, name, 5_000)
        t.ante(k, 100)
    t.deal()
    t.raise_(1)  # ace high, raised by hand; seat 0 times out below
    seen = next(o for o in t.view(0).others if o.seat == 1)
    assert seen.decided and seen.bets.raise_ == 0 and seen.bets.ante == 100  # the raise not shown
    clock.advance(20)
    t.tick()  # seat 0's pair raises automatically
    assert [(s.decision, s.auto) for s in t.state.seats] == [("raise", True), ("raise", False)]
    for me, other in ((0, 1), (1, 0)):
        steps = t.history(me, 1)[0]
        theirs = [s for s in steps if s.get("seat") == other]
        assert "decided" in {s["kind"] for s in theirs}  # that it decided
        assert not {s["kind"] for s in theirs} & {"raise", "fold", "tick", "exchange", "complete"}
        assert not any(set(s) & {"decision", "auto", "outcome", "net", "hand", "cards"} for s in theirs)
        mine = t.view(me).result
        assert mine is not None and mine["auto"] is (me == 0)  # each is told whether its own was
