"""The pages around the table in a real browser (Playwright, Debian's Chromium): each game's
rules page, the lobby's choice of tables with its waiting list, the personal limit, the session
reminder, the progressive's history and the account's full history. Each asserts on what the page
shows against the server's own data (the rules document, the engine's tables, the record)."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import account_of, browser_settings, house_deals, money, seat_at, sit
from live_server import LiveServer
from playwright.sync_api import Browser, Page, ViewportSize, expect

from caribbean_fast.cards import card_text
from caribbean_fast.engine import deck_from_seed
from caribbean_fast.hands import HandClass, evaluate
from caribbean_fast.server.rules import rules_json
from caribbean_fast.server.tables.owner import TableSpec
from caribbean_fast.variants import PRESETS, load_variant

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
SCREENS = os.environ.get("CF_SCREENS")  # a folder: the tests save their pages' screenshots there


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    config = browser_settings(str(tmp_path_factory.mktemp("pages") / "tables.db"))
    with LiveServer(replace(config, reality_check_least=2)) as live:  # a reality check every few seconds
        yield live


def new_page(browser: Browser, viewport: ViewportSize = DESKTOP, **options: Any) -> Page:
    page = browser.new_context(viewport=viewport, **options).new_page()
    page.set_default_timeout(15_000)
    return page


def shot(page: Page, name: str, full_page: bool = True) -> None:
    if SCREENS:
        page.screenshot(path=str(Path(SCREENS) / f"page-{name}.png"), full_page=full_page)


@pytest.mark.parametrize("game", PRESETS)
def test_each_games_rules_page_is_the_variants(server: LiveServer, browser: Browser, game: str) -> None:
    page = new_page(browser)
    page.goto(f"{server.http}/rules/{game}")
    expect(page).to_have_url(f"{server.http}/rules/{game}-1")
    spec = server.app.state.server.owners[f"{game}-1"].spec  # the variant the table serves
    rules = rules_json(spec.id, spec.variant, spec.limits)
    expect(page.locator("#title")).to_have_text(f"Rules: {rules['title']}")
    for words in rules["limit_words"]:
        expect(page.get_by_text(words, exact=True)).to_be_visible()
    steps = page.locator("#rules ol.steps li")
    expect(steps).to_have_count(len(rules["how_to_play"]))
    for k, step in enumerate(rules["how_to_play"]):
        expect(steps.nth(k)).to_have_text(step)
    expect(page.get_by_text(f"The dealer qualifies with {rules['qualifier']}.", exact=True)).to_be_visible()
    paytable = page.locator("section", has=page.get_by_role("heading", name="Paytable")).locator("tbody tr")
    expect(paytable).to_have_count(len(rules["paytable"]))
    first = [rules["paytable"][0][c["key"]] for c in rules["paytable_columns"]]
    expect(paytable.first).to_have_text("".join(first))
    code = rules["currency"]["code"]
    least = re.escape(money(rules["limits"]["minimum"], code))
    expect(page.get_by_text(re.compile(f"Ante at this table: {least}"))).to_be_visible()
    for name, part in (("Exchanges", rules["exchanges"]), ("Progressive", rules["progressive"])):
        expect(page.get_by_role("heading", name=name, exact=True)).to_have_count(1 if part else 0)
    for bet in rules["side_bets"]:
        expect(page.get_by_role("heading", name=bet["title"], exact=True)).to_be_visible()
    if rules["timing"]["idle_seconds"]:
        expect(page.get_by_text(re.compile("An idle session ends after"))).to_be_visible()
    keys = page.locator("section", has=page.get_by_role("heading", name="Keys")).locator("tbody tr")
    expect(keys).to_have_count(len(rules["keys"]))
    expect(page.get_by_role("link", name=f"Play {rules['title']}")).to_have_attribute("href", f"/play/{game}")
    shot(page, f"rules-{game}-desktop")
    page.set_viewport_size(PHONE)
    shot(page, f"rules-{game}-phone")
    page.context.close()


def test_a_rules_page_of_no_table_is_not_found(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser)
    response = page.goto(f"{server.http}/rules/no-such-game")
    assert response is not None and response.status == 404
    page.context.close()


def guest_page(browser: Browser, server: LiveServer, path: str = "/", viewport: ViewportSize = DESKTOP) -> Page:
    page = new_page(browser, viewport)
    page.goto(f"{server.http}{path}")
    page.get_by_role("button", name="Play as guest").click()
    return page


def test_the_lobby_lists_every_table_and_a_player_watches_sits_or_waits(server: LiveServer, browser: Browser) -> None:
    owners = server.app.state.server.owners
    table = "cyberstud-2"  # one seat
    owner = owners[table]
    page = guest_page(browser, server)
    expect(page.locator(".table-row")).to_have_count(len(owners))
    row = page.locator(f'.table-row[data-table="{table}"]')
    expect(row.locator(".table-facts")).to_contain_text("1 of 1 seat free")
    # watch: the table's public view in the row
    row.get_by_role("button", name=f"Watch {table}").click()
    expect(row.locator(".table-state")).to_contain_text("Watching: round")
    # another player takes the only seat; the lobby offers the waiting list
    other = guest_page(browser, server)
    other.locator(f'.table-row[data-table="{table}"]').get_by_role("button", name=f"Sit at {table}").click()
    expect(other).to_have_url(f"{server.http}/play/cyberstud")
    expect(other.locator("#balance")).not_to_have_text("\u2013")
    sitter = account_of(other)
    assert owner.players == {0: sitter}
    expect(row.locator(".table-state")).to_contain_text(sitter)
    expect(row.get_by_role("button", name=f"Wait for a seat at {table}")).to_be_visible(timeout=10_000)
    row.get_by_role("button", name=f"Wait for a seat at {table}").click()
    expect(page.locator("#lobby-message")).to_contain_text(f"number 1 on the waiting list of {table}")
    me = account_of(page)
    assert list(owner.waiting) == [me]
    shot(page, "lobby-desktop", full_page=False)
    # the seat frees: the engine seats the waiting player, the page goes to the table
    other.get_by_text("Seat", exact=True).click()
    other.locator("#b-leave").click()
    expect(page.locator("#lobby-message")).to_contain_text(f"A seat freed at {table}")
    expect(page).to_have_url(f"{server.http}/play/cyberstud")
    assert owner.seat_of(me) == 0
    expect(page.locator("#balance")).not_to_have_text("\u2013")
    for p in (page, other):
        p.context.close()


def test_the_lobby_at_phone_size(server: LiveServer, browser: Browser) -> None:
    page = guest_page(browser, server, viewport=PHONE)
    expect(page.locator(".table-row")).to_have_count(len(server.app.state.server.owners))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "lobby-phone", full_page=False)
    page.context.close()


def test_the_personal_limit_screen_sets_and_shows_it(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser)
    sit(page, server, "atlantic-city")
    me = account_of(page)
    owner, seat = seat_at(server, me)
    page.goto(f"{server.http}/limit")
    expect(page.get_by_test_id("limit-now")).to_have_text("No limit is set.")
    expect(page.locator("#limit-when")).to_have_text("You may change it now.")
    expect(page.locator("#limit-table option")).to_have_text([f"{owner.spec.id}, seat {seat + 1}"])
    page.locator("#limit-amount").fill("12.50")
    page.get_by_role("button", name="Set the limit").click()
    expect(page.locator("#limit-message")).to_have_text("Your limit is now 12.50.")
    expect(page.get_by_test_id("limit-now")).to_have_text("Your ante is limited to 12.50 (in each table's currency).")
    expect(page.locator("#limit-when")).to_contain_text("You may lower it now; raise or remove it from")
    assert owner.t.view(seat).limit == 1250
    assert server.app.state.server.book.limit(me)[0] == 1250
    expect(page.get_by_role("button", name="Remove the limit")).to_be_disabled()
    expect(page.get_by_role("button", name="Set the limit")).to_be_enabled()  # lowering holds at once
    page.locator("#limit-amount").fill("10")
    page.get_by_role("button", name="Set the limit").click()
    expect(page.locator("#limit-message")).to_have_text("Your limit is now 10.00.")
    assert owner.t.view(seat).limit == 1000
    page.locator("#limit-amount").fill("20")
    page.get_by_role("button", name="Set the limit").click()  # raising waits for the week
    expect(page.locator("#limit-message")).to_contain_text("raised or removed at most once a week")
    assert owner.t.view(seat).limit == 1000
    shot(page, "limit-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "limit-phone")
    page.context.close()


def test_the_limit_screen_without_a_seat_says_where_to_change_it(server: LiveServer, browser: Browser) -> None:
    page = guest_page(browser, server, "/limit")
    expect(page.get_by_test_id("limit-now")).to_have_text("No limit is set.")
    expect(page.locator("#limit-message")).to_contain_text("Take a seat at any table to change your limit")
    expect(page.get_by_role("button", name="Set the limit")).to_be_disabled()
    page.context.close()


LINK = """async () => {
  const { Link } = await import('/static/js/net.js');
  const link = new Link({ onFrame: () => {}, onStatus: () => {} });
  link.connect();
  window.testLink = link;
}"""


def _play_a_round(page: Page, table: str, ante: int) -> None:
    """A round played on a socket of the page's account other than the page's own (the lobby's).
    The deal's answer comes once the seeds are sealed; the cards, once the seat's page has revealed
    its seed (issue 46): the call waits for the page to show the decision."""
    page.evaluate(LINK)
    for kind, fields in (("ante", {"amount": ante}), ("deal", {}), ("call", {})):
        if kind == "call":
            expect(page.locator("#result")).to_have_text("Your decision")
        answer = page.evaluate("([k, f]) => window.testLink.send(k, f)", [kind, {"table": table, **fields}])
        assert answer["ok"], answer["error"]


def test_the_page_shows_the_servers_reality_check_at_the_interval_chosen_on_the_account_page(
    server: LiveServer, browser: Browser
) -> None:
    page = new_page(browser)
    sit(page, server, "casino-holdem")
    owner, seat = seat_at(server, account_of(page))
    settings = page.context.new_page()  # the account page, in another tab
    settings.goto(f"{server.http}/limit")
    expect(settings.get_by_test_id("every-now")).to_have_text(
        "A reality check every 60 minutes of your session (the default)."
    )
    settings.locator("#every-minutes").fill("0.01")  # under the server's shortest: its refusal, in its words
    settings.get_by_role("button", name="Set the interval").click()
    least = server.settings.reality_check_least
    expect(settings.locator("#every-message")).to_contain_text(
        f"every: must be {least} to 86400 seconds on this server, not 1"
    )
    settings.locator("#every-minutes").fill("0.1")
    settings.get_by_role("button", name="Set the interval").click()
    expect(settings.get_by_test_id("every-now")).to_have_text("A reality check every 6 seconds of your session.")
    settings.close()
    _play_a_round(page, owner.spec.id, 500)
    results = owner.t.state.seats[seat].results
    assert results is not None
    net = int(results["net"]["total"])
    code = owner.spec.variant.currency.code
    said = f"won {money(net, code)}" if net > 0 else f"lost {money(-net, code)}" if net < 0 else "neither won nor lost"
    words = f"You have played for 0 minutes: 1 round, and {said}."
    page.locator("#session-slot .reminder-button").click()  # asked of the server
    asked = page.get_by_role("dialog", name="Your session")
    expect(asked).to_contain_text(words)
    shot(page, "reminder-desktop")
    asked.get_by_role("button", name="Keep playing").click()
    expect(asked).to_have_count(0)
    check = page.get_by_role("dialog", name="Reality check")  # sent by the server, every 6 s of the session
    expect(check).to_contain_text(words, timeout=10_000)
    page.context.close()


def test_the_page_shows_the_servers_idle_notice(tmp_path: Path, browser: Browser) -> None:
    game5 = load_variant("casino-holdem")
    quick = replace(game5, timing=replace(game5.timing, idle_seconds=4))  # the preset's 900 s, shortened
    config = replace(browser_settings(str(tmp_path / "idle.db")), tables=[TableSpec("casino-holdem-1", quick, 1)])
    with LiveServer(config) as quiet:
        page = new_page(browser)
        sit(page, quiet, "casino-holdem")
        notice = page.get_by_role("alertdialog", name="Still there?")
        expect(notice).to_contain_text("This game ends a session idle for 4 seconds: yours ends in about 1 second")
        expect(notice).to_contain_text("You have played for 0 minutes: 0 rounds, and neither won nor lost.")
        page.context.close()


def _seed_with(cards_class: HandClass, seats: int = 1) -> bytes:
    """A round seed whose deal gives seat 0 (of `seats`, and the dealer) `cards_class` or better."""
    while True:
        seed = os.urandom(32)
        deck = deck_from_seed(seed)
        mine = [card_text(deck[k * (seats + 1)]) for k in range(5)]
        if evaluate(mine).hand_class >= cards_class:
            return seed


def _play_round(page: Page, first: bool) -> None:
    """A cyberstud round with the progressive: a chip on the ante and the progressive (the first),
    or Rebet; the deal; a raise; its result."""
    if first:
        page.locator(".chip-button").first.click()
        page.locator("#spot-ante").click()
        page.locator("#b-progressive").click()
    else:
        page.locator("#b-rebet").click()  # the ante and the progressive again
    expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#b-deal")).to_be_enabled()
    page.locator("#b-deal").click()
    page.locator("#b-raise").click()
    expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Net)"))


def test_the_progressive_page_shows_the_meter_over_time_and_tells_no_fixed_prize_of_today(
    server: LiveServer, browser: Browser
) -> None:
    """A flush's fixed prize paid this round is in the player's result, not on the public page: a
    fixed prize is told only counted by day, once the day has ended (`jackpots`)."""
    page = new_page(browser)
    sit(page, server, "cyberstud")
    owner, seat = seat_at(server, account_of(page))
    table = owner.t
    seed = _seed_with(HandClass.FLUSH)
    rounds = 3
    for k in range(rounds):
        # the last round's deal pays a progressive prize
        with house_deals(table, seed) if k == rounds - 1 else contextlib.nullcontext():
            _play_round(page, first=k == 0)
    results = owner.t.state.seats[seat].results
    assert results is not None and int(results["net"]["progressive"]) > 0
    progressive = owner.spec.variant.progressive
    assert progressive is not None
    prize = int(results["net"]["progressive"]) + progressive.stake  # the paytable's prize (the net is less the stake)
    code = owner.spec.variant.currency.code
    shown = f"The meter now: {money(owner.t.meter, code)}"
    for _ in range(6):  # the pool's meter follows the commits within a second (read from their summaries)
        page.goto(f"{server.http}/progressive/{owner.spec.id}")
        if page.get_by_test_id("meter-now").text_content() == shown:
            break
        page.wait_for_timeout(500)
    expect(page.get_by_test_id("meter-now")).to_have_text(shown)
    answer = page.evaluate(f"fetch('/api/progressive/{owner.spec.id}').then((r) => r.json())")
    assert answer["points"][-1]["meter"] == owner.t.meter
    assert len(answer["points"]) >= rounds
    expect(page.locator(".meter-chart polyline")).to_have_count(1)
    assert answer["meter_prizes"] == [] and answer["fixed_prizes"] == []  # a flush is a fixed prize
    expect(page.get_by_text("No prize of the meter's share paid yet.")).to_be_visible()
    expect(page.get_by_text("No fixed prize paid in those days.")).to_be_visible()
    for heading in ("Jackpots paid", "Fixed prizes by day"):  # the paytable alone says what a flush pays
        section = page.locator("section", has=page.get_by_role("heading", name=heading))
        expect(section.locator("tbody tr")).to_have_count(0)
    assert prize in {z.amount for z in progressive.prizes.values() if z.amount}  # fixed: paid, and not told here
    shot(page, "progressive-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "progressive-phone")
    page.context.close()


def test_a_game_without_a_progressive_has_no_history_of_one(server: LiveServer) -> None:
    import httpx

    answer = httpx.get(f"{server.http}/api/progressive/casino-holdem-1")
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_table"


def test_the_history_page_shows_every_round_with_its_bets_and_checks_its_fairness(
    server: LiveServer, browser: Browser
) -> None:
    page = new_page(browser)
    sit(page, server, "caribbean-poker")
    owner, seat = seat_at(server, account_of(page))
    code = owner.spec.variant.currency.code
    nets = {}
    for k, decision in enumerate(("#b-raise", "#b-fold")):
        if k == 0:
            page.locator(".chip-button").first.click()
            page.locator("#spot-ante").click()
        else:
            page.locator("#b-rebet").click()
        expect(page.locator("#b-deal")).to_be_enabled()
        page.locator("#b-deal").click()
        if k == 0:
            page.locator("#b-exchange").click()
            expect(page.locator("#b-exchange")).to_contain_text("(1/3)")
        page.locator(decision).click()
        expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Net)"))
        results = owner.t.state.seats[seat].results
        assert results is not None
        nets[owner.t.round] = int(results["net"]["total"])
    page.goto(f"{server.http}/history/{owner.spec.id}")
    rounds = page.locator("article.round")
    expect(rounds).to_have_count(2)
    total = sum(nets.values())
    said = f"won {money(total, code)}" if total > 0 else f"lost {money(-total, code)}" if total < 0 else "push"
    expect(page.locator("#history-summary")).to_have_text(f"2 rounds at {owner.spec.id}, newest first: {said} in all.")
    first, last = min(nets), max(nets)
    exchanged = page.locator(f'article.round[data-round="{first}"]')
    expect(exchanged).to_contain_text("Exchange 1")
    expect(exchanged).to_contain_text("You: called")
    expect(exchanged.locator('[data-spot="fees"]')).to_contain_text("Exchange fees:")
    folded = page.locator(f'article.round[data-round="{last}"]')
    expect(folded).to_contain_text("You: folded")
    expect(folded.locator('[data-spot="ante"]')).to_contain_text(re.compile(r"Ante \$\d+\.\d\d: lost"))
    for number, net in nets.items():
        word = f"won {money(net, code)}" if net > 0 else f"lost {money(-net, code)}" if net < 0 else "push"
        if not net and number == first:  # the exchange's fee, and a net of nothing
            word = f"even after {money(owner.spec.variant.limits[0].minimum, code)} in exchange fees"
        expect(page.locator(f'article.round[data-round="{number}"] [data-spot="net"]')).to_have_text(f"Net: {word}")
    exchanged.get_by_role("button", name="Check this round's fairness").click()
    expect(exchanged.locator(".fair-result")).to_contain_text(f"Round {first}: verified")
    expect(exchanged.locator(".fair-result li")).not_to_contain_text(["NO"])
    shot(page, "history-desktop")
    page.set_viewport_size(PHONE)
    shot(page, "history-phone")
    page.context.close()


def test_the_table_pages_seat_panel_links_the_players_pages(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser)
    sit(page, server, "network-24h")
    owner, _ = seat_at(server, account_of(page))
    page.get_by_text("Seat", exact=True).click()
    page.get_by_role("link", name="Your rounds").click()
    expect(page).to_have_url(f"{server.http}/history/{owner.spec.id}")  # the table it sits at
    expect(page.locator("#history-summary")).to_have_text(f"You have played no round at {owner.spec.id} yet.")
    page.go_back()
    page.get_by_text("Seat", exact=True).click()
    page.get_by_role("link", name="Rules", exact=True).click()
    expect(page).to_have_url(f"{server.http}/rules/{owner.spec.id}")
    page.context.close()
