"""Actual against theoretical: what a variant's paytable should keep of what was wagered under the
best strategy, and how far luck alone carries the actual from it (pure math: no server).

Each wager is held apart, per unit of its own stake (`WagerMath`): the main game per ante (its
raise and exchange fees ride on the ante: the par sheet's figures are per ante), each side bet
per unit staked, the progressive per stake at the meter the bet found. A stream of bets is summed
as `Moments` (what the server's commits keep): the theoretical win is the mean per unit times the
units staked, its variance the variance per unit times the sum of the squared stakes, so a table
whose players bet 10 and 1000 gets the band its stakes give, not an average one.

The theoretical is the house's expected win under the best strategy; it is not the least the
house keeps where:

- the progressive's meter stands above its break-even meter (the bet then favours the player:
  its theoretical is negative, and counted so);
- game 4's exchanges are valued under the par sheet's approximation (discarded cards taken as
  back in the deck): the exact return of its strategy differs by the approximation's error;
- a player plays worse than the best strategy: the house keeps more (the band's players' side is
  still the one that matters);
- side bets are independent wagers: each has its own theoretical, summed with the main game's.

The band is the normal one (99% and 99.9%, two-sided, from `statistics.NormalDist`): it is close
once the stakes are many; with few rounds a rare large prize lands outside it on the players'
side (see `bernstein_p`, which holds whatever the count).
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from ..settlement import Decision, settle
from ..variants import Variant
from . import analyze
from .categories import classify_many, first_five_outcome
from .parsheet import ParSheet
from .wagers import _by_tier, _decided, _five_card_hands, side_bet_sheets

__all__ = [
    "LEVELS",
    "MAIN",
    "PROGRESSIVE",
    "Band",
    "Moments",
    "Theoretical",
    "WagerMath",
    "bernstein_p",
    "holm",
    "rounds_to_detect",
    "theoretical",
    "theoretical_apart",
    "z_of",
]

MAIN, PROGRESSIVE = "main", "progressive"
"""The spots a table's figures are kept by: the main game, `side:<name>` for each side bet, and
the progressive."""
LEVELS = (0.99, 0.999)
"""The bands' levels, two-sided."""


def z_of(level: float) -> float:
    """The normal quantile of a two-sided band at `level` (2.576 at 99%)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


@dataclass(frozen=True)
class WagerMath:
    """One wager's house win per unit staked, X, as a function of the meter m (minor units; 0
    but for the progressive): E[X] = mean + per_meter m, E[X^2] = square[0] + square[1] m +
    square[2] m^2. `most` is the most the player can net per unit (a bound for `bernstein_p`;
    None where a meter makes it unbounded)."""

    spot: str
    mean: Fraction
    per_meter: Fraction = Fraction(0)
    square: tuple[Fraction, Fraction, Fraction] = (Fraction(0), Fraction(0), Fraction(0))
    most: Fraction | None = None


@dataclass
class Moments:
    """What a stream of bets of one spot sums to: how many, the amount wagered (every bet: ante,
    raise, exchange fees, stake), the house's win (minor units, exact), and the sums of the units
    u (ante or stake), u^2, u m, u^2 m, u^2 m^2 (m: the meter the bet found)."""

    hands: int = 0
    wagered: int = 0
    win: int = 0
    units: int = 0
    units2: int = 0
    meter1: float = 0.0
    meter2: float = 0.0
    meter3: float = 0.0

    def add(self, wagered: int, win: int, unit: int, meter: int = 0) -> None:
        self.hands += 1
        self.wagered += wagered
        self.win += win
        self.units += unit
        self.units2 += unit * unit
        self.meter1 += unit * meter
        self.meter2 += unit * unit * meter
        self.meter3 += float(unit * unit) * meter * meter

    def __iadd__(self, other: Moments) -> Moments:
        for name in Moments.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    @property
    def hold(self) -> float | None:
        return self.win / self.wagered if self.wagered else None


@dataclass(frozen=True)
class Band:
    """The theoretical win of a stream of bets and its standard deviation (minor units), held
    against the actual on the amount wagered."""

    wagered: int
    win: int
    theoretical: float
    sd: float

    @property
    def hold(self) -> float | None:
        return self.win / self.wagered if self.wagered else None

    @property
    def theoretical_hold(self) -> float | None:
        return self.theoretical / self.wagered if self.wagered else None

    def limits(self, level: float) -> tuple[float, float]:
        """The hold's band at `level`: (low, high)."""
        if not self.wagered:
            return (math.nan, math.nan)
        half = z_of(level) * self.sd / self.wagered
        return (self.theoretical / self.wagered - half, self.theoretical / self.wagered + half)

    @property
    def z(self) -> float:
        """The actual win's distance from the theoretical in standard deviations (negative: the
        players' side)."""
        return (self.win - self.theoretical) / self.sd if self.sd else 0.0

    def outside(self, level: float) -> bool:
        """Below the band at `level`: the players won more than luck explains at that level."""
        return self.sd > 0 and self.z < -z_of(level)

    def __add__(self, other: Band) -> Band:
        sd = math.hypot(self.sd, other.sd)  # independent wagers: variances add
        return Band(self.wagered + other.wagered, self.win + other.win, self.theoretical + other.theoretical, sd)


