"""The commands are one list: the protocol's (`server/wire/commands.py`) and the engine's
(`engine/commands.py`), from which the parser, every dispatch, the recorded commands and the
protocol's page come. Nothing else may name a command."""

from __future__ import annotations

import inspect
import json

import pytest

from caribbean_fast.engine import Table
from caribbean_fast.engine.autoplay import play_round
from caribbean_fast.engine.commands import ENGINE, PLAYED, RAISE, TICK, EngineCommand, handles, plays
from caribbean_fast.engine.events import COMMANDS as RECORDED
from caribbean_fast.engine.state import EventKind
from caribbean_fast.errors import IllegalActionError, ServerError
from caribbean_fast.server.tables.owner import Owner
from caribbean_fast.server.wire.commands import (
    COMMANDS,
    PROTOCOL,
    Scope,
    SocketCommand,
    TableCommand,
    TableOwner,
    _game,
    request,
)
from caribbean_fast.server.wire.protocol import TYPES, parse
from caribbean_fast.server.ws import Socket
from caribbean_fast.variants import load_variant


def frame(kind: str, **fields: object) -> str:
    return json.dumps({"v": 1, "id": 1, "type": kind, **fields})


def minimal(kind: str) -> dict[str, object]:
    """The required fields of a command, each with a value its kind and bounds allow."""
    values = {"text": "x", "int": None, "bool": True, "cards": ["As"]}
    found: dict[str, object] = {}
    for f in PROTOCOL[kind].fields:
        if f.required:
            found[f.name] = f.low if f.kind == "int" else values[f.kind]
    return found


def test_the_parser_reads_exactly_the_commands_of_the_list() -> None:
    assert set(TYPES) == set(PROTOCOL) == {n for n, c in COMMANDS.items() if not c.internal}
    for kind in PROTOCOL:
        assert parse(frame(kind, **minimal(kind))).type == kind
    for kind in [n for n, c in COMMANDS.items() if c.internal] + ["sing", "Ante"]:
        with pytest.raises(ServerError) as err:
            parse(frame(kind, table="t"))
        assert err.value.code == "unknown_type"


def test_the_parser_checks_each_field_by_its_kind_and_bounds() -> None:
    for kind, spec in PROTOCOL.items():
        for f in spec.fields:
            if f.kind == "int":
                args = minimal(kind) | {f.name: f.high + 1}
                with pytest.raises(ServerError, match=f"^{f.name}: must be {f.low} to {f.high}, not"):
                    parse(frame(kind, **args))
            if f.required:
                args = {k: v for k, v in minimal(kind).items() if k != f.name}
                with pytest.raises(ServerError, match=f"^{f.name}: is missing$"):
                    parse(frame(kind, **args))
        with pytest.raises(ServerError, match=f"^extra: is not a field of {kind}$"):
            parse(frame(kind, extra=1, **minimal(kind)))


def test_every_command_has_a_handler_of_its_scope() -> None:
    socket_methods = {n for n in dir(Socket) if not n.startswith("_")}
    owner_methods = {n for n, v in vars(TableOwner).items() if inspect.isfunction(v) and not n.startswith("__")}
    for spec in COMMANDS.values():
        assert isinstance(spec, (SocketCommand, TableCommand)) and callable(spec.handler)
        if spec.scope is Scope.TABLE:
            assert isinstance(spec, TableCommand)
            assert spec.login or spec.seated, f"{spec.name}: a table's command needs an account"
            assert spec.names_table or spec.internal
        else:
            assert isinstance(spec, SocketCommand)
    assert socket_methods >= {"lobby", "watch", "advise"}
    assert owner_methods >= {"_sit", "_leave", "_top_up", "_history", "_disconnect", "_play"}
    for name in owner_methods:  # the owner has every method the table commands' handlers call (mypy: their types)
        mine, owners = inspect.signature(getattr(TableOwner, name)), inspect.signature(getattr(Owner, name))
        assert list(mine.parameters) == list(owners.parameters), name


