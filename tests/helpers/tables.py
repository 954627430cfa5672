"""Helpers for the table engine's tests: a clock the test moves, and rigged decks for named deals."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from caribbean_fast.cards import parse_cards
from caribbean_fast.engine import state as engine_state

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


class Clock:
    """Time that moves only when the test says."""

    def __init__(self, start: datetime = START) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def stacked_deck(hands: Sequence[str], dealer: str, board: str = "", rest: str = "") -> list[int]:
    """The deck that deals these hands one card at a time (seats in order, then the dealer), then
    the board, then `rest` (the cards an exchange draws), then every other card."""
    seat_cards = [parse_cards(h) for h in hands]
    dealer_cards = parse_cards(dealer)
    deck = []
    for i in range(len(dealer_cards)):
        deck += [h[i] for h in seat_cards] + [dealer_cards[i]]
    deck += parse_cards(board) + parse_cards(rest)
    parse_cards(deck)  # no card twice
    return deck + [c for c in range(52) if c not in deck]


def rig(monkeypatch: pytest.MonkeyPatch, *decks: list[int]) -> None:
    """The next rounds are dealt from these decks, in order (whatever their seeds)."""
    queue = list(decks)
    monkeypatch.setattr(engine_state, "deck_from_seed", lambda seed: queue.pop(0))
