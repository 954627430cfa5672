"""A table of one game: seats, wallets, rounds as state machines, every step an event.

Each action is a command: its handler (`_ante`, `_raise`, ...) checks everything first and raises
IllegalActionError or InsufficientFundsError without changing anything; only then does it emit
events, and only applying an event changes the state (`state.TableState.apply`). The first event
a command emits is the command itself, so a record can be replayed: `replay.restore` runs the
recorded commands again and must get the recorded events back. `can_*` runs a handler's checks
alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from ..cards import CardsLike, format_cards, parse_cards
from ..errors import CaribbeanFastError, IllegalActionError, InsufficientFundsError
from ..hands import evaluate
from ..settlement import Decision
from ..variants import Family, Unfinished, Variant
from ..variants.toml_io import to_toml
from .events import COMMANDS, Event, Transfer
from .history import seat_history
from .ledger import OUTSIDE, table_spot, wallet
from .limits import may_change_limit, next_week_start
from .showdown import revealed, settle_seats
from .shuffle import SecureSeeds, SeededSeeds, SeedSource, commitment
from .state import Bets, Phase, SeatState, TableState
from .store import EventStore
from .views import SeatView, seat_view

__all__ = ["Clock", "Table"]

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class _Legal(Exception):
    """Raised at a handler's first emit in a dry run: every check has passed."""


def _illegal(condition: bool, reason: str) -> None:
    if condition:
        raise IllegalActionError(reason)


