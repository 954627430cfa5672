"""A progressive's history from a table's record (`GET /api/progressive/<table>`): the meter after
each round that moved it, and every prize the progressive paid.

Read from the committed events (`table_log`), the ledger's transfers in and out of the meter
summed in order, so the history is the engine's own money and survives restarts. A prize is shown
with its round, time, hand and amount, and no seat or account: which player won stays theirs.
"""

from __future__ import annotations

from typing import Any

from ..variants import Variant
from .db import Tx
from .record import events_in

__all__ = ["MOST_POINTS", "progressive_history"]

MOST_POINTS = 500
"""The meter's latest points a history gives (the prizes are all given)."""


def progressive_history(tx: Tx, table_id: str, v: Variant) -> dict[str, Any]:
    """{"points": [{"round", "time", "meter"}], "prizes": [{"round", "time", "hand", "prize",
    "from_meter"}]}, oldest first; a prize's hand is the class of the seat's first five cards, which the
    progressive pays on."""
    meter = 0
    stake = v.progressive.stake if v.progressive is not None else 0  # a won bet's net is the prize less it
    points: list[dict[str, Any]] = []
    prizes: list[dict[str, Any]] = []
    rows = tx.all("SELECT body FROM table_log WHERE table_id = ? ORDER BY seq", (table_id,))
    last = None
    for event in (e for (body,) in rows for e in events_in(body)):
        number, kind = event["round"], event["kind"]
        for source, target, amount in event["transfers"]:
            meter += int(amount) if target == "meter" else -int(amount) if source == "meter" else 0
        if kind == "settled":
            net = event["public"].get("net", {})
            if int(net.get("progressive", 0)) > 0:
                first_five = event["public"]["outcome"].get("first_five")
                hand = v.classify(int(first_five)).label if first_five is not None else event["public"].get("hand", "")
                prizes.append(
                    {
                        "round": int(number),
                        "time": event["time"],
                        "hand": hand,
                        "prize": int(net["progressive"]) + stake,  # the prize, as the paytable says it
                        "from_meter": int(net.get("meter_paid", 0)),
                    }
                )
        if kind == "round_closed" and meter != last:
            points.append({"round": int(number), "time": event["time"], "meter": meter})
            last = meter
    return {"points": points[-MOST_POINTS:], "prizes": prizes}