@dataclass(frozen=True)
class Theoretical:
    """A variant's wagers' math under the best strategy, and what it says of itself."""

    variant: Variant
    wagers: dict[str, WagerMath]
    break_even_meter: int | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    def band(self, spot: str, m: Moments) -> Band:
        """The band of a spot's bets (a spot the variant has not: KeyError naming it)."""
        w = self.wagers.get(spot)
        if w is None:
            raise KeyError(f"{self.variant.name} has no wager {spot!r}: it has {', '.join(self.wagers)}")
        theo = float(w.mean) * m.units + float(w.per_meter) * m.meter1
        s0, s1, s2 = (float(s) for s in w.square)
        mean, slope = float(w.mean), float(w.per_meter)
        var = (s0 - mean * mean) * m.units2 + (s1 - 2 * mean * slope) * m.meter2 + (s2 - slope * slope) * m.meter3
        return Band(m.wagered, m.win, theo, math.sqrt(max(var, 0.0)))

    def total(self, spots: dict[str, Moments]) -> Band:
        """The band of every spot together (independent wagers)."""
        found = Band(0, 0, 0.0, 0.0)
        for spot, m in spots.items():
            found = found + self.band(spot, m)
        return found


def _main(sheet: ParSheet) -> WagerMath:
    mean, var = -sheet.expected_return, sheet.variance
    most = max(e.net for e in sheet.events)
    return WagerMath(MAIN, mean, square=(var + mean * mean, Fraction(0), Fraction(0)), most=most)


def _sides(sheet: ParSheet) -> list[WagerMath]:
    found = []
    for bet, ws in zip(sheet.variant.side_bets, side_bet_sheets(sheet), strict=True):
        d, zero = ws.distribution, Fraction(0)
        square = (d.variance + d.mean**2, zero, zero)
        found.append(WagerMath(f"side:{bet.name}", -d.mean, square=square, most=d.largest_win))
    return found


def progressive_tiers(sheet: ParSheet) -> list[tuple[Fraction, Fraction, Fraction]]:
    """The progressive's tiers as (probability, net in stakes, meter share), counted as the
    par sheet's `wagers.progressive_sheet` counts them (every first five, or the enumeration's
    deals by the strategy where a fold loses it)."""
    v, p = sheet.variant, sheet.variant.progressive
    if p is None:
        return []
    classes = list(v.classes)
    if p.paid_on_fold:
        strength, weight = _five_card_hands()
        decided = np.ones(len(strength), dtype=bool)
    else:
        strength, weight, decided = _decided(sheet)
    index = np.searchsorted(np.array([int(c) for c in classes]), classify_many(v, strength))
    counts, total = _by_tier(index.astype(np.uint16) + 1, weight, decided, list(range(1, len(classes) + 1)))
    tiers = []
    for i, c in enumerate(classes):
        for raised in (True, False):
            n = int(counts[i, int(raised)])
            if n:
                pay = settle(v, first_five_outcome(v, c, Decision.RAISE if raised else Decision.FOLD)).progressive
                assert pay is not None
                tiers.append((Fraction(n, total), pay.stakes, pay.meter_share))
    return tiers


