"""Tables of one's own (issue 45): each player of a one-seat game sits at a table of their own,
asked by kind (game and limits) at `GET /api/own/<kind>`, opened at the player's first command
and closed when the seat empties between rounds, its record kept: audited, and its history read
when the player sits there again."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, books, query, recorded, settings, small_tables

from caribbean_fast.errors import ServerError
from caribbean_fast.server.config import default_own, read_tables
from caribbean_fast.server.tables.own import kind_of, legacy_table, own_table


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path / "t.db"), own=default_own())) as server:
        yield server


def own_of(live: LiveServer, token: str, kind: str = "cyberstud") -> str:
    answer = httpx.get(f"{live.http}/api/own/{kind}", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    table = str(answer.json()["table"])
    assert kind_of(table) == kind
    return table


def _play_a_round(c: Client, table: str) -> None:
    c.ok("ante", table=table, amount=500)
    c.ok("deal", table=table)
    c.ok("fold", table=table)


def test_five_players_each_sit_at_a_table_of_their_own_and_all_are_dealt(live: LiveServer) -> None:
    host = live.app.state.server
    served = len(host.owners)  # the tables file's three
    tokens = [live.guest() for _ in range(5)]
    tables = [own_of(live, t) for t in tokens]
    assert len(set(tables)) == 5
    players = [Client(f"{live.ws}/{table}", token) for table, token in zip(tables, tokens, strict=True)]
    for c, table in zip(players, tables, strict=True):
        assert c.welcome["seats"] == []  # served nowhere yet: no view until the first command
        assert c.ok("sit", table=table, buy_in=5_000) == {"seat": 0}
        c.ok("ante", table=table, amount=500)
        c.ok("deal", table=table)
    assert len(host.owners) == served + 5
    for c, table in zip(players, tables, strict=True):
        assert len(host.owners[table].t.view(0).cards) == 5
        assert any(len(v["cards"]) == 5 for v in c.views(table))
    lobby = httpx.get(f"{live.http}/api/lobby").json()
    assert not any(e["table"] in tables for e in lobby["tables"])  # the lobby lists the kinds, never a player's table
    assert {e["kind"] for e in lobby["own"]} == {s.id for s in default_own()}
    for c in players:
        c.close()


def test_a_table_closes_when_its_player_leaves_and_opens_again_with_its_history(live: LiveServer) -> None:
    host = live.app.state.server
    token = live.guest()
    table = own_of(live, token)
    c = Client(f"{live.ws}/{table}", token)
    c.ok("sit", table=table, buy_in=5_000)
    _play_a_round(c, table)
    first = c.ok("history", table=table)["rounds"]
    assert len(first) == 1
    assert c.ok("leave", table=table) == {"returned": 4_500}
    assert table not in host.owners  # closed at once
    kept = recorded(live.settings.database, table)
    assert [e.kind for e in kept].count("settled") == 1 and kept[-1].kind in ("stood", "round_open")
    assert c.ok("sit", table=table, buy_in=3_000) == {"seat": 0}  # the same table, restored from its record
    owner = host.owners[table]
    assert owner.t.last_closed == 1  # the first sitting's round, from the record
    assert c.ok("history", table=table)["rounds"] == first
    c.ok("leave", table=table)
    reconciled, audited = books(live.settings.database)
    assert reconciled and audited >= 1
    assert host.metrics.tables_closed.value == 2
    c.close()


def test_nobody_sits_waits_or_watches_at_another_players_table(live: LiveServer) -> None:
    alice, bob = live.guest(), live.guest()
    table = own_of(live, alice)
    c = Client(f"{live.ws}/{table}", bob)
    refused = c.cmd("sit", table=table, buy_in=5_000)
    assert refused["error"]["code"] == "illegal" and "another player's own table" in refused["error"]["message"]
    assert table not in live.app.state.server.owners  # refused before it opened
    a = Client(f"{live.ws}/{table}", alice)
    assert a.cmd("wait", table=table, buy_in=5_000)["error"]["code"] == "illegal"  # nobody waits for it
    a.ok("sit", table=table, buy_in=5_000)
    assert c.cmd("watch", table=table)["error"]["code"] == "illegal"
    for kind in ("cyberstud", own_table("no-such-kind", alice, live.app.state.server.own_key)):
        assert c.cmd("sit", table=kind, buy_in=5_000)["error"]["code"] == "no_table"
    unknown = httpx.get(f"{live.http}/api/own/no-such-kind", headers={"Authorization": f"Bearer {alice}"})
    assert unknown.status_code == 404
    assert httpx.get(f"{live.http}/api/own/cyberstud").status_code == 401
    a.close()
    c.close()


def test_an_own_table_opened_for_a_command_and_not_sat_at_closes_within_a_lease_period(live: LiveServer) -> None:
    token = live.guest()
    table = own_of(live, token)
    c = Client(f"{live.ws}/{table}", token)
    assert c.cmd("proof", table=table, round=1)["error"]["code"] == "illegal"  # opened for it: no such round
    host = live.app.state.server
    assert table in host.owners
    c.cmd("sit", table=table, buy_in=10**9)  # refused: the wallet is short
    end = time.monotonic() + 3 * live.settings.lease
    while table in host.owners and time.monotonic() < end:
        time.sleep(0.05)
    assert table not in host.owners
    c.close()


def test_a_seated_players_table_is_restored_when_the_server_starts_again(tmp_path: Path) -> None:
    config = settings(str(tmp_path / "t.db"), own=default_own())
    with LiveServer(config) as live:
        token = live.guest()
        table = own_of(live, token)
        c = Client(f"{live.ws}/{table}", token)
        c.ok("sit", table=table, buy_in=5_000)
        c.ok("ante", table=table, amount=700)
        c.close()
    with LiveServer(config) as live:
        owner = live.app.state.server.owners[table]  # taken over at start: its player holds the seat
        assert owner.t.balance(0) == 4_300 and owner.t.state.seats[0].bets.ante == 700
        c = Client(f"{live.ws}/{table}", token)
        assert c.welcome["seats"] == [{"table": table, "seat": 0}]
        c.close()


def test_an_own_tables_id_is_keyed_by_the_database_and_the_same_after_a_restart(tmp_path: Path) -> None:
    """The id digests the account under the database's key (an HMAC), not by a plain SHA-256 that
    trying short names would undo; the key is made once and kept, so the id stays the player's."""
    config = settings(str(tmp_path / "t.db"), own=default_own())
    found = []
    with LiveServer(config) as live:
        token = live.register("ali")  # a short name: its plain digest is found by trying names
        found.append((own_of(live, token), live.app.state.server.own_key))
    with LiveServer(config) as live:
        found.append((own_of(live, token), live.app.state.server.own_key))
    (first, key), again = found
    assert len(key) == 32 and again == (first, key)
    assert first == own_table("cyberstud", "ali", key) != legacy_table("cyberstud", "ali")
    assert query(config.database, "SELECT name FROM server_keys") == [("own_tables",)]


