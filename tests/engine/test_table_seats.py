"""The engine owns the seats and what each person sees: sitting and leaving with the account, a
seat stood up after its holder stayed away, a holder shown only its own rounds, game 3's betting
window and privacy, and each seat's fairness proof, which opens only what it was shown."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from tables import Clock, rig, stacked_deck

from caribbean_fast import load_variant
from caribbean_fast.cards import card_text
from caribbean_fast.engine import Phase, Table, audit
from caribbean_fast.engine.events import Event
from caribbean_fast.engine.fairness import opening, verify
from caribbean_fast.engine.store import MemoryStore
from caribbean_fast.engine.views import SeatView
from caribbean_fast.errors import IllegalActionError
from caribbean_fast.words.views import hand_words


def game3(clock: Clock | None = None, seats: int = 4) -> Table:
    return Table(load_variant("network-24h"), seats=seats, seed=7, clock=clock or Clock(), store=MemoryStore())


def test_sitting_and_leaving_are_events_with_the_account() -> None:
    t = game3()
    sat = t.sit(1, "ann", 5_000)
    assert [e.kind for e in sat] == ["sit", "seated", "funds"] and sat[1].public == {"account": "ann", "since": 1}
    assert t.holder(1) == "ann" and t.free_seats() == [0, 2, 3] and t.balance(1) == 5_000
    with pytest.raises(IllegalActionError, match="seat 2 is not free"):
        t.sit(1, "bob", 100)
    t.ante(1, 100)
    left = t.leave(1)  # its bets not yet dealt come back, then the money leaves the table
    stood = left[-1]
    assert [e.kind for e in left] == ["leave", "bets", "funds", "stood"]
    assert stood.public == {"account": "ann", "reason": "left", "returned": 5_000, "until": 1}
    assert t.holder(1) is None and 1 in t.free_seats() and t.balance(1) == 0
    assert audit(t.store).ok  # type: ignore[arg-type]


def test_a_hand_in_play_keeps_its_seat() -> None:
    t = game3()
    t.sit(0, "ann", 5_000)
    t.ante(0, 100)
    t.deal()
    with pytest.raises(IllegalActionError, match="your hand is in play"):
        t.leave(0)


def test_a_seat_away_too_long_is_stood_up_between_rounds_with_its_money() -> None:
    clock = Clock()
    t = game3(clock)
    t.sit(0, "ann", 5_000)
    t.sit(1, "bob", 5_000)
    t.ante(0, 100)
    t.ante(1, 100)
    t.deal()
    t.away(0, stand_after=60)  # dealt: the disconnect rule decides the hand; the seat stays
    assert t.state.seats[0].decision is not None and t.holder(0) == "ann"
    clock.advance(19)
    t.tick()
    assert t.holder(0) == "ann"  # bob has not decided: ann's hand is in play
    t.fold(1)  # settled: now it is between rounds
    clock.advance(42)
    held = t.balance(0)
    stood = [e for e in t.tick() if e.kind == "stood"]
    assert [(e.seat, e.public["reason"], e.public["returned"]) for e in stood] == [(0, "away", held)]
    assert t.holder(0) is None and t.balance(0) == 0 and held > 0


def test_a_holder_that_comes_back_keeps_its_seat() -> None:
    clock = Clock()
    t = game3(clock)
    t.sit(0, "ann", 5_000)
    t.away(0, stand_after=60)
    clock.advance(30)
    assert [e.kind for e in t.back(0)] == ["back", "seat_back"]
    assert t.back(0) == []  # not away: nothing to record
    clock.advance(600)
    assert t.tick() == [] and t.holder(0) == "ann"


def test_game3_deals_once_every_seated_player_has_bet_or_when_time_is_up() -> None:
    clock = Clock()
    t = game3(clock)
    for k, name in enumerate(("ann", "bob", "cy")):
        t.sit(k, name, 5_000)
    t.ante(0, 100)
    with pytest.raises(IllegalActionError, match="waiting for seat 2, 3 to bet"):
        t.deal()
    t.ante(1, 100)
    t.away(2)  # a seat gone away is not waited for
    assert t.tick() == [] and t.can_deal()  # the last to bet deals, when its bets are done
    t.deal()
    t.fold(0)
    t.fold(1)
    t.back(2)
    t.ante(0, 100)
    clock.advance(20)  # the bet time is up: the round deals without seat 2 (nor seat 1)
    t.tick()
    assert t.phase is Phase.DECIDING and t.state.seats[2].dealt is False
    assert t.view(2).deadline is None  # left out: no "Decide in 19 s"
    assert t.view(0).deadline is not None and t.view(None).deadline is not None


def test_a_new_holder_sees_nothing_of_the_round_before_it_sat() -> None:
    t = game3()
    t.sit(0, "ann", 5_000)
    t.ante(0, 100)
    t.deal()
    t.raise_(0)
    assert t.view(0).proof is not None and t.view(0).result is not None
    t.leave(0)
    t.sit(0, "bob", 5_000)
    fresh = t.view(0)
    assert (fresh.cards, hand_words(fresh), fresh.result, fresh.proof, fresh.exchanges) == ((), "", None, None, 0)
    assert fresh.player == "bob" and t.history(0) == []
    ann = [o for o in t.view(None).others if o.seat == 0]
    assert ann[0].player == "bob" and not ann[0].dealt  # the onlooker sees bob's fresh seat too


def _seat_and_deal(t: Table, seats: int, ante: int) -> None:
    for k in range(seats):
        t.sit(k, f"p{k}", 100 * ante)
        t.ante(k, ante)
    t.deal()


def _verify(view: SeatView, proof: dict[str, Any] | None = None) -> list[str]:
    used = proof or view.proof
    assert used is not None
    return verify(view.commitment, used, list(view.cards), list(view.dealer), list(view.board))


def _shown_cards(t: Table, seat: int | None) -> set[str]:
    view = t.view(seat)
    return {*view.cards, *view.dealer, *view.board} | {o["card"] for o in (view.proof or {}).get("openings", [])}


def _dealt_to(events: list[Event]) -> dict[int, set[str]]:
    dealt: dict[int, set[str]] = {}
    for e in events:
        if e.kind in ("dealt", "exchanged") and e.seat is not None:
            dealt.setdefault(e.seat, set()).update(card_text(c) for c in e.private["cards"])
            dealt[e.seat].update(card_text(c) for c in e.private.get("drawn", []))
    return dealt


@pytest.mark.parametrize("seed", range(6))
def test_no_view_or_history_of_a_seat_holds_another_seats_cards(seed: int) -> None:
    """Random rounds of game 3: every view, proof and recalled round of every seat and of an
    onlooker, at every step, holds no card dealt to another seat."""
    rng, t = random.Random(seed), game3()
    for k in range(3):
        t.sit(k, f"p{k}", 50_000)
    for _ in range(4):
        for k in range(3):
            t.ante(k, 100)
        t.deal()
        for k in rng.sample(range(3), 3):
            (t.raise_ if rng.random() < 0.5 else t.fold)(k)
            dealt = _dealt_to([e for e in t.recorded(0) if e.round == t.round])
            for seat in (0, 1, 2, None):
                theirs = set().union(*(cards for k2, cards in dealt.items() if k2 != seat))
                assert not _shown_cards(t, seat) & theirs
        for seat in range(3):  # the round just closed, as game recall shows it
            for step in t.history(seat, 1)[0]:
                others = step["seat"] is not None and step["seat"] != seat
                assert not (others and {"cards", "drawn", "hand", "outcome", "net"} & set(step)), step
                assert "seed" not in step, step
                assert step["kind"] != "revealed" or set(step["seats"]) == {str(seat)}, step


def test_two_exchanging_seats_each_get_a_proof_of_their_own_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Game 4's exchange at a table of two seats: each seat's proof opens its own cards and every
    card it drew, the dealer's and nothing of the other seat, and it verifies."""
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc 4s", "3c 8d Th Qc 5s"], "Ac Kc 9d 5h 2s", rest="Ad Ah As 3d 8c"))
    variant = load_variant("caribbean-poker").replace(seats=2)
    t = Table(variant, seats=2, seed=3)
    _seat_and_deal(t, 2, 1_000)
    t.exchange(0)
    t.exchange(1)
    t.exchange(0)
    t.raise_(0)
    t.fold(1)
    drawn = _dealt_to(t.recorded(0))
    for k in range(2):
        view = t.view(k)
        assert view.proof is not None and _verify(view) == []
        mine = {o["card"] for o in view.proof["openings"] if o["of"] == "you"}
        assert mine == drawn[k] and not mine & drawn[1 - k]
        assert {o["card"] for o in view.proof["openings"] if o["of"] == "dealer"} == set(view.dealer)
    view = t.view(0)
    assert view.proof is not None
    changed = copy.deepcopy(view.proof)
    changed["openings"][0]["card"] = "Kd" if changed["openings"][0]["card"] != "Kd" else "Qd"
    assert "does not open its leaf" in " ".join(_verify(view, changed))


