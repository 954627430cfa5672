"""Random command sequences from several clients at one table of a live server: every frame gets
one answer (accepted, or refused with a code of docs/protocol.md), the socket stays open, and
afterwards every wallet and table reconciles and the table's record audits clean."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from live_server import Client, LiveServer, books
from live_server import settings as server_settings

TABLE = "network-24h-1"
CODES = {"illegal", "insufficient_funds", "not_seated", "seat_taken", "bad_field"}
KINDS = ["sit", "leave", "top_up", "ante", "progressive", "clear", "rebet", "deal", "fold", "raise", "exchange"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    path = tmp_path_factory.mktemp("random") / "casino.db"
    with LiveServer(server_settings(str(path), rate=1e6, burst=1e6)) as live:  # no flood limit here
        yield live


@pytest.fixture(scope="module")
def players(server: LiveServer) -> Iterator[list[Client]]:
    clients = [Client(server.ws, server.guest()) for _ in range(3)]
    yield clients
    for c in clients:
        c.close()


def fields(kind: str, amount: int) -> dict[str, Any]:
    if kind == "sit":
        return {"buy_in": amount}
    if kind in ("top_up", "ante"):
        return {"amount": amount}
    if kind == "progressive":
        return {"on": amount % 2 == 0}
    return {}


commands = st.lists(
    st.tuples(st.integers(0, 2), st.sampled_from(KINDS), st.integers(-5, 200_000)),
    min_size=1,
    max_size=25,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(commands)
def test_random_commands_keep_the_books(server: LiveServer, players: list[Client], script: list[Any]) -> None:
    for who, kind, amount in script:
        answer = players[who].cmd(kind, table=TABLE, **fields(kind, amount))
        assert answer["ok"] or answer["error"]["code"] in CODES, answer
    for c in players:  # finish the round and stand up, so every seat's money is back in a wallet
        c.cmd("fold", table=TABLE)
        c.cmd("clear", table=TABLE)
    for c in players:
        c.cmd("leave", table=TABLE)
    assert books(server.settings.database) == (True, 3)
