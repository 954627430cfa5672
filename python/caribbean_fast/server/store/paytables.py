"""Paytable changes in the database: each proposal (the game whose tables it is for, the new
variant's name, its text's SHA-256, the exact figures the office showed), who proposed it and
why, and who approved it; and every variant's text by its hash (`variant_texts`), written once,
never changed; and each approved change as a table took it (`paytable_applied`). One named query each."""

from __future__ import annotations

import json
from typing import Any

from ...errors import ServerError
from .schema import Tx

__all__ = ["applied", "approve", "approved", "change", "changes", "keep_text", "mark_applied", "propose", "text_of"]

_COLUMNS = "id, game, name, hash, sheet, proposed_by, proposed, why, approved_by, approved"


def keep_text(tx: Tx, digest: str, text: str) -> None:
    """The variant's text under its hash (a text kept already stays as it is)."""
    tx.execute("INSERT INTO variant_texts VALUES (?, ?) ON CONFLICT (hash) DO NOTHING", (digest, text))


def text_of(tx: Tx, digest: str) -> str | None:
    row = tx.one("SELECT text FROM variant_texts WHERE hash = ?", (digest,))
    return None if row is None else str(row[0])


def propose(tx: Tx, game: str, name: str, digest: str, sheet: dict[str, Any], by: str, when: str, why: str) -> int:
    """A new proposal; its id. Refused while another proposal of the same name waits or was approved."""
    if tx.one("SELECT 1 FROM paytable_changes WHERE name = ?", (name,)) is not None:
        raise ServerError(f"a change named {name!r} exists: a variant's name is never reused", "name_taken")
    row = tx.one("SELECT MAX(id) FROM paytable_changes")
    ident = 1 if row is None or row[0] is None else int(row[0]) + 1
    values = (ident, game, name, digest, json.dumps(sheet), by, when, why)
    tx.execute("INSERT INTO paytable_changes VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)", values)
    return ident


def approve(tx: Tx, ident: int, by: str, when: str) -> dict[str, Any]:
    """The proposal approved by `by`, a second operator: never its proposer, never twice."""
    found = change(tx, ident)
    if found is None:
        raise ServerError(f"no paytable change {ident}", "bad_field")
    if found["approved_by"] is not None:
        raise ServerError(f"change {ident} was approved already, by {found['approved_by']}", "bad_field")
    if found["proposed_by"] == by:
        raise ServerError("a change is approved by a second operator, not the one who proposed it", "forbidden")
    tx.execute("UPDATE paytable_changes SET approved_by = ?, approved = ? WHERE id = ?", (by, when, ident))
    return found | {"approved_by": by, "approved": when}


def change(tx: Tx, ident: int) -> dict[str, Any] | None:
    row = tx.one(f"SELECT {_COLUMNS} FROM paytable_changes WHERE id = ?", (ident,))
    return None if row is None else _change(row)


def changes(tx: Tx, last: int = 50) -> list[dict[str, Any]]:
    """The latest proposals, latest first."""
    return [_change(r) for r in tx.all(f"SELECT {_COLUMNS} FROM paytable_changes ORDER BY id DESC LIMIT ?", (last,))]


def _change(row: tuple[Any, ...]) -> dict[str, Any]:
    keys = _COLUMNS.split(", ")
    found = dict(zip(keys, row, strict=True))
    found["id"], found["sheet"] = int(found["id"]), json.loads(found["sheet"])
    return found


def approved(tx: Tx) -> list[tuple[int, str, str, str]]:
    """Every approved change, oldest first: (id, the game it replaces, the hash, the variant's text)."""
    sql = """SELECT c.id, c.game, c.hash, t.text FROM paytable_changes c JOIN variant_texts t ON t.hash = c.hash
        WHERE c.approved IS NOT NULL ORDER BY c.id"""
    return [(int(i), str(g), str(h), str(t)) for i, g, h, t in tx.all(sql, ())]


def mark_applied(tx: Tx, table: str, ident: int, round: int, when: str) -> None:
    """The table took change `ident` after round `round` (in the commit of its record's event)."""
    tx.execute("INSERT INTO paytable_applied VALUES (?, ?, ?, ?)", (table, ident, round, when))


def applied(tx: Tx) -> dict[str, list[dict[str, Any]]]:
    """The changes each table took, in order: {"change", "round", "applied"}."""
    found: dict[str, list[dict[str, Any]]] = {}
    sql = "SELECT table_id, change_id, round, applied FROM paytable_applied ORDER BY applied, change_id"
    for table, ident, number, when in tx.all(sql, ()):
        found.setdefault(str(table), []).append({"change": int(ident), "round": int(number), "applied": str(when)})
    return found
