"""The table protocol's commands (docs/protocol.md): the one list of them.

Each command has its name, its fields (kind, bounds, whether required), its scope and its handler:

- scope `socket`: the socket answers it itself (`ping`, `lobby`, `watch`, `unwatch`);
- scope `server`: the server answers it from a table without queuing to it (`advice`);
- scope `table`: queued to the table's owner, which runs it alone, after refusing a caller with no
  account (`login`) or no seat there (`seated`).

From this list come the parser (`protocol.parse` checks every field here, with the protocol's
codes and messages), every dispatch (`ws._handle` by scope, `tables.Owner._run` by handler,
the engine's own commands through `Table.play` by the engine's entry each holds, from the list of
`engine/commands.py`), the command
table of docs/protocol.md (written by `docs/commands_table.py`; a test compares them) and the
frames the terminal client sends (`request`). Adding a command is one entry here, its handler,
and the clients' buttons.

A handler is called with what its scope gives it: a socket or server command's with the socket
(`Socket`: `ws` gives the server, the connection and the named table's owner) and the command,
returning its result and the frames that follow the answer; a table command's with the owner
(`TableOwner`: `tables.Owner`), the caller (`Caller`) and the command, returning its result once
committed. This module imports no other of the server's (the engine's list only), so a client may
use it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Protocol

from ...engine.commands import (
    ANTE,
    CLEAR,
    COMMIT_SEED,
    DEAL,
    EXCHANGE,
    FOLD,
    PROGRESSIVE,
    RAISE,
    REBET,
    REVEAL_SEED,
    SET_LIMIT,
    SIDE_BET,
    EngineCommand,
)
from ...errors import ServerError

__all__ = [
    "COMMANDS",
    "EVERY_MOST",
    "MOST",
    "PROTOCOL",
    "VERSION",
    "Caller",
    "Command",
    "Field",
    "Scope",
    "Socket",
    "SocketCommand",
    "Spec",
    "TableCommand",
    "TableOwner",
    "request",
]

VERSION = 1
"""The protocol's version, which every frame carries as `v`."""
MOST = 10**12
"""The largest amount a frame may carry."""
EVERY_MOST = 86_400
"""The longest interval between reality checks an account may choose (a day)."""


@dataclass(frozen=True)
class Command:
    """A command as `protocol.parse` read it: its entry of the list, found once where the frame was
    read and carried down with it (nothing after looks it up by name again), and its fields
    checked, by name in `args`."""

    id: int | str | None
    spec: Spec
    args: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str) -> Command:
        """The server's own command of the list (the grace period's `_disconnect`, say)."""
        return cls(None, COMMANDS[name])

    @property
    def type(self) -> str:
        return self.spec.name

    @property
    def table(self) -> str | None:
        table = self.args.get("table")
        return table if isinstance(table, str) else None


class Scope(StrEnum):
    SOCKET = "socket"
    SERVER = "server"
    TABLE = "table"


# ---- fields ------------------------------------------------------------------------------------


def _bad(name: str, why: str) -> ServerError:
    return ServerError(f"{name}: {why}", "bad_field")


def _integer(name: str, value: Any, low: int, high: int) -> int:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if whole and low <= value <= high:
        return int(value)
    # orjson reads a number past 64 bits as a float: out of range, whatever its form
    outside = (whole or isinstance(value, float)) and not low <= value <= high
    shown = json.dumps(value)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    if outside:
        raise _bad(name, f"must be {low} to {high}, not {shown}")
    raise _bad(name, f"must be a whole number from {low} to {high} (no decimal point or exponent), not {shown}")


def _text(name: str, value: Any, most: int) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= most:
        raise _bad(name, f"must be a string of 1 to {most} characters")
    return value


def _number(n: int) -> str:
    return "10^12" if n == MOST else f"{n:,}"


