"""What one seat is shown: its own cards, the dealer's up card (hold'em: the flop), everyone's
bets and decisions; the dealer's hidden cards and the other seats' cards only once revealed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from ..cards import DECK_SIZE, card_text
from ..hands import value_of_ids
from ..variants import Family, Variant
from .ledger import wallet
from .state import Bets, Phase, TableState

__all__ = ["OtherSeat", "SeatView", "describe", "seat_view"]


@dataclass(frozen=True)
class OtherSeat:
    seat: int
    bets: Bets
    dealt: bool
    decided: bool
    cards: tuple[str, ...]  # empty until the showdown reveals them
    decision: str | None = None  # "raise" or "fold", as every seat is told once it is taken
    result: dict[str, Any] | None = None  # the seat's settlement, public once the round is settled


@dataclass(frozen=True)
class SeatView:
    seat: int
    round: int
    phase: Phase
    balance: int
    bets: Bets
    cards: tuple[str, ...]
    hand: str  # the seat's hand in words ("" before the deal)
    dealer: tuple[str, ...]  # stud: the up card until the showdown; hold'em: the dealer's two, once shown
    board: tuple[str, ...]  # hold'em: the flop until the showdown, then all five
    others: tuple[OtherSeat, ...]
    meter: int
    commitment: str
    seed: str  # the server seed, once revealed
    result: dict[str, Any] | None
    actions: tuple[str, ...]
    deadline: datetime | None
    exchanges: int
    limit: int | None
    currency: str
    void: bool = False  # the round (settled phase) was void: every bet returned, nothing settled


@lru_cache(maxsize=4096)
def describe(cards: tuple[int, ...]) -> str:
    """A hand in words; remembered, as a seat's hand is shown again in every view of its round."""
    return value_of_ids(cards).describe()


_TEXTS = tuple(card_text(c) for c in range(DECK_SIZE))  # a view names up to 20 cards: looked up


def _texts(cards: list[int]) -> tuple[str, ...]:
    return tuple(_TEXTS[c] for c in cards)


def _deadline(state: TableState, variant: Variant) -> datetime | None:
    t, r = variant.timing, state.round
    if state.phase is Phase.BETTING and t.bet_seconds and r.opened_at:
        return r.opened_at + timedelta(seconds=t.bet_seconds)
    if state.phase is Phase.DECIDING and t.decision_seconds and r.dealt_at:
        return r.dealt_at + timedelta(seconds=t.decision_seconds)
    return None


def seat_view(state: TableState, variant: Variant, seat: int, actions: Sequence[str], limit: int | None) -> SeatView:
    """The projection of a table's state that `seat` may see; `actions` and `limit` are what the
    table's rules and the account book allow the seat now."""
    holdem = variant.family is Family.HOLDEM
    r, me = state.round, state.seats[seat]
    shown = r.revealed is not None and state.phase is not Phase.BETTING
    board = r.board if shown else r.board[:3] if state.phase is Phase.DECIDING else []
    if holdem:
        dealer = r.dealer if shown else []
    else:
        dealer = r.dealer if shown else r.dealer[-1:] if state.phase is Phase.DECIDING else []
    others = tuple(
        OtherSeat(
            k,
            s.bets,
            s.dealt,
            s.decision is not None,
            _texts(s.cards) if shown and s.dealt else (),
            str(s.decision) if s.decision is not None else None,
            s.results,
        )
        for k, s in enumerate(state.seats)
        if k != seat
    )
    mine = [*me.cards, *board] if holdem else me.cards
    return SeatView(
        seat=seat,
        round=r.number,
        phase=state.phase,
        balance=state.ledger.balance(wallet(seat)),
        bets=me.bets if state.phase in (Phase.BETTING, Phase.DECIDING) else Bets(),
        cards=_texts(me.cards),
        hand=describe(tuple(mine)) if len(mine) >= 5 else "",
        dealer=_texts(dealer),
        board=_texts(board),
        others=others,
        meter=state.ledger.balance("meter"),
        commitment=r.commitment,
        seed=r.seed.hex() if shown else "",
        result=me.results,
        actions=tuple(actions),
        deadline=_deadline(state, variant),
        exchanges=me.exchanges,
        limit=limit,
        currency=variant.currency.code,
        void=r.void and state.phase is Phase.SETTLED,
    )
