"""A game's return to player and house edge in words, from the package's own exact analysis (the
par sheet under the best strategy, `analysis.analyze`, whose counts are kept in the user's cache),
for the rules page: the figures are computed, never written down, and say which figure they are."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..analysis import analyze
from ..variants import Variant

__all__ = ["percent", "returns_document"]


def percent(f: Fraction, digits: int = 2) -> str:
    """A fraction as a percentage for people: 0.97452939 -> "97.45%" (display only)."""
    return f"{float(f) * 100:.{digits}f}%"


def returns_document(v: Variant) -> dict[str, Any]:
    """The main game's return under the best strategy: per unit wagered (ante and raise), the
    house's edge per ante and per unit wagered, exact (as fractions' text) and in words; the
    side bets' returns where the game has them; and what the figure is where it is not plain
    (game 4: exact under the exchange analysis' approximation)."""
    sheet = analyze(v, "best")
    words = v.bet_words
    lines = [
        f"Return to player: {percent(sheet.rtp)} of all money wagered (ante and {words.bet}) under the best "
        f"strategy, counted exactly over every deal.",
        f"House edge: {percent(sheet.house_edge)} of the ante ({percent(sheet.element_of_risk)} of all money wagered).",
    ]
    for side in sheet.side_bets:
        title = next((b.title for b in v.side_bets if b.name == side.name), side.name)
        played = percent(side.rtp("with this strategy"))
        calling = percent(side.rtp("calling whenever it wins"))
        lines.append(
            f"{title}: returns {played} of its stake when the main game is played best, and {calling} when you "
            "call whenever the bonus wins."
        )
    if sheet.player_edge:
        lines.append("Under these rules the player has the edge: the house loses in the long run.")
    return {
        "game": v.name,
        "strategy": "best",
        "rtp": str(sheet.rtp),
        "house_edge": str(sheet.house_edge),
        "element_of_risk": str(sheet.element_of_risk),
        "lines": lines,
        "notes": list(sheet.notes),  # game 4: which figure this is (exact under an approximation)
    }
