"""The engine's commands: the one list of what a table records as an input, and of what a player
may send it by name.

Each entry is a command the record keeps (its event kind, with its arguments in
`public["args"]`) and the handler that runs it (`_<name>` on the table: `_ante`, `_raise`, ...).
From this list come `events.COMMANDS` (which events are inputs, replayed), `Table.execute` (a
replay runs a recorded command by name), `TableCore._run` (which handler a command runs) and
`Table.play` (a player's command by the name a client sends: the server's protocol, the terminal
client's keys). A command a player may send names the public `Table` method it runs (which adds
what the record needs, such as the account book's limit) and the fields it takes besides the seat.

Adding a command to the engine is one entry here and its handler; a player's command is then
also one entry in the protocol's list (`server/wire/commands.py`), whose tests hold the two together.
A command the server runs for a player, not the player by name (sitting down with the account,
say), is an entry with its recorded arguments and no `method`:
`EngineCommand("sit", ("seat", "account", "amount"))`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["ENGINE", "PLAYED", "EngineCommand"]


@dataclass(frozen=True)
class EngineCommand:
    name: str
    """The recorded event kind; the table's handler for it is `_<name>`."""
    args: tuple[str, ...] = ()
    """The arguments recorded with it (as the handler takes them)."""
    method: str | None = None
    """The public `Table` method a player's command runs; None: not a player's command."""
    fields: tuple[str, ...] = ()
    """What a player sends besides the seat, passed to `method` by name (missing: its default)."""
    seated: bool = True
    """`method` takes the player's seat first (`deal` is anyone's)."""
    aliases: tuple[str, ...] = ()
    """Other names a player may send for it ("call": the same spot as "raise")."""
    whole_hand: bool = False
    """A player's command that names no cards means the seat's whole hand (the exchange)."""

    @property
    def handler(self) -> str:
        return f"_{self.name}"


_LIST = (
    EngineCommand("deposit", ("seat", "amount")),
    EngineCommand("withdraw", ("seat", "amount")),
    EngineCommand("set_limit", ("seat", "amount"), method="set_limit", fields=("amount",)),
    EngineCommand("ante", ("seat", "amount", "account"), method="ante", fields=("amount",)),
    EngineCommand("progressive", ("seat", "on"), method="progressive", fields=("on",)),
    EngineCommand("side_bet", ("seat", "name", "amount"), method="side_bet", fields=("name", "amount")),
    EngineCommand("clear", ("seat",), method="clear"),
    EngineCommand("rebet", ("seat", "account"), method="rebet"),
    EngineCommand("deal", (), method="deal", seated=False),
    EngineCommand("fold", ("seat",), method="fold"),
    EngineCommand("raise", ("seat",), method="raise_", aliases=("call",)),
    EngineCommand("exchange", ("seat", "cards"), method="exchange", fields=("cards",), whole_hand=True),
    EngineCommand("disconnect", ("seat",)),
    EngineCommand("complete", ("seat", "decision")),
    EngineCommand("tick", ()),
    EngineCommand("fault", ("reason",)),
    EngineCommand("restore", ()),
    EngineCommand("reopen", ()),
    EngineCommand("sit", ("seat", "account", "amount")),
    EngineCommand("adopt", ("seat", "account", "since")),
    EngineCommand("leave", ("seat",)),
    EngineCommand("away", ("seat", "stand_after")),
    EngineCommand("back", ("seat",)),
)

ENGINE: Mapping[str, EngineCommand] = {c.name: c for c in _LIST}
"""Every command the engine records, by its recorded name."""

PLAYED: Mapping[str, EngineCommand] = {name: c for c in _LIST if c.method is not None for name in (c.name, *c.aliases)}
"""A player's commands by every name a client may send for them."""
