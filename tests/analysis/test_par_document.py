"""The whole par sheet (issue 48, point 4): the round's net by amount, the bands of the return
over N rounds against exact binomials and simulated quantiles, the side bet's and progressive's
sheets against the sheet's own figures and a meter simulation, the tie rule, the least
favourable strategy, the strategy card and the per-hour figures."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from caribbean_fast import simulate_meter
from caribbean_fast.analysis import analyze, distribution, strategies
from caribbean_fast.analysis.distribution import LEVELS, NetDistribution, bands
from caribbean_fast.analysis.document import Assumptions, ParDocument, par_document
from caribbean_fast.cli import main
from caribbean_fast.errors import ArgumentError
from caribbean_fast.hands import HandClass
from caribbean_fast.variants import Prize, load_variant


@pytest.fixture(scope="module")
def holdem() -> ParDocument:
    return par_document("casino-holdem")


@pytest.fixture(scope="module")
def stud() -> ParDocument:
    return par_document("network-24h")


def test_the_net_by_amount_is_the_return_table_summed(stud: ParDocument) -> None:
    net, sheet = stud.net, stud.sheet
    assert sum(net.weights) == sheet.total_deals and len(set(net.amounts)) == len(net.amounts)
    assert net.mean == sheet.expected_return and net.variance == sheet.variance
    assert net.largest_win == 1 + 2 * 200  # the royal flush against a qualifying dealer
    assert net.weights[-1] == sum(e.combinations for e in sheet.events if e.net == 401)


def test_an_exact_band_is_the_binomial_quantile() -> None:
    """+1 or -1 with even chances: the sum over 1,000 rounds is binomial; its quantiles by hand."""
    d = NetDistribution.of([(Fraction(1), 1), (Fraction(-1), 1)])
    found = {b.level: b for b in bands(d, [1000])}
    cdf = np.cumsum([comb(1000, k) / 2**1000 for k in range(1001)])
    for level in LEVELS:
        tail = (1 - level) / 2
        low, high = int(np.searchsorted(cdf, tail)), int(np.searchsorted(cdf, 1 - tail))
        assert found[level].method == "exact"
        assert found[level].low == pytest.approx((2 * low - 1000) / 1000)
        assert found[level].high == pytest.approx((2 * high - 1000) / 1000)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "rounds"), [("atlantic-city", 1000), ("casino-holdem", 10_000)])
def test_bands_hold_against_simulated_quantiles(name: str, rounds: int) -> None:
    """20,000 runs of N rounds drawn from the exact distribution (multinomial counts): their
    quantiles lie within a few lattice steps and a few percent of the band's width of the band's."""
    d = NetDistribution.of((e.net, e.combinations) for e in analyze(name).events)
    p = np.array([float(d.probability(i)) for i in range(len(d.amounts))])
    counts = np.random.default_rng(7).multinomial(rounds, p / p.sum(), size=20_000)
    means = counts @ np.array([float(a) for a in d.amounts]) / rounds
    for b in bands(d, [rounds]):
        assert b.method == "exact" and b.low is not None and b.high is not None
        tail = (1 - b.level) / 2
        room = 0.04 * (b.high - b.low) + 3 / rounds
        assert np.quantile(means, tail) == pytest.approx(b.low, abs=room)
        assert np.quantile(means, 1 - tail) == pytest.approx(b.high, abs=room)


def test_a_band_out_of_reach_is_normal_only_where_checked(stud: ParDocument, monkeypatch: pytest.MonkeyPatch) -> None:
    """The main game's bands are exact up to 10^8 rounds; the progressive's (a 50,000-stake royal)
    is not given at 10^8, where the normal approximation fails its check at 10^7."""
    assert {b.method for b in stud.bands} == {"exact"}
    last = [b for b in stud.progressive_bands if b.rounds == 10**8]
    assert [b.method for b in last] == ["not given"] * 3 and last[0].low is None
    # A light-tailed bet (a binomial's steps) with a budget of 4,096 points: exact while the
    # window fits, then normal, checked against the last exact bands.
    monkeypatch.setattr(distribution, "MAX_POINTS", 4096)
    d = NetDistribution.of([(Fraction(k), comb(40, k)) for k in range(41)])
    methods = {b.rounds: b.method for b in bands(d)}
    assert methods[1000] == "exact" and methods[10**8] == "normal"


def test_the_side_bets_sheet_adds_up_to_its_return(holdem: ParDocument) -> None:
    (aa,) = holdem.side_bets
    assert aa.expected_return == holdem.sheet.side_bets[0].returns["with this strategy"]
    assert sum(r.combinations for r in aa.rows) == aa.total == 25_989_600  # two cards and a flop
    assert sum(r.contribution for r in aa.rows) == aa.expected_return
    assert [r.pays for r in aa.rows[:2]] == ["25 to 1", "7 to 1"]


def test_the_progressive_sheet_is_the_sheets_progressive(stud: ParDocument) -> None:
    g, exact = stud.progressive, stud.sheet.progressive
    assert g is not None and exact is not None
    assert (g.fixed, g.per_meter, g.break_even_meter) == (exact.fixed, exact.per_meter, exact.break_even_meter)
    assert g.return_at(g.reset) == 1 + exact.expected(exact.reset)
    assert g.rows[0].combinations == 4 and g.total == 2_598_960
    assert g.bets_between_top_awards == 649_740
    p = stud.variant.progressive
    assert p is not None and g.mean_meter == p.reset + p.contribution * 649_740  # the royal alone takes the meter


def test_the_meter_a_hit_finds_matches_a_meter_simulation() -> None:
    """Meter prizes on common hands (three of a kind takes the meter, two pair 10% of it), the
    reset 0: the meter simulation's mean meter at a hit and its return agree with the formula."""
    v = load_variant("cyberstud")
    assert v.progressive is not None
    prizes = {
        HandClass.THREE_OF_A_KIND: Prize(meter_share=Fraction(1)),
        HandClass.TWO_PAIR: Prize(meter_share=Fraction(1, 10)),
    }
    v = v.replace(progressive=v.progressive.__class__(stake=100, prizes=prizes, contribution=100, reset=0))
    g = par_document(v).progressive
    assert g is not None and g.mean_meter is not None
    run = simulate_meter(v, 400_000, seed=5)
    assert run.mean_meter_at_hits == pytest.approx(float(g.mean_meter), rel=0.02)
    assert run.rtp == pytest.approx(float(g.return_at(g.mean_meter)), rel=0.02)


