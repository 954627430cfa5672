"""The office's log: every action the office takes (who, when, what, on what, why), appended,
never changed, chained by hash as the tables' records are (`events.chain_hash` over each entry's
text and the hash before): changing, removing or reordering an entry breaks every hash after it,
and every read checks the chain from its start (the log holds office actions only: a few a day).

Two processes appending at once compute the same next `seq`; the second's insert fails on the
primary key and its job rolls back, so the log never forks (the caller tries again)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...engine.events import chain_hash
from .schema import Tx

__all__ = ["Entry", "Verified", "append", "read_log"]


@dataclass(frozen=True)
class Entry:
    seq: int
    time: str
    operator: str
    action: str
    target: str
    why: str
    detail: dict[str, Any]

    def text(self) -> str:
        """The entry as the chain covers it: its fields as JSON, keys sorted."""
        fields = {"seq": self.seq, "time": self.time, "operator": self.operator, "action": self.action}
        fields |= {"target": self.target, "why": self.why, "detail": self.detail}
        return json.dumps(fields, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Verified:
    entries: list[Entry]  # the latest first
    total: int
    failure: str | None  # None: every hash holds

    @property
    def ok(self) -> bool:
        return self.failure is None


def append(tx: Tx, time: str, operator: str, action: str, target: str, why: str, detail: dict[str, Any]) -> Entry:
    """Writes the next entry after the last one, chained to its hash."""
    last = tx.one("SELECT seq, chain FROM office_log ORDER BY seq DESC LIMIT 1")
    seq, previous = (0, "") if last is None else (int(last[0]) + 1, str(last[1]))
    entry = Entry(seq, time, operator, action, target, why, detail)
    text = entry.text()
    tx.execute("INSERT INTO office_log VALUES (?, ?, ?)", (seq, chain_hash(previous, text), text))
    return entry


def read_log(tx: Tx, last: int = 200) -> Verified:
    """The latest `last` entries, once the whole chain is checked; the first entry at fault named."""
    rows = tx.all("SELECT seq, chain, body FROM office_log ORDER BY seq")
    previous, failure = "", None
    entries: list[Entry] = []
    for k, (seq, chain, body) in enumerate(rows):
        if failure is None and (int(seq) != k or chain_hash(previous, str(body)) != chain):
            failure = f"entry {seq} does not match its hash: changed, removed or reordered"
        previous = str(chain)
        try:
            entries.append(_entry(str(body)))
        except (ValueError, KeyError, TypeError):
            failure = failure or f"entry {seq} is not an entry the office wrote"
    return Verified(entries[::-1][:last], len(rows), failure)


def _entry(body: str) -> Entry:
    fields = json.loads(body)
    return Entry(**{k: fields[k] for k in ("seq", "time", "operator", "action", "target", "why", "detail")})
