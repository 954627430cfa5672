"""The end of a round: each seat's outcome against the dealer, and the money that pays it.

Nothing here decides what a bet pays: each seat's `Outcome` goes to `settle_money`, the package's
one settlement function, and this module only turns its nets into transfers between accounts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

from ..cards import CARD_TEXTS
from ..hands import DISTINCT_STRENGTHS, HandClass, strength_of_ids, value_of_ids
from ..settlement import Decision, MoneySettlement, Outcome, Showdown, Stakes, draw_meter, settle, settle_money
from ..variants import Family, Variant
from .events import Transfer, built
from .ledger import table_spot, wallet
from .results import Spot, spot_results
from .state import Bets, SeatState, TableState

__all__ = [
    "Hand",
    "Paid",
    "PayKey",
    "SeatSettlement",
    "dealer_hand",
    "hand_of",
    "outcome_of",
    "paid",
    "pays_of",
    "revealed",
    "settle_seats",
]


def _final_hand(state: TableState, variant: Variant, seat: SeatState) -> list[int]:
    return [*seat.cards, *state.round.board] if variant.family is Family.HOLDEM else seat.cards


def _first_five(state: TableState, variant: Variant, seat: SeatState) -> list[int]:
    """Stud: the five cards dealt; hold'em: the two hole cards and the flop."""
    return [*seat.first_five, *state.round.board[:3]] if variant.family is Family.HOLDEM else seat.first_five


def dealer_hand(state: TableState, variant: Variant) -> list[int]:
    return [*state.round.dealer, *state.round.board] if variant.family is Family.HOLDEM else state.round.dealer


def outcome_of(variant: Variant, seat: SeatState, mine: int, first_five: int, dealer: int) -> Outcome:
    """The seat's finished round as a settlement category, from the strengths of its final hand,
    its first five cards and the dealer's hand."""
    if seat.decision is not Decision.RAISE:  # as `Outcome(FOLD, class, exchanges=..., first_five=...)`
        decision, qualifies, showdown = Decision.FOLD, True, Showdown.PUSH
    else:
        decision, qualifies = Decision.RAISE, variant.qualifier.admits(dealer)
        showdown = Showdown.WIN if mine > dealer else Showdown.PUSH if mine == dealer else Showdown.LOSE
    return built(
        Outcome,
        decision=decision,
        hand_class=variant.classify(mine),
        dealer_qualifies=qualifies,
        showdown=showdown,
        exchanges=seat.exchanges,
        first_five=first_five,
    )


def _net(m: MoneySettlement) -> dict[str, Any]:
    return {
        "ante": m.ante,
        "raise": m.raise_,
        "exchange_fees": m.exchange_fees,
        "side_bets": dict(m.side_bets),
        "progressive": m.progressive,
        "meter_paid": m.meter_paid,
        "total": m.total,
    }


_CLASS_NAMES = {c: c.name.lower() for c in HandClass}
"""Each class as the settled event names it ("two_pair"): an enum's `name` is a property."""


@dataclass(frozen=True)
class SeatSettlement:
    seat: int
    outcome: Outcome
    money: MoneySettlement
    transfers: tuple[Transfer, ...]
    hand: str
    bets: tuple[dict[str, Any], ...]  # each staked spot's result (`results.spot_results`)

    def public(self, edition: int) -> dict[str, Any]:
        """The settled event's data; from the rules' third edition on, with each bet's result
        (`core.EDITION`: an earlier record's events stay as they were written, and replay)."""
        o = self.outcome
        public = {
            "outcome": {
                "decision": str(o.decision),
                "hand_class": _CLASS_NAMES[o.hand_class],
                "dealer_qualifies": o.dealer_qualifies,
                "showdown": str(o.showdown),
                "exchanges": o.exchanges,
                "first_five": o.first_five,
            },
            "hand": self.hand,
            "net": _net(self.money),
        }
        return public | {"bets": list(self.bets)} if edition >= 3 else public


PayKey = tuple[tuple[Decision, HandClass, bool, Showdown, int, int | None], Bets, int, int]
"""What a seat's pay depends on: its outcome's fields, its bets, the meter and how many seats
share a meter prize (`pay_key`)."""

PAID_MOST = 512
"""The most pays a variant's tables remember (`settle_seats`); past it, they start again. Only the
pays of antes and raises alone are kept: with a side bet or the progressive, the first five cards
(and the meter) are in the key, which seldom comes again."""

