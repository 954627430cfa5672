"""Seats played by a stated strategy, for soak runs and demonstrations (`caribbean-fast table run`)
and for the other seats of a multi-seat table.

A strategy sees only the seat's view, as a player would, and returns "raise", "fold", or the
cards to exchange (game 4: all five). The named ones are rules a person can follow; `following`
plays a decision table the caller brings (`caribbean_fast.seat_strategies` names the par sheet's
best one `best`), so the engine never runs the analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ..errors import ArgumentError
from ..hands import HandClass, evaluate
from ..variants import ExchangeCards, Family, HandThreshold, Variant
from .state import Phase
from .table import Table
from .views import SeatView

__all__ = [
    "STRATEGIES",
    "Choice",
    "DecisionTable",
    "Strategy",
    "choose",
    "following",
    "play_others_bets",
    "play_others_decisions",
    "play_round",
]

Choice = str | list[str]
""""raise", "fold", or the cards to exchange."""

Strategy = Callable[[Variant, SeatView], Choice]


def _simple(variant: Variant, view: SeatView) -> Choice:
    """Stud: raise A-K-J-8-3 or better. Game 4 exchanges all five cards below that against an up
    card of 2 to 5 (where a fresh hand is worth more than the fee), and the example that lets the
    seat choose exchanges every card but its aces and kings once below a pair. Hold'em: call
    with a pair or better, or an ace in the hand."""
    if variant.family is Family.HOLDEM:
        strength = evaluate([*view.cards, *view.board]).strength
        has_ace = any(card[0] == "A" for card in view.cards)
        return "raise" if has_ace or strength >= HandThreshold("pair").strength else "fold"
    hand = evaluate(view.cards)
    raises = hand.strength >= HandThreshold("A K J 8 3").strength
    x = variant.exchanges
    if x and "exchange" in view.actions:
        if x.cards is ExchangeCards.ALL and not raises and view.dealer[-1][0] in "2345":
            return list(view.cards)
        discard = [c for c in view.cards if c[0] not in "AK"]
        if x.cards is ExchangeCards.CHOOSE and view.exchanges == 0 and hand.hand_class < HandClass.ONE_PAIR and discard:
            return discard
    return "raise" if raises else "fold"


def _always(variant: Variant, view: SeatView) -> Choice:
    return "raise"


class DecisionTable(Protocol):
    """What a strategy table answers (the par sheet's `analysis.StrategyTable` is one): raise or
    fold, and for game 4 whether to exchange all five cards with `left` exchanges still allowed."""

    def decide(self, cards: Sequence[str], board: Sequence[str]) -> object: ...

    def exchanges(self, hand: Sequence[str], up: Sequence[str], left: int) -> bool: ...


def following(table: DecisionTable) -> Strategy:
    """The strategy that plays a decision table; the caller brings the table (for the par sheet's
    best strategy, `analyze(variant).table`), so the engine needs no analysis."""

    def play(variant: Variant, view: SeatView) -> Choice:
        if variant.family is Family.HOLDEM:
            return str(table.decide(view.cards, view.board))
        left = variant.exchanges.most_per_round - view.exchanges if variant.exchanges else 0
        if "exchange" in view.actions and table.exchanges(view.cards, view.dealer, left):
            return list(view.cards)
        return str(table.decide(view.cards, view.dealer))

    return play


STRATEGIES: dict[str, Strategy] = {"simple": _simple, "always": _always}
"""The strategies that are rules a person can follow, by name."""


def _resolved(strategy: str | Strategy) -> Strategy:
    if not isinstance(strategy, str):
        return strategy
    if strategy not in STRATEGIES:
        raise ArgumentError(f"strategy: {strategy!r} is not one of {', '.join(STRATEGIES)} (or a table to follow)")
    return STRATEGIES[strategy]


def choose(strategy: str | Strategy, variant: Variant, view: SeatView) -> Choice:
    return _resolved(strategy)(variant, view)


def _bet(table: Table, seat: int, ante: int, progressive: bool) -> None:
    """The ante, then the progressive; a round restored in its betting phase keeps what it has."""
    bets = table.state.seats[seat].bets
    if not bets.ante and table.can_ante(seat, ante):
        table.ante(seat, ante)
    if progressive and table.state.seats[seat].bets.ante and table.can_progressive(seat):
        table.progressive(seat)


def _decide(table: Table, seat: int, strategy: str | Strategy) -> None:
    while seat in table.undecided():
        choice = choose(strategy, table.variant, table.view(seat))
        if isinstance(choice, list):
            table.exchange(seat, choice)
        elif choice == "raise" and table.can_raise(seat):
            table.raise_(seat)
        else:
            table.fold(seat)


def play_round(table: Table, strategy: str | Strategy, ante: int, progressive: bool = False) -> bool:
    """One round (or the rest of an open one) with every seat played by `strategy`; False when no
    seat can afford the ante."""
    if table.phase is not Phase.DECIDING:
        for seat in range(table.seats):
            _bet(table, seat, ante, progressive)
        if not table.can_deal():
            return False
        table.deal()
    for seat in table.undecided():
        _decide(table, seat, strategy)
    return True


def play_others_bets(table: Table, skip: int) -> None:
    """Every seat but `skip` antes the table minimum (multi-seat tables)."""
    for seat in range(table.seats):
        if seat != skip:
            _bet(table, seat, table.limits.minimum, False)


def play_others_decisions(table: Table, strategy: str | Strategy, skip: int) -> None:
    """Every dealt seat but `skip` decides by `strategy`."""
    for seat in table.undecided():
        if seat != skip:
            _decide(table, seat, strategy)
