"""Chromium (issue 45): the default server's one-seat games are played at tables of one's own.
Five players open cyberstud from the lobby at once, each sits at a table of their own, and all
are dealt; nobody waits."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from browser_helpers import account_of, browser_settings, seat_at
from live_server import LiveServer
from playwright.sync_api import Browser, Page, expect

from caribbean_fast.server.config import default_own, default_tables
from caribbean_fast.server.tables.own import kind_of

PLAYERS = 5


def _open_from_the_lobby(browser: Browser, server: LiveServer) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.http}/")
    page.get_by_role("button", name="Play as guest").click()
    row = page.locator('.table-row[data-kind="cyberstud"]')
    expect(row.locator(".table-facts")).to_contain_text("USD · ante $1.00 to $300.00")
    row.get_by_role("link", name="Sit at your own cyberstud table").click()
    expect(page.locator("#buy-in")).not_to_have_value("")
    return page


def test_five_players_open_cyberstud_at_once_and_all_are_dealt(tmp_path: Path, browser: Browser) -> None:
    config = replace(browser_settings(str(tmp_path / "casino.db")), tables=default_tables(), own=default_own())
    with LiveServer(config) as server:
        host = server.app.state.server
        pages = [_open_from_the_lobby(browser, server) for _ in range(PLAYERS)]
        for page in pages:  # every page waits at its own table's sit form: none is full
            expect(page.locator("#sit-full")).to_be_hidden()
            page.get_by_role("button", name="Sit down").click()
            expect(page.locator("#sit")).to_be_hidden()
        seats = [seat_at(server, account_of(page)) for page in pages]
        tables = {owner.spec.id for owner, _ in seats}
        assert len(tables) == PLAYERS and {kind_of(t) for t in tables} == {"cyberstud"}
        for page, (owner, seat) in zip(pages, seats, strict=True):
            page.locator(".chip-button").nth(1).click()
            page.locator("#spot-ante").click()
            expect(page.locator("#b-deal")).to_be_enabled()
            page.locator("#b-deal").click()
            expect(page.locator("#cards svg.card")).to_have_count(5)
            assert len(owner.t.view(seat).cards) == 5
        assert all(len(owner.t.view(seat).cards) == 5 for owner, seat in seats)
        assert not any(owner.waiting for owner in host.owners.values())
        for page in pages:
            page.context.close()
