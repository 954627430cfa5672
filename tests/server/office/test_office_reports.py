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
