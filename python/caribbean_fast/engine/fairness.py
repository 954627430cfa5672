"""Provably fair without showing anyone another seat's cards: a commitment to every deck position.

Before the deal every seat is shown one root: the SHA-256 of the 52 positions' leaves (hex, in deck
order, joined), where position p's leaf is SHA-256(salt_p + the card's id as one byte) and salt_p
is HMAC-SHA256(the round's seed, "position:p"). After the round a seat is given every leaf, the
round's deal (the seats dealt, in order, the cards to a hand and to the board, and each exchange's
seat and count, in order: what every seat saw happen) and the openings (card and salt) of the
positions it was shown: its own cards and draws, the dealer's and the board's. The deal fixes
which positions those must be (one card at a time from the top to each dealt seat, then the
dealer; then the board; then each exchange's draws from the top), so a seat checks that each
opening sits where the deal puts it, opens its leaf, and that the leaves hash to the root it saw
before the deal. A salt reveals nothing of the seed, so the other seats' cards stay closed; the
seed is shown only to a seat that was the only one dealt (it then re-derives the whole deck, the
shuffle's own proof); otherwise the record keeps it, with its hash, for the audit. The page runs
the same check (server/static/js/fair.js).

From the rules' fourth edition the seats add their own entropy, so the house cannot choose the
deal by choosing its seed: after the root is shown each seat may commit to a seed of its own
(SHA-256 of its bytes), and once bets close every dealt seat reveals it (`rounds`). The dealt
order is the committed deck reordered by `cut`: dealt position i holds committed position
cut[i], where cut is the Fisher-Yates order (`deck_from_seed`) of the key SHA-256("caribbean-fast/
seats:" + root + "|seat:seed" for each dealt seat in dealing order, an empty seed for one withheld
or never added). With no seat's seed at all the deck is dealt as committed. An opening's
`position` is the committed one, so it still opens its leaf; the proof carries every dealt seat's
commitment and seed, and the check re-derives the cut from the root the seat saw.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, NamedTuple

from .._core import deck_commitment
from ..cards import CARD_TEXTS, DECK_SIZE, parse_cards
from ..variants import Variant
from .shuffle import deck_from_seed

__all__ = [
    "Commitment",
    "Deal",
    "SeatSeed",
    "committed",
    "cut",
    "leaves",
    "opening",
    "positions",
    "root",
    "seat_proof",
    "seed_commitment",
    "verify",
]


_DIGEST = 32  # bytes of a salt or a leaf (SHA-256)
SEED_MOST = 64
"""The most bytes a seat's seed may have (the page's default: 32 random bytes, as 64 hex digits' text)."""

SeatSeed = tuple[int, str]
"""A dealt seat and the seed it revealed (hex of its bytes; "" for none), in dealing order."""


def seed_commitment(seed_hex: str) -> str:
    """What a seat commits to before bets close: the SHA-256 of its seed's bytes, as hex."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def cut(commitment: str, seeds: list[SeatSeed]) -> tuple[int, ...]:
    """The dealt order as committed positions (dealt position i is committed position cut[i]),
    from the root every seat saw before the deal and every dealt seat's seed; () when no seat
    gave one (the deck is dealt as committed)."""
    if not any(seed for _, seed in seeds):
        return ()
    text = "caribbean-fast/seats:" + commitment + "".join(f"|{seat}:{seed}" for seat, seed in seeds)
    return tuple(deck_from_seed(hashlib.sha256(text.encode()).digest()))


def _leaf(salt: bytes, card: int) -> str:
    return hashlib.sha256(salt + bytes([card])).hexdigest()


class Commitment(NamedTuple):
    """A deck's commitment, worked out once (`committed`): every leaf as hex and the root. A live
    table keeps its round's (`views.ViewCache`), and each seat's proof lists these same 52 strings
    (references, not copies: 6 KB a table once, not once more a seat). `salts`: every position's
    salt, 32 bytes each in deck order, as the core worked them out for the leaves: a proof's
    openings read theirs here."""

    leaves: tuple[str, ...]
    root: str
    salts: bytes


def committed(seed: bytes, deck: tuple[int, ...] | list[int]) -> Commitment:
    """The deck's salts, leaves and root in one call of the core."""
    salts, leaves_, root_ = deck_commitment(seed, list(deck))
    return Commitment(tuple(leaves_), root_, salts)


def leaves(seed: bytes, deck: tuple[int, ...]) -> tuple[str, ...]:
    """Every position's leaf, in deck order, as hex."""
    return committed(seed, deck).leaves


def root(seed: bytes, deck: tuple[int, ...]) -> str:
    """The commitment every seat sees before the deal."""
    return committed(seed, deck).root


def positions(deal: dict[str, Any]) -> dict[str, list[int]]:
    """Where the deal puts each hand's cards in the deck: by seat ("0", "1" ...), "dealer" and
    "board"; a seat's draws follow its dealt cards."""
    seats, hand = deal["seats"], deal["hand"]
    width = len(seats) + 1
    top = hand * width  # the i-th dealt takes every width-th card from the i-th, the dealer last
    found = {str(k): list(range(i, top, width)) for i, k in enumerate(seats)}
    found["dealer"] = list(range(len(seats), top, width))
    found["board"] = list(range(top, top + deal["board"]))
    top += deal["board"]
    for seat, count in deal["draws"]:
        found[str(seat)] += range(top, top + count)
        top += count
    return found


Deal = tuple[list[int], int, int, list[tuple[int, int]]]
"""The seats dealt in order, the cards to a hand, the cards to the board, each exchange's (seat, count)."""


