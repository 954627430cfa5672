"""One wager's net per round as an exact distribution (aggregated by amount), and the bands in
which its return over N rounds falls.

A band is the central `level` share of the mean net per round over `rounds` rounds. It comes from
the exact distribution of the N-round sum wherever that fits in `MAX_POINTS`: the nets lie on a
lattice (`Lattice`), the sum's distribution is the round's characteristic function raised to the
power N and inverted by FFT over a window that Chernoff bounds from the exact cumulant generating
function show to hold all but `OUTSIDE` of the mass (what lies outside wraps around the window,
so the bound is also the error's). Where the window does not fit, the normal approximation (mean
plus or minus z sigma / sqrt(N)) is given only if, at the largest N computed exactly, it lies
within `NORMAL_TOLERANCE` of the exact band at every level; otherwise the band is not given. The
normal approximation's error shrinks as N grows (Berry-Esseen), so a check at a smaller N holds a
fortiori at larger ones.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

__all__ = [
    "LEVELS",
    "ROUNDS",
    "Band",
    "NetDistribution",
    "bands",
    "volatility_index",
]

LEVELS = (0.90, 0.95, 0.99)
ROUNDS = tuple(10**k for k in range(3, 9))
MAX_POINTS = 1 << 22  # the largest FFT window (32 MB of float64 a copy)
OUTSIDE = 1e-12  # the mass a window may leave out, on each side
NORMAL_TOLERANCE = 0.02  # of the band's half-width, or one lattice step if that is wider
VOLATILITY_LEVEL = 0.90


@dataclass(frozen=True)
class NetDistribution:
    """A wager's net per round by amount, exact: `amounts` ascending (Fractions of the unit, an
    ante or a stake) and how many deals (or weighted deal paths) end with each."""

    amounts: tuple[Fraction, ...]
    weights: tuple[int, ...]
    unit: str = "ante"

    @classmethod
    def of(cls, pairs: Iterable[tuple[Fraction, int]], unit: str = "ante") -> NetDistribution:
        """Aggregated by amount from (net, weight) pairs; zero weights dropped."""
        by_amount: dict[Fraction, int] = {}
        for net, n in pairs:
            if n:
                by_amount[Fraction(net)] = by_amount.get(Fraction(net), 0) + int(n)
        amounts = tuple(sorted(by_amount))
        return cls(amounts, tuple(by_amount[a] for a in amounts), unit)

    @property
    def total(self) -> int:
        return sum(self.weights)

    def probability(self, i: int) -> Fraction:
        return Fraction(self.weights[i], self.total)

    @cached_property
    def mean(self) -> Fraction:
        return sum((a * n for a, n in zip(self.amounts, self.weights, strict=True)), Fraction(0)) / self.total

    @cached_property
    def variance(self) -> Fraction:
        square = sum((a * a * n for a, n in zip(self.amounts, self.weights, strict=True)), Fraction(0))
        return square / self.total - self.mean**2

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    @property
    def skewness(self) -> float:
        """The third standardized moment (0 for a symmetric distribution)."""
        m = self.mean
        third = sum(((a - m) ** 3 * n for a, n in zip(self.amounts, self.weights, strict=True)), Fraction(0))
        return float(third / self.total) / self.std_dev**3 if self.variance else 0.0

    @property
    def largest_win(self) -> Fraction:
        return self.amounts[-1]

    @property
    def largest_win_one_in(self) -> float:
        """The odds of the largest net as "1 in N": N = 1 / its probability."""
        return self.total / self.weights[-1]

    @cached_property
    def lattice(self) -> Lattice:
        return Lattice.of(self)


@dataclass(frozen=True)
class Lattice:
    """The amounts as `(first + step * k) ` for whole k from 0 to `span`, the steps' gcd 1:
    `k` the offsets, `p` their probabilities (floats for the FFT)."""

    first: Fraction
    step: Fraction
    k: npt.NDArray[np.int64]
    p: npt.NDArray[np.float64]

    @classmethod
    def of(cls, d: NetDistribution) -> Lattice:
        first = d.amounts[0]
        gaps = [a - first for a in d.amounts[1:]]
        scale = math.lcm(*(g.denominator for g in gaps)) if gaps else 1
        step = Fraction(math.gcd(*(int(g * scale) for g in gaps)), scale) if gaps else Fraction(1)
        k = np.array([int((a - first) / step) for a in d.amounts], dtype=np.int64)
        p = np.array([float(d.probability(i)) for i in range(len(d.amounts))])
        return cls(first, step, k, p / p.sum())

    @property
    def span(self) -> int:
        return int(self.k[-1])

    def cgf(self, t: float) -> float:
        """log E[exp(t k)], computed without overflow."""
        x = t * self.k.astype(np.float64)
        top = float(x.max())
        return top + math.log(float(np.dot(self.p, np.exp(x - top))))

    def window(self, rounds: int) -> tuple[int, int]:
        """Sums of `rounds` offsets outside [low, high] have probability at most `OUTSIDE` on each
        side (Chernoff: P(S >= a) <= exp(N K(t) - t a) for every t > 0; the least a over a grid
        of t is a valid bound, if not the tightest)."""
        room = math.log(1 / OUTSIDE)
        ts = np.geomspace(1e-9, 50.0, 400)
        high = min((rounds * self.cgf(t) + room) / t for t in ts)
        low = max((rounds * self.cgf(-t) + room) / -t for t in ts)
        return max(0, math.floor(low)), min(rounds * self.span, math.ceil(high))

    def sum_cdf(self, rounds: int) -> tuple[int, npt.NDArray[np.float64]] | None:
        """The distribution function of the sum of `rounds` offsets over its window, with the
        window's first sum; None when the window is wider than `MAX_POINTS`."""
        low, high = self.window(rounds)
        width = high - low + 1
        if width > MAX_POINTS:
            return None
        n = 1 << max(4, (width - 1).bit_length())
        pmf = np.zeros(n)
        np.add.at(pmf, self.k % n, self.p)
        phi = np.fft.rfft(pmf)
        power = np.zeros_like(phi)
        alive = np.abs(phi) > 0
        power[alive] = np.exp(rounds * np.log(phi[alive]))  # |phi| <= 1: phi^N, 0 where phi is 0
        circular = np.fft.irfft(power, n)  # P(S = s) at s mod n
        at = (low + np.arange(width)) % n
        probabilities = np.clip(circular[at], 0.0, None)
        return low, np.cumsum(probabilities)


