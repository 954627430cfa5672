"""The par document as Markdown, formatting the cells of `doctables` (no figure is computed here).
Apart from `render` so that the server's office serves it without loading rich."""

from __future__ import annotations

from .doctables import DocTable, document_tables, document_title, numeric_cell, text_cell
from .document import ParDocument
from .wording import warnings

__all__ = ["document_markdown"]


def _markdown_table(t: DocTable) -> list[str]:
    def escape(text: str) -> str:
        return text.replace("|", "\\|")

    lines = [f"## {t.title}", ""]
    lines.append("| " + " | ".join(escape(c) or " " for c in t.columns) + " |")
    aligns = ("---:" if any(numeric_cell(r[i]) for r in t.rows) else "---" for i in range(len(t.columns)))
    lines.append("| " + " | ".join(aligns) + " |")
    lines += ["| " + " | ".join(escape(text_cell(c)) for c in row) + " |" for row in t.rows]
    return [*lines, "", *(f"{note}  " for note in t.notes), ""]


def document_markdown(d: ParDocument) -> str:
    lines = [f"# {document_title(d)}", ""]
    lines += [f"> {w}" for w in warnings(d.sheet)] + ([""] if warnings(d.sheet) else [])
    for t in document_tables(d):
        lines += _markdown_table(t)
    return "\n".join(lines).rstrip() + "\n"
