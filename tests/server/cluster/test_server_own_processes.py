"""Players' own tables over two processes (PostgreSQL): each opens where the hash over the live
processes places its id, so they spread as the tables file's do; a socket that reaches the other
process is told where to go; a closed table's record stays, audited, and its history comes back
when its player sits there again (at the process the hash names)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from live_server import Client, ServerProcess, books, recorded

from caribbean_fast.server.cluster.placement import owner_of

pytestmark = [pytest.mark.slow, pytest.mark.postgres]
FILE = '[[table]]\nvariant = "network-24h"\nseats = 4\n\n[[table]]\nvariant = "cyberstud"\nown = true\n'


def _own(process: ServerProcess, token: str) -> str:
    answer = httpx.get(f"{process.http}/api/own/cyberstud", headers={"Authorization": f"Bearer {token}"})
    return str(answer.json()["table"])


def test_own_tables_spread_over_two_processes_by_the_leases(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgres"):
        pytest.skip("one process serves every table of a SQLite database")
    tables = tmp_path / "tables.toml"
    tables.write_text(FILE)
    a, b = processes = [ServerProcess(database_url, str(tables)) for _ in range(2)]
    try:
        for process in processes:  # the shared table, on one of them; then both are live
            process.wait(1 if owner_of("network-24h-1", [a.ws, b.ws]) == process.ws else 0)
        players: list[tuple[Client, str, ServerProcess]] = []
        while min(sum(1 for _, _, p in players if p is q) for q in processes) < 2 and len(players) < 40:
            token = str(httpx.post(f"{a.http}/api/guest").json()["token"])
            table = _own(a, token)
            assert _own(b, token) == table  # one key in the database: one id in every process
            at = a if owner_of(table, [a.ws, b.ws]) == a.ws else b
            c = Client(f"{at.ws}/{table}", token)
            assert c.ok("sit", table=table, buy_in=5_000) == {"seat": 0}
            c.ok("ante", table=table, amount=500)
            c.ok("deal", table=table)
            c.ok("fold", table=table)
            players.append((c, table, at))
        for process in processes:
            shared = 1 if owner_of("network-24h-1", [a.ws, b.ws]) == process.ws else 0
            mine = sum(1 for _, _, p in players if p is process)
            assert mine >= 2
            assert (process.health() or {})["tables"] == shared + mine
        c, table, at = players[0]
        other = b if at is a else a
        wrong = Client(f"{other.ws}/{table}", None)  # the process the hash does not name: told where
        assert wrong.welcome["type"] == "welcome"
        assert wrong.recv() == {"v": 1, "type": "moved", "table": table, "endpoint": f"{at.ws}/{table}"}
        rounds = c.ok("history", table=table)["rounds"]
        assert c.ok("leave", table=table) == {"returned": 4_500}
        before = (at.health() or {})["tables"]
        assert before == sum(1 for _, _, p in players if p is at) - 1 + (
            1 if owner_of("network-24h-1", [a.ws, b.ws]) == at.ws else 0
        )
        assert [e.kind for e in recorded(database_url, table)].count("settled") == 1  # its record stays
        reconciled, audited = books(database_url)
        assert reconciled and audited == len(players) + 1  # and the shared table's
        assert c.ok("sit", table=table, buy_in=2_000) == {"seat": 0}  # opened again, from its record
        assert c.ok("history", table=table)["rounds"] == rounds
        for player, _, _ in players:
            player.close()
    finally:
        for process in processes:
            process.stop()
