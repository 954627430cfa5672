"""The bounds every size, count and seed is held to before any work starts.

A request past them would not fail honestly: it would run for days, grow until the machine
kills it, or abort inside Rust on an allocation it cannot make. Each entry point (the
simulations, the meter, the plots, the command line) checks its arguments here and refuses the
rest with one ArgumentError naming the argument and its bound. The figures are what the machine
the project measures on can finish: 10**12 rounds is hours of simulation there
(docs/benchmarks.md), and 10**7 sessions is 160 MB of results.
"""

from __future__ import annotations

import math

from .errors import ArgumentError

__all__ = [
    "MAX_BANKROLL",
    "MAX_METER_ROUNDS",
    "MAX_PLOT_ROUNDS",
    "MAX_ROUNDS",
    "MAX_SESSIONS",
    "MAX_THREADS",
    "SEED_BITS",
    "checked_count",
    "checked_number",
    "checked_seed",
    "checked_sessions",
    "checked_threads",
    "parse_count",
]

MAX_ROUNDS = 10**12
"""The most rounds one simulation (or all the sessions of one, together) may play."""
MAX_METER_ROUNDS = 10**10
"""The most rounds times seats of the meter's simulation, which steps in Python by chunks."""
MAX_SESSIONS = 10**7
"""The most sessions one call may return (each keeps its final bankroll and whether it was ruined)."""
MAX_PLOT_ROUNDS = 10**6
"""The most rounds a session picture draws (its 40 paths are held in memory, and a picture shows
no more)."""
MAX_BANKROLL = 10**9
"""The largest bankroll in antes a session may start from."""
MAX_THREADS = 256
"""The most worker threads a call may ask for (the machine has far fewer cores)."""
SEED_BITS = 64
"""Seeds are 64-bit: the Rust streams take a u64."""


def checked_count(name: str, value: object, most: int, least: int = 1) -> int:
    """`value` as a whole number from `least` to `most`; ArgumentError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} must be a whole number, not {_shown(value)}")
    if not least <= value <= most:
        raise ArgumentError(f"{name} must be {least:,} to {most:,}, not {_shown(value)}")
    return value


def checked_seed(value: object) -> int:
    """A seed from 0 to 2**64 - 1."""
    return checked_count("seed", value, 2**SEED_BITS - 1, least=0)


def checked_threads(value: object) -> int | None:
    """None (every core) or 1 to MAX_THREADS."""
    return None if value is None else checked_count("threads", value, MAX_THREADS)


def checked_number(name: str, value: object, most: float) -> float:
    """A finite number above 0 and at most `most` (a bankroll in antes, say)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ArgumentError(f"{name} must be a number, not {_shown(value)}")
    number = float(value) if isinstance(value, float) or abs(value) < 2**1000 else math.inf
    if not (math.isfinite(number) and 0 < number <= most):
        raise ArgumentError(f"{name} must be more than 0 and at most {most:,g}, not {_shown(value)}")
    return number


def checked_sessions(sessions: object, rounds: object, most_rounds: int = MAX_ROUNDS) -> tuple[int, int]:
    """Sessions and their rounds: each bounded, and all their rounds together at most MAX_ROUNDS,
    checked before the simulator allocates a result for every session."""
    n = checked_count("sessions", sessions, MAX_SESSIONS)
    r = checked_count("rounds", rounds, most_rounds)
    if n * r > MAX_ROUNDS:
        raise ArgumentError(f"sessions x rounds must be at most {MAX_ROUNDS:,}, not {n * r:,}")
    return n, r


def parse_count(text: str, name: str = "rounds", most: int = MAX_ROUNDS) -> int:
    """A count from the command line, written whole ("1000000") or in powers of ten ("1e9")."""
    try:
        value = float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        raise ArgumentError(f"--{name} must be a whole number such as 1000000 or 1e9, not {text!r}") from None
    if isinstance(value, float) and not (math.isfinite(value) and value == int(value)):
        raise ArgumentError(f"--{name} must be a whole number such as 1000000 or 1e9, not {text!r}")
    return checked_count(f"--{name}", int(value), most)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
