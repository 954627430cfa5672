"""`caribbean-fast play NAME --connect URL` at a server whose one-seat games are played at tables
of one's own: the terminal client asks for the player's own table of the game (and limits), sits
there with the buy-in its wallet in the table's currency allows, and finds it again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import LiveServer, settings

from caribbean_fast.errors import ServerError
from caribbean_fast.play.remote import RemoteSession, log_in
from caribbean_fast.server.config import default_own
from caribbean_fast.server.tables.own import own_table


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path / "t.db"), own=default_own())) as server:
        yield server


def test_each_terminal_player_sits_at_a_table_of_their_own(live: LiveServer) -> None:
    host = live.app.state.server
    tokens = [log_in(live.http, None, None) for _ in range(2)]
    sessions = [RemoteSession(live.http, token, "casino-holdem", None) for token in tokens]
    ids = [s.table_id for s in sessions]
    assert len(set(ids)) == 2 and all(t.startswith("casino-holdem-own-") for t in ids)
    for session in sessions:
        owner = host.owners[session.table_id]
        account = owner.players[session.seat]
        assert session.table_id == own_table("casino-holdem", account, host.own_key)
        wanted = httpx.get(f"{live.http}/api/rules/{session.table_id}").json()["stakes"]["buy_in"]
        assert owner.t.balance(session.seat) == min(wanted, live.settings.demo_balance)  # from the EUR wallet
        session.link.close()
    again = RemoteSession(live.http, tokens[0], "casino-holdem", None)  # back at the seat it holds
    assert (again.table_id, again.seat) == (ids[0], 0)
    again.link.close()
    with pytest.raises(ServerError, match="no table of caribbean-poker"):
        RemoteSession(live.http, tokens[1], "caribbean-poker", None, limits=1)  # its one kind has limits 0
