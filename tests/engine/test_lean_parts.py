"""The engine's lean parts against what they stand for: the showdown's hands (`showdown.hand_of`: a
strength and its words, remembered by strength, are what `HandValue` gives every hand of that
strength, whatever its suits) and a round opened (`RoundState.opened`, made as `RoundState(...)`)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from caribbean_fast.cards import parse_cards
from caribbean_fast.engine import showdown
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
    assert showdown._WORDS[first.strength] == "Two pair, Kings and Fives"


def test_a_round_opened_is_the_dataclass_made() -> None:
    deck, at = list(range(51, -1, -1)), datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    made = RoundState(7, b"seed", "root", deck, opened_at=at, dealing=deck)
    lean = RoundState.opened(7, b"seed", "root", deck, at)
    assert lean == made and list(vars(lean)) == [f.name for f in dataclasses.fields(RoundState)]
    assert (
        lean.dealing is lean.deck and lean.draws == [] and lean.draws is not RoundState.opened(1, b"", "", [], at).draws
    )
