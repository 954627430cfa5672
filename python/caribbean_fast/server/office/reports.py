"""The office's reports: per day and per game, table and currency, the rounds, amount wagered,
house win, hold and theoretical; and each progressive pool's movements by day; as CSV or XLSX.

Read from the summaries the commits keep (`store.figures`, the pools' `pool_points`) on the read
side. Money is in minor units, as the books keep it: a day's wins summed over its lines equal the
records' settled nets for that day (`store.figures.reconcile`), and over every day, once every
seat has left, the money the wallets sent to the tables (`store.wallets.reconcile`).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ...errors import MissingExtraError, ServerError
from ...variants import Variant
from ..store import figures as counters
from ..store import pools
from ..store.schema import Tx
from .figures import lines

__all__ = [
    "COLUMNS",
    "MOST_DAYS",
    "POOL_COLUMNS",
    "Report",
    "day_totals",
    "days",
    "read_report",
    "to_csv",
    "write_xlsx",
    "xlsx_bytes",
]

COLUMNS = ("day", "game", "table", "currency", "rounds", "wagered", "win", "hold", "theoretical", "theoretical_win")
"""The day's lines' columns (money in minor units; holds as fractions of the amount wagered)."""
POOL_COLUMNS = ("day", "pool", "commits", "moved", "paid_from_meter", "added")
"""A pool's day: commits that moved it, its net move, the prizes paid from it, what came in
(contributions and the house's top-ups: moved plus paid)."""
MOST_DAYS = 366
"""The days one report covers at most (a year: the read stays short)."""


@dataclass(frozen=True)
class Report:
    lines: list[dict[str, Any]]
    pools: list[dict[str, Any]]
    unknown: list[str]  # games the server no longer serves: their counters are left out


def _pools(tx: Tx, first: str, last: str) -> list[dict[str, Any]]:
    rows = []
    for (d, p), (n, moved, paid) in sorted(pools.days(tx, first, last).items()):
        rows.append(dict(zip(POOL_COLUMNS, (d, p, n, moved, paid, moved + paid), strict=True)))
    return rows


def read_report(variants: Mapping[str, Variant], first: str, last: str) -> Callable[[Tx], Report]:
    """A read job (`Reads.run`): the report of the days `first` to `last` (ISO dates, included)."""

    def job(tx: Tx) -> Report:
        found = lines(counters.table_rows(tx, first, last), variants, "day")
        rows = []
        for line in found.lines:
            d = line.as_dict()
            rows.append({c: d[c] for c in COLUMNS})
        return Report(rows, _pools(tx, first, last), found.unknown)

    return job


def day_totals(report: Report) -> dict[tuple[str, str], int]:
    """The house win by (day, currency): what the books hold each day to."""
    found: dict[tuple[str, str], int] = defaultdict(int)
    for row in report.lines:
        found[(row["day"], row["currency"])] += int(row["win"])
    return dict(found)


def to_csv(report: Report) -> str:
    """The day's lines, then a blank line, then the pools' days; a header row each."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for columns, rows in ((COLUMNS, report.lines), (POOL_COLUMNS, report.pools)):
        if columns is POOL_COLUMNS:
            w.writerow([])
        w.writerow(columns)
        w.writerows([row[c] for c in columns] for row in rows)
    return out.getvalue()


def _book(report: Report) -> Any:
    """The report as an openpyxl workbook: a sheet of the day's lines, one of the pools' days;
    numbers as numbers (the `export` extra's openpyxl)."""
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Font
    except ImportError:
        raise MissingExtraError("spreadsheets need openpyxl: pip install 'caribbean-fast[export]'") from None
    book = Workbook()
    first = book.active
    assert first is not None
    book.remove(first)
    for title, columns, rows in (("Days", COLUMNS, report.lines), ("Pools", POOL_COLUMNS, report.pools)):
        sheet = book.create_sheet(title)
        sheet.append(list(columns))
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in rows:
            sheet.append([row[c] for c in columns])
    return book


def write_xlsx(report: Report, path: str | Path) -> Path:
    """The report as a workbook file (`_book`)."""
    path = Path(path)
    _book(report).save(path)
    return path


def xlsx_bytes(report: Report) -> bytes:
    """The report as a workbook's bytes (`_book`), for a download."""
    out = io.BytesIO()
    _book(report).save(out)
    return out.getvalue()


def days(first: object, last: object, today: date) -> tuple[str, str]:
    """The report's days from a request: ISO dates, `first` not after `last`, at most `MOST_DAYS`
    days; either left out is `today`."""
    found = []
    for what, text in (("first", first), ("last", last)):
        if text in (None, ""):
            found.append(today)
            continue
        try:
            found.append(date.fromisoformat(str(text)))
        except ValueError:
            raise ServerError(f"{what}: a day such as 2026-12-05, not {text!r}", "bad_field") from None
    if found[0] > found[1]:
        raise ServerError(f"first: {found[0]} is after last, {found[1]}", "bad_field")
    if (found[1] - found[0]).days >= MOST_DAYS:
        raise ServerError(f"a report covers at most {MOST_DAYS} days", "bad_field")
    return found[0].isoformat(), found[1].isoformat()
