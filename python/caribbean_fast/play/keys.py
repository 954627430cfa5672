"""What each key of the terminal table does, alike at a table in this process and at a server's:
the stake being set, the cards picked for an exchange, and the trainer's count of mistakes.

`SeatKeys` holds every key once; a session says only how a command reaches its table (`_send`,
named as the protocol names it), how a deal is made, and what it knows of the round's end.
Every key either does what it says or raises the table's (or the server's) reason, so the
screen shows the reason and nothing changes."""

from __future__ import annotations

import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, Protocol

from ..analysis.advice import Advice
from ..engine import Phase, SeatView
from ..engine.fairness import SEED_MOST, seed_commitment
from ..errors import ArgumentError, IllegalActionError
from ..settlement import Decision
from ..variants import BetLimits, ExchangeCards, Variant
from ..words.rules import decision_word, stake_step, stake_unit

__all__ = ["Mistake", "SeatKeys", "SeatTable"]


@dataclass(frozen=True)
class Mistake:
    round: int
    cards: str
    board: str
    chosen: str  # "raise", "fold" or "exchange"
    best: str
    cost: Fraction  # antes given up


class SeatTable(Protocol):
    """What the keys read of a table: a `Table` here, or what the server told of its table."""

    variant: Variant
    limits: BetLimits

    def view(self, seat: int) -> SeatView: ...

    def history(self, seat: int, last: int = 10) -> list[list[dict[str, Any]]]: ...

    def clock(self) -> datetime: ...


