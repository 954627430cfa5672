"""The table a player comes back to (issue 47), in Chromium: reminders that hold the table, keys
that press what has focus, every game within the window, lines that are true, the rules one tap
away, a dealt feel and a watched table. Each test plays as a player does and asserts on what the
page shows against the server's own books."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from browser_helpers import account_of, browser_settings, seat_at, sit
from live_server import LiveServer
from playwright.sync_api import Browser, Page, ViewportSize, expect

from caribbean_fast.server.tables.owner import Owner
from caribbean_fast.variants import PRESETS

DESKTOP: ViewportSize = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    config = browser_settings(str(tmp_path_factory.mktemp("table") / "tables.db"))
    with LiveServer(replace(config, reality_check_least=2)) as live:
        yield live


def new_page(browser: Browser, viewport: ViewportSize = DESKTOP, **options: Any) -> Page:
    page = browser.new_context(viewport=viewport, **options).new_page()
    page.set_default_timeout(15_000)
    return page


def _leave(page: Page) -> None:
    """Frees the seat (the module's server has three tables of each game)."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.locator("summary", has_text="Seat").click()
    page.get_by_role("button", name="Leave the table").click()
    expect(page.locator("#message")).to_contain_text("You left the table")
    page.context.close()


def _untouched(owner: Owner, seat: int) -> None:
    """Nothing bet, dealt or decided at the seat."""
    s = owner.t.state.seats[seat]
    assert s.bets.ante == 0 and not owner.t.view(seat).cards, (s.bets, owner.t.view(seat))


# ---- 1. reminders are modal ---------------------------------------------------------------------


def test_a_reminder_holds_the_table_and_closes_only_through_its_buttons(server: LiveServer, browser: Browser) -> None:
    """While a reminder is open no key and no click deals or decides; Enter and Space press its
    focused button (closing it), Escape does nothing; the server's reality check is the same."""
    page = new_page(browser)
    sit(page, server, "atlantic-city")
    owner, seat = seat_at(server, account_of(page))
    asked = page.get_by_role("dialog", name="Your session")
    for close in ("Enter", "Space"):
        page.locator("#session-slot .reminder-button").click()
        expect(asked).to_contain_text("You have played for 0 minutes: 0 rounds")
        expect(asked.get_by_role("button", name="Keep playing")).to_be_focused()
        for key in ("0", "ArrowUp", "-", "p", "Escape"):
            page.keyboard.press(key)
        expect(asked).to_be_visible()  # Escape does not close it
        expect(page.locator("#stake")).to_have_text("$5.00")
        box = page.locator("#b-deal").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # the table is inert
        page.keyboard.press(close)  # presses "Keep playing": closes it, deals nothing
        expect(asked).to_have_count(0)
        _untouched(owner, seat)
    # the server's own reality check (every 2 s, set on another socket of the account)
    page.evaluate(
        """async () => {
      const { Link } = await import('/static/js/net.js');
      const link = new Link({ onFrame: () => {}, onStatus: () => {} });
      link.connect();
      await link.send('reality_check', { every: 2 });
    }"""
    )
    check = page.get_by_role("dialog", name="Reality check")
    expect(check).to_contain_text("You have played for", timeout=10_000)
    page.keyboard.press("Enter")
    expect(check).to_have_count(0)
    _untouched(owner, seat)
    page.evaluate(
        """async () => {
      const { Link } = await import('/static/js/net.js');
      const link = new Link({ onFrame: () => {}, onStatus: () => {} });
      link.connect();
      await link.send('reality_check', { every: 3600 });
    }"""
    )
    _leave(page)


# ---- 2. keys --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", PRESETS)
def test_enter_and_space_press_the_focused_button_and_enter_alone_is_the_games_key(
    server: LiveServer, browser: Browser, game: str
) -> None:
    """By keyboard, every game: Enter with nothing focused deals; Tab to Fold and Enter folds (the
    focused button, not the seed's raise); Enter deals again; Space on Raise raises. Game 4: Tab to
    Exchange and Enter exchanges once and decides nothing; Enter with nothing focused then calls."""
    page = new_page(browser)
    sit(page, server, game)
    owner, seat = seat_at(server, account_of(page))
    variant = owner.spec.variant
    page.keyboard.press("Enter")  # nothing focused: the game's key deals
    expect(page.locator("#result")).to_have_text("Your decision")
    page.locator("#b-fold").focus()
    page.keyboard.press("Enter")  # the focused button
    expect(page.locator("#result")).to_have_text(re.compile("^(Lost|Push|Even)"))
    assert owner.t.state.seats[seat].results["outcome"]["decision"] == "fold"  # type: ignore[index]
    expect(page.locator("#b-fold")).not_to_be_focused()  # disabled, so it keeps no focus
    page.keyboard.press("Enter")  # the game's key again: deals
    expect(page.locator("#result")).to_have_text("Your decision")
    if variant.exchanges:
        page.locator("#b-exchange").focus()
        page.keyboard.press("Enter")
        expect(page.locator("#b-exchange")).to_have_text("Exchange (1/3)")
        expect(page.locator("#result")).to_have_text("Your decision")  # nothing decided
        assert owner.t.view(seat).exchanges == 1
        page.evaluate("document.activeElement.blur()")
        page.keyboard.press("Enter")  # the game's key: calls, never a second exchange
        expect(page.locator("#result")).not_to_have_text("Your decision")
        settled = owner.t.state.seats[seat].results
        assert settled is not None and settled["outcome"]["exchanges"] == 1
        assert settled["outcome"]["decision"] == "raise"
    else:
        page.locator("#b-raise").focus()
        page.keyboard.press("Space")
        expect(page.locator("#result")).not_to_have_text("Your decision")
        assert owner.t.state.seats[seat].results["outcome"]["decision"] == "raise"  # type: ignore[index]
    _leave(page)
