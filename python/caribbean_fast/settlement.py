"""The one settlement function: what each bet spot of one seat's finished round nets.

Every part of the package pays with `settle` (exact fractions, per unit of each spot's stake) or
`settle_money` (integer minor units): the table engine for one round, the exact analysis and the
simulation for each category of their count tables. There is no second copy of the payout rules.

A finished round is an `Outcome`: a category, not a deal. The seat folded or raised (hold'em:
called); its final hand class; whether the dealer qualified; how the seat's hand compared with the
dealer's; how many exchanges it paid for; and the strength of its first five cards (stud: the five
dealt; hold'em: the two hole cards and the flop), on which side bets and the progressive settle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from .errors import ArgumentError, ImpossibleOutcomeError, require_type
from .hands import HandClass
from .variants.model import Variant

__all__ = [
    "Decision",
    "MeterDraw",
    "MoneySettlement",
    "Outcome",
    "ProgressivePay",
    "Settlement",
    "Showdown",
    "Stakes",
    "draw_meter",
    "meter_top_up",
    "settle",
    "settle_money",
]


class Decision(StrEnum):
    FOLD = "fold"
    RAISE = "raise"  # "call" in hold'em and game 4: the same spot


class Showdown(StrEnum):
    """The seat's hand against the dealer's, by strength."""

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"


@dataclass(frozen=True)
class Outcome:
    """One seat's finished round, as a category."""

    decision: Decision
    hand_class: HandClass = HandClass.HIGH_CARD
    dealer_qualifies: bool = True
    showdown: Showdown = Showdown.PUSH
    exchanges: int = 0
    first_five: int | None = None


@dataclass(frozen=True)
class ProgressivePay:
    """What a progressive bet nets: `stakes` times its stake, plus `meter_share` of the meter
    (divided among the seats that win a meter prize in the same round)."""

    stakes: Fraction
    meter_share: Fraction = Fraction(0)


@dataclass(frozen=True)
class Settlement:
    """Net results, exact: the main spots in antes, each side bet per unit of its own stake."""

    ante: Fraction
    raise_: Fraction
    exchange_fees: Fraction = Fraction(0)
    side_bets: Mapping[str, Fraction] = field(default_factory=dict)
    progressive: ProgressivePay | None = None

    @property
    def main(self) -> Fraction:
        """The main game's net in antes: ante, raise and exchange fees."""
        return self.ante + self.raise_ + self.exchange_fees


_LOST, _NOTHING = Fraction(-1), Fraction(0)  # made once: a Fraction costs a microsecond to make


def _check(condition: bool, reason: str) -> None:
    if not condition:
        raise ImpossibleOutcomeError(f"outcome cannot happen: {reason}")


def _check_stakes(condition: bool, reason: str) -> None:
    if not condition:
        raise ArgumentError(f"stakes: {reason}")


def _main_spots(v: Variant, o: Outcome) -> tuple[Fraction, Fraction]:
    """(ante, raise) nets in antes."""
    if o.decision is Decision.FOLD:
        return _LOST, _NOTHING
    if not o.dealer_qualifies:
        return v.ante_pays(o.hand_class, False), v.raise_multiple * v.raise_paytable_no_qualify.get(o.hand_class, 0)
    if o.showdown is Showdown.PUSH:
        return _NOTHING, _NOTHING
    if o.showdown is Showdown.LOSE:
        return _LOST, -v.raise_multiple
    if o.hand_class not in v.raise_paytable:
        _check(False, f"{o.hand_class.label} cannot beat a qualifying dealer in {v.name}")
    return v.ante_pays(o.hand_class, True), v.raise_multiple * v.raise_paytable[o.hand_class]


def _side_bets(v: Variant, o: Outcome, first_five: int) -> dict[str, Fraction]:
    out = {}
    for bet in v.side_bets:
        pays = None if (o.decision is Decision.FOLD and bet.lost_on_fold) else bet.pays(first_five)
        out[bet.name] = _LOST if pays is None else pays
    return out


def _progressive(v: Variant, o: Outcome, first_five: int) -> ProgressivePay | None:
    p = v.progressive
    if p is None:
        return None
    prize = p.prizes.get(v.classify(first_five))
    if prize is None or (o.decision is Decision.FOLD and not p.paid_on_fold):
        return ProgressivePay(_LOST)
    # A prize is paid in place of the stake, which has gone to the meter.
    return ProgressivePay(Fraction(prize.amount, p.stake) - 1, prize.meter_share)


