"""The variant model: every rule the five games use, validated and immutable.

A Variant is plain data. Its rules are read in one place each: `classify` (which hand class a
strength is, for this variant), `BetLimits.adjust` (a bet outside the limits), and the paytables,
which `settlement.settle` reads to pay. Construction checks every field and raises VariantError
naming the field and the reason; `Variant.replace` derives a changed, re-validated copy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any

from .. import _core
from ..errors import VariantError
from ..hands import HandClass
from .thresholds import HandThreshold

__all__ = [
    "BetLimits",
    "Currency",
    "Exchanges",
    "Family",
    "MeterSplit",
    "Paytable",
    "Prize",
    "Progressive",
    "SideBet",
    "Timing",
    "Unfinished",
    "Variant",
]


class Family(StrEnum):
    """Caribbean Stud (five cards each, one decision) or Casino Hold'em (two hole cards, a board)."""

    STUD = "stud"
    HOLDEM = "holdem"


def _check(condition: bool, where: str, reason: str) -> None:
    if not condition:
        raise VariantError(f"{where}: {reason}")


Paytable = Mapping[HandClass, Fraction]
"""What a bet pays "N to 1" for each hand class; a class absent from the table pushes."""

PAYTABLES = ("ante_paytable", "raise_paytable", "raise_paytable_no_qualify", "ante_paytable_no_qualify")


def _frozen_paytable(table: Mapping[HandClass, Fraction | int], where: str) -> Paytable:
    out: dict[HandClass, Fraction] = {}
    for hand_class, pays in table.items():
        _check(isinstance(hand_class, HandClass), where, f"{hand_class!r} is not a hand class")
        _check(
            isinstance(pays, int | Fraction) and not isinstance(pays, bool),
            f"{where}.{hand_class.name.lower()}",
            f"a payout must be a number, not {pays!r}",
        )
        _check(pays >= 0, f"{where}.{hand_class.name.lower()}", f"a payout cannot be negative ({pays})")
        out[hand_class] = Fraction(pays)
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class Currency:
    """The table's currency: amounts are integers of its minor unit (cents)."""

    code: str = "USD"
    minor_per_major: int = 100

    def __post_init__(self) -> None:
        _check(
            len(self.code) == 3 and self.code.isalpha(),
            "currency.code",
            f"{self.code!r} is not a 3-letter code",
        )
        _check(
            self.minor_per_major in (1, 10, 100, 1000),
            "currency.minor_per_major",
            f"must be 1, 10, 100 or 1000, not {self.minor_per_major}",
        )

    def format(self, minor: int) -> str:
        """An amount in minor units as text, e.g. 1050 -> "10.50 USD"."""
        digits = len(str(self.minor_per_major)) - 1
        sign, minor = ("-" if minor < 0 else ""), abs(minor)
        major, cents = divmod(minor, self.minor_per_major)
        return f"{sign}{major}.{cents:0{digits}d} {self.code}" if digits else f"{sign}{major} {self.code}"


class OutOfRange(StrEnum):
    """What happens to a bet outside the limits."""

    REJECT = "reject"
    ADJUST = "adjust"


@dataclass(frozen=True)
class BetLimits:
    """Ante limits of one table, in minor units; `balance_fraction` caps the ante at that part of
    the balance (game 1: a third, so that the raise is always covered)."""

    minimum: int
    maximum: int
    balance_fraction: Fraction | None = None
    below_minimum: OutOfRange = OutOfRange.REJECT
    above_maximum: OutOfRange = OutOfRange.REJECT

    def __post_init__(self) -> None:
        _check(self.minimum > 0, "limits.minimum", f"must be positive, not {self.minimum}")
        _check(self.minimum <= self.maximum, "limits", f"minimum {self.minimum} is above maximum {self.maximum}")
        if self.balance_fraction is not None:
            _check(
                0 < self.balance_fraction <= 1,
                "limits.balance_fraction",
                f"must be in (0, 1], not {self.balance_fraction}",
            )

    def adjust(self, amount: int, balance: int | None = None) -> int | None:
        """The ante a request becomes under these limits, or None where the rules refuse it."""
        top = self.maximum
        if balance is not None and self.balance_fraction is not None:
            top = min(top, int(balance * self.balance_fraction))
        if amount < self.minimum:
            if self.below_minimum is OutOfRange.REJECT:
                return None
            amount = self.minimum
        if amount > top:
            if self.above_maximum is OutOfRange.REJECT:
                return None
            amount = top
        return amount if amount >= self.minimum else None  # the balance cannot cover the minimum