@dataclass(frozen=True)
class Band:
    """The central `level` share of the mean net per round over `rounds` rounds, in the
    distribution's unit; `low`/`high` None where the band is not given. `method`: "exact",
    "normal" or "not given"."""

    rounds: int
    level: float
    low: float | None
    high: float | None
    method: str


def _exact_bands(lattice: Lattice, rounds: int) -> list[Band] | None:
    found = lattice.sum_cdf(rounds)
    if found is None:
        return None
    low, cdf = found

    def mean_at(tail: float) -> float:
        """The mean net per round of the least sum whose distribution function reaches `tail`."""
        s = low + int(np.searchsorted(cdf, tail * cdf[-1]))
        return float((rounds * lattice.first + s * lattice.step) / rounds)

    return [Band(rounds, level, mean_at((1 - level) / 2), mean_at((1 + level) / 2), "exact") for level in LEVELS]


def _normal_bands(d: NetDistribution, rounds: int) -> list[Band]:
    out = []
    for level in LEVELS:
        half = NormalDist().inv_cdf((1 + level) / 2) * d.std_dev / math.sqrt(rounds)
        out.append(Band(rounds, level, float(d.mean) - half, float(d.mean) + half, "normal"))
    return out


def _normal_holds(d: NetDistribution, exact: list[Band]) -> bool:
    """Whether the normal bands lie within the tolerance of these exact ones."""
    rounds = exact[0].rounds
    step = float(d.lattice.step) / rounds
    for e, n in zip(exact, _normal_bands(d, rounds), strict=True):
        assert e.low is not None and e.high is not None and n.low is not None and n.high is not None
        room = max(NORMAL_TOLERANCE * (n.high - n.low) / 2, step)
        if abs(e.low - n.low) > room or abs(e.high - n.high) > room:
            return False
    return True


def bands(d: NetDistribution, rounds: Iterable[int] = ROUNDS) -> tuple[Band, ...]:
    """The bands at each number of rounds (ascending) and level (`LEVELS`), each by the exact
    distribution where it fits, else the normal approximation where it is checked, else none
    (see the module)."""
    out: list[Band] = []
    last_exact: list[Band] | None = None
    for n in sorted(rounds):
        exact = _exact_bands(d.lattice, n)
        if exact is not None:
            out += exact
            last_exact = exact
        elif d.variance and last_exact is not None and _normal_holds(d, last_exact):
            out += _normal_bands(d, n)
        else:
            out += [Band(n, level, None, None, "not given") for level in LEVELS]
    return tuple(out)


def volatility_index(d: NetDistribution) -> float:
    """z(90%) times one round's standard deviation: the half-width of the 90% band of the mean
    net per round over N rounds is the index / sqrt(N) under the normal approximation."""
    return NormalDist().inv_cdf((1 + VOLATILITY_LEVEL) / 2) * d.std_dev