VARIANTS_MOST = 64
"""The most variants whose pays are remembered at once (`pays_of`): a server's games and the
paytables its office made; past it, every variant starts again."""

_PAYS: dict[Variant, dict[PayKey, Paid]] = {}


def pays_of(variant: Variant) -> dict[PayKey, Paid]:
    """The pays remembered for `variant`, one dict shared by all its tables (`paid` is a pure
    function of the variant and the key): a thousand tables of one's own keep one, not a thousand.
    Found by the variant's value, so that a restored table (its variant read again from its
    record) shares it too; a table looks it up once (`Rounds._pays`)."""
    found = _PAYS.get(variant)
    if found is None:
        if len(_PAYS) >= VARIANTS_MOST:
            _PAYS.clear()
        found = _PAYS[variant] = {}
    return found


class Paid(NamedTuple):
    """What an outcome and bets pay: the money and each staked spot's result."""

    money: MoneySettlement
    spots: tuple[Spot, ...]


def pay_key(outcome: Outcome, bets: Bets, meter: int, sharers: int) -> PayKey:
    """The parts of a seat's round its pay depends on: the strength of its first five cards, the
    meter and its sharers only where a side bet or the progressive is staked, so that a round of
    antes alone pays as every earlier round of the same category and bets."""
    o, side = outcome, bets.side_bets or bets.progressive
    fields = (o.decision, o.hand_class, o.dealer_qualifies, o.showdown, o.exchanges, o.first_five if side else None)
    return fields, bets, meter if bets.progressive else 0, sharers if bets.progressive else 1


def paid(variant: Variant, key: PayKey) -> Paid:
    """What `key`'s outcome and bets pay, by the one settlement function (`settle`, `settle_money`)."""
    fields, bets, meter, sharers = key
    outcome = Outcome(*fields)
    exact = settle(variant, outcome)
    stakes = Stakes(bets.ante, dict(bets.side_bets), progressive=bets.progressive > 0)
    money = settle_money(variant, outcome, stakes, meter, sharers, exact)
    return Paid(money, tuple(spot_results(variant, exact, _net(money), bets.to_dict())))


def _meter_sharers(state: TableState, variant: Variant, outcomes: dict[int, Outcome]) -> dict[int, int]:
    """For each seat, how many seats win the same meter prize this round (two royals share)."""
    prog = variant.progressive
    if prog is None or not any(state.seats[k].bets.progressive for k in outcomes):  # most rounds
        return dict.fromkeys(outcomes, 1)
    classes: dict[int, Any] = {}
    for k, o in outcomes.items():
        if not state.seats[k].bets.progressive:  # most seats: no prize to share
            continue
        first_class = variant.classify(o.first_five or 0)
        prize = prog.prizes.get(first_class)
        if prize is not None and prize.meter_share > 0:
            classes[k] = first_class
    return {k: sum(1 for c in classes.values() if c == classes[k]) if k in classes else 1 for k in outcomes}


class Hand(NamedTuple):
    """A hand as the showdown reads it: the strength of its best five and their words."""

    strength: int
    words: str  # `HandValue.describe`


def hand_of(ids: list[int]) -> Hand:
    """The strength of the best five of `ids` (one call of the core) and their words, which the
    strength alone fixes (its class and ranks: equal hands are described alike)."""
    strength = strength_of_ids(ids)
    return Hand(strength, _all_words()[strength])


@cache
def _all_words() -> tuple[str, ...]:
    """Every five-card hand's words by strength (index 0 unused): `HandValue.describe` of one
    hand of each of the 7,462 strengths, worked out once a process (under a tenth of a second, at
    its first showdown), so that no showdown describes a hand (a server's tables soon meet them all)."""
    words = [""] * (DISTINCT_STRENGTHS + 1)
    said: dict[str, str] = {}
    for hand in _one_of_each_strength():
        value = value_of_ids(hand)
        text = value.describe()
        words[value.strength] = said.setdefault(text, text)  # a few hundred texts, each kept once
    assert all(words[1:]), "a strength with no hand"
    return tuple(words)


