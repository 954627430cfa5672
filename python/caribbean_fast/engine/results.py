"""Each bet spot's result at settlement: its stake, its net, won, lost or push, and the odds a won
bet was paid at.

From the rules' third edition (`core.EDITION`) the settled event carries these (`spot_results`,
worked out with the round's own settlement), so a view reads them and never settles again; a
record of an earlier edition has none, and its views derive them from the settled outcome as
they always did (`bet_results`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..hands import HandClass
from ..settlement import Decision, Outcome, Settlement, Showdown, settle
from ..variants import Variant

__all__ = ["bet_results", "spot_results", "spot_title"]

Spot = dict[str, Any]


def spot_results(v: Variant, exact: Settlement, net: dict[str, Any], staked: dict[str, Any]) -> list[Spot]:
    """Each staked spot ("ante", "raise", "side:<name>", "progressive", in that order) of a seat's
    settlement: `exact` what it pays per unit of stake, `net` the seat's nets
    (`SeatSettlement.public`) and `staked` its bets (`Bets.to_dict`). `pays`: the odds of a won
    bet paid by a table ("7 to 1"), None for a progressive prize (an amount) or a bet not won."""
    raised = int(net["raise"])  # the raise's odds are per unit of its stake: worked out only when it won
    spots: list[tuple[str, int, int, Fraction | None]] = [
        ("ante", int(staked["ante"]), int(net["ante"]), exact.ante),
        ("raise", int(staked["raise"]), raised, exact.raise_ / v.raise_multiple if raised > 0 else None),
    ]
    for name, stake in sorted(staked["side_bets"].items()):
        spots.append((f"side:{name}", int(stake), int(net["side_bets"].get(name, 0)), exact.side_bets.get(name)))
    if staked["progressive"] and v.progressive is not None:
        spots.append(("progressive", v.progressive.stake, int(net["progressive"]), None))
    out = []
    for spot, stake, won, odds in spots:
        if not stake:
            continue
        word = "won" if won > 0 else "lost" if won < 0 else "push"
        pays = f"{odds} to 1" if word == "won" and odds is not None and odds > 0 else None
        out.append({"spot": spot, "stake": stake, "net": won, "result": word, "pays": pays})
    return out


def spot_title(v: Variant, spot: str) -> str:
    """A spot's title, from the variant's names of its bets: "Ante", "Call", "AA Bonus"."""
    if spot.startswith("side:"):
        return v.side_bet(spot.removeprefix("side:")).title
    if spot == "raise":
        return v.bet_words.title
    return _TITLES[spot]


_TITLES = {"ante": "Ante", "progressive": "Progressive"}
"""The titles of the spots every variant names alike."""


def _settled_again(v: Variant, result: dict[str, Any]) -> Settlement:
    """A settled result of an edition before the third, settled again from its outcome."""
    o = result["outcome"]
    outcome = Outcome(
        Decision(o["decision"]),
        HandClass[str(o["hand_class"]).upper()],
        bool(o["dealer_qualifies"]),
        Showdown(o["showdown"]),
        int(o["exchanges"]),
        o["first_five"],
    )
    return settle(v, outcome)


def bet_results(v: Variant, result: dict[str, Any], staked: dict[str, Any]) -> list[Spot]:
    """Each bet spot's result as a view shows it, with its title: the settled event's
    (`result["bets"]`), or for a record of an earlier edition, derived from its outcome."""
    spots = result.get("bets")
    if spots is None:
        spots = spot_results(v, _settled_again(v, result), result["net"], staked)
    return [{"spot": s["spot"], "title": spot_title(v, s["spot"]), **s} for s in spots]
