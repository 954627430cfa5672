"""Money in and out, and the bets before the deal: ante (with the game's limits, game 1's third of
the balance and personal limit), progressive, side bets, clear and rebet."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cached_property

from ..errors import IllegalActionError, InsufficientFundsError, require_type
from .commands import ANTE, CLEAR, DEPOSIT, PROGRESSIVE, REBET, SET_LIMIT, SIDE_BET, WITHDRAW, handles
from .core import Placement, TableCore, illegal
from .ledger import OUTSIDE, wallet
from .limits import check_limit_change
from .state import Bets, EventKind, Phase, SeatState

__all__ = ["Betting"]


class Betting(TableCore):
    @handles(DEPOSIT)
    def _deposit(self, seat: int, amount: int) -> None:
        self._open()
        seat, amount = self._seat(seat), self._amount(amount, "a deposit")
        self._emit(EventKind.FUNDS, seat, {"deposit": amount}, transfers=[(OUTSIDE, wallet(seat), amount)])

    @handles(WITHDRAW)
    def _withdraw(self, seat: int, amount: int) -> None:
        seat, amount = self._seat(seat), self._amount(amount, "a withdrawal")
        if amount > self.balance(seat):
            raise InsufficientFundsError(
                f"seat {seat + 1} holds {self._fmt(self.balance(seat))}, cannot withdraw {self._fmt(amount)}"
            )
        s = self.state.seats[seat]
        if self.phase in (Phase.BETTING, Phase.DECIDING) and s.bets.ante and s.decision is None:
            self._covers_the_raise(seat, s.bets, self.balance(seat) - amount)
        self._emit(EventKind.FUNDS, seat, {"withdrawal": amount}, transfers=[(wallet(seat), OUTSIDE, amount)])

    @handles(SET_LIMIT)
    def _set_limit(self, seat: int, amount: int | None) -> None:
        s = self.state.seats[self._seat(seat)]
        if amount is not None:
            self._amount(amount, "a personal limit")
        check_limit_change(s.limit, s.limit_changed, amount, self._now)
        self._emit(EventKind.LIMIT_SET, seat, {"limit": amount})

    def _betting(self, seat: int) -> SeatState:
        """The seat, while bets may change (the checks every bet command starts with)."""
        self._open()
        if self.phase is Phase.DECIDING:
            raise IllegalActionError("bets are closed: the cards are dealt")
        if self.state.round.sealed:
            raise IllegalActionError("bets are closed: the deal waits for the seats' seeds")
        return self.state.seats[self._seat(seat)]

    def _adjusted_ante(self, seat: int, s: SeatState, amount: int, account: dict[str, int | None] | None) -> int:
        """The ante as the limits make it; `account` is what the account book said of the personal
        limit when the command ran (None: the table's own)."""
        # The messages are written only when a check fails: `actions` runs these checks for every
        # view a server sends, and formatting money is most of their cost.
        lim, balance = self.limits, self._held(seat) + s.bets.total
        ante = lim.adjust(amount, balance)  # None where the limits alone refuse it too: asked below
        if ante is None and lim.adjust(amount) is None:
            raise IllegalActionError(
                f"an ante of {self._fmt(amount)} is outside the limits "
                f"{self._fmt(lim.minimum)} to {self._fmt(lim.maximum)}"
            )
        if ante is None:
            cap = f" ({lim.balance_fraction} of the balance)" if lim.balance_fraction else ""
            raise InsufficientFundsError(
                f"seat {seat + 1} holds {self._fmt(balance)}: too little for {self._fmt(amount)}{cap}"
            )
        limit = s.limit if account is None else account["limit"]
        if limit is not None and ante > limit:
            raise IllegalActionError(f"an ante of {self._fmt(ante)} is over the personal limit {self._fmt(limit)}")
        if ante % self._ante_unit:  # one of the stakes it makes is not whole: say which
            for what, multiple in self._multiples:
                if ante * multiple.numerator % multiple.denominator:
                    raise IllegalActionError(f"an ante of {ante} minor units makes a {what} of {ante * multiple}")
        return ante

    @cached_property
    def _multiples(self) -> tuple[tuple[str, Fraction], ...]:
        """The stakes an ante makes, as multiples of it, which must come to whole minor units."""
        fee = self.variant.exchanges.fee_antes if self.variant.exchanges else Fraction(0)
        return (("raise", self.variant.raise_multiple), ("exchange fee", fee))

    @cached_property
    def _ante_unit(self) -> int:
        """The antes whose `_multiples` all come to whole minor units are the multiples of this
        (each multiple in lowest terms: its denominator must divide the ante)."""
        return math.lcm(*(multiple.denominator for _, multiple in self._multiples))

    # Each bet command: its checks (`_check_*`, also what `can_*` and `actions` ask), then the bets.

    def _check_ante(self, seat: int, amount: int, account: dict[str, int | None] | None = None) -> Placement:
        s = self._betting(seat)
        ante = self._adjusted_ante(seat, s, self._amount(amount, "an ante"), account)
        bets = s.bets.but(ante=ante)
        p = self.variant.progressive
        if p and p.stays_ticked and s.ticked and not bets.progressive:
            bets = bets.but(progressive=p.stake)
        return self._placement(seat, bets)

    @handles(ANTE)
    def _ante(self, seat: int, amount: int, account: dict[str, int | None] | None = None) -> None:
        self._place(self._check_ante(seat, amount, account))

    def _check_progressive(self, seat: int, on: bool) -> Placement:
        require_type(on, bool, "on: True or False")
        s, p = self._betting(seat), self.variant.progressive
        if p is None:
            raise IllegalActionError(f"{self.variant.name} has no progressive bet")
        placed = bool(s.bets.progressive) and (s.ticked or not p.stays_ticked)
        if on and placed:
            raise IllegalActionError(f"seat {seat + 1} has the progressive bet already")
        if not on and not s.bets.progressive and not s.ticked:
            raise IllegalActionError(f"seat {seat + 1} has no progressive bet")
        return self._placement(seat, s.bets.but(progressive=p.stake if on else 0), ticked=on and p.stays_ticked)

    @handles(PROGRESSIVE)
    def _progressive(self, seat: int, on: bool) -> None:
        self._place(self._check_progressive(seat, on))

    def _check_side_bet(self, seat: int, name: str, amount: int) -> Placement:
        s = self._betting(seat)
        bet = self.variant.side_bet(name)
        if amount != 0:
            title = bet.title  # a player reads the refusal: "AA Bonus", not "aa-bonus"
            amount = self._amount(amount, f"the {title} bet")
            illegal(amount < bet.minimum, f"the {title} bet is {self._fmt(bet.minimum)} to {self._fmt(bet.maximum)}")
            if amount > bet.maximum:
                illegal(self.limits.above_maximum != "adjust", f"the {title} bet is at most {self._fmt(bet.maximum)}")
                amount = bet.maximum
        sides = dict(s.bets.side_bets) | {name: amount}
        return self._placement(seat, s.bets.but(side_bets=tuple(sorted((k, v) for k, v in sides.items() if v))))

    @handles(SIDE_BET)
    def _side_bet(self, seat: int, name: str, amount: int) -> None:
        self._place(self._check_side_bet(seat, name, amount))

    def _check_clear(self, seat: int) -> Placement:
        s = self._betting(seat)
        if self.phase is not Phase.BETTING or s.bets.total == 0:
            raise IllegalActionError(f"seat {seat + 1} has no bet to clear")
        return self._placement(seat, Bets(), ticked=False)

    @handles(CLEAR)
    def _clear(self, seat: int) -> None:
        self._place(self._check_clear(seat))

    def _check_rebet(self, seat: int, account: dict[str, int | None] | None = None) -> Placement:
        s = self._betting(seat)
        if s.last_bets is None:
            raise IllegalActionError(f"seat {seat + 1} has no last round to repeat")
        if s.bets.total > 0:
            raise IllegalActionError(f"seat {seat + 1} has bets already; clear them to rebet")
        ante = self._adjusted_ante(seat, s, s.last_bets.ante, account)
        return self._placement(seat, s.last_bets.but(ante=ante, raise_=0))

    @handles(REBET)
    def _rebet(self, seat: int, account: dict[str, int | None] | None = None) -> None:
        self._place(self._check_rebet(seat, account))
