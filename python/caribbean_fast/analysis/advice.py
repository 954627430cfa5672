"""The trainer's advice: what each choice is worth, in antes, for a dealt hand, from the exact
enumeration, and which is best (the par sheet's best strategy, to the same integers).

Stud: the value of raising a hand against the up card, averaged over every hidden dealer hand;
hold'em: the value of calling on the flop, averaged over every turn, river and dealer pair. A fold
is worth the ante lost. Game 4, while an exchange is allowed: exchanging is worth the fee lost plus
a fresh hand with one exchange fewer against the same up card (`analysis.exchange`, which states
its approximation). Only the main game is valued."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..cards import CardsLike, parse_cards
from ..engine.views import SeatView
from ..errors import InvalidCardsError
from ..progress import ProgressCallback
from ..settlement import Decision
from ..variants import Family, Variant
from .cache import cached_arrays
from .categories import HOLDEM_SLOTS, scaled_nets
from .exchange import ExchangePlan
from .holdem import HoldemRows, holdem_rows
from .situations import HOLDEM_DEALS_PER_FLOP, STUD_DEALER_HANDS
from .strategy import holdem_key, stud_key
from .stud import stud_exchange_plan, stud_rows

__all__ = ["EXCHANGE", "Advice", "Advisor"]


EXCHANGE = "exchange"


@dataclass(frozen=True)
class Advice:
    """The expected net, in antes, of folding, of raising (calling) and, in game 4 while an
    exchange is allowed, of exchanging; and the best of them ("raise", "fold" or "exchange")."""

    fold: Fraction
    raise_: Fraction
    exchange: Fraction | None = None

    @property
    def best(self) -> str:
        stay = Decision.RAISE if self.raise_ >= self.fold else Decision.FOLD
        if self.exchange is not None and self.exchange > self.value(stay):
            return EXCHANGE
        return str(stay)

    @property
    def completion(self) -> str:
        """The decision that completes a round its player left open past its limit: the best of
        raising and folding, so a hand the best strategy raises is never folded (an exchange,
        which spends the absent player's money on a fee, is not taken for them)."""
        return str(Decision.RAISE if self.raise_ >= self.fold else Decision.FOLD)

    def value(self, choice: str) -> Fraction:
        if choice == EXCHANGE:
            if self.exchange is None:
                raise InvalidCardsError("no exchange is allowed here")
            return self.exchange
        return self.raise_ if choice == Decision.RAISE else self.fold

    def cost(self, choice: str) -> Fraction:
        """What choosing `choice` gives up against the best choice, in antes."""
        return self.value(self.best) - self.value(choice)


def _holdem_arrays(variant: Variant, progress: ProgressCallback | None) -> dict[str, npt.NDArray[np.int64]]:
    """Hold'em's tables, sorted by situation: what the cache keeps."""
    h: HoldemRows = holdem_rows(variant, progress)  # its situations in the order of their keys
    per_row = HOLDEM_DEALS_PER_FLOP * scaled_nets(variant, HOLDEM_SLOTS).scale
    return {
        "keys": h.situations.keys,
        "raise": h.call_value,
        "fold": h.fold_value,
        "weight": h.situations.weight,
        "per_row": np.array(per_row, dtype=np.int64),
    }


class Advisor:
    """Advice for any dealt hand of one variant (the first use pays the exact enumeration, which
    `progress` hears of as `analyze`'s does)."""

    def __init__(self, variant: Variant, progress: ProgressCallback | None = None) -> None:
        self.variant = variant
        self._plan: ExchangePlan | None = None
        self._weight: npt.NDArray[np.int64] | None = None  # hold'em: each situation's count of deals
        if variant.family is Family.STUD:
            rows = stud_rows(variant, progress)  # its situations in the order of their keys
            self._plan = stud_exchange_plan(rows)
            self._keys, self._raise = rows.situations.keys, rows.raise_value
            self._fold = np.full(len(self._keys), rows.fold_value, dtype=np.int64)
            self._per_row = STUD_DEALER_HANDS * scaled_nets(variant, variant.classes).scale
        else:  # slow to count: counted once per variant and version, and kept
            arrays = cached_arrays("trainer", variant, lambda: _holdem_arrays(variant, progress))
            self._keys, self._raise, self._fold = arrays["keys"], arrays["raise"], arrays["fold"]
            self._weight, self._per_row = arrays["weight"], int(arrays["per_row"])

    @staticmethod
    def kept(variant: Variant) -> bool:
        """Whether the variant's tables are kept in the cache of counted tables (hold'em's, which
        are slow to count; stud's are quick, and counted when first asked)."""
        return variant.family is Family.HOLDEM

    def advise_view(self, view: SeatView) -> Advice:
        """Advice for the hand a seat's view shows, against what it shows of the dealer (stud: the
        up card) or of the board (hold'em: the flop), with the exchanges the seat may still make."""
        stud, x = self.variant.family is Family.STUD, self.variant.exchanges
        left = x.most_per_round - view.exchanges if x is not None and "exchange" in view.actions else 0
        return self.advise(list(view.cards), list(view.dealer[-1:] if stud else view.board[:3]), left)

    def advise(self, cards: CardsLike, board: CardsLike, exchanges_left: int = 0) -> Advice:
        """Stud: `advise(hand, up_card)`; hold'em: `advise(hole_cards, flop)`. Game 4: with
        `exchanges_left` (those the seat may still make now), the value of exchanging too."""
        exchange = None
        if self.variant.family is Family.STUD:
            hand, up = parse_cards(cards, 5), parse_cards(board, 1)
            parse_cards([*hand, *up])
            key = stud_key(hand, up[0])
            if exchanges_left > 0 and self._plan is not None:
                exchange = self._plan.exchange_value(min(exchanges_left, self._plan.most), up[0] >> 2)
        else:
            hole, flop = parse_cards(cards, 2), parse_cards(board, 3)
            parse_cards([*hole, *flop])
            key = holdem_key(hole, flop)
        i = int(np.searchsorted(self._keys, key))
        if i >= len(self._keys) or self._keys[i] != key:
            raise InvalidCardsError(f"no situation for {cards} against {board}")
        per = self._per_row * (int(self._weight[i]) if self._weight is not None else 1)
        return Advice(Fraction(int(self._fold[i]), per), Fraction(int(self._raise[i]), per), exchange)