def opening(
    seed: bytes,
    deck: list[int],
    deal: Deal,
    seat: int,
    dealer: int,
    board: int,
    known: Commitment | None = None,
    order: tuple[int, ...] = (),
) -> dict[str, Any]:
    """The proof for `seat`: every leaf (`known`'s, when given), the deal, and the
    openings of its own positions, of the last `dealer` of the dealer's (all of them once shown;
    stud's up card is the last dealt) and of the first `board` of the board's. `order`: the cut
    the seats' seeds made (dealt position i is committed position order[i]; none: as committed)."""
    seats, hand, on_board, draws = deal
    described = {"seats": list(seats), "hand": hand, "board": on_board, "draws": [list(d) for d in draws]}
    at = positions(described)
    shown = {"you": at[str(seat)], "dealer": at["dealer"][-dealer:] if dealer else [], "board": at["board"][:board]}
    opened = [(whose, p) for whose, where in shown.items() for p in where]
    if order:  # the seats' seeds cut the deck: each dealt position's committed one
        opened = [(whose, order[p]) for whose, p in opened]
    known = known or committed(seed, deck)
    salts = known.salts
    return {
        "leaves": list(known.leaves),
        "deal": described,
        "seat": seat,
        "openings": [
            {"of": whose, "position": p, "card": CARD_TEXTS[deck[p]], "salt": salts[32 * p : 32 * p + 32].hex()}
            for whose, p in opened
        ],
    }


def seat_proof(
    seed: bytes,
    deck: list[int],
    variant: Variant,
    dealt: list[int],
    draws: list[tuple[int, int]],
    seat: int,
    dealer: int,
    board: int,
    known: Commitment | None = None,
    seeds: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A seat's proof of a finished round (what its view gives, and what game recall makes again
    from the record): the openings for the deal as the variant's layout deals it, every dealt
    seat's commitment and seed where the seats added theirs (`seeds`: {"seat", "commitment",
    "seed"} in dealing order), and the house seed too where it reveals no one else's cards, to a
    seat that was the only one dealt."""
    shape = variant.layout  # as the deal deals (`Rounds._cards_for`)
    known = known or committed(seed, deck)
    order = cut(known.root, [(s["seat"], s["seed"]) for s in seeds]) if seeds else ()
    proof = opening(seed, deck, (dealt, shape.hand, shape.board, draws), seat, dealer, board, known, order)
    if seeds:
        proof["seeds"] = [dict(s) for s in seeds]
    return proof | {"seed": seed.hex()} if dealt == [seat] else proof


def verify(
    commitment: str,
    proof: dict[str, Any],
    cards: list[str],
    dealer: list[str],
    board: list[str],
    mine: str | None = None,
) -> list[str]:
    """What a client checks (the page does the same in fair.js), given the commitment it saw
    before the deal, the cards the table showed it and (`mine`) the seed it added, if any: every
    seat's seed opens its commitment, the seat's own is there as it gave it, each opening sits
    where the deal and the seeds' cut put it and opens its leaf, the seat's own positions are all
    opened, the leaves hash to the commitment, and the opened cards are the cards shown. Returns
    the failures (none: it holds)."""
    leaves_, openings, seeds = proof["leaves"], proof["openings"], proof.get("seeds", [])
    failures = []
    if len(leaves_) != DECK_SIZE or hashlib.sha256("".join(leaves_).encode()).hexdigest() != commitment:
        failures.append("the leaves do not hash to the commitment shown before the deal")
    failures += _seed_failures(seeds, proof["seat"], mine)
    order = cut(commitment, [(s["seat"], s["seed"]) for s in seeds])
    at = positions(proof["deal"])
    where = {
        whose: [order[i] if order else i for i in at[key]]
        for whose, key in (("you", str(proof["seat"])), ("dealer", "dealer"), ("board", "board"))
    }
    for o in openings:
        p = o["position"]
        if o["of"] not in where or p not in where[o["of"]] or not 0 <= p < len(leaves_):
            failures.append(f"{o['card']} at position {p} is not where the deal puts the {o['of']} cards")
            continue
        (card,) = parse_cards(o["card"])
        if _leaf(bytes.fromhex(o["salt"]), card) != leaves_[p]:
            failures.append(f"{o['card']} at position {p} does not open its leaf")
    if (
        "seed" in proof
        and list(leaves(bytes.fromhex(proof["seed"]), tuple(deck_from_seed(bytes.fromhex(proof["seed"]))))) != leaves_
    ):
        failures.append("the seed does not shuffle into the committed deck")
    opened = {whose: [o["card"] for o in openings if o["of"] == whose] for whose in where}
    if sorted(o["position"] for o in openings if o["of"] == "you") != sorted(where["you"]):
        failures.append("not every position of the seat's cards is opened")
    for whose, seen in (("you", cards), ("dealer", dealer), ("board", board)):
        if not set(seen) <= set(opened[whose]) or (whose != "you" and sorted(seen) != sorted(opened[whose])):
            failures.append(f"the {whose} cards shown are not the cards opened")
    return failures


def _seed_failures(seeds: list[dict[str, Any]], seat: int, mine: str | None) -> list[str]:
    """Each seed given opens its seat's commitment; the seat's own is there, as it gave it."""
    failures = [
        f"seat {s['seat']}'s seed does not open its commitment"
        for s in seeds
        if s["seed"] and not _opens(s["seed"], s["commitment"])
    ]
    if mine is not None and not any(s["seat"] == seat and s["seed"] == mine for s in seeds):
        failures.append("your seed was not used")
    return failures


def _opens(seed_hex: str, commitment: str) -> bool:
    """Whether a seed (lowercase hex, as the page checks it too) opens a commitment."""
    return re.fullmatch(r"(?:[0-9a-f]{2})+", seed_hex) is not None and seed_commitment(seed_hex) == commitment
