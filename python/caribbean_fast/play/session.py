"""A player's session at a table, without the screen: what each key does, the stake being set,
the cards picked for an exchange, the other seats played by a strategy, and the trainer.

Every method either does what its key says or raises the engine's error, so the screen shows
the reason and nothing changes."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..analysis.advice import Advice, Advisor
from ..engine import Phase, Table
from ..engine.autoplay import play_others_bets, play_others_decisions
from ..errors import IllegalActionError
from ..settlement import Decision
from ..variants import Family

__all__ = ["Mistake", "PlaySession"]


@dataclass(frozen=True)
class Mistake:
    round: int
    cards: str
    board: str
    chosen: Decision
    best: Decision
    cost: Fraction  # antes given up


class PlaySession:
    def __init__(self, table: Table, seat: int = 0, others: str = "simple", advisor: Advisor | None = None) -> None:
        self.table, self.seat, self.others, self.advisor = table, seat, others, advisor
        last = table.state.seats[seat].last_bets
        self.stake = last.ante if last else table.limits.minimum
        self.selected: set[int] = set()
        self.mistakes: list[Mistake] = []
        self.decisions = 0

    # ---- bets ------------------------------------------------------------------------------------

    def change_stake(self, majors: int) -> str:
        """Up/Down: the stake by one (Shift: ten) of the currency's major unit, within the limits."""
        step = majors * self.table.variant.currency.minor_per_major
        lim = self.table.limits
        self.stake = max(lim.minimum, min(lim.maximum, self.stake + step))
        return f"stake {self._fmt(self.stake)}"

    def repeat_last_bet(self) -> str:
        self.table.rebet(self.seat)
        self.stake = self.table.state.seats[self.seat].bets.ante
        return "last bets repeated"

    def clear(self) -> str:
        self.table.clear(self.seat)
        return "bets cleared"

    def toggle_progressive(self) -> str:
        on = not self.table.state.seats[self.seat].bets.progressive
        self.table.progressive(self.seat, on)
        return "progressive bet " + ("placed" if on else "removed")

    def toggle_side_bet(self) -> str:
        bets = self.table.variant.side_bets
        if not bets:
            raise IllegalActionError(f"{self.table.variant.name} has no side bet")
        bet = bets[0]
        placed = self.table.state.seats[self.seat].bets.side(bet.name)
        amount = 0 if placed else max(bet.minimum, min(bet.maximum, self.stake))
        self.table.side_bet(self.seat, bet.name, amount)
        return f"{bet.name} " + (f"bet {self._fmt(amount)}" if amount else "removed")

    # ---- the round -------------------------------------------------------------------------------

    def enter(self) -> str:
        """Enter: deal (placing the stake as the ante first), raise once dealt, or reopen a
        session that ended idle."""
        if self.table.phase is Phase.CLOSED:
            self.table.reopen()
            return "the session was idle and ended; it is open again"
        if self.table.phase is Phase.DECIDING:
            return self.decide(Decision.RAISE)
        seat_bets = self.table.state.seats[self.seat].bets
        if seat_bets.ante != self.stake:
            self.table.ante(self.seat, self.stake)
        play_others_bets(self.table, skip=self.seat)
        self.table.deal()
        self.selected.clear()
        play_others_decisions(self.table, self.others, skip=self.seat)
        return "dealt: " + (
            "raise (Enter), fold (-)" if self.table.variant.family is Family.STUD else "call (Enter), fold (-)"
        )

    def decide(self, decision: Decision) -> str:
        advice = self.advice()
        if decision is Decision.RAISE:
            self.table.raise_(self.seat)
        else:
            self.table.fold(self.seat)
        self.decisions += 1
        if advice is not None and decision is not advice.best:
            view = self.table.view(self.seat)
            board = view.dealer[-1:] if self.table.variant.family is Family.STUD else view.board[:3]
            self.mistakes.append(
                Mistake(view.round, " ".join(view.cards), " ".join(board), decision, advice.best, advice.cost(decision))
            )
        return self.result_text()

    def select(self, index: int) -> str:
        """1-5: picks or unpicks a card for the exchange (game 4)."""
        cards = self.table.view(self.seat).cards
        if self.table.variant.exchanges is None:
            raise IllegalActionError(f"{self.table.variant.name} has no exchanges")
        if self.table.phase is not Phase.DECIDING or index >= len(cards):
            raise IllegalActionError("pick cards once dealt, before deciding")
        self.selected ^= {index}
        return "to exchange: " + (" ".join(cards[i] for i in sorted(self.selected)) or "none")

    def exchange(self) -> str:
        cards = self.table.view(self.seat).cards
        if not self.selected:
            raise IllegalActionError("pick the cards to exchange with 1-5 first")
        self.table.exchange(self.seat, [cards[i] for i in sorted(self.selected)])
        self.selected.clear()
        return "exchanged: now " + " ".join(self.table.view(self.seat).cards)

    def tick(self) -> str | None:
        """Applies the clock: a decision that timed out is taken automatically."""
        events = self.table.tick()
        return "time ran out: " + self.result_text() if events else None

    # ---- what the screen shows -------------------------------------------------------------------

    def advice(self) -> Advice | None:
        """The trainer's advice for the seat's undecided hand (None without a trainer)."""
        if self.advisor is None or self.seat not in self.table.undecided():
            return None
        view = self.table.view(self.seat)
        board = view.dealer[-1:] if self.table.variant.family is Family.STUD else view.board[:3]
        return self.advisor.advise(list(view.cards), list(board))

    def result_text(self) -> str:
        result = self.table.state.seats[self.seat].results
        if self.table.phase is not Phase.SETTLED or result is None:
            return "decided; waiting for the other seats"
        total = int(result["net"]["total"])
        return f"{result['hand']}: {'won' if total > 0 else 'lost' if total < 0 else 'push'} {self._fmt(abs(total))}"

    def report(self) -> str:
        """The trainer's session report: the mistakes and what they cost."""
        if self.advisor is None:
            return ""
        cost = sum((m.cost for m in self.mistakes), Fraction(0))
        lines = [
            f"Trainer: {len(self.mistakes)} mistakes in {self.decisions} decisions, costing {float(cost):.4f} antes"
        ]
        lines += [
            f"  round {m.round}: {m.cards} against {m.board}: {m.chosen} where {m.best} is best "
            f"(-{float(m.cost):.4f} antes)"
            for m in self.mistakes
        ]
        return "\n".join(lines)

    def _fmt(self, minor: int) -> str:
        return self.table.variant.currency.format(minor)
