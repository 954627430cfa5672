"""Caribbean Stud par sheets from the exact enumeration (games 1 to 4).

Each situation's counts are settled through `categories` into the exact value of raising; the
best strategy raises wherever that is at least the value of folding, and in game 4 exchanges
where a fresh hand is worth more (`exchange`). Named strategies are decision rules over the same
rows, without exchanges."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial

import numpy as np
import numpy.typing as npt

from ..cards import RANKS
from ..hands import HandClass, evaluate
from ..progress import ProgressCallback
from ..settlement import Decision, Outcome, settle
from ..variants import Family, Variant
from ..variants.presentation import bet_words
from .categories import SHOWDOWN_COLUMNS, classify_many, first_five_outcome, raise_outcome, scaled_nets
from .exchange import APPROXIMATION, ExchangePlan, exchange_count_table, exchange_plan
from .parsheet import BeatenBy, ParSheet, ProgressiveReturn, assemble, settle_count_table
from .simulator import simulate_table
from .situations import STUD_DEALER_HANDS, StudSituations, stud_situations
from .strategy import StrategyTable
from .strategy import stud_rows as stud_rows_of

Rule = Callable[["StudRows"], npt.NDArray[np.bool_]]


@dataclass(frozen=True)
class StudRows:
    """The enumeration's rows read under one variant."""

    variant: Variant
    situations: StudSituations
    classes: npt.NDArray[np.int64]
    class_index: npt.NDArray[np.int64]  # position of each row's class in `variant.classes`
    raise_value: npt.NDArray[np.int64]  # scaled net of raising, summed over the dealer's hands
    fold_value: int
    scale: int  # the nets' common denominator

    @property
    def strength(self) -> npt.NDArray[np.uint16]:
        return self.situations.strength


def stud_rows(variant: Variant, progress: ProgressCallback | None = None) -> StudRows:
    """The rows of the variant's qualifier; `progress` hears of the enumeration if it runs."""
    s = stud_situations(variant.qualifier.strength, progress)
    classes = classify_many(variant, s.strength)
    nets = scaled_nets(variant, variant.classes)
    index = np.searchsorted(np.array([int(c) for c in variant.classes]), classes)
    raise_value = (s.counts * nets.raise_[index]).sum(axis=1)
    return StudRows(variant, s, classes, index, raise_value, nets.fold * STUD_DEALER_HANDS, nets.scale)


def stud_exchange_plan(rows: StudRows) -> ExchangePlan | None:
    """The best exchanges of a variant with exchanges (None without)."""
    x, s = rows.variant.exchanges, rows.situations
    if x is None:
        return None
    fee, most = x.fee_antes, x.most_per_round
    return exchange_plan(rows.raise_value, rows.fold_value, s.up_rank, s.weight, rows.scale, fee, most)


def _at_least(cards: str) -> Rule:
    return lambda rows: rows.strength >= evaluate(cards).strength


STRATEGIES: dict[str, tuple[str, Rule]] = {
    "best": (
        "raise wherever raising is worth at least the lost ante",
        lambda r: r.raise_value >= r.fold_value,
    ),
    "always-raise": ("raise every hand", lambda r: np.ones(len(r.classes), dtype=bool)),
    "pair-or-better": ("raise a pair or better, fold the rest", _at_least("2c 2d 3h 4s 5c")),
    "ace-king-or-better": ("raise Ace-King or better, fold the rest", _at_least("Ac Kd 4h 3s 2c")),
    "simple": ("raise a pair or better, and A-K-J-8-3 or better; fold the rest", _at_least("Ac Kd Jh 8s 3c")),
}


def _count_table(
    rows: StudRows, raises: npt.NDArray[np.bool_], among: npt.NDArray[np.intp] | None = None
) -> list[tuple[Outcome, int]]:
    """Deals by outcome category of the rows numbered `among` (all rows by default)."""
    s, classes = rows.situations, rows.variant.classes
    at = np.arange(len(raises)) if among is None else among
    folds, raised = at[~raises[at]], at[raises[at]]
    folded = int((s.weight[folds]).sum()) * STUD_DEALER_HANDS
    columns = SHOWDOWN_COLUMNS
    cells = (rows.class_index[raised, None] * columns + np.arange(columns)).ravel()
    deals = (s.counts[raised] * s.weight[raised, None]).ravel()
    # float64 sums of these integers stay exact: every total is below 2^53.
    sums = np.rint(np.bincount(cells, weights=deals, minlength=columns * len(classes))).astype(np.int64)
    sums = sums.reshape(len(classes), columns)
    table = [(Outcome(Decision.FOLD), folded)]
    table += [(raise_outcome(c, col), int(sums[i, col])) for i, c in enumerate(classes) for col in range(columns)]
    return table


