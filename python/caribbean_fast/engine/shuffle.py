"""Provably fair shuffles: a server seed committed by its hash before the deal, revealed after.

The deck is a function of the seed alone: Fisher-Yates from the top down, each index drawn
without bias by rejection from the big-endian 32-bit words of HMAC-SHA256(seed, counter as 8
big-endian bytes), counter 0, 1, 2..., so anyone holding the revealed seed re-derives the
deck and checks it against the commitment. Real play draws seeds from `secrets`; tests and
replays use `SeededSeeds`, which derives round seeds from one integer.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Protocol

from .._core import seed_deck

__all__ = ["SecureSeeds", "SeedSource", "SeededSeeds", "commitment", "deck_from_seed"]

SEED_BYTES = 32


def commitment(seed: bytes) -> str:
    """The hash published before the deal."""
    return hashlib.sha256(seed).hexdigest()


def deck_from_seed(seed: bytes) -> list[int]:
    """The 52 card ids in dealing order for this seed (Fisher-Yates, from the top down; the core
    works it out: `rust/fairness.rs`)."""
    return list(seed_deck(seed))


class SeedSource(Protocol):
    def __call__(self, round_number: int) -> bytes: ...


class SecureSeeds:
    """Server seeds from the operating system's cryptographic source: real play."""

    def __call__(self, round_number: int) -> bytes:
        return secrets.token_bytes(SEED_BYTES)


class SeededSeeds:
    """Server seeds derived from one integer and the round number: tests, demonstrations, replays."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def __call__(self, round_number: int) -> bytes:
        return hashlib.sha256(f"caribbean-fast/{self.seed}/{round_number}".encode()).digest()
