"""A table's variant changed between rounds (`change_variant`): a paytable change the operator approved.

A table's record writes its variant once, when the record begins (its meta data). A later variant
is a command of its own, carrying the variant's whole TOML text and that text's SHA-256, so the
record alone replays every round under the text it was played with: a replay runs the command
again and reads the text from it, as a restore does. The command is taken only between rounds (no
bet placed, nothing dealt), so no round ever mixes two variants; mid-round it is refused and
changes nothing. The new variant must keep what the table's money and seats are made of: its
family (the cards a round deals), its currency (the wallets' minor units), room for the table's
seats and its limit table.

The table's own meter (a table with no shared pool) stays as it is when both variants have a
progressive; a variant that brings one where there was none seeds it at its reset, as a new table
does. A server's shared pools follow their prize schedule instead (`server/store/pools.pool_key`).
"""

from __future__ import annotations

import hashlib
import tomllib

from ..errors import ArgumentError, VariantError
from ..variants import Variant
from ..variants.toml_io import from_dict, to_toml
from .commands import CHANGE_VARIANT, handles
from .core import TableCore, illegal
from .events import Event
from .state import EventKind

__all__ = ["VariantChange", "variant_hash"]


def variant_hash(text: str) -> str:
    """The SHA-256 (hex) a variant's text is kept and named by (the server's `variant_texts`)."""
    return hashlib.sha256(text.encode()).hexdigest()


class VariantChange(TableCore):
    """The command that plays the table's next rounds under another variant."""

    def change_variant(self, variant: Variant) -> list[Event]:
        """Plays the next rounds under `variant` (recorded by its TOML text and the text's hash);
        IllegalActionError while a round is open, ArgumentError for a variant this table cannot
        take. The table's variant is `self.variant` from then on."""
        text = to_toml(variant)
        return self._run(CHANGE_VARIANT, sha256=variant_hash(text), text=text)

    def can_change_variant(self) -> bool:
        """Whether a change would be taken now (between rounds)."""
        return self.between_rounds

    @handles(CHANGE_VARIANT)
    def _change_variant(self, sha256: str, text: str) -> None:
        illegal(not self.between_rounds, f"round {self.round} is open: the variant changes between rounds")
        if not isinstance(text, str) or not isinstance(sha256, str) or variant_hash(text) != sha256:
            raise ArgumentError("change_variant: the text does not match its SHA-256")
        new = self._readable(text)
        old, seats, limits = self.variant, self.seats, self.config["limits"] or 0
        if new.family is not old.family or new.currency != old.currency:
            what = f"{new.family.value} in {new.currency.code}, not {old.family.value} in {old.currency.code}"
            raise ArgumentError(f"change_variant: {new.name} is a game of {what}")
        try:
            self.check_config(new, seats, limits)
        except ArgumentError as err:
            raise ArgumentError(f"change_variant: {err}") from None
        seed = [("house", "meter", new.progressive.reset)] if new.progressive and not old.progressive else []
        public = {"variant": new.name, "hash": sha256, "was": old.name}
        self._emit(EventKind.VARIANT_CHANGED, None, public, transfers=[t for t in seed if t[2]])
        self.variant, self.limits = new, new.limits[limits]
        # what the table worked out once from the old variant
        for worked_out in ("_multiples", "_ante_unit", "_views", "_pays", "_raise_ratio"):
            self.__dict__.pop(worked_out, None)

    @staticmethod
    def _readable(text: str) -> Variant:
        try:
            return from_dict(tomllib.loads(text))
        except (VariantError, tomllib.TOMLDecodeError) as err:
            raise ArgumentError(f"change_variant: the variant's text: {err}".partition("\n")[0]) from None
