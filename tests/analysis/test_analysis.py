"""Exact par sheets: totals, published figures, the seed's table, and counts checked by brute
force against the enumeration's rows."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import lcm

import numpy as np
import pytest

from caribbean_fast import (
    DISTINCT_STRENGTHS,
    ArgumentError,
    Decision,
    HandClass,
    ImpossibleOutcomeError,
    Outcome,
    Showdown,
    evaluate,
    evaluate_many,
    load_variant,
    settle,
)
from caribbean_fast.analysis import ParSheet, StrategyTable, analyze, strategies, stud
from caribbean_fast.analysis import holdem as holdem_analysis
from caribbean_fast.analysis.categories import scaled_nets
from caribbean_fast.analysis.report import par_sheet_dict, par_sheet_markdown
from caribbean_fast.analysis.situations import holdem_situations, stud_situations
from caribbean_fast.analysis.strategy import SITUATIONS, trust_rows
from caribbean_fast.analysis.stud import stud_rows
from caribbean_fast.cli import main
from caribbean_fast.variants import Family


@pytest.fixture(scope="module")
def cyberstud() -> ParSheet:
    return analyze(load_variant("cyberstud"))


@pytest.fixture(scope="module")
def holdem() -> ParSheet:
    return analyze(load_variant("casino-holdem"))


def test_stud_weights_cover_every_deal(cyberstud: ParSheet) -> None:
    assert len(cyberstud.table) == SITUATIONS[Family.STUD]  # a strategy table is whole
    assert cyberstud.total_deals == 19_933_230_517_200
    assert sum(e.probability for e in cyberstud.events) == 1


COLUMNS = [(False, Showdown.PUSH), (True, Showdown.WIN), (True, Showdown.PUSH), (True, Showdown.LOSE)]
"""The Rust count columns: dealer does not qualify, seat higher, equal, dealer higher."""


@pytest.mark.slow
@pytest.mark.parametrize("name", ["cyberstud", "atlantic-city", "network-24h"])
def test_best_stud_figures_equal_a_separate_count(name: str) -> None:
    """The best strategy's return, raise rate and push frequency, counted again from the raw
    situation counts (raise where raising nets more, with nets straight from `settle`), not from
    the par sheet's events or strategy table."""
    v = load_variant(name)
    s = stud_situations(v.qualifier.strength)
    nets = {}
    for c in v.classes:
        for k, (qualifies, showdown) in enumerate(COLUMNS):
            try:
                nets[c, k] = settle(v, Outcome(Decision.RAISE, c, qualifies, showdown)).main
            except ImpossibleOutcomeError:
                nets[c, k] = Fraction(0)  # a count the enumeration never fills
    fold = settle(v, Outcome(Decision.FOLD)).main
    scale = lcm(*(x.denominator for x in [*nets.values(), fold]))
    per_class = np.zeros((len(HandClass), 4), dtype=np.int64)
    for (c, k), x in nets.items():
        per_class[c, k] = int(x * scale)
    classes = np.array([0] + [int(v.classify(x)) for x in range(1, DISTINCT_STRENGTHS + 1)])[s.strength]
    dealt = s.counts.sum(axis=1)
    raise_, fold_ = (s.counts * per_class[classes]).sum(axis=1), dealt * int(fold * scale)
    assert not (raise_ == fold_).any()  # no situation where the choice is a tie
    raised, total = raise_ > fold_, int((s.weight * dealt).sum())
    p = analyze(v)
    assert p.expected_return == Fraction(int((s.weight * np.maximum(raise_, fold_)).sum()), total * scale)
    assert p.p_raise == Fraction(int((s.weight[raised] * dealt[raised]).sum()), total)
    assert p.push_frequency == Fraction(int((s.weight[raised] * s.counts[raised, 2]).sum()), total)
    always = analyze(v, "always-raise")
    assert always.expected_return == Fraction(int((s.weight * raise_).sum()), total * scale)
    assert always.cost_against_best == p.expected_return - always.expected_return > 0


def test_stud_matches_the_published_figures(cyberstud: ParSheet) -> None:
    # Caribbean Stud with this paytable: house edge 5.224%, raise 52.23%, element of risk 2.555%.
    assert round(float(cyberstud.house_edge), 5) == 0.05224
    assert round(float(cyberstud.p_raise), 4) == 0.5223
    assert round(float(cyberstud.element_of_risk), 5) == 0.02555
    assert cyberstud.average_wager == 1 + 2 * cyberstud.p_raise
    assert isinstance(cyberstud.expected_return, Fraction)
    assert 2.2 < cyberstud.std_dev < 2.3


@pytest.mark.parametrize("row", [0, 777_777, 3_000_000, 5_649_149])
def test_stud_rows_equal_brute_force(row: int) -> None:
    s = stud_situations(evaluate("Ac Kd 4h 3s 2c").strength)
    hand, up = s.hand[row].tolist(), 4 * int(s.up_rank[row])
    rest = [c for c in range(52) if c != up and c not in hand]
    hidden = np.array(list(combinations(rest, 4)), dtype=np.uint8)
    dealer = evaluate_many(np.hstack([np.full((len(hidden), 1), up, dtype=np.uint8), hidden])).astype(int)
    player, q = evaluate(hand).strength, evaluate("Ac Kd 4h 3s 2c").strength
    no_q = dealer < q
    expected = [
        no_q.sum(),
        (~no_q & (dealer < player)).sum(),
        (~no_q & (dealer == player)).sum(),
        (~no_q & (dealer > player)).sum(),
    ]
    assert s.counts[row].tolist() == expected


