"""The par sheet's sentences that every output shares (the terminal's tables, JSON, Markdown, the
spreadsheet and the PDF): what strategy the figures are, and what a reader must not miss. No
drawing here, so the exports need no terminal library."""

from __future__ import annotations

from fractions import Fraction

from ..variants import ExchangeCards
from .parsheet import ParSheet

__all__ = ["strategy_words", "warnings"]


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def warnings(p: ParSheet) -> list[str]:
    """What a reader must not miss, such as a player's edge."""
    out = []
    if b := p.beaten_by:
        low, high = b.ci95
        out.append(
            f"WARNING: the player beats {p.variant.name}: {b.description} returns {b.mean:+.4%} of the ante "
            f"per round (95% interval {low:+.4%} to {high:+.4%}; {b.rounds:,} simulated rounds, seed {b.seed})."
        )
    if p.expected_return > 0:
        out.append(
            f"WARNING: {p.variant.name} returns more than 100% under the {p.strategy} strategy: the player "
            f"has the edge ({_pct(p.expected_return)} of the ante per round)."
        )
    return out + list(p.notes)


def strategy_words(p: ParSheet) -> str:
    """What strategy the sheet's figures are: where the seat chooses the cards to exchange, the
    exact count values every exchange as giving up all five, so its "best" is the best of those
    strategies only (the warning gives what choosing does)."""
    x = p.variant.exchanges
    if x is not None and x.cards is ExchangeCards.CHOOSE:
        return f"{p.strategy} strategy when every exchange gives up all five cards (not the best play: see the warning)"
    return f"{p.strategy} strategy"