class SeatKeys(ABC):
    """The keys of one seat. Subclasses set `table`, `seat` and `stake` and say how commands go."""

    table: SeatTable
    seat: int
    stake: int
    trainer: bool  # the session has a trainer: the report follows the session's result
    player_seed: str | None = None
    """The seed the player adds to each round (engine/seeding.py): their own text, None for a new
    random one each round, "" for none (a seeded local table's decks stay the seeded ones)."""

    def __init__(self) -> None:
        self.selected: set[int] = set()
        self.mistakes: list[Mistake] = []
        self.decisions = 0

    # ---- what a session supplies -----------------------------------------------------------------

    @abstractmethod
    def _send(self, kind: str, **fields: Any) -> None:
        """A command for the seat, by its protocol name (docs/protocol.md), refused by raising: at
        a local table `Table.play` (the engine's list of commands), at a server the protocol's list
        (`server.commands.request`)."""

    @abstractmethod
    def _deal(self) -> None:
        """Deals the round (at a local table, the other seats' bets and decisions around it)."""

    @abstractmethod
    def tick(self) -> str | None:
        """What happened meanwhile (the clock, other seats, the server), in words, or None."""

    @abstractmethod
    def advice(self) -> Advice | None:
        """The trainer's values for the seat's undecided hand (None without a trainer)."""

    @abstractmethod
    def result_text(self) -> str:
        """The seat's last round in words, or that it waits for the other seats."""

    @abstractmethod
    def session_result(self) -> str:
        """What the session came to: rounds and money."""

    def reminder(self) -> tuple[str, str] | None:
        """The server's latest reminder not yet shown (a title and its words), once; None at a
        table in this process, which has no server to send one."""
        return None

    # ---- bets ------------------------------------------------------------------------------------

    def change_stake(self, steps: int) -> str:
        """Up/Down: the stake by one unit of the currency (Shift: ten), within the limits, as the
        seed of game 1 says; an ante already placed moves with it."""
        lim, currency = self.table.limits, self.table.variant.currency
        self.stake = stake_step(self.stake, stake_unit(currency), lim, steps)
        view = self._view()
        if view.bets.ante and "ante" in view.actions:
            self._send("ante", amount=self.stake)
        return f"stake {self._fmt(self.stake)}"

    def repeat_last_bet(self) -> str:
        self._send("rebet")
        self.stake = self._view().bets.ante or self.stake
        return "last bets repeated"

    def clear(self) -> str:
        self._send("clear")
        return "bets cleared"

    def toggle_progressive(self) -> str:
        on = not self._view().bets.progressive
        self._send("progressive", on=on)
        return "progressive bet " + ("placed" if on else "removed")

    def toggle_side_bet(self) -> str:
        bets = self.table.variant.side_bets
        if not bets:
            raise IllegalActionError(f"{self.table.variant.name} has no side bet")
        bet = bets[0]
        amount = 0 if self._view().bets.side(bet.name) else max(bet.minimum, min(bet.maximum, self.stake))
        self._send("side_bet", name=bet.name, amount=amount)
        return f"{bet.title} " + (f"bet {self._fmt(amount)}" if amount else "removed")

    # ---- the player's seed -----------------------------------------------------------------------

    def _commit_seed(self) -> str | None:
        """Commits to the player's seed for the open round where the table takes one (before the
        deal); returns the seed, hex, to reveal once bets close."""
        view = self._view()
        seed = own_seed(self.player_seed)
        if not view.seed_open or view.seed_committed or seed is None:
            return None
        self._send("commit_seed", commitment=seed_commitment(seed))
        return seed

    def _reveal_seed(self, seed: str | None) -> None:
        """Reveals the seed once the deal has closed bets (the deal follows)."""
        if seed is not None and "reveal_seed" in self._view().actions:
            self._send("reveal_seed", seed=seed)

    # ---- the round -------------------------------------------------------------------------------

    def enter(self) -> str:
        """Enter: raise (call) once dealt, else deal, placing the stake as the ante first."""
        view = self._view()
        if "raise" in view.actions:
            return self.decide(Decision.RAISE)
        if view.bets.ante != self.stake:
            self._send("ante", amount=self.stake)
        self._deal()
        self.selected.clear()
        return f"dealt: {self.table.variant.bet_words.bet} (Enter), fold (-)"

    def decide(self, decision: Decision) -> str:
        advice, view = self.advice(), self._view()
        self._send("raise" if decision is Decision.RAISE else "fold")
        self._judge(advice, str(decision), view)
        return self.result_text()

    def select(self, index: int) -> str:
        """1-5: picks or unpicks a card for the exchange, only in the example variant where the
        seat chooses the cards (game 4 exchanges the whole hand)."""
        x, view = self.table.variant.exchanges, self._view()
        if x is None or x.cards is not ExchangeCards.CHOOSE:
            raise IllegalActionError(f"{self.table.variant.name} has no exchanges of chosen cards")
        if view.phase is not Phase.DECIDING or index >= len(view.cards):
            raise IllegalActionError("pick cards once dealt, before deciding")
        self.selected ^= {index}
        return "to exchange: " + (" ".join(view.cards[i] for i in sorted(self.selected)) or "none")

    def exchange(self) -> str:
        """x: game 4 exchanges all five cards (the example where the seat chooses: the picked ones)."""
        x = self.table.variant.exchanges
        if x is None:
            raise IllegalActionError(f"{self.table.variant.name} has no exchanges")
        advice, view = self.advice(), self._view()
        if x.cards is ExchangeCards.ALL:
            self._send("exchange")
        elif not self.selected:
            raise IllegalActionError("pick the cards to exchange with 1-5 first")
        else:
            self._send("exchange", cards=[view.cards[i] for i in sorted(self.selected)])
        self.selected.clear()
        if x.cards is ExchangeCards.ALL:  # the whole hand: the choice the trainer values
            self._judge(advice, "exchange", view)
        return "exchanged: now " + " ".join(self._view().cards)

    def _judge(self, advice: Advice | None, chosen: str, view: SeatView) -> None:
        """Counts a decision, and a mistake where the trainer advised another choice."""
        self.decisions += 1
        if advice is not None and chosen != advice.best:
            cards, board = shown(view, self.table.variant)
            self.mistakes.append(Mistake(view.round, cards, board, chosen, advice.best, advice.cost(chosen)))

    # ---- what the screen shows -------------------------------------------------------------------

    @property
    def in_round(self) -> bool:
        """The seat is dealt in and has not decided: quitting now leaves the hand to the table."""
        return "fold" in self._view().actions

    def report(self) -> str:
        """What the session came to, then the trainer's report: each mistake and what it cost."""
        if not self.trainer:
            return self.session_result()
        cost = sum((m.cost for m in self.mistakes), Fraction(0))
        lines = [
            self.session_result(),
            f"Trainer: {len(self.mistakes)} mistakes in {self.decisions} decisions, costing {float(cost):.2f} antes",
        ]
        word = self._word
        lines += [
            f"  round {m.round}: {m.cards} against {m.board}: {word(m.chosen)} where {word(m.best)} is best "
            f"(-{float(m.cost):.2f} antes)"
            for m in self.mistakes
        ]
        return "\n".join(lines)

    def _word(self, decision: str) -> str:
        return decision_word(self.table.variant, decision)

    def _view(self) -> SeatView:
        return self.table.view(self.seat)

    def _fmt(self, minor: int) -> str:
        return self.table.variant.currency.format(minor)


def shown(view: SeatView, variant: Variant) -> tuple[str, str]:
    """The seat's cards and what it sees while deciding: the board's flop where the game has a
    board, else the dealer's up cards (`Variant.layout`)."""
    lay = variant.layout
    board = view.board[: lay.flop] if lay.board else view.dealer[len(view.dealer) - lay.dealer_up :]
    return " ".join(view.cards), " ".join(board)


def own_seed(text: str | None) -> str | None:
    """The player's seed as hex: the UTF-8 bytes of their text (1 to `SEED_MOST`), 32 random bytes
    for None, none for ""."""
    if text is None:
        return secrets.token_hex(32)
    data = text.encode()
    if len(data) > SEED_MOST:
        raise ArgumentError(f"a seed of your own is at most {SEED_MOST} bytes, not {len(data)}")
    return data.hex() or None