def test_ties_fold_changes_the_call_rate_not_the_value(holdem: ParDocument) -> None:
    folding = analyze("casino-holdem", ties="fold")
    assert folding.expected_return == holdem.sheet.expected_return
    assert folding.p_raise < holdem.sheet.p_raise and folding.ties == "fold"
    with pytest.raises(ArgumentError, match="ties: 'never' is not one of raise, fold"):
        analyze("casino-holdem", ties="never")


def test_the_least_favourable_strategy_is_the_worst_named(holdem: ParDocument) -> None:
    worst = holdem.least_favourable
    assert worst is not None
    others = [analyze("casino-holdem", s).expected_return for s in strategies(holdem.variant) if s != "best"]
    assert worst.expected_return == min(others) < holdem.sheet.expected_return


def test_the_strategy_card_reads_the_table(holdem: ParDocument, stud: ParDocument) -> None:
    card = holdem.card
    assert card.cell(0, 0) == "C"  # a pair of aces calls on every flop
    text = stud.card.text()
    assert "AKQ" in text and "R: always raise" in text
    assert stud.card.cell(0, 12) == "R"  # A K Q against an ace: the up card pairs the ace


def test_per_hour_figures_follow_the_assumptions() -> None:
    d = par_document("network-24h", assumptions=Assumptions(rounds_per_hour=50, seats=3, ante=500))
    assert d.hourly.seat_win == 50 * 500 * d.sheet.house_edge and d.hourly.table_win == 3 * d.hourly.seat_win
    assert "3 seat(s) play at a table" in " ".join(d.assumptions.lines(d.variant))
    with pytest.raises(ArgumentError, match="seats: network-24h has 4 seat"):
        Assumptions(seats=5).checked(d.variant)
    with pytest.raises(ArgumentError, match="rounds_per_hour"):
        Assumptions(rounds_per_hour=0).checked(d.variant)


def test_cli_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "casino-holdem", "--ties", "fold", "--format", "json", "--rounds-per-hour", "90"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ties"] == "fold" and len(data["variant_hash"]) == 64
    names = [t["name"] for t in data["tables"]]
    assert names[:4] == ["Summary", "Strategies", "Return table", "Net by amount"]
    assert {"Bands", "AA Bonus", "Per hour", "Strategy card", "Provenance"} <= set(names)
    hourly = next(t for t in data["tables"] if t["name"] == "Per hour")
    assert hourly["rows"][0][1] == 90
    assert main(["analyze", "casino-holdem", "--out", "x.xlsx"]) == 2
    assert "--out is for --format xlsx or pdf" in capsys.readouterr().err
