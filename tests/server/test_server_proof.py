"""`proof`: a past round's fairness proof, served only to the account that played that round, equal
to the proof its seat's view gave once the round was over."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import Client, LiveServer, settings

from caribbean_fast.engine.fairness import verify


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path / "t.db"))) as server:
        yield server


def test_a_past_rounds_proof_goes_only_to_its_player(live: LiveServer) -> None:
    table = "cyberstud-1"
    alice = Client(live.ws, live.guest())
    alice.ok("sit", table=table, buy_in=50_000)
    proofs = {}
    for decision in ("raise", "fold", "raise"):
        alice.ok("ante", table=table, amount=500)
        alice.ok("deal", table=table)
        alice.ok(decision, table=table)
        last = alice.views(table)[-1]
        proofs[last["round"]] = last
    for number, view in proofs.items():
        made = alice.ok("proof", table=table, round=number)
        assert made["proof"] == view["proof"] and made["commitment"] == view["commitment"]
        assert (made["cards"], made["dealer"], made["board"]) == (view["cards"], view["dealer"], view["board"])
        assert verify(made["commitment"], made["proof"], made["cards"], made["dealer"], made["board"]) == []
    alice.ok("leave", table=table)
    first = min(proofs)
    assert alice.ok("proof", table=table, round=first)["round"] == first  # after leaving: still its round
    bob = Client(live.ws, live.guest())
    bob.ok("sit", table=table, buy_in=50_000)  # the same seat, after alice
    refused = bob.cmd("proof", table=table, round=first)
    assert refused["ok"] is False and refused["error"]["code"] == "illegal"
    anonymous = Client(live.ws)
    assert anonymous.cmd("proof", table=table, round=first)["error"]["code"] == "unauthorized"
    for c in (alice, bob, anonymous):
        c.close()


def test_history_reads_every_round_page_by_page(live: LiveServer) -> None:
    table = "cyberstud-1"
    alice = Client(live.ws, live.guest())
    alice.ok("sit", table=table, buy_in=50_000)
    for _ in range(5):
        alice.ok("ante", table=table, amount=100)
        alice.ok("deal", table=table)
        alice.ok("fold", table=table)
    numbers: list[int] = []
    before = None
    while True:
        page = alice.ok("history", table=table, last=2, **({"before": before} if before else {}))["rounds"]
        if not page:
            break
        numbers = [r[0]["round"] for r in page] + numbers
        before = page[0][0]["round"]
    assert numbers == [1, 2, 3, 4, 5]
    alice.close()
