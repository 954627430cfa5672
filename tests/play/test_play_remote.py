"""`caribbean-fast play NAME --connect URL`: the terminal table's keys played at a live server's
table, the screen drawn from the server's views, and the money moved on the server's books."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from browser_helpers import PortServer
from live_server import LiveServer, settings, small_tables

from caribbean_fast.analysis import analyze
from caribbean_fast.cli import main
from caribbean_fast.errors import IllegalActionError, ServerError
from caribbean_fast.play.app import PlayApp
from caribbean_fast.play.remote import RemoteSession, log_in
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.settlement import Decision
from caribbean_fast.variants import load_variant
from caribbean_fast.words.history import outcome_words

Script = Callable[[PlayApp, object], Awaitable[None]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    game4 = TableSpec("caribbean-poker-1", load_variant("caribbean-poker"), 1)
    choose = TableSpec("caribbean-poker-choose-1", load_variant("caribbean-poker-choose"), 1)
    stud2 = TableSpec("cyberstud-2", load_variant("cyberstud"), 1)
    stud3 = TableSpec("cyberstud-3", load_variant("cyberstud"), 1)
    tables = [*small_tables(), game4, choose, stud2, stud3]
    config = replace(settings(str(tmp_path_factory.mktemp("remote") / "tables.db")), tables=tables)
    config = replace(config, reality_check_least=1)  # a reality check within seconds
    with LiveServer(config) as live:
        yield live


def play(session: RemoteSession, script: Script) -> str:
    app = PlayApp(session, tick_seconds=None)

    async def drive() -> None:
        async with app.run_test(size=(130, 45)) as pilot:
            await script(app, pilot)

    asyncio.run(drive())
    session.link.close()
    return app.return_value or ""


def test_a_round_of_game_2_by_the_seeds_keys_at_a_server(server: LiveServer) -> None:
    session = RemoteSession(server.http, log_in(server.http, None, None), "cyberstud", 20_000)
    owner = server.app.state.server.owners[session.table_id]
    assert owner.t.balance(session.seat) == 20_000

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("minus")  # type: ignore[attr-defined]
        assert "Not allowed: there is no dealt round to decide" in app.screen_text()
        await pilot.press("shift+up", "down", "enter")  # type: ignore[attr-defined]
        assert "stake 10.00 USD" in app.screen_text()
        cards = owner.t.view(session.seat).cards
        assert "[" + "] [".join(cards) + "]" in app.screen_text()
        await pilot.press("enter")  # type: ignore[attr-defined]
        result = owner.t.state.seats[session.seat].results
        assert result is not None
        net = int(result["net"]["total"])
        currency = owner.spec.variant.currency
        assert outcome_words(result, currency) in app.screen_text()
        assert owner.t.balance(session.seat) == 20_000 + net
        assert f"balance {currency.format(20_000 + net)}" in app.screen_text()

    play(session, script)


def test_game_4_exchanges_the_whole_hand_at_a_server(server: LiveServer) -> None:
    session = RemoteSession(server.http, log_in(server.http, None, None), "caribbean-poker", 20_000)
    owner = server.app.state.server.owners[session.table_id]

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        before = owner.t.view(session.seat).cards
        with pytest.raises(IllegalActionError, match="caribbean-poker has no exchanges of chosen cards"):
            session.select(0)
        await pilot.press("1")  # type: ignore[attr-defined]
        assert "The key '1' does nothing here" in app.screen_text() and session.selected == set()
        await pilot.press("x")  # type: ignore[attr-defined]
        after = owner.t.view(session.seat).cards
        assert set(after).isdisjoint(before) and "exchanged: now " + " ".join(after) in app.screen_text()
        assert owner.t.view(session.seat).exchanges == 1
        await pilot.press("minus")  # type: ignore[attr-defined]
        result = owner.t.state.seats[session.seat].results
        assert result is not None and int(result["net"]["total"]) == -200  # the ante and the fee

    play(session, script)


def test_the_choose_example_exchanges_the_picked_cards_at_a_server(server: LiveServer) -> None:
    session = RemoteSession(server.http, log_in(server.http, None, None), "caribbean-poker-choose", 20_000)
    owner = server.app.state.server.owners[session.table_id]

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter", "x")  # type: ignore[attr-defined]
        assert "pick the cards to exchange with 1-5 first" in app.screen_text()
        before = owner.t.view(session.seat).cards
        await pilot.press("1", "3")  # type: ignore[attr-defined]
        assert f"to exchange: {before[0]} {before[2]}" in app.screen_text()
        await pilot.press("x")  # type: ignore[attr-defined]
        after = owner.t.view(session.seat).cards
        kept = [k for k in range(5) if after[k] == before[k]]
        assert kept == [1, 3, 4] and owner.t.view(session.seat).exchanges == 1

    play(session, script)


def test_the_command_line_refuses_what_cannot_work(server: LiveServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "cyberstud", "--connect", "ftp://nowhere"]) != 0
    assert "--connect takes the server's http:// or https:// address" in capsys.readouterr().err
    assert main(["play", "cyberstud", "--connect", server.http, "--seed", "3"]) != 0
    assert "--seed is for a table here, not with --connect" in capsys.readouterr().err
    with pytest.raises(ServerError, match="no table of atlantic-city"):
        RemoteSession(server.http, log_in(server.http, None, None), "atlantic-city", 10_000)
    with pytest.raises(ServerError, match="cannot reach"):
        log_in("http://127.0.0.1:9", None, None)


def test_the_terminal_client_returns_to_its_seat_after_the_server_restarts(tmp_path: Path) -> None:
    config = replace(settings(str(tmp_path / "restart.db")), tables=small_tables())
    with PortServer(config, 0) as first:
        session = RemoteSession(first.http, log_in(first.http, None, None), "cyberstud", 20_000)
        assert session.enter() == "dealt: raise (Enter), fold (-)"
        cards, round_number = session.table.view(session.seat).cards, session.table.view(session.seat).round
    said = [session.tick(), session.tick()]
    assert said[-1] is not None and said[-1].startswith("cannot connect to ws://127.0.0.1:")
    with PortServer(config, first.port) as second:
        assert session.tick() == "connected again: back at the seat"
        view = session.table.view(session.seat)
        assert (view.cards, view.round) == (cards, round_number)
        owner = second.app.state.server.owners[session.table_id]
        if "raise" in view.actions:
            session.enter()
        result = owner.t.state.seats[session.seat].results
        assert result is not None
        assert session.table.view(session.seat).balance == owner.t.balance(session.seat)
        assert owner.t.balance(session.seat) == 20_000 + int(result["net"]["total"])
        session.link.close()


def test_the_trainer_at_a_server_gives_the_par_sheets_best_decision(server: LiveServer) -> None:
    session = RemoteSession(server.http, log_in(server.http, None, None), "cyberstud", 20_000, trainer=True)
    strategy = analyze(session.table.variant).table
    session.enter()
    deadline = time.monotonic() + 120
    while (advice := session.advice()) is None:  # the server builds the exact tables once, meanwhile
        assert time.monotonic() < deadline, "the server's advice never became ready"
        time.sleep(0.5)
    view = session.table.view(session.seat)
    best = strategy.decide(list(view.cards), list(view.dealer[-1:]))
    assert advice.best == str(best)
    wrong = Decision.FOLD if best is Decision.RAISE else Decision.RAISE
    session.decide(wrong)
    report = session.report()
    assert f"Trainer: 1 mistakes in 1 decisions, costing {float(advice.cost(wrong)):.2f} antes" in report
    assert advice.cost(wrong) > 0
    session.link.close()


def test_the_terminal_client_shows_the_servers_reality_check(server: LiveServer) -> None:
    session = RemoteSession(server.http, log_in(server.http, None, None), "cyberstud", 20_000)
    owner = server.app.state.server.owners[session.table_id]
    session.link.command("reality_check", every=1)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter", "minus")  # type: ignore[attr-defined]  # a round, folded: the ante lost
        result = owner.t.state.seats[session.seat].results
        assert result is not None and result["outcome"]["decision"] == "fold"
        said = f"1 round, net {owner.spec.variant.currency.format(int(result['net']['total']))}."
        deadline = time.monotonic() + 10  # every second of the session, the server sends one
        while said not in app.screen_text() and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            app.tick()
        assert "Reality check" in app.screen_text() and said in app.screen_text()
        await pilot.press("t")  # type: ignore[attr-defined]  # any key puts it away
        assert "Reality check" not in app.screen_text()

    play(session, script)