class Table:
    """A live table. Amounts are integers of the variant's minor unit."""

    def __init__(
        self,
        variant: Variant,
        *,
        seats: int | None = None,
        limits: int = 0,
        seed: int | None = None,
        seeds: SeedSource | None = None,
        clock: Clock | None = None,
        store: EventStore | None = None,
    ) -> None:
        seats = variant.seats if seats is None else seats
        if not 1 <= seats <= variant.seats:
            raise IllegalActionError(f"{variant.name} seats 1 to {variant.seats}, not {seats}")
        if not 0 <= limits < len(variant.limits):
            raise IllegalActionError(f"{variant.name} has limit tables 0 to {len(variant.limits) - 1}, not {limits}")
        self.variant, self.limits, self.seed = variant, variant.limits[limits], seed
        self.config = {"seats": seats, "limits": limits, "seed": seed}
        self.clock: Clock = clock or utc_now
        self._seeds: SeedSource = seeds or (SecureSeeds() if seed is None else SeededSeeds(seed))
        self.state = TableState([SeatState() for _ in range(seats)])
        self.events: list[Event] = []
        self.store = store
        self._pending: tuple[str, dict[str, Any]] | None = None
        self._dry = False
        self._now = self.clock()
        if store is not None:
            store.write_meta({"variant": to_toml(variant), **{k: str(v) for k, v in self.config.items()}})
        p = variant.progressive
        self._emit("table_opened", public={"variant": variant.name, **self.config}, transfers=_meter_seed(p))

    # ---- what anyone may ask -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> int:
        return self.state.round.number

    @property
    def seats(self) -> int:
        return len(self.state.seats)

    def balance(self, seat: int) -> int:
        return self.state.ledger.balance(wallet(self._seat(seat)))

    @property
    def meter(self) -> int:
        return self.state.ledger.balance("meter")

    @property
    def house(self) -> int:
        return self.state.ledger.balance("house")

    def view(self, seat: int) -> SeatView:
        """What `seat` is shown: never the dealer's hidden cards or another seat's cards before
        the showdown."""
        return seat_view(self, self._seat(seat))

    def history(self, seat: int, last: int = 10) -> list[list[dict[str, Any]]]:
        """Game recall: the last `last` rounds `seat` was dealt into, every step as it saw it."""
        return seat_history(self.events, self._seat(seat), last)

    def actions(self, seat: int) -> list[str]:
        """The actions `seat` may take now (with their usual arguments)."""
        s = self.state.seats[self._seat(seat)]
        ante = s.bets.ante or (s.last_bets.ante if s.last_bets else self.limits.minimum)
        checks: dict[str, Callable[[], bool]] = {
            "ante": lambda: self.can_ante(seat, ante),
            "progressive": lambda: self.can_progressive(seat),
            "rebet": lambda: self.can_rebet(seat),
            "clear": lambda: self.can_clear(seat),
            "deal": self.can_deal,
            "raise": lambda: self.can_raise(seat),
            "fold": lambda: self.can_fold(seat),
            "exchange": lambda: self.can_exchange(seat, s.cards[:1]),
        }
        return [name for name, check in checks.items() if check()]

    # ---- commands --------------------------------------------------------------------------------

    def deposit(self, seat: int, amount: int) -> list[Event]:
        return self._run("deposit", seat=seat, amount=amount)

    def withdraw(self, seat: int, amount: int) -> list[Event]:
        return self._run("withdraw", seat=seat, amount=amount)

    def set_limit(self, seat: int, amount: int | None) -> list[Event]:
        """The seat's personal bet limit on the ante (None removes it); it may change once a week."""
        return self._run("set_limit", seat=seat, amount=amount)

    def ante(self, seat: int, amount: int) -> list[Event]:
        """Places or changes the ante; a bet outside the limits is adjusted as the game states."""
        return self._run("ante", seat=seat, amount=amount)

    def progressive(self, seat: int, on: bool = True) -> list[Event]:
        return self._run("progressive", seat=seat, on=on)

    def side_bet(self, seat: int, name: str, amount: int) -> list[Event]:
        """Places, changes or (amount 0) removes a side bet such as the AA Bonus."""
        return self._run("side_bet", seat=seat, name=name, amount=amount)

    def clear(self, seat: int) -> list[Event]:
        return self._run("clear", seat=seat)

    def rebet(self, seat: int) -> list[Event]:
        """Repeats the bets of the last round the seat was dealt into."""
        return self._run("rebet", seat=seat)

    def deal(self) -> list[Event]:
        return self._run("deal")

    def fold(self, seat: int) -> list[Event]:
        return self._run("fold", seat=seat)

    def raise_(self, seat: int) -> list[Event]:
        return self._run("raise", seat=seat)

    call = raise_  # hold'em and game 4 name the same spot "call"

    def exchange(self, seat: int, cards: CardsLike) -> list[Event]:
        """Game 4: discards these cards of the seat's hand for as many new ones, for a fee."""
        return self._run("exchange", seat=seat, cards=format_cards(parse_cards(cards)))

    def disconnect(self, seat: int) -> list[Event]:
        return self._run("disconnect", seat=seat)

    def tick(self) -> list[Event]:
        """Applies whatever the clock says has run out: bet and decision time, an idle session."""
        return self._run("tick")

    def fault(self, reason: str = "fault") -> list[Event]:
        """A fault broke the round: it is void and its bets refunded."""
        return self._run("fault", reason=reason)

    def reopen(self) -> list[Event]:
        return self._run("reopen")

    def execute(self, kind: str, args: dict[str, Any]) -> list[Event]:
        """Runs a command by its recorded name and arguments (replays)."""
        _illegal(kind not in COMMANDS, f"{kind!r} is not a command")
        return self._run(kind, **args)

    # ---- checks alone ----------------------------------------------------------------------------

    def can_ante(self, seat: int, amount: int) -> bool:
        return self._can("ante", seat=seat, amount=amount)

    def can_progressive(self, seat: int, on: bool = True) -> bool:
        return self._can("progressive", seat=seat, on=on)

    def can_side_bet(self, seat: int, name: str, amount: int) -> bool:
        return self._can("side_bet", seat=seat, name=name, amount=amount)

    def can_clear(self, seat: int) -> bool:
        return self._can("clear", seat=seat)

    def can_rebet(self, seat: int) -> bool:
        return self._can("rebet", seat=seat)

    def can_deal(self) -> bool:
        return self._can("deal")

    def can_fold(self, seat: int) -> bool:
        return self._can("fold", seat=seat)

    def can_raise(self, seat: int) -> bool:
        return self._can("raise", seat=seat)

    can_call = can_raise

    def can_exchange(self, seat: int, cards: CardsLike) -> bool:
        try:
            text = format_cards(parse_cards(cards))
        except CaribbeanFastError:
            return False
        return self._can("exchange", seat=seat, cards=text)

    # ---- the machinery ---------------------------------------------------------------------------

    def _run(self, kind: str, **args: Any) -> list[Event]:
        """Runs one command at the clock's time; returns the events it emitted (none: it did
        nothing and is not recorded)."""
        self._now = self.clock()
        start = len(self.events)
        self._pending = (kind, args)
        try:
            getattr(self, f"_{kind}")(**args)
        finally:
            self._pending = None
        return self.events[start:]

    def _can(self, kind: str, **args: Any) -> bool:
        self._now, self._dry = self.clock(), True
        try:
            getattr(self, f"_{kind}")(**args)
            return False  # a handler that emits nothing has nothing to do
        except _Legal:
            return True
        except CaribbeanFastError:
            return False
        finally:
            self._dry = False

    def _emit(
        self,
        kind: str,
        seat: int | None = None,
        public: dict[str, Any] | None = None,
        private: dict[str, Any] | None = None,
        secret: dict[str, Any] | None = None,
        transfers: tuple[Transfer, ...] | list[Transfer] = (),
        round: int | None = None,
    ) -> None:
        if self._dry:
            raise _Legal
        if self._pending is not None:
            command, args = self._pending
            self._pending = None
            self._emit(command, args.get("seat"), {"args": args})
        event = Event(
            seq=len(self.events),
            round=self.state.round.number if round is None else round,
            kind=kind,
            time=self._now,
            seat=seat,
            public=public or {},
            private=private or {},
            secret=secret or {},
            transfers=tuple(transfers),
        )
        self.state.apply(event)
        self.events.append(event)
        if self.store is not None:
            self.store.append(event)

    def _seat(self, seat: int) -> int:
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalActionError(f"no seat {seat!r}: this table has seats 0 to {self.seats - 1}")
        return seat

    def _open(self) -> None:
        _illegal(self.phase is Phase.CLOSED, "the session has ended; reopen it first")

    def _amount(self, amount: int, what: str) -> int:
        _illegal(
            isinstance(amount, bool) or not isinstance(amount, int), f"{what} must be whole minor units, not {amount!r}"
        )
        _illegal(amount <= 0, f"{what} must be positive, not {amount}")
        return amount

    def _funds(self, transfers: list[Transfer]) -> None:
        self.state.ledger.check(transfers)

    # ---- money in and out --------------------------------------------------------------------

    def _deposit(self, seat: int, amount: int) -> None:
        self._open()
        seat, amount = self._seat(seat), self._amount(amount, "a deposit")
        self._emit("funds", seat, {"deposit": amount}, transfers=[(OUTSIDE, wallet(seat), amount)])

    def _withdraw(self, seat: int, amount: int) -> None:
        seat, amount = self._seat(seat), self._amount(amount, "a withdrawal")
        if amount > self.balance(seat):
            raise InsufficientFundsError(
                f"seat {seat} holds {self._fmt(self.balance(seat))}, cannot withdraw {self._fmt(amount)}"
            )
        self._emit("funds", seat, {"withdrawal": amount}, transfers=[(wallet(seat), OUTSIDE, amount)])

    def _set_limit(self, seat: int, amount: int | None) -> None:
        s = self.state.seats[self._seat(seat)]
        if amount is not None:
            self._amount(amount, "a personal limit")
        if not may_change_limit(s.limit_changed, self._now):
            assert s.limit_changed is not None
            again = next_week_start(s.limit_changed)
            raise IllegalActionError(
                f"the personal limit changes at most once a week: next from {again:%a %Y-%m-%d %H:%M %Z}"
            )
        self._emit("limit_set", seat, {"limit": amount})

    # ---- bets --------------------------------------------------------------------------------

    def _betting(self, seat: int) -> SeatState:
        self._open()
        _illegal(self.phase is Phase.DECIDING, "bets are closed: the cards are dealt")
        return self.state.seats[self._seat(seat)]

    def _place(self, seat: int, bets: Bets, **extra: Any) -> None:
        """Opens a round if none is open, then moves the difference between the old and new bets."""
        old = self.state.seats[seat].bets
        delta = bets.total - old.total
        moves = [(wallet(seat), table_spot(seat), delta)] if delta > 0 else [(table_spot(seat), wallet(seat), -delta)]
        moves = [m for m in moves if m[2]]
        try:
            self._funds(moves)
        except InsufficientFundsError:
            raise InsufficientFundsError(
                f"seat {seat} holds {self._fmt(self.balance(seat))}: cannot stake {self._fmt(bets.total)}"
            ) from None
        if self.phase is not Phase.BETTING:
            self._open_round()
        self._emit("bets", seat, {"bets": bets.to_dict(), **extra}, transfers=moves)

    def _open_round(self) -> None:
        number = self.state.round.number + 1
        seed = self._seeds(number)
        self._emit("round_opened", None, {"commitment": commitment(seed)}, secret={"seed": seed.hex()}, round=number)

    def _adjusted_ante(self, seat: int, s: SeatState, amount: int) -> int:
        lim, balance = self.limits, self.balance(seat) + s.bets.total
        _illegal(
            lim.adjust(amount) is None,
            f"an ante of {self._fmt(amount)} is outside the limits "
            f"{self._fmt(lim.minimum)} to {self._fmt(lim.maximum)}",
        )
        ante = lim.adjust(amount, balance)
        if ante is None:
            cap = f" ({lim.balance_fraction} of the balance)" if lim.balance_fraction else ""
            raise InsufficientFundsError(
                f"seat {seat} holds {self._fmt(balance)}: too little for {self._fmt(amount)}{cap}"
            )
        _illegal(
            s.limit is not None and ante > s.limit,
            f"an ante of {self._fmt(ante)} is over the personal limit {self._fmt(s.limit or 0)}",
        )
        for what, multiple in self._multiples():
            whole = (ante * multiple).denominator == 1
            _illegal(not whole, f"an ante of {ante} minor units makes a {what} of {ante * multiple}")
        return ante

    def _multiples(self) -> list[tuple[str, Fraction]]:
        fee = self.variant.exchanges.fee_antes if self.variant.exchanges else Fraction(0)
        return [("raise", self.variant.raise_multiple), ("exchange fee", fee)]

    def _ante(self, seat: int, amount: int) -> None:
        s = self._betting(seat)
        ante = self._adjusted_ante(seat, s, self._amount(amount, "an ante"))
        bets = replace(s.bets, ante=ante)
        p = self.variant.progressive
        if p and p.stays_ticked and s.ticked and not bets.progressive:
            bets = replace(bets, progressive=p.stake)
        self._place(seat, bets)

    def _progressive(self, seat: int, on: bool) -> None:
        s, p = self._betting(seat), self.variant.progressive
        _illegal(p is None, f"{self.variant.name} has no progressive bet")
        assert p is not None
        placed = bool(s.bets.progressive) and (s.ticked or not p.stays_ticked)
        _illegal(on and placed, f"seat {seat} has the progressive bet already")
        _illegal(not on and not s.bets.progressive and not s.ticked, f"seat {seat} has no progressive bet")
        self._place(seat, replace(s.bets, progressive=p.stake if on else 0), ticked=on and p.stays_ticked)

    def _side_bet(self, seat: int, name: str, amount: int) -> None:
        s = self._betting(seat)
        bet = self.variant.side_bet(name)
        if amount != 0:
            amount = self._amount(amount, f"the {name} bet")
            _illegal(amount < bet.minimum, f"the {name} bet is {self._fmt(bet.minimum)} to {self._fmt(bet.maximum)}")
            if amount > bet.maximum:
                _illegal(self.limits.above_maximum != "adjust", f"the {name} bet is at most {self._fmt(bet.maximum)}")
                amount = bet.maximum
        sides = dict(s.bets.side_bets) | {name: amount}
        self._place(seat, replace(s.bets, side_bets=tuple(sorted((k, v) for k, v in sides.items() if v))))

    def _clear(self, seat: int) -> None:
        s = self._betting(seat)
        _illegal(self.phase is not Phase.BETTING or s.bets.total == 0, f"seat {seat} has no bet to clear")
        self._place(seat, Bets(), ticked=False)

    def _rebet(self, seat: int) -> None:
        s = self._betting(seat)
        _illegal(s.last_bets is None, f"seat {seat} has no last round to repeat")
        _illegal(s.bets.total > 0, f"seat {seat} has bets already; clear them to rebet")
        assert s.last_bets is not None
        ante = self._adjusted_ante(seat, s, s.last_bets.ante)
        self._place(seat, replace(s.last_bets, ante=ante, raise_=0))

    # ---- the deal ------------------------------------------------------------------------------

    def _deal(self) -> None:
        self._open()
        _illegal(self.phase is not Phase.BETTING, "there is no open round to deal: place an ante")
        dealt = [k for k, s in enumerate(self.state.seats) if s.bets.ante]
        _illegal(not dealt, "no seat has an ante")
        self._deal_seats(dealt)

    def _deal_seats(self, dealt: list[int]) -> None:
        moves: list[Transfer] = []
        refunded = {}
        for k, s in enumerate(self.state.seats):
            if k not in dealt and s.bets.total:  # a side bet or progressive without an ante
                moves.append((table_spot(k), wallet(k), s.bets.total))
                refunded[str(k)] = Bets().to_dict()
            elif k in dealt and s.bets.progressive and self.variant.progressive:
                contribution = self.variant.progressive.contribution
                moves += [
                    (table_spot(k), "meter", contribution),
                    (table_spot(k), "house", s.bets.progressive - contribution),
                ]
        self._emit("dealing", None, {"seats": dealt, "refunded": refunded}, transfers=[m for m in moves if m[2]])
        hands, dealer, board = self._cards_for(dealt)
        for k in dealt:
            self._emit("dealt", k, private={"cards": hands[k]})
        public = {"up": dealer[-1:]} if self.variant.family is Family.STUD else {"flop": board[:3]}
        hole = dealer[:-1] if self.variant.family is Family.STUD else dealer
        self._emit("dealt", None, public, secret={"hole": hole, "turn_river": board[3:]})

    def _cards_for(self, dealt: list[int]) -> tuple[dict[int, list[int]], list[int], list[int]]:
        """Cards from the top of the seeded deck, one at a time clockwise from seat 0 to the dealer."""
        per_hand = 5 if self.variant.family is Family.STUD else 2
        deck = iter(self.state.round.deck)
        hands: dict[int, list[int]] = {k: [] for k in dealt}
        dealer: list[int] = []
        for _ in range(per_hand):
            for k in dealt:
                hands[k].append(next(deck))
            dealer.append(next(deck))
        board = [next(deck) for _ in range(5)] if self.variant.family is Family.HOLDEM else []
        return hands, dealer, board

    # ---- decisions -----------------------------------------------------------------------------

    def _deciding(self, seat: int) -> SeatState:
        self._open()
        s = self.state.seats[self._seat(seat)]
        _illegal(self.phase is not Phase.DECIDING, "there is no dealt round to decide")
        _illegal(not s.dealt, f"seat {seat} was not dealt into this round")
        _illegal(s.decision is not None, f"seat {seat} has decided already")
        return s

    def _fold(self, seat: int) -> None:
        self._deciding(seat)
        self._decide(seat, Decision.FOLD, auto=False)
        self._showdown_when_decided()

    def _raise(self, seat: int) -> None:
        self._deciding(seat)
        self._decide(seat, Decision.RAISE, auto=False)
        self._showdown_when_decided()

    def _raise_stake(self, s: SeatState) -> int:
        return int(s.bets.ante * self.variant.raise_multiple)

    def _decide(self, seat: int, decision: Decision, auto: bool) -> None:
        s = self.state.seats[seat]
        stake = self._raise_stake(s) if decision is Decision.RAISE else 0
        if stake > self.balance(seat):
            _illegal(not auto, f"seat {seat} holds {self._fmt(self.balance(seat))}: the raise needs {self._fmt(stake)}")
            decision, stake = Decision.FOLD, 0
        bets = replace(s.bets, raise_=stake)
        moves = [(wallet(seat), table_spot(seat), stake)] if stake else []
        self._emit("decided", seat, {"decision": str(decision), "auto": auto, "bets": bets.to_dict()}, transfers=moves)

    def _exchange(self, seat: int, cards: str) -> None:
        s = self._deciding(seat)
        x = self.variant.exchanges
        _illegal(x is None, f"{self.variant.name} has no exchanges")
        assert x is not None
        out = parse_cards(cards)
        _illegal(not set(out) <= set(s.cards), f"{cards} are not all in the seat's hand")
        _illegal(not 1 <= len(out) <= x.most_cards, f"exchange 1 to {x.most_cards} cards, not {len(out)}")
        _illegal(s.exchanges >= x.most_per_round, f"at most {x.most_per_round} exchanges a round")
        fee = int(s.bets.ante * x.fee_antes)
        need = fee + (self._raise_stake(s) if x.must_cover_call else 0)
        if need > self.balance(seat):
            raise InsufficientFundsError(
                f"an exchange needs {self._fmt(need)} (the fee and the call); "
                f"the seat holds {self._fmt(self.balance(seat))}"
            )
        drawn = self.state.round.next_cards(len(out))
        hand = [drawn[out.index(c)] if c in out else c for c in s.cards]
        moves = [(wallet(seat), "house", fee)] if fee else []
        private = {"cards": hand, "discarded": out, "drawn": drawn}
        self._emit("exchanged", seat, {"count": len(out), "fee": fee}, private, transfers=moves)

    def _auto_decide(self, seat: int) -> None:
        """A seat that timed out or disconnected: raise at the automatic threshold or better, else fold."""
        s, threshold = self.state.seats[seat], self.variant.timing.auto_raise
        first = [*s.cards, *self.state.round.board[:3]] if self.variant.family is Family.HOLDEM else s.cards
        raises = threshold is not None and threshold.admits(evaluate(first).strength)
        self._decide(seat, Decision.RAISE if raises else Decision.FOLD, auto=True)

    def _disconnect(self, seat: int) -> None:
        self._open()
        s = self.state.seats[self._seat(seat)]
        if self.phase is Phase.DECIDING and s.dealt and s.decision is None:
            self._auto_decide(seat)
            self._showdown_when_decided()
        elif self.phase is Phase.BETTING and s.bets.total:
            self._place(seat, Bets(), ticked=False)

    # ---- the end of a round ----------------------------------------------------------------------

    def undecided(self) -> list[int]:
        """The dealt seats still to decide this round."""
        return [k for k, s in enumerate(self.state.seats) if s.dealt and s.decision is None]

    def _showdown_when_decided(self) -> None:
        if self.undecided():
            return
        order = [k for k, s in reversed(list(enumerate(self.state.seats))) if s.dealt]  # counter-clockwise
        self._emit("revealed", None, revealed(self.state, self.variant, order))
        for paid in settle_seats(self.state, self.variant, order):
            self._emit("settled", paid.seat, paid.public(), transfers=paid.transfers)
        p, meter = self.variant.progressive, self.meter
        top_up = [("house", "meter", p.reset - meter)] if p and meter < p.reset else []
        self._emit("round_closed", None, {"void": False}, transfers=top_up)

    def _void(self, reason: str) -> None:
        """Every transfer of the round undone, last first: all bets and fees refunded."""
        undo = [(b, a, n) for a, b, n in reversed(self.state.round_transfers) if OUTSIDE not in (a, b)]
        self._emit("round_closed", None, {"void": True, "reason": reason}, transfers=undo)

    def _break_off(self, reason: str) -> None:
        """A dealt round broken off is completed or void by the variant's rule; bets not yet
        dealt are refunded."""
        void_dealt = self.variant.timing.unfinished is Unfinished.VOID
        if self.phase is Phase.BETTING or (self.phase is Phase.DECIDING and void_dealt):
            self._void(reason)
        elif self.phase is Phase.DECIDING:
            self._decide_for_the_rest()

    def _decide_for_the_rest(self) -> None:
        for k in self.undecided():
            self._auto_decide(k)
        self._showdown_when_decided()

    def _expired(self, since: datetime | None, seconds: float | None) -> bool:
        return since is not None and seconds is not None and self._now >= since + timedelta(seconds=seconds)

    def _tick(self) -> None:
        t, state = self.variant.timing, self.state
        if self.phase is Phase.CLOSED:
            return
        if self._expired(state.last_activity, t.idle_seconds):
            self._break_off("idle session")
            self._emit("session_ended", None, {"reason": "idle"})
        elif self.phase is Phase.BETTING and self._expired(state.round.opened_at, t.bet_seconds):
            dealt = [k for k, s in enumerate(state.seats) if s.bets.ante]
            self._deal_seats(dealt) if dealt else self._void("no ante before the bet time ran out")
        elif self.phase is Phase.DECIDING and self._expired(state.round.dealt_at, t.decision_seconds):
            self._decide_for_the_rest()

    def _fault(self, reason: str) -> None:
        _illegal(self.phase not in (Phase.BETTING, Phase.DECIDING), "no round is open")
        self._void(reason)

    def _restore(self) -> None:
        """Emitted once a table is restored from its record: the open round goes on or is void by
        the variant's rule."""
        self._emit("restored", None, {"phase": str(self.phase)})
        if self.phase is Phase.DECIDING and self.variant.timing.unfinished is Unfinished.VOID:
            self._void("restored after a fault")

    def _reopen(self) -> None:
        _illegal(self.phase is not Phase.CLOSED, "the session is open")
        self._emit("session_opened")

    def _fmt(self, minor: int) -> str:
        return self.variant.currency.format(minor)

    @contextmanager
    def clock_at(self, moment: datetime) -> Iterator[None]:
        """Runs the block with the clock stopped at `moment` (replays)."""
        saved, self.clock = self.clock, lambda: moment
        try:
            yield
        finally:
            self.clock = saved


def _meter_seed(p: Any) -> list[Transfer]:
    """The house seeds the progressive meter with its reset value when the table opens."""
    return [("house", "meter", p.reset)] if p is not None and p.reset else []
