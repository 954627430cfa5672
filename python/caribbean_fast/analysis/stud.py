"""Caribbean Stud par sheets from the exact enumeration (games 1 to 4).

Each situation's counts are settled through `categories` into the exact value of raising; the
best strategy raises wherever that is at least the value of folding, and in game 4 exchanges
where a fresh hand is worth more (`exchange`). Situations that end alike (the same class, up card
where exchanges read it, and counts) are settled once, as one merged row of the shape
(`resettle.Counted`): the best strategy is chosen and counted over those. Named strategies are
decision rules over the same rows, without exchanges, counted situation by situation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..cards import RANKS
from ..hands import HandClass, evaluate
from ..progress import ProgressCallback
from ..settlement import Decision, Outcome, settle
from ..variants import Family, Variant
from .categories import SHOWDOWN_COLUMNS, classify_many, first_five_outcome, raise_outcome
from .exchange import APPROXIMATION, ExchangePlan
from .parsheet import BeatenBy, ParSheet, ProgressiveReturn, assemble, best_decisions, settle_count_table
from .resettle import Counted, counted, shape_of
from .simulator import simulate_table
from .situations import STUD_DEALER_HANDS, StudSituations, stud_situations
from .strategy import StrategyTable

Rule = Callable[["StudRows"], npt.NDArray[np.bool_]]


@dataclass(frozen=True)
class StudShape:
    """What every paytable of one shape (`resettle.shape_of`) reads alike: each situation's class
    and its index in the variant's classes, the merged rows (`resettle.Counted`), and the
    Ace-King hands the summary speaks of."""

    classes: npt.NDArray[np.uint8]  # HandClass values
    class_index: npt.NDArray[np.uint8]
    class_weight: npt.NDArray[np.float64]  # situations' weights summed by class index
    counted: Counted
    ace_king: npt.NDArray[np.intp]  # rows of Ace-King high hands, in order
    ace_king_paired: npt.NDArray[np.bool_]  # of those: the up card's rank is in the hand


_SHAPES: dict[tuple[object, ...], StudShape] = {}
# Kept for the process: each shape's reading takes as long as several paytables' re-settles.


def stud_shape(variant: Variant, s: StudSituations) -> StudShape:
    """The variant's shape read over its qualifier's situations `s`, once per process."""
    key = shape_of(variant)
    if key not in _SHAPES:
        classes = classify_many(variant, s.strength).astype(np.uint8)
        index_of = np.zeros(max(int(c) for c in HandClass) + 1, dtype=np.uint8)
        index_of[[int(c) for c in variant.classes]] = np.arange(len(variant.classes))
        class_index = index_of[classes]
        weight = np.bincount(class_index, weights=s.weight, minlength=len(variant.classes)).astype(np.float64)
        ace_king = np.flatnonzero(
            (s.strength >= evaluate("Ac Kd 4h 3s 2c").strength) & (classes <= int(HandClass.ACE_KING))
        )
        paired = ((s.hand[ace_king] >> 2) == s.up_rank[ace_king, None]).any(axis=1)
        _SHAPES[key] = StudShape(classes, class_index, weight, counted(variant), ace_king, paired)
    return _SHAPES[key]


@dataclass(frozen=True)
class StudRows:
    """The enumeration's rows read under one variant."""

    variant: Variant
    situations: StudSituations
    shape: StudShape
    raise_value: npt.NDArray[np.int64]  # scaled net of raising, summed over the dealer's hands
    fold_value: int
    scale: int  # the nets' common denominator
    merged_value: npt.NDArray[np.int64]  # `raise_value` of the shape's merged rows
    ties: str = "raise"  # the best strategy's choice where raising is worth what folding is

    @property
    def strength(self) -> npt.NDArray[np.uint16]:
        return self.situations.strength

    @property
    def classes(self) -> npt.NDArray[np.uint8]:
        return self.shape.classes

    @property
    def class_index(self) -> npt.NDArray[np.uint8]:
        """Position of each row's class in `variant.classes`."""
        return self.shape.class_index


def stud_rows(variant: Variant, progress: ProgressCallback | None = None) -> StudRows:
    """The rows of the variant's qualifier; `progress` hears of the enumeration if it runs. The
    values are settled over the merged rows (a row's value is its counts', so merged rows share
    it) and taken back to the situations."""
    s = stud_situations(variant.qualifier.strength, progress)
    shape = stud_shape(variant, s)
    merged, fold_value, scale = shape.counted.stud_values(variant)
    assert shape.counted.group is not None
    return StudRows(variant, s, shape, merged[shape.counted.group], fold_value, scale, merged)


