"""The exact enumerations of the Rust core, run once per process and qualifier, reporting their
progress to a caller's callback. Each returns plain numpy arrays: one row per situation up to suit
renaming."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .. import _core
from ..progress import ProgressCallback

STUD_DEALER_HANDS: int = _core.STUD_DEALER_HANDS  # hidden dealer hands against one seat and up card
HOLDEM_DEALS_PER_FLOP: int = _core.HOLDEM_DEALS_PER_FLOP  # turns, rivers and dealer pairs after a flop
STEPS = 1000  # an enumeration's progress is told in thousandths


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


class _StepsReporter:
    """Turns the Rust core's fractions done into (steps done, `STEPS`) for a `ProgressCallback`:
    the core calls from its worker threads, so two fractions can arrive out of order, and only a
    larger one is passed on."""

    def __init__(self, progress: ProgressCallback) -> None:
        self._progress, self._done, self._lock = progress, -1, threading.Lock()

    def __call__(self, fraction: float) -> None:
        self.report(int(fraction * STEPS))

    def report(self, done: int) -> None:
        with self._lock:
            if done > self._done:
                self._done = min(done, STEPS)
                self._progress(self._done, STEPS)


def _count(
    call: Callable[[Callable[[float], None] | None], dict[str, npt.NDArray[np.generic]]],
    progress: ProgressCallback | None,
) -> tuple[dict[str, npt.NDArray[np.generic]], float]:
    """The core's enumeration `call`, told how to report progress, and the seconds it took."""
    start = time.perf_counter()
    if progress is None:
        return call(None), time.perf_counter() - start
    reporter = _StepsReporter(progress)
    reporter.report(0)
    out = call(reporter)
    reporter.report(STEPS)  # the core's last fraction may fall short of 1
    return out, time.perf_counter() - start


_STUD: dict[int, StudSituations] = {}
_HOLDEM: dict[int, HoldemSituations] = {}
# Kept by qualifier for the process, and not by functools.cache: a progress callback is no part
# of what is counted, and must not make a second count.


def stud_situations(qualifier: int, progress: ProgressCallback | None = None) -> StudSituations:
    """Every Caribbean Stud situation for a dealer qualifying from strength `qualifier`, counted
    once per process; `progress` hears of the counting (steps of `STEPS`) if it happens."""
    if qualifier not in _STUD:
        d, secs = _count(lambda p: _core.stud_situations(qualifier, p), progress)
        _STUD[qualifier] = StudSituations(
            d["up_rank"].astype(np.uint8, copy=False),
            d["hand"].astype(np.uint8, copy=False),
            d["weight"].astype(np.int64),
            d["strength"].astype(np.uint16, copy=False),
            d["counts"].astype(np.int64),
            secs,
        )
    return _STUD[qualifier]


def holdem_situations(qualifier: int, progress: ProgressCallback | None = None) -> HoldemSituations:
    """Every Casino Hold'em situation for a dealer qualifying from strength `qualifier`, counted
    once per process; `progress` hears of the counting (steps of `STEPS`) if it happens."""
    if qualifier not in _HOLDEM:
        d, secs = _count(lambda p: _core.holdem_situations(qualifier, p), progress)
        cards, counts = d["cards"].astype(np.uint8, copy=False), d["counts"].astype(np.uint32, copy=False)
        _HOLDEM[qualifier] = HoldemSituations(cards, d["weight"].astype(np.int64), counts, secs)
    return _HOLDEM[qualifier]
