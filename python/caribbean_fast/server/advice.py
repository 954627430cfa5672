"""The trainer's advice over the wire (`advice`): what folding and raising (calling) are worth
for the seat's undecided hand, in antes, from the exact tables (analysis/advice.py), exactly as
the terminal trainer shows them. Each variant's tables are built once, in a worker thread (a few
seconds for stud, about a minute for hold'em); until they are ready the answer says so at once,
`{"ready": false}`, rather than holding up the socket's other commands."""

from __future__ import annotations

import asyncio
from typing import Any

from ..analysis.advice import Advisor
from ..errors import IllegalActionError, ServerError
from ..settlement import Decision
from ..variants import Family, Variant
from .tables import Owner

__all__ = ["Advisors"]


class Advisors:
    """One `Advisor` per variant, built on first use in a worker thread."""

    def __init__(self) -> None:
        self._built: dict[str, asyncio.Task[Advisor]] = {}

    def _advisor(self, variant: Variant) -> asyncio.Task[Advisor]:
        if variant.name not in self._built:
            self._built[variant.name] = asyncio.create_task(asyncio.to_thread(Advisor, variant))
        return self._built[variant.name]

    def advise(self, owner: Owner, account: str | None) -> dict[str, Any]:
        seat = owner.seat_of(account)
        if seat is None:
            raise ServerError(f"you hold no seat at {owner.spec.id}", "not_seated")
        if seat not in owner.t.undecided():
            raise IllegalActionError("there is no undecided hand to advise on")
        view, variant = owner.t.view(seat), owner.spec.variant
        board = view.dealer[-1:] if variant.family is Family.STUD else view.board[:3]
        building = self._advisor(variant)
        if not building.done():
            return {"ready": False, "round": view.round}
        advice = building.result().advise(list(view.cards), list(board))
        return {
            "ready": True,
            "round": view.round,
            "best": str(advice.best),
            "exact": {str(d): str(advice.value(d)) for d in (Decision.RAISE, Decision.FOLD)},
            "antes": {str(d): float(advice.value(d)) for d in (Decision.RAISE, Decision.FOLD)},
        }
