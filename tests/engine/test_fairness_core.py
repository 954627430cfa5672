"""The provably fair deal worked out in the core (`_core.seed_deck`, `deck_leaves`, `deck_commitment`,
`position_salts`) is the protocol `engine/shuffle.py` and `engine/fairness.py` state, computed here again with
Python's hmac and hashlib: every deck, salt, leaf and root of random seeds, and the salts a seat's openings show."""

from __future__ import annotations

import hashlib
import hmac
import random

import pytest

from caribbean_fast import ArgumentError
from caribbean_fast._core import deck_commitment, deck_leaves, position_salts
from caribbean_fast.cards import DECK_SIZE
from caribbean_fast.engine.fairness import leaves, opening
from caribbean_fast.engine.shuffle import deck_from_seed


def _salt(seed: bytes, position: int) -> bytes:
    return hmac.digest(seed, f"position:{position}".encode(), "sha256")


def _leaf(seed: bytes, position: int, card: int) -> str:
    return hashlib.sha256(_salt(seed, position) + bytes([card])).hexdigest()


@pytest.mark.parametrize("trial", range(20))
def test_every_leaf_is_the_protocols(trial: int) -> None:
    rng = random.Random(trial)
    seed = rng.randbytes(rng.choice([0, 1, 16, 32, 64, 65, 200]))  # keys shorter and longer than a block
    deck = tuple(rng.sample(range(DECK_SIZE), DECK_SIZE))
    assert leaves(seed, deck) == tuple(_leaf(seed, p, c) for p, c in enumerate(deck))


@pytest.mark.parametrize("trial", range(10))
def test_a_decks_commitment_is_its_salts_leaves_and_root(trial: int) -> None:
    rng = random.Random(trial)
    seed = rng.randbytes(rng.choice([0, 1, 32, 65]))
    deck = rng.sample(range(DECK_SIZE), DECK_SIZE)
    salts, leaves_, root = deck_commitment(seed, deck)
    assert salts == b"".join(_salt(seed, p) for p in range(DECK_SIZE))
    assert leaves_ == [_leaf(seed, p, c) for p, c in enumerate(deck)]
    assert root == hashlib.sha256("".join(leaves_).encode()).hexdigest()


def test_an_openings_salts_are_the_protocols() -> None:
    seed, deck = b"\x07" * 32, list(range(DECK_SIZE))[::-1]
    proof = opening(seed, deck, ([1, 0], 5, 0, [(0, 2)]), seat=0, dealer=1, board=0)
    assert len(proof["openings"]) == 5 + 2 + 1
    for o in proof["openings"]:
        assert o["salt"] == _salt(seed, o["position"]).hex()


def test_bad_ids_and_positions_are_refused_by_name() -> None:
    with pytest.raises(ArgumentError, match="deck"):
        deck_leaves(b"s", [0, 52])
    with pytest.raises(ArgumentError, match="deck"):
        deck_commitment(b"s", [0, 52])
    with pytest.raises(ArgumentError, match="positions"):
        position_salts(b"s", [3, 52])
    assert position_salts(b"s", []) == b""


def _reference_deck(seed: bytes) -> list[int]:
    """`engine/shuffle.py`'s protocol in Python: Fisher-Yates from the top, each index drawn by
    rejection from the big-endian words of HMAC-SHA256(seed, counter)."""
    words = (
        int.from_bytes(block[k : k + 4], "big")
        for counter in range(10**6)
        for block in [hmac.digest(seed, counter.to_bytes(8, "big"), "sha256")]
        for k in range(0, 32, 4)
    )
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        n, limit = i + 1, (1 << 32) - (1 << 32) % (i + 1)
        j = next(w for w in words if w < limit) % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("trial", range(20))
def test_the_deck_of_a_seed_is_the_protocols(trial: int) -> None:
    seed = random.Random(trial).randbytes(32 if trial else 0)
    assert deck_from_seed(seed) == _reference_deck(seed)
