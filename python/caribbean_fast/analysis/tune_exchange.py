"""The paytable designer's exact model of game 4 (exchanges): every paytable of a box valued at once,
each in a few binary searches per up card and exchanges left.

A hand's call value is affine in the adjusted pays (`tune_linear`), and so is its best of calling
and folding, `b`. With k exchanges left against up card u a hand is exchanged where `b` is below
`t_k(u)`, what a fresh hand with one exchange fewer is worth less the fee (`exchange.exchange_plan`).
Most hands' `b` does not move with the adjusted pays at all (a pair's value does not read the royal
flush's pay): their exchanges change only as `t_k(u)` moves, so with those hands sorted by `b`, the
hands exchanged are a prefix, found by one binary search, and their sums are prefix sums. The hands
whose `b` moves (those of the adjusted classes) are summed as an affine part where they call and are
never exchanged over the whole grid (a four of a kind is never given up), and valued one by one
otherwise (`loose`).

Every `W_k(u)` rises with every pay (the player may keep the old play), so over a box each
`t_k(u)` lies between its values at the box's lowest and highest corners; the share of hands
exchanged, and of hands called, then lie between what those two thresholds give, and so does the
average wager. `figures` values one paytable exactly (Fractions, integer binary searches); `batch`
values many in floats and says which ones have a hand within a float's error of its threshold (their
exchanges are decided by `figures`).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..variants import Variant
from .exchange import UP_RANKS, exchange_plan
from .resettle import Counted
from .situations import STUD_DEALER_HANDS

__all__ = ["Exchange", "exchange_model"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Ks = tuple[int, ...]
CHUNK = 1 << 21  # paytables times loose hands valued at once
TOLERANCE = 1e-12  # of a threshold's size: a hand this near it in floats is decided exactly (floats err ~1e-15)


@dataclass(frozen=True)
class Flat:
    """One up card's hands whose `b` does not move over the grid, sorted by `b`: the prefix sums of
    their weights, of weight times `b` and of the weights of those that call."""

    b: list[int]
    bf: Floats
    w: list[int]  # prefix sums, one longer than `b`
    wb: list[int]
    calls: list[int]
    wf: Floats  # the same prefix sums as floats
    wbf: Floats
    callsf: Floats


@dataclass(frozen=True)
class Loose:
    """Hands of moving `b` that may fold, call or be exchanged differently over the grid."""

    up: Ints
    value: Ints
    slope: Ints  # (hands, entries)
    w: Ints


@dataclass(frozen=True)
class _LooseAt:
    """One up card's loose hands at one paytable: weights, values `b`, and which call."""

    w: Ints
    b: Ints
    called: npt.NDArray[np.bool_]

    def kept(self, rows: npt.NDArray[np.bool_] | None) -> int:
        return int(self.w @ self.b) if rows is None else int(self.w[rows] @ self.b[rows])

    def calls(self, rows: npt.NDArray[np.bool_] | None) -> int:
        mask = self.called if rows is None else self.called & rows
        return int(self.w[mask].sum())


@dataclass(frozen=True)
class Rates:
    """Of one paytable or bounds over a box, by up card and exchanges left (0 .. most): the weight
    exchanged and the weight kept that calls."""

    exchanged: list[list[int]]
    calls: list[list[int]]


