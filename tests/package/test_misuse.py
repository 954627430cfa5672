"""Silent wrong answers of issue 12, each now an error or a correct answer: an incomplete strategy
table, a class out of range, a deck dealt unshuffled, fault() by the rules book, and a deal the
seat could only fold."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from tables import Clock

from caribbean_fast import load_variant
from caribbean_fast.analysis.strategy import SITUATIONS, StrategyTable
from caribbean_fast.cards import Deck, format_cards
from caribbean_fast.cli import main
from caribbean_fast.engine import Phase, Table
from caribbean_fast.errors import ArgumentError, IllegalActionError, InsufficientFundsError, VariantError
from caribbean_fast.hands import HandClass, class_floor
from caribbean_fast.variants import Family
from caribbean_fast.variants.model import BetLimits, Timing


def _rows(numbers: np.ndarray) -> np.ndarray:
    """Hold'em rows whose values, read in base 52, are `numbers`."""
    return np.stack([(numbers // 52 ** (4 - k)) % 52 for k in range(5)], axis=1).astype(np.uint8)


def test_an_incomplete_strategy_table_is_refused() -> None:
    n = SITUATIONS[Family.HOLDEM]
    numbers = np.arange(n, dtype=np.int64) + 51 * 52**4  # in order, but no real situation's (51 first)
    whole = StrategyTable(Family.HOLDEM, _rows(numbers), np.zeros(n, dtype=np.bool_), ())
    assert len(whole) == n
    with pytest.raises(ArgumentError, match=r"decides all 1,286,792 situations: \(1286791, 5\) rows"):
        StrategyTable(Family.HOLDEM, _rows(numbers[1:]), np.zeros(n - 1, dtype=np.bool_), ())
    twice = numbers.copy()
    twice[1] = twice[0]
    with pytest.raises(ArgumentError, match="each row once, in order"):
        StrategyTable(Family.HOLDEM, _rows(twice), np.zeros(n, dtype=np.bool_), ())
    with pytest.raises(ArgumentError, match="no situation with key"):
        whole.decide("Ac Kd", "2c 3c 4c")  # the rows here are not the real ones


@pytest.mark.parametrize("value", [-1, 11, True, 2.0, "flush"])
def test_class_floor_out_of_range(value: object) -> None:
    with pytest.raises(ArgumentError, match="must be a HandClass"):
        class_floor(value)  # type: ignore[arg-type]
    assert class_floor(HandClass.ROYAL_FLUSH) > class_floor(HandClass.STRAIGHT_FLUSH) > class_floor(HandClass.FLUSH)


def test_a_new_deck_is_shuffled() -> None:
    assert Deck(7).deal(5) == Deck(7).deal(5) != list(range(5))
    assert format_cards(Deck(7).deal(5)) != "2c 2d 2h 2s 3c"
    hands = {tuple(Deck(seed).deal(5)) for seed in range(50)}
    assert len(hands) == 50
    for bad in (-1, 2.5, "7"):
        with pytest.raises(ArgumentError):
            Deck(bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="whole number"):
        Deck(1).deal(2.0)  # type: ignore[arg-type]


def seated(name: str, balance: int, seats: int = 1) -> Table:
    t = Table(load_variant(name), seats=seats, seed=11, clock=Clock())
    for seat in range(seats):
        t.deposit(seat, balance)
    return t


def test_fault_completes_a_dealt_stud_round() -> None:
    t = seated("network-24h", 100_000, seats=2)
    for seat in (0, 1):
        t.ante(seat, 500)
    t.deal()
    t.fault("dealing shoe error")
    closed = t.events[-1]
    assert t.phase is Phase.SETTLED and closed.kind == "round_closed" and not closed.public["void"]
    decided = [e for e in t.events if e.kind == "decided"]
    assert [e.public["auto"] for e in decided] == [True, True]  # decided as a timed-out seat is
    nets = sum(e.public["net"]["total"] for e in t.events if e.kind == "settled")
    assert nets == t.balance(0) + t.balance(1) - 200_000 != 0


def test_fault_before_the_deal_refunds_in_every_game() -> None:
    for name in ("cyberstud", "casino-holdem"):
        t = seated(name, 100_000)
        t.ante(0, 500)
        t.fault("power cut")
        assert t.balance(0) == 100_000 and t.state.round.void


@pytest.mark.parametrize(("name", "word"), [("cyberstud", "raise"), ("casino-holdem", "call")])
def test_an_ante_whose_raise_the_wallet_cannot_cover_is_refused(name: str, word: str) -> None:
    t = seated(name, 1_000)
    multiple = t.variant.raise_multiple
    top = int(1_000 / (1 + multiple))
    top -= top % 100 if t.variant.currency.minor_per_major == 100 else 0
    with pytest.raises(InsufficientFundsError, match=f"the {word} of"):
        t.ante(0, 500)  # 500 + 2 x 500 > 1000
    assert t.phase is not Phase.DECIDING and t.balance(0) == 1_000
    t.ante(0, 300)
    with pytest.raises(InsufficientFundsError, match=f"the {word} of"):
        t.withdraw(0, 200)  # would leave 400 for a 600 raise
    t.deal()
    assert t.can_raise(0)


def test_rebet_in_holdem_never_stakes_what_the_call_needs() -> None:
    t = seated("casino-holdem", 1_400)
    t.ante(0, 400)
    t.deal()
    t.fold(0)
    assert t.balance(0) == 1_000
    with pytest.raises(InsufficientFundsError, match=r"the call of 8\.00"):
        t.rebet(0)  # 4.00 and its call of 8.00 are more than 10.00
    assert t.balance(0) == 1_000 and not t.can_rebet(0)


PRESET = (Path(__file__).parents[2] / "python/caribbean_fast/variants/presets/network-24h.toml").read_text()


def changed(old: str, new: str) -> str:
    assert old in PRESET, old
    return PRESET.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            changed("raise_multiple = 2", "raise_multiple = 1e300"),
            "must be more than 0 to 100, not 1e+300",
        ),
        (changed("raise_multiple = 2", "raise_multiple = 101"), "raise_multiple: must be more than 0 to 100, not 101"),
        (changed("raise_multiple = 2", 'raise_multiple = "1/3000000"'), "raise_multiple: 1/3000000 is too fine"),
        (changed("royal_flush = 200", "royal_flush = 1e30"), "royal_flush: must be 0 to 1,000,000"),
        (changed("royal_flush = 200", "royal_flush = inf"), "royal_flush: expected a number"),
        (changed("royal_flush = 200", "royal_flush = nan"), "royal_flush: expected a number"),
        (changed('maximum = "100.00"', "maximum = inf"), "limits[1].maximum: inf is not an amount"),
        (changed('maximum = "100.00"', 'maximum = "1e12"'), "limits[1].maximum: 1e12 is not an amount"),
        (changed("decision_seconds = 20", "decision_seconds = inf"), "timing.decision_seconds: must be more than 0"),
        (changed("decision_seconds = 20", "decision_seconds = nan"), "timing.decision_seconds: must be more than 0"),
        (changed("decision_seconds = 20", "decision_seconds = 1" + "0" * 400), "timing.decision_seconds: must be"),
        (changed("raise_multiple = 2", 'raise_multiple = "1e999999999"'), "is not a number a variant can hold"),
        (changed("raise_multiple = 2", "raise_multiple = " + "9" * 5000), "not valid TOML"),
        ("x = " + "[" * 100_000 + "]" * 100_000, "nested too deep"),
    ],
)
def test_variant_numbers_out_of_bounds_are_refused_at_load(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(VariantError, match=re.escape(words)):
        load_variant(path)


def test_a_variant_file_that_is_not_utf8_or_too_big(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes(PRESET.replace("24hNetwork", "24hNetwork \xe9").encode("latin-1"))
    with pytest.raises(VariantError, match="not UTF-8 text"):
        load_variant(latin)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (2 << 20))
    with pytest.raises(VariantError, match="a variant file is at most 1,048,576"):
        load_variant(big)
    assert main(["variants", "show", str(latin)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not UTF-8 text" in err


def test_python_built_variants_are_bounded_too() -> None:
    v = load_variant("cyberstud")
    changes: list[tuple[dict[str, object], str]] = [
        ({"raise_multiple": Fraction(10**300)}, "raise_multiple: must be more than 0 to 100"),
        ({"raise_multiple": 2.5}, "must be a whole number or a Fraction"),
        ({"seats": True}, "seats: must be 1 to 7"),
    ]
    for change, words in changes:
        with pytest.raises(VariantError, match=words):
            v.replace(**change)
    with pytest.raises(VariantError, match=r"timing\.decision_seconds: must be more than 0 to 10,000,000 seconds"):
        Timing(decision_seconds=float("inf"))
    with pytest.raises(VariantError, match="must be 1 to 10,000,000,000 minor units"):
        BetLimits(1, 10**30)


def test_amounts_at_a_table_are_bounded_and_named_in_the_currency() -> None:
    t = seated("cyberstud", 1_000)
    with pytest.raises(IllegalActionError, match=r"a deposit must be at most 100000000\.00 USD"):
        t.deposit(0, 10**30)
    with pytest.raises(IllegalActionError, match=r"a deposit must be positive, not -10\.00 USD"):
        t.deposit(0, -1000)


def test_a_path_given_where_a_store_is_due_names_the_store_to_open() -> None:
    """`restore("t.db")` is the likeliest slip: the package's error says what to pass instead."""
    import caribbean_fast as cf

    for call in (cf.restore, cf.audit):
        with pytest.raises(cf.ArgumentTypeError, match=r"SqliteStore\(path, mode='read'\), not str 't.db'"):
            call("t.db")  # type: ignore[arg-type]
    with pytest.raises(cf.ArgumentTypeError, match="settle takes an Outcome, not str"):
        cf.settle(cf.load_variant("cyberstud"), "win")  # type: ignore[arg-type]