def settle(variant: Variant, outcome: Outcome) -> Settlement:
    """What each spot nets for this outcome under this variant (exact, per unit of stake)."""
    require_type(variant, Variant, "settle takes a Variant (load_variant)")
    require_type(outcome, Outcome, "settle takes an Outcome")
    o, v = outcome, variant
    # The reasons are written only when a check fails: a table settles every round.
    if o.hand_class not in v.classes:
        _check(False, f"{o.hand_class.label} is not a class of {v.name}")
    most = v.exchanges.most_per_round if v.exchanges else 0
    if not 0 <= o.exchanges <= most:
        _check(False, f"{o.exchanges} exchanges where {v.name} allows at most {most}")
    ante, raise_ = _main_spots(v, o)
    fees = -o.exchanges * v.exchanges.fee_antes if v.exchanges else _NOTHING
    if o.first_five is None:
        return Settlement(ante, raise_, fees)
    return Settlement(ante, raise_, fees, _side_bets(v, o, o.first_five), _progressive(v, o, o.first_five))


@dataclass(frozen=True)
class Stakes:
    """What one seat staked, in minor units: the ante, any side bets by name, the progressive."""

    ante: int
    side_bets: Mapping[str, int] = field(default_factory=dict)
    progressive: bool = False


@dataclass(frozen=True)
class MoneySettlement:
    """Net results in minor units; `meter_paid` is what the progressive meter paid out."""

    ante: int
    raise_: int
    exchange_fees: int
    side_bets: Mapping[str, int]
    progressive: int
    meter_paid: int

    @property
    def total(self) -> int:
        """The seat's net over every spot."""
        return self.ante + self.raise_ + self.exchange_fees + sum(self.side_bets.values()) + self.progressive


def _whole(stake: int, ratio: Fraction) -> int:
    """`stake` times `ratio` in whole minor units: fractions of a minor unit are not paid
    (winnings round down, losses are whole already). In integers: a Fraction's product costs
    more than the rest of a seat's settlement."""
    return stake * ratio.numerator // ratio.denominator


def settle_money(
    variant: Variant,
    outcome: Outcome,
    stakes: Stakes,
    meter: int = 0,
    meter_sharers: int = 1,
    exact: Settlement | None = None,
) -> MoneySettlement:
    """`settle` in minor units for these stakes. A meter prize pays its share of `meter`; under the
    variant's equal split it is divided among the `meter_sharers` seats that win it in the same
    round (two royals share the meter). `exact`: `settle(variant, outcome)` where the caller has
    it already (the table shows it too), so that a round settles once."""
    require_type(stakes, Stakes, "settle_money takes Stakes")
    # The reasons are written only when a check fails: a table settles every round.
    if stakes.ante <= 0:
        _check_stakes(False, f"the ante must be positive, not {stakes.ante}")
    if meter < 0 or meter_sharers < 1:
        _check_stakes(False, f"meter {meter} shared by {meter_sharers}")
    rm = variant.raise_multiple
    if stakes.ante * rm.numerator % rm.denominator:
        _check_stakes(False, f"an ante of {stakes.ante} makes a raise of {stakes.ante * rm} minor units")
    unknown = [name for name in stakes.side_bets if name not in variant.side_bet_names]
    if unknown:
        _check_stakes(False, f"{variant.name} has no side bet {', '.join(sorted(unknown))}")
    if stakes.progressive and variant.progressive is None:
        _check_stakes(False, f"{variant.name} has no progressive")
    _check_stakes(
        not (stakes.side_bets or stakes.progressive) or outcome.first_five is not None,
        "side bets need the strength of the first five cards in the outcome",
    )
    s = settle(variant, outcome) if exact is None else exact
    side = {name: _whole(stake, s.side_bets[name]) for name, stake in stakes.side_bets.items()}
    progressive = meter_paid = 0
    if stakes.progressive and variant.progressive and s.progressive:
        meter_paid = variant.progressive.meter_prize(s.progressive.meter_share, meter, meter_sharers)
        progressive = _whole(variant.progressive.stake, s.progressive.stakes) + meter_paid
    return MoneySettlement(
        ante=_whole(stakes.ante, s.ante),
        raise_=_whole(stakes.ante, s.raise_),
        exchange_fees=_whole(stakes.ante, s.exchange_fees),
        side_bets=side,
        progressive=progressive,
        meter_paid=meter_paid,
    )


def meter_top_up(meter: int, reset: int) -> int:
    """What the house puts into a meter below its reset value to restore it."""
    return max(reset - meter, 0)


@dataclass(frozen=True)
class MeterDraw:
    """A round's meter prizes paid from the meter: how much of each the meter covered (the house
    pays the rest), the house's top-up to the reset value, and the meter after the round."""

    from_meter: tuple[int, ...]
    top_up: int
    meter: int


def draw_meter(meter: int, prizes: Sequence[int], reset: int) -> MeterDraw:
    """Pays `prizes` (each already its share of the meter as the round found it, see
    `settle_money`) in order from the meter while it lasts, then tops the meter up to `reset`."""
    left, covered = meter, []
    for prize in prizes:
        covered.append(min(prize, left))
        left -= covered[-1]
    top_up = meter_top_up(left, reset)
    return MeterDraw(tuple(covered), top_up, left + top_up)