def test_the_game_commands_hold_the_engines_player_commands() -> None:
    """Every table command the engine plays (`_game`) holds the engine's entry of its name (an
    alias's: "call" holds "raise"), with the same fields besides the table; and every player's
    command is one."""
    game = {n: c for n, c in PROTOCOL.items() if isinstance(c, TableCommand) and c.engine is not None}
    assert set(game) == set(PLAYED)
    for name, spec in game.items():
        assert spec.handler is _game and spec.engine is PLAYED[name], name
        assert [f.name for f in spec.fields] == ["table", *PLAYED[name].fields], name
    assert game["call"].engine is RAISE
    others = [c for c in COMMANDS.values() if isinstance(c, TableCommand) and c.engine is None]
    assert others and all(c.handler is not _game for c in others)


def test_each_entry_holds_the_tables_own_handler_and_method() -> None:
    """The handler and a player's method are the `Table` class's own (a subclass overriding one
    would be passed over: the entry calls the function it holds)."""
    assert frozenset(ENGINE) == RECORDED
    for name, command in ENGINE.items():
        assert command.handler is getattr(Table, command.handler.__name__), name
        assert command.handler.__name__ == f"_{name}", name
        if command.played:
            assert command.player is not None and command.player is getattr(Table, command.player.__name__), name
        else:
            assert command.player is None, name
    table = Table(load_variant("cyberstud"), seed=1)
    with pytest.raises(IllegalActionError, match="'sing' is not a command"):
        table.execute("sing", {})
    with pytest.raises(IllegalActionError, match="'tick' is not a player's command"):
        table.play(0, TICK, {})


def test_an_entry_is_filled_once() -> None:
    with pytest.raises(TypeError, match=r"^raise has a handler already: Rounds\._raise$"):
        handles(RAISE)(lambda table: None)
    with pytest.raises(TypeError, match=r"^raise is not a player's command, or has its method already$"):
        plays(RAISE)(lambda table: None)
    with pytest.raises(TypeError, match=r"^tick is not a player's command"):
        plays(TICK)(lambda table: None)
    unfilled = EngineCommand("sing")
    with pytest.raises(AttributeError):
        unfilled.handler  # noqa: B018


def test_every_event_is_a_command_or_an_event_kind() -> None:
    """Events are made from their kinds (`EventKind`, each with its change to the state) or are
    the commands' own; no name is both."""
    kinds = {k.text for k in EventKind}
    assert len(kinds) == len(EventKind) and not kinds & set(ENGINE)
    seen: set[str] = set()
    for game in ("network-24h", "caribbean-poker", "casino-holdem"):
        table = Table(load_variant(game), seed=5)
        for seat in range(table.seats):
            table.sit(seat, f"p{seat}", 100_000)
        for _ in range(20):
            play_round(table, "simple", table.limits.minimum, True)
        table.leave(0)
        seen |= {e.kind for e in table.recorded()}
    assert seen <= kinds | set(ENGINE)
    assert {"table_opened", "bets", "dealt", "settled", "seated", "stood", "funds"} <= seen


def test_call_is_raise_and_an_exchange_names_the_whole_hand_by_default() -> None:
    table = Table(load_variant("caribbean-poker"), seed=3)
    table.deposit(0, 10_000)
    table.play(0, PLAYED["ante"], {"amount": table.limits.minimum})
    table.play(0, PLAYED["deal"], {})
    hand = table.view(0).cards
    table.play(0, PLAYED["exchange"], {})
    exchanged = [e for e in table.recorded() if e.kind == "exchange"]
    assert exchanged[-1].public["args"]["cards"] == " ".join(hand)
    table.play(0, PLAYED["call"], {})
    assert [e.kind for e in table.recorded() if e.kind in ENGINE][-1] == "raise"


def test_a_client_builds_its_frames_from_the_list() -> None:
    assert json.loads(request("ante", 7, table="t", amount=5)) == {
        "v": 1,
        "id": 7,
        "type": "ante",
        "table": "t",
        "amount": 5,
    }
    assert parse(request("history", 2, table="t")).args == {"table": "t"}
    with pytest.raises(ServerError, match="is not a command") as err:
        request("_disconnect")
    assert err.value.code == "unknown_type"
    with pytest.raises(ServerError, match=r"^amount: must be 1 to 1000000000000, not 0$"):
        request("top_up", table="t", amount=0)
    with pytest.raises(ServerError, match=r"^amount: is not a field of rebet$"):
        request("rebet", table="t", amount=1)
