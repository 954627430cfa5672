"""Argument types shared by the sub-commands: numbers are read once, here, so that no text a user
types (``inf``, ``nan``, ``1e400``, ``-1``) reaches the API as a value it cannot hold; argparse
turns each refusal into its usage line and exit status 2."""

from __future__ import annotations

import argparse
import math

__all__ = ["count", "positive", "seed", "threads"]

SEED_LIMIT = 2**64
"""Seeds are 64-bit unsigned integers in the Rust core."""


def positive(text: str) -> float:
    """A finite number above 0, e.g. a bankroll or a balance."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text} must be a finite number above 0")
    return value


def count(text: str) -> int:
    """A whole number of at least 1, written as an integer or as 1e9."""
    value = positive(text)
    if value != int(value) or value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number of at least 1")
    return int(value)


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def seed(text: str) -> int:
    """A seed: a whole number 0 to 2^64 - 1."""
    value = _integer(text)
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"{text} is not a seed: seeds are 0 to 2^64 - 1")
    return value


def threads(text: str) -> int:
    """A number of threads, at least 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} threads: at least 1 is needed")
    return value