def _merged_plan(rows: StudRows) -> ExchangePlan | None:
    """The best exchanges over the merged rows (its `exchange_from` by merged row)."""
    return rows.shape.counted.exchange_plan(rows.variant, rows.merged_value, rows.fold_value, rows.scale)


def _by_situation(plan: ExchangePlan | None, rows: StudRows) -> ExchangePlan | None:
    """A plan over the merged rows with its `exchange_from` taken back to the situations."""
    group = rows.shape.counted.group
    if plan is None or group is None:
        return None
    return replace(plan, exchange_from=plan.exchange_from[group])


def stud_exchange_plan(rows: StudRows) -> ExchangePlan | None:
    """The best exchanges of a variant with exchanges (None without)."""
    return _by_situation(_merged_plan(rows), rows)


def _at_least(cards: str) -> Rule:
    return lambda rows: rows.strength >= evaluate(cards).strength


STRATEGIES: dict[str, tuple[str, Rule]] = {
    "best": (
        "raise wherever raising is worth at least the lost ante",
        lambda r: best_decisions(r.raise_value, r.fold_value, r.ties),
    ),
    "always-raise": ("raise every hand", lambda r: np.ones(len(r.classes), dtype=bool)),
    "pair-or-better": ("raise a pair or better, fold the rest", _at_least("2c 2d 3h 4s 5c")),
    "ace-king-or-better": ("raise Ace-King or better, fold the rest", _at_least("Ac Kd 4h 3s 2c")),
    "simple": ("raise a pair or better, and A-K-J-8-3 or better; fold the rest", _at_least("Ac Kd Jh 8s 3c")),
}


def _count_table(
    rows: StudRows, raises: npt.NDArray[np.bool_], among: npt.NDArray[np.intp] | None = None
) -> list[tuple[Outcome, int]]:
    """Deals by outcome category of the rows numbered `among` (all rows by default), row by row:
    a named strategy's, whose decisions differ within a merged row."""
    s, classes = rows.situations, rows.variant.classes
    at = np.arange(len(raises)) if among is None else among
    folds, raised = at[~raises[at]], at[raises[at]]
    folded = int((s.weight[folds]).sum()) * STUD_DEALER_HANDS
    columns = SHOWDOWN_COLUMNS
    cells = (rows.class_index[raised, None].astype(np.intp) * columns + np.arange(columns)).ravel()
    deals = (s.counts[raised] * s.weight[raised, None]).ravel()
    # float64 sums of these integers stay exact: every total is below 2^53.
    sums = np.rint(np.bincount(cells, weights=deals, minlength=columns * len(classes))).astype(np.int64)
    sums = sums.reshape(len(classes), columns)
    table = [(Outcome(Decision.FOLD), folded)]
    table += [(raise_outcome(c, col), int(sums[i, col])) for i, c in enumerate(classes) for col in range(columns)]
    return table


