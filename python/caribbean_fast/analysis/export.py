"""The par document as files (the optional `export` extra): written in the next part."""

from __future__ import annotations

from pathlib import Path

from ..errors import ArgumentError
from .document import ParDocument


def write_document(document: ParDocument, path: Path, form: str) -> Path:
    raise ArgumentError(f"--format {form}: not written yet ({document.variant.name}, {path})")
