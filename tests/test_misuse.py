"""Silent wrong answers of issue 12, each now an error or a correct answer: an incomplete strategy
table, a class out of range, a deck dealt unshuffled, fault() by the rules book, and a deal the
seat could only fold."""

from __future__ import annotations

import numpy as np
import pytest
from tables import Clock

from caribbean_fast import load_variant
from caribbean_fast.analysis.strategy import SITUATIONS, StrategyTable
from caribbean_fast.cards import Deck, format_cards
from caribbean_fast.engine import Phase, Table
from caribbean_fast.errors import ArgumentError, InsufficientFundsError
from caribbean_fast.hands import HandClass, class_floor
from caribbean_fast.variants import Family


def test_an_incomplete_strategy_table_is_refused() -> None:
    n = SITUATIONS[Family.HOLDEM]
    keys = np.arange(n, dtype=np.int64) + (1 << 50)  # in order, but no real situation's
    whole = StrategyTable(Family.HOLDEM, keys, np.zeros(n, dtype=np.bool_), ())
    assert len(whole) == n
    with pytest.raises(ArgumentError, match="decides all 1,286,792 situations: 1,286,791 keys"):
        StrategyTable(Family.HOLDEM, np.arange(n - 1, dtype=np.int64), np.zeros(n - 1, dtype=np.bool_), ())
    twice = np.arange(n, dtype=np.int64)
    twice[1] = 0
    with pytest.raises(ArgumentError, match="each once and in order"):
        StrategyTable(Family.HOLDEM, twice, np.zeros(n, dtype=np.bool_), ())
    with pytest.raises(ArgumentError, match="no situation with key"):
        whole.decide("Ac Kd", "2c 3c 4c")  # the keys here are not the real ones


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
