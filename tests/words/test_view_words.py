"""A view's hands in words (`words.views`): the words the showdown gives a strength, equal to the
hand's own description (`HandValue.describe`) and its best five, for any hand of 5 to 7 cards."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from caribbean_fast import load_variant
from caribbean_fast.cards import card_text
from caribbean_fast.engine import Table
from caribbean_fast.hands import value_of_ids
from caribbean_fast.words.views import dealer_hand_words, hand_words, winning_five

_VIEW = Table(load_variant("casino-holdem"), seed=1).view(None)


@given(st.lists(st.integers(0, 51), min_size=5, max_size=7, unique=True))
def test_a_views_words_and_winning_five_are_the_hands_own(ids: list[int]) -> None:
    texts = tuple(card_text(c) for c in ids)
    value = value_of_ids(ids)
    view = replace(_VIEW, cards=texts[:2], board=texts[2:], dealer=texts[:2], revealed=True)
    assert hand_words(view) == dealer_hand_words(view) == value.describe()
    won = {"outcome": {"showdown": "win", "dealer_qualifies": True}}
    five = winning_five(replace(view, result=won))
    assert five is not None and five["cards"] == [card_text(c) for c in value.best_five]
