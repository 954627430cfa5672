"""The par document as files a lab or an operator keeps (the optional `export` extra): a
spreadsheet (openpyxl) with a sheet per table, numbers as numbers and each exact fraction beside
its decimal; and a PDF (fpdf2) with the rules, the paytable, every table, the strategy card (as a
picture where matplotlib is installed, else as text) and the figures' provenance. Both write the
cells of `doctables`, as the text and JSON outputs do."""

from __future__ import annotations

import re
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeGuard

from ..errors import ArgumentError, MissingExtraError
from ..words.rules import how_to_play, paytable_columns, paytable_rows, summary
from .doctables import Cell, DocTable, document_tables, document_title, text_cell
from .document import ParDocument
from .wording import warnings

__all__ = ["FORMATS", "write_document", "write_pdf", "write_xlsx"]

FORMATS = ("xlsx", "pdf")


def write_document(document: ParDocument, path: str | Path, form: str) -> Path:
    """Writes the document as `form` ("xlsx" or "pdf") to `path`."""
    if form not in FORMATS:
        raise ArgumentError(f"format: {form!r} is not one of {', '.join(FORMATS)}")
    return write_xlsx(document, path) if form == "xlsx" else write_pdf(document, path)


def _checked(path: str | Path, suffix: str) -> Path:
    path = Path(path)
    if path.suffix.lower() != suffix:
        raise ArgumentError(f"{path}: the file must end in {suffix}")
    if not path.parent.is_dir():
        raise ArgumentError(f"{path}: the folder {path.parent} does not exist")
    return path


def _rules_table(d: ParDocument) -> DocTable:
    """The variant's rules and paytable, in the words the table pages use."""
    v = d.variant
    columns = tuple(c.title for c in paytable_columns(v))
    rows = tuple(tuple(row[c.key] for c in paytable_columns(v)) for row in paytable_rows(v))
    notes = (summary(v), *how_to_play(v), *((v.notes,) if v.notes else ()))
    return DocTable("Rules", f"{v.title}: rules and paytable", columns, rows, notes)


# ---- spreadsheet ------------------------------------------------------------------------------


EXACT_WHOLE = 2**53  # a spreadsheet's number is a double: whole numbers past this lose digits


def _inexact(cell: Cell) -> bool:
    """Whether a spreadsheet's number cannot hold the cell exactly: a fraction that is not whole,
    or a whole number past 2^53 (game 4's counts of paths through its exchanges reach 10^34)."""
    if isinstance(cell, Fraction) and cell.denominator != 1:
        return True
    return _number(cell) and abs(Fraction(cell)) > EXACT_WHOLE


def _number(cell: Cell) -> TypeGuard[int | Fraction]:
    """A whole number or a fraction (not a flag, not a decimal already)."""
    return isinstance(cell, (int, Fraction)) and not isinstance(cell, bool)


def _exact_columns(t: DocTable) -> list[bool]:
    """The columns with a cell a number cannot hold exactly: each gets an exact column beside it."""
    return [any(_inexact(row[i]) for row in t.rows if i < len(row)) for i in range(len(t.columns))]


def _xlsx_value(cell: Cell) -> Any:
    if _number(cell):
        return float(cell) if _inexact(cell) else int(cell)
    return cell


def _sheet_name(name: str, taken: set[str]) -> str:
    base = re.sub(r"[\[\]:*?/\\]", " ", name)[:31] or "table"
    out, n = base, 2
    while out in taken:
        out = f"{base[:28]} {n}"
        n += 1
    taken.add(out)
    return out