@dataclass(frozen=True)
class Field:
    """One field of a command: `text` (a string of 1 to `high` characters), `int` (`low` to
    `high`; `null` too where `null`), `bool`, or `cards` (a list of `low` to `high` card texts);
    `note` is what the protocol's page says of it."""

    name: str
    kind: Literal["text", "int", "bool", "cards"]
    low: int = 1
    high: int = 0
    required: bool = True
    null: bool = False
    note: str = ""

    def check(self, value: Any) -> Any:
        """The value as the command takes it, or ServerError `bad_field` naming the field."""
        if self.kind == "text":
            return _text(self.name, value, self.high)
        if self.kind == "int":
            return None if value is None and self.null else _integer(self.name, value, self.low, self.high)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise _bad(self.name, "must be true or false")
            return value
        if not isinstance(value, list) or not self.low <= len(value) <= self.high:
            raise _bad(self.name, f"must be a list of {self.low} to {self.high} card texts")
        return [_text(self.name, card, 3) for card in value]

    def describe(self) -> str:
        """Its kind and bounds in words (the page's table of fields)."""
        if self.kind == "text":
            value = f"a string of 1 to {self.high} characters"
        elif self.kind == "int":
            value = ("`null` or " if self.null else "") + f"an integer {_number(self.low)} to {_number(self.high)}"
        elif self.kind == "bool":
            value = "`true` or `false`"
        else:
            value = f"a list of {self.low} to {self.high} card texts"
        return value + ("" if self.required else " (optional)")


TABLE = Field("table", "text", high=64)


def _amount(name: str = "amount", low: int = 1, null: bool = False, note: str = "") -> Field:
    return Field(name, "int", low, MOST, null=null, note=note)


# ---- handlers ----------------------------------------------------------------------------------


class Socket(Protocol):
    """What the handlers of socket and server commands use (`ws.Socket`)."""

    def lobby(self) -> list[dict[str, Any]]: ...

    def watch(self, on: bool) -> list[str]: ...

    def advise(self) -> dict[str, Any]: ...

    async def reality_check(self, every: int | None, given: bool) -> dict[str, Any]: ...

    def session(self) -> dict[str, Any]: ...


