"""Provably fair without showing anyone another seat's cards: a commitment to every deck position.

Before the deal every seat is shown one root: the SHA-256 of the 52 positions' leaves, in deck
order, where position p's leaf is SHA-256(salt_p + the card's id as one byte) and salt_p is
HMAC-SHA256(the round's seed, "position:p"). After the round a seat is given the openings of the
positions it was shown (its own cards, every card it drew, the dealer's and the board's: card and
salt) and every leaf; it checks each opening against its leaf and the leaves against the root it
saw before the deal. A salt reveals nothing of the seed, so the other seats' cards stay closed,
and the seed itself is never shown (the record keeps it, for the audit, with its hash).
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import Any

from ..cards import card_text, parse_cards

__all__ = ["leaves", "opening", "root", "verify"]


def _salt(seed: bytes, position: int) -> bytes:
    return hmac.digest(seed, f"position:{position}".encode(), "sha256")


def _leaf(salt: bytes, card: int) -> str:
    return hashlib.sha256(salt + bytes([card])).hexdigest()


@lru_cache(maxsize=256)
def leaves(seed: bytes, deck: tuple[int, ...]) -> tuple[str, ...]:
    """Every position's leaf, in deck order (remembered: each view of a round shows its root)."""
    return tuple(_leaf(_salt(seed, p), card) for p, card in enumerate(deck))


def root(seed: bytes, deck: tuple[int, ...]) -> str:
    """The commitment every seat sees before the deal."""
    return hashlib.sha256("".join(leaves(seed, deck)).encode()).hexdigest()


def opening(seed: bytes, deck: tuple[int, ...], shown: dict[str, list[int]]) -> dict[str, Any]:
    """The proof for one seat: `shown` names the cards it saw by whose they were ("you",
    "dealer", "board"); each is opened at its deck position."""
    where = {card: p for p, card in enumerate(deck)}
    return {
        "leaves": list(leaves(seed, deck)),
        "openings": [
            {"of": whose, "position": where[c], "card": card_text(c), "salt": _salt(seed, where[c]).hex()}
            for whose, cards in shown.items()
            for c in cards
        ],
    }


def verify(commitment: str, proof: dict[str, Any]) -> list[str]:
    """What a client checks (the page does the same in fair.js): the leaves hash to the root shown
    before the deal, and every opening to its leaf. Returns the failures (none: it holds)."""
    failures = []
    if hashlib.sha256("".join(proof["leaves"]).encode()).hexdigest() != commitment:
        failures.append("the leaves do not hash to the commitment shown before the deal")
    for o in proof["openings"]:
        (card,) = parse_cards(o["card"])
        if _leaf(bytes.fromhex(o["salt"]), card) != proof["leaves"][o["position"]]:
            failures.append(f"{o['card']} at position {o['position']} does not open its leaf")
    if len({o["position"] for o in proof["openings"]}) != len(proof["openings"]):
        failures.append("two openings name one position")
    return failures
