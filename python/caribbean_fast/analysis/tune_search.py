"""The paytable designer's search: the nearest allowed paytables either side of a target return,
proven over the whole allowed grid by branch and bound, each bound exact.

The return does not always rise with a pay (game 4: a higher full house pay makes the best play
exchange and call more, and the return per unit wagered falls), so no line or bisection is
trusted. What holds instead, and what the search rests on:

- the best strategy's expected net per ante never falls when a pay rises (the player may keep the
  old play); without exchanges, each situation's raise value rises with every pay, so where the best
  strategy raises only grows, and the average wager of any paytable in a box lies between those of
  its lowest and highest corners (with exchanges, between what the corners' exchange thresholds
  give: `tune_exchange`);
- where the best strategy plays alike at a box's corners (its lowest and highest corner without
  exchanges, every corner with them: under one play each decision is a linear inequality in the
  pays, true over the box when true at its corners), it plays alike over the whole box, and there
  the return is an affine function of the pays. That box is solved exactly in integers: the
  entries in chain order (pays rise with the hands) split in two halves around one entry that is
  enumerated, each half's sums sorted, the nearest pairs found by binary search (meet in the middle).

Without exchanges the search reads the game from `tune_linear`'s exact model instead of
re-settles: a box where the play changes is valued whole (every paytable at once) when few
situations change inside it, else split along the pays that change them. With exchanges it reads
`tune_exchange`'s: a box is bounded from its corners' expected nets and the bounds of its wager
(each exchange threshold lies between its values at the corners), and valued whole once small.
Where neither model holds, each paytable is re-settled. Boxes whose bounds cannot bring a
paytable nearer than those found are dropped; the others are split. A budget of
re-settles bounds the work: past it, the answer says the search was cut and how near an allowed
paytable not yet seen could be.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..progress import ProgressCallback
from .tune_exchange import Exchange
from .tune_linear import Box, Linear

__all__ = ["Grid", "Point", "SearchResult", "search"]

Ks = tuple[int, ...]  # a paytable as each entry's pay in steps
Ints = npt.NDArray[np.int64]
MOST_PAIRS = 2 * 10**9  # the work of one exact solve of an affine box (element operations); past it, split


@dataclass(frozen=True)
class Point:
    """What the search reads of one paytable: the return the target reads (`rtp` = 1 +
    `expected` / `wager`: the main game's expected net per ante and average wager, or a side
    bet's or the progressive's net per stake over 1), and a digest of how the best strategy plays."""

    rtp: Fraction
    expected: Fraction
    wager: Fraction
    decisions: bytes


@dataclass(frozen=True)
class Grid:
    """The allowed paytables: each entry from `lows[i]` to `highs[i]` steps, `k[i] <= k[j]` for
    each of `pairs` (a lower hand's pay never above a higher one's), `order` the entries as the
    chains run (by table, then by hand)."""

    lows: Ks
    highs: Ks
    pairs: tuple[tuple[int, int], ...]
    order: tuple[int, ...]

    @property
    def size(self) -> int:
        return math.prod(h - lo + 1 for lo, h in zip(self.lows, self.highs, strict=True))


@dataclass(frozen=True)
class SearchResult:
    """The nearest allowed paytables at or above the target and below it (nearest first), whether
    the whole grid was searched (`proven`), and otherwise `bound`: no allowed paytable not seen
    returns less than it and at least the target."""

    above: tuple[tuple[Fraction, Ks], ...]
    below: tuple[tuple[Fraction, Ks], ...]
    proven: bool
    bound: Fraction | None
    settles: int


@dataclass
class _Nearest:
    """The `n` nearest paytables found on each side of the target."""

    target: Fraction
    n: int
    above: list[tuple[Fraction, Ks]] = field(default_factory=list)
    below: list[tuple[Fraction, Ks]] = field(default_factory=list)

    def offer(self, rtp: Fraction, ks: Ks) -> None:
        side, key = (self.above, rtp) if rtp >= self.target else (self.below, -rtp)
        if len(side) == self.n and (key, ks) >= ((side[-1][0] if side is self.above else -side[-1][0]), side[-1][1]):
            return
        if any(k == ks for _, k in side):
            return
        side.append((rtp, ks))
        side.sort(key=lambda e: (e[0] if side is self.above else -e[0], e[1]))
        del side[self.n :]

    def worth(self, low: Fraction, high: Fraction) -> bool:
        """Whether a box whose returns lie in [low, high] may hold a nearer paytable."""
        far_above = self.above[-1][0] if len(self.above) == self.n else None
        far_below = self.below[-1][0] if len(self.below) == self.n else None
        up = high >= self.target and (far_above is None or low < far_above)
        down = low < self.target and (far_below is None or high > far_below)
        return up or down


@dataclass(order=True)
class _Box:
    priority: Fraction
    seq: int
    lows: Ks = field(compare=False)
    highs: Ks = field(compare=False)
    low: Fraction | None = field(compare=False, default=None)  # bounds of the returns, from the parent
    high: Fraction | None = field(compare=False, default=None)


def search(
    grid: Grid,
    target: Fraction,
    nearest: int,
    at: Callable[[Ks], Point],
    *,
    wager_span: tuple[Fraction, Fraction] | None,
    every_corner: bool,
    most_settles: int,
    settles: Callable[[], int],
    start: Ks,
    progress: ProgressCallback | None = None,
    model: Linear | Exchange | None = None,
) -> SearchResult:
    """The nearest paytables of `grid` either side of `target`, reading each paytable with `at`.
    `wager_span`: the least and most a round can stake, where decisions need not grow with the pays
    (exchanges; then `every_corner` too), or None where the corners' wagers bound a box's.
    `settles()` counts the re-settles made so far against `most_settles`; `start`: the present
    pays, from which the first paytables are tried (`_seed`). `model`: where given (a game
    without exchanges), every paytable is read from it (`tune_linear`) and a box whose best
    strategy changes inside it is valued whole or split along the pays that change it; game 4's
    (`tune_exchange`): a box is bounded from its corners and valued whole once small enough.
    """
    if model is not None:
        at = _reader(model)
    found, seq = _Nearest(target, max(nearest, 1)), itertools.count()
    _seed(grid, found, at, start)
    boxes = [_Box(Fraction(0), next(seq), grid.lows, grid.highs)]
    total, done = grid.size, 0
    if progress is not None:
        progress(0, total)
    while boxes:
        if settles() >= most_settles:
            break
        box = heapq.heappop(boxes)
        if not _feasible(grid, box.lows, box.highs) or (
            box.low is not None and box.high is not None and not found.worth(box.low, box.high)
        ):
            done += _size(box)
        else:
            if model is None:
                children = _resolve(grid, box, found, at, wager_span, every_corner)
            elif isinstance(model, Exchange):
                children = _resolve_exchange(grid, box, found, model)
            else:
                children = _resolve_linear(grid, box, found, model)
            done += _size(box)
            for child in children:
                heapq.heappush(boxes, _Box(_distance(target, child[2], child[3]), next(seq), *child))
                done -= math.prod(h - lo + 1 for lo, h in zip(child[0], child[1], strict=True))
        if progress is not None:
            progress(done, total)
    open_boxes = [b for b in boxes if _feasible(grid, b.lows, b.highs)]
    bound = None
    if open_boxes:
        lows = [max(b.low if b.low is not None else target, target) for b in open_boxes]
        bound = min(lows)
    if progress is not None:
        progress(total, total)
    return SearchResult(tuple(found.above), tuple(found.below), not open_boxes, bound, settles())


SEED_HALVINGS = 12


def _seed(grid: Grid, found: _Nearest, at: Callable[[Ks], Point], start: Ks) -> None:
    """A few paytables either side of the target, so that the bounds prune from the first box:
    each entry alone from the present pays, and all together along the line from the lowest pays
    to the highest, halved toward the target (a guess: the return may not rise along them)."""
    spans = list(zip(grid.lows, grid.highs, strict=True))
    lines = [(tuple(grid.lows), tuple(grid.highs))]  # each line from its first paytable to its last
    for i, (lo, hi) in enumerate(spans):
        lines.append(((*start[:i], lo, *start[i + 1 :]), (*start[:i], hi, *start[i + 1 :])))
    for first, last in lines:
        a, b = Fraction(0), Fraction(1)
        for _ in range(SEED_HALVINGS):
            t = (a + b) / 2
            ks = tuple(f + math.floor(t * (g - f)) for f, g in zip(first, last, strict=True))
            point = at(ks)
            if _feasible(grid, ks, ks):
                found.offer(point.rtp, ks)
            a, b = (a, t) if point.rtp >= found.target else (t, b)


def _size(box: _Box) -> int:
    return math.prod(h - lo + 1 for lo, h in zip(box.lows, box.highs, strict=True))


def _distance(target: Fraction, low: Fraction | None, high: Fraction | None) -> Fraction:
    """Boxes nearest the target first: those that hold it, then by how far they lie from it."""
    if low is None or high is None:
        return Fraction(0)
    return max(low - target, target - high, Fraction(0))


def _feasible(grid: Grid, lows: Ks, highs: Ks) -> bool:
    """Whether some paytable of the box keeps its pays rising with the hands (a necessary test)."""
    return all(lows[i] <= highs[j] for i, j in grid.pairs)


Child = tuple[Ks, Ks, Fraction | None, Fraction | None]


def _resolve(
    grid: Grid,
    box: _Box,
    found: _Nearest,
    at: Callable[[Ks], Point],
    wager_span: tuple[Fraction, Fraction] | None,
    every_corner: bool,
) -> list[Child]:
    """Solves the box where its best strategy is one, else bounds it and gives its two halves."""
    low, high = at(box.lows), at(box.highs)
    bounds = _bounds(low, high, wager_span)
    if bounds is not None and not found.worth(*bounds):
        return []
    corners = _corners(box) if every_corner else [box.lows, box.highs]
    if all(at(c).decisions == low.decisions for c in corners) and _affine_solve(grid, box, found, at, low, high):
        return []
    if box.lows == box.highs:
        found.offer(low.rtp, box.lows)
        return []
    axis = max(range(len(box.lows)), key=lambda i: box.highs[i] - box.lows[i])
    return _halves(box, axis, bounds)


def _reader(model: Linear | Exchange) -> Callable[[Ks], Point]:
    def at(ks: Ks) -> Point:
        expected, wager = model.figures(ks)
        return Point(1 + expected / wager, expected, wager, b"")

    return at


MOST_VALUED = 1 << 14  # paytables times mixed situations valued at once in a box; past it, split
MOST_LISTED = 1 << 21  # paytables of a box listed at once


def _resolve_linear(grid: Grid, box: _Box, found: _Nearest, model: Linear) -> list[Child]:
    """As `_resolve`, from the model: a box with no mixed situation is affine and solved by
    `_meet`; a box with few enough is valued whole (`_value_all`); the others are bounded and
    split along the pay that moves the mixed situations most."""
    seen = model.box(box.lows, box.highs)
    low, high = (Point(1 + e / w, e, w, b"") for e, w in (seen.low, seen.high))
    bounds = _bounds(low, high, None)
    assert bounds is not None
    if not found.worth(*bounds):
        return []
    if not len(seen.mixed):
        weights = [int(w) for w in seen.fixed.slope]
        affine = _Affine(*seen.low, weights, model.denominator)  # the net all over the box: fixed.at(k - lows)
        span = sum(w * (h - lo) for w, h, lo in zip(weights, box.highs, box.lows, strict=True))
        if span < 2**62 and _meet(grid, box, found, affine):
            return []
    size = _size(box)
    if size * max(len(seen.mixed), 1) <= MOST_VALUED and size <= MOST_LISTED and seen.exact_sums:
        _value_all(grid, box, found, model, seen)
        return []
    spans = [h - lo for lo, h in zip(box.lows, box.highs, strict=True)]
    widest = max(range(len(spans)), key=spans.__getitem__)
    return _halves(box, model.split_axis(seen, box.highs) if len(seen.mixed) else widest, bounds)


def _halves(box: _Box, axis: int, bounds: tuple[Fraction, Fraction] | None) -> list[Child]:
    middle = (box.lows[axis] + box.highs[axis]) // 2
    first = (box.lows, (*box.highs[:axis], middle, *box.highs[axis + 1 :]))
    second = ((*box.lows[:axis], middle + 1, *box.lows[axis + 1 :]), box.highs)
    parent = bounds or (None, None)
    return [(*first, *parent), (*second, *parent)]


CLOSE = 1e-12  # more than a float's error on a return near 1 computed from whole numbers


def _value_all(grid: Grid, box: _Box, found: _Nearest, model: Linear, seen: Box) -> None:
    """Every allowed paytable of the box valued from the model in whole numbers; those whose
    float return could put them among the nearest either side are offered with their exact one."""
    ks = _listed(grid, box)
    if not len(ks):
        return
    sums = model.sums(ks, seen)
    r = model.raise_multiple
    over = model.scale * (r.denominator * model.total + r.numerator * sums.raised)  # the exact return's denominator
    gain = sums.net * r.denominator  # rtp - 1 = gain / over
    x = gain.astype(np.float64) / over.astype(np.float64)
    for i in sorted(_picks(x, found)):
        found.offer(1 + Fraction(int(gain[i]), int(over[i])), tuple(int(k) for k in ks[i]))


def _picks(x: npt.NDArray[np.float64], found: _Nearest) -> set[int]:
    """The rows whose float return less 1 (`x`, within CLOSE of the exact one) could put them
    among the nearest either side of the target."""
    t = float(found.target - 1)
    near = np.abs(x - t) <= CLOSE  # the side of these is told by their exact returns
    picks = set(np.flatnonzero(near).tolist())
    for gap in (x - t, t - x):  # the sure rows of each side: the n nearest, and any as near as the n-th
        rows = np.flatnonzero(gap > CLOSE)
        if len(rows):
            n = min(found.n, len(rows))
            nth = np.partition(gap[rows], n - 1)[n - 1]
            picks.update(rows[gap[rows] <= nth + 2 * CLOSE].tolist())
    return picks


def _listed(grid: Grid, box: _Box) -> Ints:
    """The allowed paytables of a box, one a row."""
    axes = [np.arange(lo, h + 1, dtype=np.int64) for lo, h in zip(box.lows, box.highs, strict=True)]
    ks = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], axis=1)
    for i, j in grid.pairs:
        ks = ks[ks[:, i] <= ks[:, j]]
    return ks


MOST_BATCH = 1 << 14  # paytables of a game-4 box valued at once; past it, split


def _resolve_exchange(grid: Grid, box: _Box, found: _Nearest, model: Exchange) -> list[Child]:
    """Game 4's box: bounded from its corners' expected nets and the bounds of its wager; valued
    whole (`Exchange.batch`, the paytables that may be among the nearest, and any with a hand
    within a float's error of its threshold, valued exactly) once small enough, else split along
    the pay that moves the expected net most."""
    low, high, least, most = model.wager_span(box.lows, box.highs)
    ratios = [e / w for e in (low, high) for w in (least, most)]
    bounds = 1 + min(ratios), 1 + max(ratios)
    if not found.worth(*bounds):
        return []
    if _size(box) * (1 + len(model.loose.up)) <= MOST_BATCH or box.lows == box.highs:
        ks = _listed(grid, box)
        if len(ks):
            x, unsure = model.batch(ks)
            for i in sorted(_picks(x, found) | set(np.flatnonzero(unsure).tolist())):
                expected, wager = model.figures(tuple(int(k) for k in ks[i]))
                found.offer(1 + expected / wager, tuple(int(k) for k in ks[i]))
        return []
    moves = [
        model.figures((*box.lows[:i], box.highs[i], *box.lows[i + 1 :]))[0] - low if box.highs[i] > box.lows[i] else -1
        for i in range(len(box.lows))
    ]
    return _halves(box, max(range(len(moves)), key=moves.__getitem__), bounds)


def _corners(box: _Box) -> list[Ks]:
    return [tuple(c) for c in itertools.product(*({lo, h} for lo, h in zip(box.lows, box.highs, strict=True)))]


def _bounds(low: Point, high: Point, wager_span: tuple[Fraction, Fraction] | None) -> tuple[Fraction, Fraction] | None:
    """Bounds of the main game's return over a box from its corners (None where the target reads
    another return: its box is affine, and solved)."""
    if low.wager == 0:
        return None
    least, most = wager_span if wager_span is not None else (low.wager, high.wager)
    if not 0 < least <= most:
        return None
    ratios = [e / w for e in (low.expected, high.expected) for w in (least, most)]
    return 1 + min(ratios), 1 + max(ratios)


def _affine_solve(grid: Grid, box: _Box, found: _Nearest, at: Callable[[Ks], Point], low: Point, high: Point) -> bool:
    """Where one strategy plays the whole box, the wager is the same over it and the expected net
    is affine in the pays: the slope of each entry from one step, checked at the highest corner;
    every allowed paytable of the box is then solved exactly in integers (`_meet`). False where
    the box is not affine after all (it is split)."""
    slopes = []
    for i, (lo, hi) in enumerate(zip(box.lows, box.highs, strict=True)):
        moved = (*box.lows[:i], lo + 1, *box.lows[i + 1 :])
        slopes.append(Fraction(0) if hi == lo else at(moved).expected - low.expected)
    span = sum(s * (h - lo) for s, h, lo in zip(slopes, box.highs, box.lows, strict=True))
    if high.wager != low.wager or high.expected != low.expected + span:
        return False
    scale = math.lcm(*(s.denominator for s in slopes))
    weights = [int(s * scale) for s in slopes]
    if any(w < 0 for w in weights) or span * scale >= 2**62:
        return False  # a pay that lowers the return under one play, or sums past int64: split
    return _meet(grid, box, found, _Affine(low.expected, low.wager, weights, scale))


@dataclass(frozen=True)
class _Affine:
    """A box's returns: 1 + (expected + sum(weights * (k - lows)) / scale) / wager."""

    expected: Fraction
    wager: Fraction
    weights: list[int]
    scale: int

    def need(self, target: Fraction) -> int:
        """The least weighted sum whose return reaches the target."""
        return math.ceil(((target - 1) * self.wager - self.expected) * self.scale)

    def rtp(self, total: int) -> Fraction:
        return 1 + (self.expected + Fraction(total, self.scale)) / self.wager


