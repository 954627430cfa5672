"""A round after the bets: the deal from the committed deck, decisions and exchanges, time limits
and automatic decisions, the showdown and settlement, void rounds and broken-off sessions."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cached_property

from ..cards import parse_cards
from ..errors import IllegalActionError, InsufficientFundsError
from ..hands import strength_of_ids
from ..settlement import Decision, meter_top_up
from ..variants import ExchangeCards, Exchanges, Family, Unfinished
from .commands import COMPLETE, DEAL, DISCONNECT, EXCHANGE, FAULT, FOLD, RAISE, REOPEN, RESTORE, handles
from .core import illegal, times
from .events import Transfer
from .ledger import OUTSIDE, POOL, table_spot, wallet
from .seeding import REVEAL_SECONDS, Seeding
from .showdown import Paid, PayKey, dealer_hand, hand_of, pays_of, revealed, settle_seats
from .state import Bets, EventKind, Phase, SeatState

__all__ = ["Rounds"]


class Rounds(Seeding):
    # Each decision command: its checks (`_check_*`, also what `can_*` and `actions` ask), then
    # the events.

    def _check_deal(self) -> list[int]:
        """The seats the deal deals in: every seat with an ante. Before the bet time is up, only
        once every seated holder that is not away has bet (game 3: the round deals when the
        betting time is up, or sooner when every seated player has bet). The clock does not deal
        the moment the last ante lands: a player builds a bet chip by chip, and says it is done
        with `deal`."""
        self._open()
        illegal(self.phase is not Phase.BETTING, "there is no open round to deal: place an ante")
        illegal(bool(self.state.round.sealed), "bets are closed: the deal waits for the seats' seeds")
        dealt = [k for k, s in enumerate(self.state.seats) if s.bets.ante]
        illegal(not dealt, "no seat has an ante")
        waiting = self._waiting()
        if waiting:
            names = ", ".join(str(k + 1) for k in waiting)  # seats in words count from 1
            raise IllegalActionError(f"waiting for seat {names} to bet: the round deals once every seat has bet")
        return dealt

    def _waiting(self) -> list[int]:
        """The seated holders, not away, who have not bet yet: a timed round waits for them."""
        return [k for k, s in enumerate(self.state.seats) if s.account and s.away is None and not s.bets.ante]

    @handles(DEAL)
    def _deal(self) -> None:
        self._deal_or_seal(self._check_deal())

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
        public: dict[str, object] = {"seats": dealt, "refunded": refunded}
        r = self.state.round
        if any(k in r.committed for k in dealt):  # the seats' seeds cut the committed deck (`fairness.cut`)
            public["seeds"] = [[k, r.revealed_seeds.get(k, "")] for k in dealt]
        self._emit(EventKind.DEALING, None, public, transfers=[m for m in moves if m[2]])
        hands, dealer, board = self._cards_for(dealt)
        for k in dealt:
            self._emit(EventKind.DEALT, k, private={"cards": hands[k]})
        public = {"up": dealer[-1:]} if self.variant.family is Family.STUD else {"flop": board[:3]}
        hole = dealer[:-1] if self.variant.family is Family.STUD else dealer
        self._emit(EventKind.DEALT, None, public, secret={"hole": hole, "turn_river": board[3:]})

    def _cards_for(self, dealt: list[int]) -> tuple[dict[int, list[int]], list[int], list[int]]:
        """Cards from the top of the seeded deck as the seats' seeds cut it, one at a time clockwise
        from seat 0 to the dealer: the i-th of `dealt` takes every (seats + 1)-th card from the i-th,
        the dealer from the last of the first turn; then the board."""
        shape, deck, width = self.variant.layout, self.state.round.dealing, len(dealt) + 1
        top = shape.hand * width
        hands = {k: deck[i:top:width] for i, k in enumerate(dealt)}
        return hands, deck[len(dealt) : top : width], deck[top : top + shape.board]

    def _deciding(self, seat: int) -> SeatState:
        """The seat, while it has a dealt hand to decide (the checks every decision starts with)."""
        self._open()
        s = self.state.seats[self._seat(seat)]
        illegal(self.phase is not Phase.DECIDING, "there is no dealt round to decide")
        if not s.dealt:
            raise IllegalActionError(f"seat {seat + 1} was not dealt into this round")
        if s.decision is not None:
            raise IllegalActionError(f"seat {seat + 1} has decided already")
        return s

    def _check_fold(self, seat: int) -> None:
        self._deciding(seat)

    @handles(FOLD)
    def _fold(self, seat: int) -> None:
        self._check_fold(seat)
        self._decide(seat, Decision.FOLD, auto=False)
        self._showdown_when_decided()

    def _check_raise(self, seat: int) -> None:
        s = self._deciding(seat)
        if not self._affords_raise(seat, s):
            need = self._fmt(self._raise_stake(s))
            raise IllegalActionError(f"seat {seat + 1} holds {self._fmt(self.balance(seat))}: the raise needs {need}")

    @handles(RAISE)
    def _raise(self, seat: int) -> None:
        self._check_raise(seat)
        self._decide(seat, Decision.RAISE, auto=False)
        self._showdown_when_decided()

    def _raise_stake(self, s: SeatState) -> int:
        return self._raise_for(s.bets.ante)

    def _affords_raise(self, seat: int, s: SeatState) -> bool:
        return self._raise_stake(s) <= self._held(seat)

    def _decide(self, seat: int, decision: Decision, auto: bool) -> None:
        """Takes the decision; a raise the wallet cannot pay (only an automatic one gets here)
        folds."""
        s = self.state.seats[seat]
        if decision is Decision.RAISE and not self._affords_raise(seat, s):
            decision = Decision.FOLD
        stake = self._raise_stake(s) if decision is Decision.RAISE else 0
        bets = s.bets.but(raise_=stake)
        moves = [(wallet(seat), table_spot(seat), stake)] if stake else []
        self._emit(
            EventKind.DECIDED, seat, {"decision": str(decision), "auto": auto, "bets": bets.to_dict()}, transfers=moves
        )

    def _check_exchange(self, seat: int, cards: str) -> tuple[list[int], int]:
        """The cards given up and the fee."""
        s = self._deciding(seat)
        x = self.variant.exchanges
        if x is None:
            raise IllegalActionError(f"{self.variant.name} has no exchanges")
        out = self._discards(s, x, cards)
        illegal(s.exchanges >= x.most_per_round, f"at most {x.most_per_round} exchanges a round")
        fee = times(s.bets.ante, x.fee_antes)
        need = fee + (self._raise_stake(s) if x.must_cover_call else 0)
        if need > self.balance(seat):
            raise InsufficientFundsError(
                f"an exchange needs {self._fmt(need)} (the fee and the call); "
                f"the seat holds {self._fmt(self.balance(seat))}"
            )
        return out, fee

    @handles(EXCHANGE)
    def _exchange(self, seat: int, cards: str) -> None:
        out, fee = self._check_exchange(seat, cards)
        s = self.state.seats[seat]
        drawn = self.state.round.next_cards(len(out))
        hand = [drawn[out.index(c)] if c in out else c for c in s.cards]
        moves = [(wallet(seat), "house", fee)] if fee else []
        private = {"cards": hand, "discarded": out, "drawn": drawn}
        self._emit(EventKind.EXCHANGED, seat, {"count": len(out), "fee": fee}, private, transfers=moves)

    @staticmethod
    def _discards(s: SeatState, x: Exchanges, cards: str) -> list[int]:
        """The cards an exchange gives up: the whole hand (game 4; "" names it), or the cards
        chosen where the variant lets the seat choose."""
        out = parse_cards(cards) if cards else list(s.cards)
        illegal(not set(out) <= set(s.cards), f"{cards} are not all in the seat's hand")
        if x.cards is ExchangeCards.ALL:
            illegal(len(out) != len(s.cards), f"an exchange gives up all five cards, not {len(out)}")
        else:
            illegal(not cards, f"choose 1 to {x.most_cards} cards to exchange")
            illegal(not 1 <= len(out) <= x.most_cards, f"exchange 1 to {x.most_cards} cards, not {len(out)}")
        return out

    def _auto_decide(self, seat: int) -> None:
        """A seat at a shared table that timed out or disconnected: raise at the automatic
        threshold or better, else fold."""
        s, threshold = self.state.seats[seat], self.variant.timing.auto_raise
        first = [*s.cards, *self.state.round.board[:3]] if self.variant.family is Family.HOLDEM else s.cards
        raises = threshold is not None and threshold.admits(strength_of_ids(first))
        self._decide(seat, Decision.RAISE if raises else Decision.FOLD, auto=True)

    def _waits(self) -> bool:
        """A one-seat game's round waits for its player: a lost connection, an idle session or a
        restart never decides it (from the rules' second edition on, `core.EDITION`)."""
        return self.edition >= 2 and self.variant.waits_for_player

    @handles(DISCONNECT)
    def _disconnect(self, seat: int) -> None:
        self._open()
        s = self.state.seats[self._seat(seat)]
        if self._waits() or self.state.round.sealed:
            return  # the player finds the round as they left it (bets closed: a seed withheld counts as empty)
        if self.phase is Phase.DECIDING and s.dealt and s.decision is None:
            self._auto_decide(seat)
            self._showdown_when_decided()
        elif self.phase is Phase.BETTING and s.bets.total:
            self._place(self._placement(seat, Bets(), ticked=False))

    def _left_open(self, now: datetime) -> bool:
        """A waiting round dealt more than `timing.open_round_seconds` before `now`, still undecided."""
        r, limit = self.state.round, self.variant.timing.open_round_seconds
        return self._waits() and self.phase is Phase.DECIDING and self._expired(r.dealt_at, limit, now)

    def overdue(self) -> list[int]:
        """The seats whose round was left open past its limit in a game that completes it (games
        1, 2 and 4): the table's host completes each with the best strategy's decision
        (`complete`), as the engine never runs the analysis."""
        if self.phase is not Phase.DECIDING:  # asked every second of every table: no clock read
            return []
        return self._overdue(self._clock_reading())  # a question: the table's own time is not moved

    def _overdue(self, now: datetime) -> list[int]:
        completes = self.variant.timing.unfinished is Unfinished.COMPLETE
        return self.undecided() if completes and self._left_open(now) else []

    @handles(COMPLETE)
    def _complete(self, seat: int, decision: str) -> None:
        illegal(
            decision not in (Decision.RAISE, Decision.FOLD), f"a round is completed by raise or fold, not {decision!r}"
        )
        overdue = self._seat(seat) in self._overdue(self._now)
        illegal(not overdue, f"seat {seat + 1} has no round left open past its limit")
        self._decide(seat, Decision(decision), auto=True)
        self._showdown_when_decided()

    def _showdown_when_decided(self) -> None:
        if self.undecided():
            return
        order = [k for k, s in reversed(list(enumerate(self.state.seats))) if s.dealt]  # counter-clockwise
        self._meter_to_pool()
        dealer = hand_of(dealer_hand(self.state, self.variant))
        self._emit(EventKind.REVEALED, None, revealed(self.state, self.variant, order, dealer))
        for paid in settle_seats(self.state, self.variant, order, dealer, self._pays):
            self._emit(EventKind.SETTLED, paid.seat, paid.public(self.edition), transfers=paid.transfers)
        p, meter = self.variant.progressive, self.meter
        top = meter_top_up(meter, p.reset) if p else 0
        top_up = [("house", "meter", top)] if top else []
        self._emit(EventKind.ROUND_CLOSED, None, {"void": False}, transfers=top_up)

    @cached_property
    def _pays(self) -> dict[PayKey, Paid]:
        """What each outcome and bets paid at the tables of this table's variant (`showdown.pays_of`)."""
        return pays_of(self.variant)

    def _meter_to_pool(self) -> None:
        """A table of a shared pool: its meter is brought to the pool's amount before the prizes
        are settled from it (from or to the `POOL` account), so a prize of the meter's share is
        the pool's, as the pool stands when this showdown reads it."""
        found = self.pool.meter() if self.pool is not None and self.variant.progressive else None
        if found is None or found == self.meter:
            return
        move = (POOL, "meter", found - self.meter) if found > self.meter else ("meter", POOL, self.meter - found)
        self._emit(EventKind.POOL, None, {"meter": found}, transfers=[move])

    def _void(self, reason: str) -> None:
        """Every transfer of the round undone, last first: all bets and fees refunded."""
        undo = [(b, a, n) for a, b, n in reversed(self.state.round_transfers) if OUTSIDE not in (a, b)]
        self._emit(EventKind.ROUND_CLOSED, None, {"void": True, "reason": reason}, transfers=undo)

    def _break_off(self, reason: str) -> None:
        """A dealt round broken off is completed or void by the variant's rule; bets not yet
        dealt are refunded."""
        void_dealt = self.variant.timing.unfinished is Unfinished.VOID
        if self.phase is Phase.BETTING or (self.phase is Phase.DECIDING and void_dealt):
            self._void(reason)
        elif self.phase is Phase.DECIDING and not self._waits():  # else it waits for its player
            self._decide_for_the_rest()

    def _decide_for_the_rest(self) -> None:
        for k in self.undecided():
            self._auto_decide(k)
        self._showdown_when_decided()

    def _expired(self, since: datetime | None, seconds: float | None, now: datetime | None = None) -> bool:
        """Whether `seconds` have passed since `since` at `now` (by default the command's time)."""
        at = self._now if now is None else now
        return since is not None and seconds is not None and at >= since + timedelta(seconds=seconds)

    def _run_out(self) -> None:
        """What the clock says has run out in the round and the session (the tick, after
        `Seating` stands up the seats away too long)."""
        t, state = self.variant.timing, self.state
        if self.phase is Phase.CLOSED:
            return
        if self._left_open(self._now) and t.unfinished is Unfinished.VOID:
            self._void("the round waited for its player past its limit")
        elif self._expired(state.last_activity, t.idle_seconds) and not (
            self._waits() and self.phase is Phase.DECIDING
        ):
            self._break_off("idle session")
            self._emit(EventKind.SESSION_ENDED, None, {"reason": "idle"})
        elif state.round.sealed:
            if self._expired(state.round.sealed_at, REVEAL_SECONDS):
                self._deal_sealed()  # a seed withheld counts as empty: the round is dealt from the others'
        elif self.phase is Phase.BETTING and self._expired(state.round.opened_at, t.bet_seconds):
            dealt = [k for k, s in enumerate(state.seats) if s.bets.ante]
            self._deal_or_seal(dealt) if dealt else self._void("no ante before the bet time ran out")
        elif self.phase is Phase.DECIDING and self._expired(state.round.dealt_at, t.decision_seconds):
            self._decide_for_the_rest()

    @handles(FAULT)
    def _fault(self, reason: str) -> None:
        """RULES.md: game 5's round broken by a fault is void; a stud round at a shared table is
        completed as the table would have (`Timing.unfinished`), a one-seat stud round waits for
        its player; bets not yet dealt are refunded either way."""
        illegal(self.phase not in (Phase.BETTING, Phase.DECIDING), "no round is open")
        self._break_off(reason)

    @handles(RESTORE)
    def _restore(self) -> None:
        """Emitted once a table is restored from its record: the open round goes on (a one-seat
        game's waits for its player) or is void by the variant's rule."""
        self._emit(EventKind.RESTORED, None, {"phase": str(self.phase)})
        void = self.variant.timing.unfinished is Unfinished.VOID
        if self.phase is Phase.DECIDING and void and not self._waits():
            self._void("restored after a fault")

    @handles(REOPEN)
    def _reopen(self) -> None:
        illegal(self.phase is not Phase.CLOSED, "the session is open")
        self._emit(EventKind.SESSION_OPENED)
