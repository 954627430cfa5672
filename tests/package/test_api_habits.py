"""The package as a notebook user meets it: every function that takes a variant takes a preset
name or a TOML path too, a wrong type is the package's own error naming the argument, a variant
the package could not play is refused when it loads, and reprs stay short."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import caribbean_fast as cf
from caribbean_fast.errors import ArgumentError, ArgumentTypeError, VariantError
from caribbean_fast.variants import write_variant


@pytest.mark.slow
def test_a_preset_name_or_a_toml_path_is_a_variant_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    write_variant(cf.load_variant("cyberstud"), path)
    for given in ("cyberstud", path, str(path)):
        assert cf.Table(given).variant.name == "cyberstud"
        assert cf.simulate(given, 2_000, seed=1).rounds == 2_000
    assert cf.analyze("casino-holdem").house_edge == cf.analyze(cf.load_variant("casino-holdem")).house_edge
    assert cf.simulate_sessions("cyberstud", 3, 10, bankroll=20).rounds == 10
    assert cf.simulate_meter("network-24h", 1_000).rounds == 1_000
    with pytest.raises(ArgumentTypeError, match="variant: a Variant, a preset name or a TOML path, not int 7"):
        cf.analyze(7)  # type: ignore[arg-type]


def test_wrong_types_are_the_packages_errors_naming_the_argument() -> None:
    t = cf.Table("cyberstud")
    t.deposit(0, 10_000)
    before = t.seq
    with pytest.raises(ArgumentTypeError, match="on: True or False"):
        t.progressive(0, "yes")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="ante: missing a required argument: 'amount'"):
        t.execute("ante", {"seat": 0})
    with pytest.raises(ArgumentError, match="ante: got an unexpected keyword argument 'colour'"):
        t.execute("ante", {"seat": 0, "amount": 100, "colour": "red"})
    with pytest.raises(ArgumentTypeError, match="cards: text or card ids, not bytes"):
        cf.evaluate(b"As Ks Qs Js Ts")
    masked = np.ma.masked_array(
        np.array([[0, 1, 2, 3, 4]], dtype=np.uint8), mask=np.array([[0, 0, 0, 0, 1]], dtype=bool)
    )
    with pytest.raises(ArgumentTypeError, match="a masked array's mask would be ignored"):
        cf.evaluate_many(masked)
    with pytest.raises(ArgumentTypeError, match="clock: must give timezone-aware datetimes"):
        cf.Table("cyberstud", clock=lambda: datetime(2026, 1, 1))
    assert t.seq == before  # nothing refused changed the table


def test_a_clock_that_goes_back_is_refused() -> None:
    now = [datetime(2026, 1, 1, tzinfo=UTC)]
    t = cf.Table("cyberstud", clock=lambda: now[0])
    t.deposit(0, 1_000)
    now[0] -= timedelta(hours=1)
    with pytest.raises(ArgumentError, match="clock: 2025-12-31T23:00:00\\+00:00 is before the table's last event"):
        t.deposit(0, 100)
    assert t.balance(0) == 1_000


@pytest.mark.parametrize(
    ("name", "changes", "message"),
    [
        ("cyberstud", {"raise_multiple": Fraction(1, 3)}, "raise_multiple: 1/3 of the minimum ante 100 is 33.3333"),
        ("cyberstud", {"raise_multiple": Fraction(1, 1000)}, "raise_multiple: 1/1000 of the minimum ante 100"),
        ("casino-holdem", {"seats": 7}, "seats: hold'em is played at one seat"),
        ("cyberstud", {"title": "\x1b[31mRed"}, "title: must be printable text"),
    ],
)
def test_a_variant_the_package_cannot_play_is_refused_at_load(
    name: str, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(VariantError, match=message.replace("(", "\\(")):
        cf.load_variant(name).replace(**changes)


def test_an_exchange_fee_in_fractions_of_a_minor_unit_is_refused_at_load() -> None:
    v = cf.load_variant("caribbean-poker")
    assert v.exchanges is not None
    with pytest.raises(VariantError, match=re.escape("exchanges.fee_antes: 1/3 of the minimum ante")):
        v.replace(exchanges=replace(v.exchanges, fee_antes=Fraction(1, 3)))


def test_reprs_are_short() -> None:
    result = cf.simulate("cyberstud", 2_000, seed=1)
    assert len(repr(result)) < 200 and repr(result).startswith("SimulationResult('cyberstud'")
    sessions = cf.simulate_sessions("cyberstud", 3, 10, bankroll=20)
    assert len(repr(sessions)) < 200


def test_a_par_sheet_says_what_its_figure_is_where_the_seat_chooses_its_exchange() -> None:
    """caribbean-poker-choose's exact figures value every exchange as giving up all five cards,
    while keeping an ace and a king beats the house: the sheet does not call them the best play."""
    from caribbean_fast.analysis.report import par_sheet_markdown
    from caribbean_fast.analysis.wording import strategy_words

    sheet = cf.analyze("caribbean-poker-choose")
    assert sheet.beaten_by is not None and sheet.expected_return < 0 < sheet.beaten_by.mean
    words = strategy_words(sheet)
    assert "every exchange gives up all five cards" in words and "not the best play" in words
    assert words in par_sheet_markdown(sheet).splitlines()[0]
    assert strategy_words(cf.analyze("caribbean-poker")) == "best strategy"


def test_holdem_and_game_4_sheets_call_where_stud_raises() -> None:
    """The par sheet's outcomes name the second bet as the game does (Variant.bet_words)."""
    for name, word in (("casino-holdem", "call"), ("caribbean-poker", "call"), ("cyberstud", "raise")):
        labels = [e.label for e in cf.analyze(name).events if not e.label.endswith("fold")]
        assert labels and all(f"{word}, " in label for label in labels), (name, labels[:3])
