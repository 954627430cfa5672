"""The par document's exports (issue 48, point 5), read back: the spreadsheet's numbers are
numbers with their exact fractions beside them, and the PDF holds the rules, the tables, the
strategy card and the provenance stamp."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import openpyxl
import pypdf
import pytest

from caribbean_fast.analysis.doctables import document_tables
from caribbean_fast.analysis.document import ParDocument, par_document
from caribbean_fast.analysis.export import write_document
from caribbean_fast.cli import main
from caribbean_fast.errors import ArgumentError


@pytest.fixture(scope="module")
def holdem() -> ParDocument:
    return par_document("casino-holdem")


def test_the_spreadsheet_has_a_sheet_per_table_with_exact_fractions(holdem: ParDocument, tmp_path: Path) -> None:
    path = write_document(holdem, tmp_path / "holdem.xlsx", "xlsx")
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Rules", *(t.name for t in document_tables(holdem))]
    summary = book["Summary"]
    head = [c.value for c in summary[2]]
    assert head[:3] == ["figure", "value", "value (exact)"]
    row = next(r for r in summary.iter_rows(min_row=3, values_only=True) if r[0] == "expected return per ante")
    assert isinstance(row[1], float) and Fraction(row[2]) == holdem.sheet.expected_return
    assert row[1] == pytest.approx(float(holdem.sheet.expected_return), rel=1e-14)  # Excel keeps 15 digits
    events = book["Return table"]
    at = [c.value for c in events[2]].index("combinations")
    combinations = [r[at] for r in events.iter_rows(min_row=3, values_only=True) if isinstance(r[at], int)]
    assert sum(combinations) == holdem.sheet.total_deals  # whole numbers stay whole numbers
    aa = book["AA Bonus"]
    assert any(r[1] == "25 to 1" for r in aa.iter_rows(min_row=3, values_only=True))


def test_the_pdf_reads_back_with_rules_tables_card_and_stamp(holdem: ParDocument, tmp_path: Path) -> None:
    path = write_document(holdem, tmp_path / "holdem.pdf", "pdf")
    reader = pypdf.PdfReader(path)
    text = " ".join((page.extract_text() or "") for page in reader.pages)
    flat = " ".join(text.split())
    for words in ("rules and paytable", "Return table", "confidence bands", "AA Bonus: by tier", "Provenance"):
        assert words in flat, words
    assert holdem.provenance.variant_hash in flat.replace(" ", "") or holdem.provenance.variant_hash[:32] in flat
    assert f"caribbean-fast {holdem.provenance.package_version}" in flat
    assert any(page.images for page in reader.pages)  # the strategy card as a picture


def test_cli_writes_the_files_and_checks_them_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheet.xlsx"
    assert main(["analyze", "casino-holdem", "--format", "xlsx", "--out", str(out)]) == 0
    assert out.stat().st_size > 0 and "wrote" in capsys.readouterr().out
    assert main(["analyze", "casino-holdem", "--format", "pdf"]) == 2
    assert "--format pdf needs --out FILE.pdf" in capsys.readouterr().err
    assert main(["analyze", "casino-holdem", "--format", "pdf", "--out", str(tmp_path / "no" / "x.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(ArgumentError, match="format: 'doc' is not one of xlsx, pdf"):
        write_document(par_document("casino-holdem"), tmp_path / "x.doc", "doc")


def test_the_strategy_card_is_drawn(holdem: ParDocument, tmp_path: Path) -> None:
    from caribbean_fast.plots import draw_strategy_card

    path = draw_strategy_card(holdem.card, tmp_path / "card.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 20_000


def test_game_4s_counts_past_a_doubles_digits_keep_their_exact_integers(tmp_path: Path) -> None:
    """Game 4's paths through its exchanges are counted to about 10^34: a spreadsheet's number (a
    double) keeps 15 to 16 digits, so each count has its exact integer as text beside it."""
    document = par_document("caribbean-poker")
    path = write_document(document, tmp_path / "game4.xlsx", "xlsx")
    sheet = openpyxl.load_workbook(path)["Net by amount"]
    head = [c.value for c in sheet[2]]
    at = head.index("combinations")
    assert head[at + 1] == "combinations (exact)"
    rows = [r for r in sheet.iter_rows(min_row=3, values_only=True) if r[at] is not None]
    exact = [int(r[at + 1]) for r in rows]
    assert sum(exact) == document.sheet.total_deals > 2**100  # every digit kept
    for row, n in zip(rows, exact, strict=True):  # the numbers stay numbers, to a double's digits
        assert row[at] == n if n <= 2**53 else isinstance(row[at], float) and row[at] == pytest.approx(n, rel=1e-15)