class TableOwner(Protocol):
    """What the handlers of table commands use (`tables.Owner`, its commands' methods)."""

    async def _sit(self, account: str, wanted: int | None, buy_in: int, waited: bool = False) -> dict[str, Any]: ...

    async def _leave(self, account: str, seat: int) -> dict[str, Any]: ...

    async def _money_job(self, job: Callable[[Any], None], pool_keys: tuple[str, ...] = ()) -> None: ...

    def _top_up(self, tx: Any, account: str, seat: int, amount: int) -> None: ...

    async def _history(self, account: str, last: int, before: int | None = None) -> dict[str, Any]: ...

    async def _proof(self, account: str, number: int) -> dict[str, Any]: ...

    async def _wait(self, account: str, buy_in: int) -> dict[str, Any]: ...

    async def _unwait(self, account: str) -> dict[str, Any]: ...

    async def _seat_waiting(self, account: str) -> dict[str, Any]: ...

    async def _disconnect(self, seat: int) -> dict[str, Any]: ...

    async def _back(self, seat: int) -> dict[str, Any]: ...

    async def _change_variant(self) -> dict[str, Any]: ...

    async def _play(self, seat: int, command: EngineCommand, args: Mapping[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Caller:
    """Who sent a table command: its account, and its seat at the table where it holds one (the
    owner has refused a command that needs one from a caller who holds none)."""

    account: str
    held: int | None

    @property
    def seat(self) -> int:
        if self.held is None:
            raise ServerError("you hold no seat at this table", "not_seated")
        return self.held


Answer = tuple[dict[str, Any], list[str]]
SocketHandler = Callable[[Socket, Command], Answer | Awaitable[Answer]]
TableHandler = Callable[[TableOwner, Caller, Command], Awaitable[dict[str, Any]]]


def _game(owner: TableOwner, caller: Caller, command: Command) -> Awaitable[dict[str, Any]]:
    """The engine's own commands (`Table.play`), by the engine's entry the command's holds: the
    engine checks and refuses them."""
    assert isinstance(command.spec, TableCommand) and command.spec.engine is not None
    return owner._play(caller.seat, command.spec.engine, command.args)


async def _top_up(owner: TableOwner, caller: Caller, command: Command) -> dict[str, Any]:
    await owner._money_job(lambda tx: owner._top_up(tx, caller.account, caller.seat, command.args["amount"]))
    return {}


async def _answered(result: Awaitable[dict[str, Any]]) -> Answer:
    return await result, []


# ---- the list ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    name: str
    fields: tuple[Field, ...]
    does: str
    """What the page says it does (Markdown)."""
    result: str
    """Its `result` when accepted, as the page writes it."""
    internal: bool
    """The server's own (the grace period's disconnect): never read from a client, not on the page."""

    @property
    def scope(self) -> Scope:
        raise NotImplementedError

    @property
    def names_table(self) -> bool:
        """It names a table (`table`): the socket finds the table's owner, here or elsewhere."""
        return TABLE in self.fields

    def read(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The command's fields from a frame (which may hold `v`, `id` and `type` besides), each
        checked; ServerError `bad_field` for a field unknown, missing or wrong."""
        unknown = set(raw) - {f.name for f in self.fields} - {"v", "id", "type"}
        if unknown:
            raise _bad(sorted(unknown)[0][:40], "is not a field of " + self.name)
        args = {}
        for f in self.fields:
            if f.name in raw:
                args[f.name] = f.check(raw[f.name])
            elif f.required:
                raise _bad(f.name, "is missing")
        return args


@dataclass(frozen=True)
class SocketCommand(Spec):
    handler: SocketHandler
    server: bool = False
    """Scope `server` (else `socket`)."""

    @property
    def scope(self) -> Scope:
        return Scope.SERVER if self.server else Scope.SOCKET


@dataclass(frozen=True)
class TableCommand(Spec):
    handler: TableHandler
    login: bool = True
    """Refused `unauthorized` from a caller with no account."""
    seated: bool = True
    """Refused `not_seated` from a caller with no seat at the table (checked after `login`)."""
    engine: EngineCommand | None = None
    """A game command's entry of the engine's list, which `Table.play` runs (handler `_game`)."""

    @property
    def scope(self) -> Scope:
        return Scope.TABLE


def _socket(
    name: str, *fields: Field, does: str, result: str = "`{}`", handler: SocketHandler, server: bool = False
) -> SocketCommand:
    return SocketCommand(name, fields, does, result, False, handler, server)


def _table(
    name: str,
    *fields: Field,
    does: str,
    result: str = "`{}`",
    handler: TableHandler,
    login: bool = True,
    seated: bool = True,
    internal: bool = False,
) -> TableCommand:
    return TableCommand(
        name, (TABLE, *fields) if not internal else fields, does, result, internal, handler, login, seated
    )


def _game_command(name: str, engine: EngineCommand, *fields: Field, does: str) -> TableCommand:
    """A game command: the engine's entry `engine` played by the seat (`_game`)."""
    return TableCommand(name, (TABLE, *fields), does, "`{}`", False, _game, engine=engine)


_LIST: tuple[Spec, ...] = (
    _socket("ping", does="nothing", handler=lambda s, c: ({}, [])),
    _socket(
        "lobby", does="", result='`{"tables": [lobby entry, ...]}`', handler=lambda s, c: ({"tables": s.lobby()}, [])
    ),
    _socket(
        "watch",
        TABLE,
        does="starts `view` frames of the public view of the table",
        handler=lambda s, c: ({}, s.watch(True)),
    ),
    _socket("unwatch", TABLE, does="stops them", handler=lambda s, c: ({}, s.watch(False))),
    _table(
        "sit",
        _amount("buy_in"),
        Field("seat", "int", 0, 63, required=False, note="optional: the lowest free seat"),
        does="moves `buy_in` from the wallet to a free seat, in one database transaction",
        result='`{"seat": int}`',
        handler=lambda o, c, cmd: o._sit(c.account, cmd.args.get("seat"), cmd.args["buy_in"]),
        seated=False,
    ),
    _table(
        "leave",
        does="moves the seat's whole balance back to the wallet (one transaction) and frees the seat; refused while "
        "the seat's hand is in play (dealt, until the round is settled); bets not yet dealt are cleared first",
        result='`{"returned": int}`',
        handler=lambda o, c, cmd: o._leave(c.account, c.seat),
    ),
    _table(
        "wait",
        _amount("buy_in"),
        does="joins the table's waiting list with the buy-in to sit with: at once (as `sit` at the lowest free "
        "seat) when a seat is free and nobody waits, else when the engine frees a seat and the account is first on "
        "the list; a `waitlist` frame tells the account it sat, or why it did not. Sending it again keeps the "
        "account's place and changes its buy-in. While accounts wait, `sit` leaves the seats that free to them",
        result='`{"seat": int}` when seated at once, else `{"place": int, "waiting": int}` (1 is first)',
        handler=lambda o, c, cmd: o._wait(c.account, cmd.args["buy_in"]),
        seated=False,
    ),
    _table(
        "unwait",
        does="leaves the table's waiting list",
        handler=lambda o, c, cmd: o._unwait(c.account),
        seated=False,
    ),
    _table("top_up", _amount(), does="moves more money from the wallet to the seat", handler=_top_up),
    _game_command(
        "ante",
        ANTE,
        _amount(),
        does="places or changes the ante as the game's rules say (its `limits` in `GET /api/rules/<table>`): game 1 "
        "raises an ante under its minimum to the minimum, game 5 lowers one over its maximum to the maximum; any other "
        "ante outside the table's limits, or over the account's personal limit, is refused `illegal` with the limits "
        "in the message, and one the seat cannot cover (game 1: over a third of the seat's balance) "
        "`insufficient_funds`",
    ),
    _game_command(
        "progressive", PROGRESSIVE, Field("on", "bool", note="bool"), does="ticks or unticks the progressive"
    ),
    _game_command(
        "side_bet",
        SIDE_BET,
        Field("name", "text", high=32),
        _amount(low=0, note="0 removes"),
        does='a side bet of the game by its rules\' name, such as `"aa-bonus"` at `casino-holdem` '
        "(`GET /api/rules/<table>` lists them)",
    ),
    _game_command("clear", CLEAR, does="takes every bet of the round back"),
    _game_command("rebet", REBET, does="repeats the last round's bets"),
    _game_command(
        "deal",
        DEAL,
        does="deals the round once every seated player not away has an ante (any seated player may ask; "
        "refused `illegal` naming the seats still to bet; the bet timer deals whoever has bet)",
    ),
    _game_command(
        "commit_seed",
        COMMIT_SEED,
        Field("commitment", "text", high=64, note="64 lowercase hex digits"),
        does="adds the seat's own seed to the round (the view's `seed_open`): the SHA-256 of the seed's 1 to 64 bytes, "
        "sent after the round's `commitment` is shown and before the deal; sent again, the later one holds. The deal "
        "then closes bets and waits for the seed (`reveal_seed` among the seat's `actions`)",
    ),
    _game_command(
        "reveal_seed",
        REVEAL_SEED,
        Field("seed", "text", high=128, note="the seed's bytes in lowercase hex"),
        does="once bets close, the seed the seat committed to; the last seed in deals the round, dealt from the "
        "committed deck cut by every dealt seat's seed. A seed not revealed within 10 seconds counts as empty",
    ),
    _game_command("fold", FOLD, does=""),
    _game_command("raise", RAISE, does="raise (games 1 to 3)"),
    _game_command("call", RAISE, does="the same as `raise` (hold'em and game 4 name it so)"),
    _game_command(
        "exchange",
        EXCHANGE,
        Field("cards", "cards", 1, 5, required=False, note="optional list of 1 to 5 card texts"),
        does="game 4 (`caribbean-poker`): gives up all five cards of the hand for five new ones, for a fee; `cards` "
        "is best left out (if sent, it must name all five cards of the hand, else `illegal`). Only a table of the "
        "`caribbean-poker-choose` example (served when a table file names it) takes `cards` as the 1 to 5 cards to "
        "give up (without it, the whole hand)",
    ),
    _game_command(
        "set_limit",
        SET_LIMIT,
        _amount(null=True, note="int or `null`"),
        does="game 1's personal limit on the ante: it holds for every table of the account, whatever its game, and "
        "can be changed (or removed with `null`) once a calendar week: after a change, the next is refused until "
        "Saturday 00:00 US Eastern time",
    ),
    _table(
        "history",
        Field("last", "int", 1, 50, required=False, note="1 to 50, default 10"),
        Field("before", "int", 1, 2**53, required=False, note="optional: only rounds numbered below it"),
        does="the game recall of the account at that table: the last rounds it was dealt into, at whichever seats it "
        "held there (never a round another account played at its seat); with `before`, the last of those numbered "
        "below it, so a client reads every round, page by page",
        result='`{"rounds": [round, ...]}` (as in `recall`)',
        handler=lambda o, c, cmd: o._history(c.account, cmd.args.get("last", 10), cmd.args.get("before")),
        login=False,
    ),
    _table(
        "proof",
        Field("round", "int", 1, 2**53, note="a round's number"),
        does="the fairness proof of a past round the account was dealt into at that table (at whichever seat it "
        "held), made again from the round's recorded seed and deal: the proof its seat's view gave once the round "
        "was over; refused `illegal` for a round the account did not play there, or one not over",
        result='`{"round": int, "seat": int, "commitment": str, "proof": proof, "cards": [card], "dealer": [card], '
        '"board": [card]}`',
        handler=lambda o, c, cmd: o._proof(c.account, cmd.args["round"]),
        login=True,
        seated=False,
    ),
    _socket(
        "advice",
        TABLE,
        does="the trainer: what each decision on the seat's undecided hand is worth, from the exact tables (as "
        "`caribbean-fast play --trainer`); refused (`illegal`) without an undecided hand",
        result="see below",
        handler=lambda s, c: (s.advise(), []),
        server=True,
    ),
    _socket(
        "reality_check",
        Field(
            "every",
            "int",
            1,
            EVERY_MOST,
            required=False,
            null=True,
            note="seconds, or `null`: the server's default; left out, nothing changes",
        ),
        does="the account's reality check: every `every` seconds of its session the server sends each of its "
        "sockets a `reality_check` frame ([Reminders](#reminders-reality_check-and-idle_notice)); an account "
        "setting, kept by the server for every client, and from the next check on. Below the server's shortest "
        "interval (10 minutes unless configured) it is refused `bad_field` with the bounds; from a socket with no "
        "account, `unauthorized`",
        result='`{"every": int, "default": int, "least": int, "most": int}` (seconds)',
        handler=lambda s, c: _answered(s.reality_check(c.args.get("every"), "every" in c.args)),
    ),
    _socket(
        "session",
        does="the account's session so far, as the `reality_check` and `idle_notice` frames carry it (the "
        "page's Session button)",
        result='`{"seconds": int, "rounds": int, "net": [net, ...]}`',
        handler=lambda s, c: (s.session(), []),
    ),
    _table(
        "_disconnect",
        does="the grace period ran out with no socket of the account: the game's disconnect rule, and the "
        "seat stood up if the account stays away",
        handler=lambda o, c, cmd: o._disconnect(c.seat),
        internal=True,
    ),
    _table(
        "_seat_waiting",
        does="a seat freed while the account is first on the waiting list: it sits with its buy-in",
        handler=lambda o, c, cmd: o._seat_waiting(c.account),
        seated=False,
        internal=True,
    ),
    _table(
        "_back",
        does="a socket of the account opened: its seat, if away, is no longer stood up",
        handler=lambda o, c, cmd: o._back(c.seat),
        internal=True,
    ),
    _table(
        "_change_variant",
        does="an approved paytable change: the table plays the new variant from this round boundary on",
        handler=lambda o, c, cmd: o._change_variant(),
        seated=False,
        internal=True,
    ),
)

COMMANDS: Mapping[str, Spec] = {c.name: c for c in _LIST}
"""Every command by its name, the server's own included."""

PROTOCOL: Mapping[str, Spec] = {c.name: c for c in _LIST if not c.internal}
"""The commands a client may send, in the page's order."""


def request(kind: str, ident: int | str | None = None, **fields: Any) -> str:
    """A client's frame for a command of this list, its fields checked as the server checks
    them (ServerError `unknown_type` or `bad_field` before anything is sent)."""
    spec = PROTOCOL.get(kind)
    if spec is None:
        raise ServerError(f"{kind[:40]!r} is not a command", "unknown_type")
    spec.read(fields)
    return json.dumps({"v": VERSION, "id": ident, "type": kind, **fields})
