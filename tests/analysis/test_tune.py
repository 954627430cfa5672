"""The paytable designer (issue 36): a re-settle of counted tables equals a full analysis to the
last digit, and `tune` meets its target within its constraints, or says why it cannot."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from caribbean_fast import analyze
from caribbean_fast.analysis.resettle import counted, rtp
from caribbean_fast.analysis.tune import compare, payout_curve, tune
from caribbean_fast.cli import main
from caribbean_fast.errors import ArgumentError, ArgumentTypeError
from caribbean_fast.variants import list_variants, load_variant
from caribbean_fast.variants.toml_io import to_toml

TUNED = {
    "cyberstud": ["raise:royal-flush", "raise:straight-flush", "raise:four-of-a-kind"],
    "casino-holdem": ["ante:royal-flush", "ante:straight-flush", "ante:four-of-a-kind"],
    "caribbean-poker": ["raise:royal-flush", "raise:straight-flush", "raise:four-of-a-kind"],  # game 4: exchanges
}


@pytest.mark.parametrize("name", list_variants())
def test_a_resettle_of_the_counted_tables_is_the_par_sheets_main_game(name: str) -> None:
    variant = load_variant(name)
    main, _ = counted(variant).main(variant)
    sheet = analyze(variant)
    assert (main.expected_return, main.average_wager, main.variance) == (
        sheet.expected_return,
        sheet.average_wager,
        sheet.variance,
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(TUNED))
def test_a_tuned_paytable_written_as_toml_analyzes_to_the_same_return(name: str, tmp_path: Path) -> None:
    variant = load_variant(name)
    target = analyze(variant).rtp + Fraction(1, 200)  # half a point more than the preset returns
    result = tune(variant, target, TUNED[name])
    chosen = result.chosen
    assert result.proven and result.bound is None  # within the default budget, game 4's exchanges too
    assert result.settles <= 400
    assert chosen.rtp >= target > max((c.rtp for c in result.below), default=Fraction(0))
    assert all(c.rtp >= chosen.rtp for c in result.above)
    path = tmp_path / f"{name}-tuned.toml"
    path.write_text(to_toml(chosen.variant))
    assert fresh_analysis(path, tmp_path / "empty-cache") == [
        str(chosen.rtp),
        str(chosen.main.expected_return),
        str(chosen.main.variance),
    ]


def fresh_analysis(path: Path, cache: Path) -> list[str]:
    """The par sheet of a TOML file in a new interpreter with an empty cache folder: every deal
    enumerated again, nothing of the tune's counts reused."""
    code = "import sys, caribbean_fast as cf; s = cf.analyze(sys.argv[1]); print(s.rtp, s.expected_return, s.variance)"
    env = {**os.environ, "CARIBBEAN_FAST_CACHE": str(cache)}
    out = subprocess.run([sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_tuned_pays_keep_their_step_their_bounds_and_rise_with_the_hands() -> None:
    variant = load_variant("cyberstud")
    target = analyze(variant).rtp + Fraction(3, 1000)
    result = tune(
        variant,
        target,
        ["raise:royal-flush", "raise:straight-flush"],
        step=Fraction(1, 2),
        bounds={"raise:royal-flush": (Fraction(100), Fraction(2000))},
    )
    for c in (*result.below, *result.above):
        royal, straight_flush = c.values
        assert royal % Fraction(1, 2) == 0 and straight_flush % Fraction(1, 2) == 0
        assert 100 <= royal <= 2000
        pays = [v for _, v in sorted(c.variant.raise_paytable.items())]
        assert pays == sorted(pays)
        assert rtp(c.main) == c.rtp


def test_a_target_out_of_reach_names_the_reachable_range() -> None:
    variant = load_variant("cyberstud")
    with pytest.raises(ArgumentError, match=r"target: 150\.0000% is out of reach.*reach \d+\.\d+% to \d+\.\d+%"):
        tune(variant, Fraction(3, 2), ["raise:royal-flush"])


@pytest.mark.parametrize(
    ("adjust", "bounds", "message"),
    [
        (["raise:royal-flsh"], {}, "'royal-flsh' is not a hand class of cyberstud"),
        (["bonus:royal-flush"], {}, "cyberstud has no bet or side bet 'bonus'"),
        (["aa-bonus:flush"], {}, "cyberstud has no bet or side bet 'aa-bonus'"),
        (["raise"], {}, "'raise' is not bet:hand"),
        (["progressive:royal-flush"], {}, "no fixed prize for royal-flush"),
        (["raise:flush", "progressive:flush"], {}, "the entries of one target at a time"),
        (["raise:ace-king"], {}, "'ace-king' is not a hand class of cyberstud"),
        (["raise:royal-flush", "raise:royal-flush"], {}, "name one or more different entries"),
        (["raise:royal-flush"], {"raise:royal-flush": (Fraction(500), Fraction(100))}, "has no allowed value"),
        (["raise:royal-flush"], {"raise:flush": (Fraction(1), Fraction(9))}, "'raise:flush' is not one of"),
    ],
)
def test_bad_designs_are_refused_naming_what_is_wrong(
    adjust: list[str], bounds: dict[str, tuple[Fraction, Fraction]], message: str
) -> None:
    with pytest.raises(ArgumentError, match=message):
        tune(load_variant("cyberstud"), Fraction(99, 100), adjust, bounds=bounds)


@pytest.mark.slow
def test_a_side_bets_tiers_are_solved_for_its_return_and_a_full_analysis_agrees() -> None:
    result = tune("casino-holdem", "95%", ["aa-bonus:flush", "aa-bonus:pair-of-aces"])
    chosen = result.chosen
    assert chosen.rtp >= Fraction(95, 100) > max(c.rtp for c in result.below)
    (bonus,) = analyze(chosen.variant).side_bets
    assert bonus.rtp("with this strategy") == chosen.rtp
    flush, aces = chosen.values
    assert flush >= aces  # the higher tier never pays less


@pytest.mark.slow
def test_the_progressives_prizes_are_solved_at_a_meter_with_its_break_even_point() -> None:
    meter = 20_000_00
    adjust = ["progressive:flush", "progressive:full-house"]
    with pytest.raises(ArgumentError, match=r"the player the edge: it returns 10\d\.\d{4}% at its reset"):
        tune("cyberstud", "105%", adjust, meter=meter)
    result = tune("cyberstud", "105%", adjust, meter=meter, allow_player_edge=True)
    progressive = analyze(result.chosen.variant).progressive
    assert progressive is not None
    assert 1 + progressive.expected(meter) == result.chosen.rtp >= Fraction(105, 100)
    even = progressive.break_even_meter
    assert even is not None and progressive.expected(even) >= 0 > progressive.expected(even - 1)


def test_the_payout_curve_rises_and_marks_where_the_best_strategy_changes() -> None:
    curve = payout_curve("cyberstud", "raise:high-card", points=9)
    assert [p.rtp for p in curve] == sorted(p.rtp for p in curve)
    assert any(p.strategy_changed for p in curve) and not curve[0].strategy_changed
    assert curve[-1].rtp == analyze("cyberstud").rtp  # the present pay, 1 to 1, is the top of its range


def test_two_paytables_compare_row_by_row_with_their_exact_figures() -> None:
    rows = {what: (a, b) for what, a, b in compare("cyberstud", "network-24h")}
    assert rows["raise: Royal flush"] == ("100 to 1", "200 to 1")
    assert rows["return to player"] == (
        f"{float(analyze('cyberstud').rtp):.4%}",
        f"{float(analyze('network-24h').rtp):.4%}",
    )


def test_the_command_writes_a_toml_that_analyze_confirms(tmp_path: Path) -> None:
    out = tmp_path / "tuned.toml"
    args = ["tune", "cyberstud", "--target-rtp", "97.8%", "--adjust", "raise:royal-flush,raise:straight-flush"]
    assert main([*args, "--bound", "raise:royal-flush=100..2000", "--out", str(out), "--name", "cyber-98"]) == 0
    tuned = load_variant(out)
    assert tuned.name == "cyber-98" and analyze(tuned).rtp >= Fraction(978, 1000)


def test_explicit_bounds_below_the_next_hands_pay_are_cut_to_it() -> None:
    bounds = {"raise:royal-flush": (Fraction(101, 4), Fraction(801, 4))}
    lowest = tune("cyberstud", "97.44%", ["raise:royal-flush"], step=Fraction(1, 2), bounds=bounds)
    assert lowest.chosen.values == (Fraction(50),) and not lowest.below  # the straight flush pays 50: nothing lower
    result = tune("cyberstud", "97.441%", ["raise:royal-flush"], step=Fraction(1, 2), bounds=bounds)
    assert min(c.values[0] for c in (*result.below, *result.above)) >= 50  # the straight flush pays 50


def test_hold_em_names_its_second_bet_call_in_entries_and_bounds() -> None:
    result = tune(
        "casino-holdem", analyze("casino-holdem").rtp, ["call:flush"], bounds={"call:flush": (Fraction(1), Fraction(3))}
    )
    assert [e.name for e in result.entries] == ["call:flush"]
    assert result.chosen.values == (Fraction(1),)  # the straight and the full house around it pay 1 and stay


@pytest.mark.parametrize(
    ("adjust", "step", "message"),
    [
        (["progressive:flush"], Fraction(1, 3), "not a whole number of minor units"),
        (["raise:royal-flush"], Fraction(-1), "step: must be positive"),
    ],
)
def test_a_step_that_cannot_be_paid_is_refused(adjust: list[str], step: Fraction, message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        tune("cyberstud", "105%" if "progressive" in adjust[0] else "97.5%", adjust, step=step)


def _every_allowed(
    name: str, adjust: list[str], lows: list[int], highs: list[int]
) -> list[tuple[Fraction, tuple[int, ...]]]:
    """The return of every paytable of a small grid, re-settled one by one: the search's oracle."""
    import itertools

    from caribbean_fast.analysis.tune import _with, parse_entry

    variant = load_variant(name)
    entries = [parse_entry(variant, a) for a in adjust]
    counts, out = counted(variant), []
    for ks in itertools.product(*(range(lo, hi + 1) for lo, hi in zip(lows, highs, strict=True))):
        tried = _with(variant, entries, [Fraction(k) for k in ks])
        table = tried.ante_paytable if entries[0].part == "ante_paytable" else tried.raise_paytable
        pays = [v for _, v in sorted(table.items())]
        if pays == sorted(pays):
            out.append((rtp(counts.main(tried)[0]), ks))
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "adjust", "lows", "highs"),
    [
        ("caribbean-poker", ["raise:flush", "raise:full-house"], [4, 5], [8, 12]),  # game 4: exchanges
        ("caribbean-poker", ["raise:one-pair", "raise:two-pair"], [0, 1], [3, 4]),  # game 4: pairs exchanged
        ("cyberstud", ["raise:one-pair", "raise:two-pair"], [0, 1], [3, 4]),  # the best strategy changes
        ("casino-holdem", ["ante:straight-flush", "ante:four-of-a-kind"], [17, 8], [23, 12]),  # every step, calls
    ],
)
def test_the_search_finds_what_every_paytable_tried_one_by_one_finds(
    name: str, adjust: list[str], lows: list[int], highs: list[int]
) -> None:
    every = _every_allowed(name, adjust, lows, highs)
    bounds = {a: (Fraction(lo), Fraction(hi)) for a, lo, hi in zip(adjust, lows, highs, strict=True)}
    for target in sorted({r for r, _ in every})[1::3]:
        result = tune(name, target, adjust, bounds=bounds, nearest=2, allow_player_edge=True)
        at_or_above = sorted(r for r, _ in every if r >= target)
        below = sorted((r for r, _ in every if r < target), reverse=True)
        assert result.proven and result.chosen.rtp == at_or_above[0]
        assert [c.rtp for c in result.above] == at_or_above[:2] and [c.rtp for c in result.below] == below[:2]


GAME_4_GRIDS = [
    (["raise:royal-flush", "raise:straight-flush", "raise:four-of-a-kind"], [7, 7, 7], [1000, 500, 200], 0),
    (["raise:one-pair", "raise:two-pair"], [0, 1], [3, 4], 133_272),  # pairs' values move: loose hands
]


@pytest.mark.parametrize(("adjust", "lows", "highs", "loose"), GAME_4_GRIDS)
def test_game_4s_exchange_model_values_a_paytable_as_a_resettle_does(
    adjust: list[str], lows: list[int], highs: list[int], loose: int
) -> None:
    from caribbean_fast.analysis.tune import _with, parse_entry
    from caribbean_fast.analysis.tune_exchange import exchange_model

    variant = load_variant("caribbean-poker")
    entries = [parse_entry(variant, a) for a in adjust]
    counts = counted(variant)

    def at(ks: tuple[int, ...]) -> object:
        return _with(variant, entries, [Fraction(k) for k in ks])

    model = exchange_model(counts, lows, highs, at)  # type: ignore[arg-type]
    assert model is not None and len(model.loose.up) == loose
    tried = [tuple(lows), tuple(highs), tuple((lo + 2 * hi) // 3 for lo, hi in zip(lows, highs, strict=True))]
    values, unsure = model.batch(np.array(tried, dtype=np.int64))
    assert not unsure.any()
    for ks, value in zip(tried, values, strict=True):
        main = counts.main(at(ks))[0]  # type: ignore[arg-type]
        assert model.figures(ks) == (main.expected_return, main.average_wager)
        assert abs(float(rtp(main) - 1) - value) < 1e-14


def test_game_4s_paytables_near_a_threshold_are_decided_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a tolerance so wide that most paytables have a hand "near" its threshold, the search
    values those exactly and answers as it does with the float's own."""
    from caribbean_fast.analysis import tune_exchange

    args = ("caribbean-poker", "99%", ["raise:straight-flush", "raise:four-of-a-kind"])
    bounds = {
        "raise:straight-flush": (Fraction(40), Fraction(80)),
        "raise:four-of-a-kind": (Fraction(15), Fraction(40)),
    }
    sure = tune(*args, bounds=bounds)
    monkeypatch.setattr(tune_exchange, "TOLERANCE", 1e-4)
    wide = tune(*args, bounds=bounds)
    assert sure.proven and wide.proven
    assert [c.values for c in (*wide.below, *wide.above)] == [c.values for c in (*sure.below, *sure.above)]


def test_a_paytable_that_gives_the_player_the_edge_is_refused_unless_asked_for() -> None:
    args = ("cyberstud", "90%", ["raise:one-pair", "raise:two-pair"])
    bounds = {"raise:one-pair": (Fraction(2), Fraction(2))}  # a pair paid 2 to 1: the player ahead
    with pytest.raises(ArgumentError, match=r"gives the player the edge.*allow_player_edge=True"):
        tune(*args, bounds=bounds)
    result = tune(*args, bounds=bounds, allow_player_edge=True)
    assert result.chosen.main.expected_return > 0 and result.warnings[0].startswith("WARNING: the paytable chosen")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"step": "x"}, ArgumentTypeError, "step: a number"),
        ({"step": True}, ArgumentTypeError, "step: a number"),
        ({"bounds": [1, 2]}, ArgumentTypeError, "bounds: a dict"),
        ({"bounds": {"raise:royal-flush": 5}}, ArgumentTypeError, "takes a pair"),
        ({"std_range": "1..2"}, ArgumentTypeError, "std_range: a pair"),
        ({"meter": -1}, ArgumentError, "meter: 0 to"),
        ({"nearest": True}, ArgumentTypeError, "nearest: a whole number"),
        ({"most_settles": 0}, ArgumentError, "most_settles: 1 to"),
        ({"progress": 3}, ArgumentTypeError, "progress: a callable"),
    ],
)
def test_every_argument_is_checked_with_the_packages_errors(
    kwargs: dict[str, object], error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        tune("cyberstud", "97.5%", ["raise:royal-flush"], **kwargs)  # type: ignore[arg-type]


def test_the_search_reports_its_progress_to_the_grids_size() -> None:
    calls: list[tuple[int, int]] = []
    result = tune(
        "cyberstud", "97.8%", ["raise:royal-flush", "raise:straight-flush"], progress=lambda d, t: calls.append((d, t))
    )
    assert calls[0] == (0, result.grid_size) and calls[-1] == (result.grid_size, result.grid_size)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_the_payout_curve_bounds_its_points() -> None:
    with pytest.raises(ArgumentError, match="points: 2 to 1,001"):
        payout_curve("cyberstud", "raise:high-card", points=10**6)


def test_the_command_checks_its_outputs_before_the_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tune", "cyberstud", "--target-rtp", "97.8%", "--adjust", "raise:royal-flush"]
    assert main([*args, "--out", str(tmp_path / "missing" / "x.toml")]) == 2
    assert main([*args, "--name", "bad name"]) == 2
    err = capsys.readouterr().err
    assert "out: the folder" in err and "name: 'bad name' is not a name" in err


@pytest.mark.slow
def test_hold_em_tables_say_call_rate(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["tune", "casino-holdem", "--target-rtp", "95%", "--adjust", "aa-bonus:flush,aa-bonus:pair-of-aces"]) == 0
    )
    out = capsys.readouterr().out
    assert "call rate" in out and "raise rate" not in out and "proven: the nearest allowed paytable" in out
    rows = {what for what, _, _ in compare("casino-holdem", "casino-holdem")}
    assert "call rate" in rows and "raise rate" not in rows


