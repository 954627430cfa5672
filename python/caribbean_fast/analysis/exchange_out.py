"""Game 4 counted as it is dealt: the best strategy's exact return with the discarded cards out of
play, for a variant that allows one exchange a round.

After one exchange a round holds three disjoint hands: the one given up, the final one and the
dealer's. The Rust core counts, for each final hand, its dealer hands each weighted by the given-up
hands that avoid both (`_core.one_exchange_counts`, by inclusion and exclusion over the dealer's
cards); here those counts are settled, with the rounds that never exchange, over one denominator
by the one settlement function. Put back instead of out of play, the same count gives the
analysis' approximation again, which checks the whole chain.

Three exchanges, as game 4 allows, are not counted this way: every final and dealer hand would
need the number of disjoint triples of given-up hands avoiding both, and no design measured fits
this machine (docs/games/caribbean-poker.md, which weighs them, with `colour_patterns`: what every
decision of the strategy depends on). Game 4's figure with the discards out of play is simulated;
the core counts three exchanges exactly on a small deck only (`rust/exact/dealt.rs`), the check a
whole-deck count would be held to.

The count is cut into parts (an up card, a slice of its final hands), each kept in the cache of
counted tables when it finishes, keyed by what it depends on (the qualifier, the strategy's
exchanges and calls), so that an interrupted count resumes and variants that play alike share it;
parts run here or on Dask workers, with the same result.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .. import _core
from ..errors import ArgumentError
from ..progress import ProgressCallback, checked_progress
from ..settlement import Decision, Outcome
from ..variants import Variant, as_variant
from .cache import cached_by_key, is_cached
from .categories import SHOWDOWN_COLUMNS, raise_outcome
from .exchange import ExchangePlan
from .parsheet import best_decisions, settle_count_table
from .situations import STUD_DEALER_HANDS
from .stud import StudRows, stud_exchange_plan, stud_rows

__all__ = ["DISCARDS", "PART_ROWS", "DealtReturn", "colour_patterns", "dealt_return", "dealt_table"]

PART_ROWS = 1 << 15
"""Final hands per part: about two and a half minutes of one core with the discards out."""
DISCARDS = ("out", "back")
OTHERS = 51  # the cards other than the up card
KIND = "exchange-out"
Table = list[tuple[Outcome, int]]
Counted = dict[str, npt.NDArray[np.int64]]
Inputs = tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.bool_]]
"""A part's given-up hands, final hands, and the final hands' calls."""


@dataclass(frozen=True)
class DealtReturn:
    """The best strategy's return per ante counted as dealt (`discards` "out") or with the
    discards put back ("back": the analysis' approximation)."""

    variant: str
    discards: str
    value: Fraction
    parts: int
    seconds: float


@dataclass(frozen=True)
class _Part:
    up_rank: int
    rows: npt.NDArray[np.intp]  # the up rank's rows counted in this part


def colour_patterns(hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Each hand's colour pattern against a club up card: its ranks, which of them are clubs, and
    whether it is a flush, packed in one number. The dealer's flush can only be in clubs, so the
    three other cards of a rank play alike but for the seat's own flush: every decision of the
    strategy is a function of the pattern (the tests check), and a count of the exchanges by
    patterns needs exact corrections only for the seat's flushes."""
    h = hands.astype(np.int64)
    ranks = np.sort(h >> 2, axis=1) @ (13 ** np.arange(4, -1, -1))
    clubs = (np.where(h & 3 == 0, 1, 0) << (h >> 2)).sum(axis=1)
    flush = (h & 3 == h[:, :1] & 3).all(axis=1)
    packed: npt.NDArray[np.int64] = (ranks << 14) | (clubs << 1) | flush
    return packed


def _checked(variant: Variant | str | Path, discards: str) -> Variant:
    v = as_variant(variant)
    if discards not in DISCARDS:
        raise ArgumentError(f"discards: one of {', '.join(DISCARDS)}, not {discards!r}")
    if v.exchanges is None or v.exchanges.most_per_round != 1:
        most = v.exchanges.most_per_round if v.exchanges else 0
        raise ArgumentError(
            f"{v.name}: counted as dealt for one exchange a round only, not {most} (more would need the "
            "disjoint pairs of given-up hands avoiding every final and dealer hand: see the game's page)"
        )
    return v


def _plan(v: Variant) -> tuple[StudRows, ExchangePlan, npt.NDArray[np.bool_]]:
    rows = stud_rows(v)
    plan = stud_exchange_plan(rows)
    assert plan is not None and plan.most == 1
    return rows, plan, best_decisions(rows.raise_value, rows.fold_value, rows.ties)


def _parts(rows: StudRows, plan: ExchangePlan) -> list[_Part]:
    """The up ranks where some hand is given up, each cut into slices of `PART_ROWS` rows."""
    up = rows.situations.up_rank
    parts = []
    for u in range(13):
        if np.any((up == u) & (plan.exchange_from == 1)):
            at = np.flatnonzero(up == u)
            parts += [_Part(u, at[i : i + PART_ROWS]) for i in range(0, len(at), PART_ROWS)]
    return parts


def _count(
    qualifier: int,
    up_rank: int,
    given_up: npt.NDArray[np.uint8],
    finals: npt.NDArray[np.uint8],
    calls: npt.NDArray[np.bool_],
    out: bool,
) -> Counted:
    """One part counted by the core (here or on a Dask worker)."""
    d = _core.one_exchange_counts(qualifier, up_rank, given_up, finals, calls, out)
    return {"counts": d["counts"].astype(np.int64), "paths": d["paths"].astype(np.int64)}


def _part_inputs(rows: StudRows, plan: ExchangePlan, raises: npt.NDArray[np.bool_], part: _Part) -> Inputs:
    s = rows.situations
    given_up = np.ascontiguousarray(s.hand[(s.up_rank == part.up_rank) & (plan.exchange_from == 1)])
    return given_up, np.ascontiguousarray(s.hand[part.rows]), np.ascontiguousarray(raises[part.rows])


def _key(qualifier: int, part: _Part, discards: str, inputs: Inputs) -> str:
    digest = hashlib.sha256(b"".join(a.tobytes() for a in inputs)).hexdigest()
    return f"q {qualifier} up {part.up_rank} discards {discards} rows {len(part.rows)} {digest}"


def dealt_table(
    variant: Variant | str | Path,
    discards: str = "out",
    progress: ProgressCallback | None = None,
    client: Any = None,
) -> Table:
    """The best strategy's count table with the discards out of play (or put back): every round
    by outcome and exchanges made, over one denominator. Parts already in the cache are read;
    with a Dask `client` the others are counted on its workers."""
    v, progress = _checked(variant, discards), checked_progress(progress)
    rows, plan, raises = _plan(v)
    q, out = v.qualifier.strength, discards == "out"
    parts = _parts(rows, plan)
    inputs = [_part_inputs(rows, plan, raises, p) for p in parts]
    keys = [_key(q, p, discards, i) for p, i in zip(parts, inputs, strict=True)]
    missing = [k for k, key in enumerate(keys) if not is_cached(KIND, key)]
    remote = _submit(client, q, parts, inputs, missing, out) if client else {}
    total, done = sum(len(p.rows) for p in parts), 0
    counted: dict[int, list[Counted]] = {}
    for k, part in enumerate(parts):
        build = _builder(k, remote, q, part, inputs[k], out)
        counted.setdefault(part.up_rank, []).append(cached_by_key(KIND, keys[k], build))
        done += len(part.rows)
        if progress:
            progress(done, total)
    return _assemble(v, rows, plan, raises, counted, discards)


def _submit(
    client: Any, q: int, parts: list[_Part], inputs: list[Inputs], which: list[int], out: bool
) -> dict[int, Any]:
    """The parts `which` sent to the Dask cluster: their futures by part number."""
    return {k: client.submit(_count, q, parts[k].up_rank, *inputs[k], out, pure=False) for k in which}


def _builder(k: int, remote: dict[int, Any], q: int, part: _Part, inputs: Inputs, out: bool) -> Callable[[], Counted]:
    """How part k is counted on a cache miss: its Dask future's result, or here."""
    if k in remote:
        return lambda: remote[k].result()
    return lambda: _count(q, part.up_rank, *inputs, out)


def _assemble(
    v: Variant,
    rows: StudRows,
    plan: ExchangePlan,
    raises: npt.NDArray[np.bool_],
    counted: dict[int, list[Counted]],
    discards: str,
) -> Table:
    """Every up rank over the same denominator 4 C(51, 5) N1, N1 the deals after one given-up
    hand (a final hand, then the dealer's from what is left): a round that never exchanges counts
    N1 / C(46, 4) times, once for each way the next hand could have been dealt."""
    s = rows.situations
    if discards == "out":
        after = math.comb(OTHERS - 5, 5) * math.comb(OTHERS - 10, 4)
    else:
        after = math.comb(OTHERS, 5) * STUD_DEALER_HANDS
    once = after // STUD_DEALER_HANDS
    cells = len(v.classes) * SHOWDOWN_COLUMNS + 1  # by (class, column), the last: folds
    sums = np.zeros((2, cells), dtype=object)  # by exchanges made: exact integers
    for u in range(13):
        at = np.flatnonzero(s.up_rank == u)
        stays = at[plan.exchange_from[at] == 0]
        by_up = np.zeros((2, cells), dtype=object)
        by_up[0] = _cells(rows, raises, stays, s.counts[stays].astype(np.int64) * once, STUD_DEALER_HANDS * once)
        if u in counted:
            finals = np.concatenate([p.rows for p in _parts(rows, plan) if p.up_rank == u])
            counts = np.concatenate([c["counts"] for c in counted[u]])
            by_up[1] = _cells(rows, raises, finals, counts, np.concatenate([c["paths"] for c in counted[u]]))
        assert by_up.sum() == 4 * math.comb(OTHERS, 5) * after, f"up rank {u}: a round counted twice or missed"
        sums += by_up
    outcomes = [raise_outcome(c, col) for c in v.classes for col in range(SHOWDOWN_COLUMNS)]
    outcomes.append(Outcome(Decision.FOLD))
    return [(replace(o, exchanges=e), int(sums[e, k])) for e in range(2) for k, o in enumerate(outcomes)]


def _cells(
    rows: StudRows,
    raises: npt.NDArray[np.bool_],
    at: npt.NDArray[np.intp],
    counts: npt.NDArray[np.int64],
    folds: npt.NDArray[np.int64] | int,
) -> npt.NDArray[Any]:
    """The rows `at`, each times its weight, by (class, column) where raised and in the last
    (fold) cell where not: `counts` (len(at), column) of the raised, `folds` (per row, or one
    for all) of the folded."""
    w, called = rows.situations.weight[at], raises[at]
    out = np.zeros(len(rows.variant.classes) * SHOWDOWN_COLUMNS + 1, dtype=np.int64)
    slot = rows.class_index[at].astype(np.int64) * SHOWDOWN_COLUMNS
    for col in range(SHOWDOWN_COLUMNS):
        np.add.at(out, slot[called] + col, counts[called, col] * w[called])
    out[-1] = int((np.broadcast_to(folds, at.shape)[~called] * w[~called]).sum())
    return out.astype(object)


def dealt_return(
    variant: Variant | str | Path,
    discards: str = "out",
    progress: ProgressCallback | None = None,
    client: Any = None,
) -> DealtReturn:
    """The best strategy's exact return per ante, the discards out of play (or put back: the
    analysis' approximation), for a variant with one exchange a round (see `dealt_table`)."""
    start = time.perf_counter()
    table = dealt_table(variant, discards, progress, client)
    v = as_variant(variant)
    value = settle_count_table(v, table).expected_return
    parts = len(_parts(*_plan(_checked(v, discards))[:2]))
    return DealtReturn(v.name, discards, value, parts, time.perf_counter() - start)
