"""The office with several processes on PostgreSQL, as the tables run: a session opened at one
process serves at the other (it lives in the database), a round one process played is found,
replayed and exported at the other, both processes append to one office log whose chain holds,
and a logout at one ends the session at both."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from live_server import Client, ServerProcess, split, two_tables
from office_helpers import add_operator, login

from caribbean_fast.server.office.auth import COOKIE

TABLE = "cyberstud-1"


def test_the_office_works_across_processes(postgres_database: str, tmp_path: Path) -> None:
    database, tables = postgres_database, str(two_tables(tmp_path))
    processes = [ServerProcess(database, tables), ServerProcess(database, tables)]
    try:
        where = split(processes, [TABLE, "network-24h-1"], database)
        playing = where[TABLE]
        other = processes[1 - processes.index(playing)]
        guest = httpx.post(f"{playing.http}/api/guest").json()["token"]
        c = Client(f"{playing.ws}/{TABLE}", guest)
        c.ok("sit", table=TABLE, buy_in=5_000)
        c.ok("ante", table=TABLE, amount=100)
        c.ok("deal", table=TABLE)
        c.ok("fold", table=TABLE)
        c.close()
        name, secret = add_operator(database, "operator")
        answer = login(playing.http, name, secret)
        assert answer.status_code == 200, answer.text
        cookies, headers = {COOKIE: answer.cookies[COOKIE]}, {"X-CSRF-Token": answer.json()["csrf"]}
        me = httpx.get(f"{other.http}/office/api/me", cookies=cookies).json()
        assert me["operator"] == name and TABLE in me["tables"]
        found = httpx.get(f"{other.http}/office/api/round/{TABLE}/1", cookies=cookies, timeout=30).json()
        assert found["replay"]["same"] is True and found["chain_holds"] is True
        figures = httpx.get(f"{other.http}/office/api/figures", cookies=cookies, timeout=300).json()
        line = next(t for t in figures["tables"] if t["table"] == TABLE)  # played at the other process
        assert line["rounds"] == 1 and line["wagered"] == 100 and line["win"] == 100  # the ante, folded
        report = httpx.get(f"{playing.http}/office/api/report", cookies=cookies, timeout=300).json()
        assert [(r["table"], r["rounds"], r["win"]) for r in report["lines"]] == [(TABLE, 1, 100)]
        gauge, deadline = 'cf_office_alarms{kind="table",level="alarm"} 0.0', time.monotonic() + 60
        while gauge not in httpx.get(f"{other.http}/metrics").text:  # each process's, read off PostgreSQL
            assert time.monotonic() < deadline, "the alarms' gauge was never published"
            time.sleep(0.5)
        for process in processes:  # each process appends to the one log
            url = f"{process.http}/office/api/round/{TABLE}/1/answer"
            assert (
                httpx.post(url, json={"why": f"at {process.port}"}, cookies=cookies, headers=headers).status_code == 200
            )
        log = httpx.get(f"{playing.http}/office/api/log", cookies=cookies).json()
        assert log["ok"] and [e["action"] for e in log["entries"]] == ["answer_dispute", "answer_dispute", "login"]
        assert httpx.post(f"{other.http}/office/api/logout", cookies=cookies, headers=headers).status_code == 200
        assert httpx.get(f"{playing.http}/office/api/me", cookies=cookies).status_code == 401
    finally:
        for process in processes:
            process.stop()
