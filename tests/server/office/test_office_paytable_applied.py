"""An approved paytable change reaches a running table, through the real server on SQLite: not
while the seat's round is open, at the round boundary after it; the record holds the change by its
text and hash and still restores and audits; the seat is told before its next bet; the rules page
and the lobby follow the new variant; the office's log records the application."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from live_server import Client, LiveServer, query, recorded, settings
from office_helpers import Office

from caribbean_fast.engine import audit, restore
from caribbean_fast.engine.paytable import variant_hash
from caribbean_fast.hands import HandClass
from caribbean_fast.server.store.db import Database, connect
from caribbean_fast.server.store.office_log import read_log
from caribbean_fast.server.store.record import TableRecord
from caribbean_fast.server.tables import paytables
from caribbean_fast.variants import Variant, load_variant
from caribbean_fast.variants.toml_io import to_toml

TABLE = "cyberstud-1"


def richer() -> Variant:
    """Cyberstud with two pair paying 3 to 1 on the raise (the house keeps its edge)."""
    base = load_variant("cyberstud")
    pays = dict(base.raise_paytable) | {HandClass.TWO_PAIR: base.raise_paytable[HandClass.TWO_PAIR] + 1}
    return replace(base, name="cyberstud-rich", raise_paytable=pays)


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(paytables, "CHANGES_EVERY", 0.2)
    with LiveServer(settings(str(tmp_path_factory.mktemp("applied") / "tables.db"))) as live:
        yield live


def until(found: Callable[[], Any], seconds: float = 20) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := found()):
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)
    return value


def approve(server: LiveServer) -> dict[str, Any]:
    url = server.settings.database
    first, second = Office(server.http, url), Office(server.http, url)
    body = {"game": "cyberstud", "source": "text", "text": to_toml(richer()), "name": "cyberstud-rich"}
    made = first.post("/office/api/paytables", body | {"why": "two pair pays more"})
    assert made.status_code == 201, made.text
    change: dict[str, Any] = made.json()
    assert second.post(f"/office/api/paytables/{change['id']}/approve", {"why": "par sheet read"}).status_code == 200
    return change


def test_an_approved_change_reaches_the_table_at_its_next_round(server: LiveServer) -> None:
    url = server.settings.database
    player = Client(server.ws, server.guest())
    player.ok("sit", table=TABLE, buy_in=50_000)
    player.ok("ante", table=TABLE, amount=500)
    player.ok("deal", table=TABLE)  # the round is open when the change is approved
    change = approve(server)
    assert change["hash"] == variant_hash(to_toml(richer()))
    time.sleep(1.0)  # five reads of the approved changes: the open round keeps its variant
    assert not query(url, "SELECT * FROM paytable_applied")
    assert [e for e in recorded(url, TABLE) if e.kind == "change_variant"] == []
    assert httpx.get(f"{server.http}/api/rules/{TABLE}").json()["game"] == "cyberstud"

    player.ok("raise", table=TABLE)  # the round ends: the boundary
    ((ident, number),) = until(lambda: query(url, "SELECT change_id, round FROM paytable_applied"))
    assert (ident, number) == (change["id"], 1)
    while (told := player.recv())["type"] != "paytable":  # the frames read meanwhile: views
        pass
    assert told | {"v": 1} == {"v": 1, "type": "paytable", "table": TABLE, "game": "cyberstud-rich"} | {
        "title": richer().title,
        "was": "cyberstud",
    }
    events = recorded(url, TABLE)
    kinds = [e.kind for e in events]
    at = kinds.index("change_variant")
    assert kinds.index("round_closed") < at and kinds[at + 1] == "variant_changed"
    assert events[at].public["args"] == {"sha256": change["hash"], "text": to_toml(richer())}
    assert httpx.get(f"{server.http}/api/rules/{TABLE}").json()["game"] == "cyberstud-rich"
    lobby = {e["table"]: e for e in httpx.get(f"{server.http}/api/lobby").json()["tables"]}
    assert lobby[TABLE]["game"] == "cyberstud-rich" and lobby["network-24h-1"]["game"] == "network-24h"

    player.ok("ante", table=TABLE, amount=500)  # the next round, under the new variant
    player.ok("deal", table=TABLE)
    player.ok("raise", table=TABLE)
    db = Database(connect(url))
    try:
        entries = db.run_now(lambda tx: read_log(tx))
        record = TableRecord(TABLE)
        assert db.run_now(record.load)
        assert restore(record).variant == richer()
        report = audit(record)
    finally:
        db.dialect.close()
    assert entries.ok
    applied = [e for e in entries.entries if e.action == "apply_paytable"]
    assert [(e.operator, e.target, e.detail) for e in applied] == [
        ("server", TABLE, {"id": change["id"], "round": 1, "hash": change["hash"]})
    ]
    assert report.ok and report.rounds == 2 and report.settled == 2
    shown = Office(server.http, url, role="auditor").get("/office/api/paytables").json()["changes"]
    taken = [c["applied_to"] for c in shown if c["id"] == change["id"]]
    assert [[(a["table"], a["round"]) for a in rows] for rows in taken] == [[(TABLE, 1)]]
    player.close()