def test_a_proof_holds_a_seat_to_the_positions_the_deal_gives_it() -> None:
    """Any card opens its own position: the proof must show the seat's cards where the deal puts
    them (one at a time from the top, seat by seat, then the dealer), or it fails."""
    t = game3()
    _seat_and_deal(t, 2, 100)
    t.fold(0)
    t.fold(1)
    view = t.view(0)
    assert view.proof is not None and _verify(view) == []
    deck, seed = t.state.round.deck, t.state.round.seed
    elsewhere = opening(seed, deck, ([1, 0], 5, 0, []), 0, 5, 0)  # seat 1's positions called seat 0's
    moved = view.proof | {"openings": elsewhere["openings"]}
    assert any("is not where the deal puts" in f for f in _verify(view, moved))
    fewer = view.proof | {"openings": [o for o in view.proof["openings"] if o["position"] != 0]}
    assert "not every position of the seat's cards is opened" in _verify(view, fewer)
    assert verify(view.commitment, view.proof | {"leaves": view.proof["leaves"][:51]}, [], [], [])


def test_the_commitment_is_shown_before_the_deal_and_the_seed_only_to_a_seat_dealt_alone() -> None:
    t = game3()
    t.sit(0, "ann", 5_000)
    t.ante(0, 100)
    before = t.view(0)
    assert len(before.commitment) == 64 and before.proof is None
    t.deal()
    t.fold(0)
    after = t.view(0)
    seed = t.state.round.seed.hex()
    assert after.commitment == before.commitment and after.proof is not None
    assert seed not in str(t.history(0))
    assert after.proof["seed"] == seed and _verify(after) == []  # the only seat dealt: the shuffle's own proof
    wrong = after.proof | {"seed": "00" * 32}
    assert "the seed does not shuffle into the committed deck" in _verify(after, wrong)
