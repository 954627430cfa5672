"""The engine's lean parts against what they stand for: the showdown's hands (`showdown.hand_of`: a
strength and its words, worked out once for every strength, are what `HandValue` gives every hand
of that strength, whatever its suits), a round opened (`RoundState.opened`, made as `RoundState(...)`), and a
table that let go of its events and views (`Table.let_go`) showing the same views."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from caribbean_fast import load_variant
from caribbean_fast.cards import parse_cards
from caribbean_fast.engine import MemoryStore, Phase, Table, showdown
from caribbean_fast.engine.autoplay import choose
from caribbean_fast.engine.showdown import Hand, hand_of
from caribbean_fast.engine.state import RoundState
from caribbean_fast.hands import value_of_ids

HANDS = st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True)


@settings(max_examples=400, deadline=None)
@given(HANDS)
def test_a_hand_is_its_value(ids: list[int]) -> None:
    value = value_of_ids(ids)
    assert hand_of(ids) == Hand(value.strength, value.describe())
    assert hand_of(ids) == Hand(value.strength, value.describe())  # remembered, the same


def test_equal_hands_of_other_suits_share_their_words() -> None:
    """Two pair, Kings and Fives with an Ace, in two suitings: one strength, one text remembered."""
    spades = parse_cards("Ks Kh 5s 5h Ah")
    others = parse_cards("Kd Kc 5d 5c Ad")
    first, second = hand_of(spades), hand_of(others)
    assert first == second and first.words == "Two pair, Kings and Fives"
    assert showdown._all_words()[first.strength] == "Two pair, Kings and Fives"


def test_a_round_opened_is_the_dataclass_made() -> None:
    deck, at = list(range(51, -1, -1)), datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    made = RoundState(7, b"seed", "root", deck, opened_at=at, dealing=deck)
    lean = RoundState.opened(7, b"seed", "root", deck, at)
    assert lean == made and list(vars(lean)) == [f.name for f in dataclasses.fields(RoundState)]
    assert (
        lean.dealing is lean.deck and lean.draws == [] and lean.draws is not RoundState.opened(1, b"", "", [], at).draws
    )


def _step(table: Table) -> None:
    """One command of a seat playing the `simple` strategy at a one-seat table."""
    if table.phase is not Phase.DECIDING:
        bets = table.state.seats[0].bets
        table.deal() if bets.ante else table.ante(0, table.limits.minimum)
        return
    choice = choose("simple", table.variant, table.view(0))
    if isinstance(choice, list):
        table.exchange(0, choice)
    elif choice == "raise" and table.can_raise(0):
        table.raise_(0)
    else:
        table.fold(0)


@pytest.mark.parametrize("game", ["cyberstud", "caribbean-poker", "casino-holdem"])
def test_a_table_let_go_shows_the_same_views(game: str) -> None:
    """`Table.let_go`, as a server calls it after each commit's views: the table keeps its last
    event only, and every view made again (the deck's leaves, the proofs) is the view it let go."""
    table = Table(load_variant(game), seats=1, seed=7, store=MemoryStore())
    table.sit(0, "p0", 10_000)
    proofs = 0
    for _ in range(12):
        before = (table.view(0), table.view(None))
        proofs += before[0].proof is not None
        table.let_go()
        assert len(table.events) == 1 and table.events[0].seq == table.seq - 1
        assert (table.view(0), table.view(None)) == before
        _step(table)
    assert proofs >= 2  # settled rounds' proofs, let go and made again