def test_a_seat_held_at_an_own_table_of_the_unkeyed_id_stays_its_players(live: LiveServer) -> None:
    """A table whose id was made before the key (a plain SHA-256 of the account) is still its
    player's: they sit there, `GET /api/own` names it while they hold its seat, and its record's
    history reads; once they leave, the keyed id."""
    token = live.guest()
    lobby = Client(live.ws, token)
    account = lobby.welcome["account"]
    lobby.close()
    old = legacy_table("cyberstud", account)
    c = Client(f"{live.ws}/{old}", token)
    c.ok("sit", table=old, buy_in=5_000)
    _play_a_round(c, old)
    assert own_of(live, token) == old
    assert [r[0]["round"] for r in c.ok("history", table=old)["rounds"]] == [1]
    stranger = Client(f"{live.ws}/{old}", live.guest())
    assert stranger.cmd("watch", table=old)["error"]["code"] == "illegal"
    c.ok("leave", table=old)
    assert own_of(live, token) == own_table("cyberstud", account, live.app.state.server.own_key)
    c.close()
    stranger.close()


def test_a_tables_file_names_kinds_of_own_tables_beside_fixed_tables(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(
        '[[table]]\nvariant = "cyberstud"\nown = true\n\n'
        '[[table]]\nvariant = "cyberstud"\ncount = 2\n\n'
        '[[table]]\nvariant = "casino-holdem"\nown = true\nname = "holdem"\n'
    )
    fixed, own = read_tables(path)
    assert [s.id for s in fixed] == ["cyberstud-1", "cyberstud-2"] and not any(s.own for s in fixed)
    assert [(s.id, s.own, s.variant.name) for s in own] == [
        ("cyberstud", "cyberstud", "cyberstud"),
        ("holdem", "holdem", "casino-holdem"),
    ]
    for bad, words in (
        ('variant = "network-24h"\nown = true', "one-seat game"),
        ('variant = "cyberstud"\nown = true\ncount = 2', "no seats or count"),
        ('variant = "cyberstud"\nown = "yes"', "own must be true or false"),
        ('variant = "cyberstud"\nown = true\nname = "' + "k" * 44 + '"', "at most 43 characters"),
    ):
        path.write_text(f"[[table]]\n{bad}\n")
        with pytest.raises(ServerError, match=words):
            read_tables(path)


def test_own_tables_sharing_a_pool_audit_clean(live: LiveServer) -> None:
    """Each showdown reads the pool, which the other table's stake moved: its `pool` event brings
    the table's meter to it, and the audit replays it from the record (the pool is outside)."""
    tokens = [live.guest() for _ in range(2)]
    tables = [own_of(live, t) for t in tokens]
    players = [Client(f"{live.ws}/{table}", token) for table, token in zip(tables, tokens, strict=True)]
    for c, table in zip(players, tables, strict=True):
        c.ok("sit", table=table, buy_in=5_000)
        c.ok("ante", table=table, amount=500)
        c.ok("progressive", table=table, on=True)
        c.ok("deal", table=table)
    for c, table in zip(players, tables, strict=True):
        c.ok("fold", table=table)
    moved = [e for t in tables for e in recorded(live.settings.database, t) if e.kind == "pool"]
    assert len(moved) == 2  # each table's meter held its own stake; the pool held both
    reconciled, audited = books(live.settings.database)
    assert reconciled and audited == len(small_tables()) + 2
    for c in players:
        c.close()