@pytest.mark.slow
def test_holdem_row_equals_brute_force() -> None:
    s = holdem_situations(evaluate("4c 4d 5h 3s 2c").strength)
    row = 654_321
    cards = s.cards[row].tolist()
    hole, flop = cards[:2], cards[2:]
    rest = [c for c in range(52) if c not in cards]
    out = np.zeros((10, 4), dtype=np.int64)
    q = evaluate("4c 4d 5h 3s 2c").strength
    for tr in combinations(rest, 2):
        board = [*flop, *tr]
        seat = evaluate([*hole, *board])
        left = [c for c in rest if c not in tr]
        pairs = np.array(list(combinations(left, 2)), dtype=np.uint8)
        dealer = evaluate_many(np.hstack([pairs, np.tile(np.array(board, dtype=np.uint8), (len(pairs), 1))]))
        dealer = dealer.astype(int)
        slot = int(seat.hand_class) - (1 if seat.hand_class > 1 else 0)
        no_q = dealer < q
        out[slot] += [
            no_q.sum(),
            (~no_q & (dealer < seat.strength)).sum(),
            (~no_q & (dealer == seat.strength)).sum(),
            (~no_q & (dealer > seat.strength)).sum(),
        ]
    assert (s.counts[row].reshape(10, 4) == out * s.weight[row]).all()


def test_holdem_reproduces_the_seed(holdem: ParSheet) -> None:
    assert holdem.total_deals == 27_813_810_024_000
    assert len(holdem.table) == SITUATIONS[Family.HOLDEM]
    assert round(float(holdem.rtp) * 100, 2) == 99.18  # seed: main game 99.18% under the best strategy
    bonus = holdem.side_bets[0]
    assert bonus.name == "aa-bonus"
    assert round(float(bonus.rtp("calling whenever it wins")) * 100, 2) == 93.60  # seed: 93.60%
    assert bonus.returns["always settled"] == bonus.returns["calling whenever it wins"]
    # The seed says 90.9% with the best strategy; the exact figure is 90.78% (docs/games/casino-holdem.md).
    assert round(float(bonus.rtp("with this strategy")) * 100, 2) == 90.78


def test_holdem_named_strategies_cost_against_best(holdem: ParSheet) -> None:
    basic = analyze(load_variant("casino-holdem"), "basic")
    assert basic.cost_against_best is not None and basic.cost_against_best > 0
    assert round(float(basic.rtp) * 100, 1) == 98.8  # our stated basic strategy; the seed's is 98.7%
    assert analyze(load_variant("casino-holdem"), "always-call").p_raise == 1
    bonus_best = analyze(load_variant("casino-holdem"), "bonus-best")
    assert bonus_best.expected_return < holdem.expected_return


@pytest.mark.parametrize("name", ["always-raise", "pair-or-better", "ace-king-or-better", "simple"])
def test_stud_strategies_cost_something(name: str, cyberstud: ParSheet) -> None:
    p = analyze(load_variant("cyberstud"), name)
    assert p.cost_against_best is not None and p.cost_against_best > 0


@pytest.mark.slow
def test_literal_readings_warn_of_a_player_edge(cyberstud: ParSheet) -> None:
    for name in ("cyberstud-literal", "network-24h-literal"):
        p = analyze(load_variant(name))
        assert p.player_edge and p.expected_return > 0
        assert "player has the edge" in par_sheet_markdown(p)
        assert any("WARNING" in w for w in par_sheet_dict(p)["warnings"])
    assert not cyberstud.player_edge


def test_best_strategy_table_decides_named_deals(cyberstud: ParSheet) -> None:
    table = cyberstud.table
    assert table.decide("As Ad 5c 7h 9s", "Kc") is Decision.RAISE
    assert table.decide("7s 5h 4d 3c 2s", "Kc") is Decision.FOLD
    assert table.decide("Qs Jh 9d 5c 3s", "4c") is Decision.FOLD
    # Renaming suits does not change the decision.
    for up in ("8c", "8d", "8h", "8s"):
        assert table.decide("As Kd Jh 9c 3s", up) == table.decide("Ah Ks Jd 9c 3h", "8c".replace("c", up[1]))
    with pytest.raises(ValueError):
        table.decide("As Ad 5c 7h", "Kc")
    with pytest.raises(ValueError):
        table.decide("As Ad 5c 7h 9s", "As")
    assert "One pair: always raise" in table.summary()


def test_holdem_table_and_summary(holdem: ParSheet) -> None:
    assert holdem.table.decide("As Ad", "2c 7d 9h") is Decision.RAISE
    assert holdem.table.decide("2s 3d", "Kc 9d 8h") is Decision.FOLD
    assert "Two pair on the flop: always call" in holdem.table.summary()


