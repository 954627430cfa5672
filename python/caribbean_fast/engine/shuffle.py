"""Provably fair shuffles: a server seed committed by its hash before the deal, revealed after.

The deck is a function of the seed alone: Fisher-Yates driven by HMAC-SHA256(seed, counter),
each index drawn without bias by rejection, so anyone holding the revealed seed re-derives the
deck and checks it against the commitment. Real play draws seeds from `secrets`; tests and
replays use `SeededSeeds`, which derives round seeds from one integer.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Iterator
from typing import Protocol

from ..cards import DECK_SIZE

__all__ = ["SecureSeeds", "SeedSource", "SeededSeeds", "commitment", "deck_from_seed"]

SEED_BYTES = 32
_WORDS = struct.Struct(">8I")  # a SHA-256 block as eight big-endian 32-bit words


def commitment(seed: bytes) -> str:
    """The hash published before the deal."""
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """An endless stream of 32-bit words from HMAC-SHA256(seed, counter)."""
    counter = 0
    while True:
        yield from _WORDS.unpack(hmac.digest(seed, counter.to_bytes(8, "big"), "sha256"))
        counter += 1


def _below(words: Iterator[int], n: int) -> int:
    """A uniform integer in 0..n-1: words at or above the largest multiple of n are rejected."""
    limit = (1 << 32) - (1 << 32) % n
    while (word := next(words)) >= limit:
        pass
    return word % n


def deck_from_seed(seed: bytes) -> list[int]:
    """The 52 card ids in dealing order for this seed (Fisher-Yates, from the top down)."""
    deck, words = list(range(DECK_SIZE)), _words(seed)
    for i in range(DECK_SIZE - 1, 0, -1):
        j = _below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


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