@dataclass(frozen=True)
class Prize:
    """A progressive prize: a fixed amount (minor units) or a share of the meter, paid in place
    of returning the stake (the stake feeds the meter)."""

    amount: int = 0
    meter_share: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        _check(self.amount >= 0, "progressive.prizes", f"an amount cannot be negative ({self.amount})")
        _check(
            0 <= self.meter_share <= 1,
            "progressive.prizes",
            f"a meter share must be 0% to 100%, not {float(self.meter_share) * 100:g}%",
        )
        _check(
            (self.amount > 0) != (self.meter_share > 0),
            "progressive.prizes",
            "a prize is either an amount or a share of the meter",
        )


class MeterSplit(StrEnum):
    """How seats that win meter prizes in the same round are paid."""

    EQUAL = "equal"  # they share each prize's amount equally (two royals: half the meter each)
    EACH = "each"  # each is paid its full share of the meter as it stood at the deal


@dataclass(frozen=True)
class Progressive:
    """The progressive (jackpot) side bet, settled on the seat's first five cards."""

    stake: int
    prizes: Mapping[HandClass, Prize]
    contribution: int
    reset: int
    paid_on_fold: bool = True
    stays_ticked: bool = False
    split: MeterSplit = MeterSplit.EQUAL

    def __post_init__(self) -> None:
        _check(self.stake > 0, "progressive.stake", f"must be positive, not {self.stake}")
        _check(
            0 <= self.contribution <= self.stake,
            "progressive.contribution",
            f"must be 0 to the stake ({self.stake}), not {self.contribution}",
        )
        _check(self.reset >= 0, "progressive.reset", f"cannot be negative ({self.reset})")
        _check(bool(self.prizes), "progressive.prizes", "at least one prize is needed")
        object.__setattr__(self, "prizes", dict(sorted(self.prizes.items())))


@dataclass(frozen=True)
class SideBet:
    """A side bet paid by tiers of "this hand or better" on the seat's first five cards (hold'em:
    the two hole cards and the flop); the highest tier reached pays, "N to 1"."""

    name: str
    tiers: tuple[tuple[HandThreshold, Fraction], ...]
    minimum: int
    maximum: int
    lost_on_fold: bool = True

    def __post_init__(self) -> None:
        where = f"side_bets.{self.name}"
        _check(bool(self.name) and self.name.replace("-", "").isalnum(), "side_bets", f"bad name {self.name!r}")
        _check(bool(self.tiers), where, "at least one tier is needed")
        _check(all(p > 0 for _, p in self.tiers), f"{where}.tiers", "every tier must pay more than 0")
        _check(
            0 < self.minimum <= self.maximum,
            where,
            f"minimum {self.minimum} / maximum {self.maximum} invalid",
        )
        object.__setattr__(self, "tiers", tuple(sorted(self.tiers, key=lambda t: -t[0].strength)))

    def pays(self, strength: int) -> Fraction | None:
        """What the bet pays for a first-five hand of this strength, or None when it loses."""
        return next((p for threshold, p in self.tiers if threshold.admits(strength)), None)


@dataclass(frozen=True)
class Exchanges:
    """Game 4's card exchange: each costs `fee_antes` antes, not returned."""

    fee_antes: Fraction = Fraction(1)
    most_per_round: int = 3
    most_cards: int = 5
    must_cover_call: bool = True

    def __post_init__(self) -> None:
        _check(self.fee_antes >= 0, "exchanges.fee_antes", f"cannot be negative ({self.fee_antes})")
        _check(
            1 <= self.most_per_round <= 10,
            "exchanges.most_per_round",
            f"must be 1 to 10, not {self.most_per_round}",
        )
        _check(1 <= self.most_cards <= 5, "exchanges.most_cards", f"must be 1 to 5, not {self.most_cards}")


class Unfinished(StrEnum):
    """What becomes of a dealt round that a fault, a crash or an idle session broke off."""

    COMPLETE = "complete"  # undecided seats take the automatic decision, then the showdown
    VOID = "void"  # the round is void and every bet of it refunded (game 5)


@dataclass(frozen=True)
class Timing:
    """Time limits in seconds (None: no limit), the automatic decision of a seat that times out
    or disconnects after the deal (raise with `auto_raise` or better, else fold), and what becomes
    of a dealt round that is broken off."""

    bet_seconds: float | None = None
    decision_seconds: float | None = None
    idle_seconds: float | None = None
    auto_raise: HandThreshold | None = None
    unfinished: Unfinished = Unfinished.COMPLETE

    def __post_init__(self) -> None:
        for name in ("bet_seconds", "decision_seconds", "idle_seconds"):
            value = getattr(self, name)
            _check(value is None or value > 0, f"timing.{name}", f"must be positive, not {value}")


