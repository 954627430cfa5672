"""The misuse leftovers of issue 48: each is a clear error from the package's own classes, or the
work a caller asked for kept (a meter run stopped by Ctrl-C; a bounded memory of sheets)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import caribbean_fast.analysis as analysis
import caribbean_fast.analysis.meter as meter
from caribbean_fast import analyze, evaluate_many, simulate, simulate_meter, simulate_sessions
from caribbean_fast.analysis import strategies
from caribbean_fast.cards import parse_cards
from caribbean_fast.engine import Table
from caribbean_fast.errors import ArgumentError, ArgumentTypeError, InvalidCardsError
from caribbean_fast.variants import Family, load_variant


@pytest.mark.parametrize("given", [False, 0, "bar"])
def test_a_progress_that_is_not_callable_is_refused_by_every_runner(given: object) -> None:
    runs: list[Callable[[], object]] = [
        lambda: simulate("cyberstud", 1_000, progress=given),  # type: ignore[arg-type]
        lambda: simulate_sessions("cyberstud", 10, 10, 20.0, progress=given),  # type: ignore[arg-type]
        lambda: simulate_meter("cyberstud", 1_000, progress=given),  # type: ignore[arg-type]
        lambda: analyze("cyberstud", progress=given),  # type: ignore[arg-type]
    ]
    for run in runs:
        with pytest.raises(ArgumentTypeError, match=r"progress: a callable taking \(done, total\), or None"):
            run()


def test_a_path_given_as_a_store_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    with pytest.raises(ArgumentTypeError, match=r"store: an event store such as SqliteStore\(path\), not str"):
        Table("cyberstud", store=str(path))  # type: ignore[arg-type]
    assert not path.exists()


def test_the_strategies_of_a_variant_are_its_familys() -> None:
    stud, holdem = load_variant("cyberstud"), load_variant("casino-holdem")
    assert strategies(stud) == strategies(Family.STUD) != strategies(Family.HOLDEM) == strategies(holdem)
    assert "always-raise" in strategies(stud) and "always-call" not in strategies(stud)
    with pytest.raises(ArgumentTypeError, match="family: a Family or a Variant, not str"):
        strategies("cyberstud")  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [True, 1.0, "1"])
def test_a_seat_count_must_be_a_whole_number(seats: object) -> None:
    with pytest.raises(ArgumentError, match="seats: a whole number of seats"):
        simulate("network-24h", 1_000, seats=seats)  # type: ignore[arg-type]


def test_an_id_of_255_is_refused_in_the_words_of_the_other_checks() -> None:
    batch = np.array([parse_cards("As Ks Qs Js Ts")], dtype=np.uint8)
    batch[0, 2] = 255
    with pytest.raises(InvalidCardsError, match=r"card id 255 at position 2 is not in 0\.\.51"):
        evaluate_many(batch)


def test_ctrl_c_in_the_meter_keeps_the_chunks_finished(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meter, "_CHUNK", 20_000)
    calls: list[int] = []

    def stop_after_two(done: int, total: int) -> None:
        calls.append(done)
        if done >= 40_000:
            raise KeyboardInterrupt

    r = simulate_meter("network-24h", 100_000, seed=3, seats=2, progress=stop_after_two)
    assert r.partial and r.rounds == 40_000 and calls == [0, 20_000, 40_000]
    whole = simulate_meter("network-24h", 40_000, seed=3, seats=2)
    assert sum(r.hits.values()) == 2 * 40_000 and r.staked == whole.staked
    assert not whole.partial
    assert (whole.hits, whole.fixed_paid, whole.meter_paid) == (r.hits, r.fixed_paid, r.meter_paid)


@pytest.mark.slow
def test_analyze_keeps_only_the_last_sheets_it_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "_SHEETS", {})
    monkeypatch.setattr(analysis, "KEPT_SHEETS", 2)
    first = analyze("cyberstud", "always-raise")
    second = analyze("cyberstud", "pair-or-better")
    assert analyze("cyberstud", "always-raise") is first  # used again: now the latest
    analyze("cyberstud", "ace-king-or-better")  # drops the least recently used, `second`
    assert len(analysis._SHEETS) == 2
    again = analyze("cyberstud", "pair-or-better")
    assert again is not second and again.expected_return == second.expected_return
    assert analyze("cyberstud", "ace-king-or-better") is not first
