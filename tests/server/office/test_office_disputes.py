"""Disputes answered from the record, and the office's log, through the real server on SQLite and
PostgreSQL: a round found by id, table, account and time; replayed by the engine to its recorded
result; its rows' chain checkable by a regulator from the exported file alone; a round whose row
was changed behind the server's back fails both; the office's log names an entry changed after it
was written; players are found by the start of their names, a pattern's characters taken as text."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from live_server import Client, LiveServer, query, recorded, settings
from office_helpers import Office

from caribbean_fast.engine.events import chain_hash
from caribbean_fast.server.store.db import Database, connect
from caribbean_fast.server.store.record import pack, unpack

TABLE = "cyberstud-1"
ROUNDS = 4


def play(live: LiveServer) -> str:
    c = Client(live.ws, live.guest())
    c.ok("sit", table=TABLE, buy_in=10_000)
    for k in range(ROUNDS):
        c.ok("ante", table=TABLE, amount=100 * (k + 1))
        c.ok("deal", table=TABLE)
        c.ok("raise" if k % 2 else "fold", table=TABLE)
    c.close()
    ((account,),) = query(live.settings.database, "SELECT account FROM holds")
    return str(account)


@pytest.fixture
def served(database_url: str) -> Iterator[tuple[LiveServer, str]]:
    with LiveServer(settings(database_url)) as live:
        yield live, play(live)


def write(url: str, sql: str, params: tuple[object, ...]) -> None:
    db = Database(connect(url))
    try:
        db.run_now(lambda tx: tx.execute(sql, params))
    finally:
        db.dialect.close()


def test_a_round_is_found_replayed_and_exported(served: tuple[LiveServer, str]) -> None:
    live, account = served
    office = Office(live.http, live.settings.database)
    events = recorded(live.settings.database, TABLE)
    opened = {e.round: e.time for e in events if e.kind == "round_opened"}
    by_table = office.get("/office/api/rounds", table=TABLE).json()["rounds"]
    assert [r["round"] for r in by_table] == sorted(opened, reverse=True)
    assert [r["id"] for r in office.get("/office/api/rounds", id=f"{TABLE}:3").json()["rounds"]] == [f"{TABLE}:3"]
    by_account = office.get("/office/api/rounds", account=account).json()["rounds"]
    assert [r["round"] for r in by_account] == sorted(opened, reverse=True)
    assert {s["account"] for r in by_account for s in r["seats"]} == {account}
    at = office.get("/office/api/rounds", table=TABLE, time=opened[2].isoformat()).json()["rounds"]
    assert min(r["round"] for r in at) == 2  # the round in play then, and those after it
    nets = {e.round: e.public["net"]["total"] for e in events if e.kind == "settled"}
    assert {r["round"]: r["seats"][0]["net"] for r in by_table} == nets
    found = office.get(f"/office/api/round/{TABLE}/2").json()
    assert found["replay"] == {
        "same": True,
        "events": found["replay"]["events"],
        "rounds": 2,
        "settled": {"0": nets[2]},
    }
    assert found["chain_holds"] is True and found["proofs"]["0"]["round"] == 2
    file = office.post(f"/office/api/round/{TABLE}/2/export", {"why": "a regulator's request"}).json()
    previous = file["chain_before"]
    for row in file["rows"]:  # the regulator checks the chain from the file alone
        assert chain_hash(previous, row["text"]) == row["chain"]
        previous = row["chain"]
    assert file["for"] == "regulator" and 'name = "cyberstud"' in file["variant_text"]
    bad = office.get("/office/api/rounds", time="yesterday")
    assert bad.status_code == 400 and "time" in bad.json()["error"]["message"]
    assert office.get(f"/office/api/round/{TABLE}/99").status_code == 404


def test_a_changed_row_fails_the_chain_and_the_replay(served: tuple[LiveServer, str]) -> None:
    live, _ = served
    url = live.settings.database
    rows = query(url, "SELECT seq, body FROM table_log WHERE table_id = ? AND round = 2", (TABLE,))
    seq, text = next((seq, unpack(body)) for seq, body in rows if '"kind":"settled"' in unpack(body))
    changed = text.replace('"kind":"settled"', '"kind":"settled","note":"paid twice"', 1)
    write(url, "UPDATE table_log SET body = ? WHERE table_id = ? AND seq = ?", (pack(changed), TABLE, seq))
    office = Office(live.http, url)
    found = office.get(f"/office/api/round/{TABLE}/2").json()
    assert found["chain_holds"] is False
    assert found["replay"]["same"] is False and "hash" in found["replay"]["failure"]
    assert office.get(f"/office/api/round/{TABLE}/1").json()["replay"]["same"] is True  # before the change


def test_the_log_names_a_changed_entry(served: tuple[LiveServer, str]) -> None:
    live, _ = served
    url = live.settings.database
    office = Office(live.http, url)
    office.post(f"/office/api/round/{TABLE}/1/answer", {"why": "paid as the paytable says"})
    log = office.get("/office/api/log").json()
    assert log["ok"] and [e["action"] for e in log["entries"]] == ["answer_dispute", "login"]
    ((body,),) = query(url, "SELECT body FROM office_log WHERE seq = 1")
    write(url, "UPDATE office_log SET body = ? WHERE seq = 1", (body.replace("paid as", "not paid as"),))
    log = office.get("/office/api/log").json()
    assert log["ok"] is False and log["failure"].startswith("entry 1 ")
    write(url, "DELETE FROM office_log WHERE seq = 0", ())
    assert office.get("/office/api/log").json()["failure"].startswith("entry 1 ")


def test_players_are_found_and_read(served: tuple[LiveServer, str]) -> None:
    live, account = served
    office = Office(live.http, live.settings.database)
    found = office.get("/office/api/players", q=account[:7]).json()["accounts"]
    assert [a["name"] for a in found] == [account]
    assert office.get("/office/api/players", q="%").json()["accounts"] == []
    assert office.get("/office/api/players", q="guest_").json()["accounts"] == []
    player = office.get(f"/office/api/player/{account}").json()
    wallets = query(
        live.settings.database, "SELECT currency, amount FROM wallets WHERE account = ? ORDER BY currency", (account,)
    )
    assert [(w["currency"], w["amount"]) for w in player["wallets"]] == [(c, a) for c, a in wallets]
    assert [r["round"] for r in player["rounds"]] == list(range(ROUNDS, 0, -1))
    assert json.loads(json.dumps(player["seats"])) == [{"table": TABLE, "seat": 0}]
    assert office.get("/office/api/player/nobody-here").status_code == 404
