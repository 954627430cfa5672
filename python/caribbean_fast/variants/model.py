"""The variant model: every rule the five games use, validated and immutable.

A Variant is plain data. Its rules are read in one place each: `classify` (which hand class a
strength is, for this variant), `BetLimits.adjust` (a bet outside the limits), and the paytables,
which `settlement.settle` reads to pay. Construction checks every field and raises VariantError
naming the field and the reason; `Variant.replace` derives a changed, re-validated copy.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

from immutabledict import immutabledict

from ..errors import ArgumentError, VariantError
from ..hands import HandClass, class_floor, class_of
from .shape import CALL, HOLDEM_LAYOUT, RAISE, STUD_LAYOUT, BetWords, Layout, bet_title
from .thresholds import HandThreshold

__all__ = [
    "MAX_AMOUNT",
    "MAX_DENOMINATOR",
    "MAX_PAYOUT",
    "MAX_RAISE_MULTIPLE",
    "MAX_SECONDS",
    "BetLimits",
    "Currency",
    "ExchangeCards",
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


MAX_AMOUNT = 10**10
"""The most minor units any limit, stake, prize, meter reset (and a table's deposit) may be. With
payouts of at most MAX_PAYOUT to 1 on raises of at most MAX_RAISE_MULTIPLE antes, a round's win
stays below 10**18, inside the 64-bit integers of numpy counts and the server's wallets."""
MAX_PAYOUT = 10**6
"""The most a paytable or side-bet tier may pay, "N to 1"."""
MAX_RAISE_MULTIPLE = 100
"""The most antes a raise (call) or an exchange fee may be."""
MAX_DENOMINATOR = 10**6
"""The largest denominator of a fraction in a variant (a payout of 1/3 is fine; 1e-300 is not)."""
MAX_SECONDS = 10**7
"""The longest time limit, in seconds (about 116 days): finite, so clocks can add it."""


def _amount(value: object, where: str, least: int = 0) -> int:
    """A whole number of minor units from `least` to MAX_AMOUNT."""
    _check(isinstance(value, int) and not isinstance(value, bool), where, f"must be whole minor units, not {value!r}")
    assert isinstance(value, int)
    _check(least <= value <= MAX_AMOUNT, where, f"must be {least} to {MAX_AMOUNT:,} minor units, not {value:,}")
    return value


def _ratio(value: object, where: str, most: int, positive: bool = False) -> Fraction:
    """A fraction from 0 (or above 0) to `most`, whose denominator is at most MAX_DENOMINATOR."""
    _check(
        isinstance(value, int | Fraction) and not isinstance(value, bool),
        where,
        f"must be a whole number or a Fraction, not {value!r}",
    )
    assert isinstance(value, int | Fraction)
    number = Fraction(value)
    low = "more than 0" if positive else "0"
    _check(
        (number > 0 if positive else number >= 0) and number <= most,
        where,
        f"must be {low} to {most:,}, not {_short(number)}",
    )
    _check(
        number.denominator <= MAX_DENOMINATOR,
        where,
        f"{_short(number)} is too fine: a denominator of at most {MAX_DENOMINATOR:,}",
    )
    return number


def _short(number: Fraction) -> str:
    """A number for a message: exact when short, else in scientific notation."""
    text = str(number)
    return text if len(text) <= 24 else f"{float(number):.6g}"


Paytable = Mapping[HandClass, Fraction]
"""What a bet pays "N to 1" for each hand class; a class absent from the table pushes."""

PAYTABLES = ("ante_paytable", "raise_paytable", "raise_paytable_no_qualify", "ante_paytable_no_qualify")


def _frozen_paytable(table: Mapping[HandClass, Fraction | int], where: str) -> Paytable:
    out: dict[HandClass, Fraction] = {}
    for hand_class, pays in table.items():
        _check(isinstance(hand_class, HandClass), where, f"{hand_class!r} is not a hand class")
        out[hand_class] = _ratio(pays, f"{where}.{hand_class.name.lower()}", MAX_PAYOUT)
    return immutabledict(sorted(out.items()))


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
        _amount(self.minimum, "limits.minimum", least=1)
        _amount(self.maximum, "limits.maximum", least=1)
        _check(self.minimum <= self.maximum, "limits", f"minimum {self.minimum} is above maximum {self.maximum}")
        if self.balance_fraction is not None:
            _ratio(self.balance_fraction, "limits.balance_fraction", 1, positive=True)

    def adjust(self, amount: int, balance: int | None = None) -> int | None:
        """The ante a request becomes under these limits, or None where the rules refuse it."""
        top = self.maximum
        f = self.balance_fraction
        if balance is not None and f is not None:  # in integers: a Fraction's product costs more than the rest
            top = min(top, balance * f.numerator // f.denominator)
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
        _amount(self.amount, "progressive.prizes")
        _check(
            isinstance(self.meter_share, int | Fraction) and 0 <= self.meter_share <= 1,
            "progressive.prizes",
            f"a meter share must be 0% to 100%, not {self.meter_share!r}",
        )
        _ratio(self.meter_share, "progressive.prizes", 1)
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
        _amount(self.stake, "progressive.stake", least=1)
        _amount(self.contribution, "progressive.contribution")
        _amount(self.reset, "progressive.reset")
        _check(
            0 <= self.contribution <= self.stake,
            "progressive.contribution",
            f"must be 0 to the stake ({self.stake}), not {self.contribution}",
        )
        _check(self.reset >= 0, "progressive.reset", f"cannot be negative ({self.reset})")
        _check(bool(self.prizes), "progressive.prizes", "at least one prize is needed")
        object.__setattr__(self, "prizes", immutabledict(sorted(self.prizes.items())))

    def meter_prize(self, share: Fraction, meter: int, sharers: int) -> int:
        """What one seat's meter prize of `share` pays, in whole minor units, when `sharers`
        seats win that prize in the same round: under the equal split they divide it."""
        divided = sharers if self.split is MeterSplit.EQUAL else 1
        return math.floor(meter * share / divided)


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
        for _, pays in self.tiers:
            _ratio(pays, f"{where}.tiers", MAX_PAYOUT, positive=True)
        _amount(self.minimum, f"{where}.minimum", least=1)
        _amount(self.maximum, f"{where}.maximum", least=1)
        _check(
            0 < self.minimum <= self.maximum,
            where,
            f"minimum {self.minimum} / maximum {self.maximum} invalid",
        )
        object.__setattr__(self, "tiers", tuple(sorted(self.tiers, key=lambda t: -t[0].strength)))

    def pays(self, strength: int) -> Fraction | None:
        """What the bet pays for a first-five hand of this strength, or None when it loses."""
        return next((p for threshold, p in self.tiers if threshold.admits(strength)), None)

    @property
    def title(self) -> str:
        """The bet's name as people read it ("AA Bonus", never "aa-bonus": `shape.bet_title`)."""
        return bet_title(self.name)


class ExchangeCards(StrEnum):
    """Which cards an exchange gives up (RULES.md, game 4)."""

    ALL = "all"  # all five cards, as seed 003 writes it
    CHOOSE = "choose"  # one to `most_cards` cards the seat picks (an example variant: the player's edge)


DECK = 52


@dataclass(frozen=True)
class Exchanges:
    """Game 4's card exchange: each costs `fee_antes` antes, not returned, and gives up the cards
    `cards` says (all five, or the ones chosen, up to `most_cards`)."""

    fee_antes: Fraction = Fraction(1)
    most_per_round: int = 3
    most_cards: int = 5
    must_cover_call: bool = True
    cards: ExchangeCards = ExchangeCards.ALL

    def __post_init__(self) -> None:
        _ratio(self.fee_antes, "exchanges.fee_antes", MAX_RAISE_MULTIPLE)
        for name in ("most_per_round", "most_cards"):
            value = getattr(self, name)
            _check(isinstance(value, int) and not isinstance(value, bool), f"exchanges.{name}", f"not {value!r}")
        _check(
            1 <= self.most_per_round <= 10,
            "exchanges.most_per_round",
            f"must be 1 to 10, not {self.most_per_round}",
        )
        _check(1 <= self.most_cards <= 5, "exchanges.most_cards", f"must be 1 to 5, not {self.most_cards}")
        _check(
            self.cards is ExchangeCards.CHOOSE or self.most_cards == 5,
            "exchanges.most_cards",
            f'an exchange of all cards gives up 5, not {self.most_cards} (or set cards = "choose")',
        )

    def cards_needed(self, seats: int) -> int:
        """The most cards a round can take from the deck: every hand, the dealer's, and every
        seat's exchanges at their largest."""
        return 5 * seats + 5 + seats * self.most_per_round * self.most_cards


class Unfinished(StrEnum):
    """What becomes of a dealt round that a fault, a crash or an idle session broke off."""

    COMPLETE = "complete"  # undecided seats take the automatic decision, then the showdown
    VOID = "void"  # the round is void and every bet of it refunded (game 5)


DAY = 86_400.0


@dataclass(frozen=True)
class Timing:
    """Time limits in seconds (None: no limit), the automatic decision of a seat at a shared
    table that times out or disconnects after the deal (raise with `auto_raise` or better, else
    fold), how long a dealt round of a one-seat game waits for its player (`open_round_seconds`:
    a lost connection never decides it), and what becomes of a dealt round that is broken off or
    left open past that limit (`unfinished`: completed by the best strategy, or void)."""

    bet_seconds: float | None = None
    decision_seconds: float | None = None
    idle_seconds: float | None = None
    auto_raise: HandThreshold | None = None
    unfinished: Unfinished = Unfinished.COMPLETE
    open_round_seconds: float = DAY

    def __post_init__(self) -> None:
        for name in ("bet_seconds", "decision_seconds", "idle_seconds", "open_round_seconds"):
            value = getattr(self, name)
            number = isinstance(value, int | float) and not isinstance(value, bool)
            _check(
                (value is None and name != "open_round_seconds") or (number and 0 < value <= MAX_SECONDS),
                f"timing.{name}",
                f"must be more than 0 to {MAX_SECONDS:,} seconds, not {value!r}",
            )


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
    raise_paytable_no_qualify: Paytable = field(default_factory=immutabledict)
    ante_paytable_no_qualify: Paytable = field(default_factory=immutabledict)  # empty: as `ante_paytable`
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

    @property
    def waits_for_player(self) -> bool:
        """A one-seat game: each player's own table, whose dealt round a lost connection never
        decides (RULES.md: it waits for its player, up to `timing.open_round_seconds`)."""
        return self.seats == 1

    def __post_init__(self) -> None:
        _check(
            bool(self.name) and self.name.replace("-", "").replace("_", "").isalnum(),
            "name",
            f"{self.name!r} is not a name (letters, digits, hyphens)",
        )
        _ratio(self.raise_multiple, "raise_multiple", MAX_RAISE_MULTIPLE, positive=True)
        _check(
            isinstance(self.seats, int) and not isinstance(self.seats, bool) and 1 <= self.seats <= 7,
            "seats",
            f"must be 1 to 7, not {self.seats!r}",
        )
        _check(
            isinstance(self.title, str) and self.title.isprintable(),
            "title",
            f"must be printable text (no control characters such as terminal escapes), not {self.title!r:.60}",
        )
        _check(
            self.family is Family.STUD or self.seats == 1,
            "seats",
            f"hold'em is played at one seat (the simulator deals one), not {self.seats!r}",
        )
        _check(bool(self.limits), "limits", "at least one table of limits is needed")
        self._check_whole_stakes()
        _check(
            self.exchanges is None or self.family is Family.STUD,
            "exchanges",
            "only stud games exchange cards",
        )
        if self.exchanges is not None:
            need = self.exchanges.cards_needed(self.seats)
            _check(
                need <= DECK,
                "exchanges",
                f"{self.seats} seat(s) with {self.exchanges.most_per_round} exchanges of up to "
                f"{self.exchanges.most_cards} cards can need {need} cards; the deck has {DECK}",
            )
        names = [b.name for b in self.side_bets]
        _check(len(names) == len(set(names)), "side_bets", f"names repeat: {names}")
        for name in PAYTABLES:
            object.__setattr__(self, name, _frozen_paytable(getattr(self, name), name))
        self._check_paytables()

    def _check_whole_stakes(self) -> None:
        """A raise (call) and an exchange fee are whole minor units at every table's minimum
        ante: a fraction that makes them fractional would refuse the table's smallest ante."""
        fee = self.exchanges.fee_antes if self.exchanges is not None else Fraction(0)
        for where, ratio in (("raise_multiple", self.raise_multiple), ("exchanges.fee_antes", fee)):
            for lim in self.limits:
                stake = lim.minimum * Fraction(ratio)
                _check(
                    stake.denominator == 1,
                    where,
                    f"{_short(Fraction(ratio))} of the minimum ante {lim.minimum} is {float(stake):g} minor units, "
                    "not a whole number: choose a ratio that makes whole minor units",
                )

    @property
    def layout(self) -> Layout:
        """The cards a round of this variant's family deals and shows (`shape.Layout`)."""
        return HOLDEM_LAYOUT if self.family is Family.HOLDEM else STUD_LAYOUT

    @property
    def bet_words(self) -> BetWords:
        """The second bet's name: seed 004 (Casino Hold'em) and seed 003 (game 4, the game with
        exchanges) call it the Call; the other stud games (seeds 000-002) raise."""
        return CALL if self.family is Family.HOLDEM or self.exchanges is not None else RAISE

    @property
    def raise_word(self) -> str:
        """What the game calls its second bet: "call" or "raise" (`bet_words`)."""
        return self.bet_words.bet

    @cached_property
    def classes(self) -> tuple[HandClass, ...]:
        """The hand classes of this variant, lowest first (Ace-King only where it is named)."""
        return tuple(c for c in HandClass if self.ace_king or c is not HandClass.ACE_KING)

    def classify(self, strength: int) -> HandClass:
        """The class of a hand's strength under this variant's classes."""
        hand_class = class_of(strength)
        if hand_class is HandClass.HIGH_CARD and self.ace_king and strength >= _ace_king_floor():
            return HandClass.ACE_KING
        return hand_class

    def floor(self, hand_class: HandClass) -> int:
        """The lowest strength of a class under this variant (Ace-King: the lowest Ace-King hand)."""
        if hand_class not in self.classes:
            raise ArgumentError(f"hand class: {hand_class!r} is not a class of {self.name}")
        return _ace_king_floor() if hand_class is HandClass.ACE_KING else class_floor(hand_class)

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

    @cached_property
    def side_bet_names(self) -> frozenset[str]:
        """The names of the side bets offered."""
        return frozenset(bet.name for bet in self.side_bets)

    def side_bet(self, name: str) -> SideBet:
        """The side bet of this name."""
        for bet in self.side_bets:
            if bet.name == name:
                return bet
        offered = ", ".join(repr(bet.name) for bet in self.side_bets) or "none"
        raise ArgumentError(f"side bet: {self.name} has no side bet {name!r} (its side bets: {offered})")


@cache
def _ace_king_floor() -> int:
    return HandThreshold("ace-king").strength