@dataclass
class Exchange:
    """Game 4's best play over a grid of paytables: pays `k` in steps from `lows`; values times
    `per_row` per hand (a hand's value over every dealer hand, times the nets' scale)."""

    lows: Ks
    most: int
    fee: Fraction
    per_row: int
    fold: int
    raise_multiple: Fraction
    n: list[int]  # the weight of each up card
    flat: list[Flat]
    fixed_net: list[int]  # the affine hands' weight times `b` at `lows`, by up card
    fixed_slope: Ints  # (up cards, entries)
    fixed_calls: list[int]
    loose: Loose
    size: float
    margins: Floats  # by up card: how near its threshold a hand is decided exactly (`TOLERANCE`)
    work: float = field(default=0.0)
    _seen: dict[Ks, tuple[Fraction, Fraction, Rates, list[list[int]]]] = field(default_factory=dict, repr=False)

    def _steps(self, ks: Sequence[int]) -> list[int]:
        return [k - lo for k, lo in zip(ks, self.lows, strict=True)]

    def thresholds(self, ks: Sequence[int]) -> tuple[Fraction, Fraction, Rates, list[list[int]]]:
        """One paytable exactly: the expected net per ante, the average wager, the rates and, by up
        card, how many of its flat hands are exchanged with k exchanges left (k = 1 .. most, at
        index k - 1). In whole numbers: each value and threshold a numerator over a denominator."""
        key = tuple(ks)
        if key not in self._seen:
            self.work += UP_RANKS * (self.most + 1) * (20 + len(self.loose.up)) / self.size
            self._seen[key] = self._thresholds(key)
        return self._seen[key]

    def _thresholds(self, ks: Ks) -> tuple[Fraction, Fraction, Rates, list[list[int]]]:
        steps = np.asarray(self._steps(ks), dtype=np.int64)
        lv = self.loose.value + self.loose.slope @ steps
        lb, called = np.maximum(lv, self.fold), lv >= self.fold
        fee = self.fee * self.per_row
        net, cuts = Fraction(0), []
        exchanged: list[list[int]] = []
        calls: list[list[int]] = []
        for u in range(UP_RANKS):
            f, n, mine = self.flat[u], self.n[u], self.loose.up == u
            loose = _LooseAt(self.loose.w[mine], lb[mine], called[mine]) if mine.any() else None
            base = self.fixed_net[u] + int(self.fixed_slope[u] @ steps)
            numerator, denominator = base + f.wb[-1], 1  # the fresh hand's value, times n
            row_x, row_c, row_i = [0], [self.fixed_calls[u] + f.calls[-1]], []
            if loose is not None:
                numerator, row_c[0] = numerator + loose.kept(None), row_c[0] + loose.calls(None)
            for _ in range(self.most):
                # the threshold: a fresh hand with one exchange fewer, less the fee
                tn = numerator * fee.denominator - fee.numerator * denominator * n
                td = denominator * n * fee.denominator
                whole = -(-tn // td)  # b < t where b < ceil(t), b whole
                i = bisect.bisect_left(f.b, whole)
                swapped, kept, calls_kept = f.w[i], base + f.wb[-1] - f.wb[i], f.calls[-1] - f.calls[i]
                if loose is not None:
                    out = loose.b < whole
                    swapped += int(loose.w[out].sum())
                    kept, calls_kept = kept + loose.kept(~out), calls_kept + loose.calls(~out)
                numerator, denominator = kept * td + swapped * tn, td
                row_i.append(i)
                row_x.append(swapped)
                row_c.append(self.fixed_calls[u] + calls_kept)
            net += Fraction(numerator, denominator * self.per_row * n)
            cuts.append(row_i)
            exchanged.append(row_x)
            calls.append(row_c)
        rates = Rates(exchanged, calls)
        return net / UP_RANKS, self.wager(rates), rates, cuts

    def figures(self, ks: Sequence[int]) -> tuple[Fraction, Fraction]:
        """The best strategy's expected net per ante and average wager at one paytable, exactly."""
        net, wager, _, _ = self.thresholds(ks)
        return net, wager

    def wager(self, rates: Rates) -> Fraction:
        """The average wager from the rates: the ante, the fees of the exchanges made and the raise
        (each up card's over n^(most + 1), n its weight)."""
        sums: dict[int, list[int]] = {}  # by weight n: the fees' and the raises' numerators
        for u in range(UP_RANKS):
            n, reach = self.n[u], 1  # reach: the rounds still on, over n^depth
            f, r = sums.setdefault(n, [0, 0])
            for depth, left in enumerate(range(self.most, -1, -1)):
                r += reach * rates.calls[u][left] * n ** (self.most - depth)
                reach *= rates.exchanged[u][left]
                f += reach * n ** (self.most - depth)
            sums[n] = [f, r]
        fees = sum((Fraction(f, n ** (self.most + 1)) for n, (f, _) in sums.items()), Fraction(0))
        raised = sum((Fraction(r, n ** (self.most + 1)) for n, (_, r) in sums.items()), Fraction(0))
        return 1 + (self.fee * fees + self.raise_multiple * raised) / UP_RANKS

    def wager_span(self, lows: Ks, highs: Ks) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """The expected nets at the box's corners and bounds of the average wager over the box: the
        thresholds rise with the pays, so each share exchanged lies between what the corners'
        thresholds give (the loose hands anywhere from none to all)."""
        low, _, _, cuts_low = self.thresholds(lows)
        high, _, _, cuts_high = self.thresholds(highs)
        spans = []
        for cuts, more in ((cuts_low, False), (cuts_high, True)):
            exchanged, calls = [], []
            for u in range(UP_RANKS):
                f, loose = self.flat[u], int(self.loose.w[self.loose.up == u].sum())
                # the fewest exchanged and the most kept calling at the low thresholds, and the reverse
                exchanged.append([0] + [f.w[i] + (loose if more else 0) for i in cuts[u]])
                called, extra = self.fixed_calls[u] + f.calls[-1], 0 if more else loose
                calls.append([called + extra] + [called - f.calls[i] + extra for i in cuts[u]])
            spans.append((exchanged, calls))
        (x_low, c_low), (x_high, c_high) = spans
        least = self.wager(Rates(x_low, c_high))
        most = self.wager(Rates(x_high, c_low))
        return low, high, least, most

    def batch(self, ks: Ints) -> tuple[Floats, npt.NDArray[np.bool_]]:
        """Every paytable's (rows of `ks`) return less 1 in floats, and where a hand lies within a
        float's error of its threshold (those paytables are to be valued by `figures`)."""
        per = max(1, CHUNK // (1 + len(self.loose.up)))
        if len(ks) > per:  # a block of paytables times loose hands at a time
            parts = [self.batch(ks[at : at + per]) for at in range(0, len(ks), per)]
            return np.concatenate([x for x, _ in parts]), np.concatenate([u for _, u in parts])
        steps = ks - np.asarray(self.lows, dtype=np.int64)
        rows, loose = len(ks), self.loose
        self.work += rows * UP_RANKS * (self.most + 1) * (1 + len(loose.up) + len(self.lows)) / self.size
        lv = (loose.value[None, :] + steps @ loose.slope.T).astype(np.float64)
        lb, called = np.maximum(lv, self.fold), lv >= self.fold
        lw = loose.w.astype(np.float64)
        unsure = np.zeros(rows, dtype=bool)
        net, fees, raised = np.zeros(rows), np.zeros(rows), np.zeros(rows)
        fee = float(self.fee * self.per_row)
        for u in range(UP_RANKS):
            f, n, mine = self.flat[u], float(self.n[u]), loose.up == u
            w, b, c = lw[mine], lb[:, mine], called[:, mine]
            has, margin = bool(mine.any()), self.margins[u]
            base = (self.fixed_net[u] + steps @ self.fixed_slope[u]).astype(np.float64)
            value = base + f.wbf[-1] + (b @ w if has else 0.0)
            xs, cs = [np.zeros(rows)], [self.fixed_calls[u] + f.callsf[-1] + (c @ w if has else 0.0)]
            for _ in range(self.most):
                t = value / n - fee
                i = np.searchsorted(f.bf, t, side="left")
                below, above = f.bf[np.maximum(i - 1, 0)], f.bf[np.minimum(i, len(f.bf) - 1)]
                unsure |= (np.abs(t - below) <= margin) | (np.abs(above - t) <= margin)
                kept = base + (f.wbf[-1] - f.wbf[i])
                swapped = f.wf[i]
                calls_kept = self.fixed_calls[u] + f.callsf[-1] - f.callsf[i]
                if has:
                    unsure |= (np.abs(b - t[:, None]) <= margin).any(axis=1)
                    out = b < t[:, None]
                    kept, swapped = kept + (b * ~out) @ w, swapped + out @ w
                    calls_kept = calls_kept + (~out & c) @ w
                value = kept + swapped * t
                xs.append(swapped)
                cs.append(calls_kept)
            net += value / (self.per_row * n)
            reach = np.ones(rows)
            for left in range(self.most, -1, -1):
                raised += reach * cs[left] / n
                reach = reach * xs[left] / n
                fees += reach
        wager = 1 + (float(self.fee) * fees + float(self.raise_multiple) * raised) / UP_RANKS
        return net / UP_RANKS / wager, unsure


def exchange_model(
    counts: Counted, lows: Sequence[int], highs: Sequence[int], at: Callable[[Ks], Variant]
) -> Exchange | None:
    """The model from game 4's counts over the grid from `lows` to `highs` (pays in steps; `at`
    gives the variant at a paytable): each hand's call value at the lowest paytable and one step up
    each entry, checked affine at the highest. None where it does not hold (a pay that lowers a
    call's value)."""
    low = at(tuple(lows))
    x = low.exchanges
    assert x is not None
    ups = [tuple(k + (j == i) for j, k in enumerate(lows)) for i in range(len(lows))]
    tried = [counts.stud_values(at(k)) for k in (tuple(lows), *ups, tuple(highs))]
    scale = math.lcm(*(s for _, _, s in tried))
    values = [v * (scale // s) for v, _, s in tried]
    fold = tried[0][1] * (scale // tried[0][2])
    base, top = values[0], values[-1]
    slope = np.stack([v - base for v in values[1:-1]], axis=1) if lows else np.zeros((len(base), 0), dtype=np.int64)
    span = np.asarray(highs, dtype=np.int64) - np.asarray(lows, dtype=np.int64)
    w = np.rint(counts.weight).astype(np.int64)
    largest = max(float(np.abs(top).max()), float(abs(fold)))
    if (slope < 0).any() or (base + slope @ span != top).any() or largest * float(w.sum()) >= 2.0**62:
        return None  # a pay that lowers a call's value, or sums past int64
    plan = exchange_plan(top, fold, counts.up_rank, w, scale, x.fee_antes, x.most_per_round)
    per_row = scale * STUD_DEALER_HANDS
    fee_rows = float(x.fee_antes * per_row)
    highest = np.array([(plan.fresh[x.most_per_round - 1][u] - x.fee_antes) * per_row for u in range(UP_RANKS)])
    flat = ~slope.any(axis=1) | (top < fold)
    fixed = ~flat & (base >= fold) & (base >= np.array([math.ceil(t) for t in highest])[counts.up_rank])
    loose = ~flat & ~fixed
    b = np.where(flat, np.maximum(base, fold), 0)
    return Exchange(
        tuple(lows),
        x.most_per_round,
        x.fee_antes,
        per_row,
        fold,
        low.raise_multiple,
        [int(w[counts.up_rank == u].sum()) for u in range(UP_RANKS)],
        [_flat(b[m], w[m], base[m] >= fold) for m in (flat & (counts.up_rank == u) for u in range(UP_RANKS))],
        [int(w[m] @ base[m]) for m in (fixed & (counts.up_rank == u) for u in range(UP_RANKS))],
        np.stack([w[m] @ slope[m] for m in (fixed & (counts.up_rank == u) for u in range(UP_RANKS))]),
        [int(w[m].sum()) for m in (fixed & (counts.up_rank == u) for u in range(UP_RANKS))],
        Loose(counts.up_rank[loose].astype(np.int64), base[loose], slope[loose], w[loose]),
        float(counts.counts.size),
        _margins(
            counts.up_rank, w, np.maximum(np.abs(np.maximum(base, fold)), np.abs(np.maximum(top, fold))), fee_rows
        ),
    )


def _margins(up: npt.NDArray[np.uint8], w: Ints, size: Ints, fee: float) -> Floats:
    """By up card, `TOLERANCE` of the size of its thresholds and of the float sums they come from:
    a threshold is a mean of hands' values (each at most `size`) less the fee, and a float's error
    on it is a few ulps of that mean."""
    sums = np.bincount(up, weights=w * size.astype(np.float64), minlength=UP_RANKS)
    weights = np.bincount(up, weights=w.astype(np.float64), minlength=UP_RANKS)
    return np.asarray(TOLERANCE * (sums / weights + fee + 1), dtype=np.float64)


def _flat(b: Ints, w: Ints, calls: npt.NDArray[np.bool_]) -> Flat:
    order = np.argsort(b, kind="stable")
    b, w, calls = b[order], w[order], calls[order]

    sums = [np.concatenate([[0], np.cumsum(x)]).astype(np.int64) for x in (w, w * b, w * calls)]
    return Flat(b.tolist(), b.astype(np.float64), *(x.tolist() for x in sums), *(x.astype(np.float64) for x in sums))
