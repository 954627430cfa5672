"""Cards as ids 0..51 (``4 * rank + suit``; rank 0..12 for 2..A, suit 0..3 for c d h s), their
text ("As", "td", "10h" on input; "As", "Td" on output), and a seeded Deck."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .errors import ArgumentError, ArgumentTypeError, InvalidCardsError, require_type

__all__ = [
    "CARD_TEXTS",
    "RANKS",
    "SUITS",
    "CardsLike",
    "Deck",
    "card_text",
    "format_cards",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52

CardLike = str | int | np.integer[Any]
"""One card: its text or its id."""

CardsLike = str | Iterable[CardLike]
"""Cards as one string ("As Kd 10h"), or an iterable of card texts or ids."""


def parse_card(card: CardLike) -> int:
    """The id of one card given as text ("As", "td", "10h") or as an id."""
    if isinstance(card, int | np.integer) and not isinstance(card, bool):
        if 0 <= int(card) < DECK_SIZE:
            return int(card)
        raise InvalidCardsError(f"card id {card} is not in 0..51")
    if not isinstance(card, str):
        raise InvalidCardsError(f"{card!r} is not a card: give text such as 'As' or an id 0..51")
    text = card.strip()
    rank_text, suit_text = text[:-1].upper(), text[-1:].lower()
    rank_text = "T" if rank_text == "10" else rank_text
    if len(rank_text) != 1 or rank_text not in RANKS or not suit_text or suit_text not in SUITS:
        raise InvalidCardsError(
            f"{card!r} is not a card: expected a rank of 2-9, T (or 10), J, Q, K, A "
            f"and a suit of c, d, h, s, such as 'As' or '10h'"
        )
    return 4 * RANKS.index(rank_text) + SUITS.index(suit_text)


def parse_cards(cards: CardsLike, count: int | Sequence[int] | None = None) -> list[int]:
    """Distinct card ids from text such as "As Kd 10h" (spaces or commas) or an iterable.

    ``count`` is the number of cards required: one number, or the allowed numbers."""
    if isinstance(cards, bytes | bytearray | memoryview):  # its bytes would read as card ids
        raise ArgumentTypeError(f"cards: text or card ids, not {type(cards).__name__} (decode the text first)")
    items: Iterable[CardLike] = re.split(r"[\s,]+", cards.strip()) if isinstance(cards, str) else cards
    ids = [parse_card(c) for c in items if not (isinstance(c, str) and not c.strip())]
    seen: set[int] = set()
    for card in ids:
        if card in seen:
            raise InvalidCardsError(f"{card_text(card)} appears twice")
        seen.add(card)
    allowed = [count] if isinstance(count, int) else count
    if allowed is not None and len(ids) not in allowed:
        need = " or ".join(str(n) for n in allowed) if len(allowed) < 3 else f"{min(allowed)} to {max(allowed)}"
        raise InvalidCardsError(f"{len(ids)} cards given where {need} are needed")
    return ids


def card_text(card: int) -> str:
    """The text of a card id, e.g. 51 -> "As"."""
    if type(card) is int and 0 <= card < DECK_SIZE:  # the usual case: looked up, before the checks
        return CARD_TEXTS[card]
    require_type(card, (int, np.integer), "a card id is an integer 0..51")
    if not 0 <= card < DECK_SIZE:
        raise InvalidCardsError(f"card id {card} is not in 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


CARD_TEXTS = tuple(RANKS[c >> 2] + SUITS[c & 3] for c in range(DECK_SIZE))
"""Each card id's text, looked up: a proof, a view and a showdown name a dozen cards."""


def format_cards(cards: Iterable[int]) -> str:
    """Card ids as space-separated text, e.g. "As Kd Th"."""
    require_type(cards, Iterable, "cards are an iterable of card ids")
    return " ".join(card_text(c) for c in cards)


class Deck:
    """A 52-card deck that shuffles from a seed or a numpy Generator and deals from the top.

    A new deck is shuffled already: a deck in factory order would deal the same plausible
    hands to anyone who forgot to shuffle it."""

    def __init__(self, rng: int | np.random.Generator | None = None) -> None:
        if isinstance(rng, bool) or not (rng is None or isinstance(rng, int | np.random.Generator)):
            raise ArgumentError(f"rng must be a seed (an integer), a numpy Generator or None, not {rng!r}")
        if isinstance(rng, int) and rng < 0:
            raise ArgumentError(f"the seed must be 0 or more, not {rng}")
        self._rng = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        self.shuffle()

    def shuffle(self) -> Deck:
        """Puts every card back and shuffles; returns the deck for chaining."""
        self._order = [int(c) for c in self._rng.permutation(DECK_SIZE)]
        self._next = 0
        return self

    def deal(self, n: int = 1) -> list[int]:
        """The next ``n`` cards off the top."""
        if isinstance(n, bool) or not isinstance(n, int | np.integer):
            raise ArgumentError(f"n must be a whole number of cards, not {n!r}")
        if n < 0 or n > self.remaining:
            raise InvalidCardsError(f"cannot deal {n} cards: {self.remaining} remain")
        dealt = self._order[self._next : self._next + n]
        self._next += n
        return dealt

    @property
    def remaining(self) -> int:
        """How many cards are left to deal."""
        return DECK_SIZE - self._next

    def __repr__(self) -> str:
        return f"Deck(remaining={self.remaining})"
