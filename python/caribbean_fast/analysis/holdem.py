"""Casino Hold'em par sheets from the exact enumeration, with the AA Bonus three ways.

A situation is (two cards, flop): the seat calls or folds there. Its counts (by the seat's final
class and the showdown) are settled through `categories` into the exact value of calling; the
best strategy calls wherever that is at least the value of folding. Side bets settle on the two
cards and the flop, so their tier is read once per situation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import cast

import numpy as np
import numpy.typing as npt

from ..hands import HandClass, class_floor
from ..progress import ProgressCallback
from ..settlement import Decision, Outcome, settle
from ..variants import Family, Variant
from .categories import HOLDEM_SLOTS, SHOWDOWN_COLUMNS, raise_outcome, scaled_nets
from .parsheet import ParSheet, SideBetReturn, assemble, best_decisions, settle_count_table
from .situations import HOLDEM_DEALS_PER_FLOP, HoldemSituations, holdem_situations
from .strategy import StrategyTable

Rule = Callable[["HoldemRows"], npt.NDArray[np.bool_]]
CHUNK = 1 << 16


@dataclass(frozen=True)
class HoldemRows:
    """The enumeration's rows read under one variant."""

    variant: Variant
    situations: HoldemSituations
    flop_strength: npt.NDArray[np.uint16]  # the seat's two cards and the flop
    call_value: npt.NDArray[np.int64]  # scaled net of calling, summed over the deals that follow
    fold_value: npt.NDArray[np.int64]
    ties: str = "raise"  # the best strategy's choice where calling is worth what folding is


def holdem_rows(variant: Variant, progress: ProgressCallback | None = None) -> HoldemRows:
    """The rows of the variant's qualifier; `progress` hears of the enumeration if it runs."""
    s = holdem_situations(variant.qualifier.strength, progress)
    scaled = scaled_nets(variant, HOLDEM_SLOTS)
    call = _row_products(s.counts, scaled.raise_.reshape(-1))
    fold = s.weight * HOLDEM_DEALS_PER_FLOP * scaled.fold
    return HoldemRows(variant, s, s.strength, call, fold)


