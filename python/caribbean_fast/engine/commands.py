"""The engine's commands: the one list of what a table records as an input, and of what a player
may send it by name.

Each entry is a command the record keeps (its event kind, with its arguments in
`public["args"]`) and, once the table's classes are defined, the handler that runs it: the
method marked `@handles(ANTE)` (`_ante`, `_raise`, ...). A command a player may send (`played`)
also keeps the public `Table` method marked `@plays(ANTE)`, which adds what the record needs
(such as the account book's limit), and the fields it takes besides the seat. The entry is found
once, where a command comes in (a frame's parse, a record's event, a key), and carried down with
its handler: nothing after looks a command up by its name.

From this list come `events.COMMANDS` (which events are inputs, replayed), `Table.execute` (a
replay runs a recorded command by name), `TableCore._run` (the handler a command runs) and
`Table.play` (a player's command: the server's protocol, the terminal client's keys). Adding a
command to the engine is one entry here and its handler; a player's command is then also one
entry in the protocol's list (`server/wire/commands.py`, which holds this entry), whose tests hold
the two together. A command the server runs for a player, not the player by name (sitting down
with the account, say), is an entry with its recorded arguments, not `played`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

__all__ = ["ENGINE", "PLAYED", "EngineCommand", "handles", "plays"]
# and each entry, a constant named as its command in capitals (`ANTE`, `SET_LIMIT`): a new command
# is its one line below

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class EngineCommand:
    name: str
    """The recorded event kind."""
    args: tuple[str, ...] = ()
    """The arguments recorded with it (as the handler takes them)."""
    played: bool = False
    """A player's command, run by a public `Table` method (`player`)."""
    fields: tuple[str, ...] = ()
    """What a player sends besides the seat, passed to `player` by name (missing: its default)."""
    seated: bool = True
    """`player` takes the player's seat first (`deal` is anyone's)."""
    aliases: tuple[str, ...] = ()
    """Other names a player may send for it ("call": the same spot as "raise")."""
    whole_hand: bool = False
    """A player's command that names no cards means the seat's whole hand (the exchange)."""
    handler: Callable[..., None] = field(init=False, repr=False, compare=False)
    """The table's method that runs it (`handles`), called with the table and `args`."""
    player: Callable[..., Any] | None = field(default=None, init=False, repr=False, compare=False)
    """The public `Table` method a player's command runs (`plays`); None: not a player's."""


_LIST: list[EngineCommand] = []


def _entry(name: str, args: tuple[str, ...] = (), **player: Any) -> EngineCommand:
    command = EngineCommand(name, args, **player)
    _LIST.append(command)
    return command


DEPOSIT = _entry("deposit", ("seat", "amount"))
WITHDRAW = _entry("withdraw", ("seat", "amount"))
SET_LIMIT = _entry("set_limit", ("seat", "amount"), played=True, fields=("amount",))
ANTE = _entry("ante", ("seat", "amount", "account"), played=True, fields=("amount",))
PROGRESSIVE = _entry("progressive", ("seat", "on"), played=True, fields=("on",))
SIDE_BET = _entry("side_bet", ("seat", "name", "amount"), played=True, fields=("name", "amount"))
CLEAR = _entry("clear", ("seat",), played=True)
REBET = _entry("rebet", ("seat", "account"), played=True)
DEAL = _entry("deal", (), played=True, seated=False)
COMMIT_SEED = _entry("commit_seed", ("seat", "commitment"), played=True, fields=("commitment",))
REVEAL_SEED = _entry("reveal_seed", ("seat", "seed"), played=True, fields=("seed",))
FOLD = _entry("fold", ("seat",), played=True)
RAISE = _entry("raise", ("seat",), played=True, aliases=("call",))
EXCHANGE = _entry("exchange", ("seat", "cards"), played=True, fields=("cards",), whole_hand=True)
DISCONNECT = _entry("disconnect", ("seat",))
COMPLETE = _entry("complete", ("seat", "decision"))
TICK = _entry("tick")
FAULT = _entry("fault", ("reason",))
RESTORE = _entry("restore")
REOPEN = _entry("reopen")
SIT = _entry("sit", ("seat", "account", "amount"))
ADOPT = _entry("adopt", ("seat", "account", "since"))
LEAVE = _entry("leave", ("seat",))
AWAY = _entry("away", ("seat", "stand_after"))
BACK = _entry("back", ("seat",))
CHANGE_VARIANT = _entry("change_variant", ("sha256", "text"))  # between rounds (`paytable`)

ENGINE: Mapping[str, EngineCommand] = {c.name: c for c in _LIST}
"""Every command the engine records, by its recorded name."""

PLAYED: Mapping[str, EngineCommand] = {name: c for c in _LIST if c.played for name in (c.name, *c.aliases)}
"""A player's commands by every name a client may send for them."""


def handles(command: EngineCommand) -> Callable[[F], F]:
    """Marks the table's method that runs `command`: the entry keeps it, once."""

    def mark(handler: F) -> F:
        if "handler" in vars(command):
            raise TypeError(f"{command.name} has a handler already: {command.handler.__qualname__}")
        object.__setattr__(command, "handler", handler)  # frozen: the entry is filled once, here
        return handler

    return mark


def plays(command: EngineCommand) -> Callable[[F], F]:
    """Marks the public `Table` method a player's `command` runs: the entry keeps it, once."""

    def mark(method: F) -> F:
        if not command.played or command.player is not None:
            raise TypeError(f"{command.name} is not a player's command, or has its method already")
        object.__setattr__(command, "player", method)
        return method

    return mark