def _meet(grid: Grid, box: _Box, found: _Nearest, affine: _Affine) -> bool:
    """Every allowed paytable of an affine box, the nearest either side of the target offered to
    `found`: the entries in chain order are split around one entry `b`; each half's paytables
    are listed with their sums, and for each value of `b` the halves' pairs nearest the target
    are found by a binary search. False where the work would pass MOST_PAIRS (then it is split)."""
    order = list(grid.order)
    sizes = [box.highs[i] - box.lows[i] + 1 for i in order]
    costs = [(sizes[m] * (math.prod(sizes[m + 1 :]) + math.prod(sizes[:m]) * 20), m) for m in range(len(order))]
    cost, m = min(costs)
    if cost > MOST_PAIRS or math.prod(sizes[:m]) > 10**7 or math.prod(sizes[m + 1 :]) > 10**7:
        return False
    b, weights = order[m], affine.weights
    first, second = _half(grid, box, order[:m], b, weights), _half(grid, box, order[m + 1 :], b, weights)
    sorted_second = np.argsort(second.sums, kind="stable")
    s2, limit2 = second.sums[sorted_second], second.limit_high[sorted_second]
    for x in range(box.lows[b], box.highs[b] + 1):
        keep1 = first.limit_low <= x
        keep2 = limit2 >= x
        if not keep1.any() or not keep2.any():
            continue
        rows1, sums1 = np.flatnonzero(keep1), first.sums[keep1]
        rows2, sums2 = sorted_second[keep2], s2[keep2]
        offset = weights[b] * (x - box.lows[b])
        need = affine.need(found.target) - offset
        at = np.searchsorted(sums2, need - sums1, side="left")
        for step in range(found.n):
            for j in (at + step, at - 1 - step):
                ok = (j >= 0) & (j < len(sums2))
                if not ok.any():
                    continue
                total = sums1[ok] + sums2[j[ok]]
                gap = np.abs(total - need)
                picks = np.argpartition(gap, found.n)[: found.n] if len(gap) > found.n else range(len(gap))
                for p in picks:
                    r1, r2 = rows1[ok][p], rows2[j[ok][p]]
                    ks = _assemble(len(box.lows), first, int(r1), second, int(r2), b, x)
                    found.offer(affine.rtp(int(total[p]) + offset), ks)
    return True


