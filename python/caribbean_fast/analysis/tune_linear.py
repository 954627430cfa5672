"""The paytable designer's exact model of a game without exchanges: each situation's raise (call)
value is affine in the adjusted pays, so a box of paytables is valued at once.

A situation raises where its raise value reaches its fold value. The values rise with every pay
(a pay only adds to what a raise can win), so over a box of paytables a situation that raises at
the box's lowest corner raises all over it, one that folds at its highest corner folds all over
it, and only the others (`mixed`) decide differently inside the box. The best strategy's expected
net and wager at every paytable of the box are then an affine part, summed once, plus the mixed
situations' values, summed for each paytable with numpy: every figure a whole number over one
denominator, so exact. The situations that decide alike over the whole grid are summed once (in
hold'em 7,717 of 1,286,792 situations change their call over the default grid of the top three ante pays).
`Linear.work` counts the element operations done in re-settles (a re-settle multiplies every
situation's count columns), the unit of the search's budget.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..settlement import Decision, Outcome, settle
from ..variants import Family, Variant
from .categories import HOLDEM_SLOTS, raise_nets
from .resettle import Counted
from .situations import HOLDEM_DEALS_PER_FLOP, STUD_DEALER_HANDS

__all__ = ["Linear", "linear_model"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Ks = tuple[int, ...]
CHUNK = 1 << 21  # elements of one (paytables x mixed situations) block


@dataclass(frozen=True)
class Sums:
    """A batch of paytables' whole-number figures: the expected net times `Linear.denominator`
    and the deals raised (called)."""

    net: Ints
    raised: Ints


@dataclass(frozen=True)
class Fixed:
    """The situations that decide alike all over a set of paytables, summed: the net at its
    lowest corner (times the denominator), its rise per step of each pay, and the deals raised."""

    net: int
    slope: Ints
    raised: int

    def at(self, steps: Ints) -> Ints:
        """The net at paytables `steps` from the lowest corner (rows of steps)."""
        return self.net + steps @ self.slope


@dataclass(frozen=True)
class Box:
    """A box of paytables as the model sees it: the figures (expected net per ante, average
    wager) at its lowest and highest corners, the situations that decide differently inside it
    (`mixed`, indices into the model's rows) and what the others add (`fixed`)."""

    lows: Ks
    low: tuple[Fraction, Fraction]
    high: tuple[Fraction, Fraction]
    mixed: Ints
    fixed: Fixed
    base: Floats  # the mixed situations' values at the lowest corner
    room: float  # their values above folding at the highest corner, summed: a bound

    @property
    def exact_sums(self) -> bool:
        """Whether `Linear.sums` can add the mixed situations' values in floats exactly."""
        return self.room < 2.0**52


@dataclass
class Linear:
    """The situations whose decision changes somewhere on the grid (the others are summed in
    `fixed`): each raises where `value + slope . (k - lows)` reaches `fold`, all whole numbers
    times `scale` (kept as float64, exact below 2^52); `times` the deals its value stands for
    once, `deals` its deals. The pays `k` are in steps from the grid's `lows`. `work` counts the
    element operations done, in re-settles (`size`, every situation's count columns)."""

    lows: Ks
    value: Floats
    slope: Floats  # (situations, entries), every one >= 0
    fold: Floats
    times: Floats
    deals: Floats
    fixed: Fixed
    total: int  # every situation's deals
    scale: int
    raise_multiple: Fraction
    size: float
    work: float = field(default=0.0)

    @property
    def denominator(self) -> int:
        """Of the expected net per ante: `scale` times the deals."""
        return self.scale * self.total

    def wager(self, raised: int) -> Fraction:
        return 1 + self.raise_multiple * Fraction(raised, self.total)

    def _steps(self, ks: Sequence[int]) -> Ints:
        return np.asarray(ks, dtype=np.int64) - np.asarray(self.lows, dtype=np.int64)

    def _values(self, ks: Sequence[int], rows: Ints | slice = slice(None)) -> Floats:
        self.work += len(self.value) * (1 + len(self.lows)) / self.size
        return self.value[rows] + self.slope[rows] @ self._steps(ks).astype(np.float64)

    def _figures(self, ks: Sequence[int], v: Floats) -> tuple[Fraction, Fraction]:
        up = v >= self.fold
        net = int(self.fixed.at(self._steps(ks))) + _whole_dot(self.times, np.where(up, v, self.fold))
        return Fraction(net, self.denominator), self.wager(self.fixed.raised + round(float(self.deals[up].sum())))

    def figures(self, ks: Sequence[int]) -> tuple[Fraction, Fraction]:
        """The best strategy's expected net per ante and average wager at one paytable, exactly."""
        return self._figures(ks, self._values(ks))

    def box(self, lows: Ks, highs: Ks) -> Box:
        low, high = self._values(lows), self._values(highs)
        always, never = low >= self.fold, high < self.fold
        mixed = np.flatnonzero(~always & ~never)
        steps = self._steps(lows)
        fixed = Fixed(
            int(self.fixed.at(steps))
            + _whole_dot(self.times[always], low[always])
            + _whole_dot(self.times[never], self.fold[never]),
            self.fixed.slope
            + np.array([_whole_dot(self.times[always], c) for c in self.slope[always].T], dtype=np.int64),
            self.fixed.raised + round(float(self.deals[always].sum())),
        )
        room = float(self.times[mixed] @ (high[mixed] - self.fold[mixed]))
        figures = self._figures(lows, low), self._figures(highs, high)
        return Box(lows, *figures, mixed, fixed, low[mixed], room)

    def sums(self, ks: Ints, box: Box) -> Sums:
        """Every paytable's (rows of `ks`) figures, from the box's fixed part and its mixed situations."""
        mixed = box.mixed
        self.work += len(ks) * (len(mixed) + 1) * (1 + len(self.lows)) / self.size
        steps = ks - np.asarray(box.lows, dtype=np.int64)
        net = box.fixed.at(steps) + _whole_dot(self.times[mixed], self.fold[mixed])
        raised = np.full(len(ks), box.fixed.raised, dtype=np.int64)
        if len(mixed):
            slope, fold, times, deals = self.slope[mixed].T, self.fold[mixed], self.times[mixed], self.deals[mixed]
            per = max(1, CHUNK // len(mixed))
            for at in range(0, len(ks), per):
                over = steps[at : at + per].astype(np.float64) @ slope + (box.base - fold)
                net[at : at + per] += np.rint(np.maximum(over, 0) @ times).astype(np.int64)
                raised[at : at + per] += np.rint((over >= 0) @ deals).astype(np.int64)
        return Sums(net, raised)

    def narrowed(self, highs: Ks) -> Linear:
        """The model with the situations that decide alike over the whole grid summed into `fixed`."""
        grid = self.box(self.lows, highs)
        rows = grid.mixed
        return replace(
            self,
            value=self.value[rows],
            slope=self.slope[rows],
            fold=self.fold[rows],
            times=self.times[rows],
            deals=self.deals[rows],
            fixed=grid.fixed,
            work=0.0,
        )

    def split_axis(self, box: Box, highs: Ks) -> int:
        """The pay whose halving saves the most work: the mixed situations' movement it makes (as a
        share of theirs: halving it settles the most of them) plus its share of the net's movement
        over the box (halving it lets the most of the box be ruled out)."""
        spans = np.asarray(highs, dtype=np.float64) - np.asarray(box.lows, dtype=np.float64)
        moves = self.slope[box.mixed] * spans
        totals = moves.sum(axis=1, keepdims=True)
        mixing = (moves / np.where(totals > 0, totals, 1)).sum(axis=0) / max(len(box.mixed), 1)
        net = box.fixed.slope.astype(np.float64) * spans
        scores = mixing + net / max(float(net.sum()), 1.0)
        scores[spans == 0] = -1
        return int(np.argmax(scores))


def _whole_dot(a: Floats, b: Floats) -> int:
    """The exact sum of products of whole numbers held as floats (each product below 2^62)."""
    return int((np.rint(a).astype(np.int64) * np.rint(b).astype(np.int64)).sum())


def linear_model(
    counts: Counted, lows: Sequence[int], highs: Sequence[int], at: Callable[[Ks], Variant]
) -> Linear | None:
    """The model from the game's counts over the grid from `lows` to `highs` (pays in steps; `at`
    gives the variant at a paytable): the nets at the lowest paytable and one step up each entry,
    checked affine at the highest. None where the model does not hold: exchanges, a pay that
    lowers a raise's net, or sums that could pass 2^62."""
    at_lows = at(tuple(lows))
    if at_lows.exchanges is not None:
        return None
    classes = HOLDEM_SLOTS if counts.family is Family.HOLDEM else at_lows.classes
    base, fold = _nets(at_lows, classes), settle(at_lows, Outcome(Decision.FOLD)).main
    ups = [tuple(k + (j == i) for j, k in enumerate(lows)) for i in range(len(lows))]
    deltas = [_nets(at(k), classes) - base for k in ups]
    top = base + sum((d * (h - lo) for d, h, lo in zip(deltas, highs, lows, strict=True)), np.zeros_like(base))
    if (_nets(at(tuple(highs)), classes) != top).any() or any((d < 0).any() for d in deltas):
        return None
    scale = math.lcm(*(x.denominator for x in (*base.ravel(), *(d for m in deltas for d in m.ravel()), fold)))
    most = max(abs(x) for x in (*top.ravel(), *base.ravel(), fold)) * scale  # a net's size, times the scale
    return _model(counts, at_lows, (tuple(lows), tuple(highs)), base, deltas, fold, scale, most)


def _nets(variant: Variant, classes: Sequence[object]) -> npt.NDArray[np.object_]:
    """The raise's nets as Fractions, by class and showdown column (0 where one cannot happen)."""
    table = raise_nets(variant, tuple(classes))  # type: ignore[arg-type]
    return np.array([[v if v is not None else Fraction(0) for v in row] for row in table], dtype=object)


def _model(
    counts: Counted,
    variant: Variant,
    grid: tuple[Ks, Ks],
    base: npt.NDArray[np.object_],
    deltas: list[npt.NDArray[np.object_]],
    fold: Fraction,
    scale: int,
    most: Fraction,
) -> Linear | None:
    ints = [
        np.array((m * scale).ravel().tolist(), dtype=object).astype(np.int64).reshape(m.shape) for m in (base, *deltas)
    ]
    if counts.family is Family.HOLDEM:
        values = [counts.counts @ m.ravel().astype(np.float64) for m in ints]
        deals = np.rint(counts.weight).astype(np.int64) * HOLDEM_DEALS_PER_FLOP
        times = np.ones(len(deals), dtype=np.int64)
        folds = deals * int(fold * scale)
    else:
        values = [np.einsum("ij,ij->i", counts.counts, m[counts.slot].astype(np.float64)) for m in ints]
        times = np.rint(counts.weight).astype(np.int64)
        deals = times * STUD_DEALER_HANDS
        folds = np.full(len(times), int(fold * scale) * STUD_DEALER_HANDS, dtype=np.int64)
    widest = float(most) * float(counts.counts.sum(axis=1).max())  # a value's size, at most
    if widest >= 2.0**51 or float(deals.sum()) >= 2.0**52 or float(most) * float(deals.sum()) >= 2.0**60:
        return None  # a float product or a whole sum could lose digits
    value, *slopes = (np.rint(v) for v in values)
    slope = np.stack(slopes, axis=1) if slopes else np.zeros((len(value), 0))
    f = np.float64
    lows, highs = grid
    everywhere = Linear(
        lows,
        value,
        slope,
        folds.astype(f),
        times.astype(f),
        deals.astype(f),
        Fixed(0, np.zeros(len(lows), dtype=np.int64), 0),
        int(deals.sum()),
        scale,
        variant.raise_multiple,
        float(counts.counts.size),
    )
    return everywhere.narrowed(highs)
