"""The lobby's record of other processes' tables: what it keeps of the rows they published."""

from __future__ import annotations

from live_server import small_tables

from caribbean_fast.server.cluster.lobby import Lobby, fixed


def test_rows_it_cannot_read_are_left_out() -> None:
    specs = small_tables()
    first, second = specs[0].id, specs[1].id
    lobby = Lobby(specs)
    rows = [(first, '{"free": 1, "taken": [0], "token": "x"}'), (second, "not json"), ("gone-1", "[1]")]
    lobby.take(rows, here={})
    assert lobby.elsewhere == {first: {"free": 1, "taken": [0]}}  # only the lobby's own fields
    entries = lobby.entries({}, {first: "ws://a/ws"})
    assert entries[0] == {**fixed(specs[0]), "free": 1, "taken": [0], "here": False, "endpoint": "ws://a/ws"}
    assert entries[1] == {**fixed(specs[1]), "here": False, "endpoint": None}  # nothing guessed
