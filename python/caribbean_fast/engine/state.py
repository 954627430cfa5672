"""The table's mutable state, changed only by applying events (`apply`), so that a table restored
from its record is the table that wrote it. It holds what the rules read, nothing more: what the
views work out once per round (the proofs, the results as shown) they keep themselves
(`views.ViewCache`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum, StrEnum
from typing import Any

from ..settlement import Decision
from .commands import TICK
from .events import Event, built
from .fairness import cut, root
from .ledger import Ledger
from .shuffle import deck_from_seed

__all__ = ["NO_BETS", "Bets", "Change", "EventKind", "Phase", "RoundState", "SeatState", "TableState", "commanded"]


class Phase(StrEnum):
    WAITING = "waiting"  # no round open: the next bet opens one
    BETTING = "betting"  # a round is open, its seed committed; bets may change until the deal
    DECIDING = "deciding"  # dealt: seats fold, raise (call) or exchange
    SETTLED = "settled"  # the last round was settled or void; the next bet opens a new one
    CLOSED = "closed"  # the session ended (idle); `reopen` starts it again


@dataclass(frozen=True)
class Bets:
    """What a seat has staked this round, in minor units."""

    ante: int = 0
    raise_: int = 0
    side_bets: tuple[tuple[str, int], ...] = ()
    progressive: int = 0

    @property
    def total(self) -> int:
        """Worked out each time: a few additions cost less than `cached_property`'s lock on the
        first read, and most bets are read once or twice (a view's, a check's)."""
        side = sum(a for _, a in self.side_bets) if self.side_bets else 0
        return self.ante + self.raise_ + side + self.progressive

    def but(
        self,
        *,
        ante: int | None = None,
        raise_: int | None = None,
        side_bets: tuple[tuple[str, int], ...] | None = None,
        progressive: int | None = None,
    ) -> Bets:
        """These bets with the fields given changed (`dataclasses.replace`, even `Bets(...)`,
        costs a bet's check more than the rest of it: `events.built`)."""
        return built(
            Bets,
            ante=self.ante if ante is None else ante,
            raise_=self.raise_ if raise_ is None else raise_,
            side_bets=self.side_bets if side_bets is None else side_bets,
            progressive=self.progressive if progressive is None else progressive,
        )

    def side(self, name: str) -> int:
        return dict(self.side_bets).get(name, 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ante": self.ante,
            "raise": self.raise_,
            "side_bets": dict(self.side_bets) if self.side_bets else {},
            "progressive": self.progressive,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Bets:
        """The bets a `bets` or `decided` event says (made as `but` makes them: a few a command)."""
        side = d["side_bets"]
        return built(
            cls,
            ante=d["ante"],
            raise_=d["raise"],
            side_bets=tuple(sorted(side.items())) if side else (),
            progressive=d["progressive"],
        )


NO_BETS = Bets()
"""A seat's bets with nothing staked (bets are immutable: one serves every seat)."""


@dataclass
class SeatState:
    bets: Bets = Bets()
    last_bets: Bets | None = None  # the bets of the last round dealt, for rebet
    ticked: bool = False  # the progressive box, where it stays ticked
    limit: int | None = None  # the personal bet limit (game 1)
    limit_changed: datetime | None = None
    cards: list[int] = field(default_factory=list)
    first_five: list[int] = field(default_factory=list)
    decision: Decision | None = None
    auto: bool = False
    exchanges: int = 0
    dealt: bool = False
    results: dict[str, Any] | None = None
    staked: Bets = Bets()  # the bets the round settled (`results`), kept once the round closes
    shown: list[int] = field(default_factory=list)  # every card the seat was shown this round
    account: str | None = None  # who sits here (`sit`); None: nobody sat down (a table without a server)
    since: int = 0  # the first round the seat's holder may see: one it could be dealt into
    away: datetime | None = None  # since when the holder has had no connection (`away`)
    stand_after: float = 0.0  # seconds away, between rounds, before the clock stands the seat up


@dataclass
class RoundState:
    number: int = 0
    seed: bytes = b""
    commitment: str = ""
    deck: list[int] = field(default_factory=list)
    taken: int = 0  # cards dealt from the top of the deck so far
    dealer: list[int] = field(default_factory=list)
    board: list[int] = field(default_factory=list)
    opened_at: datetime | None = None
    dealt_at: datetime | None = None
    void: bool = False
    revealed: dict[str, Any] | None = None
    dealt_seats: list[int] = field(default_factory=list)  # in dealing order
    draws: list[tuple[int, int]] = field(default_factory=list)  # (seat, cards) of each exchange, in order
    committed: dict[int, str] = field(default_factory=dict)  # each seat's commitment to a seed of its own
    revealed_seeds: dict[int, str] = field(default_factory=dict)  # the seeds revealed (hex), once bets closed
    sealed: list[int] = field(default_factory=list)  # bets closed: the seats to deal once the seeds are in
    sealed_at: datetime | None = None
    order: tuple[int, ...] = ()  # the cut the seats' seeds made: dealt position i is committed position order[i]
    dealing: list[int] = field(default_factory=list)  # the cards in dealt order (the deck, cut)

    @classmethod
    def opened(cls, number: int, seed: bytes, commitment: str, deck: list[int], at: datetime) -> RoundState:
        """A round just opened, as `RoundState(number, seed, commitment, deck, opened_at=at,
        dealing=deck)` makes it, every field given (`events.built`: once a round, the generated
        `__init__` with its ten default factories costs more than the rest of the opening)."""
        return built(
            cls,
            number=number,
            seed=seed,
            commitment=commitment,
            deck=deck,
            taken=0,
            dealer=[],
            board=[],
            opened_at=at,
            dealt_at=None,
            void=False,
            revealed=None,
            dealt_seats=[],
            draws=[],
            committed={},
            revealed_seeds={},
            sealed=[],
            sealed_at=None,
            order=(),
            dealing=deck,
        )

    def next_cards(self, n: int) -> list[int]:
        return self.dealing[self.taken : self.taken + n]

    def seat_seeds(self) -> list[dict[str, str | int]]:
        """Every dealt seat's commitment and seed ("" for none), in dealing order, where any seat
        committed to one: what the proof carries and the cut is made from."""
        if not any(k in self.committed for k in self.dealt_seats):
            return []
        return [
            {"seat": k, "commitment": self.committed.get(k, ""), "seed": self.revealed_seeds.get(k, "")}
            for k in self.dealt_seats
        ]


@dataclass
class TableState:
    seats: list[SeatState]
    ledger: Ledger = field(default_factory=Ledger)
    phase: Phase = Phase.WAITING
    round: RoundState = field(default_factory=RoundState)
    round_transfers: list[tuple[str, str, int]] = field(default_factory=list)
    last_activity: datetime | None = None

    def apply(self, event: Event, change: Change) -> None:
        """Changes the state as the event says: its money, then `change`, its kind's own (an
        `EventKind`'s, or `commanded`); the ledger refuses a transfer it cannot make."""
        if event.transfers:  # most events move no money
            self.ledger.apply(event.transfers)
            if self.phase in (Phase.BETTING, Phase.DECIDING):
                self.round_transfers.extend(event.transfers)
        change(self, event)


Change = Callable[[TableState, Event], None]
"""How an event of one kind changes the state, besides its money."""


def commanded(state: TableState, e: Event) -> None:
    """A command: the table's last activity, unless it is the clock's."""
    if e.kind != TICK.name:
        state.last_activity = e.time


def _money_only(state: TableState, e: Event) -> None:
    pass


def _bets(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.bets = Bets.from_dict(e.public["bets"])
    seat.ticked = e.public.get("ticked", seat.ticked)


def _limit(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.limit, seat.limit_changed = e.public["limit"], e.time


def _round_opened(state: TableState, e: Event) -> None:
    seed = bytes.fromhex(e.secret["seed"])
    deck = deck_from_seed(seed)
    state.round = RoundState.opened(e.round, seed, e.public["commitment"], deck, e.time)
    state.round_transfers = []
    state.phase = Phase.BETTING
    for seat in state.seats:
        seat.cards, seat.first_five, seat.decision, seat.auto = [], [], None, False
        seat.exchanges, seat.dealt, seat.results, seat.shown = 0, False, None, []


def _seed_committed(state: TableState, e: Event) -> None:
    state.round.committed[_seat(e)] = e.public["commitment"]


def _sealed(state: TableState, e: Event) -> None:
    state.round.sealed, state.round.sealed_at = list(e.public["seats"]), e.time


def _seed_revealed(state: TableState, e: Event) -> None:
    state.round.revealed_seeds[_seat(e)] = e.secret["seed"]


def _dealing(state: TableState, e: Event) -> None:
    state.phase, state.round.dealt_at = Phase.DECIDING, e.time
    r = state.round
    r.dealt_seats, r.sealed = list(e.public["seats"]), []
    seeds = e.public.get("seeds")  # the seats' seeds (fourth edition on): the committed deck, cut
    if seeds:
        r.order = cut(root(r.seed, tuple(r.deck)), [(k, seed) for k, seed in seeds])
        r.dealing = [r.deck[p] for p in r.order] if r.order else r.deck
    for k in e.public["seats"]:
        seat = state.seats[k]
        seat.dealt, seat.last_bets = True, seat.bets
    for k, bets in e.public.get("refunded", {}).items():
        state.seats[int(k)].bets = Bets.from_dict(bets)


def _dealt(state: TableState, e: Event) -> None:
    if e.seat is None:
        state.round.dealer = [*e.secret["hole"], *e.public.get("up", [])]
        state.round.board = [*e.public.get("flop", []), *e.secret.get("turn_river", [])]
        state.round.taken += len(state.round.dealer) + len(state.round.board)
    else:
        seat = state.seats[e.seat]
        seat.cards = list(e.private["cards"])
        seat.first_five, seat.shown = list(seat.cards), list(seat.cards)
        state.round.taken += len(seat.cards)


def _decided(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.decision, seat.auto = Decision(e.public["decision"]), e.public["auto"]
    seat.bets = Bets.from_dict(e.public["bets"])


def _exchanged(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.cards, seat.exchanges = list(e.private["cards"]), seat.exchanges + 1
    seat.shown += e.private["drawn"]
    state.round.taken += e.public["count"]
    state.round.draws.append((_seat(e), e.public["count"]))


def _revealed(state: TableState, e: Event) -> None:
    state.round.revealed = dict(e.public)


def _settled(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.results, seat.staked = dict(e.public), seat.bets


def _round_closed(state: TableState, e: Event) -> None:
    state.phase, state.round.void = Phase.SETTLED, e.public.get("void", False)
    for seat in state.seats:
        seat.bets = NO_BETS


def _session_ended(state: TableState, e: Event) -> None:
    state.phase = Phase.CLOSED


def _session_opened(state: TableState, e: Event) -> None:
    state.phase = Phase.SETTLED


def _seated(state: TableState, e: Event) -> None:
    """A new holder: nothing of the last one's (its rebet, its ticked box, its own limit, its
    commitment to a seed this round) stays."""
    seat = state.seats[_seat(e)]
    seat.account, seat.since, seat.away = e.public["account"], e.public["since"], None
    seat.last_bets, seat.ticked, seat.limit, seat.limit_changed = None, False, None, None
    state.round.committed.pop(_seat(e), None)


def _stood(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.account, seat.away = None, None


def _away(state: TableState, e: Event) -> None:
    seat = state.seats[_seat(e)]
    seat.away, seat.stand_after = e.time, e.public["stand_after"]


def _back(state: TableState, e: Event) -> None:
    state.seats[_seat(e)].away = None


def _seat(e: Event) -> int:
    assert e.seat is not None, f"{e.kind} event without a seat"
    return e.seat


class EventKind(Enum):
    """Every kind of event the rules write besides the commands, each with how it changes the
    state: an event is made from its kind (`TableCore._emit`), which applies it by its own
    function, with no table of names between."""

    TABLE_OPENED = "table_opened", _money_only
    FUNDS = "funds", _money_only
    LIMIT_SET = "limit_set", _limit
    BETS = "bets", _bets
    ROUND_OPENED = "round_opened", _round_opened
    SEED_COMMITTED = "seed_committed", _seed_committed
    SEALED = "seeds_sealed", _sealed
    SEED_REVEALED = "seed_revealed", _seed_revealed
    DEALING = "dealing", _dealing
    DEALT = "dealt", _dealt
    DECIDED = "decided", _decided
    EXCHANGED = "exchanged", _exchanged
    REVEALED = "revealed", _revealed
    SETTLED = "settled", _settled
    ROUND_CLOSED = "round_closed", _round_closed
    RESTORED = "restored", _money_only
    SESSION_ENDED = "session_ended", _session_ended
    SESSION_OPENED = "session_opened", _session_opened
    SEATED = "seated", _seated
    STOOD = "stood", _stood
    SEAT_AWAY = "seat_away", _away
    SEAT_BACK = "seat_back", _back
    POOL = "pool", _money_only
    VARIANT_CHANGED = "variant_changed", _money_only  # the table's variant is the table's (`paytable`)

    def __init__(self, text: str, change: Change) -> None:
        self.text = text
        """The kind as events and records write it."""
        self.change = change
