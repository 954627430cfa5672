"""The trainer's advice over the wire (`advice`): what folding and raising (calling) are worth
for the seat's undecided hand, in antes, from the exact tables (analysis/advice.py), exactly as
the terminal trainer shows them (game 4, while an exchange is allowed: exchanging the hand too).
Each variant's tables are built once, in a worker thread (stud's quickly, hold'em's slowly: `serve`
builds them at start); until they are ready the answer says so at once, `{"ready": false}`, rather
than holding up the socket's other commands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from ...analysis.advice import EXCHANGE, Advisor
from ...engine import SeatView
from ...errors import IllegalActionError, ServerError
from ...settlement import Decision
from ...variants import Variant
from .owner import Owner

__all__ = ["Advisors"]

_log = logging.getLogger(__name__)


class Advisors:
    """One `Advisor` per variant, built on first use in a worker thread."""

    def __init__(self) -> None:
        self._built: dict[str, asyncio.Task[Advisor]] = {}
        self._warming: asyncio.Task[None] | None = None

    def warm(self, variants: Iterable[Variant]) -> None:
        """Builds every served variant's advisor now, one after another, so that the first
        decision at any table gets advice and a round left open past its limit is completed at
        once: hold'em's read from the cache of counted tables (or counted once, slowly, and kept
        there), stud's counted (well under a second each). Until they are built, `warming` says so
        (`/healthz`): a server still warming spends a core's seconds on them."""
        unique = {v.name: v for v in variants}
        self._warming = asyncio.create_task(self._warm(unique.values()))

    @property
    def warming(self) -> bool:
        """The advisors `warm` began are still being built."""
        return self._warming is not None and not self._warming.done()

    async def _warm(self, variants: Iterable[Variant]) -> None:
        for variant in variants:
            try:
                await self._advisor(variant)
            except Exception:
                _log.exception("the trainer's tables for %s were not built", variant.name)

    def _advisor(self, variant: Variant) -> asyncio.Task[Advisor]:
        if variant.name not in self._built:
            self._built[variant.name] = asyncio.create_task(asyncio.to_thread(Advisor, variant))
        return self._built[variant.name]

    async def completion(self, variant: Variant, view: SeatView) -> str:
        """The best strategy's decision for a round left open past its limit (`Advice.completion`),
        once the variant's tables are built."""
        advisor = await self._advisor(variant)
        return advisor.advise_view(view).completion

    def advise(self, owner: Owner, account: str | None) -> dict[str, Any]:
        seat = owner.seat_of(account)
        if seat is None:
            raise ServerError(f"you hold no seat at {owner.spec.id}", "not_seated")
        if seat not in owner.t.undecided():
            raise IllegalActionError("there is no undecided hand to advise on")
        view, building = owner.t.view(seat), self._advisor(owner.spec.variant)
        if not building.done():
            return {"ready": False, "round": view.round}
        advice = building.result().advise_view(view)
        choices = [str(Decision.RAISE), str(Decision.FOLD)] + ([EXCHANGE] if advice.exchange is not None else [])
        return {
            "ready": True,
            "round": view.round,
            "best": advice.best,
            "exact": {c: str(advice.value(c)) for c in choices},
            "antes": {c: float(advice.value(c)) for c in choices},
        }
