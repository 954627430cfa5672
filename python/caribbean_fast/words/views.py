"""A seat's view in the protocol's JSON (the `view` frame), with its hands in words: the engine
gives the cards, this layer the sentences ("Pair of Kings"), for the server's frames and the
terminal alike; `view_from_json` reads a frame back for a client of a server."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from ..cards import CARD_TEXTS, card_text
from ..engine.showdown import hand_of
from ..engine.state import Bets, Phase
from ..engine.views import OtherSeat, SeatView
from ..hands import value_of_ids

__all__ = ["dealer_hand_words", "hand_words", "view_from_json", "view_to_json", "winning_five"]

_CARD_IDS = {text: card for card, text in enumerate(CARD_TEXTS)}


@lru_cache(maxsize=4096)
def _describe(cards: tuple[str, ...]) -> str:
    """A hand in words, as the showdown words it (by its strength: `showdown.hand_of`); remembered,
    as a seat's hand is shown again in every view of its round."""
    return hand_of(_ids(cards)).words


def _ids(cards: tuple[str, ...]) -> list[int]:
    """The ids of cards as the engine's views write them (`CARD_TEXTS`): no parsing of other spellings."""
    return [_CARD_IDS[c] for c in cards]


def hand_words(view: SeatView) -> str:
    """The seat's hand in words (hold'em: with the board shown), "" before its cards are dealt."""
    mine = (*view.cards, *view.board) if view.cards else ()
    return _describe(mine) if len(mine) >= 5 else ""


def dealer_hand_words(view: SeatView) -> str:
    """The dealer's hand in words (hold'em: with the board), once the showdown revealed it."""
    theirs = (*view.dealer, *view.board)
    return _describe(theirs) if view.revealed and len(theirs) >= 5 else ""


@lru_cache(maxsize=4096)
def _best_five(cards: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(card_text(c) for c in value_of_ids(_ids(cards)).best_five)


def winning_five(view: SeatView) -> dict[str, Any] | None:
    """At a showdown that one side won, that side ("seat" or "dealer") and the five cards its hand
    is made of (hold'em: five of its two and the board's five), for the page to mark; None before
    the showdown, after a fold, at a tie, and where the dealer did not qualify (no hand beat
    another)."""
    if view.result is None or not view.revealed:
        return None
    outcome = view.result["outcome"]
    if outcome.get("dealer_qualifies") is False:
        return None  # the ante was paid on the qualifier: no hand beat the other
    showdown = outcome.get("showdown")
    if showdown == "win":
        return {"side": "seat", "cards": list(_best_five((*view.cards, *view.board)))}
    if showdown == "lose":
        return {"side": "dealer", "cards": list(_best_five((*view.dealer, *view.board)))}
    return None


def view_to_json(view: SeatView) -> dict[str, Any]:
    """The view as JSON (the protocol's `view` frame); `view_from_json` reads it back."""
    return {
        "seat": view.seat,
        "player": view.player,
        "round": view.round,
        "phase": str(view.phase),
        "balance": view.balance,
        "bets": view.bets.to_dict(),
        "cards": list(view.cards),
        "hand": hand_words(view),
        "dealer": list(view.dealer),
        "dealer_hand": dealer_hand_words(view),
        "board": list(view.board),
        "others": [
            {
                "seat": o.seat,
                "player": o.player,
                "bets": o.bets.to_dict(),
                "dealt": o.dealt,
                "decided": o.decided,
                "settled": o.settled,
            }
            for o in view.others
        ],
        "meter": view.meter,
        "commitment": view.commitment,
        "proof": view.proof,
        "result": view.result,
        "actions": list(view.actions),
        "deadline": view.deadline.isoformat() if view.deadline else None,
        "exchanges": view.exchanges,
        "limit": view.limit,
        "currency": view.currency,
        "revealed": view.revealed,
        "dealer_qualifies": view.dealer_qualifies,
        "void": view.void,
        "seed_open": view.seed_open,
        "seed_committed": view.seed_committed,
        "ante_most": view.ante_most,
        "winning_five": winning_five(view),
    }


def view_from_json(raw: dict[str, Any]) -> SeatView:
    """A view from its JSON (`view_to_json`): what a client of a server reads."""
    others = tuple(
        OtherSeat(
            int(o["seat"]),
            o["player"],
            Bets.from_dict(o["bets"]),
            bool(o["dealt"]),
            bool(o["decided"]),
            bool(o["settled"]),
        )
        for o in raw["others"]
    )
    fields = {k: v for k, v in raw.items() if k not in ("hand", "dealer_hand", "winning_five")} | {
        "phase": Phase(raw["phase"]),
        "bets": Bets.from_dict(raw["bets"]),
        "others": others,
        "deadline": datetime.fromisoformat(raw["deadline"]) if raw["deadline"] else None,
    }
    read: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return SeatView(**read)
