"""The machinery every table shares: state, clock, seeds, store, and how a command runs.

A command's handler (`_ante`, `_raise`, ... in `betting` and `rounds`) checks everything first and
raises IllegalActionError or InsufficientFundsError without changing anything; only then does it
emit events, and only applying an event changes the state (`state.TableState.apply`). The first
event a command emits is the command itself, so a record can be replayed: `replay` runs the
recorded commands again and must get the recorded events back. A player's command keeps its checks
in one method of their own (`_check_ante`, ...), which the command runs before it emits and which
`can_ante` and `Table.actions` run alone: one place for each rule, and asking costs no more than
the checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import ArgumentError, ArgumentTypeError, CaribbeanFastError, IllegalActionError, InsufficientFundsError
from ..variants import Variant, as_variant
from ..variants.model import MAX_AMOUNT
from ..variants.toml_io import to_toml
from .accounts import AccountBook, Pool
from .commands import EngineCommand
from .events import Event, Transfer
from .ledger import table_spot, wallet
from .shuffle import SecureSeeds, SeededSeeds, SeedSource, commitment
from .state import Bets, Change, EventKind, Phase, SeatState, TableState, commanded
from .store import EventStore

__all__ = ["EDITION", "KEEP", "Clock", "Placement", "TableCore", "illegal", "times", "utc_now"]

Clock = Callable[[], datetime]

EDITION = 4
"""The rules' edition a new table plays by, written in its record's meta data, so that a record
keeps replaying by the rules it was played under. Edition 1 (records without one): a lost
connection decided a one-seat round (folded it, or raised at the automatic threshold), and a
restored Casino Hold'em round was void. Edition 2: a one-seat round waits for its player
(`Rounds._disconnect`, `Timing.open_round_seconds`) and a restore voids nothing. Edition 3: the
settled event carries each bet's result (`results.spot_results`), so no view settles again. Edition 4:
the seats may add seeds of their own, which cut the committed deck before the deal (`seeding`); a
round no seat added a seed to is dealt as before."""

KEEP = 256
"""At most this many events stay in memory for a table with a store: the rules read only the
state, and the record is the store's, so a table serving for months holds the current round's
events (up to this many), never its whole past. A table with no store keeps every event: its
memory is its only record."""


_NOTHING: dict[str, Any] = {}
"""The part of an event that says nothing (most events' private and secret parts): one for every
event, as events are never changed (a table holds a round's events, three parts each)."""


_new = object.__new__


def utc_now() -> datetime:
    return datetime.now(UTC)


class Placement(NamedTuple):
    """Bets a check has found the seat may place: the money they move from or back to its wallet,
    and what the `bets` event says besides."""

    seat: int
    bets: Bets
    moves: list[Transfer]
    extra: dict[str, Any]


def times(amount: int, ratio: Fraction) -> int:
    """`amount` times a non-negative ratio in whole minor units, rounded down (a raise's stake, an
    exchange fee), in integers: Fraction arithmetic costs more than the rest of a check."""
    return amount * ratio.numerator // ratio.denominator


def illegal(condition: bool, reason: str) -> None:
    if condition:
        raise IllegalActionError(reason)


class TableCore:
    """A table's state and machinery; the rules are in `betting.Betting` and `rounds.Rounds`."""

    def __init__(
        self,
        variant: Variant | str | Path,
        *,
        seats: int | None = None,
        limits: int = 0,
        seed: int | None = None,
        seeds: SeedSource | None = None,
        clock: Clock | None = None,
        store: EventStore | None = None,
        book: AccountBook | None = None,
        pool: Pool | None = None,
        accounts: Sequence[str] | None = None,
        edition: int = EDITION,
    ) -> None:
        variant = as_variant(variant)  # a preset name or a TOML path too
        if store is not None and not callable(getattr(store, "begin", None)):  # a path is the likely slip
            given = f"{type(store).__name__} {store!r:.60}"
            raise ArgumentTypeError(f"store: an event store such as SqliteStore(path), not {given}")
        seats = variant.seats if seats is None else seats
        self.check_config(variant, seats, limits)
        self.variant, self.limits, self.seed = variant, variant.limits[limits], seed
        self.config = {"seats": seats, "limits": limits, "seed": seed}
        if isinstance(edition, bool) or edition not in range(1, EDITION + 1):
            raise ArgumentError(f"edition: the rules' editions are 1 to {EDITION}, not {edition!r}")
        self.edition = edition
        self.clock: Clock = clock or utc_now
        self._seeds: SeedSource = seeds or (SecureSeeds() if seed is None else SeededSeeds(seed))
        self.state = TableState([SeatState() for _ in range(seats)])
        self.events: list[Event] = []  # in memory: every event, or with a store the last ones (KEEP)
        self.seq = 0  # the events emitted so far: the next event's seq
        self._round_at = 0  # where the open (or last) round's opening is in `events`
        self.store = store
        # The account of each seat in `book`, where the personal limit of every game lives.
        self.book, self.accounts = book, list(accounts or [f"seat-{k}" for k in range(seats)])
        self.pool = pool  # a progressive pool shared with other tables: read at each showdown
        if len(self.accounts) != seats:
            raise ArgumentError(f"{len(self.accounts)} accounts for {seats} seats")
        self._pending: tuple[EngineCommand, dict[str, Any]] | None = None
        self._replaying = False  # `clock_at`: the recorded times of a replay, taken as written
        self._now = self._clock_reading()
        if store is not None:
            meta = {"variant": to_toml(variant), "accounts": json.dumps(self.accounts), "edition": str(edition)}
            store.begin(meta | {k: str(v) for k, v in self.config.items()})  # refuses a store holding a table
        p = variant.progressive
        self._emit(EventKind.TABLE_OPENED, public={"variant": variant.name, **self.config}, transfers=_meter_seed(p))
        self._record(0)

    @staticmethod
    def check_config(variant: Variant, seats: int, limits: int = 0) -> None:
        """Raises ArgumentError for a table this variant cannot have (check before opening
        a store for it)."""
        if not 1 <= seats <= variant.seats:
            raise ArgumentError(f"{variant.name} seats 1 to {variant.seats}, not {seats}")
        if not 0 <= limits < len(variant.limits):
            raise ArgumentError(f"{variant.name} has limit tables 0 to {len(variant.limits) - 1}, not {limits}")

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def round(self) -> int:
        return self.state.round.number

    @property
    def between_rounds(self) -> bool:
        """No round is open (nothing bet or dealt): what a host asks before moving the table."""
        return self.state.phase in (Phase.WAITING, Phase.SETTLED, Phase.CLOSED)

    @property
    def session_ended(self) -> bool:
        """An idle session ended it (`reopen` opens it again)."""
        return self.state.phase is Phase.CLOSED

    @property
    def seats(self) -> int:
        return len(self.state.seats)

    def balance(self, seat: int) -> int:
        return self._held(self._seat(seat))

    def _held(self, seat: int) -> int:
        """The wallet of a seat already checked (`_seat`): what the rules read, unchecked again."""
        return self.state.ledger.balances[wallet(seat)]

    @property
    def dealt(self) -> bool:
        """A round is dealt and not settled: the next decision, tick or disconnect may settle it
        (and its showdown read the `pool`)."""
        return self.state.phase is Phase.DECIDING

    @property
    def meter(self) -> int:
        return self.state.ledger.balance("meter")

    @property
    def house(self) -> int:
        return self.state.ledger.balance("house")

    def undecided(self) -> list[int]:
        """The dealt seats still to decide this round."""
        return [k for k, s in enumerate(self.state.seats) if s.dealt and s.decision is None]

    def _run(self, command: EngineCommand, **args: Any) -> list[Event]:
        """Runs one command of the engine's list (`commands`) at the clock's time, by the handler
        its entry holds; returns the events it emitted (none: it did nothing and is not recorded)."""
        self._now = self._clock_reading()
        start = self.seq
        self._pending = (command, args)
        try:
            command.handler(self, **args)
        finally:
            self._pending = None
            produced = self._record(start)
        self._forget()
        return produced

    def _record(self, start: int) -> list[Event]:
        """The events emitted from event `start` on, written to the store as one row: a
        command's (what a command changed is written even when it fails midway)."""
        produced = self.events[len(self.events) - (self.seq - start) :] if self.seq > start else []
        if produced and self.store is not None:
            self.store.append(produced)
        return produced

    def _clock_reading(self) -> datetime:
        """The clock's time for a command: aware of its zone, and never before the table's last
        event (the record's times only move forward). The system clock stepped back (a time
        server's correction) reads as the last event's time; a clock of the caller's that goes
        back is refused."""
        now = self.clock()
        if self.clock is utc_now:  # aware by construction: only a step back is read as the last event's time
            return max(now, self.events[-1].time) if self.events else now
        if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
            raise ArgumentTypeError(f"clock: must give timezone-aware datetimes, not {now!r:.60}")
        last = self.events[-1].time if self.events else None
        if last is not None and now < last and not self._replaying:
            raise ArgumentError(f"clock: {now.isoformat()} is before the table's last event at {last.isoformat()}")
        return now

    def _forget(self) -> None:
        """With a store, drops the events before the latest round's opening, and any beyond the
        last KEEP: the store has them all."""
        if self.store is None:
            return
        cut = max(self._round_at, len(self.events) - KEEP)
        if cut > 0:
            del self.events[:cut]
            self._round_at = max(0, self._round_at - cut)

    def let_go(self) -> None:
        """With a store, lets go of every event but the last (its time and hash are read on): the
        store holds them, and whoever serves the table has read them (a server keeps a thousand
        tables' rounds between commands). A table lets go of its views' work too (`Table`)."""
        if self.store is not None and len(self.events) > 1:
            del self.events[:-1]
            self._round_at = 0

    def recorded(self, since: int = 0) -> list[Event]:
        """The table's events from event `since` on: the store's record, or the memory of a table
        without one."""
        if self.store is None:
            return self.events[since:]
        return [e for row in self.store.rows(since) for e in row.events if e.seq >= since]

    @staticmethod
    def _allows(check: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
        """Whether a command's checks (`_check_ante`, ...) pass: they raise, changing nothing,
        where the command would be refused."""
        try:
            check(*args, **kwargs)
        except CaribbeanFastError:
            return False
        return True

    def _emit(
        self,
        kind: EventKind,
        seat: int | None = None,
        public: dict[str, Any] | None = None,
        private: dict[str, Any] | None = None,
        secret: dict[str, Any] | None = None,
        transfers: tuple[Transfer, ...] | list[Transfer] = (),
        round: int | None = None,
    ) -> None:
        """Writes an event of `kind` and applies it by its kind's change; the running command's
        own event comes first."""
        if self._pending is not None:
            command, args = self._pending
            self._pending = None
            self._write(command.name, commanded, args.get("seat"), {"args": args}, None, None, (), None)
        if kind is EventKind.ROUND_OPENED:
            self._round_at = len(self.events)
        self._write(kind.text, kind.change, seat, public, private, secret, transfers, round)

    def _write(
        self,
        kind: str,
        change: Change,
        seat: int | None,
        public: dict[str, Any] | None,
        private: dict[str, Any] | None,
        secret: dict[str, Any] | None,
        transfers: tuple[Transfer, ...] | list[Transfer],
        round: int | None,
    ) -> None:
        # `events.built` written out: a dozen events a round, and its call costs a third of it
        event = _new(Event)
        event.__dict__.update(
            seq=self.seq,
            round=self.state.round.number if round is None else round,
            kind=kind,
            time=self._now,
            seat=seat,
            public=public or _NOTHING,
            private=private or _NOTHING,
            secret=secret or _NOTHING,
            transfers=tuple(transfers),
        )
        self.state.apply(event, change)
        self.events.append(event)
        self.seq += 1

    def _seat(self, seat: int) -> int:
        if not isinstance(seat, int) or not 0 <= seat < len(self.state.seats):
            raise ArgumentError(f"no seat {seat!r}: this table has seats 0 to {self.seats - 1}")
        return seat

    def _open(self) -> None:
        if self.state.phase is Phase.CLOSED:
            raise IllegalActionError("the session has ended; reopen it first")

    def _amount(self, amount: int, what: str) -> int:
        illegal(
            isinstance(amount, bool) or not isinstance(amount, int), f"{what} must be whole minor units, not {amount!r}"
        )
        if amount <= 0:  # the messages are written only when needed: `actions` runs this per view
            raise IllegalActionError(f"{what} must be positive, not {self._fmt(amount)}")
        if amount > MAX_AMOUNT:
            raise IllegalActionError(f"{what} must be at most {self._fmt(MAX_AMOUNT)}, not {self._fmt(amount)}")
        return amount

    def _placement(self, seat: int, bets: Bets, **extra: Any) -> Placement:
        """The checks of placing `bets` in place of the seat's: the wallet pays the difference
        and keeps the raise they may need (a lower bet's difference comes back from the table,
        which holds the seat's bets: the ledger checks that)."""
        delta, held = bets.total - self.state.seats[seat].bets.total, self._held(seat)
        moves: list[Transfer] = []
        if delta > 0:
            moves.append((wallet(seat), table_spot(seat), delta))
        elif delta < 0:
            moves.append((table_spot(seat), wallet(seat), -delta))
        if delta > held or (delta < 0 and not self._allows(self.state.ledger.check, moves)):
            raise InsufficientFundsError(
                f"seat {seat + 1} holds {self._fmt(held)}: cannot stake {self._fmt(bets.total)}"
            )
        self._covers_the_raise(seat, bets, held - delta)
        return Placement(seat, bets, moves, extra)

    def _place(self, placed: Placement) -> None:
        """Opens a round if none is open, then moves the difference between the old and new bets."""
        if self.phase is not Phase.BETTING:
            self._open_round()
        public = {"bets": placed.bets.to_dict(), **placed.extra}
        self._emit(EventKind.BETS, placed.seat, public, transfers=placed.moves)

    def _covers_the_raise(self, seat: int, bets: Bets, left: int) -> None:
        """An ante is taken only while the wallet keeps its raise (call): a seat dealt in can then
        always play its hand, as online tables require, rather than only fold."""
        need = self._raise_for(bets.ante)
        if need > left:
            word = self.variant.raise_word
            raise InsufficientFundsError(
                f"seat {seat + 1} holds {self._fmt(left + bets.total)}: bets of {self._fmt(bets.total)} "
                f"and the {word} of {self._fmt(need)} they may need come to {self._fmt(bets.total + need)}"
            )

    @cached_property
    def _raise_ratio(self) -> tuple[int, int]:
        """The variant's raise multiple as two integers: a Fraction reads its parts through
        properties, and the checks of every command and view ask for a raise."""
        r = self.variant.raise_multiple
        return r.numerator, r.denominator

    def _raise_for(self, ante: int) -> int:
        """The raise (call) an ante makes: `times(ante, raise_multiple)`."""
        n, d = self._raise_ratio
        return ante * n // d

    def _open_round(self) -> None:
        number = self.state.round.number + 1
        seed = self._seeds(number)
        self._emit(
            EventKind.ROUND_OPENED, None, {"commitment": commitment(seed)}, secret={"seed": seed.hex()}, round=number
        )

    def _fmt(self, minor: int) -> str:
        return self.variant.currency.format(minor)

    @contextmanager
    def clock_at(self, moment: datetime) -> Iterator[None]:
        """Runs the block with the clock stopped at `moment` (replays: a recorded time is taken as
        it was written, even one a stepped-back system clock wrote before an earlier one's)."""
        saved, self.clock = self.clock, lambda: moment
        self._replaying = True
        try:
            yield
        finally:
            self.clock, self._replaying = saved, False


def _meter_seed(p: Any) -> list[Transfer]:
    """The house seeds the progressive meter with its reset value when the table opens."""
    return [("house", "meter", p.reset)] if p is not None and p.reset else []
