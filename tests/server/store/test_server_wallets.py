"""A wallet per currency: the split of a database made by the server before it (one wallet per
account, every table drawing on it at 1:1) loses nothing and reconciles currency by currency, on
SQLite and on PostgreSQL; a seat buys in from its table's currency's wallet alone.

`tests/data/single-wallet.db` was made by the server as it was before wallets by currency (main at
9ef7a10): a guest lost 100 at cyberstud-1 (dollars) and 200 at casino-holdem-1 (euros), leaving
both; bella (password "correct horse"), granted 50,000, sat at network-24h-1 (euros) with 30,000
and is still seated."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, books, query, settings

pytestmark = pytest.mark.slow

OLD = Path(__file__).parents[2] / "data" / "single-wallet.db"


def _old_rows() -> dict[str, tuple[str, list[tuple[object, ...]]]]:
    """Each table of the old file: its CREATE statement and its rows."""
    db = sqlite3.connect(OLD)
    try:
        made = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall()
        return {name: (sql, db.execute(f"SELECT * FROM {name}").fetchall()) for name, sql in made}
    finally:
        db.close()


def _old_database(url: str, tmp_path: Path) -> str:
    """The old database at `url`: the file itself for SQLite, its tables and rows for PostgreSQL."""
    if not url.startswith("postgres"):
        shutil.copy(OLD, tmp_path / "old.db")
        return str(tmp_path / "old.db")
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        for name, (sql, rows) in _old_rows().items():
            db.execute(sql.replace(" BLOB", " BYTEA"))
            if rows:
                marks = ", ".join(["%s"] * len(rows[0]))
                db.cursor().executemany(f"INSERT INTO {name} VALUES ({marks})", rows)
    return url


def test_the_single_wallet_is_split_by_currency_losing_nothing(database_url: str, tmp_path: Path) -> None:
    old = {name: (wallet, granted) for name, _, _, wallet, granted, _ in _old_rows()["accounts"][1]}
    url = _old_database(database_url, tmp_path)
    with LiveServer(settings(url)) as live:
        wallets = query(url, "SELECT account, currency, amount, granted FROM wallets ORDER BY account")
        assert wallets == [(name, "USD", wallet, granted) for name, (wallet, granted) in sorted(old.items())]
        # what the single wallets sent to euro tables: A's 200 lost at hold'em, B's 30,000 on a seat
        assert sorted(query(url, "SELECT currency, moved FROM books_opening")) == [("EUR", 30_200), ("USD", -30_200)]
        assert books(url)[0] is True
        login = httpx.post(f"{live.http}/api/login", json={"name": "bella", "password": "correct horse"})
        bella = Client(live.ws, login.json()["token"])
        assert bella.welcome["wallets"] == {"USD": 20_000}
        assert bella.ok("leave", table="network-24h-1") == {"returned": 30_000}  # to the euro wallet
        refused = bella.cmd("sit", table="cyberstud-1", buy_in=20_001)
        assert refused["error"]["code"] == "insufficient_funds"
        bella.close()
        assert query(url, "SELECT currency, amount FROM wallets WHERE account = 'bella' ORDER BY currency") == [
            ("EUR", 30_000),
            ("USD", 20_000),
        ]
    assert books(url)[0] is True


def test_a_seat_buys_in_from_its_own_currency_only(tmp_path: Path) -> None:
    with LiveServer(settings(str(tmp_path / "casino.db"))) as server:
        _own_currency_only(server)


def _own_currency_only(server: LiveServer) -> None:
    token = server.guest()
    c = Client(server.ws, token)
    assert c.welcome["wallets"] == {"EUR": 100_000, "USD": 100_000}
    refused = c.cmd("sit", table="cyberstud-1", buy_in=150_000)  # more than the dollars, less than both
    assert refused["error"]["code"] == "insufficient_funds" and "USD wallet holds 100000" in refused["error"]["message"]
    c.ok("sit", table="network-24h-1", buy_in=60_000)
    refused = c.cmd("sit", table="cyberstud-1", buy_in=100_001)
    assert refused["error"]["code"] == "insufficient_funds"
    assert c.ok("sit", table="cyberstud-1", buy_in=100_000) == {"seat": 0}  # the euros left never help
    me = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert me["wallets"] == {"EUR": 40_000, "USD": 0}
    c.ok("leave", table="network-24h-1")
    c.ok("leave", table="cyberstud-1")
    me = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    assert me["wallets"] == {"EUR": 100_000, "USD": 100_000}
    c.close()
    assert books(server.settings.database) == (True, 3)
