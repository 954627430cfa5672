"""The terminal client at a table whose paytable the office changes: told by the server's
`paytable` frame, it reads the table's rules again, as the page does, and plays and shows the new
variant (a name no preset has: loaded from the rules' `variant_toml`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from live_server import LiveServer, settings
from office_helpers import Office

from caribbean_fast.hands import HandClass
from caribbean_fast.play.remote import RemoteSession, log_in
from caribbean_fast.server.tables import paytables
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import Variant, load_variant
from caribbean_fast.variants.toml_io import to_toml

pytestmark = pytest.mark.slow

TABLE = "cyberstud-1"


def richer() -> Variant:
    """Cyberstud with two pair paying 3 to 1 on the raise (the house keeps its edge)."""
    base = load_variant("cyberstud")
    pays = dict(base.raise_paytable) | {HandClass.TWO_PAIR: base.raise_paytable[HandClass.TWO_PAIR] + 1}
    return replace(base, name="cyberstud-rich", title="Cyberstud, two pair 3 to 1", raise_paytable=pays)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(paytables, "CHANGES_EVERY", 0.2)
    config = replace(settings(str(tmp_path / "tables.db")), tables=[TableSpec(TABLE, load_variant("cyberstud"), 1)])
    with LiveServer(config) as live:
        yield live


def approve(server: LiveServer) -> None:
    url = server.settings.database
    first, second = Office(server.http, url), Office(server.http, url)
    body = {"game": "cyberstud", "source": "text", "text": to_toml(richer()), "name": "cyberstud-rich"}
    made = first.post("/office/api/paytables", body | {"why": "two pair pays more"})
    assert made.status_code == 201, made.text
    approved = second.post(f"/office/api/paytables/{made.json()['id']}/approve", {"why": "par sheet read"})
    assert approved.status_code == 200, approved.text


def test_the_terminal_reads_the_rules_again_when_the_paytable_changes(server: LiveServer) -> None:
    session = RemoteSession(server.http, log_in(server.http, None, None), "cyberstud", 20_000)
    assert (session.table_id, session.table.variant) == (TABLE, load_variant("cyberstud"))
    approve(server)  # between rounds: the table takes it at once
    deadline = time.monotonic() + 20
    while session.table.variant.name != "cyberstud-rich" and time.monotonic() < deadline:
        time.sleep(0.1)
        session.tick()
    assert session.table.variant == richer()
    assert session.reminder() == ("Paytable changed", f"This table now plays {richer().title} from this round on.")
    session.enter()  # a round under the new variant, its result in the new variant's words
    session.enter()
    owner = server.app.state.server.owners[TABLE]
    assert owner.t.variant == richer() and owner.t.round == 1
    assert session.result_text() != "decided; waiting for the other seats"
    session.link.close()
