"""A sheet for each side bet and for the progressive, tier by tier: combinations, probability,
pay, contribution, and the bet's return and standard deviation; for the progressive also its
reset and increment, its return against the meter, the break-even meter, the meter a hit finds
and the bets between top awards.

Every pay comes from `settle` on the tier's lowest hand. A bet settled whatever the seat decides
is counted over the first five cards' 2,598,960 hands (stud) or the (two cards, flop) deals
(hold'em); one lost on a fold is counted over the exact enumeration's situations, by the decision
of the sheet's strategy table in each.

The meter a hit finds: each bet adds the contribution, a meter prize of share f takes f of the
meter, and a share of 1 leaves the reset. Hits do not depend on the meter, so a hit finds the
meter's long-run mean m (after the bet's contribution c): in the long run a bet leaves the meter
where it found it, m = m (1 - sum q f) + q_whole * reset + c, so m = (c + q_whole * reset) /
sum q f (q: each meter prize's chance a bet, f its share, q_whole the chance of a share of 1). The
model takes the bets one at a time (a meter shared by many seats sees its bets in a sequence), and
leaves out the house's top-up after a lesser meter prize (a meter above reset / (1 - f) needs
none) and the rounding of prizes to whole minor units.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from .. import _core
from ..hands import HandClass
from ..settlement import Decision, Outcome, settle
from ..variants import Family, HandThreshold, Variant
from ..words.rules import pays as pays_words
from ..words.rules import threshold_label
from .categories import classify_many, first_five_outcome
from .distribution import NetDistribution
from .parsheet import ParSheet
from .situations import holdem_situations, stud_situations

__all__ = ["ProgressiveSheet", "TierRow", "WagerSheet", "progressive_sheet", "side_bet_sheets"]


@dataclass(frozen=True)
class TierRow:
    """One way a bet ends: its hands, how it is paid, and how often (`net`: per unit staked;
    for a meter prize, at the sheet's stated meter)."""

    label: str
    pays: str
    combinations: int
    probability: Fraction
    net: Fraction

    @property
    def contribution(self) -> Fraction:
        return self.probability * self.net


@dataclass(frozen=True)
class WagerSheet:
    """A side bet's tiers and figures, per unit staked, counted over `total` combinations."""

    name: str
    counted_over: str
    total: int
    rows: tuple[TierRow, ...]

    @property
    def distribution(self) -> NetDistribution:
        return NetDistribution.of(((r.net, r.combinations) for r in self.rows), "stake")

    @property
    def expected_return(self) -> Fraction:
        return self.distribution.mean

    @property
    def rtp(self) -> Fraction:
        return 1 + self.expected_return

    @property
    def std_dev(self) -> float:
        return self.distribution.std_dev


@dataclass(frozen=True)
class ProgressiveSheet(WagerSheet):
    """The progressive's tiers at a meter of `meter` (minor units), and what the meter does."""

    meter: int = 0
    stake: int = 1
    reset: int = 0
    contribution_per_stake: int = 0
    fixed: Fraction = Fraction(0)  # the expected net per stake from the fixed prizes, stake lost
    per_meter: Fraction = Fraction(0)  # per stake, per minor unit of meter
    top_award_chance: Fraction = Fraction(0)  # a bet's chance of the largest meter share
    mean_meter: Fraction | None = None  # the meter a hit finds (see the module); None: no meter prize

    def return_at(self, meter: int | Fraction) -> Fraction:
        """The return to player per stake at a meter (minor units)."""
        return 1 + self.fixed + self.per_meter * meter

    @property
    def break_even_meter(self) -> int | None:
        if self.per_meter <= 0:
            return None
        return _ceil(-self.fixed / self.per_meter)

    @property
    def bets_between_top_awards(self) -> Fraction | None:
        return 1 / self.top_award_chance if self.top_award_chance else None


def _ceil(x: Fraction) -> int:
    return -((-x.numerator) // x.denominator)


def _tier_of(strength: npt.NDArray[np.uint16], cuts: list[int]) -> npt.NDArray[np.intp]:
    return np.searchsorted(cuts, strength, side="right") - 1


def _decided(sheet: ParSheet) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The strength a bet settles on, the weight and the decision of every situation."""
    q = sheet.variant.qualifier.strength
    s = stud_situations(q) if sheet.variant.family is Family.STUD else holdem_situations(q)
    return s.strength, s.weight, np.asarray(sheet.table.raises)


def _five_card_hands() -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.int64]]:
    """Every five-card strength and how many of the 2,598,960 hands have it."""
    histogram = _core.strength_histogram_all(5)
    at = np.flatnonzero(histogram)
    return at.astype(np.uint16), histogram[at].astype(np.int64)


def _by_tier(
    strength: npt.NDArray[np.uint16], weight: npt.NDArray[np.int64], decided: npt.NDArray[np.bool_], cuts: list[int]
) -> tuple[npt.NDArray[np.int64], int]:
    """Weights by (tier, decided), and their total."""
    tier = _tier_of(strength, cuts)
    ways = np.bincount(tier * 2 + decided, weights=weight, minlength=2 * len(cuts)).reshape(-1, 2)
    counts = np.rint(ways).astype(np.int64)  # exact: every sum below 2^53
    return counts, int(weight.sum())


def side_bet_sheets(sheet: ParSheet) -> tuple[WagerSheet, ...]:
    """Each side bet's tiers, the seat playing the sheet's strategy (a tier hand folded is lost
    where the bet says so)."""
    v, out = sheet.variant, []
    for bet in v.side_bets:
        cuts = sorted({t.strength for t, _ in bet.tiers} | {1})
        if bet.lost_on_fold:
            strength, weight, decided = _decided(sheet)
            over = "the enumeration's deals, by the strategy's decisions"
        else:
            strength, weight = _five_card_hands() if v.family is Family.STUD else _decided(sheet)[:2]
            decided = np.ones(len(strength), dtype=bool)
            over = "every first five" if v.family is Family.STUD else "every two cards and flop"
        counts, total = _by_tier(strength, weight, decided, cuts)
        rows = []
        for k in range(len(cuts) - 1, -1, -1):
            for called in (True, False):
                n = int(counts[k, int(called)]) + (int(counts[k, 1]) if k == 0 and not called else 0)
                if not n or (k == 0 and called):  # no tier: lost whatever the seat decides, one row
                    continue
                decision = Decision.RAISE if called else Decision.FOLD
                net = settle(v, Outcome(decision, first_five=cuts[k])).side_bets[bet.name]
                label = _tier_label(bet.tiers, cuts[k]) + ("" if called or k == 0 else ", folded")
                rows.append(TierRow(label, pays_words(net) if net > 0 else "lost", n, Fraction(n, total), net))
        out.append(WagerSheet(bet.title, over, total, tuple(rows)))
    return tuple(out)


def _tier_label(tiers: tuple[tuple[HandThreshold, Fraction], ...], cut: int) -> str:
    """The tier whose lowest hand is `cut`, bounded by the next one up (tiers: highest first)."""
    above = None
    for threshold, _ in reversed(tiers):
        if above is not None and threshold.strength > cut:
            break
        if threshold.strength == cut:
            above = threshold
    for threshold, _ in reversed(tiers):
        if threshold.strength > cut:
            return (
                f"{threshold_label(above)}, below {threshold_label(threshold).lower()}" if above else "no winning hand"
            )
    return f"{threshold_label(above)} or better" if above else "no winning hand"


def progressive_sheet(sheet: ParSheet, meter: int | None = None) -> ProgressiveSheet | None:
    """The progressive's tiers at `meter` (minor units; default its reset), and the meter's figures."""
    v = sheet.variant
    p = v.progressive
    if p is None:
        return None
    meter = p.reset if meter is None else meter
    classes = list(v.classes)
    cuts = [v.floor(c) for c in classes]
    if p.paid_on_fold:
        strength, weight = _five_card_hands()
        decided = np.ones(len(strength), dtype=bool)
        over = "every first five"
    else:
        strength, weight, decided = _decided(sheet)
        over = "the enumeration's deals, by the strategy's decisions"
    tier = classify_many(v, strength)
    index = np.searchsorted(np.array([int(c) for c in classes]), tier)
    counts, total = _by_tier(index.astype(np.uint16) + 1, weight, decided, list(range(1, len(cuts) + 1)))
    rows, fixed, per_meter, chances, top, whole = [], Fraction(0), Fraction(0), Fraction(0), Fraction(0), Fraction(0)
    most = max((prize.meter_share for prize in p.prizes.values()), default=Fraction(0))
    for i in range(len(classes) - 1, -1, -1):
        c = classes[i]
        for raised in (True, False):
            n = int(counts[i, int(raised)])
            if not n:
                continue
            pay = settle(v, first_five_outcome(v, c, Decision.RAISE if raised else Decision.FOLD)).progressive
            assert pay is not None
            chance = Fraction(n, total)
            fixed += chance * pay.stakes
            per_meter += chance * pay.meter_share / p.stake
            chances += chance * pay.meter_share
            if pay.meter_share and pay.meter_share == most:
                top += chance
            if pay.meter_share == 1:
                whole += chance
            net = pay.stakes + Fraction(p.meter_prize(pay.meter_share, meter, 1), p.stake)
            words = _prize_words(v, pay.stakes, pay.meter_share, net)
            rows.append(TierRow(_class_label(c, raised, p.paid_on_fold), words, n, chance, net))
    rows = _merge_losses(rows)
    mean = (p.contribution + whole * p.reset) / chances if chances else None
    return ProgressiveSheet(
        "progressive", over, total, tuple(rows), meter, p.stake, p.reset, p.contribution, fixed, per_meter, top, mean
    )


def _class_label(c: HandClass, raised: bool, paid_on_fold: bool) -> str:
    return c.label if paid_on_fold or raised else f"{c.label}, folded"


def _prize_words(v: Variant, stakes: Fraction, share: Fraction, net: Fraction) -> str:
    if share:
        return f"{float(share):.0%} of the meter"
    if net < 0:
        return "lost"
    assert v.progressive is not None
    return v.currency.format(int((stakes + 1) * v.progressive.stake))


def _merge_losses(rows: list[TierRow]) -> list[TierRow]:
    """The rows that lose the stake, as one row."""
    kept = [r for r in rows if r.pays != "lost"]
    lost = [r for r in rows if r.pays == "lost"]
    if lost:
        n = sum(r.combinations for r in lost)
        kept.append(TierRow("no prize", "lost", n, sum((r.probability for r in lost), Fraction(0)), Fraction(-1)))
    return kept
