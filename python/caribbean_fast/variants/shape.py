"""The rules' shape a variant gives its table: the card layout of its family and the names of its
bets (`Variant.layout`, `Variant.bet_words`, `SideBet.title`).

Data, not prose: the engine deals by the layout and names the bets in what it refuses and in each
bet's settled result; the words for people (the rules document, the keys, the history's steps)
are made from them above the engine, in `caribbean_fast.words`. Imports nothing of the package,
so that the model reads it without a circle.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CALL", "HOLDEM_LAYOUT", "RAISE", "STUD_LAYOUT", "BetWords", "Layout", "bet_title"]


@dataclass(frozen=True)
class Layout:
    """What a round deals and shows: `hand` cards per seat; `dealer` cards, `dealer_up` of them
    face up while the seats decide (the rest drawn face down: before the shown ones when
    `hidden_first`, as a stud dealer's up card is the last); a board of `board` cards, `flop` of
    them shown while deciding."""

    hand: int
    dealer: int
    dealer_up: int
    board: int
    flop: int
    hidden_first: bool


STUD_LAYOUT = Layout(hand=5, dealer=5, dealer_up=1, board=0, flop=0, hidden_first=True)
"""RULES.md, stud: five cards each, the dealer's last face up."""

HOLDEM_LAYOUT = Layout(hand=2, dealer=2, dealer_up=0, board=5, flop=3, hidden_first=False)
"""RULES.md, hold'em: two cards each, the dealer's face down, a board of five after a flop of three."""


@dataclass(frozen=True)
class BetWords:
    """The second bet in every form it is written: "call", "Call", "calls", "called"."""

    bet: str
    title: str
    does: str
    done: str


RAISE = BetWords("raise", "Raise", "raises", "raised")
"""The second bet of the stud games of seeds 000-002."""

CALL = BetWords("call", "Call", "calls", "called")
"""The second bet of seed 004 (Casino Hold'em) and seed 003 (game 4, the game with exchanges)."""


def bet_title(name: str) -> str:
    """A side bet's name as a title: "aa-bonus" is "AA Bonus" (a word of one or two letters is
    an abbreviation, as the seeds write "AA")."""
    return " ".join(w.upper() if len(w) <= 2 else w.capitalize() for w in name.split("-"))
