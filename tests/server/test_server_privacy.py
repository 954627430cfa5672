"""A seat's frames and game recall cover only the rounds played by the account that holds it:
an account that sits where another just left sees a fresh seat, never the other's cards, result
or rounds, and the one that left keeps its own rounds wherever it sits next."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from live_server import Client, LiveServer, settings

from caribbean_fast.cards import card_text

TABLE = "network-24h-1"


def _play(*clients: Client) -> None:
    """One round: every client antes, the first deals, every client folds."""
    for c in clients:
        c.ok("ante", table=TABLE, amount=100)
    clients[0].ok("deal", table=TABLE)
    for c in clients:
        c.ok("fold", table=TABLE)


def _rounds(c: Client) -> list[list[dict[str, Any]]]:
    rounds: list[list[dict[str, Any]]] = c.ok("history", table=TABLE)["rounds"]
    return rounds


def test_the_next_occupant_sees_a_fresh_seat_and_the_leaver_keeps_its_rounds(database_url: str) -> None:
    with LiveServer(settings(database_url)) as server:
        tokens = _first_session(server)
    with LiveServer(settings(database_url)) as server:  # the holds outlive a restart
        a, b = (Client(server.ws, token) for token in tokens)
        assert [r[0]["round"] for r in _rounds(a)] == [1, 2]
        assert [r[0]["round"] for r in _rounds(b)] == [2]
        a.close()
        b.close()


def _first_session(server: LiveServer) -> tuple[str, str]:
    """A plays round 1 at seat 0 and leaves; B sits there, A at seat 1, and both play round 2."""
    tokens = server.guest(), server.guest()
    a, b = (Client(server.ws, token) for token in tokens)
    a.ok("sit", table=TABLE, buy_in=5_000, seat=0)
    _play(a)
    hand = a.views(TABLE)[-1]["cards"]
    assert len(hand) == 5 and a.views(TABLE)[-1]["result"] is not None
    a.ok("leave", table=TABLE)
    before = len(b.raw)
    assert b.ok("sit", table=TABLE, buy_in=5_000, seat=0) == {"seat": 0}
    first = b.views(TABLE)[-1]
    assert (first["round"], first["phase"], first["player"]) == (1, "settled", b.welcome["account"])
    assert (first["cards"], first["hand"], first["result"], first["exchanges"]) == ([], "", None, 0)
    assert _rounds(b) == []
    frames = "".join(b.raw[before:])
    assert [card for card in hand if f'"{card}"' in frames] == []
    assert a.welcome["account"] not in frames
    spectator = Client(server.ws)
    spectator.ok("watch", table=TABLE)
    seen = spectator.recv()["view"]["others"]  # the view follows the answer
    shown = [(o["seat"], o["player"], o["dealt"], o["settled"]) for o in seen]
    assert shown == [(0, b.welcome["account"], False, False)]
    a.ok("sit", table=TABLE, buy_in=5_000, seat=1)
    mine = _rounds(a)
    assert [r[0]["round"] for r in mine] == [1]
    dealt = [s for s in mine[0] if s["kind"] == "dealt" and s["seat"] == 0]
    assert [card_text(c) for c in dealt[0]["cards"]] == hand  # recall keeps cards as numbers
    _play(b, a)
    assert [r[0]["round"] for r in _rounds(a)] == [1, 2]
    assert [r[0]["round"] for r in _rounds(b)] == [2]
    for c in (a, b, spectator):
        c.close()
    return tokens


def _seat_seen(c: Client, seat: int, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Another seat as the client's views show it, once `until` holds (frames read as they come)."""
    while True:
        views = c.views(TABLE)
        found: list[dict[str, Any]] = [o for o in views[-1]["others"] if o["seat"] == seat] if views else []
        if found and until(found[0]):
            return found[0]
        c.recv()


def test_game3_seats_and_watchers_learn_that_a_seat_decided_never_what(database_url: str) -> None:
    """Issue 42: another seat's raise or fold reaches nobody else (frames, history), during the
    round or after it; that it decided does."""
    with LiveServer(settings(database_url)) as server:
        a, b = (Client(server.ws, server.guest()) for _ in range(2))
        a.ok("sit", table=TABLE, buy_in=5_000, seat=0)
        b.ok("sit", table=TABLE, buy_in=5_000, seat=1)
        watcher = Client(server.ws)
        watcher.ok("watch", table=TABLE)
        for c in (a, b):
            c.ok("ante", table=TABLE, amount=100)
        a.ok("deal", table=TABLE)
        b_before, w_before = len(b.raw), len(watcher.raw)
        a.ok("raise", table=TABLE)
        seen = _seat_seen(b, 0, lambda o: o["decided"])
        assert seen["decided"] and seen["bets"]["raise"] == 0 and "decision" not in seen
        b.ok("fold", table=TABLE)
        frames = "".join(b.raw[b_before:]) + "".join(watcher.raw[w_before:])
        assert '"decision":"raise"' not in frames.replace(" ", "") and '"raise":200' not in frames.replace(" ", "")
        theirs = [s for r in _rounds(b) for s in r if s.get("seat") == 0]
        assert "decided" in {s["kind"] for s in theirs} and not {s["kind"] for s in theirs} & {"raise", "fold"}
        assert not any(set(s) & {"decision", "auto", "outcome", "net", "cards"} for s in theirs)
        for c in (a, b, watcher):
            c.close()