def _progressive(rows: StudRows, raises: npt.NDArray[np.bool_]) -> ProgressiveReturn | None:
    v, s = rows.variant, rows.situations
    p = v.progressive
    if p is None:
        return None
    total, fixed, per_meter = int(s.weight.sum()), Fraction(0), Fraction(0)
    for c in v.classes:
        for decision, mask in ((Decision.RAISE, raises), (Decision.FOLD, ~raises)):
            n = int(s.weight[mask & (rows.classes == int(c))].sum())
            if n:
                pay = settle(v, first_five_outcome(v, c, decision)).progressive
                assert pay is not None
                fixed += Fraction(n, total) * pay.stakes
                per_meter += Fraction(n, total) * pay.meter_share / p.stake
    return ProgressiveReturn(fixed, per_meter, p.reset, p.stake)


def _summary(rows: StudRows, raises: npt.NDArray[np.bool_]) -> list[str]:
    """Rules a person can follow, read off the table: by class, then Ace-King by up card."""
    s, w = rows.situations, rows.situations.weight
    bet = bet_words(rows.variant).bet  # game 4 calls
    lines = []
    for c in rows.variant.classes:
        mask = rows.classes == int(c)
        if not mask.any():
            continue
        share = w[mask & raises].sum() / w[mask].sum()
        verdict = f"always {bet}" if share == 1 else "always fold" if share == 0 else f"{bet} {share:.1%} of them"
        lines.append(f"{c.label}: {verdict}")
    ak = (rows.strength >= evaluate("Ac Kd 4h 3s 2c").strength) & (rows.classes <= int(HandClass.ACE_KING))
    paired_up = ((s.hand >> 2) == s.up_rank[:, None]).any(axis=1)  # the up card's rank is in the hand
    for label, mask in (("pairs one of your cards", ak & paired_up), ("pairs none of your cards", ak & ~paired_up)):
        if mask.any():
            lines.append(f"  Ace-King when the up card {label}: {bet} {w[mask & raises].sum() / w[mask].sum():.1%}")
    for up in range(13):
        at = ak & (s.up_rank == up)
        raised = at & raises
        if at.any() and raised.any() and not raised[at].all():
            weakest = s.hand[raised][np.argmin(rows.strength[raised])]
            lines.append(
                f"  Ace-King against a {RANKS[up]} up card: {bet} from "
                f"{evaluate(weakest.tolist()).text} up ({w[raised].sum() / w[at].sum():.0%} of them)"
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


def analyze_stud(variant: Variant, strategy: str, progress: ProgressCallback | None = None) -> ParSheet:
    assert variant.family is Family.STUD
    rows = stud_rows(variant, progress)
    raises = STRATEGIES[strategy][1](rows)
    best_raises = raises if strategy == "best" else STRATEGIES["best"][1](rows)
    plan = stud_exchange_plan(rows)
    if plan is None:
        best = settle_count_table(variant, _count_table(rows, best_raises))
    else:
        s = rows.situations
        table_of = partial(_count_table, rows)
        best = settle_count_table(variant, exchange_count_table(best_raises, s.up_rank, s.weight, plan, table_of))
    main = best if strategy == "best" else settle_count_table(variant, _count_table(rows, raises))
    table_rows = stud_rows_of(rows.situations.up_rank, rows.situations.hand)
    summary = _summary(rows, raises) + (_exchange_summary(plan) if plan and strategy == "best" else [])
    swaps = plan.exchange_from if plan and strategy == "best" else None
    table = StrategyTable.from_rows(Family.STUD, table_rows, raises, summary, swaps)
    return assemble(
        variant,
        strategy,
        main,
        best,
        table,
        progressive=_progressive(rows, raises),
        seconds=rows.situations.seconds,
        notes=(APPROXIMATION,) if plan and strategy == "best" else (),
        exchanges=plan if strategy == "best" else None,
        beaten_by=_beaten_by(variant, table) if variant.exchanges and variant.exchanges.cards == "choose" else None,
    )
