"""The exact enumerations of the Rust core, run once per qualifier and kept in the user's cache of
counted tables (`cache.cached_files`), reporting their progress to a caller's callback when they
run. Each gives plain numpy arrays, read-only: one row per situation up to suit renaming, in the
order of the strategy tables' keys (`strategy.row_keys`), so that a table of every situation takes
the rows and their keys as they are."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from .. import _core
from ..hands import evaluate_many
from ..progress import ProgressCallback
from .cache import AnyArrays, cached_files
from .strategy import row_keys, trust_rows

STUD_DEALER_HANDS: int = _core.STUD_DEALER_HANDS  # hidden dealer hands against one seat and up card
HOLDEM_DEALS_PER_FLOP: int = _core.HOLDEM_DEALS_PER_FLOP  # turns, rivers and dealer pairs after a flop
STEPS = 1000  # an enumeration's progress is told in thousandths


FORMAT = 1
"""Of the situations kept in the cache: a change to what is kept, or to how the core counts it,
takes a new number (the package's version is in the key as well)."""


@dataclass(frozen=True)
class StudSituations:
    """Every (seat hand, up card) up to suit renaming: the up card is a club of `up_rank`; `rows`
    the up rank then the hand (a strategy table's rows), `keys` theirs; counts (n, showdown
    column), each below 2^31."""

    rows: npt.NDArray[np.uint8]
    keys: npt.NDArray[np.int64]
    weight: npt.NDArray[np.int64]
    strength: npt.NDArray[np.uint16]
    counts: npt.NDArray[np.int32]
    seconds: float  # the enumeration's, when it ran

    @property
    def up_rank(self) -> npt.NDArray[np.uint8]:
        return self.rows[:, 0]

    @property
    def hand(self) -> npt.NDArray[np.uint8]:
        return self.rows[:, 1:]


@dataclass(frozen=True)
class HoldemSituations:
    """Every (two cards, flop) up to suit renaming: `cards` the two cards then the flop (a strategy
    table's rows), `keys` theirs, `strength` the five cards'; counts (n, class slot, showdown
    column)."""

    cards: npt.NDArray[np.uint8]
    keys: npt.NDArray[np.int64]
    weight: npt.NDArray[np.int64]
    strength: npt.NDArray[np.uint16]
    counts: npt.NDArray[np.uint32]
    seconds: float  # the enumeration's, when it ran


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
STUD_ARRAYS = ("rows", "keys", "weight", "strength", "counts", "seconds")
HOLDEM_ARRAYS = ("cards", "keys", "weight", "strength", "counts", "seconds")
S = TypeVar("S", "StudSituations", "HoldemSituations")


def stud_situations(qualifier: int, progress: ProgressCallback | None = None) -> StudSituations:
    """Every Caribbean Stud situation for a dealer qualifying from strength `qualifier`, counted
    once per qualifier and cache; `progress` hears of the counting (steps of `STEPS`) if it
    happens."""
    return _situations(_STUD, "stud", STUD_ARRAYS, StudSituations, qualifier, lambda: _count_stud(qualifier, progress))


def holdem_situations(qualifier: int, progress: ProgressCallback | None = None) -> HoldemSituations:
    """Every Casino Hold'em situation for a dealer qualifying from strength `qualifier`, counted
    once per qualifier and cache; `progress` hears of the counting (steps of `STEPS`) if it
    happens."""
    return _situations(
        _HOLDEM, "holdem", HOLDEM_ARRAYS, HoldemSituations, qualifier, lambda: _count_holdem(qualifier, progress)
    )


def _situations(
    kept: dict[int, S],
    game: str,
    names: tuple[str, ...],
    make: Callable[..., S],
    qualifier: int,
    count: Callable[[], AnyArrays],
) -> S:
    """A game's situations for `qualifier`: kept by the process, else read from the disk cache
    (`cached_files`, counted by `count` on a miss), their rows checked against their keys. `names`
    are the arrays in `make`'s order, the counting's seconds last."""
    if qualifier not in kept:
        a = cached_files("situations", f"{game} {qualifier} format {FORMAT}", names, count)
        trust_rows(a[names[0]], a["keys"])
        kept[qualifier] = make(*(a[n] for n in names[:-1]), float(a["seconds"]))
    return kept[qualifier]


def _count_stud(qualifier: int, progress: ProgressCallback | None) -> AnyArrays:
    d, secs = _count(lambda p: _core.stud_situations(qualifier, p), progress)
    rows = np.ascontiguousarray(np.column_stack([d["up_rank"], d["hand"]]).astype(np.uint8))
    counts = d["counts"]
    assert int(counts.max()) < 1 << 31, "a count too wide for the kept int32"
    return _in_key_order(
        {
            "rows": rows,
            "weight": d["weight"].astype(np.int64),
            "strength": d["strength"].astype(np.uint16),
            "counts": counts.astype(np.int32),
        },
        rows,
        secs,
    )


def _count_holdem(qualifier: int, progress: ProgressCallback | None) -> AnyArrays:
    d, secs = _count(lambda p: _core.holdem_situations(qualifier, p), progress)
    cards = d["cards"].astype(np.uint8)
    arrays: AnyArrays = {
        "cards": cards,
        "weight": d["weight"].astype(np.int64),
        "strength": evaluate_many(cards).astype(np.uint16),
        "counts": d["counts"].astype(np.uint32),
    }
    return _in_key_order(arrays, cards, secs)


def _in_key_order(arrays: AnyArrays, rows: npt.NDArray[np.uint8], seconds: float) -> AnyArrays:
    """The arrays' rows sorted by their keys (the core lists hold'em's in another order), with the
    keys and the enumeration's seconds."""
    keys = row_keys(rows)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    assert bool(np.all(keys[1:] > keys[:-1])), "a situation listed twice"
    sorted_arrays = {name: np.ascontiguousarray(a[order]) for name, a in arrays.items()}
    return sorted_arrays | {"keys": keys, "seconds": np.array(seconds)}
