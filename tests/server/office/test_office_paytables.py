"""Paytables changed through the exact analysis, the office's half, through the real server: a
proposal from the designer, a preset, an example or a variant's text is analysed exactly before
anything changes (its figures are the analysis's own), kept by the hash of its text, refused
under a preset's name or when it gives the player the edge, and approved by a second operator
only: never its proposer, never an auditor, never twice. Each step is in the office's log."""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterator

import pytest
from live_server import LiveServer, query, settings
from office_helpers import Office

from caribbean_fast.analysis import analyze
from caribbean_fast.analysis.document import variant_hash
from caribbean_fast.server.office.paytables import figures
from caribbean_fast.server.store.pools import pool_key
from caribbean_fast.server.tables import paytables
from caribbean_fast.variants import load_variant
from caribbean_fast.variants.toml_io import from_dict, to_toml


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with pytest.MonkeyPatch.context() as patch:  # the approvals here stay off the tables (applied: elsewhere)
        patch.setattr(paytables, "CHANGES_EVERY", 3600.0)
        with LiveServer(settings(str(tmp_path_factory.mktemp("paytables") / "tables.db"))) as live:
            yield live


def test_a_designed_paytable_is_analysed_kept_and_approved_by_a_second_operator(server: LiveServer) -> None:
    url = server.settings.database
    first, second = Office(server.http, url), Office(server.http, url)
    auditor = Office(server.http, url, role="auditor")
    body = {"game": "cyberstud", "source": "designer", "target": "0.97", "adjust": "raise:royal-flush"}
    body |= {"name": "cyberstud-97", "why": "a lower top prize"}
    made = first.post("/office/api/paytables", body)
    assert made.status_code == 201, made.text
    change = made.json()
    ((text,),) = query(url, "SELECT text FROM variant_texts WHERE hash = ?", (change["hash"],))
    assert hashlib.sha256(text.encode()).hexdigest() == change["hash"]
    proposed = from_dict(tomllib.loads(text))
    assert proposed.name == "cyberstud-97" and to_toml(proposed) == text
    current = load_variant("cyberstud")
    assert change["sheet"]["current"] == figures(current)
    assert change["sheet"]["proposed"]["house_edge_exact"] == str(analyze(proposed).house_edge)
    assert analyze(proposed).rtp >= 0.97 > analyze(proposed).rtp - 0.01
    assert change["sheet"]["pool"] == {
        "old_pool": pool_key(current),
        "new_pool": pool_key(proposed),
        "schedule_changed": False,
        "old_meter": current.progressive.reset if current.progressive else None,
    }
    sheet = auditor.get(f"/office/api/paytables/{change['id']}/parsheet")  # the whole par sheet, read first
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/markdown")
    assert "cyberstud-97" in sheet.text and variant_hash(proposed) in sheet.text
    assert auditor.get("/office/api/paytables/999999/parsheet").status_code == 404
    path = f"/office/api/paytables/{change['id']}/approve"
    own = first.post(path, {"why": "mine"})
    assert own.status_code == 403 and "second operator" in own.json()["error"]["message"]
    assert auditor.post(path, {"why": "looks right"}).status_code == 403
    approved = second.post(path, {"why": "checked the par sheet"})
    assert approved.status_code == 200 and approved.json()["approved_by"] == second.name
    assert second.post(path, {"why": "again"}).status_code == 400
    entries = [json.loads(b) for (b,) in query(url, "SELECT body FROM office_log ORDER BY seq")]
    acts = [(e["action"], e["operator"]) for e in entries if e["action"].endswith("_paytable")]
    assert acts == [("propose_paytable", first.name), ("approve_paytable", second.name)]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"source": "preset", "preset": "atlantic-city", "name": "atlantic-city"}, "a preset's"),
        ({"source": "preset", "preset": "casino-holdem", "name": "holdem-here"}, "cannot replace"),
        ({"source": "preset", "preset": "network-24h", "name": "euro-stud"}, "plays in USD, not EUR"),
        ({"source": "example", "example": "cyberstud-literal", "name": "cyber-lit"}, "gives the player the edge"),
        ({"source": "text", "text": "name = [", "name": "broken-one"}, "text:"),
        ({"source": "designer", "target": "2", "adjust": "raise:royal-flush", "name": "too-rich"}, "designer:"),
        ({"source": "carrier-pigeon", "name": "odd-one"}, "source: one of"),
    ],
)
def test_a_bad_proposal_is_refused_and_changes_nothing(server: LiveServer, body: dict[str, str], words: str) -> None:
    office = Office(server.http, server.settings.database)
    before = query(server.settings.database, "SELECT COUNT(*) FROM paytable_changes")
    answer = office.post("/office/api/paytables", {"game": "cyberstud", "why": "a test"} | body)
    assert answer.status_code == 400 and words in answer.json()["error"]["message"], answer.text
    assert query(server.settings.database, "SELECT COUNT(*) FROM paytable_changes") == before
