"""Casino Hold'em par sheets from the exact enumeration, with the AA Bonus three ways.

A situation is (two cards, flop): the seat calls or folds there. Its counts (by the seat's final
class and the showdown) are settled through `categories` into the exact value of calling; the
best strategy calls wherever that is at least the value of folding. Side bets settle on the two
cards and the flop, so their tier is read once per situation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np
import numpy.typing as npt

from ..hands import HandClass, class_floor, evaluate_many
from ..progress import ProgressCallback
from ..settlement import Decision, Outcome, settle
from ..variants import Family, Variant
from .categories import HOLDEM_SLOTS, SHOWDOWN_COLUMNS, STRENGTHS, raise_outcome, scaled_nets
from .parsheet import ParSheet, SideBetReturn, assemble, settle_count_table
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


def holdem_rows(variant: Variant, progress: ProgressCallback | None = None) -> HoldemRows:
    """The rows of the variant's qualifier; `progress` hears of the enumeration if it runs."""
    s = holdem_situations(variant.qualifier.strength, progress)
    scaled = scaled_nets(variant, HOLDEM_SLOTS)
    nets = scaled.raise_.reshape(-1)
    counts = s.counts.reshape(len(s.counts), -1)  # (situation, class slot * showdown column)
    call = np.concatenate([counts[i : i + CHUNK].astype(np.int64) @ nets for i in range(0, len(counts), CHUNK)])
    fold = s.weight * HOLDEM_DEALS_PER_FLOP * scaled.fold
    return HoldemRows(variant, s, evaluate_many(s.cards), call, fold)


def _suited(cards: npt.NDArray[np.uint8], n: int) -> npt.NDArray[np.bool_]:
    return _any([((cards & 3) == suit).sum(axis=1) >= n for suit in range(4)])


def _any(masks: Sequence[npt.ArrayLike]) -> npt.NDArray[np.bool_]:
    return cast(npt.NDArray[np.bool_], np.stack(masks).any(axis=0))


def _ranks_present(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """(n, 14): whether each rank is among the cards, the ace also below the deuce (column 0)."""
    present = np.zeros((len(cards), 13), dtype=bool)
    np.put_along_axis(present, (cards >> 2).astype(np.int64), True, axis=1)
    return np.concatenate([present[:, 12:13], present], axis=1)


def _open_ended(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Four ranks in a row that a card at either end completes."""
    present = _ranks_present(cards)
    return _any([present[:, low : low + 4].all(axis=1) for low in range(1, 10)])


def _four_to_straight(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """Four of five ranks in a row, open-ended or inside, the ace high or low."""
    present = _ranks_present(cards)
    return _any([present[:, low : low + 5].sum(axis=1) >= 4 for low in range(0, 10)])


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
    return r.call_value >= r.fold_value


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
    sums = s.counts[calls].sum(axis=0, dtype=np.int64)  # (class slot, showdown column)
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
            value = Fraction(0)
            for k, cut in enumerate(cuts):
                for decision, mask in ((Decision.RAISE, called), (Decision.FOLD, ~called)):
                    n = int(w[mask & (tier == k)].sum())
                    if n:
                        net = settle(v, Outcome(decision, first_five=cut)).side_bets[bet.name]
                        value += Fraction(n, total) * net
            returns[way] = value
        out.append(SideBetReturn(bet.name, returns))
    return tuple(out)


def _summary(rows: HoldemRows, calls: npt.NDArray[np.bool_]) -> list[str]:
    """Call rates read off the table: by the class of the two cards and the flop, and for high
    cards by draw."""
    w, lines = rows.situations.weight, []
    floors = [(c, class_floor(c)) for c in HOLDEM_SLOTS]
    for i, (c, low) in enumerate(floors):
        high = floors[i + 1][1] if i + 1 < len(floors) else STRENGTHS.stop
        mask = (rows.flop_strength >= low) & (rows.flop_strength < high)
        if mask.any():
            share = w[mask & calls].sum() / w[mask].sum()
            verdict = "always call" if share == 1 else "always fold" if share == 0 else f"call {share:.1%} of them"
            lines.append(f"{c.label} on the flop: {verdict}")
    cards = rows.situations.cards
    high_card = rows.flop_strength < class_floor(HandClass.ONE_PAIR)
    for label, mask in (
        ("four to a flush", _suited(cards, 4)),
        ("open-ended straight draw", _open_ended(cards)),
    ):
        m = high_card & mask
        if m.any():
            lines.append(f"  high card with {label}: call {w[m & calls].sum() / w[m].sum():.1%}")
    return lines


def analyze_holdem(variant: Variant, strategy: str, progress: ProgressCallback | None = None) -> ParSheet:
    assert variant.family is Family.HOLDEM
    rows = holdem_rows(variant, progress)
    calls = STRATEGIES[strategy][1](rows)
    main = settle_count_table(variant, _count_table(rows, calls))
    best = main if strategy == "best" else settle_count_table(variant, _count_table(rows, _best(rows)))
    table = StrategyTable.from_rows(Family.HOLDEM, rows.situations.cards, calls, _summary(rows, calls))
    return assemble(
        variant, strategy, main, best, table, side_bets=_side_bets(rows, calls), seconds=rows.situations.seconds
    )
