"""A player's session at a table in this process, without the screen: the keys (`SeatKeys`)
played on a local `Table`, the other seats played by a strategy, and the trainer's advice from
the exact tables."""

from __future__ import annotations

from typing import Any

from ..analysis.advice import Advice, Advisor
from ..engine import Phase, Table
from ..engine.autoplay import Strategy, play_others_bets, play_others_decisions
from ..engine.commands import PLAYED
from ..words.history import outcome_words
from ..words.rules import default_stake
from .keys import SeatKeys, shown

__all__ = ["PlaySession"]


class PlaySession(SeatKeys):
    def __init__(
        self, table: Table, seat: int = 0, others: str | Strategy = "simple", advisor: Advisor | None = None
    ) -> None:
        super().__init__()
        self.table: Table = table
        self.seat, self.others, self.advisor, self.trainer = seat, others, advisor, advisor is not None
        last = table.state.seats[seat].last_bets
        self.stake = last.ante if last else default_stake(table.limits)
        self.player_seed = "" if table.seed is not None else None  # seeded decks: the seeded deal

    def _send(self, kind: str, **fields: Any) -> None:
        self.table.play(self.seat, PLAYED[kind], fields)  # the key's command, found once

    def _deal(self) -> None:
        play_others_bets(self.table, skip=self.seat)
        seed = self._commit_seed()
        self.table.deal()
        self._reveal_seed(seed)
        play_others_decisions(self.table, self.others, skip=self.seat)

    def enter(self) -> str:
        """Enter, as `SeatKeys.enter`; a session that ended idle opens again."""
        if self.table.phase is Phase.CLOSED:
            self.table.reopen()
            return "the session was idle and ended; it is open again"
        return super().enter()

    def tick(self) -> str | None:
        """Applies the clock: a decision that timed out is taken automatically."""
        events = self.table.tick()
        if not events:
            return None
        closed = next((e.public for e in events if e.kind == "round_closed"), {})
        if closed.get("void"):
            return f"time ran out: the round is void ({closed.get('reason', '')}), every bet refunded"
        return "time ran out: " + self.result_text()

    def advice(self) -> Advice | None:
        """The trainer's advice for the seat's undecided hand (None without a trainer); game 4
        values an exchange while one is allowed."""
        if self.advisor is None or self.seat not in self.table.undecided():
            return None
        view = self.table.view(self.seat)
        x = self.table.variant.exchanges
        left = x.most_per_round - view.exchanges if x and self.table.can_exchange(self.seat) else 0
        return self.advisor.advise(*shown(view, self.table.variant), exchanges_left=left)

    def result_text(self) -> str:
        state = self.table.state
        result = state.seats[self.seat].results
        if self.table.phase is Phase.SETTLED and state.round.void:
            return "the round is void: every bet refunded"
        if self.table.phase is not Phase.SETTLED or result is None:
            return "decided; waiting for the other seats"
        return outcome_words(result, self.table.variant.currency)

    def session_result(self) -> str:
        """What the session came to: rounds settled for the seat, and the balance against the
        money brought to the table."""
        events = self.table.recorded()  # the whole session: memory holds only the latest round
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