def _raised_by_class(rows: StudRows, raises: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """The raised situations' weights summed by class index (exact: every sum is below 2^53)."""
    n = len(rows.variant.classes)
    raised = np.bincount(rows.class_index, weights=np.where(raises, rows.situations.weight, 0), minlength=n)
    return raised.astype(np.float64)


def _merged_raised_by_class(rows: StudRows, merged_raises: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
    """`_raised_by_class` of decisions made by merged row (a merged row is of one class)."""
    counted = rows.shape.counted
    raised = np.bincount(counted.slot, weights=counted.weight * merged_raises, minlength=len(rows.variant.classes))
    return raised.astype(np.float64)


def _progressive(rows: StudRows, raised: npt.NDArray[np.float64]) -> ProgressiveReturn | None:
    """The progressive's return, from the weights raised by class (`_raised_by_class`)."""
    v, shape = rows.variant, rows.shape
    p = v.progressive
    if p is None:
        return None
    total, fixed, per_meter = int(rows.situations.weight.sum()), Fraction(0), Fraction(0)
    for i, c in enumerate(v.classes):
        for decision, ways in ((Decision.RAISE, raised[i]), (Decision.FOLD, shape.class_weight[i] - raised[i])):
            n = round(float(ways))
            if n:
                pay = settle(v, first_five_outcome(v, c, decision)).progressive
                assert pay is not None
                fixed += Fraction(n, total) * pay.stakes
                per_meter += Fraction(n, total) * pay.meter_share / p.stake
    return ProgressiveReturn(fixed, per_meter, p.reset, p.stake)


def _summary(rows: StudRows, raises: npt.NDArray[np.bool_], raised: npt.NDArray[np.float64]) -> list[str]:
    """Rules a person can follow, read off the table: by class (`raised`: the weights raised by
    class), then Ace-King by up card."""
    bet = rows.variant.bet_words.bet  # game 4 calls
    lines = []
    for i, c in enumerate(rows.variant.classes):
        total = rows.shape.class_weight[i]
        if not total:
            continue
        share = raised[i] / total
        verdict = f"always {bet}" if share == 1 else "always fold" if share == 0 else f"{bet} {share:.1%} of them"
        lines.append(f"{c.label}: {verdict}")
    return lines + _ace_king_summary(rows, raises, bet)


def _ace_king_summary(rows: StudRows, raises: npt.NDArray[np.bool_], bet: str) -> list[str]:
    """Ace-King high hands: by whether the up card pairs a card of the hand, then by up card."""
    s, at, paired = rows.situations, rows.shape.ace_king, rows.shape.ace_king_paired
    w, raised, up = s.weight[at], raises[at], s.up_rank[at]
    lines = []
    for label, mask in (("pairs one of your cards", paired), ("pairs none of your cards", ~paired)):
        if mask.any():
            lines.append(f"  Ace-King when the up card {label}: {bet} {w[mask & raised].sum() / w[mask].sum():.1%}")
    hand, strength = s.hand[at], rows.strength[at]
    for u in range(13):
        here = up == u
        chosen = here & raised
        if here.any() and chosen.any() and not chosen[here].all():
            weakest = hand[chosen][np.argmin(strength[chosen])]  # the first of the weakest, in row order
            lines.append(
                f"  Ace-King against a {RANKS[u]} up card: {bet} from "
                f"{evaluate(weakest.tolist()).text} up ({w[chosen].sum() / w[here].sum():.0%} of them)"
            )
    return lines


def _exchange_summary(plan: ExchangePlan) -> list[str]:
    """Where exchanging pays, by up card and exchanges left."""
    lines = []
    for u in range(13):
        lefts = [k for k in range(plan.most, 0, -1) if plan.rates[k][u]]
        if lefts:
            worth = ", ".join(f"{float(plan.exchange_value(k, u)):+.4f} with {k} left" for k in lefts)
            lines.append(
                f"Exchange all five against a {RANKS[u]} up card whenever the call is worth less than the "
                f"exchange ({worth} antes): {float(plan.rates[plan.most][u]):.1%} of first hands"
            )
    return lines or ["Never exchange: a fresh hand is never worth the fee."]


EDGE_ROUNDS, EDGE_SEED = 4_000_000, 3


def _beaten_by(variant: Variant, table: StrategyTable) -> BeatenBy | None:
    """Where the seat chooses the cards to exchange: the return of keeping an ace and a king and
    exchanging the rest, simulated (no exact count of draw hands is made); the player's edge when
    its 95% interval lies above zero."""
    r = simulate_table(variant, table, EDGE_ROUNDS, seed=EDGE_SEED, exchange="keep-ace-king")
    if r.ci95[0] <= 0:
        return None
    how = (
        "keeping an ace and a king and exchanging the other cards while the hand is below Ace-King, "
        "then calling by the strategy table,"
    )
    return BeatenBy("keep-ace-king", how, r.mean, r.stderr, r.rounds, EDGE_SEED)


def analyze_stud(
    variant: Variant, strategy: str, progress: ProgressCallback | None = None, ties: str = "raise"
) -> ParSheet:
    assert variant.family is Family.STUD
    rows = replace(stud_rows(variant, progress), ties=ties)
    raises = STRATEGIES[strategy][1](rows)
    merged, plan = rows.shape.counted, _merged_plan(rows)
    best_raises = best_decisions(rows.merged_value, rows.fold_value, ties)
    best = settle_count_table(variant, merged.stud_table(variant, best_raises, plan))
    if strategy == "best":
        main, raised = best, _merged_raised_by_class(rows, best_raises)
    else:
        main, raised = settle_count_table(variant, _count_table(rows, raises)), _raised_by_class(rows, raises)
    plan = _by_situation(plan, rows)
    summary = _summary(rows, raises, raised) + (_exchange_summary(plan) if plan and strategy == "best" else [])
    swaps = plan.exchange_from if plan and strategy == "best" else None
    # The situations are in the table's order, their keys known: the table takes them as they are.
    table = StrategyTable(Family.STUD, rows.situations.rows, raises, tuple(summary), swaps)
    return assemble(
        variant,
        strategy,
        main,
        best,
        table,
        progressive=_progressive(rows, raised),
        seconds=rows.situations.seconds,
        notes=(APPROXIMATION,) if plan and strategy == "best" else (),
        exchanges=plan if strategy == "best" else None,
        beaten_by=_beaten_by(variant, table) if variant.exchanges and variant.exchanges.cards == "choose" else None,
        ties=ties,
    )
