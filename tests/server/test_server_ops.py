"""Operations: the metrics count what happened, `accounts create|deposit|show`, and the tables
file's errors name the entry and key."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, query, settings

from caribbean_fast.cli import main
from caribbean_fast.errors import ServerError
from caribbean_fast.server import Settings, load_tables
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import load_variant


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path / "casino.db"))) as live:
        yield live


def metric(text: str, name: str) -> float:
    return next(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name + " "))


def test_metrics_count_rounds_commands_refusals_and_connections(server: LiveServer) -> None:
    c = Client(server.ws, server.guest())
    c.ok("sit", table="cyberstud-1", buy_in=1_000)
    c.ok("ante", table="cyberstud-1", amount=100)
    c.ok("deal", table="cyberstud-1")
    c.ok("fold", table="cyberstud-1")
    c.cmd("fold", table="cyberstud-1")
    text = httpx.get(f"{server.http}/metrics").text
    assert metric(text, "cf_rounds_total") == 1
    assert metric(text, "cf_connections") == 1 and metric(text, "cf_tables") == 3
    assert metric(text, 'cf_commands_total{type="ante"}') == 1
    assert metric(text, 'cf_refusals_total{code="illegal"}') == 1
    assert metric(text, "cf_command_seconds_count") == 5


def test_accounts_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "casino.db")
    monkeypatch.setenv("CARIBBEAN_FAST_PASSWORD", "long enough")
    assert main(["accounts", "create", "dora", "--amount", "2500", "--database", db]) == 0
    assert main(["accounts", "deposit", "dora", "--amount", "500", "--database", db]) == 0
    assert main(["accounts", "show", "dora", "--database", db]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "dora: wallet 2500 USD",
        "dora: wallet 3000 USD",
        "dora: wallet 3000 USD",
    ]
    assert main(["accounts", "create", "dora", "--database", db]) == 2
    assert main(["accounts", "deposit", "dora", "--amount", "-5", "--database", db]) == 2
    assert main(["accounts", "show", "nobody", "--database", db]) == 2
    errors = [line.removeprefix("caribbean-fast: error: ") for line in capsys.readouterr().err.splitlines()]
    assert errors == [
        "the name 'dora' is taken",
        "a deposit is 1 to 1000000000000 minor units, not -5",
        "no account 'nobody'",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[table]]\nvariant = 'cyberstud'\ncont = 2\n", "table 1: unknown key 'cont'"),
        ("[[table]]\nseats = 2\n", "table 1: 'variant' is missing"),
        ("[[table]]\nvariant = 'cyberstud'\ncount = -1\n", "table 1: count must be a whole number, not -1"),
        ("[[table]]\nvariant = 'cyberstud'\n[[table]]\nvariant = 'cyberstud'\n", "two tables share an id"),
        ("title = 'no tables'\n", "no [[table]] entries"),
    ],
)
def test_tables_file_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "tables.toml"
    path.write_text(text)
    with pytest.raises(ServerError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_tables(path)


def test_serve_flags_default_to_the_settings() -> None:
    """The front door's flags name the `Settings` defaults (the command line cannot import them)."""
    from caribbean_fast.cli.serve import _FRONT_DOOR

    for flag, name, default, _ in _FRONT_DOOR:
        assert getattr(Settings, name) == default, flag


def test_tables_file(tmp_path: Path) -> None:
    path = tmp_path / "tables.toml"
    path.write_text("[[table]]\nvariant = 'network-24h'\nname = 'net'\nseats = 3\ncount = 2\n")
    assert [(s.id, s.variant.name, s.seats) for s in load_tables(path)] == [
        ("net-1", "network-24h", 3),
        ("net-2", "network-24h", 3),
    ]


def test_game_1_personal_limit_holds_on_every_table_of_the_account(tmp_path: Path) -> None:
    game1 = load_variant("atlantic-city")
    tables = [TableSpec("ac-1", game1, 1), TableSpec("ac-2", game1, 1)]
    with LiveServer(settings(str(tmp_path / "casino.db"), tables=tables)) as server:
        c = Client(server.ws, server.guest())
        c.ok("sit", table="ac-1", buy_in=20_000)
        c.ok("sit", table="ac-2", buy_in=20_000)
        c.ok("set_limit", table="ac-1", amount=600)
        refused = c.cmd("ante", table="ac-2", amount=1_000)
        assert refused["error"] == {
            "code": "illegal",
            "message": "an ante of 10.00 USD is over the personal limit 6.00 USD",
        }
        c.ok("ante", table="ac-2", amount=600)
        again = c.cmd("set_limit", table="ac-2", amount=None)
        assert again["error"]["code"] == "illegal" and "at most once a week" in again["error"]["message"]
        account = c.welcome["account"]
    assert query(server.settings.database, "SELECT amount FROM limits WHERE account = ?", (account,)) == [(600,)]


def test_accounts_and_serve_leave_a_foreign_database_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    foreign = tmp_path / "theirs.db"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    before = foreign.read_bytes()
    logging_before = (logging.getLogger().handlers[:], logging.getLogger().level)
    for argv in (
        ["accounts", "create", "alice", "--password", "secret-words", "--database", str(foreign)],
        ["accounts", "show", "alice", "--database", str(foreign)],
        ["serve", "--database", str(foreign)],
    ):
        assert main(argv) == 2, argv
        assert "holds other tables" in capsys.readouterr().err
    assert foreign.read_bytes() == before
    # A refused start leaves the process's logging alone (its handler wrote to a stream that
    # was later closed, and a library's first log, matplotlib's font cache, then failed).
    assert (logging.getLogger().handlers, logging.getLogger().level) == logging_before


def test_accounts_readers_and_refused_deposits_make_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.db"
    assert main(["accounts", "show", "alice", "--database", str(missing)]) == 2
    assert "no server database there" in capsys.readouterr().err
    for amount in ("-5", "0", str(10**13)):
        assert main(["accounts", "deposit", "alice", "--amount", amount, "--database", str(missing)]) == 2
        assert "a deposit is 1 to" in capsys.readouterr().err
    assert (
        main(
            ["accounts", "create", "alice", "--password", "secret-words", "--amount", "-1", "--database", str(missing)]
        )
        == 2
    )
    assert not missing.exists()


@pytest.mark.parametrize("port", ["0", "-1", "65536", "x"])
def test_serve_refuses_a_port_that_is_not_one(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", "--port", port])
    assert stop.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--port" in err[0]
