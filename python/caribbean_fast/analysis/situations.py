"""The exact enumerations of the Rust core, run once per process and qualifier, with a progress
bar on a terminal. Each returns plain numpy arrays: one row per situation up to suit renaming."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
from rich.progress import Progress

from .. import _core

STUD_DEALER_HANDS: int = _core.STUD_DEALER_HANDS  # hidden dealer hands against one seat and up card
HOLDEM_DEALS_PER_FLOP: int = _core.HOLDEM_DEALS_PER_FLOP  # turns, rivers and dealer pairs after a flop


@dataclass(frozen=True)
class StudSituations:
    """Every (seat hand, up card) up to suit renaming: the up card is a club of `up_rank`;
    counts (n, showdown column)."""

    up_rank: npt.NDArray[np.uint8]
    hand: npt.NDArray[np.uint8]
    weight: npt.NDArray[np.int64]
    strength: npt.NDArray[np.uint16]
    counts: npt.NDArray[np.int64]
    seconds: float


@dataclass(frozen=True)
class HoldemSituations:
    """Every (two cards, flop) up to suit renaming; counts (n, class slot, showdown column)."""

    cards: npt.NDArray[np.uint8]
    weight: npt.NDArray[np.int64]
    counts: npt.NDArray[np.uint32]
    seconds: float


def _run(
    label: str, call: Callable[[Callable[[float], None] | None], dict[str, npt.NDArray[np.generic]]]
) -> tuple[dict[str, npt.NDArray[np.generic]], float]:
    start = time.perf_counter()
    if not sys.stderr.isatty():
        return call(None), time.perf_counter() - start
    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=1.0)
        out = call(lambda done: bar.update(task, completed=done))
    return out, time.perf_counter() - start


@cache
def stud_situations(qualifier: int) -> StudSituations:
    """Every Caribbean Stud situation for a dealer qualifying from strength `qualifier`."""
    d, secs = _run("enumerating every Caribbean Stud deal", lambda p: _core.stud_situations(qualifier, p))
    return StudSituations(
        d["up_rank"].astype(np.uint8, copy=False),
        d["hand"].astype(np.uint8, copy=False),
        d["weight"].astype(np.int64),
        d["strength"].astype(np.uint16, copy=False),
        d["counts"].astype(np.int64),
        secs,
    )


@cache
def holdem_situations(qualifier: int) -> HoldemSituations:
    """Every Casino Hold'em situation for a dealer qualifying from strength `qualifier`."""
    d, secs = _run("enumerating every Casino Hold'em deal", lambda p: _core.holdem_situations(qualifier, p))
    cards, counts = d["cards"].astype(np.uint8, copy=False), d["counts"].astype(np.uint32, copy=False)
    return HoldemSituations(cards, d["weight"].astype(np.int64), counts, secs)
