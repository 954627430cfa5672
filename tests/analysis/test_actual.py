"""The office's pure math (`analysis.actual`): each wager's theoretical and variance agree with
the par sheet's exact figures; bands, the rounds a shift takes to show, Bernstein's bound and
Holm's rule do what they state."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from caribbean_fast.analysis import analyze
from caribbean_fast.analysis.actual import (
    LEVELS,
    MAIN,
    PROGRESSIVE,
    Band,
    Moments,
    bernstein_p,
    holm,
    progressive_tiers,
    rounds_to_detect,
    theoretical,
    theoretical_apart,
    z_of,
)
from caribbean_fast.analysis.wagers import progressive_sheet, side_bet_sheets
from caribbean_fast.variants import load_variant


@pytest.mark.parametrize(
    "name", ["network-24h", pytest.param("casino-holdem", marks=pytest.mark.slow), "caribbean-poker"]
)
def test_each_wager_is_the_par_sheets(name: str) -> None:
    v = load_variant(name)
    sheet, t = analyze(v), theoretical(v)
    main = t.wagers[MAIN]
    assert main.mean == -sheet.expected_return and main.square[0] - main.mean**2 == sheet.variance
    for bet, ws in zip(v.side_bets, side_bet_sheets(sheet), strict=True):
        w = t.wagers[f"side:{bet.name}"]
        assert w.mean == -ws.expected_return and w.square[0] - w.mean**2 == ws.distribution.variance
    assert (PROGRESSIVE in t.wagers) == (v.progressive is not None)
    assert any("exchange" in n.lower() for n in t.notes) == (name == "caribbean-poker")


def test_the_progressive_is_the_par_sheets_at_every_meter() -> None:
    v = load_variant("network-24h")
    sheet, w = analyze(v), theoretical(v).wagers[PROGRESSIVE]
    assert sheet.progressive is not None
    assert (w.mean, w.per_meter) == (-sheet.progressive.fixed, -sheet.progressive.per_meter)
    assert sum(q for q, _, _ in progressive_tiers(sheet)) == 1
    assert theoretical(v).break_even_meter == sheet.progressive.break_even_meter
    for meter in (0, 2_500_000, 40_000_000):  # a meter above break-even favours the player
        at = progressive_sheet(sheet, meter)
        assert at is not None
        assert -(w.mean + w.per_meter * meter) == at.fixed + at.per_meter * meter
        square = w.square[0] + w.square[1] * meter + w.square[2] * meter**2
        variance = square - (w.mean + w.per_meter * meter) ** 2
        assert math.isclose(float(variance), at.distribution.variance, rel_tol=1e-6)  # its prizes in whole units


APART = """
from caribbean_fast.analysis import situations, stud
from caribbean_fast.analysis.actual import theoretical, theoretical_apart
from caribbean_fast.variants import load_variant
v = load_variant("cyberstud")
theoretical_apart([v, v])
kept = theoretical(v)
print(len(situations._STUD), len(stud._SHAPES), kept.wagers["main"].mean)
"""


def test_worked_out_apart_it_is_the_same_and_its_arrays_stay_there() -> None:
    """The server's office analyses in a process of its own (`theoretical_apart`): the caller
    keeps what it found, equal to its own analysis, and none of the analysis's arrays."""
    done = subprocess.run([sys.executable, "-c", APART], capture_output=True, text=True, check=True)
    situations, shapes, mean = done.stdout.split()
    assert (situations, shapes) == ("0", "0")  # `theoretical` found it kept: nothing analysed here
    assert mean == str(theoretical(load_variant("cyberstud")).wagers[MAIN].mean)
    theoretical_apart([load_variant("cyberstud")])  # kept here now: no process started


def test_a_band_is_its_stakes() -> None:
    t = theoretical(load_variant("atlantic-city"))
    w = t.wagers[MAIN]
    m = Moments()
    for ante in (500, 500, 30000):
        m.add(3 * ante, -ante, ante)
    b = t.band(MAIN, m)
    assert b.theoretical == pytest.approx(float(w.mean) * 31000)
    assert b.sd == pytest.approx(math.sqrt(float(w.square[0] - w.mean**2) * (2 * 500**2 + 30000**2)))
    low, high = b.limits(LEVELS[0])
    assert high - low == pytest.approx(2 * z_of(0.99) * b.sd / b.wagered)
    assert b.outside(LEVELS[0]) == (b.z < -z_of(0.99))
    assert b + Band(0, 0, 0.0, 0.0) == b
    with pytest.raises(KeyError, match="atlantic-city has no wager 'side:aa-bonus': it has main, progressive"):
        t.band("side:aa-bonus", m)


def test_the_rounds_a_shift_takes_to_show() -> None:
    n = rounds_to_detect(0.1, 5.0, 0.999, 0.5)  # at power one half, the expected actual at the edge
    assert n == math.ceil(z_of(0.999) ** 2 * 5.0 / 0.01)
    assert rounds_to_detect(0.1, 5.0) > n and rounds_to_detect(0.2, 5.0) * 4 == pytest.approx(
        rounds_to_detect(0.1, 5.0), abs=4
    )
    with pytest.raises(ValueError, match="shift: the players' gain per unit must be above 0, not 0"):
        rounds_to_detect(0, 5.0)


def test_bernsteins_bound_and_holms_rule() -> None:
    assert bernstein_p(-5.0, 100.0, 10.0) == 1.0
    assert bernstein_p(40.0, 100.0, 10.0) == pytest.approx(math.exp(-1600 / (2 * (100 + 400 / 3))))
    assert bernstein_p(40.0, 100.0, 100.0) > bernstein_p(40.0, 100.0, 10.0)  # a heavier tail, a weaker claim
    ps = [("a", 0.001), ("b", 0.012), ("c", 0.03), ("d", 0.2)]
    assert holm(ps, 0.05) == {"a", "b"}  # 0.03 > 0.05 / 2 stops the steps
    assert holm(ps, 0.001) == set() and holm([], 0.05) == set()
