"""Draws the screenshots of the table page (docs/browser-<game>-<size>.png): a live server with
one table of each game, Debian's Chromium headless through Playwright, one round of each game
played as a guest at desktop size (1280x900) and seen at phone size (390x844). Game 3 is shown
mid-decision with a second player seated, so its timer and the other seat show.

    python docs/browser_screens.py     # needs the test extra and /usr/bin/chromium
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser_helpers import CHROMIUM, browser_settings, sit
from live_server import LiveServer

from caribbean_fast.variants import PRESETS

DOCS = Path(__file__).resolve().parent
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


def play_to(page: Page, game: str, decide: bool) -> None:
    """Two chips on the ante, the extra bets the game has, the deal, and (if `decide`) the raise."""
    page.locator(".chip-button").nth(1).click()
    page.locator("#spot-ante").click()
    page.locator("#spot-ante").click()
    for extra in ("#b-progressive", "#b-side"):
        if page.locator(extra).is_visible():
            page.locator(extra).click()
    page.locator("#b-deal").click()
    expect(page.locator("#result")).to_have_text("Your decision")
    if page.locator("#b-exchange").is_visible():
        page.locator("#b-exchange").click()
        expect(page.locator("#b-exchange")).to_contain_text("(1/3)")
    if decide:
        page.locator("#b-raise").click()
        expect(page.locator("#fairness .fair-ok")).to_be_visible()


def shoot(page: Page, game: str) -> None:
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(300)
    page.screenshot(path=DOCS / f"browser-{game}-desktop.png")
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.screenshot(path=DOCS / f"browser-{game}-phone.png")


def main() -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(browser_settings(f"{tmp}/screens.db")) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for game in PRESETS:
            page = browser.new_context(viewport=DESKTOP).new_page()
            sit(page, server, game)
            if game == "network-24h":
                other = browser.new_context(viewport=DESKTOP).new_page()
                sit(other, server, game)
                other.locator("#spot-ante").click()
            play_to(page, game, decide=game != "network-24h")
            shoot(page, game)
            print(f"docs/browser-{game}-desktop.png, docs/browser-{game}-phone.png")
        browser.close()


if __name__ == "__main__":
    main()