def write_xlsx(document: ParDocument, path: str | Path) -> Path:
    """A workbook with a sheet per table: numbers as numbers, and beside each column of
    fractions or of whole numbers past 2^53 its exact values as text ("-142031221/2718662100")."""
    path = _checked(path, ".xlsx")
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Font
    except ImportError:
        raise MissingExtraError("spreadsheets need openpyxl: pip install 'caribbean-fast[export]'") from None
    book = Workbook()
    book.remove(book.active)
    taken: set[str] = set()
    for t in (_rules_table(document), *document_tables(document)):
        sheet = book.create_sheet(_sheet_name(t.name, taken))
        sheet.append([t.title])
        sheet["A1"].font = Font(bold=True)
        exact = _exact_columns(t)
        head: list[str] = []
        for name, has in zip(t.columns, exact, strict=True):
            head += [name, f"{name} (exact)"] if has else [name]
        sheet.append(head)
        for cell in sheet[2]:
            cell.font = Font(bold=True)
        for row in t.rows:
            values: list[Any] = []
            for i, has in enumerate(exact):
                cell = row[i] if i < len(row) else None
                values.append(_xlsx_value(cell))
                if has:
                    values.append(str(cell) if _number(cell) else None)
            sheet.append(values)
        for note in t.notes:
            sheet.append([note])
        sheet.column_dimensions["A"].width = 44
    book.save(path)
    return path


# ---- PDF --------------------------------------------------------------------------------------

_LATIN = str.maketrans(
    {"\u00b7": "-", "\u00d7": "x", "\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2019": "'", "\u2026": "..."}
)  # the middle dot, times, minus, dashes, a closing quote and an ellipsis, as Latin-1 writes them


def _latin(text: str) -> str:
    """Text the PDF's core fonts can set (Latin-1): a few signs spelt out, anything else '?'."""
    return text.translate(_LATIN).encode("latin-1", "replace").decode("latin-1")


def _pdf_table(pdf: Any, t: DocTable) -> None:
    pdf.set_font("Helvetica", "B", 10)
    pdf.multi_cell(0, 6, _latin(t.title), new_x="LMARGIN", new_y="NEXT")
    size = 7 if len(t.columns) <= 7 else 6
    pdf.set_font("Helvetica", "", size)
    with pdf.table(text_align="LEFT", line_height=size * 0.55, first_row_as_headings=True, repeat_headings=1) as table:
        table.row([_latin(c) for c in t.columns])
        for row in t.rows:
            table.row([_latin(text_cell(c)) for c in row] + [""] * (len(t.columns) - len(row)))
    pdf.set_font("Helvetica", "I", 7)
    for note in t.notes:
        pdf.multi_cell(0, 3.6, _latin(note), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)


def _card_picture(document: ParDocument, folder: Path) -> Path | None:
    """The strategy card drawn by `plots`, or None where matplotlib is not installed."""
    try:
        from ..plots import draw_strategy_card

        return draw_strategy_card(document.card, folder / "card.png")
    except MissingExtraError:
        return None


def write_pdf(document: ParDocument, path: str | Path) -> Path:
    """A document to file: the rules and paytable, every table, the strategy card, provenance."""
    path = _checked(path, ".pdf")
    try:
        from fpdf import FPDF
    except ImportError:
        raise MissingExtraError("PDF needs fpdf2: pip install 'caribbean-fast[export]'") from None
    d, p = document, document.provenance
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=14)
    pdf.set_title(_latin(document_title(d)))
    pdf.set_creator(f"caribbean-fast {p.package_version}")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 14)
    pdf.multi_cell(0, 7, _latin(document_title(d)), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 8)
    stamp = f"Variant {d.variant.name}, SHA-256 {p.variant_hash}; caribbean-fast {p.package_version}; {p.method}."
    pdf.multi_cell(0, 4, _latin(stamp), new_x="LMARGIN", new_y="NEXT")
    for w in warnings(d.sheet):
        pdf.set_font("Helvetica", "B", 8)
        pdf.multi_cell(0, 4, _latin(w), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    tables = document_tables(d)
    for t in (_rules_table(d), *tables):
        if t.name == "Strategy card":
            continue  # the card follows, as a picture
        _pdf_table(pdf, t)
    pdf.add_page()
    with tempfile.TemporaryDirectory() as folder:
        picture = _card_picture(d, Path(folder))
        if picture is not None:
            pdf.image(str(picture), w=pdf.epw)
        else:
            _pdf_table(pdf, next(t for t in tables if t.name == "Strategy card"))
    pdf.output(str(path))
    return path
