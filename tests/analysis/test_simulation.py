"""Bulk simulation: reproducible by seed, interruptible, scaled out on Dask, and in agreement with
the exact figures."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import caribbean_fast.analysis.simulator as simulator
from caribbean_fast import ArgumentError, analyze, load_variant, simulate, simulate_sessions
from caribbean_fast.analysis.meter import simulate_meter
from caribbean_fast.cli import main
from caribbean_fast.hands import evaluate_many
from caribbean_fast.variants import HandThreshold

STUD = ["atlantic-city", "cyberstud", "network-24h", "caribbean-poker"]


def test_same_seed_same_counts_whatever_the_threads() -> None:
    v = load_variant("cyberstud")
    one = simulate(v, 300_000, seed=5, threads=1)
    two = simulate(v, 300_000, seed=5, threads=2)
    assert (one.mean, one.stderr, one.per_seat) == (two.mean, two.stderr, two.per_seat)
    assert one.rounds == 300_000 and not one.partial
    other = simulate(v, 300_000, seed=6)
    assert other.mean != one.mean


@pytest.mark.parametrize("name", [*STUD, "casino-holdem"])
def test_simulated_mean_agrees_with_the_exact_return(name: str) -> None:
    v = load_variant(name)
    exact = float(analyze(v).expected_return)
    result = simulate(v, 3_000_000, seed=2026)
    assert abs(result.z_score(exact)) < 4, (result.mean, exact, result.stderr)
    sheet, n = analyze(v), result.rounds * result.seats
    for simulated, exact_frequency in (
        (result.hit_frequency, sheet.hit_frequency),
        (result.push_frequency, sheet.push_frequency),
    ):
        q = float(exact_frequency)  # the simulator's own count against the exact one
        assert abs(simulated - q) < 4 * math.sqrt(q * (1 - q) / n), (simulated, q)


def test_four_seats_share_one_deck() -> None:
    v = load_variant("network-24h")
    result = simulate(v, 200_000, seed=1, seats=4)
    assert len(result.per_seat) == 4 and all(s.rounds == 200_000 for s in result.per_seat)
    exact = float(analyze(v).expected_return)
    assert all(abs(s.mean - exact) < 5 * s.stderr for s in result.per_seat)
    with pytest.raises(ArgumentError, match="seats"):
        simulate(v, 1000, seats=5)
    with pytest.raises(ArgumentError, match="seats"):
        simulate(load_variant("cyberstud"), 1000, seats=2)
    with pytest.raises(ArgumentError, match="rounds"):
        simulate(v, 0)


def test_seven_seats_as_a_variant_may_seat() -> None:
    v = replace(load_variant("network-24h"), seats=7)
    result = simulate(v, 20_000, seed=1, seats=7)
    assert [s.rounds for s in result.per_seat] == [20_000] * 7
    assert main(["simulate", "network-24h", "--rounds", "1000", "--seats", "7"]) == 2  # the preset seats 4


@pytest.mark.slow
def test_more_exchanges_than_three_are_simulated_as_written() -> None:
    game_4 = load_variant("caribbean-poker")
    assert game_4.exchanges is not None
    v = replace(game_4, exchanges=replace(game_4.exchanges, most_per_round=6))
    sim = simulator.build_simulator(v, analyze(v).table, 1, "all-five")
    counts = sim.run(2, 0, 2, 100_000)
    assert counts.shape[simulator.SIM_AXES.index("exchanges")] == 7
    by_exchanges = counts.sum(axis=(0, 1, 2, 4))
    assert by_exchanges.sum() == 100_000 and (by_exchanges > 0).all(), by_exchanges
    result = simulate(v, 100_000, seed=2, exchange="all-five")  # settles every cell it counted
    assert result.rounds == 100_000


def test_ctrl_c_returns_the_rounds_so_far_marked_partial(monkeypatch: pytest.MonkeyPatch) -> None:
    real = simulator.build_simulator

    class Interrupted:
        def __init__(self, inner: Any) -> None:
            self.inner, self.calls, self.shape = inner, 0, inner.shape

        def run(self, *args: Any) -> Any:
            self.calls += 1
            if self.calls == 3:
                raise KeyboardInterrupt
            return self.inner.run(*args)

    monkeypatch.setattr(simulator, "build_simulator", lambda *a: Interrupted(real(*a)))
    result = simulate(load_variant("cyberstud"), 10 * simulator.BATCH_CHUNKS * simulator.CHUNK_ROUNDS, seed=3)
    assert result.partial
    assert result.rounds == 2 * simulator.BATCH_CHUNKS * simulator.CHUNK_ROUNDS


@pytest.mark.slow
def test_dask_gives_the_counts_of_a_local_run() -> None:
    distributed = pytest.importorskip("dask.distributed")
    v = load_variant("cyberstud")
    rounds = 3 * simulator.BATCH_CHUNKS * simulator.CHUNK_ROUNDS // 2
    local = simulate(v, rounds, seed=9)
    with (
        distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = simulate(v, rounds, seed=9, client=client)
    assert (remote.mean, remote.stderr, remote.rounds) == (local.mean, local.stderr, local.rounds)


def test_cli_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "casino-holdem", "--rounds", "2e5", "--seed", "7", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("rounds", "mean", "stderr", "ci95", "rounds_per_second"):
        assert key in data
    assert data["rounds"] == 200_000 and np.isfinite(data["z_score"])
    assert main(["simulate", "cyberstud", "--rounds", "2e5", "--seats", "3"]) == 2


def _share_of_hands_below_ace_king() -> float:
    """The exact share of the 2,598,960 five-card hands that rank below Ace-King high, by evaluating
    every one: the share of first hands the all-five strategy exchanges."""
    hands = np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)
    below = int((evaluate_many(hands) < HandThreshold("ace-king").strength).sum())
    assert below == 1_135_260  # 1,302,540 high-card hands, less the 167,280 of Ace-King high
    return below / math.comb(52, 5)


@pytest.mark.slow
def test_game_4_exchange_strategies() -> None:
    v = load_variant("caribbean-poker")
    plan = analyze(v).exchanges
    assert plan is not None
    never = simulate(v, 1_000_000, seed=4, exchange="never")
    assert abs(never.z_score(float(plan.never))) < 4, (never.mean, float(plan.never))  # the exact figures,
    table = simulate(v, 1_000_000, seed=4)  # never exchanging and exchanging by the table
    assert abs(table.z_score(float(plan.value))) < 4, (table.mean, float(plan.value))
    r = simulate(v, 1_000_000, seed=4, exchange="all-five")  # exchanges every first hand below Ace-King
    below = _share_of_hands_below_ace_king()
    assert abs(r.exchanged[0] - below) < 4 * math.sqrt(below * (1 - below) / r.rounds), (r.exchanged, below)
    choose = load_variant("caribbean-poker-choose")
    assert simulate(choose, 1_000_000, seed=4, exchange="keep-ace-king").mean > never.mean + 0.05
    with pytest.raises(ArgumentError, match="exchange: 'all-five' is not an exchange strategy of cyberstud"):
        simulate(load_variant("cyberstud"), 1000, exchange="all-five")
    with pytest.raises(ArgumentError, match="'keep-ace-king' is not an exchange strategy of caribbean-poker "):
        simulate(v, 1000, exchange="keep-ace-king")  # game 4 exchanges all five cards
    with pytest.raises(ArgumentError, match="exchange"):
        simulate(v, 1000, exchange="psychic")


def test_sessions_and_risk_of_ruin() -> None:
    v = load_variant("cyberstud")
    small = simulate_sessions(v, 2000, 500, bankroll=10, seed=1)
    large = simulate_sessions(v, 2000, 500, bankroll=200, seed=1)
    assert 0 < small.risk_of_ruin <= 1 and large.risk_of_ruin < small.risk_of_ruin
    assert len(small.final) == 2000 and small.ruined.dtype == bool
    assert (small.final[small.ruined] < 3).all()  # ruined: could not cover ante and raise
    # Without ruin, the mean result is rounds * the exact return, within 4 standard errors that
    # come from the exact variance of a round (not from the sample itself).
    sheet, survivors = analyze(v), int((~large.ruined).sum())
    drift = large.final[~large.ruined].mean() - 200
    assert abs(drift - 500 * float(sheet.expected_return)) < 4 * math.sqrt(500 * float(sheet.variance) / survivors)
    again = simulate_sessions(v, 2000, 500, bankroll=10, seed=1)
    assert (again.final == small.final).all()
    with pytest.raises(ArgumentError, match="sessions must be 1 to 10,000,000, not 0"):
        simulate_sessions(v, 0, 10, 10)


@pytest.mark.slow
def test_simulated_side_bet_and_progressive_agree_with_exact() -> None:
    holdem = load_variant("casino-holdem")
    exact = float(analyze(holdem).side_bets[0].returns["with this strategy"])
    r = simulate(holdem, 2_000_000, seed=8)
    assert abs(r.side_bets["aa-bonus"] - exact) < 4 * np.sqrt(12 / 2_000_000)
    stud = load_variant("network-24h")
    g = analyze(stud).progressive
    assert g is not None
    at_reset = float(g.expected(g.reset))
    # The progressive's return rests on rare hands (a royal flush takes the meter): over 40
    # seeds of 2 M rounds it spread with a standard deviation of 0.042, wider than the bound
    # below (0.036); 50 M rounds (about a second) make the bound some 4 standard errors.
    s = simulate(stud, 50_000_000, seed=8)
    assert s.progressive_at_reset is not None
    assert abs(s.progressive_at_reset - at_reset) < 0.05 * abs(at_reset) + 0.01


def test_meter_over_time_balances_and_matches_the_par_sheet() -> None:
    v = load_variant("network-24h")
    r = simulate_meter(v, 3_000_000, seed=5, seats=4)
    p, exact = v.progressive, analyze(v).progressive
    assert p is not None and exact is not None
    assert (r.exact_fixed, r.exact_per_meter) == (exact.fixed, exact.per_meter)
    contributions = r.rounds * r.seats * p.contribution
    assert r.final_meter == p.reset + contributions + r.house_top_ups - r.meter_paid
    fixed = {c: prize.amount for c, prize in p.prizes.items() if prize.amount}
    assert r.fixed_paid == sum(r.hits[c] * amount for c, amount in fixed.items())
    assert sum(r.hits.values()) == r.rounds * r.seats
    assert simulate_meter(v, 100_000, seed=5, seats=4) == simulate_meter(v, 100_000, seed=5, seats=4)


def test_cli_simulate_meter_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "cyberstud", "--meter", "--rounds", "200000", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rounds"] == 200_000 and set(out["hits"]) == {
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "royal_flush",
    }
    assert main(["simulate", "casino-holdem", "--meter", "--rounds", "10"]) == 2