def _row_products(counts: npt.NDArray[np.uint32], nets: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each situation's counts (by class slot and showdown column) times the nets, summed: exact
    int64 products a chunk at a time (the whole table as int64 would be twice the counts)."""
    flat = counts.reshape(len(counts), -1)
    return np.concatenate([flat[i : i + CHUNK].astype(np.int64) @ nets for i in range(0, len(flat), CHUNK)])


def _called_sums(rows: HoldemRows, calls: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """The counts of the situations called, summed by class slot and showdown column: the sum
    of the fewer rows, the called or the folded (the best strategy folds the fewer)."""
    flat = rows.situations.counts.reshape(len(calls), -1)
    folds = ~calls
    if 2 * int(folds.sum()) > len(calls):
        called: npt.NDArray[np.int64] = flat[calls].sum(axis=0, dtype=np.int64)
        return called
    folded: npt.NDArray[np.int64] = flat[folds].sum(axis=0, dtype=np.int64)
    return _readings(rows.situations, rows.variant.qualifier.strength).counts - folded


def _suited(cards: npt.NDArray[np.uint8], n: int) -> npt.NDArray[np.bool_]:
    """At least `n` cards of one suit: the cards of each suit counted in a byte of one integer."""
    per_suit = np.zeros(len(cards), dtype=np.int32)
    for column in range(cards.shape[1]):
        per_suit += np.left_shift(1, 8 * (cards[:, column] & 3).astype(np.int32))
    return _any([((per_suit >> (8 * suit)) & 0xFF) >= n for suit in range(4)])


def _any(masks: Sequence[npt.ArrayLike]) -> npt.NDArray[np.bool_]:
    return cast(npt.NDArray[np.bool_], np.stack(masks).any(axis=0))


def _rank_bits(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int32]:
    """Bit r + 1 set where rank r is among the cards, and bit 0 for the ace below the deuce."""
    bits = np.zeros(len(cards), dtype=np.int32)
    for column in range(cards.shape[1]):
        bits |= np.left_shift(2, (cards[:, column] >> 2).astype(np.int32))
    return bits | ((bits >> 13) & 1)


def _open_ended(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Four ranks in a row that a card at either end completes."""
    bits = _rank_bits(cards)
    return _any([((bits >> low) & 0xF) == 0xF for low in range(1, 10)])


def _four_to_straight(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Four of five ranks in a row, open-ended or inside, the ace high or low."""
    bits = _rank_bits(cards)
    return _any([np.bitwise_count((bits >> low) & 0x1F) >= 4 for low in range(0, 10)])


def _basic(r: HoldemRows) -> npt.NDArray[np.bool_]:
    """Our stated basic strategy (see STRATEGIES), close to the seed's 98.7%."""
    cards = r.situations.cards
    ranks = (cards >> 2).astype(np.int64)
    ten_or_better = ranks[:, :2].max(axis=1) >= 8
    high_card = r.flop_strength < class_floor(HandClass.ONE_PAIR)
    one_pair = ~high_card & (r.flop_strength < class_floor(HandClass.TWO_PAIR))
    flop_paired = (ranks[:, 2] == ranks[:, 3]) | (ranks[:, 3] == ranks[:, 4]) | (ranks[:, 2] == ranks[:, 4])
    draw = _suited(cards, 4) | _four_to_straight(cards)
    calls = ~(high_card & ~draw & ~ten_or_better) & ~(one_pair & flop_paired & ~ten_or_better)
    return np.asarray(calls, dtype=np.bool_)


def _best(r: HoldemRows) -> npt.NDArray[np.bool_]:
    return best_decisions(r.call_value, r.fold_value, r.ties)


def _bonus_wins(r: HoldemRows) -> npt.NDArray[np.bool_]:
    wins = np.zeros(len(r.flop_strength), dtype=bool)
    for bet in r.variant.side_bets:
        wins |= r.flop_strength >= min(t.strength for t, _ in bet.tiers)
    return wins


STRATEGIES: dict[str, tuple[str, Rule]] = {
    "best": ("call wherever calling is worth at least the lost ante", _best),
    "always-call": ("call every hand", lambda r: np.ones(len(r.call_value), dtype=bool)),
    "pair-or-better": (
        "call with a pair or better on the flop, fold the rest",
        lambda r: r.flop_strength >= class_floor(HandClass.ONE_PAIR),
    ),
    "basic": (
        "call with a ten or better in the hand, four to a flush, four to a straight (inside or open), or "
        "a pair or better, except a pair that lies on the flop alone; fold the rest",
        _basic,
    ),
    "bonus-best": (
        "call whenever a side bet wins on the flop, otherwise play the best strategy",
        lambda r: _best(r) | _bonus_wins(r),
    ),
}


def _count_table(rows: HoldemRows, calls: npt.NDArray[np.bool_]) -> list[tuple[Outcome, int]]:
    s = rows.situations
    table = [(Outcome(Decision.FOLD), int(s.weight[~calls].sum()) * HOLDEM_DEALS_PER_FLOP)]
    sums = _called_sums(rows, calls).reshape(len(HOLDEM_SLOTS), SHOWDOWN_COLUMNS)
    for i, c in enumerate(HOLDEM_SLOTS):
        table.extend((raise_outcome(c, col), int(sums[i, col])) for col in range(SHOWDOWN_COLUMNS))
    return table


def _side_bets(rows: HoldemRows, calls: npt.NDArray[np.bool_]) -> tuple[SideBetReturn, ...]:
    """Each side bet's expected net: settled always, with this strategy, calling when it wins."""
    v, w = rows.variant, rows.situations.weight
    total = int(w.sum())
    out = []
    for bet in v.side_bets:
        cuts = sorted({t.strength for t, _ in bet.tiers} | {1})
        tier = np.searchsorted(cuts, rows.flop_strength, side="right") - 1
        ways = {
            "always settled": np.ones_like(calls),
            "with this strategy": calls,
            "calling whenever it wins": calls | (tier > 0),
        }
        returns = {}
        for way, called in ways.items():
            # Weights by (tier, called): exact, every sum below 2^53.
            by_tier = np.bincount(tier * 2 + called, weights=w, minlength=2 * len(cuts)).reshape(-1, 2)
            value = Fraction(0)
            for k, cut in enumerate(cuts):
                for decision, ways_in in ((Decision.RAISE, by_tier[k, 1]), (Decision.FOLD, by_tier[k, 0])):
                    n = round(float(ways_in))
                    if n:
                        net = settle(v, Outcome(decision, first_five=cut)).side_bets[bet.name]
                        value += Fraction(n, total) * net
            returns[way] = value
        out.append(SideBetReturn(bet.name, returns))
    return tuple(out)


@dataclass(frozen=True)
class Readings:
    """What a par sheet reads of every situation of a qualifier, whatever the paytable: the
    class slot of the two cards and the flop, the slots' weights, the high-card draws' rows (for
    the summary), and every situation's counts summed."""

    slot: npt.NDArray[np.intp]
    slot_weight: npt.NDArray[np.float64]
    draws: tuple[tuple[str, npt.NDArray[np.intp]], ...]
    counts: npt.NDArray[np.int64]  # by class slot * showdown column


_READINGS: dict[int, Readings] = {}


def _readings(s: HoldemSituations, qualifier: int) -> Readings:
    """The `Readings` of the qualifier's situations `s`, once per process."""
    if qualifier not in _READINGS:
        floors = [class_floor(c) for c in HOLDEM_SLOTS]
        slot = np.searchsorted(floors, s.strength, side="right") - 1
        high_card = s.strength < class_floor(HandClass.ONE_PAIR)
        draws = (
            ("four to a flush", np.flatnonzero(high_card & _suited(s.cards, 4))),
            ("open-ended straight draw", np.flatnonzero(high_card & _open_ended(s.cards))),
        )
        weight = np.bincount(slot, weights=s.weight, minlength=len(floors)).astype(np.float64)
        counts = s.counts.reshape(len(slot), -1).sum(axis=0, dtype=np.int64)
        _READINGS[qualifier] = Readings(slot, weight, draws, counts)
    return _READINGS[qualifier]


def _summary(rows: HoldemRows, calls: npt.NDArray[np.bool_]) -> list[str]:
    """Call rates read off the table: by the class of the two cards and the flop, and for high
    cards by draw."""
    w, lines = rows.situations.weight, []
    readings = _readings(rows.situations, rows.variant.qualifier.strength)
    called = np.bincount(readings.slot, weights=np.where(calls, w, 0), minlength=len(HOLDEM_SLOTS))
    for i, c in enumerate(HOLDEM_SLOTS):
        if readings.slot_weight[i]:
            share = called[i] / readings.slot_weight[i]  # exact sums: the shares of the weights' int64 sums
            verdict = "always call" if share == 1 else "always fold" if share == 0 else f"call {share:.1%} of them"
            lines.append(f"{c.label} on the flop: {verdict}")
    for label, at in readings.draws:
        if len(at):
            lines.append(f"  high card with {label}: call {w[at][calls[at]].sum() / w[at].sum():.1%}")
    return lines


def analyze_holdem(
    variant: Variant, strategy: str, progress: ProgressCallback | None = None, ties: str = "raise"
) -> ParSheet:
    assert variant.family is Family.HOLDEM
    rows = replace(holdem_rows(variant, progress), ties=ties)
    calls = STRATEGIES[strategy][1](rows)
    main = settle_count_table(variant, _count_table(rows, calls))
    best = main if strategy == "best" else settle_count_table(variant, _count_table(rows, _best(rows)))
    # The situations are in the table's order, their keys known: the table takes them as they are.
    table = StrategyTable(Family.HOLDEM, rows.situations.cards, calls, tuple(_summary(rows, calls)))
    return assemble(
        variant,
        strategy,
        main,
        best,
        table,
        side_bets=_side_bets(rows, calls),
        seconds=rows.situations.seconds,
        ties=ties,
    )
