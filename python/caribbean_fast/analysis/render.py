"""The par document for people and programs: rich tables and a JSON-ready dict, each formatting
the cells of `doctables` (no figure is computed here; the Markdown, which the server also serves, is
`markdown`, apart from rich)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .doctables import Cell, document_tables, document_title, numeric_cell, text_cell
from .document import ParDocument
from .report import par_sheet_dict
from .wording import warnings

__all__ = ["document_dict", "render_document"]


def render_document(d: ParDocument) -> RenderableType:
    parts: list[RenderableType] = [Text(document_title(d), style="bold")]
    parts += [Text(w, style="bold red") for w in warnings(d.sheet)]
    for t in document_tables(d):
        table = Table(title=t.title)
        for i, name in enumerate(t.columns):
            numeric = any(numeric_cell(row[i]) for row in t.rows if i < len(row))
            table.add_column(name, justify="right" if numeric else "left")
        for row in t.rows:
            table.add_row(*(text_cell(c) for c in row))
        parts.append(table)
        parts += [Text(note, style="italic") for note in t.notes if note not in warnings(d.sheet)]
    return Group(*parts)


def _json_cell(cell: Cell) -> Any:
    if isinstance(cell, Fraction):
        return {"exact": f"{cell.numerator}/{cell.denominator}", "decimal": float(cell)}
    return cell


def document_dict(d: ParDocument) -> dict[str, Any]:
    """The sheet's dict (`report.par_sheet_dict`) with every table of the document under "tables"."""
    out = par_sheet_dict(d.sheet)
    out["ties"] = d.sheet.ties
    out["variant_hash"] = d.provenance.variant_hash
    out["package_version"] = d.provenance.package_version
    out["tables"] = [
        {
            "name": t.name,
            "title": t.title,
            "columns": list(t.columns),
            "rows": [[_json_cell(c) for c in row] for row in t.rows],
            "notes": list(t.notes),
        }
        for t in document_tables(d)
    ]
    return out
