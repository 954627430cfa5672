"""A table's rules as JSON for the page (`GET /api/rules/<table>`): a thin call of the variant's
presentation (`words.rules.rules_document`), so the page shows the rules the engine
plays by, in the words the terminal uses, and never a copy of them; and the variant's own text
(`variant_toml`), from which the terminal client loads the variant the table plays (a variant
changed by the office has a name no preset has)."""

from __future__ import annotations

from typing import Any

from ..variants import Variant
from ..variants.toml_io import to_toml
from ..words.rules import rules_document

__all__ = ["rules_json"]


def rules_json(table: str, v: Variant, limits: int) -> dict[str, Any]:
    """The rules document of `table`, a table of `v` under its `limits`th limits."""
    return {**rules_document(table, v, limits), "variant_toml": to_toml(v)}