@pytest.mark.parametrize(
    ("name", "adjust", "lows", "highs"),
    [
        ("casino-holdem", TUNED["casino-holdem"], (3, 3, 3), (1000, 200, 100)),
        ("cyberstud", TUNED["cyberstud"], (7, 7, 7), (1000, 500, 200)),
    ],
)
def test_the_linear_model_gives_a_re_settles_figures_at_every_paytable_and_box(
    name: str, adjust: list[str], lows: tuple[int, ...], highs: tuple[int, ...]
) -> None:
    """The search reads every paytable of a game without exchanges from `tune_linear`: its exact
    figures equal a re-settle's, one paytable at a time and a whole box at once."""
    import numpy as np

    from caribbean_fast.analysis.tune import _with, parse_entry
    from caribbean_fast.analysis.tune_linear import linear_model

    variant = load_variant(name)
    entries = [parse_entry(variant, a) for a in adjust]
    counts = counted(variant)

    def at(ks: tuple[int, ...]) -> object:
        return _with(variant, entries, [Fraction(k) for k in ks])

    model = linear_model(counts, lows, highs, at)  # type: ignore[arg-type]
    assert model is not None
    for ks in [(100, 20, 10), (250, 60, 8), (600, 150, 40), highs]:
        main, _ = counts.main(at(ks))  # type: ignore[arg-type]
        assert model.figures(ks) == (main.expected_return, main.average_wager)
    box = model.box((100, 18, 8), (130, 22, 11))
    assert len(box.mixed) > 0 if name == "casino-holdem" else True  # hold'em's calls change inside it
    grid = np.array([(r, s, f) for r in range(100, 131, 10) for s in range(18, 23) for f in range(8, 12)])
    sums = model.sums(grid, box)
    for i in (0, 7, len(grid) - 1):
        expected, wager = model.figures(tuple(int(k) for k in grid[i]))
        assert (Fraction(int(sums.net[i]), model.denominator), model.wager(int(sums.raised[i]))) == (expected, wager)


def test_an_unproven_answer_names_the_search_s_work_in_re_settles(capsys: pytest.CaptureFixture[str]) -> None:
    """Cut by a budget of one re-settle, the answer says how much work the search did (`settles`),
    not how many paytables it re-settled one by one (`tries`)."""
    args = ["caribbean-poker", "--target-rtp", "99%", "--adjust", "raise:royal-flush,raise:four-of-a-kind"]
    result = tune("caribbean-poker", "99%", ["raise:royal-flush", "raise:four-of-a-kind"], most_settles=1)
    assert not result.proven and result.settles >= 1 and result.settles != result.tries
    assert main(["tune", *args, "--most-settles", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"NOT proven within the budget of {result.settles:,} re-settles" in out