@dataclass(frozen=True)
class Variant:
    """One game's complete rules. Amounts are in the currency's minor units."""

    name: str
    title: str
    family: Family
    raise_multiple: Fraction
    qualifier: HandThreshold
    ante_paytable: Paytable
    raise_paytable: Paytable
    raise_paytable_no_qualify: Paytable = field(default_factory=dict)
    ante_paytable_no_qualify: Paytable = field(default_factory=dict)  # empty: as `ante_paytable`
    ace_king: bool = False
    limits: tuple[BetLimits, ...] = ()
    progressive: Progressive | None = None
    side_bets: tuple[SideBet, ...] = ()
    exchanges: Exchanges | None = None
    seats: int = 1
    timing: Timing = field(default_factory=Timing)
    currency: Currency = field(default_factory=Currency)
    source: str = ""
    notes: str = ""

    def __post_init__(self) -> None:
        _check(
            bool(self.name) and self.name.replace("-", "").replace("_", "").isalnum(),
            "name",
            f"{self.name!r} is not a name (letters, digits, hyphens)",
        )
        _check(self.raise_multiple > 0, "raise_multiple", f"must be more than 0, not {self.raise_multiple}")
        _check(1 <= self.seats <= 7, "seats", f"must be 1 to 7, not {self.seats}")
        _check(bool(self.limits), "limits", "at least one table of limits is needed")
        _check(
            self.exchanges is None or self.family is Family.STUD,
            "exchanges",
            "only stud games exchange cards",
        )
        names = [b.name for b in self.side_bets]
        _check(len(names) == len(set(names)), "side_bets", f"names repeat: {names}")
        for name in PAYTABLES:
            object.__setattr__(self, name, _frozen_paytable(getattr(self, name), name))
        self._check_paytables()

    @property
    def raise_word(self) -> str:
        """What the game calls its second bet: "call" in Casino Hold'em, "raise" in stud."""
        return "call" if self.family is Family.HOLDEM else "raise"

    @property
    def classes(self) -> tuple[HandClass, ...]:
        """The hand classes of this variant, lowest first (Ace-King only where it is named)."""
        return tuple(c for c in HandClass if self.ace_king or c is not HandClass.ACE_KING)

    def classify(self, strength: int) -> HandClass:
        """The class of a hand's strength under this variant's classes."""
        hand_class = _class_of(strength)
        if self.ace_king and hand_class is HandClass.HIGH_CARD and strength >= _ace_king_floor():
            return HandClass.ACE_KING
        return hand_class

    def _check_paytables(self) -> None:
        in_use = set(self.classes)
        for name in PAYTABLES:
            extra = sorted(set(getattr(self, name)) - in_use)
            _check(
                not extra,
                f"{name}.{extra[0].name.lower() if extra else ''}",
                "Ace-King is not a class of this variant (set ace_king = true)",
            )
        for name in ("ante_paytable", "ante_paytable_no_qualify"):
            table = getattr(self, name)
            missing = [c for c in self.classes if c not in table] if table or name == "ante_paytable" else []
            _check(not missing, name, f"no payout for {', '.join(c.name.lower() for c in missing)}")
        # A raise can win against a qualifying dealer only with the qualifier's class or better.
        lowest = self.classify(self.qualifier.strength)
        missing = [c for c in self.classes if c >= lowest and c not in self.raise_paytable]
        _check(not missing, "raise_paytable", f"no payout for {', '.join(c.name.lower() for c in missing)}")
        if self.progressive:
            extra = sorted(set(self.progressive.prizes) - in_use)
            _check(
                not extra,
                "progressive.prizes",
                f"{extra[0].name.lower() if extra else ''} is not a class here",
            )

    def ante_pays(self, hand_class: HandClass, dealer_qualifies: bool) -> Fraction:
        """What the ante pays "N to 1" when the seat is not beaten: by the no-qualify table where
        the variant has one and the dealer did not qualify, else by the ante paytable."""
        table = (
            self.ante_paytable
            if dealer_qualifies or not self.ante_paytable_no_qualify
            else (self.ante_paytable_no_qualify)
        )
        return table[hand_class]

    def replace(self, **changes: Any) -> Variant:
        """A copy with some fields changed, validated like any other variant."""
        try:
            return dataclasses.replace(self, **changes)
        except TypeError as err:
            raise VariantError(f"replace: {err}") from None

    def side_bet(self, name: str) -> SideBet:
        """The side bet of this name."""
        for bet in self.side_bets:
            if bet.name == name:
                return bet
        raise VariantError(f"side_bets: {self.name} has no side bet {name!r}")


def _class_of(strength: int) -> HandClass:
    return HandClass(_core.class_of(strength))


@cache
def _ace_king_floor() -> int:
    return HandThreshold("ace-king").strength
