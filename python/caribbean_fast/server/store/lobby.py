"""The lobby's entries as each process publishes them for the others (`lobby_state`): one named
query each."""

from __future__ import annotations

from typing import Any

from .schema import Tx

__all__ = ["lobby_states", "publish_lobby"]

_UPSERT = "INSERT INTO lobby_state VALUES (?, ?) ON CONFLICT (table_id) DO UPDATE SET state = excluded.state"


def publish_lobby(tx: Tx, rows: list[tuple[str, str]]) -> None:
    """Each (table, state as JSON) written over the last."""
    if rows:
        tx.many(_UPSERT, rows)


def lobby_states(tx: Tx) -> list[tuple[Any, ...]]:
    return tx.all("SELECT table_id, state FROM lobby_state")
