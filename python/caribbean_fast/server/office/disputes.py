"""Disputes answered from the record: a round found by table, account, time or id; its events;
its replay by the engine to the same result; each seat's fairness proof; one JSON file of it all
for the player (the seat's own view, as the table showed it) or a regulator (every event and the
round's rows with their chain hashes).

The replay is the audit's (`engine.replay.verified`): the table's rows from its first through the
round's, their hashes checked, each seed against its commitment, every command run again on a
fresh table and every event it makes held to the recorded one. It reads the table's record up to
the round, so it runs only when an operator opens a round, off the loop and off the read side's
thread once the rows are read."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ...engine.events import Event, chain_hash, event_to_json
from ...engine.history import round_proof
from ...engine.replay import table_config, verified
from ...engine.store import Row
from ...errors import AuditError, ServerError, StoreError
from ..store import office_reads as q
from ..store.schema import Tx
from .host import OfficeHost

__all__ = ["currency_of", "export", "find_rounds", "open_round", "parse_id", "summary"]

MOST = 50  # rounds a search lists


def parse_id(text: str) -> tuple[str, int]:
    """A round's id, `<table>:<round>` (as the office and the export write it)."""
    table, _, number = text.rpartition(":")
    if not table or not number.isdecimal():
        raise ServerError(f"a round's id is <table>:<round>, e.g. cyberstud-1:42, not {text!r}", "bad_field")
    return table, int(number)


def currency_of(host: OfficeHost, table: str) -> dict[str, Any]:
    """The table's currency as the pages take it (`money.js`)."""
    spec = host.tables().get(table)
    c = spec.variant.currency if spec else None
    return {"code": c.code if c else "USD", "minor_per_major": c.minor_per_major if c else 100}


def summary(
    table: str, number: int, events: list[Event], seats: dict[int, str], currency: dict[str, Any]
) -> dict[str, Any]:
    """One line of a search: when it opened, whether it closed or was void, and each seat's
    account, hand, stake and net (in minor units of `currency`)."""
    opened = next((e for e in events if e.kind == "round_opened"), None)
    closed = next((e for e in events if e.kind == "round_closed"), None)
    line: dict[str, Any] = {"id": f"{table}:{number}", "table": table, "round": number, "currency": currency}
    line |= {"opened": None if opened is None else opened.time.isoformat(), "closed": closed is not None}
    line["void"] = bool(closed and closed.public.get("void"))
    line["seats"] = [
        {
            "seat": e.seat,
            "account": seats.get(int(e.seat or 0)),
            "hand": e.public.get("hand"),
            "staked": sum(int(b["stake"]) for b in e.public.get("bets", [])),
            "net": e.public.get("net", {}).get("total"),
        }
        for e in events
        if e.kind == "settled"
    ]
    return line


async def find_rounds(
    host: OfficeHost, table: str | None, account: str | None, when: datetime | None, ident: str | None
) -> list[dict[str, Any]]:
    """The rounds a search names, latest first: one by id; an account's latest (at one table, or
    any); a table's round in play at a time and those after it; or a table's latest."""
    tables = [table] if table else sorted(host.tables())
    if table and table not in host.tables():
        raise ServerError(f"no table {table!r}", "bad_field")

    def job(tx: Tx) -> list[dict[str, Any]]:
        places: list[tuple[str, int]]
        if ident:
            places = [parse_id(ident)]
        elif account:
            places = [(t, r) for t, r, _ in q.account_rounds(tx, account, MOST) if table is None or t == table]
        elif when is not None:
            places = []
            for t in tables:
                at = q.round_at(tx, t, when)
                if at is not None:
                    places += [(t, r) for r in range(at + 5, at - 1, -1) if r <= (q.last_round(tx, t) or 0)]
        else:
            places = [(t, r) for t in tables for r in q.table_rounds(tx, t, None, MOST)]
        places = sorted(set(places), key=lambda p: (p[1], p[0]), reverse=True)[:MOST]
        found = []
        for t, r in places:
            events = q.round_events(tx, t, r)
            if events:
                found.append(summary(t, r, events, q.seats_in(tx, t, r), currency_of(host, t)))
        return found

    return await host.reads.run(job)