@dataclass(frozen=True)
class _Half:
    """One half's allowed paytables: their entries' steps, sums, and the least and most the middle
    entry `b` may be for each (from the pairs that tie a half's entry to it)."""

    entries: Sequence[int]
    steps: Ints  # (rows, entries)
    sums: Ints
    limit_low: Ints
    limit_high: Ints


def _half(grid: Grid, box: _Box, entries: Sequence[int], b: int, weights: list[int]) -> _Half:
    axes = [np.arange(box.lows[i], box.highs[i] + 1, dtype=np.int64) for i in entries]
    if axes:
        steps = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], axis=1)
    else:
        steps = np.zeros((1, 0), dtype=np.int64)
    column = {e: k for k, e in enumerate(entries)}
    ok = np.ones(len(steps), dtype=bool)
    limit_low = np.full(len(steps), box.lows[b], dtype=np.int64)
    limit_high = np.full(len(steps), box.highs[b], dtype=np.int64)
    for i, j in grid.pairs:
        if i in column and j in column:
            ok &= steps[:, column[i]] <= steps[:, column[j]]
        elif i in column and j == b:
            limit_low = np.maximum(limit_low, steps[:, column[i]])
        elif i == b and j in column:
            limit_high = np.minimum(limit_high, steps[:, column[j]])
    steps, limit_low, limit_high = steps[ok], limit_low[ok], limit_high[ok]
    sums = np.zeros(len(steps), dtype=np.int64)
    for k, e in enumerate(entries):
        sums += weights[e] * (steps[:, k] - box.lows[e])
    return _Half(entries, steps, sums, limit_low, limit_high)


def _assemble(d: int, first: _Half, r1: int, second: _Half, r2: int, b: int, x: int) -> Ks:
    ks = [0] * d
    for k, e in enumerate(first.entries):
        ks[e] = int(first.steps[r1, k])
    for k, e in enumerate(second.entries):
        ks[e] = int(second.steps[r2, k])
    ks[b] = x
    return tuple(ks)
