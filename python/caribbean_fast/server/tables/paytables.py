"""Approved paytable changes reaching the tables, in every process.

The office approves a change in the database (`store/paytables`); each process reads the approved
changes every `CHANGES_EVERY` seconds. A table it serves whose variant a change replaces takes it
at its next round boundary (`Owner.change_between_rounds`: the engine's `change_variant`, its
`paytable_applied` row in the same commit); a table another process serves is shown under the
variant it took, as the database says, so the rules page and the lobby follow it everywhere. A
change names the game it replaces, so changes follow one another (A to B, then B to C).
"""

from __future__ import annotations

import asyncio
import logging
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...variants import Variant
from ...variants.toml_io import from_dict
from ..store import paytables
from ..store.db import Tx
from .owner import Owner, TableSpec

__all__ = ["CHANGES_EVERY", "Approved", "Changes"]

_log = logging.getLogger(__name__)
CHANGES_EVERY = 2.0  # seconds between reads of the approved changes


@dataclass(frozen=True)
class Approved:
    id: int
    game: str  # the variant's name it replaces
    variant: Variant


class Changes:
    """The approved changes as last read, and each table's changes taken."""

    def __init__(self) -> None:
        self.approved: dict[str, Approved] = {}  # the game replaced -> the latest change approved for it
        self.by_id: dict[int, Approved] = {}
        self.taken: dict[str, list[dict[str, Any]]] = {}  # table -> the changes it took, in order

    def read(self, tx: Tx) -> None:
        taken = paytables.applied(tx)
        for ident, game, _, text in paytables.approved(tx):
            if ident not in self.by_id:
                found = Approved(ident, game, from_dict(tomllib.loads(text)))
                self.by_id[ident] = self.approved[game] = found
        self.taken = taken

    def next_for(self, variant: Variant) -> Approved | None:
        """The approved change a table of `variant` takes at its next round boundary."""
        return self.approved.get(variant.name)

    def latest(self, variant: Variant) -> Variant:
        """The variant a new table of `variant` opens with: every approved change in turn (a
        hook for tables opened on demand)."""
        seen = {variant.name}
        while (found := self.next_for(variant)) is not None and found.variant.name not in seen:
            variant = found.variant
            seen.add(variant.name)
        return variant

    def shown(self, spec: TableSpec) -> TableSpec:
        """A table another process serves, under the variant its last change taken made it."""
        taken = self.taken.get(spec.id)
        change = self.by_id.get(taken[-1]["change"]) if taken else None
        return spec if change is None or change.variant == spec.variant else replace(spec, variant=change.variant)

    def reach(
        self, owners: Mapping[str, Owner], specs: Mapping[str, TableSpec], follow: Callable[[TableSpec], None]
    ) -> None:
        """Each served table (own tables included) told its next change; each other table shown
        under its variant."""
        every = {**specs, **{table: owner.spec for table, owner in owners.items()}}
        for table, spec in every.items():
            owner = owners.get(table)
            if owner is None:
                shown = self.shown(spec)
                if shown is not spec:
                    follow(shown)
            elif owner.table is not None and (found := self.next_for(owner.table.variant)) is not None:
                owner.change_between_rounds(found.id, found.variant)

    async def follow(
        self,
        reads: Any,
        owners: Mapping[str, Owner],
        specs: Mapping[str, TableSpec],
        follow: Callable[[TableSpec], None],
    ) -> None:
        """Every `CHANGES_EVERY` seconds: read, then `reach`."""
        while True:
            await asyncio.sleep(CHANGES_EVERY)
            try:
                await reads.run(self.read)
                self.reach(owners, specs, follow)
            except Exception as err:  # the database is failing: the next pass reads again
                _log.warning("paytable changes not read: %s", err)