@dataclass(frozen=True)
class _Through:
    """The table's record through the round, as the audit reads a store."""

    meta_data: dict[str, str]
    found: list[Row]

    def rows(self, since: int = 0) -> list[Row]:
        return self.found

    def read_meta(self) -> dict[str, str]:
        return dict(self.meta_data)

    def begin(self, meta: dict[str, str]) -> None:
        raise StoreError("a dispute's replay writes nothing")

    def write_meta(self, meta: dict[str, str]) -> None:
        raise StoreError("a dispute's replay writes nothing")

    def append(self, events: Sequence[Event]) -> None:
        raise StoreError("a dispute's replay writes nothing")

    def close(self) -> None:
        pass


def _replayed(meta: dict[str, str], rows: list[Row], number: int) -> dict[str, Any]:
    """The replay's verdict: every event the engine makes again is the recorded one, through the
    round; and the round's settlement as the replay made it."""
    try:
        table, events = verified(_Through(meta, rows))
    except (AuditError, StoreError) as err:
        where = getattr(err, "round", None)
        return {"same": False, "failure": str(getattr(err, "reason", err)), "round": where}
    made = [e for e in table.events if e.round == number and e.kind == "settled"]
    nets = {str(e.seat): e.public["net"]["total"] for e in made}
    return {"same": True, "events": len(events), "rounds": number, "settled": nets}


async def open_round(host: OfficeHost, table: str, number: int) -> dict[str, Any]:
    """Everything the office shows of a round: its events (every part once the round is closed;
    only their public part while it is in play), its rows and chain, the replay and the proofs."""
    if table not in host.tables():
        raise ServerError(f"no table {table!r}", "bad_field")

    def job(tx: Tx) -> tuple[dict[str, str], list[tuple[int, str, str]], str, list[Row], dict[int, str]]:
        rows = q.round_rows(tx, table, number)
        if not rows:
            raise ServerError(f"no round {number} at {table}", "no_table")
        before = q.chain_before(tx, table, rows[0][0])
        return q.meta(tx, table), rows, before, q.rows_through(tx, table, number), q.seats_in(tx, table, number)

    meta, rows, before, through, seats = await host.reads.run(job)
    events = [e for _, _, text in rows for e in Row(text, "").events]  # the round's place: its bets' commands too
    closed = any(e.kind == "round_closed" for e in events)
    variant = table_config(meta)["variant"]
    dealt = sorted({int(e.seat) for e in events if e.kind == "dealt" and e.seat is not None})
    proofs = {str(s): round_proof(events, s, variant) for s in dealt} if closed else {}
    replay = await asyncio.to_thread(_replayed, meta, through, number)
    return {
        **summary(table, number, events, seats, currency_of(host, table)),
        "variant": variant.name,
        "events": [_shown(e, closed) for e in events],
        "rows": [{"seq": s, "chain": c, "text": t} for s, c, t in rows],
        "chain_before": before,
        "chain_holds": _chain_holds(before, rows),
        "replay": replay,
        "proofs": proofs,
        "seat_views": {str(s): [e.seen_by(s) for e in events if not e.hidden_from(s)] for s in dealt} if closed else {},
        "variant_text": meta.get("variant", ""),
    }


def _shown(event: Event, closed: bool) -> dict[str, Any]:
    """An event as the office shows it: whole once its round is closed (the seed and the hidden
    cards are revealed by then); while it is in play, what an onlooker sees."""
    if not closed:
        return event.seen_by(None)
    return dict(json.loads(event_to_json(event)))


def _chain_holds(before: str, rows: list[tuple[int, str, str]]) -> bool:
    previous = before
    for _, chain, text in rows:
        if chain_hash(previous, text) != chain:
            return False
        previous = chain
    return True


def export(found: dict[str, Any], seat: int | None, by: str, at: str) -> dict[str, Any]:
    """One file of the round: for a regulator (`seat` None) everything the office shows; for the
    player at `seat`, the round as that seat saw it, its proof, and the replay's verdict."""
    head = {"format": "caribbean-fast round", "version": 1, "id": found["id"], "exported_by": by, "exported_at": at}
    if seat is None:
        return head | {"for": "regulator"} | {k: v for k, v in found.items() if k not in ("id", "seat_views")}
    if str(seat) not in found["proofs"]:
        raise ServerError(f"seat {seat} was not dealt into {found['id']} (or the round is not over)", "bad_field")
    return head | {
        "for": f"seat {seat}",
        "table": found["table"],
        "round": found["round"],
        "variant": found["variant"],
        "events": found["seat_views"][str(seat)],
        "proof": found["proofs"][str(seat)],
        "replay": {k: v for k, v in found["replay"].items() if k != "settled"},
        "settled": [s for s in found["seats"] if s["seat"] == seat],
    }
