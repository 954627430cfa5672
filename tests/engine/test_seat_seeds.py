"""The seats' own seeds in the deal (issue 46): each seat commits to a seed after the house's
commitment, reveals it once bets close, and the dealt order is the committed deck cut by every
dealt seat's seed; a withheld reveal counts as empty and cannot stop the round; each seat checks its
cards, the dealer's and the board's, and that its seed was used; a tamper of any byte fails; the
record keeps the seeds, audits and replays, and a third edition's record still does."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tables import Clock

from caribbean_fast import IllegalActionError, load_variant
from caribbean_fast.cards import card_text, parse_cards
from caribbean_fast.engine import MemoryStore, Phase, Table, audit, restore
from caribbean_fast.engine.events import Event
from caribbean_fast.engine.fairness import cut, seed_commitment, verify
from caribbean_fast.engine.history import round_proof
from caribbean_fast.engine.seeding import REVEAL_SECONDS

SEEDS = {0: "11" * 32, 1: "2f" * 7}  # seat 2 adds none


def _committed(k: int) -> str:
    return hashlib.sha256(bytes.fromhex(SEEDS[k])).hexdigest()


def _shared(store: MemoryStore | None = None, clock: Clock | None = None, seed: int = 7) -> Table:
    """Game 3 with three seats, bets placed, seats 0 and 1 committed to seeds."""
    t = Table(load_variant("network-24h"), seats=3, seed=seed, store=store, clock=clock)
    for k in range(3):
        t.sit(k, f"p{k}", 100_000)
        t.ante(k, 100)
    for k in SEEDS:
        t.commit_seed(k, _committed(k))
    return t


def _round(t: Table) -> list[Event]:
    events = t.recorded()
    start = max(k for k, e in enumerate(events) if e.kind == "round_opened")
    return events[start:]


def _checks(t: Table, k: int, commitment: str, mine: str | None) -> list[str]:
    v = t.view(k)
    assert v.proof is not None
    return verify(commitment, v.proof, list(v.cards), list(v.dealer), list(v.board), mine)


def test_the_seeds_cut_the_committed_deck_and_every_seat_checks_its_own() -> None:
    store = MemoryStore()
    t = _shared(store)
    commitment = t.view(0).commitment
    assert t.deal()[-1].kind == "seeds_sealed" and t.phase is Phase.BETTING
    assert (t.actions(0), t.actions(1), t.actions(2)) == (["reveal_seed"], ["reveal_seed"], [])
    with pytest.raises(IllegalActionError, match="bets are closed"):
        t.ante(2, 200)
    t.reveal_seed(0, SEEDS[0])
    assert t.phase is Phase.BETTING  # seat 1's seed is still to come
    t.reveal_seed(1, SEEDS[1])
    r = t.state.round
    order = cut(commitment, [(0, SEEDS[0]), (1, SEEDS[1]), (2, "")])
    assert r.order == order and sorted(order) == list(range(52)) and order != tuple(range(52))
    dealt = [r.deck[p] for p in order]
    assert [t.state.seats[0].cards, t.state.seats[1].cards] == [dealt[0:20:4], dealt[1:20:4]]
    assert r.dealer == dealt[3:20:4]
    for k in range(3):
        t.fold(k)
    for k in range(3):
        assert _checks(t, k, commitment, SEEDS.get(k)) == []
        made = round_proof(_round(t), k, t.variant)
        assert made is not None and made["proof"] == t.view(k).proof and made["commitment"] == commitment
    assert _checks(t, 2, commitment, "ab") == ["your seed was not used"]
    proof = t.view(2).proof
    assert proof is not None and [s["seed"] for s in proof["seeds"]] == [SEEDS[0], SEEDS[1], ""]
    assert "seed" not in proof  # three seats dealt: the house seed stays in the record
    report = audit(store)
    assert report.ok and report.rounds == 1, report.summary()
    again = restore(store)
    assert again.state.round.order == order and again.view(1).proof == t.view(1).proof


def test_a_seed_is_revealed_only_once_bets_close_and_must_open_its_commitment() -> None:
    t = _shared()
    with pytest.raises(IllegalActionError, match="once bets close"):
        t.reveal_seed(0, SEEDS[0])  # nobody sees a seed before every commitment is in
    t.deal()
    seq = t.seq
    with pytest.raises(IllegalActionError, match="does not open its commitment"):
        t.reveal_seed(0, SEEDS[1])
    with pytest.raises(IllegalActionError, match="no seed to reveal"):
        t.reveal_seed(2, SEEDS[0])
    with pytest.raises(IllegalActionError, match="lowercase hex"):
        t.reveal_seed(0, "not hex")
    with pytest.raises(IllegalActionError, match="bets are closed"):
        t.commit_seed(2, _committed(0))
    assert t.seq == seq  # refused, nothing recorded


def test_a_withheld_reveal_counts_as_empty_and_the_round_is_dealt() -> None:
    clock = Clock()
    t = _shared(clock=clock)
    commitment = t.view(0).commitment
    t.deal()
    t.reveal_seed(0, SEEDS[0])
    clock.advance(REVEAL_SECONDS - 1)
    assert t.tick() == [] or t.phase is Phase.BETTING
    clock.advance(1)
    t.tick()
    assert t.phase is Phase.DECIDING and t.state.round.dealt_seats == [0, 1, 2]
    assert t.state.round.order == cut(commitment, [(0, SEEDS[0]), (1, ""), (2, "")])
    for k in range(3):
        t.fold(k)
    assert _checks(t, 0, commitment, SEEDS[0]) == []
    assert _checks(t, 1, commitment, SEEDS[1]) == ["your seed was not used"]  # it withheld it
    assert _checks(t, 1, commitment, "") == []


def test_a_seat_dealt_alone_gets_the_house_seed_and_its_own_cut() -> None:
    t = Table(load_variant("caribbean-poker"), seed=3)
    t.sit(0, "ann", 100_000)
    t.ante(0, 100)
    t.commit_seed(0, _committed(0))
    commitment = t.view(0).commitment
    t.deal()
    t.reveal_seed(0, SEEDS[0])
    t.exchange(0)
    t.raise_(0)
    proof = t.view(0).proof
    assert proof is not None and proof["seed"] == t.state.round.seed.hex()
    assert _checks(t, 0, commitment, SEEDS[0]) == []
    r = t.state.round
    assert t.state.seats[0].shown == [r.deck[p] for p in r.order[0:10:2]] + [r.deck[p] for p in r.order[10:15]]


def test_a_third_editions_table_takes_no_seed_and_its_record_replays() -> None:
    store = MemoryStore()
    t = Table(load_variant("cyberstud"), seed=9, store=store, edition=3)
    t.sit(0, "ann", 10_000)
    t.ante(0, 100)
    assert not t.view(0).seed_open
    with pytest.raises(IllegalActionError, match="edition 3"):
        t.commit_seed(0, _committed(0))
    t.deal()
    t.fold(0)
    assert t.state.round.order == () and t.state.seats[0].first_five == t.state.round.deck[0:10:2]
    assert audit(store).ok and restore(store).edition == 3


# ---- tampering: any byte of a seed, a leaf, a salt, a position (the cut) or a card fails ------------


@pytest.fixture(scope="module")
def settled() -> tuple[str, dict[str, Any], list[str], list[str], list[str]]:
    t = _shared(seed=21)
    commitment = t.view(0).commitment
    t.deal()
    t.reveal_seed(0, SEEDS[0])
    t.reveal_seed(1, SEEDS[1])
    for k in range(3):
        t.fold(k)
    v = t.view(0)
    assert v.proof is not None
    return commitment, v.proof, list(v.cards), list(v.dealer), list(v.board)


def _flip(hex_text: str, at: int) -> str:
    at %= len(hex_text)
    return hex_text[:at] + ("0" if hex_text[at] != "0" else "1") + hex_text[at + 1 :]


@settings(max_examples=60, deadline=None)
@given(what=st.sampled_from(["seed", "commitment", "leaf", "salt", "position", "card"]), at=st.integers(0, 10**6))
def test_a_tamper_of_any_byte_fails(settled: tuple[Any, ...], what: str, at: int) -> None:
    commitment, proof, cards, dealer, board = settled
    assert verify(commitment, proof, cards, dealer, board, SEEDS[0]) == []
    bad = {**proof, "seeds": [dict(s) for s in proof["seeds"]], "openings": [dict(o) for o in proof["openings"]]}
    bad["leaves"] = list(proof["leaves"])
    seat_seed = bad["seeds"][at % 2]
    opening = bad["openings"][at % len(bad["openings"])]
    if what in ("seed", "commitment"):
        seat_seed[what] = _flip(seat_seed[what], at // 7)
    elif what == "leaf":
        k = at % 52
        bad["leaves"][k] = _flip(bad["leaves"][k], at // 52)
    elif what == "salt":
        opening["salt"] = _flip(opening["salt"], at // 7)
    elif what == "position":
        opening["position"] = (opening["position"] + 1 + at % 51) % 52
    else:
        (card,) = parse_cards(opening["card"])
        opening["card"] = card_text((card + 1 + at % 51) % 52)
    assert verify(commitment, bad, cards, dealer, board, SEEDS[0]) != []


def test_the_commitment_is_the_sha256_of_the_seeds_bytes() -> None:
    assert seed_commitment("00") == hashlib.sha256(b"\0").hexdigest()


def test_a_new_holder_starts_without_the_last_holders_commitment() -> None:
    """A player who committed to a seed and left: the next holder of the seat is asked for no reveal
    of a seed it never gave, and the round deals at once."""
    t = Table(load_variant("atlantic-city"), seats=1, seed=5, clock=Clock())
    t.sit(0, "ann", 100_000)
    t.ante(0, t.limits.minimum)
    t.commit_seed(0, seed_commitment("ab"))
    t.leave(0)  # its ante comes back
    t.sit(0, "bob", 100_000)
    assert t.view(0).seed_committed == ""
    t.ante(0, t.limits.minimum)
    t.deal()
    assert t.phase is Phase.DECIDING and len(t.view(0).cards) == 5
