"""A table's rules as JSON for the page (`GET /api/rules/<table>`): the paytables, the bets and
their limits, the progressive's prizes, side bets, exchanges and timers, all read from the
variant, so the page shows the rules the engine plays by and never a copy of them."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..variants import Family, Variant

__all__ = ["rules_json"]


def _pays(value: Fraction | None) -> str:
    return "push" if value is None else f"{value} to 1"


def _paytable(v: Variant) -> list[dict[str, str]]:
    return [
        {
            "hand": c.label,
            "ante": _pays(v.ante_paytable.get(c)),
            "raise": _pays(v.raise_paytable.get(c)) if c in v.raise_paytable else "cannot win",
            "raise_no_qualify": _pays(v.raise_paytable_no_qualify.get(c)),
        }
        for c in reversed(v.classes)
    ]


def _progressive(v: Variant) -> dict[str, Any] | None:
    p = v.progressive
    if p is None:
        return None
    prizes = [
        {"hand": c.label, "amount": prize.amount, "meter_percent": float(prize.meter_share * 100)}
        for c, prize in sorted(p.prizes.items(), reverse=True)
    ]
    return {"stake": p.stake, "contribution": p.contribution, "paid_on_fold": p.paid_on_fold, "prizes": prizes}


def rules_json(table: str, v: Variant, limits: int) -> dict[str, Any]:
    lim = v.limits[limits] if v.limits else None
    t, x = v.timing, v.exchanges
    return {
        "table": table,
        "game": v.name,
        "title": v.title,
        "family": str(v.family),
        "bet": "call" if v.family is Family.HOLDEM or v.exchanges else "raise",  # as the games name it
        "raise_multiple": str(v.raise_multiple),
        "qualifier": v.qualifier.description,
        "paytable": _paytable(v),
        "limits": {"minimum": lim.minimum, "maximum": lim.maximum} if lim else None,
        "progressive": _progressive(v),
        "side_bets": [
            {
                "name": b.name,
                "minimum": b.minimum,
                "maximum": b.maximum,
                "tiers": [{"hand": th.description, "pays": _pays(p)} for th, p in b.tiers],
            }
            for b in v.side_bets
        ],
        "exchanges": {"fee_antes": str(x.fee_antes), "most_per_round": x.most_per_round} if x else None,
        "timing": {"bet_seconds": t.bet_seconds, "decision_seconds": t.decision_seconds},
        "currency": {"code": v.currency.code, "minor_per_major": v.currency.minor_per_major},
        "seats": v.seats,
    }