def test_progressive_break_even() -> None:
    p = analyze(load_variant("cyberstud"))
    g = p.progressive
    assert g is not None and g.break_even_meter is not None
    assert g.expected(g.break_even_meter) >= 0 > g.expected(g.break_even_meter - 1)


def test_game_3_pays_more_than_cyberstud(cyberstud: ParSheet) -> None:
    assert analyze(load_variant("network-24h")).house_edge < cyberstud.house_edge


def test_unknown_strategy() -> None:
    with pytest.raises(ArgumentError, match="strategy: 'psychic' is not one of best"):
        analyze(load_variant("cyberstud"), "psychic")
    assert "simple" in strategies(Family.STUD) and "basic" in strategies(Family.HOLDEM)


def test_cli_json_and_report(capsys: pytest.CaptureFixture[str], holdem: ParSheet) -> None:
    assert main(["analyze", "casino-holdem", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["expected_return"]) == holdem.expected_return
    for key in ("house_edge", "rtp", "element_of_risk", "p_raise", "std_dev"):
        assert isinstance(data[key], float)
    assert set(data["side_bets"]["aa-bonus"]) == {
        "always settled",
        "with this strategy",
        "calling whenever it wins",
    }
    assert main(["report"]) == 0
    out = capsys.readouterr().out
    assert "atlantic" in out and "99.1827%" in out
    assert main(["analyze", "cyberstud", "--strategy", "nope"]) == 2


def test_the_merged_rows_count_as_the_situations_do() -> None:
    """Stud's best strategy is counted over the merged rows; counted situation by situation, the
    table is the same to the last deal, and so is each situation's value."""
    v = load_variant("cyberstud")
    rows = stud_rows(v)
    best = rows.raise_value >= rows.fold_value
    merged = rows.shape.counted.stud_table(v, rows.merged_value >= rows.fold_value, None)
    assert {o: n for o, n in merged if n} == {o: n for o, n in stud._count_table(rows, best) if n}
    s, nets = rows.situations, scaled_nets(v, v.classes)
    some = np.arange(0, len(s.weight), 9973)
    direct = (s.counts[some].astype(np.int64) * nets.raise_[rows.class_index[some]]).sum(axis=1)
    assert (rows.raise_value[some] == direct).all()


def _plain_draws(cards: list[int]) -> tuple[bool, bool, bool]:
    """Four to a flush, an open-ended straight draw, four to a straight: read plainly."""
    suits = [sum(1 for c in cards if c & 3 == s) for s in range(4)]
    ranks = {c >> 2 for c in cards} | ({-1} if 12 in {c >> 2 for c in cards} else set())  # -1: the ace low
    open_ended = any(all(r in ranks for r in range(low, low + 4)) for low in range(0, 9))
    four = any(sum(r in ranks for r in range(low, low + 5)) >= 4 for low in range(-1, 9))
    return max(suits) >= 4, open_ended, four


def test_holdem_draws_are_read_as_plainly() -> None:
    s = holdem_situations(load_variant("casino-holdem").qualifier.strength)
    rng = np.random.default_rng(36)
    at = np.concatenate([rng.choice(len(s.cards), 3000, replace=False), [0, len(s.cards) - 1]])
    cards = np.ascontiguousarray(s.cards[at])
    found = zip(
        holdem_analysis._suited(cards, 4),
        holdem_analysis._open_ended(cards),
        holdem_analysis._four_to_straight(cards),
        strict=True,
    )
    assert [tuple(map(bool, f)) for f in found] == [_plain_draws(row.tolist()) for row in cards]
    wheel = np.array([[48, 1, 5, 9, 30]], dtype=np.uint8)  # A 2 3 4 and a 9: four to the wheel, not open
    assert (holdem_analysis._four_to_straight(wheel)[0], holdem_analysis._open_ended(wheel)[0]) == (True, False)


def test_a_table_trusts_only_the_enumerations_read_only_rows() -> None:
    """A table of the situations' own rows takes their keys; a copy of them is read and checked
    again, and decides alike; rows that could change are never trusted."""
    s = stud_situations(load_variant("cyberstud").qualifier.strength)
    raises = s.strength >= evaluate("2c 2d 3h 4s 5c").strength
    trusted = StrategyTable(Family.STUD, s.rows, raises, ())
    copied = StrategyTable(Family.STUD, s.rows.copy(), raises, ())
    for hand, up in (("As Ad 7h 4c 2d", "Kc"), ("Ks Qd 8h 4c 2d", "Ac"), ("9s 8s 7s 6s 5s", "2h")):
        assert trusted.decide(hand, up) == copied.decide(hand, up)
    with pytest.raises(ArgumentError, match="read-only"):
        trust_rows(s.rows.copy(), s.keys)
    others = s.keys + 1  # in order, but another file's
    others.setflags(write=False)
    with pytest.raises(ArgumentError, match="their own keys"):
        trust_rows(s.rows, others)
    unordered = s.rows.copy()
    unordered[[0, 1]] = unordered[[1, 0]]
    with pytest.raises(ArgumentError, match="in order"):
        StrategyTable(Family.STUD, unordered, raises, ())
