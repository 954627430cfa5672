"""Game 4 with one exchange counted as dealt (`analysis.exchange_out`): the core's counts with the
discards put back are the stud counts times the given-up hands, the assembled table then settles to
the analysis' approximation exactly, every deal after an exchange is counted once, and a variant
with more exchanges is refused with the reason. (The core's counts with the discards out of play
equal a brute-force count in the Rust tests, on a reduced deck.)"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from caribbean_fast import _core, analyze, load_variant
from caribbean_fast.analysis import exchange_out
from caribbean_fast.analysis.exchange_out import Counted, colour_patterns, dealt_return
from caribbean_fast.analysis.parsheet import best_decisions
from caribbean_fast.analysis.situations import STUD_DEALER_HANDS
from caribbean_fast.analysis.stud import stud_exchange_plan, stud_rows
from caribbean_fast.errors import ArgumentError

GAME4 = load_variant("caribbean-poker")
assert GAME4.exchanges is not None
ONE = replace(GAME4, exchanges=replace(GAME4.exchanges, most_per_round=1))


@pytest.fixture(autouse=True)
def own_parts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's parts under a kind of their own (the tests' cache keeps the enumeration)."""
    monkeypatch.setattr(exchange_out, "KIND", f"exchange-out {tmp_path.name}")


@cache
def given_up(up_rank: int) -> tuple[np.ndarray, int]:
    """The rows given up against a club of `up_rank`, and how many hands they stand for."""
    rows = stud_rows(ONE)
    plan = stud_exchange_plan(rows)
    assert plan is not None
    s = rows.situations
    at = (s.up_rank == up_rank) & (plan.exchange_from == 1)
    return np.ascontiguousarray(s.hand[at]), int(s.weight[at].sum()) // 4


def test_with_the_discards_back_the_core_counts_the_stud_counts_times_the_given_up_hands() -> None:
    rows = stud_rows(ONE)
    s = rows.situations
    exchanged, n = given_up(0)
    at = np.flatnonzero(s.up_rank == 0)[::997][:96]
    finals = np.ascontiguousarray(s.hand[at])
    back = _core.one_exchange_counts(ONE.qualifier.strength, 0, exchanged, finals, np.ones(len(at), bool), False)
    assert np.array_equal(back["counts"], s.counts[at].astype(np.uint64) * n)
    assert set(back["paths"].tolist()) == {n * STUD_DEALER_HANDS}
    out = _core.one_exchange_counts(ONE.qualifier.strength, 0, exchanged, finals, np.ones(len(at), bool), True)
    assert np.array_equal(out["counts"].sum(axis=1), out["paths"])
    assert np.all(out["paths"] < back["paths"])  # fewer deals: the given-up hand avoids the others


def test_every_deal_after_an_exchange_is_counted_once() -> None:
    rows = stud_rows(ONE)
    s = rows.situations
    exchanged, n = given_up(2)
    at = np.flatnonzero(s.up_rank == 2)
    d = _core.one_exchange_counts(
        ONE.qualifier.strength, 2, exchanged, np.ascontiguousarray(s.hand[at]), np.zeros(len(at), bool)
    )
    assert not d["counts"].any()  # folds only: their paths
    deals = int((d["paths"].astype(np.int64) * s.weight[at]).sum())
    assert deals == 4 * n * math.comb(46, 5) * math.comb(41, 4)


def patterns_of_five(up_rank: int) -> int:
    """Colour patterns of five cards against a club of `up_rank`, from their generating
    polynomial (a rank: its club or not, none to three other cards; no club of the up rank), and
    the flushes in other suits (five ranks)."""
    per_rank = np.polynomial.polynomial.polymul([1, 1], [1, 1, 1, 1])
    polynomial = np.array([1])
    for rank in range(13):
        polynomial = np.polynomial.polynomial.polymul(polynomial, [1, 1, 1, 1] if rank == up_rank else per_rank)
    return int(polynomial[5]) + math.comb(13, 5)


def test_every_decision_is_a_function_of_the_colour_pattern() -> None:
    rows = stud_rows(GAME4)
    plan = stud_exchange_plan(rows)
    assert plan is not None
    s = rows.situations
    key = colour_patterns(s.hand) * 16 + s.up_rank
    calls = best_decisions(rows.raise_value, rows.fold_value, rows.ties)
    for decided in (plan.exchange_from.astype(np.int64), calls.astype(np.int64)):
        assert len(np.unique(key * 4 + decided)) == len(np.unique(key))
    for u in range(13):
        assert len(np.unique(key[s.up_rank == u])) == patterns_of_five(u)
    # One pattern: 9 7 5 4 3 without a club in any other suits; the flush is another.
    nine_high = np.array([[29, 22, 15, 9, 6], [30, 21, 13, 11, 7], [31, 23, 14, 9, 5], [29, 21, 13, 9, 5]], np.uint8)
    assert len(set(colour_patterns(nine_high[:3]).tolist())) == 1
    assert colour_patterns(nine_high)[3] != colour_patterns(nine_high)[0]


@cache
def row_of(up_rank: int) -> dict[bytes, int]:
    """The situations' rows against `up_rank` by their hand's bytes."""
    s = stud_rows(ONE).situations
    at = np.flatnonzero(s.up_rank == up_rank)
    return {bytes(h): int(i) for i, h in zip(at, s.hand[at], strict=True)}


def back_counts(
    q: int, up_rank: int, exchanged: np.ndarray, finals: np.ndarray, calls: np.ndarray, out: bool
) -> Counted:
    """The core's counts with the discards put back, from the situations (the identity above)."""
    assert not out
    s = stud_rows(ONE).situations
    keys = row_of(up_rank)
    rows = np.array([keys[bytes(h)] for h in finals])
    n = given_up(up_rank)[1]
    counts = np.where(calls[:, None], s.counts[rows].astype(np.int64) * n, 0)
    return {"counts": counts, "paths": np.full(len(rows), n * STUD_DEALER_HANDS, dtype=np.int64)}


def test_with_the_discards_back_the_table_settles_to_the_approximation(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchange_out, "_count", back_counts)
    heard: list[tuple[int, int]] = []
    dealt = dealt_return(ONE, "back", progress=lambda done, total: heard.append((done, total)))
    assert dealt.value == analyze(ONE).expected_return
    assert heard[-1][0] == heard[-1][1] and dealt.parts == len(heard)


def test_a_part_counted_once_is_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exchange_out, "_count", back_counts)
    first = dealt_return(ONE, "back")
    monkeypatch.setattr(exchange_out, "_count", lambda *args: pytest.fail("counted again"))
    assert dealt_return(ONE, "back").value == first.value


def test_more_exchanges_or_other_discards_are_refused() -> None:
    with pytest.raises(ArgumentError, match="one exchange a round only, not 3"):
        dealt_return(GAME4)
    with pytest.raises(ArgumentError, match="discards: one of out, back"):
        dealt_return(ONE, "gone")
    with pytest.raises(ArgumentError, match="finals: row 0"):
        exchanged, _ = given_up(0)
        _core.one_exchange_counts(ONE.qualifier.strength, 0, exchanged, exchanged[:1, ::-1].copy(), np.ones(1, bool))


@pytest.mark.slow
def test_parts_counted_on_dask_give_the_same_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    monkeypatch.setattr(exchange_out, "_count", back_counts)
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = exchange_out.dealt_table(ONE, "back", client=client)
    monkeypatch.setattr(exchange_out, "KIND", f"exchange-out {tmp_path.name} counted here")
    assert remote == exchange_out.dealt_table(ONE, "back")
