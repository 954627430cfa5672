"""Card text, ids, and the deck."""

from __future__ import annotations

import numpy as np
import pytest

from caribbean_fast import Deck, InvalidCardsError, card_text, format_cards, parse_card, parse_cards


def test_ids_are_four_rank_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("As") == 51
    assert parse_card("td") == parse_card("Td") == parse_card("10d") == 4 * 8 + 1
    assert parse_card(17) == 17
    assert card_text(51) == "As"
    assert format_cards(parse_cards("10h jc")) == "Th Jc"


def test_many_forms_of_a_hand() -> None:
    expected = [51, 42, 37]
    assert parse_cards("As Qh Jd") == expected
    assert parse_cards("As,Qh, Jd") == expected
    assert parse_cards(["As", "qh", "JD"]) == expected
    assert parse_cards([51, "Qh", np.uint8(37)]) == expected


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("1x", "'1x'"),
        ("Ah Zz", "'Zz'"),
        ("Ahh", "'Ahh'"),
        ("A", "'A'"),
        ("11h", "'11h'"),
    ],
)
def test_bad_text_names_the_card(text: str, named: str) -> None:
    with pytest.raises(InvalidCardsError, match=named):
        parse_cards(text)


def test_bad_ids_repeats_and_counts() -> None:
    with pytest.raises(InvalidCardsError, match="52"):
        parse_card(52)
    with pytest.raises(InvalidCardsError, match="-1"):
        parse_cards([-1, 2, 3])
    with pytest.raises(InvalidCardsError, match="Ah appears twice"):
        parse_cards("Ah Ah")
    with pytest.raises(InvalidCardsError, match="0 cards given where 5 to 7"):
        parse_cards("", count=(5, 6, 7))
    with pytest.raises(InvalidCardsError, match="4 cards given where 5 to 7"):
        parse_cards("As Ks Qs Js", count=(5, 6, 7))
    with pytest.raises(InvalidCardsError, match="not a card"):
        parse_cards([1.5])  # type: ignore[list-item]
    with pytest.raises(InvalidCardsError):
        card_text(60)
    assert isinstance(InvalidCardsError("x"), ValueError)


def test_seeded_decks_repeat_and_deal_every_card_once() -> None:
    a, b = Deck(7).shuffle(), Deck(np.random.default_rng(7)).shuffle()
    dealt = a.deal(52)
    assert dealt == b.deal(52)
    assert sorted(dealt) == list(range(52))
    assert a.remaining == 0
    with pytest.raises(InvalidCardsError, match="cannot deal 1 cards: 0 remain"):
        a.deal()
    assert Deck(8).shuffle().deal(5) != Deck(7).shuffle().deal(5)