def _one_of_each_strength() -> Iterator[list[int]]:
    """A hand of every strength: every five ranks, at most four of a rank, in mixed suits (card
    id 4 rank + suit: the n-th card of a rank in suit n, a lone first rank in another suit than
    the rest), and five distinct ranks also in one suit (flushes)."""
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        if len(counts) == 5:
            yield [4 * r for r in ranks]  # suited
            yield [4 * ranks[0] + 1, *(4 * r for r in ranks[1:])]
        else:
            yield [4 * r + n for r, c in counts.items() for n in range(c)]


def _hands(state: TableState, variant: Variant, seat: SeatState) -> tuple[Hand, int]:
    """The seat's final hand, and the strength of its first five cards (the same hand, evaluated
    once, for a stud seat that exchanged nothing)."""
    final, first = _final_hand(state, variant, seat), _first_five(state, variant, seat)
    hand = hand_of(final)
    return hand, hand.strength if first == final else strength_of_ids(first)


def settle_seats(
    state: TableState, variant: Variant, order: list[int], dealer: Hand, pays: dict[PayKey, Paid]
) -> list[SeatSettlement]:
    """Every dealt seat's settlement in the order given, against the dealer's hand (evaluated
    once for the showdown), paid against the meter as it stood before any of them (what the meter
    cannot cover, the house pays). `pays`: what each outcome and bets paid before at the variant's
    tables (`pays_of`): a round of the same category pays as the last did."""
    hands, outcomes = {}, {}
    for k in order:
        seat = state.seats[k]
        hands[k], first = _hands(state, variant, seat)
        outcomes[k] = outcome_of(variant, seat, hands[k].strength, first, dealer.strength)
    sharers = _meter_sharers(state, variant, outcomes)
    meter = state.ledger.balance("meter")
    if len(pays) > PAID_MOST:
        pays.clear()
    found = []
    for k in order:
        bets = state.seats[k].bets
        key = pay_key(outcomes[k], bets, meter, sharers[k])
        if bets.side_bets or bets.progressive:  # the first five cards in the key: seldom again
            found.append(paid(variant, key))
            continue
        pay = pays.get(key)  # an ante and raise alone: a pay that comes again
        if pay is None:
            pay = pays[key] = paid(variant, key)
        found.append(pay)
    prizes = [pay.money.meter_paid for pay in found]
    reset = variant.progressive.reset if variant.progressive else 0
    drawn = draw_meter(meter, prizes, reset).from_meter if any(prizes) else [0] * len(found)  # most rounds: none
    out = []
    for k, pay, from_meter in zip(order, found, drawn, strict=True):
        bets, m = state.seats[k].bets, pay.money
        moves = _transfers(k, bets.total - bets.progressive, m, from_meter, bets.progressive)
        spots = tuple([spot.copy() for spot in pay.spots])  # the event's own: a remembered pay stays as it was
        hand, outcome = hands[k].words, outcomes[k]
        out.append(built(SeatSettlement, seat=k, outcome=outcome, money=m, transfers=moves, hand=hand, bets=spots))
    return out


def _transfers(k: int, held: int, m: MoneySettlement, from_meter: int, progressive_stake: int) -> tuple[Transfer, ...]:
    """The stakes come back from the table, then the house pays or collects the main game and side
    bets; a progressive prize comes from the house (fixed) and the meter (its share)."""
    net = m.ante + m.raise_ + sum(m.side_bets.values())
    prize = m.progressive + progressive_stake  # the stake went to the meter and house at the deal
    mine = wallet(k)
    moves = (
        (table_spot(k), mine, held),
        ("house", mine, net) if net >= 0 else (mine, "house", -net),
        ("meter", mine, from_meter),
        ("house", mine, prize - from_meter),
    )
    return tuple([t for t in moves if t[2] > 0])


def revealed(state: TableState, variant: Variant, order: list[int], dealer: Hand) -> dict[str, Any]:
    """Everything the showdown shows: the seed, the dealer's cards (and `dealer`, their hand),
    every dealt seat's cards."""
    return {
        "seed": state.round.seed.hex(),
        "dealer": _text(state.round.dealer),
        "board": _text(state.round.board),
        "dealer_hand": dealer.words,
        "seats": {str(k): _text(state.seats[k].cards) for k in order},
    }


def _text(cards: list[int]) -> str:
    """`cards.format_cards` of the table's own card ids, looked up."""
    return " ".join(map(CARD_TEXTS.__getitem__, cards))
