"""`Table`: one game's live table. Seats, wallets, rounds as state machines, every step an event.

Each action has its check (`can_raise(seat)`) and the action itself (`raise_(seat)`); an action
returns the events it caused, and a refused one raises and changes nothing. Both run the same
checks (`_check_raise`), as does `actions`, which a server asks for every view it sends. The rules live in
`betting` (before the deal) and `rounds` (after it); `core` runs them.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from functools import cache, cached_property
from typing import Any

from ..cards import CardsLike, format_cards, parse_cards
from ..errors import ArgumentError, CaribbeanFastError, IllegalActionError, require_type
from ..variants import ExchangeCards, Exchanges
from ..variants.model import MAX_AMOUNT
from .betting import Betting
from .commands import (
    ADOPT,
    ANTE,
    AWAY,
    BACK,
    CLEAR,
    COMMIT_SEED,
    COMPLETE,
    DEAL,
    DEPOSIT,
    DISCONNECT,
    ENGINE,
    EXCHANGE,
    FAULT,
    FOLD,
    LEAVE,
    PROGRESSIVE,
    RAISE,
    REBET,
    REOPEN,
    RESTORE,
    REVEAL_SEED,
    SET_LIMIT,
    SIDE_BET,
    SIT,
    TICK,
    WITHDRAW,
    EngineCommand,
    plays,
)
from .core import Clock, illegal, times
from .events import Event
from .history import seat_history
from .ledger import table_spot
from .limits import check_limit_change
from .paytable import VariantChange
from .seats import STAND_AFTER, Seating
from .seeding import SEEDS_EDITION
from .state import Phase, SeatState
from .views import SeatView, ViewCache, seat_view

__all__ = ["Clock", "Table"]

RECALL_WINDOW = 32
"""Events read back per round asked for by game recall, at first (a round is about a dozen)."""


class Table(Betting, Seating, VariantChange):
    """A live table. Amounts are integers of the variant's minor unit."""

    def view(self, seat: int | None) -> SeatView:
        """What `seat` is shown (None: an onlooker): never the dealer's hidden cards before the
        showdown, never another seat's cards, and only the rounds its holder could be dealt into."""
        if seat is None:
            return seat_view(self.state, self.variant, None, (), None, self._views, version=self.seq)
        k = self._seat(seat)
        limit = self._limit_of(k)
        most, actions = self.ante_most(k, limit), self._actions(k, limit)
        return seat_view(self.state, self.variant, k, actions, limit, self._views, self.seeds_open(), most, self.seq)

    @cached_property
    def _views(self) -> ViewCache:
        """What the views of the current round work out once: the table's, never its state's."""
        return ViewCache()

    def let_go(self) -> None:
        """Lets go of what the record and the sent views hold: the events read (`TableCore`) and
        what the round's views worked out (`ViewCache.let_go`), made again if a view is asked."""
        super().let_go()
        self._views.let_go()

    def history(self, seat: int, last: int = 10) -> list[list[dict[str, Any]]]:
        """Game recall: the last `last` rounds `seat`'s holder was dealt into, every step as it saw
        it (read from the store, when the table has one: memory holds only the latest round)."""
        k, window = self._seat(seat), RECALL_WINDOW * max(last, 1)
        first = self.state.seats[k].since
        while True:  # the latest events first: a screen asks every second, a long record is large
            since = max(0, self.seq - window)
            rounds = [r for r in seat_history(self.recorded(since), k, last + 1) if r[0]["round"] >= first]
            if len(rounds) >= last or since == 0:
                return rounds[-last:] if last > 0 else []
            window *= 4

    @property
    def last_closed(self) -> int:
        """The latest round that has ended (0: none yet)."""
        return self.round - 1 if self.phase in (Phase.BETTING, Phase.DECIDING) else self.round

    def actions(self, seat: int) -> list[str]:
        """The actions `seat` may take now, with their usual arguments: the seat's ante (or its
        last round's, or the table minimum), and for a seat that chooses what to exchange, one
        card. Worked out from the phase and the seat's state (a server asks for every view it
        sends): what the commands' own checks would allow, which `reference_actions` asks them
        (the tests hold the two equal over random play of every game)."""
        k = self._seat(seat)
        return self._actions(k, self.personal_limit(k))

    def _actions(self, k: int, limit: int | None) -> list[str]:
        """`actions` of a seat already checked, under its personal `limit` (a view has read it)."""
        phase = self.state.phase
        if phase is Phase.CLOSED:
            return []
        s = self.state.seats[k]
        if phase is Phase.DECIDING:
            if not s.dealt or s.decision is not None:
                return []
            found = ["raise"] if self._affords_raise(k, s) else []
            found.append("fold")  # a dealt seat still to decide may always fold (`_check_fold`)
            if self.variant.exchanges is not None and self._may_exchange(k, s, self.variant.exchanges):
                found.append("exchange")  # game 4 only
            return found
        if self.state.round.sealed:  # bets closed: the seats reveal their seeds (`seeding`)
            return ["reveal_seed"] if k in self._unrevealed() else []
        found = self._lean_bets(k, s, limit)
        if phase is Phase.BETTING and not self._waiting() and any(t.bets.ante for t in self.state.seats):
            found.append("deal")  # `_check_deal`'s whole rule, in a round open for bets
        return found

    def _may_exchange(self, k: int, s: SeatState, x: Exchanges) -> bool:
        """`_check_some_exchange` without its messages, for a dealt seat still to decide: its usual
        cards (the whole hand, or where the seat chooses, its first card) are in its hand, an
        exchange is left this round, and the wallet pays its fee and the call still to come."""
        need = times(s.bets.ante, x.fee_antes) + (self._raise_stake(s) if x.must_cover_call else 0)
        return bool(s.cards) and s.exchanges < x.most_per_round and need <= self._held(k)

    def _lean_bets(self, k: int, s: SeatState, limit: int | None) -> list[str]:
        """The bet commands `_bet_actions` finds by their checks, from the seat's state: each as
        the total its bets would come to and their ante (no bets made to be looked at)."""
        p, now, held = self.variant.progressive, s.bets, self._held(k)
        total, n, d = now.total, *self._raise_ratio
        on_table = self.state.ledger.balances[table_spot(k)] if total else 0  # none: nothing comes back

        def fits(after: int, ante: int, before: int = total) -> bool:
            """`_placement`'s checks without its messages, for bets of `after` in all and `ante`
            in place of bets of `before`: the wallet pays the difference and keeps the raise
            they may need."""
            delta = after - before
            return delta <= held and -delta <= on_table and ante * n // d <= held - delta

        ante = self._lean_ante(
            held + total, now.ante or (s.last_bets.ante if s.last_bets else self.limits.minimum), limit
        )
        found = []
        if ante is not None:
            ticked = p.stake if p is not None and p.stays_ticked and s.ticked and not now.progressive else 0
            if fits(total - now.ante + ante + ticked, ante):
                found.append("ante")
        placed = p is None or (now.progressive and (s.ticked or not p.stays_ticked))  # or none offered
        if p is not None and not placed and fits(total - now.progressive + p.stake, now.ante):
            found.append("progressive")
        # With no bets, the ante above was the last round's: its adjusted ante is the rebet's (no raise).
        last = s.last_bets if not total and ante is not None else None
        if last is not None and ante is not None and fits(last.total - last.raise_ - last.ante + ante, ante, 0):
            found.append("rebet")
        if self.state.phase is Phase.BETTING and total:  # `_check_clear`'s whole rule
            found.append("clear")
        return found

    def _lean_ante(self, balance: int, amount: int, limit: int | None) -> int | None:
        """`_adjusted_ante` without its messages, for a seat of `balance` (its wallet and its bets):
        the ante the limits make of `amount`, or None where they refuse it."""
        lim = self.limits
        if not 0 < amount <= MAX_AMOUNT or lim.adjust(amount) is None:
            return None
        ante = lim.adjust(amount, balance)
        if ante is None or (limit is not None and ante > limit):
            return None
        return None if ante % self._ante_unit else ante

    def reference_actions(self, seat: int) -> list[str]:
        """`actions` by the commands' own checks: the phase and the seat's state say which
        commands could run at all, their checks decide those that could."""
        k, phase = self._seat(seat), self.phase
        if phase is Phase.CLOSED:
            return []
        if phase is Phase.DECIDING:
            s = self.state.seats[k]
            return self._decision_actions(k) if s.dealt and s.decision is None else []
        if self.state.round.sealed:  # bets closed: the seats reveal their seeds (`seeding`)
            return ["reveal_seed"] if k in self._unrevealed() else []
        found = self._bet_actions(k)
        if phase is Phase.BETTING and self._allows(self._check_deal):
            found.append("deal")
        return found

    def _bet_actions(self, k: int) -> list[str]:
        s = self.state.seats[k]
        ante = s.bets.ante or (s.last_bets.ante if s.last_bets else self.limits.minimum)
        account = self._account(k)
        found = ["ante"] if self._allows(self._check_ante, k, ante, **account) else []
        if self.variant.progressive is not None and self._allows(self._check_progressive, k, True):
            found.append("progressive")
        if s.last_bets is not None and not s.bets.total and self._allows(self._check_rebet, k, **account):
            found.append("rebet")
        if self.phase is Phase.BETTING and s.bets.total:  # `_check_clear`'s whole rule
            found.append("clear")
        return found

    def _decision_actions(self, k: int) -> list[str]:
        found = ["raise"] if self._allows(self._check_raise, k) else []
        found.append("fold")  # a dealt seat still to decide may always fold (`_check_fold`)
        if self.variant.exchanges is not None and self._allows(self._check_some_exchange, k):
            found.append("exchange")
        return found

    # ---- commands --------------------------------------------------------------------------------

    def sit(self, seat: int, account: str, amount: int) -> list[Event]:
        """`account` takes the free seat with a buy-in of `amount` (from outside the table)."""
        return self._run(SIT, seat=seat, account=account, amount=amount)

    def adopt(self, seat: int, account: str, since: int = 0) -> list[Event]:
        """A seat a server's record held from before the engine kept the seats: `account` holds it
        from round `since` on, with the money the record left on it."""
        return self._run(ADOPT, seat=seat, account=account, since=since)

    def leave(self, seat: int) -> list[Event]:
        """The holder leaves: bets not yet dealt come back, and the seat's money leaves the table
        (refused while its hand is in play)."""
        return self._run(LEAVE, seat=seat)

    def away(self, seat: int, stand_after: float = STAND_AFTER) -> list[Event]:
        """The holder has no connection (after the server's grace period): the game's disconnect
        rule, and the seat stood up once `stand_after` seconds pass between rounds."""
        return self._run(AWAY, seat=seat, stand_after=stand_after)

    def back(self, seat: int) -> list[Event]:
        """The holder is connected again: the seat stays (nothing is recorded if it was not away)."""
        return self._run(BACK, seat=seat)

    def deposit(self, seat: int, amount: int) -> list[Event]:
        return self._run(DEPOSIT, seat=seat, amount=amount)

    def withdraw(self, seat: int, amount: int) -> list[Event]:
        return self._run(WITHDRAW, seat=seat, amount=amount)

    @plays(SET_LIMIT)
    def set_limit(self, seat: int, amount: int | None) -> list[Event]:
        """The seat's personal bet limit on the ante (None removes it); it may change once a week,
        on every game of the account where the table has an account book."""
        if self.book is not None:
            check_limit_change(*self.book.limit(self.account(self._seat(seat))), amount, self.clock())
        events = self._run(SET_LIMIT, seat=seat, amount=amount)
        if self.book is not None:
            self.book.set_limit(self.account(seat), amount, events[0].time)
        return events

    def account(self, seat: int) -> str:
        """The account of the seat's holder, or the table's own name for the seat."""
        return self.state.seats[seat].account or self.accounts[seat]

    def personal_limit(self, seat: int) -> int | None:
        """The personal limit on the seat's ante: the account book's, or the table's own."""
        return self._limit_of(self._seat(seat))

    def _limit_of(self, k: int) -> int | None:
        """`personal_limit` of a seat already checked (a view has checked it)."""
        if self.book is not None:
            return self.book.limit(self.account(k))[0]
        return self.state.seats[k].limit

    def ante_most(self, seat: int, personal: int | None) -> int:
        """The largest ante the seat may place now: the table's maximum, the part of the seat's
        money the limits allow (game 1: a third), and its `personal` limit, whichever is least."""
        lim, held, f = self.limits, self._held(seat) + self.state.seats[seat].bets.total, self.limits.balance_fraction
        top = lim.maximum if f is None else min(lim.maximum, held * f.numerator // f.denominator)  # held >= 0
        return top if personal is None else min(top, personal)

    def _account(self, seat: int) -> dict[str, Any]:
        """The account book's word on the limit, recorded with the command that reads it."""
        if self.book is None or not (isinstance(seat, int) and 0 <= seat < self.seats):
            return {}  # no book, or a seat the command itself will refuse
        return {"account": {"limit": self.personal_limit(seat)}}

    @plays(ANTE)
    def ante(self, seat: int, amount: int) -> list[Event]:
        """Places or changes the ante; a bet outside the limits is adjusted as the game states."""
        return self._run(ANTE, seat=seat, amount=amount, **self._account(seat))

    @plays(PROGRESSIVE)
    def progressive(self, seat: int, on: bool = True) -> list[Event]:
        return self._run(PROGRESSIVE, seat=seat, on=on)

    @plays(SIDE_BET)
    def side_bet(self, seat: int, name: str, amount: int) -> list[Event]:
        """Places, changes or (amount 0) removes a side bet such as the AA Bonus."""
        return self._run(SIDE_BET, seat=seat, name=name, amount=amount)

    @plays(CLEAR)
    def clear(self, seat: int) -> list[Event]:
        return self._run(CLEAR, seat=seat)

    @plays(REBET)
    def rebet(self, seat: int) -> list[Event]:
        """Repeats the bets of the last round the seat was dealt into."""
        return self._run(REBET, seat=seat, **self._account(seat))

    @plays(DEAL)
    def deal(self) -> list[Event]:
        return self._run(DEAL)

    @plays(COMMIT_SEED)
    def commit_seed(self, seat: int, commitment: str) -> list[Event]:
        """The seat commits to a seed of its own (`commitment`: its SHA-256, hex) while bets are
        open; it reveals it once bets close (`reveal_seed`), and the seeds cut the deck."""
        return self._run(COMMIT_SEED, seat=seat, commitment=commitment)

    @plays(REVEAL_SEED)
    def reveal_seed(self, seat: int, seed: str) -> list[Event]:
        """The seed (hex) the seat committed to; the last seed in deals the round."""
        return self._run(REVEAL_SEED, seat=seat, seed=seed)

    def seeds_open(self) -> bool:
        """Whether a seat may commit to a seed now."""
        return self.edition >= SEEDS_EDITION and self.phase is Phase.BETTING and not self.state.round.sealed

    @plays(FOLD)
    def fold(self, seat: int) -> list[Event]:
        return self._run(FOLD, seat=seat)

    @plays(RAISE)
    def raise_(self, seat: int) -> list[Event]:
        return self._run(RAISE, seat=seat)

    call = raise_  # hold'em and game 4 name the same spot "call"

    @plays(EXCHANGE)
    def exchange(self, seat: int, cards: CardsLike | None = None) -> list[Event]:
        """Game 4: gives up the seat's five cards (`cards` omitted, or all five named) for five
        new ones from the undealt cards, for a fee; a variant that lets the seat choose takes the
        cards to give up."""
        return self._run(EXCHANGE, seat=seat, cards="" if cards is None else format_cards(parse_cards(cards)))

    def disconnect(self, seat: int) -> list[Event]:
        return self._run(DISCONNECT, seat=seat)

    def complete(self, seat: int, decision: str) -> list[Event]:
        """A one-seat round left open past `timing.open_round_seconds` (`overdue`), completed by
        the decision the host brings from the best strategy ("raise" or "fold"), as automatic."""
        return self._run(COMPLETE, seat=seat, decision=decision)

    def tick(self) -> list[Event]:
        """Applies whatever the clock says has run out: bet and decision time, an idle session."""
        return self._run(TICK)

    def fault(self, reason: str = "fault") -> list[Event]:
        """A fault broke the round: a dealt round is completed or void by the variant's rule
        (`timing.unfinished`: the stud games complete it, Casino Hold'em voids it); bets not yet
        dealt are refunded."""
        return self._run(FAULT, reason=reason)

    def reopen(self) -> list[Event]:
        return self._run(REOPEN)

    def restored(self) -> list[Event]:
        """Recorded once the table is restored from its record (`replay.restore`): the open round
        goes on (a one-seat game's waits for its player) or is void by the variant's rule."""
        return self._run(RESTORE)

    def play(self, seat: int, command: EngineCommand, args: Mapping[str, Any]) -> list[Event]:
        """A player's command (the server's protocol, the terminal client's keys) by its entry of
        the engine's list, found where it came in, its other fields in `args`: the entry holds the
        public method that runs it and says which fields it takes."""
        player = command.player
        if player is None:
            raise IllegalActionError(f"{command.name!r} is not a player's command")
        fields = {name: args[name] for name in command.fields if name in args}
        if command.whole_hand and not args.get("cards"):
            fields["cards"] = self.view(seat).cards  # no cards named: the whole hand
        events: list[Event] = player(self, seat, **fields) if command.seated else player(self, **fields)
        return events

    def execute(self, kind: str, args: dict[str, Any]) -> list[Event]:
        """Runs a command by its recorded name and arguments (replays: the record's name is looked
        up here, once); ArgumentError naming an argument missing or unknown, before anything runs."""
        command = ENGINE.get(kind)
        illegal(command is None, f"{kind!r} is not a command")
        assert command is not None
        require_type(args, Mapping, f"{kind}'s arguments: a mapping of names to values")
        try:
            _signature(command).bind(self, **args)
        except TypeError as err:
            raise ArgumentError(f"{kind}: {err}") from None
        return self._run(command, **args)

    # ---- checks alone: the commands' own --------------------------------------------------------

    def can_ante(self, seat: int, amount: int) -> bool:
        return self._allows(self._check_ante, seat, amount, **self._account(seat))

    def can_progressive(self, seat: int, on: bool = True) -> bool:
        return self._allows(self._check_progressive, seat, on)

    def can_side_bet(self, seat: int, name: str, amount: int) -> bool:
        return self._allows(self._check_side_bet, seat, name, amount)

    def can_clear(self, seat: int) -> bool:
        return self._allows(self._check_clear, seat)

    def can_rebet(self, seat: int) -> bool:
        return self._allows(self._check_rebet, seat, **self._account(seat))

    def can_deal(self) -> bool:
        return self._allows(self._check_deal)

    def can_fold(self, seat: int) -> bool:
        return self._allows(self._check_fold, seat)

    def can_raise(self, seat: int) -> bool:
        return self._allows(self._check_raise, seat)

    can_call = can_raise

    def can_exchange(self, seat: int, cards: CardsLike | None = None) -> bool:
        """Whether `exchange(seat, cards)` would be taken; for a variant where the seat chooses,
        `cards` omitted asks whether any exchange is allowed now."""
        if cards is None:
            return self._allows(self._check_some_exchange, seat)
        try:
            text = format_cards(parse_cards(cards))
        except CaribbeanFastError:
            return False
        return self._allows(self._check_exchange, seat, text)

    def _check_some_exchange(self, seat: int) -> None:
        """The exchange's checks for its usual cards: the whole hand (""), or where the seat
        chooses, its first card."""
        x = self.variant.exchanges
        choose = x is not None and x.cards is ExchangeCards.CHOOSE
        self._check_exchange(seat, format_cards(self.state.seats[self._seat(seat)].cards[:1]) if choose else "")


@cache
def _signature(command: EngineCommand) -> inspect.Signature:
    """The handler's signature, which a replay binds each recorded command's arguments to."""
    return inspect.signature(command.handler)
