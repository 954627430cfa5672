"""The exact main game of a new paytable from counts already made: the paytable designer's try.

An enumeration's count tables do not depend on the payouts. `Counted` keeps them for one game
shape (family, qualifier, the variant's classes and exchange rules), with the rows that end the
same way merged (stud: 5.6 million situations are 0.36 million distinct (class, counts) rows),
and `Counted.main` settles them for any paytable of that shape: the best strategy is chosen again
for the new payouts, every figure stays an exact Fraction, and no deal is enumerated again.
`analyze` reads stud's best strategy and main game off the same merged rows (`group` takes a
merged row's decision back to its situations).

The arrays are float64 for the matrix products: every product and sum of these integers stays
below 2^53, so they are exact (the same argument as `stud._count_table`'s).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..errors import ArgumentError
from ..settlement import Decision, Outcome, settle
from ..variants import Family, Variant
from .cache import cached_files
from .categories import HOLDEM_SLOTS, SHOWDOWN_COLUMNS, classify_many, first_five_outcome, raise_outcome, scaled_nets
from .exchange import UP_RANKS, ExchangePlan, exchange_plan
from .parsheet import MainGame, ProgressiveReturn, settle_count_table
from .situations import FORMAT as SITUATIONS_FORMAT
from .situations import HOLDEM_DEALS_PER_FLOP, STUD_DEALER_HANDS, holdem_situations, stud_situations

__all__ = ["Counted", "counted", "shape_of"]

Floats = npt.NDArray[np.float64]
FORMAT = 3  # of the arrays kept in the cache: a new one counts again
FIELD = 25  # bits of a count in the merge's keys (a count is at most the dealer's 1,533,939 hands)


def shape_of(variant: Variant) -> tuple[object, ...]:
    """What the counts depend on: a paytable of a variant with the same shape re-settles them."""
    x = variant.exchanges
    return (
        variant.family,
        variant.qualifier.strength,
        variant.classes,
        None if x is None else (x.fee_antes, x.most_per_round),
    )


@dataclass(frozen=True)
class Counted:
    """One shape's rows: the class slot of each (stud: its index in `variant.classes`; hold'em:
    the situation), the up card (stud), the weight and the showdown counts."""

    family: Family
    slot: npt.NDArray[np.int64]
    up_rank: npt.NDArray[np.uint8]
    weight: Floats
    counts: Floats  # (row, class slot * showdown column) for hold'em; (row, showdown column) for stud
    strength: npt.NDArray[np.uint16]  # hold'em: the two cards and the flop's, which side bets settle on
    group: npt.NDArray[np.int32] | None = None  # stud: the merged row of each situation

    def main(self, variant: Variant) -> tuple[MainGame, npt.NDArray[np.bool_]]:
        """The best strategy's main game under the variant's payouts, and where it raises."""
        main, raises, _ = self.decided(variant)
        return main, raises

    def decided(self, variant: Variant) -> tuple[MainGame, npt.NDArray[np.bool_], bytes]:
        """As `main`, with a digest of every decision the best strategy takes (where it raises,
        and game 4's exchanges): two paytables with the same digest are played alike."""
        if self.family is Family.HOLDEM:
            main, calls = self._holdem(variant)
            return main, calls, hashlib.blake2b(np.packbits(calls).tobytes()).digest()
        raise_value, fold_value, scale = self.stud_values(variant)
        raises = raise_value >= fold_value
        plan = self.exchange_plan(variant, raise_value, fold_value, scale)
        key = np.packbits(raises).tobytes() + (b"" if plan is None else plan.exchange_from.tobytes())
        main = settle_count_table(variant, self.stud_table(variant, raises, plan))
        return main, raises, hashlib.blake2b(key).digest()

    def stud_values(self, variant: Variant) -> tuple[npt.NDArray[np.int64], int, int]:
        """Stud: each row's net of raising summed over the dealer's hidden hands, the same of
        folding, as integers times the nets' common denominator, and that denominator."""
        nets = scaled_nets(variant, variant.classes)
        _exact(nets.raise_, self.counts)
        raise_value = np.einsum("ij,ij->i", self.counts, nets.raise_[self.slot].astype(np.float64))
        return np.rint(raise_value).astype(np.int64), nets.fold * STUD_DEALER_HANDS, nets.scale

    def exchange_plan(
        self, variant: Variant, raise_value: npt.NDArray[np.int64], fold_value: int, scale: int
    ) -> ExchangePlan | None:
        """Stud: the best exchanges (`exchange.exchange_plan`) over these rows (None without)."""
        x = variant.exchanges
        if x is None:
            return None
        weight = np.rint(self.weight).astype(np.int64)
        return exchange_plan(raise_value, fold_value, self.up_rank, weight, scale, x.fee_antes, x.most_per_round)

    def stud_table(
        self, variant: Variant, raises: npt.NDArray[np.bool_], plan: ExchangePlan | None
    ) -> list[tuple[Outcome, int]]:
        """Stud: deals by outcome category, the rows raised where `raises` and exchanged by the plan."""
        return self._stud_table(variant, raises) if plan is None else self._exchange_table(variant, raises, plan)

    def _exchange_table(
        self, variant: Variant, raises: npt.NDArray[np.bool_], plan: ExchangePlan
    ) -> list[tuple[Outcome, int]]:
        """`exchange.exchange_count_table`, from one count per (up card, the fewest exchanges
        left with which the row is exchanged) group: the rows a round ends on with `left`
        exchanges left against up card u are the groups of u that are not exchanged then."""
        most, cells = plan.most, len(variant.classes) * SHOWDOWN_COLUMNS + 1  # the last cell: folds
        group = self.up_rank.astype(np.int64) * (most + 1) + plan.exchange_from
        raised = np.where(raises, self.weight, 0.0)
        sums = np.zeros((UP_RANKS * (most + 1), cells))
        for col in range(SHOWDOWN_COLUMNS):
            at = group * cells + self.slot * SHOWDOWN_COLUMNS + col
            sums += np.bincount(at, weights=raised * self.counts[:, col], minlength=sums.size).reshape(sums.shape)
        sums[:, -1] = np.bincount(group, weights=np.where(raises, 0.0, self.weight), minlength=len(sums))
        sums[:, -1] *= STUD_DEALER_HANDS
        groups = np.rint(sums).astype(np.int64).reshape(UP_RANKS, most + 1, cells)
        weights = np.rint(np.bincount(group, weights=self.weight, minlength=len(sums))).astype(np.int64)
        weights = weights.reshape(UP_RANKS, most + 1)
        outcomes = [raise_outcome(c, col) for c in variant.classes for col in range(SHOWDOWN_COLUMNS)]
        outcomes.append(Outcome(Decision.FOLD))
        totals = np.zeros((most + 1, cells), dtype=object)  # by exchanges made: exact integers
        for u in range(UP_RANKS):
            n, reach = int(weights[u].sum()), 1
            for left in range(most, -1, -1):
                stays = [f for f in range(most + 1) if f == 0 or f > left]
                counts = groups[u, stays].sum(axis=0).astype(object)
                totals[most - left] += counts * (reach * n**left)
                reach *= int(weights[u, [f for f in range(1, left + 1)]].sum())
        return [
            (replace(outcome, exchanges=made), int(totals[made, k]))
            for made in range(most + 1)
            for k, outcome in enumerate(outcomes)
        ]

    def _stud_table(self, variant: Variant, raises: npt.NDArray[np.bool_]) -> list[tuple[Outcome, int]]:
        classes = variant.classes
        slot, weight, counts = self.slot, self.weight, self.counts
        folded = round(float(weight[~raises].sum())) * STUD_DEALER_HANDS
        raised = weight * raises
        table = [(Outcome(Decision.FOLD), folded)]
        sums = np.stack(
            [
                np.bincount(slot, weights=raised * counts[:, col], minlength=len(classes))
                for col in range(SHOWDOWN_COLUMNS)
            ],
            axis=1,
        )
        sums = np.rint(sums).astype(np.int64)
        table += [
            (raise_outcome(c, col), int(sums[i, col])) for i, c in enumerate(classes) for col in range(SHOWDOWN_COLUMNS)
        ]
        return table

    def _holdem(self, variant: Variant) -> tuple[MainGame, npt.NDArray[np.bool_]]:
        scaled = scaled_nets(variant, HOLDEM_SLOTS)
        _exact(scaled.raise_, self.counts)
        call_value = self.counts @ scaled.raise_.reshape(-1).astype(np.float64)
        calls = call_value >= self.weight * (HOLDEM_DEALS_PER_FLOP * scaled.fold)
        table = [(Outcome(Decision.FOLD), round(float(self.weight[~calls].sum())) * HOLDEM_DEALS_PER_FLOP)]
        sums = np.rint(calls.astype(np.float64) @ self.counts).astype(np.int64).reshape(len(HOLDEM_SLOTS), -1)
        for i, c in enumerate(HOLDEM_SLOTS):
            table.extend((raise_outcome(c, col), int(sums[i, col])) for col in range(SHOWDOWN_COLUMNS))
        return settle_count_table(variant, table), calls

    def side_bet(self, variant: Variant, name: str, calls: npt.NDArray[np.bool_]) -> Fraction:
        """The side bet's expected net per unit staked, the seat calling where `calls` (as
        `holdem._side_bets` "with this strategy": lost on a fold where the bet says so)."""
        if self.family is not Family.HOLDEM:
            raise ArgumentError(f"adjust: side bets are solved for hold'em, not {variant.family}")
        bet = variant.side_bet(name)
        cuts = sorted({t.strength for t, _ in bet.tiers} | {1})
        tier = np.searchsorted(cuts, self.strength, side="right") - 1
        total, value = Fraction(round(float(self.weight.sum()))), Fraction(0)
        for decision, mask in ((Decision.RAISE, calls), (Decision.FOLD, ~calls)):
            ways = np.rint(np.bincount(tier[mask], weights=self.weight[mask], minlength=len(cuts)))
            for k, cut in enumerate(cuts):
                if ways[k]:
                    net = settle(variant, Outcome(decision, first_five=cut)).side_bets[name]
                    value += Fraction(int(ways[k])) / total * net
        return value

    def progressive(self, variant: Variant, raises: npt.NDArray[np.bool_]) -> ProgressiveReturn:
        """The progressive's return (as `stud._progressive`), from the rows' classes."""
        p = variant.progressive
        if p is None or self.family is not Family.STUD:
            raise ArgumentError(f"adjust: {variant.name} has no progressive to solve for")
        total, fixed, per_meter = Fraction(round(float(self.weight.sum()))), Fraction(0), Fraction(0)
        for decision, mask in ((Decision.RAISE, raises), (Decision.FOLD, ~raises)):
            ways = np.rint(np.bincount(self.slot[mask], weights=self.weight[mask], minlength=len(variant.classes)))
            for i, c in enumerate(variant.classes):
                if ways[i]:
                    pay = settle(variant, first_five_outcome(variant, c, decision)).progressive
                    assert pay is not None
                    share = Fraction(int(ways[i])) / total
                    fixed += share * pay.stakes
                    per_meter += share * pay.meter_share / p.stake
        return ProgressiveReturn(fixed, per_meter, p.reset, p.stake)


def _exact(nets: npt.NDArray[np.int64], counts: Floats) -> None:
    """The float64 products and sums below stay exact integers (below 2^53) for these nets:
    a paytable of pays with large denominators could pass that, and is refused."""
    most = float(np.abs(nets).max(initial=0)) * float(counts.max(initial=0)) * counts.shape[1]
    if most >= 2.0**53:
        raise ArgumentError("paytable: its pays' denominators are too fine to re-settle exactly; use analyze")


def counted(variant: Variant) -> Counted:
    """The counts of the variant's shape. Stud's merged rows come from the user's cache of
    counted tables when they are there (`cache.cache_dir`), else are merged once and kept there;
    hold'em's rows are its situations (kept there too)."""
    if variant.family is Family.HOLDEM:
        return _holdem_counted(variant)
    key = f"{FORMAT} {SITUATIONS_FORMAT} {shape_of(variant)!r}"
    arrays = cached_files("resettle", key, STUD_ARRAYS, lambda: _stud_arrays(variant))
    return Counted(
        variant.family,
        arrays["slot"],
        arrays["up_rank"],
        arrays["weight"].astype(np.float64),
        arrays["counts"].astype(np.float64),
        np.zeros(len(arrays["slot"]), dtype=np.uint16),  # stud's side bets are not solved for
        arrays["group"],
    )


STUD_ARRAYS = ("slot", "up_rank", "weight", "counts", "group")


def _stud_arrays(variant: Variant) -> dict[str, npt.NDArray[np.generic]]:
    """Stud's situations merged where they end alike: the same class slot, up card (for the
    exchanges' plan, which reads rows by up card) and counts; with each situation's merged row."""
    s = stud_situations(variant.qualifier.strength)
    classes = np.array([int(c) for c in variant.classes])
    slot = np.searchsorted(classes, classify_many(variant, s.strength)).astype(np.int64)
    up = s.up_rank.astype(np.int64) if variant.exchanges else np.zeros(len(slot), dtype=np.int64)
    c = s.counts.astype(np.int64)
    assert int(c.max()) < 1 << FIELD, "a count wider than its field"
    # Two integer keys per row (a sort of two keys is ten times faster than np.unique on rows).
    high = (slot << (2 * FIELD + 4)) | (up << (2 * FIELD)) | (c[:, 0] << FIELD) | c[:, 1]
    low = (c[:, 2] << FIELD) | c[:, 3]
    order = np.lexsort((low, high))
    high, low = high[order], low[order]
    first = np.ones(len(order), dtype=bool)
    first[1:] = (high[1:] != high[:-1]) | (low[1:] != low[:-1])
    sorted_group = np.cumsum(first) - 1
    group = np.empty(len(order), dtype=np.int32)
    group[order] = sorted_group
    weight = np.bincount(sorted_group, weights=s.weight[order].astype(np.float64))
    rows = order[first]
    return {
        "slot": slot[rows],
        "up_rank": up[rows].astype(np.uint8),
        "weight": np.rint(weight).astype(np.int64),
        "counts": c[rows],
        "group": group,
    }


def _holdem_counted(variant: Variant) -> Counted:
    """Hold'em's situations as they are (few end alike: their counts are by class and showdown),
    their counts as floats for the products."""
    s = holdem_situations(variant.qualifier.strength)
    n = len(s.weight)
    zeros = np.zeros(n, dtype=np.int64)
    counts = s.counts.reshape(n, -1).astype(np.float64)
    return Counted(variant.family, zeros, zeros.astype(np.uint8), s.weight.astype(np.float64), counts, s.strength)


def rtp(main: MainGame) -> Fraction:
    """Return to player per unit wagered, as `ParSheet.rtp`."""
    return (main.average_wager + main.expected_return) / main.average_wager
