"""The strategy card: a sheet's strategy as a chart a person can read at the table, read off the
strategy table (the same cells give the text and the picture, `plots.plot_strategy_card`).

Stud: the rules by class (the table's summary), and a grid of the Ace-King high hands by their
third card (rows) and the dealer's up card (columns). Hold'em: the rules by what the flop makes,
and a grid of the starting hands (pairs on the diagonal, suited above it). Each cell is the share
of its situations, weighted by deals, on which the strategy raises (calls)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..cards import RANKS
from ..hands import HandClass, class_floor, evaluate
from ..variants import Family
from .parsheet import ParSheet
from .situations import holdem_situations, stud_situations

__all__ = ["StrategyCard", "strategy_card", "weighted_share"]


@dataclass(frozen=True)
class StrategyCard:
    """A strategy as rules and a grid of shares raised (NaN: no such situation)."""

    title: str
    rules: tuple[str, ...]
    grid_title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    shares: npt.NDArray[np.float64]
    bet: str  # "raise" or "call"

    def cell(self, r: int, c: int) -> str:
        """A cell as the card prints it: R (always), F (never), a percentage between, or blank."""
        share = float(self.shares[r, c])
        if np.isnan(share):
            return ""
        if share == 1:
            return self.bet[0].upper()
        return "F" if share == 0 else f"{max(1, math.floor(100 * share))}%"  # never "100%" short of all

    def text(self) -> str:
        """The card as plain text: rules, then the grid with a legend."""
        width = max(5, *(len(c) + 1 for c in self.columns))
        head = " " * 6 + "".join(f"{c:>{width}}" for c in self.columns)
        grid = [
            f"{label:<6}" + "".join(f"{self.cell(r, c):>{width}}" for c in range(len(self.columns)))
            for r, label in enumerate(self.rows)
        ]
        legend = f"{self.bet[0].upper()}: always {self.bet}; F: always fold; n%: {self.bet} n% of them"
        return "\n".join([self.title, "", *self.rules, "", self.grid_title, head, *grid, legend])


def weighted_share(
    groups: npt.NDArray[np.int64], decided: npt.NDArray[np.bool_], weight: npt.NDArray[np.int64], n: int
) -> npt.NDArray[np.float64]:
    """For each of `n` groups, the weighted share of its situations where `decided` holds (NaN:
    a group with none); the strategy card's and the strategy chart's cells."""
    total = np.bincount(groups, weights=weight, minlength=n)
    chosen = np.bincount(groups, weights=weight * decided, minlength=n)
    share: npt.NDArray[np.float64] = np.divide(chosen, total, out=np.full(n, np.nan), where=total > 0)
    return share


def _stud_grid(p: ParSheet) -> tuple[str, tuple[str, ...], tuple[str, ...], npt.NDArray[np.float64]]:
    s = stud_situations(p.variant.qualifier.strength)
    ranks = np.sort((s.hand >> 2).astype(np.int64), axis=1)[:, ::-1]
    floor = evaluate("Ac Kd 4h 3s 2c").strength
    ace_king = (s.strength >= floor) & (s.strength < class_floor(HandClass.ONE_PAIR))
    third = ranks[:, 2]
    thirds = list(range(10, 1, -1))  # Q down to 4: the third card of an Ace-King hand
    row = np.searchsorted(-np.array(thirds), -third)
    at = np.flatnonzero(ace_king)
    groups = row[at] * 13 + s.up_rank[at].astype(np.int64)
    shares = weighted_share(groups, np.asarray(p.table.raises)[at], s.weight[at], len(thirds) * 13)
    labels = tuple(f"AK{RANKS[t]}" for t in thirds)
    return "Ace-King high: third card (rows) against the dealer's up card", labels, tuple(RANKS), shares.reshape(-1, 13)


def _holdem_grid(p: ParSheet) -> tuple[str, tuple[str, ...], tuple[str, ...], npt.NDArray[np.float64]]:
    s = holdem_situations(p.variant.qualifier.strength)
    hi = np.maximum(s.cards[:, 0] >> 2, s.cards[:, 1] >> 2).astype(np.int64)
    lo = np.minimum(s.cards[:, 0] >> 2, s.cards[:, 1] >> 2).astype(np.int64)
    suited = (s.cards[:, 0] & 3) == (s.cards[:, 1] & 3)
    row, col = 12 - np.where(suited, hi, lo), 12 - np.where(suited, lo, hi)
    shares = weighted_share(row * 13 + col, np.asarray(p.table.raises), s.weight, 169)
    labels = tuple(reversed(RANKS))
    title = "Starting hands over every flop (pairs on the diagonal, suited above it)"
    return title, labels, labels, shares.reshape(13, 13)


def strategy_card(p: ParSheet) -> StrategyCard:
    """The card of a sheet's strategy (see the module)."""
    grid = _stud_grid(p) if p.variant.family is Family.STUD else _holdem_grid(p)
    title = f"{p.variant.title}: {p.strategy} strategy card"
    bet = p.variant.bet_words.bet
    return StrategyCard(title, tuple(p.table.summary_lines), *grid, bet=bet)
