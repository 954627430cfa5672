"""Who sits where: sitting down with a buy-in, leaving with the seat's money, a holder gone away
and back, and the clock standing up a seat left away too long between rounds.

Each is an event that carries the account (`seated`, `stood`), so the record says who held a seat
for which rounds: a view shows a holder only the rounds it could be dealt into (`since`), and a
server keeps no rule of its own about seats. A table that nobody sits at through `sit` (the
package's own use, without a server) has every seat open to its caller, as before.
"""

from __future__ import annotations

import math

from ..errors import IllegalActionError
from .commands import ADOPT, AWAY, BACK, LEAVE, SIT, TICK, handles
from .core import illegal
from .ledger import OUTSIDE, wallet
from .rounds import Rounds
from .state import Bets, EventKind, Phase, SeatState

__all__ = ["STAND_AFTER", "Seating"]

STAND_AFTER = 300.0
"""Seconds a seat's holder may stay away (no connection) before, between rounds, the clock stands
the seat up and its money goes back to the account: a table setting (`serve --away`)."""


class Seating(Rounds):
    def free_seats(self) -> list[int]:
        """Seats nobody holds and that hold no money (money left on a seat is its last holder's)."""
        return [k for k, s in enumerate(self.state.seats) if s.account is None and not self._held(k)]

    def holder(self, seat: int) -> str | None:
        return self.state.seats[self._seat(seat)].account

    @property
    def edge(self) -> int:
        """The first round a seat taken (or left) now can be dealt into: the open one while bets
        are taken, else the next."""
        return self.round if self.phase is Phase.BETTING else self.round + 1

    def _check_sit(self, seat: int, account: str, amount: int) -> int:
        k = self._seat(seat)
        illegal(not isinstance(account, str) or not account, f"an account is a name, not {account!r}")
        if k not in self.free_seats():
            raise IllegalActionError(f"seat {k + 1} is not free")
        illegal(any(s.account == account for s in self.state.seats), f"{account} holds a seat here already")
        return self._amount(amount, "a buy-in")

    @handles(SIT)
    def _sit(self, seat: int, account: str, amount: int) -> None:
        amount = self._check_sit(seat, account, amount)
        if self.phase is Phase.CLOSED:
            self._emit(EventKind.SESSION_OPENED)
        self._emit(EventKind.SEATED, seat, {"account": account, "since": self.edge})
        self._emit(EventKind.FUNDS, seat, {"deposit": amount}, transfers=[(OUTSIDE, wallet(seat), amount)])

    @handles(ADOPT)
    def _adopt(self, seat: int, account: str, since: int) -> None:
        """A seat held from before the engine kept the seats (a server's record written then): its
        holder becomes the engine's, its money staying on the seat."""
        k = self._seat(seat)
        illegal(not isinstance(account, str) or not account, f"an account is a name, not {account!r}")
        illegal(self.state.seats[k].account is not None, f"seat {k + 1} is held already")
        illegal(any(s.account == account for s in self.state.seats), f"{account} holds a seat here already")
        self._emit(EventKind.SEATED, k, {"account": account, "since": since})

    def _check_leave(self, seat: int) -> SeatState:
        s = self.state.seats[self._seat(seat)]
        illegal(s.account is None, f"nobody sits at seat {seat + 1}")
        if self.phase is Phase.DECIDING and s.dealt:
            raise IllegalActionError("your hand is in play: leave when the round is settled")
        return s

    @handles(LEAVE)
    def _leave(self, seat: int) -> None:
        self._check_leave(seat)
        self._stand(seat, "left")

    def _stand(self, seat: int, reason: str) -> None:
        """The seat's bets not yet dealt come back, its money leaves the table, and it is free."""
        s = self.state.seats[seat]
        if self.phase is Phase.BETTING and s.bets.total:
            self._place(self._placement(seat, Bets(), ticked=False))
        returned = self._held(seat)
        if returned:
            self._emit(EventKind.FUNDS, seat, {"withdrawal": returned}, transfers=[(wallet(seat), OUTSIDE, returned)])
        self._emit(
            EventKind.STOOD, seat, {"account": s.account, "reason": reason, "returned": returned, "until": self.edge}
        )

    @handles(AWAY)
    def _away(self, seat: int, stand_after: float = STAND_AFTER) -> None:
        """The holder has no connection: the game's disconnect rule for its hand or bets, and the
        seat stood up once `stand_after` seconds pass between rounds."""
        s = self.state.seats[self._seat(seat)]
        illegal(s.account is None, f"nobody sits at seat {seat + 1}")
        bad = isinstance(stand_after, bool) or not isinstance(stand_after, (int, float))
        illegal(bad or not 0 < stand_after < math.inf, f"stand_after is seconds above 0, not {stand_after!r}")
        if s.away is not None:
            return  # away already: nothing to record
        self._emit(EventKind.SEAT_AWAY, seat, {"stand_after": stand_after})
        if self.phase is not Phase.CLOSED:
            self._disconnect(seat)

    @handles(BACK)
    def _back(self, seat: int) -> None:
        if self.state.seats[self._seat(seat)].away is not None:
            self._emit(EventKind.SEAT_BACK, seat)

    @handles(TICK)
    def _tick(self) -> None:
        self._stand_up_away()
        self._run_out()

    def _stand_up_away(self) -> None:
        """Seats away past their limit, not in a dealt round, are stood up (the tick's first step)."""
        for k, s in enumerate(self.state.seats):
            if s.away is None or (self.phase is Phase.DECIDING and s.dealt):
                continue
            if (self._now - s.away).total_seconds() >= s.stand_after:
                self._stand(k, "away")
