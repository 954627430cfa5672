"""One settlement for every payout: the seeds' worked examples and every paytable row.

The expected tables below are typed from RULES.md, independently of the preset files."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from caribbean_fast import (
    ArgumentError,
    Decision,
    HandClass,
    ImpossibleOutcomeError,
    Outcome,
    Showdown,
    Stakes,
    VariantError,
    evaluate,
    load_variant,
    settle,
    settle_money,
)
from caribbean_fast.variants import MeterSplit

H = HandClass
RAISE, FOLD = Decision.RAISE, Decision.FOLD
WIN, PUSH, LOSE = Showdown.WIN, Showdown.PUSH, Showdown.LOSE

STUD_RAISE_PAYS = {
    "atlantic-city": {
        H.HIGH_CARD: 1,
        H.ONE_PAIR: 1,
        H.TWO_PAIR: 2,
        H.THREE_OF_A_KIND: 3,
        H.STRAIGHT: 4,
        H.FLUSH: 5,
        H.FULL_HOUSE: 7,
        H.FOUR_OF_A_KIND: 20,
        H.STRAIGHT_FLUSH: 50,
        H.ROYAL_FLUSH: 200,
    },
    "cyberstud": {
        H.HIGH_CARD: 1,
        H.ONE_PAIR: 1,
        H.TWO_PAIR: 2,
        H.THREE_OF_A_KIND: 3,
        H.STRAIGHT: 4,
        H.FLUSH: 5,
        H.FULL_HOUSE: 7,
        H.FOUR_OF_A_KIND: 20,
        H.STRAIGHT_FLUSH: 50,
        H.ROYAL_FLUSH: 100,
    },
    "network-24h": {
        H.HIGH_CARD: 1,
        H.ONE_PAIR: 1,
        H.TWO_PAIR: 2,
        H.THREE_OF_A_KIND: 3,
        H.STRAIGHT: 4,
        H.FLUSH: 6,
        H.FULL_HOUSE: 10,
        H.FOUR_OF_A_KIND: 20,
        H.STRAIGHT_FLUSH: 50,
        H.ROYAL_FLUSH: 200,
    },
    "caribbean-poker": {
        H.ACE_KING: 1,
        H.ONE_PAIR: 1,
        H.TWO_PAIR: 2,
        H.THREE_OF_A_KIND: 3,
        H.STRAIGHT: 4,
        H.FLUSH: 5,
        H.FULL_HOUSE: 7,
        H.FOUR_OF_A_KIND: 20,
        H.STRAIGHT_FLUSH: 50,
        H.ROYAL_FLUSH: 100,
    },
}
NETWORK_NO_QUALIFY = {H.FULL_HOUSE: 3, H.FOUR_OF_A_KIND: 5, H.STRAIGHT_FLUSH: 25, H.ROYAL_FLUSH: 100}
HOLDEM_ANTE_PAYS = {
    H.HIGH_CARD: 1,
    H.ONE_PAIR: 1,
    H.TWO_PAIR: 1,
    H.THREE_OF_A_KIND: 1,
    H.STRAIGHT: 1,
    H.FLUSH: 2,
    H.FULL_HOUSE: 3,
    H.FOUR_OF_A_KIND: 10,
    H.STRAIGHT_FLUSH: 20,
    H.ROYAL_FLUSH: 100,
}
ROWS = [(name, c, p) for name, table in STUD_RAISE_PAYS.items() for c, p in table.items()]


def strength(cards: str) -> int:
    return evaluate(cards).strength


def test_worked_examples_of_game_4() -> None:
    game = load_variant("caribbean-poker")
    full_house = settle_money(game, Outcome(RAISE, H.FULL_HOUSE, True, WIN), Stakes(ante=10))
    assert (full_house.ante, full_house.raise_, full_house.total) == (10, 140, 150)
    royal = settle_money(game, Outcome(RAISE, H.ROYAL_FLUSH, True, WIN), Stakes(ante=10))
    assert royal.total == 2010


@pytest.mark.parametrize(("name", "hand_class", "pays"), ROWS, ids=[f"{n}-{c.name}" for n, c, _ in ROWS])
def test_every_stud_raise_paytable_row(name: str, hand_class: HandClass, pays: int) -> None:
    s = settle(load_variant(name), Outcome(RAISE, hand_class, True, WIN))
    assert [s.ante, s.raise_] == [1, 2 * pays]


def test_stud_paytables_have_no_other_rows() -> None:
    for name, table in STUD_RAISE_PAYS.items():
        assert dict(load_variant(name).raise_paytable) == table


@pytest.mark.parametrize("hand_class", list(HOLDEM_ANTE_PAYS))
def test_every_holdem_ante_row(hand_class: HandClass) -> None:
    game = load_variant("casino-holdem")
    win = settle(game, Outcome(RAISE, hand_class, True, WIN))
    assert [win.ante, win.raise_] == [HOLDEM_ANTE_PAYS[hand_class], 2]  # the call pays 1 to 1 on 2 antes
    no_qualify = settle(game, Outcome(RAISE, hand_class, False))
    assert [no_qualify.ante, no_qualify.raise_] == [HOLDEM_ANTE_PAYS[hand_class], 0]  # the call pushes


@pytest.mark.parametrize("hand_class", list(STUD_RAISE_PAYS["network-24h"]))
def test_game_3_pays_the_raise_when_the_dealer_does_not_qualify(hand_class: HandClass) -> None:
    s = settle(load_variant("network-24h"), Outcome(RAISE, hand_class, dealer_qualifies=False))
    assert s.ante == 1
    assert s.raise_ == 2 * NETWORK_NO_QUALIFY.get(hand_class, 0)
    plain = settle(load_variant("cyberstud"), Outcome(RAISE, hand_class, dealer_qualifies=False))
    assert [plain.ante, plain.raise_] == [1, 0]


def test_push_fold_and_loss() -> None:
    game = load_variant("cyberstud")
    assert settle(game, Outcome(RAISE, H.FLUSH, True, PUSH)).main == 0
    assert settle(game, Outcome(RAISE, H.FLUSH, True, LOSE)).main == -3
    assert settle(game, Outcome(FOLD, H.FLUSH)).main == -1
    money = settle_money(game, Outcome(RAISE, H.TWO_PAIR, True, LOSE), Stakes(ante=500))
    assert (money.ante, money.raise_, money.total) == (-500, -1000, -1500)


def test_a_fold_loses_a_winning_aa_bonus() -> None:
    game = load_variant("casino-holdem")
    aces = strength("As Ad 7c 5h 2d")
    flush = strength("Ad Kd 9d 5d 2d")
    called = settle(game, Outcome(RAISE, H.ONE_PAIR, True, LOSE, first_five=aces))
    assert called.side_bets == {"aa-bonus": 7}
    folded = settle(game, Outcome(FOLD, H.ONE_PAIR, first_five=aces))
    assert folded.side_bets == {"aa-bonus": -1}
    assert settle(game, Outcome(RAISE, H.FLUSH, True, WIN, first_five=flush)).side_bets == {"aa-bonus": 25}
    kings = strength("Ks Kd 7c 5h 2d")
    assert settle(game, Outcome(RAISE, H.ONE_PAIR, True, WIN, first_five=kings)).side_bets == {"aa-bonus": -1}
    two_pair = strength("3s 3d 2c 2h Kd")  # two pair beats a pair of aces: it pays 7 to 1
    assert settle(game, Outcome(RAISE, H.TWO_PAIR, True, WIN, first_five=two_pair)).side_bets == {"aa-bonus": 7}
    money = settle_money(game, Outcome(FOLD, H.ONE_PAIR, first_five=aces), Stakes(ante=100, side_bets={"aa-bonus": 50}))
    assert (money.ante, money.side_bets, money.total) == (-100, {"aa-bonus": -50}, -150)


def test_a_progressive_is_paid_on_a_fold() -> None:
    game = load_variant("network-24h")  # stake 0.50 EUR; a full house wins 25.00 EUR
    full_house = strength("9s 9d 9c 4h 4d")
    s = settle_money(game, Outcome(FOLD, H.FULL_HOUSE, first_five=full_house), Stakes(ante=100, progressive=True))
    assert (s.ante, s.progressive, s.meter_paid) == (-100, 2500 - 50, 0)
    nothing = settle_money(
        game,
        Outcome(FOLD, H.ONE_PAIR, first_five=strength("9s 9d 7c 4h 2d")),
        Stakes(ante=100, progressive=True),
    )
    assert nothing.progressive == -50


def test_meter_percentages_and_two_royals_sharing_the_meter() -> None:
    game = load_variant("cyberstud")  # straight flush 10% and royal 100% of the meter; stake 1.00
    sf, royal = strength("9h 8h 7h 6h 5h"), strength("Ah Kh Qh Jh Th")
    exact = settle(game, Outcome(RAISE, H.STRAIGHT_FLUSH, True, WIN, first_five=sf)).progressive
    assert exact is not None and [exact.stakes, exact.meter_share] == [-1, Fraction(1, 10)]
    s = settle_money(
        game,
        Outcome(RAISE, H.STRAIGHT_FLUSH, True, WIN, first_five=sf),
        Stakes(100, progressive=True),
        meter=1_234_567,
    )
    assert (s.meter_paid, s.progressive) == (123_456, 123_456 - 100)
    shared = settle_money(
        game,
        Outcome(FOLD, H.ROYAL_FLUSH, first_five=royal),
        Stakes(100, progressive=True),
        meter=1_000_001,
        meter_sharers=2,
    )
    assert shared.meter_paid == 500_000
    assert (
        settle_money(
            game,
            Outcome(FOLD, H.FLUSH, first_five=strength("Ah 9h 7h 4h 2h")),
            Stakes(100, progressive=True),
            meter=10**6,
        ).progressive
        == 5000 - 100
    )


def test_exchange_fees_in_game_4() -> None:
    game = load_variant("caribbean-poker")
    s = settle_money(game, Outcome(RAISE, H.FLUSH, True, WIN, exchanges=2), Stakes(ante=10))
    assert (s.exchange_fees, s.total) == (-20, 10 + 100 - 20)


@pytest.mark.parametrize(
    ("name", "outcome", "message"),
    [
        ("cyberstud", Outcome(RAISE, H.ACE_KING, True, WIN), "Ace-King is not a class of cyberstud"),
        ("cyberstud", Outcome(RAISE, H.FLUSH, exchanges=1), "1 exchanges where cyberstud allows at most 0"),
        ("caribbean-poker", Outcome(RAISE, H.FLUSH, exchanges=4), "allows at most 3"),
        (
            "caribbean-poker",
            Outcome(RAISE, H.HIGH_CARD, True, WIN),
            "High card cannot beat a qualifying dealer",
        ),
    ],
)
def test_impossible_outcomes_raise(name: str, outcome: Outcome, message: str) -> None:
    with pytest.raises(ImpossibleOutcomeError, match=message):
        settle(load_variant(name), outcome)


def test_bad_money_stakes_raise() -> None:
    game = load_variant("cyberstud")
    win = Outcome(RAISE, H.FLUSH, True, WIN)
    with pytest.raises(ArgumentError, match="no side bet aa-bonus"):
        settle_money(game, win, Stakes(100, side_bets={"aa-bonus": 10}))
    with pytest.raises(ArgumentError, match="the ante must be positive"):
        settle_money(game, win, Stakes(0))
    with pytest.raises(ArgumentError, match="side bets need"):
        settle_money(game, win, Stakes(100, progressive=True))
    with pytest.raises(ArgumentError, match="has no progressive"):
        settle_money(load_variant("casino-holdem"), win, Stakes(100, progressive=True))


PROGRESSIVE_ROWS: dict[str, dict[HandClass, int | str]] = {
    # RULES.md: game 2's schedule (also game 1's) for a 1.00 USD stake; game 3's for 0.50 EUR.
    "cyberstud": {
        H.FLUSH: 5000,
        H.FULL_HOUSE: 10000,
        H.FOUR_OF_A_KIND: 50000,
        H.STRAIGHT_FLUSH: "10%",
        H.ROYAL_FLUSH: "100%",
    },
    "atlantic-city": {
        H.FLUSH: 5000,
        H.FULL_HOUSE: 10000,
        H.FOUR_OF_A_KIND: 50000,
        H.STRAIGHT_FLUSH: "10%",
        H.ROYAL_FLUSH: "100%",
    },
    "network-24h": {
        H.THREE_OF_A_KIND: 200,
        H.STRAIGHT: 300,
        H.FLUSH: 1500,
        H.FULL_HOUSE: 2500,
        H.FOUR_OF_A_KIND: 25000,
        H.STRAIGHT_FLUSH: 125000,
        H.ROYAL_FLUSH: "100%",
    },
}
PROGRESSIVE_HANDS = {
    H.HIGH_CARD: "Ks Qd 7c 5h 2d",
    H.ONE_PAIR: "9s 9d 7c 4h 2d",
    H.TWO_PAIR: "9s 9d 4c 4h 2d",
    H.THREE_OF_A_KIND: "9s 9d 9c 4h 2d",
    H.STRAIGHT: "9s 8d 7c 6h 5d",
    H.FLUSH: "Ah 9h 7h 4h 2h",
    H.FULL_HOUSE: "9s 9d 9c 4h 4d",
    H.FOUR_OF_A_KIND: "9s 9d 9c 9h 4d",
    H.STRAIGHT_FLUSH: "9h 8h 7h 6h 5h",
    H.ROYAL_FLUSH: "Ah Kh Qh Jh Th",
}


@pytest.mark.parametrize("name", list(PROGRESSIVE_ROWS))
def test_every_progressive_row(name: str) -> None:
    game, meter = load_variant(name), 1_000_000
    assert game.progressive is not None
    stake = game.progressive.stake
    for hand_class, cards in PROGRESSIVE_HANDS.items():
        prize = PROGRESSIVE_ROWS[name].get(hand_class, 0)
        won = meter * int(prize[:-1]) // 100 if isinstance(prize, str) else int(prize)
        outcome = Outcome(FOLD, hand_class, first_five=strength(cards))
        s = settle_money(game, outcome, Stakes(ante=game.limits[0].minimum, progressive=True), meter=meter)
        assert s.progressive == (won - stake if won else -stake), hand_class


def test_meter_split_each_pays_every_royal_in_full() -> None:
    game = load_variant("cyberstud")
    assert game.progressive is not None
    each = game.replace(progressive=dataclasses.replace(game.progressive, split=MeterSplit.EACH))
    royal = Outcome(FOLD, H.ROYAL_FLUSH, first_five=strength("Ah Kh Qh Jh Th"))
    s = settle_money(each, royal, Stakes(100, progressive=True), meter=1_000_000, meter_sharers=2)
    assert s.meter_paid == 1_000_000


def test_an_ante_paytable_for_a_dealer_that_does_not_qualify() -> None:
    game = load_variant("casino-holdem")
    flat = game.replace(ante_paytable_no_qualify=dict.fromkeys(game.classes, Fraction(1)))
    no_qualify = settle(flat, Outcome(RAISE, H.FLUSH, dealer_qualifies=False))
    assert [no_qualify.ante, no_qualify.raise_] == [1, 0]
    assert settle(flat, Outcome(RAISE, H.FLUSH, True, WIN)).ante == 2
    assert settle(game, Outcome(RAISE, H.FLUSH, dealer_qualifies=False)).ante == 2
    with pytest.raises(VariantError, match="ante_paytable_no_qualify: no payout for"):
        game.replace(ante_paytable_no_qualify={H.FLUSH: Fraction(1)})


def test_the_meter_pays_as_far_as_it_goes_and_the_house_tops_it_up() -> None:
    """One copy of the meter's rules, used by the table and the meter simulation alike."""
    from caribbean_fast.settlement import draw_meter, meter_top_up

    # Two prizes of 60 from a meter of 100: the second is covered for 40 (the house pays 20),
    # then the empty meter is topped up to its reset of 50.
    draw = draw_meter(100, [60, 60], 50)
    assert (draw.from_meter, draw.top_up, draw.meter) == ((60, 40), 50, 50)
    assert draw_meter(500, [0], 50).from_meter == (0,)
    assert (draw_meter(500, [], 50).top_up, draw_meter(500, [], 50).meter) == (0, 500)
    assert (meter_top_up(30, 50), meter_top_up(80, 50)) == (20, 0)
    p = load_variant("network-24h").progressive
    assert p is not None and p.split is MeterSplit.EQUAL
    assert [p.meter_prize(Fraction(1), 1001, n) for n in (1, 2, 3)] == [1001, 500, 333]
    each = dataclasses.replace(p, split=MeterSplit.EACH)
    assert [each.meter_prize(Fraction(1, 10), 1001, n) for n in (1, 2)] == [100, 100]
