"""The paytable designer (issue 36): a re-settle of counted tables equals a full analysis to the
last digit, and `tune` meets its target within its constraints, or says why it cannot."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from caribbean_fast import analyze
from caribbean_fast.analysis.resettle import counted, rtp
from caribbean_fast.analysis.tune import tune
from caribbean_fast.errors import ArgumentError
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


@pytest.mark.parametrize("name", sorted(TUNED))
def test_a_tuned_paytable_written_as_toml_analyzes_to_the_same_return(name: str, tmp_path: Path) -> None:
    variant = load_variant(name)
    target = analyze(variant).rtp + Fraction(1, 200)  # half a point more than the preset returns
    result = tune(variant, target, TUNED[name])
    chosen = result.chosen
    assert chosen.rtp >= target > max((c.rtp for c in result.below), default=Fraction(0))
    assert all(c.rtp >= chosen.rtp for c in result.above)
    path = tmp_path / f"{name}-tuned.toml"
    path.write_text(to_toml(chosen.variant))
    sheet = analyze(load_variant(path))  # a new Variant: nothing of the tune's counts is reused
    assert sheet.rtp == chosen.rtp
    assert sheet.expected_return == chosen.main.expected_return
    assert sheet.variance == chosen.main.variance


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
        (["bonus:royal-flush"], {}, "'bonus:royal-flush' is not bet:hand"),
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
