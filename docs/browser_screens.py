"""Draws the screenshots of the table page (docs/browser-<game>-<size>.png at the decision and
docs/browser-<game>-<size>-settled.png at settlement): a live server with tables of each game,
Debian's Chromium headless through Playwright, one round of each game played as a guest and seen
at 1280x800, 1366x768 and 390x844 (the window a player has: nothing scrolled). Game 3 has every
seat taken (three more players on sockets), so its timer and the other seats show.

    python docs/browser_screens.py     # needs the test extra and /usr/bin/chromium
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "helpers"))

from browser_helpers import CHROMIUM, account_of, browser_settings, seat_at, sit
from live_server import Client, LiveServer

from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import PRESETS, load_variant

DOCS = Path(__file__).resolve().parent
SIZES: dict[str, ViewportSize] = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "390x844": {"width": 390, "height": 844},
}


def play_to_decision(page: Page, game: str) -> None:
    """The extra bets the game has, two chips on the ante (one at game 3: it deals once every
    seated player has bet), the deal, and game 4's exchange."""
    for extra in ("#b-progressive", "#b-side"):
        if page.locator(extra).is_visible():
            page.locator(extra).click()
            expect(page.locator(extra)).to_have_attribute("aria-pressed", "true")
    page.locator(".chip-button").nth(1).click()
    for _ in range(1 if game == "network-24h" else 2):
        page.locator("#spot-ante").click()
    page.locator("#b-deal").click()  # game 3: every other seat has bet, so it deals now
    expect(page.locator("#result")).to_have_text("Your decision", timeout=30_000)
    if page.locator("#b-exchange").is_visible():
        page.locator("#b-exchange").click()
        expect(page.locator("#b-exchange")).to_contain_text("(1/3)")


def fill_the_table(server: LiveServer, page: Page) -> tuple[str, list[Client]]:
    """Every other seat of the page's table taken by a player on a socket, each with an ante."""
    owner, _ = seat_at(server, account_of(page))
    others = []
    for _ in range(owner.spec.seats - 1):
        other = Client(f"{server.ws}/{owner.spec.id}", server.guest())
        other.ok("sit", table=owner.spec.id, buy_in=10_000)
        other.ok("ante", table=owner.spec.id, amount=owner.spec.variant.limits[owner.spec.limits].minimum)
        others.append(other)
    return owner.spec.id, others


def shoot(page: Page, game: str, moment: str) -> None:
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(900)  # past the chips' animation
        page.screenshot(path=DOCS / f"browser-{game}-{size}{moment}.png")
        print(f"docs/browser-{game}-{size}{moment}.png")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = browser_settings(f"{tmp}/screens.db")
        tables = []
        for name in PRESETS:  # the presets' own timers: time for three shots of the decision
            variant = load_variant(name)
            tables += [TableSpec(f"{name}-{k}", variant, variant.seats) for k in (1, 2)]
        with LiveServer(replace(config, tables=tables)) as server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            for game in PRESETS:
                page = browser.new_context(viewport=SIZES["1280x800"]).new_page()
                sit(page, server, game)
                table, others = fill_the_table(server, page)
                play_to_decision(page, game)
                shoot(page, game, "")
                page.set_viewport_size(SIZES["1280x800"])
                page.locator("#b-raise").click()
                for other in others:  # the other seats decide, so the round settles now
                    other.ok("fold", table=table)
                expect(page.locator("#fairness .fair-ok")).to_be_visible(timeout=30_000)
                shoot(page, game, "-settled")
            browser.close()


if __name__ == "__main__":
    main()
