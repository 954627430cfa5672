"""A player's session at a table, without the screen: what each key does, the stake being set,
the cards picked for an exchange, the other seats played by a strategy, and the trainer.

Every method either does what its key says or raises the engine's error, so the screen shows
the reason and nothing changes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..analysis.advice import Advice, Advisor
from ..engine import Phase, Table
from ..engine.autoplay import Strategy, play_others_bets, play_others_decisions
from ..engine.history import outcome_words
from ..errors import IllegalActionError
from ..settlement import Decision
from ..variants import ExchangeCards, Family, Variant

__all__ = ["CHIPS", "Mistake", "PlaySession", "stake_step"]

CHIPS: tuple[Fraction, ...] = tuple(
    Fraction(v) for v in ("1/100", "1/20", "1/10", "1/4", "1/2", 1, 5, 10, 25, 100, 500, 1000)
)
"""Chip values in major units, smallest first: the stake moves by them, and bets are drawn in them."""


def stake_step(stake: int, minor_per_major: int, up: bool, times: int = 1) -> int:
    """The stake `times` chips up (or down): the chip is the largest not above the stake (below
    it, going down), and the stake lands on a whole number of that chip."""
    chips = [int(v * minor_per_major) for v in CHIPS if (v * minor_per_major).denominator == 1]
    if up:
        step = max([c for c in chips if c <= stake] or [chips[0]])
        return (stake // step + times) * step
    step = max([c for c in chips if c < stake] or [chips[0]])
    return max(step, (-(-stake // step) - times) * step)


@dataclass(frozen=True)
class Mistake:
    round: int
    cards: str
    board: str
    chosen: str  # "raise", "fold" or "exchange"
    best: str
    cost: Fraction  # antes given up


def pick(variant: Variant, cards: Sequence[str], selected: set[int], index: int, deciding: bool) -> str:
    """Key 1-5, local or remote: picks or unpicks card `index` in `selected` for an exchange, only
    in the example variant where the seat chooses the cards (game 4 exchanges the whole hand)."""
    x = variant.exchanges
    if x is None or x.cards is not ExchangeCards.CHOOSE:
        raise IllegalActionError(f"{variant.name} has no exchanges of chosen cards")
    if not deciding or index >= len(cards):
        raise IllegalActionError("pick cards once dealt, before deciding")
    selected ^= {index}
    return "to exchange: " + (" ".join(cards[i] for i in sorted(selected)) or "none")


def trainer_report(result: str, mistakes: list[Mistake], decisions: int) -> str:
    """The session's result, then the trainer's: each mistake and what it cost (local and remote)."""
    cost = sum((m.cost for m in mistakes), Fraction(0))
    lines = [result, f"Trainer: {len(mistakes)} mistakes in {decisions} decisions, costing {float(cost):.4f} antes"]
    lines += [
        f"  round {m.round}: {m.cards} against {m.board}: {m.chosen} where {m.best} is best "
        f"(-{float(m.cost):.4f} antes)"
        for m in mistakes
    ]
    return "\n".join(lines)


class PlaySession:
    def __init__(
        self, table: Table, seat: int = 0, others: str | Strategy = "simple", advisor: Advisor | None = None
    ) -> None:
        self.table, self.seat, self.others, self.advisor = table, seat, others, advisor
        last = table.state.seats[seat].last_bets
        self.stake = last.ante if last else table.limits.minimum
        self.selected: set[int] = set()
        self.mistakes: list[Mistake] = []
        self.decisions = 0

    # ---- bets ------------------------------------------------------------------------------------

    def change_stake(self, steps: int) -> str:
        """Up/Down: the stake to the next (previous) amount a pile of chips makes, by the chip
        that fits it (0.50, 1, 2 ... 5, 10, 20 ... 25, 50, 75 ...); Shift: ten of that chip;
        within the limits."""
        lim, per = self.table.limits, self.table.variant.currency.minor_per_major
        stake = stake_step(self.stake, per, up=steps > 0, times=abs(steps))
        self.stake = max(lim.minimum, min(lim.maximum, stake))
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
        advice, shown, view = self.advice(), self._shown, self.table.view(self.seat)
        if decision is Decision.RAISE:
            self.table.raise_(self.seat)
        else:
            self.table.fold(self.seat)
        self._judge(advice, str(decision), view.round, shown)
        return self.result_text()

    def _judge(self, advice: Advice | None, chosen: str, round_: int, shown: tuple[str, str]) -> None:
        """Counts a decision, and a mistake where the trainer advised another choice."""
        self.decisions += 1
        if advice is not None and chosen != advice.best:
            cards, board = shown
            self.mistakes.append(Mistake(round_, cards, board, chosen, advice.best, advice.cost(chosen)))

    def select(self, index: int) -> str:
        """1-5: picks or unpicks a card for the exchange (the example variant where the seat
        chooses the cards)."""
        deciding = self.table.phase is Phase.DECIDING
        return pick(self.table.variant, self.table.view(self.seat).cards, self.selected, index, deciding)

    def exchange(self) -> str:
        """x: game 4 exchanges all five cards (the example where the seat chooses: the picked ones)."""
        x = self.table.variant.exchanges
        if x is None:
            raise IllegalActionError(f"{self.table.variant.name} has no exchanges")
        view, advice, shown = self.table.view(self.seat), self.advice(), self._shown
        if x.cards is ExchangeCards.ALL:
            self.table.exchange(self.seat)
        elif not self.selected:
            raise IllegalActionError("pick the cards to exchange with 1-5 first")
        else:
            self.table.exchange(self.seat, [view.cards[i] for i in sorted(self.selected)])
        self.selected.clear()
        if x.cards is ExchangeCards.ALL:
            self._judge(advice, "exchange", view.round, shown)
        return "exchanged: now " + " ".join(self.table.view(self.seat).cards)

    def tick(self) -> str | None:
        """Applies the clock: a decision that timed out is taken automatically."""
        events = self.table.tick()
        if not events:
            return None
        closed = next((e.public for e in events if e.kind == "round_closed"), {})
        if closed.get("void"):
            return f"time ran out: the round is void ({closed.get('reason', '')}), every bet refunded"
        return "time ran out: " + self.result_text()

    # ---- what the screen shows -------------------------------------------------------------------

    def advice(self) -> Advice | None:
        """The trainer's advice for the seat's undecided hand (None without a trainer); game 4
        values an exchange while one is allowed."""
        if self.advisor is None or self.seat not in self.table.undecided():
            return None
        view = self.table.view(self.seat)
        x = self.table.variant.exchanges
        left = x.most_per_round - view.exchanges if x and self.table.can_exchange(self.seat) else 0
        cards, board = self._shown
        return self.advisor.advise(cards, board, exchanges_left=left)

    @property
    def _shown(self) -> tuple[str, str]:
        """The seat's cards and what it sees of the dealer (stud) or the board (hold'em)."""
        view = self.table.view(self.seat)
        board = view.dealer[-1:] if self.table.variant.family is Family.STUD else view.board[:3]
        return " ".join(view.cards), " ".join(board)

    def result_text(self) -> str:
        state = self.table.state
        result = state.seats[self.seat].results
        if self.table.phase is Phase.SETTLED and state.round.void:
            return "the round is void: every bet refunded"
        if self.table.phase is not Phase.SETTLED or result is None:
            return "decided; waiting for the other seats"
        return outcome_words(result, self.table.variant.currency)

    @property
    def in_round(self) -> bool:
        """The seat is dealt in and has not decided: quitting now leaves the hand to the table."""
        return self.seat in self.table.undecided()

    def session_result(self) -> str:
        """What the session came to: rounds settled for the seat, and the balance against the
        money brought to the table."""
        events = self.table.events
        brought = sum(
            int(e.public.get("deposit", 0)) - int(e.public.get("withdrawal", 0))
            for e in events
            if e.kind == "funds" and e.seat == self.seat
        )
        settled = sum(1 for e in events if e.kind == "settled" and e.seat == self.seat)
        staked = self.table.state.seats[self.seat].bets.total
        balance = self.table.balance(self.seat) + staked
        left = f"; round {self.table.round} left undecided, {self._fmt(staked)} on the table" if self.in_round else ""
        return (
            f"Session: {settled} rounds played; balance {self._fmt(balance)}, "
            f"net {self._fmt(balance - brought)} on the {self._fmt(brought)} brought{left}"
        )

    def report(self) -> str:
        """What the session came to, then the trainer's report: the mistakes and their cost."""
        if self.advisor is None:
            return self.session_result()
        return trainer_report(self.session_result(), self.mistakes, self.decisions)

    def _fmt(self, minor: int) -> str:
        return self.table.variant.currency.format(minor)
