"""The office's reports: per day and per game, table and currency, from the summaries; the days'
wins reconcile with the records and with the books (the wallets) to the minor unit; CSV and XLSX
hold the same numbers."""

from __future__ import annotations

import csv
import io
from functools import partial
from pathlib import Path

import pytest
from office_tables import HONEST, play

from caribbean_fast.server.office import reports
from caribbean_fast.server.store import figures, wallets
from caribbean_fast.server.store.db import Database, connect

pytestmark = pytest.mark.slow
ROUNDS = 400
VARIANTS = {HONEST.name: HONEST}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Database, reports.Report]:
    """Two tables of game 3 over two days (a round every three minutes from noon), every seat
    gone back to its wallet at the end."""
    db = Database(connect(str(tmp_path_factory.mktemp("reports") / "casino.db")))
    for k, seed in enumerate((21, 22), start=1):
        play(db, f"network-{k}", HONEST, ROUNDS, seed, seats=2, seconds=180, leave=True)
    return db, db.run_now(reports.read_report(VARIANTS, "2026-11-30", "2026-12-01"))


def test_each_day_and_table_has_its_line_and_the_days_reconcile_with_records_and_books(
    report: tuple[Database, reports.Report],
) -> None:
    db, found = report
    keys = [(r["day"], r["table"]) for r in found.lines]
    assert keys == [(d, f"network-{k}") for d in ("2026-11-30", "2026-12-01") for k in (1, 2)]
    assert sum(r["rounds"] for r in found.lines) == 2 * ROUNDS
    assert all(r["game"] == HONEST.name and r["currency"] == "EUR" for r in found.lines)
    for r in found.lines:
        assert r["hold"] == r["win"] / r["wagered"] and 0 < r["theoretical"] < 1
    totals = reports.day_totals(found)
    for (day, currency), win in totals.items():
        assert db.run_now(partial(figures.reconcile, day=day))[currency] == (win, win)
    books = db.run_now(wallets.reconcile)["EUR"]
    assert books.reconciled  # granted = wallets + what the tables kept
    assert books.into_tables == sum(totals.values())  # every seat has left: the tables kept the house's win


def test_the_pools_days_add_up(report: tuple[Database, reports.Report]) -> None:
    _, found = report
    assert {p["day"] for p in found.pools} == {"2026-11-30", "2026-12-01"}
    assert HONEST.progressive is not None
    bets = 2 * 2 * ROUNDS  # every seat bet the progressive every round
    assert sum(p["added"] for p in found.pools) == bets * HONEST.progressive.contribution
    for p in found.pools:
        assert p["added"] == p["moved"] + p["paid_from_meter"] and p["commits"] > 0


def test_csv_and_xlsx_hold_the_same_numbers(report: tuple[Database, reports.Report], tmp_path: Path) -> None:
    _, found = report
    text = reports.to_csv(found)
    days, pools = text.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(days)))
    assert [int(r["win"]) for r in rows] == [r["win"] for r in found.lines]
    assert next(csv.reader(io.StringIO(pools))) == list(reports.POOL_COLUMNS)
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.load_workbook(reports.write_xlsx(found, tmp_path / "day.xlsx"))
    sheet = book["Days"]
    assert [c.value for c in sheet[1]] == list(reports.COLUMNS)
    assert [row[6].value for row in sheet.iter_rows(min_row=2)] == [r["win"] for r in found.lines]
    assert book["Pools"].max_row == len(found.pools) + 1


def test_a_served_tables_commits_keep_the_figures(database_url: str) -> None:
    """Through a server (SQLite, PostgreSQL): the owner's commits keep the figures, which equal
    the records, and the account's."""
    from live_server import Client, LiveServer, query, settings

    from caribbean_fast.server.tables.owner import TableSpec
    from caribbean_fast.variants import load_variant

    cyberstud = load_variant("cyberstud")
    with LiveServer(settings(database_url, tables=[TableSpec("cyberstud-1", cyberstud, 1)])) as live:
        alice = Client(live.ws, live.guest())
        alice.ok("sit", table="cyberstud-1", buy_in=20_000)
        for decision in ("raise", "fold", "raise"):
            alice.ok("ante", table="cyberstud-1", amount=500)
            alice.ok("progressive", table="cyberstud-1", on=True)
            alice.ok("deal", table="cyberstud-1")
            alice.ok(decision, table="cyberstud-1")
        alice.close()
    rows = query(database_url, "SELECT spot, rounds, hands, wagered, win FROM figures ORDER BY spot")
    assert [(s, r, h) for s, r, h, _, _ in rows] == [("main", 3, 3), ("progressive", 0, 3)]
    assert rows[1][3] == 3 * (cyberstud.progressive.stake if cyberstud.progressive else 0)
    (account,) = {a for (a,) in query(database_url, "SELECT account FROM account_figures")}
    assert query(database_url, "SELECT SUM(win) FROM account_figures") == [(sum(r[4] for r in rows),)]
    db = Database(connect(database_url))
    try:
        (day,) = db.run_now(figures.days)
        assert db.run_now(partial(figures.reconcile, day=day))["USD"] == (sum(r[4] for r in rows),) * 2
    finally:
        db.dialect.close()
    assert account.startswith("guest")