def _progressive(sheet: ParSheet) -> WagerMath | None:
    """The house's win per stake X = -(stakes + share m / stake) over the tiers (a meter prize
    shared by two seats in one round, and its rounding to minor units, left out)."""
    p = sheet.variant.progressive
    if p is None:
        return None
    tiers = progressive_tiers(sheet)
    mean = -sum((q * a for q, a, _ in tiers), Fraction(0))
    per_meter = -sum((q * f / p.stake for q, _, f in tiers), Fraction(0))
    s0 = sum((q * a * a for q, a, _ in tiers), Fraction(0))
    s1 = sum((2 * q * a * f / p.stake for q, a, f in tiers), Fraction(0))
    s2 = sum((q * f * f / p.stake**2 for q, _, f in tiers), Fraction(0))
    return WagerMath(PROGRESSIVE, mean, per_meter, (s0, s1, s2))


_KEPT: dict[Variant, Theoretical] = {}


def theoretical(variant: Variant) -> Theoretical:
    """The variant's wagers' math under the best strategy (kept by variant: the analysis runs once
    a process)."""
    found = _KEPT.get(variant)
    if found is None:
        sheet = analyze(variant)
        wagers = [_main(sheet), *_sides(sheet)]
        progressive = _progressive(sheet)
        notes = list(sheet.notes)
        breaks = None
        if progressive is not None:
            wagers.append(progressive)
            breaks = sheet.progressive.break_even_meter if sheet.progressive else None
            notes.append(
                f"The progressive's theoretical is taken at the meter each bet found; above {breaks} minor units "
                "(its break-even meter) it favours the player and its theoretical is negative."
            )
        if variant.side_bets:
            notes.append("Side bets are independent wagers: each has its own theoretical, summed with the main game's.")
        found = _KEPT[variant] = Theoretical(variant, {w.spot: w for w in wagers}, breaks, tuple(notes))
    return found


APART_SECONDS = 1800
"""How long `theoretical_apart` waits for its process: a hung one raises TimeoutError to the
caller (the office's alarms log it and try again at their next pass) instead of holding it for good."""


def theoretical_apart(variants: Iterable[Variant]) -> None:
    """Each variant's `theoretical` not kept yet, worked out in a process of its own and kept
    here: the analysis holds hundreds of MB of arrays (the situations, the counted tables), which
    a serving process would otherwise keep for its life (its caches) or not give back to the
    system (the allocator's heap); what comes back is a few KB a variant. Started by spawning,
    not forking: the caller may have threads (a server's database thread)."""
    missing = [v for v in dict.fromkeys(variants) if v not in _KEPT]
    if not missing:
        return
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as apart:
        for found in apart.submit(_theoreticals, missing).result(timeout=APART_SECONDS):
            _KEPT[found.variant] = found


def _theoreticals(variants: list[Variant]) -> list[Theoretical]:
    """`theoretical_apart`'s work, in its own process."""
    return [theoretical(v) for v in variants]


def rounds_to_detect(shift: float, variance: float, level: float = LEVELS[1], power: float = 0.99) -> int:
    """The bets of one unit after which a house win per unit lower by `shift` than the theoretical
    falls below the band at `level` with chance `power`: n shift = (z_band + z_power) sd sqrt(n)
    (`variance`: per unit, the larger of the honest and the changed paytable's)."""
    if shift <= 0:
        raise ValueError(f"shift: the players' gain per unit must be above 0, not {shift}")
    z = z_of(level) + NormalDist().inv_cdf(power)
    return math.ceil(z * z * variance / shift**2)


def bernstein_p(excess: float, variance: float, most: float) -> float:
    """An upper bound on the chance that independent bets, each of whose gain over its mean is at
    most `most`, with total variance `variance`, gain `excess` or more over their mean
    (Bernstein's inequality): it holds whatever their count and however heavy their tails,
    so a p-value from it keeps its promise under `holm`."""
    if excess <= 0:
        return 1.0
    return min(1.0, math.exp(-(excess * excess) / (2 * (variance + most * excess / 3))))


def holm(p_values: Iterable[tuple[str, float]], alpha: float) -> set[str]:
    """Holm's step-down rule: the names whose p-value is rejected at family-wise error `alpha`
    (the chance of even one false alarm among them all is at most `alpha`, whatever their
    dependence)."""
    ordered = sorted(p_values, key=lambda kp: kp[1])
    found: set[str] = set()
    for k, (name, p) in enumerate(ordered):
        if p > alpha / (len(ordered) - k):
            break
        found.add(name)
    return found
