"""The trainer's values against brute force: every hidden dealer hand enumerated for a named
stud deal and settled with exact fractions, independently of the exact analysis's tables."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from caribbean_fast import (
    Decision,
    Outcome,
    Showdown,
    Variant,
    evaluate,
    evaluate_many,
    load_variant,
    parse_cards,
    settle,
)
from caribbean_fast.analysis.advice import Advisor


def brute_force_raise(v: Variant, hand_text: str, up_text: str) -> Fraction:
    """The raise's expected main-game net in antes, over all C(46, 4) hidden dealer cards."""
    hand, up = parse_cards(hand_text, 5), parse_cards(up_text, 1)[0]
    rest = [c for c in range(52) if c != up and c not in hand]
    hidden = np.array(list(combinations(rest, 4)), dtype=np.uint8)
    dealer = evaluate_many(np.hstack([np.full((len(hidden), 1), up, dtype=np.uint8), hidden])).astype(int)
    seat, q = evaluate(hand).strength, v.qualifier.strength
    counts = {
        (False, Showdown.PUSH): int((dealer < q).sum()),
        (True, Showdown.WIN): int(((dealer >= q) & (dealer < seat)).sum()),
        (True, Showdown.PUSH): int(((dealer >= q) & (dealer == seat)).sum()),
        (True, Showdown.LOSE): int(((dealer >= q) & (dealer > seat)).sum()),
    }
    assert sum(counts.values()) == len(hidden) == 163_185
    hand_class = v.classify(seat)
    total = Fraction(0)
    for (qualifies, showdown), n in counts.items():
        if n:
            total += n * settle(v, Outcome(Decision.RAISE, hand_class, qualifies, showdown)).main
    return total / len(hidden)


DEALS = [
    ("cyberstud", "Ac Kd 9h 5s 2c", "Qh", Fraction(-38231, 32637)),  # Ace-King against a queen: fold
    ("cyberstud", "8c 8d Kh 4s 2d", "As", Fraction(227, 163185)),  # eights against an ace: just raise
    ("cyberstud", "Ah Kh Qh Jh 9d", "2s", Fraction(-53093, 54395)),
    ("caribbean-poker", "Ac Kd 9h 5s 2c", "Qh", None),  # Ace-King is a class of game 4
    ("network-24h", "Tc Td 5h 4s 2c", "Kd", None),
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "hand", "up", "known"), DEALS)
def test_trainer_values_equal_brute_force(name: str, hand: str, up: str, known: Fraction | None) -> None:
    v = load_variant(name)
    advice = Advisor(v).advise(parse_cards(hand), parse_cards(up), 0)
    raise_ = brute_force_raise(v, hand, up)
    assert advice.raise_ == raise_ and advice.fold == -1
    assert known is None or raise_ == known
    assert advice.best == ("raise" if raise_ > -1 else "fold")


def brute_force_call(v: Variant, hole_text: str, flop_text: str) -> Fraction:
    """Hold'em: calling's expected main-game net in antes, over every turn and river and every
    pair of dealer cards (1,081 x 990 = 1,070,190 deals), by the evaluator and `settle` alone."""
    hole, flop = parse_cards(hole_text, 2), parse_cards(flop_text, 3)
    rest = [c for c in range(52) if c not in hole and c not in flop]
    first, second = np.triu_indices(45, 1)
    seats, dealers = [], []
    for turn, river in combinations(rest, 2):
        board = [*flop, turn, river]
        left = np.array([c for c in rest if c not in (turn, river)], dtype=np.uint8)
        seats.append(evaluate([*hole, *board]).strength)
        pairs = np.stack([left[first], left[second]], axis=1)
        dealers.append(np.hstack([pairs, np.tile(np.array(board, dtype=np.uint8), (len(pairs), 1))]))
    dealer = evaluate_many(np.vstack(dealers)).astype(int).reshape(len(seats), -1)
    seat = np.array(seats)[:, None]
    q = v.qualifier.strength
    total, deals = Fraction(0), dealer.size
    assert deals == 1081 * 990
    for s in np.unique(seat):
        d = dealer[seat[:, 0] == s]
        hand_class = v.classify(int(s))
        for qualifies, showdown, n in (
            (False, Showdown.PUSH, (d < q).sum()),
            (True, Showdown.WIN, ((d >= q) & (d < s)).sum()),
            (True, Showdown.PUSH, ((d >= q) & (d == s)).sum()),
            (True, Showdown.LOSE, ((d >= q) & (d > s)).sum()),
        ):
            if n:
                total += int(n) * settle(v, Outcome(Decision.RAISE, hand_class, qualifies, showdown)).main
    return total / deals


@pytest.mark.slow
@pytest.mark.parametrize(
    ("hole", "flop"),
    [("As Ad", "Kh 7c 2d"), ("7h 2c", "Ks Qd 9s"), ("Jh Th", "9h 8h 2c"), ("5c 4d", "5h 5s Ad")],
)
def test_holdem_trainer_values_equal_brute_force(hole: str, flop: str) -> None:
    v = load_variant("casino-holdem")
    advice = Advisor(v).advise(parse_cards(hole), parse_cards(flop))
    call = brute_force_call(v, hole, flop)
    assert advice.raise_ == call and advice.fold == -1
    assert advice.best == ("raise" if call > -1 else "fold")


@pytest.mark.slow
def test_the_trainers_holdem_tables_are_counted_once_and_kept(counted_tables_cache: Path) -> None:
    """The hold'em trainer's tables go to the cache folder, keyed by the variant and the version;
    the next Advisor reads them back and advises the same, exactly."""
    v = load_variant("casino-holdem")
    first = Advisor(v)
    kept = list(counted_tables_cache.glob("trainer-*.npz"))
    assert len(kept) == 1
    again = Advisor(v)
    for hole, flop in (("As Ks", "Qs Js 2d"), ("7c 2d", "Kh 9s 4c"), ("Th Td", "Tc 5s 5d")):
        assert again.advise(hole, flop) == first.advise(hole, flop)
    kept[0].write_bytes(b"not a table")  # a damaged cache is counted around, never an error
    assert Advisor(v).advise("As Ks", "Qs Js 2d") == first.advise("As Ks", "Qs Js 2d")
