"""The table a player comes back to (issue 47), in Chromium: reminders that hold the table, keys
that press what has focus, every game within the window, lines that are true, the rules one tap
away, a dealt feel and a watched table. Each test plays as a player does and asserts on what the
page shows against the server's own books."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from browser_helpers import account_of, browser_settings, house_deals, money, net_line, seat_at, sit
from live_server import Client, LiveServer
from playwright.sync_api import Browser, Page, ViewportSize, expect

from caribbean_fast.analysis import analyze
from caribbean_fast.engine import Table
from caribbean_fast.server.rules import rules_json
from caribbean_fast.server.tables.owner import Owner, TableSpec
from caribbean_fast.variants import PRESETS, Family, Variant, load_variant
from caribbean_fast.words.views import view_to_json

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
SIZES: dict[str, ViewportSize] = {
    "1280x800": DESKTOP,
    "1366x768": {"width": 1366, "height": 768},
    "390x844": {"width": 390, "height": 844},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    config = browser_settings(str(tmp_path_factory.mktemp("table") / "tables.db"))
    # the presets' own timers (game 3's 20 s decision): time to look at the page at three sizes
    variants = [load_variant(name) for name in PRESETS]
    tables = [TableSpec(f"{v.name}-{k}", v, v.seats) for v in variants for k in (1, 2, 3)]
    with LiveServer(replace(config, reality_check_least=2, tables=tables)) as live:
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
    expect(page.locator("#result")).to_have_text(re.compile("^(Lost|Push|Net)"))
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


# ---- 3. every game fits the window with the most seats it holds ----------------------------------


def _fill_the_table(server: LiveServer, owner: Owner) -> list[Client]:
    """Every other seat of the page's table taken by a player on a socket, each with an ante."""
    others = []
    seats = owner.spec.seats
    for _ in range(seats - 1):
        other = Client(f"{server.ws}/{owner.spec.id}", server.guest())
        other.ok("sit", table=owner.spec.id, buy_in=10_000)
        other.ok("ante", table=owner.spec.id, amount=owner.spec.variant.limits[owner.spec.limits].minimum)
        others.append(other)
    return others


def _in_view(page: Page, size: str, parts: tuple[str, ...]) -> None:
    """Nothing scrolled sideways and each part wholly inside the window, with the page at its top."""
    page.set_viewport_size(SIZES[size])
    page.evaluate("window.scrollTo(0, 0)")
    width, height = SIZES[size]["width"], SIZES[size]["height"]
    for part in parts:
        box = page.locator(part).bounding_box()
        assert box is not None, (size, part)
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (size, part, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, part, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("game", PRESETS)
def test_every_game_fits_each_window_with_its_most_seats(server: LiveServer, browser: Browser, game: str) -> None:
    """At the decision (the timer running where the game has one) and at settlement, the dealer,
    the board, the player's cards, the decision buttons, the timer and the balance are in the window
    at 1280x800, 1366x768 and 390x844, with every seat of the table taken (game 3: four)."""
    page = new_page(browser)
    sit(page, server, game)
    owner, _ = seat_at(server, account_of(page))
    others = _fill_the_table(server, owner)
    expect(page.locator("#others li")).to_have_count(owner.spec.seats - 1)
    page.keyboard.press("Enter")
    expect(page.locator("#result")).to_have_text("Your decision", timeout=30_000)
    parts = ["#dealer", "#cards", "#b-raise", "#b-fold", "#balance", "#result"]
    if owner.spec.variant.family is Family.HOLDEM:
        parts.append("#board")
    if owner.spec.variant.timing.decision_seconds:
        expect(page.locator("#timer")).to_be_visible()
        parts.append("#timer")
    for size in SIZES:
        _in_view(page, size, tuple(parts))
    page.set_viewport_size(DESKTOP)
    page.evaluate("document.querySelectorAll('#cards .card, #others .card').forEach((c) => { c.kept = true; })")
    page.keyboard.press("Enter")
    for other in others:  # the other seats decide too, so the round settles now
        other.ok("fold", table=owner.spec.id)
    expect(page.locator("#result")).to_have_text(re.compile("^(Won|Lost|Push|Net)"))
    # the views that followed kept each card's node (a node drawn again replays its deal)
    kept = page.evaluate("[...document.querySelectorAll('#cards .card, #others .card')].map((c) => c.kept === true)")
    assert all(kept) and len(kept) == owner.spec.variant.layout.hand * owner.spec.seats
    for size in SIZES:
        _in_view(page, size, ("#dealer", "#cards", "#result", "#balance", "#b-deal", "#spot-ante"))
    for other in others:
        other.ok("leave", table=owner.spec.id)
        other.close()
    _leave(page)


# ---- 4. every line true -----------------------------------------------------------------------------


def _seed_netting_nothing(variant: Variant, ante: int, side: int) -> tuple[bytes, dict[str, Any]]:
    """A round seed where an ante and the side bet, called, win and lose to a net of nothing (found
    by playing it on an engine table of the same variant); and that round's result."""
    while True:
        seed = os.urandom(32)
        t = Table(variant, seeds=lambda number, seed=seed: seed)
        t.deposit(0, 100_000)
        t.ante(0, ante)
        t.side_bet(0, variant.side_bets[0].name, side)
        t.deal()
        t.raise_(0)
        results = t.view(0).result  # with each bet's title, as the page is sent it
        assert results is not None
        if not results["net"]["total"] and any(b["net"] for b in results["bets"]):
            return seed, results


def test_a_net_of_nothing_says_what_happened_and_a_new_holder_finds_a_clean_felt(
    server: LiveServer, browser: Browser
) -> None:
    """Hold'em: an ante won and an AA Bonus lost read "Net €0.00: Ante +€1.00, AA Bonus \u2212€1.00"
    (the round's last line, and "net €0.00" among the last rounds), never "Push"; the next player
    to sit at that seat sees no card, no dealer's hand and no result of that round."""
    page = new_page(browser)
    sit(page, server, "casino-holdem")
    owner, seat = seat_at(server, account_of(page))
    variant = owner.spec.variant
    stake = variant.limits[owner.spec.limits].minimum
    seed, expected = _seed_netting_nothing(variant, stake, stake)
    with house_deals(owner.t, seed):  # the next deal is that seed's
        page.keyboard.press("b")
        expect(page.locator("#b-side")).to_have_attribute("aria-pressed", "true")
        page.keyboard.press("Enter")
        expect(page.locator("#result")).to_have_text("Your decision")
        page.keyboard.press("Enter")
        expect(page.locator("#result")).to_have_text(net_line(expected, "EUR"))
        results = owner.t.state.seats[seat].results
        assert results is not None and results["net"]["total"] == 0
        expect(page.locator("#result")).to_have_text(
            re.compile("^Net €0\\.00: Ante \\+€1\\.00, AA Bonus \u2212€1\\.00$")
        )
        expect(page.locator("#recall li").first).to_contain_text("net €0.00")
        expect(page.locator("#dealer svg.card")).to_have_count(2)
    _leave(page)
    after = new_page(browser)
    sit(after, server, "casino-holdem")
    assert seat_at(server, account_of(after)) == (owner, seat)  # the same seat of the same table
    expect(after.locator("#cards svg.card")).to_have_count(0)
    expect(after.locator("#dealer svg.card")).to_have_count(0)
    expect(after.locator("#board svg.card")).to_have_count(0)
    expect(after.locator("#dealer-hand")).to_have_text("")
    expect(after.locator("#result")).to_have_text("")
    _leave(after)


def _set_limit(page: Page, table: str, amount: int | None) -> dict[str, Any]:
    """`set_limit` on a socket of the page's account, as the account page sends it."""
    answer: dict[str, Any] = page.evaluate(
        """async ([table, amount]) => {
      const { Link } = await import('/static/js/net.js');
      const link = new Link({ onFrame: () => {}, onStatus: () => {}, table });
      link.connect();
      const answer = await link.send('set_limit', { table, amount });
      link.close();
      return answer;
    }""",
        [table, amount],
    )
    return answer


def _stake_up_to(page: Page, text: str) -> None:
    """Presses Up until the stake reads `text` (the seat's view may still be on its way)."""
    for _ in range(40):
        page.keyboard.press("ArrowUp")
        if page.locator("#stake").inner_text() == text:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the stake never read {text}: {page.locator('#stake').inner_text()}")


def test_the_stake_stops_at_the_table_maximum_a_third_of_the_balance_and_the_personal_limit(
    server: LiveServer, browser: Browser
) -> None:
    """Game 3: Up stops at the table's €10.00. Game 1 with $45.00 at the table: Up stops at a third,
    $15.00, and a chip on the ante never passes it; a personal limit of $10.00 stops it there; a
    lower limit holds at once, a higher one is refused until the week has turned."""
    page = new_page(browser)
    sit(page, server, "network-24h")
    for _ in range(4):
        page.keyboard.press("Shift+ArrowUp")
    expect(page.locator("#stake")).to_have_text("€10.00")
    expect(page.locator("#message")).to_have_text("The most you may stake now is €10.00")
    _leave(page)
    page = new_page(browser)
    page.goto(f"{server.http}/play/atlantic-city")
    page.get_by_role("button", name="Play as guest").click()
    page.locator("#buy-in").fill("45")
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator("#balance")).to_have_text("$45.00")
    owner, seat = seat_at(server, account_of(page))
    for _ in range(3):
        page.keyboard.press("Shift+ArrowUp")
    expect(page.locator("#stake")).to_have_text("$15.00")
    page.locator(".chip-button").nth(2).click()  # $25: more than the seat may stake
    page.locator("#spot-ante").click()
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$15.00")
    assert owner.t.state.seats[seat].bets.ante == 1500
    page.locator("#spot-ante").click()
    expect(page.locator("#message")).to_have_text("The most you may stake now is $15.00")
    page.keyboard.press("Delete")
    assert _set_limit(page, owner.spec.id, 1000)["ok"]
    page.keyboard.press("ArrowDown")
    _stake_up_to(page, "$10.00")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#stake")).to_have_text("$10.00")
    assert _set_limit(page, owner.spec.id, 800)["ok"]  # lowered at once
    assert owner.t.personal_limit(seat) == 800
    for higher in (1200, None):
        refused = _set_limit(page, owner.spec.id, higher)
        assert not refused["ok"] and "raised or removed at most once a week" in refused["error"]["message"]
    assert owner.t.personal_limit(seat) == 800
    page.goto(f"{server.http}/limit")
    expect(page.locator("#b-set-limit")).to_be_enabled()  # lowering: any time
    expect(page.locator("#b-remove-limit")).to_be_disabled()
    expect(page.locator("#limit-when")).to_contain_text("You may lower it now; raise or remove it from")
    page.goto(f"{server.http}/play/atlantic-city")
    expect(page.locator("#balance")).to_have_text("$45.00")
    _leave(page)


# ---- 5. the rules one tap from the table --------------------------------------------------------


@pytest.mark.parametrize("game", PRESETS)
def test_the_rules_are_one_tap_from_the_table_with_the_exact_return(
    server: LiveServer, browser: Browser, game: str
) -> None:
    """The bar's Rules link (no panel to open) opens the table's rules, which give the return to
    player and the house edge under the best strategy from the exact analysis of the variant the
    table runs (game 4: saying the figure is exact under the exchanges' approximation), and the
    rules for a lost connection and an idle session."""
    page = new_page(browser, SIZES["390x844"])
    sit(page, server, game)
    owner, _ = seat_at(server, account_of(page))
    link = page.locator("header #rules-link")
    expect(link).to_be_visible()
    box = link.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844 and box["height"] >= 44
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    expect(rules).to_have_url(f"{server.http}/rules/{owner.spec.id}")
    returns = rules.locator("#returns")
    # hold'em's first count in the tests' own cache takes about three minutes (then it is read)
    expect(returns).to_contain_text("Return to player: ", timeout=300_000)
    sheet = analyze(owner.spec.variant)  # the server's sheet, kept: not counted twice
    expect(returns).to_contain_text(f"Return to player: {float(sheet.rtp) * 100:.2f}% of all money wagered")
    expect(returns).to_contain_text(f"House edge: {float(sheet.house_edge) * 100:.2f}% of the ante")
    if owner.spec.variant.exchanges:
        expect(returns).to_contain_text("The return is exact under that approximation")
    else:
        expect(returns.locator(".note")).to_have_count(0)
    heading = rules.get_by_role("heading", name="A lost connection and an idle session")
    session = rules.locator("section.info-section", has=heading)
    document = rules_json(owner.spec.id, owner.spec.variant, owner.spec.limits)
    for words in document["session_rules"]:
        expect(session).to_contain_text(words)
    expect(session).to_contain_text("idle session")
    rules.close()
    _leave(page)


# ---- 6. a dealt feel --------------------------------------------------------------------------------


def _sounds(page: Page) -> list[str]:
    return list(page.evaluate("window.cfSounds || []"))


def test_chips_undo_double_and_rebet_and_deal_with_sounds_a_remembered_mute_and_the_session_in_the_bar(
    server: LiveServer, browser: Browser
) -> None:
    """Game 1: each chip clicks; Undo takes the last chip back, Double doubles the ante; the deal
    slides the cards in (under half a second, none under reduced motion) and says them to screen
    readers; R repeats the last bets and deals in one key (0 only repeats them); the bar shows the
    session's clock and net; a muted table stays muted after a reload and plays nothing."""
    page = new_page(browser)
    buy_in = sit(page, server, "atlantic-city")
    owner, seat = seat_at(server, account_of(page))
    expect(page.locator("#session-clock")).to_have_text(re.compile(r"^\d+:\d\d$"))
    page.locator("#session-clock").click()  # the bar's clock shows the session, as the server counts it
    session = page.get_by_role("dialog", name="Your session")
    expect(session).to_contain_text("You have played for 0 minutes: 0 rounds")
    session.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#session-net")).to_have_text("$0.00")
    expect(page.locator("#b-sound")).to_have_attribute("aria-pressed", "false")  # "Sound off" not pressed
    page.locator(".chip-button").nth(1).click()  # $10
    page.locator("#spot-ante").click()
    page.locator("#spot-ante").click()
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$20.00")
    assert _sounds(page).count("chip") == 2
    page.locator("#b-undo").click()
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$10.00")
    assert owner.t.state.seats[seat].bets.ante == 1000
    page.keyboard.press("d")  # Double
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$20.00")
    page.keyboard.press("u")
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$10.00")
    page.evaluate("document.activeElement.blur()")  # Enter would press the focused Undo
    page.keyboard.press("Enter")
    expect(page.locator("#cards svg.card")).to_have_count(5)
    expect(page.locator("#actions #b-deal")).to_be_hidden()  # the decision's buttons only
    timing = page.evaluate(
        """() => [...document.querySelectorAll('#cards .card.dealt, #dealer .card.dealt')].map((c) => {
          const s = getComputedStyle(c);
          return [s.animationName, parseFloat(s.animationDuration) + parseFloat(s.animationDelay)];
        })"""
    )
    assert len(timing) == 10 and all(name == "card-dealt" and end < 0.5 for name, end in timing), timing
    expect(page.locator("#deal-news")).to_contain_text("You are dealt ")
    assert "deal" in _sounds(page)
    page.keyboard.press("Enter")  # raises
    expect(page.locator("#result")).not_to_have_text("Your decision")
    net = int(owner.t.state.seats[seat].results["net"]["total"])  # type: ignore[index]
    signed = f"+{money(net, 'USD')}" if net > 0 else f"\u2212{money(-net, 'USD')}" if net < 0 else "$0.00"
    expect(page.locator("#session-net")).to_have_text(signed)
    assert ("win" in _sounds(page)) == (net > 0)
    page.keyboard.press("r")  # the last bets and the deal, in one key
    expect(page.locator("#result")).to_have_text("Your decision")
    assert owner.t.state.seats[seat].bets.ante == 1000
    page.keyboard.press("-")
    expect(page.locator("#result")).not_to_have_text("Your decision")
    page.emulate_media(reduced_motion="reduce")
    page.keyboard.press("r")
    expect(page.locator("#result")).to_have_text("Your decision")
    assert page.evaluate("getComputedStyle(document.querySelector('#cards .card')).animationName") == "none"
    page.keyboard.press("-")
    page.get_by_role("button", name="Sound off").click()
    expect(page.locator("#b-sound")).to_have_text("\u266a off")
    page.reload()
    expect(page.locator("#b-sound")).to_have_text("\u266a off")
    expect(page.get_by_role("button", name="Sound off")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#balance")).not_to_have_text("\u2013")
    page.keyboard.press("0")
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$10.00")
    assert _sounds(page) == []
    assert buy_in > 0
    _leave(page)


def test_the_winning_five_are_marked_at_settlement_as_the_server_names_them(
    server: LiveServer, browser: Browser
) -> None:
    """Hold'em: at a showdown one side won, exactly the five cards the server names (the view's
    `winning_five`, words/views.py) are marked among that side's two and the board's five, and
    said to screen readers; at a tie or where the dealer does not qualify nothing is marked."""
    page = new_page(browser)
    sit(page, server, "casino-holdem")
    owner, seat = seat_at(server, account_of(page))
    marked = 0
    for _ in range(12):
        page.keyboard.press("Enter")
        expect(page.locator("#result")).to_have_text("Your decision")
        page.keyboard.press("Enter")
        expect(page.locator("#result")).not_to_have_text("Your decision")
        win = view_to_json(owner.t.view(seat))["winning_five"]
        if win is None:
            expect(page.locator(".card.winning")).to_have_count(0)
            continue
        rows = "#cards, #board" if win["side"] == "seat" else "#dealer, #board"
        expect(page.locator(".card.winning")).to_have_count(5)
        names = page.locator(".card.winning").evaluate_all("(cs) => cs.map((c) => c.getAttribute('aria-label'))")
        assert sorted(names) == sorted(_name(c) for c in win["cards"])
        assert page.locator(rows).locator(".card.winning").count() == 5
        expect(page.locator("#deal-news")).to_contain_text("winning five: ")
        marked += 1
        if marked == 2:
            break
    assert marked == 2
    _leave(page)


def _name(card: str) -> str:
    ranks = {"T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    numbers = ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"]
    suits = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    rank = ranks.get(card[0]) or numbers[int(card[0]) - 2]
    return f"{rank} of {suits[card[1]]}"


# ---- 7. watching a shared table -----------------------------------------------------------------------


def test_watching_game_3_shows_the_table_live_and_read_only_without_any_seats_cards(
    server: LiveServer, browser: Browser
) -> None:
    """A watcher (not logged in) of a game-3 table sees the seated player's seat, its ante, the
    deal (every seat's cards face down, the dealer's up card), the timer, the dealer's hand at the
    showdown and the next round, live; never a seat's face, and nothing to press."""
    player = new_page(browser)
    sit(player, server, "network-24h")
    owner, seat = seat_at(server, account_of(player))
    watcher = new_page(browser)
    watcher.goto(f"{server.http}/play/network-24h?watch={owner.spec.id}")
    line = watcher.locator("#watch-line")
    expect(line).to_contain_text(f"Watching {owner.spec.id}, read-only")
    box = watcher.locator(f"#others li[data-seat='{seat}']")
    expect(box).to_contain_text(f"Seat {seat + 1} · {account_of(player)}")
    expect(watcher.locator(".controls")).to_be_hidden()
    expect(watcher.locator("#sit")).to_be_hidden()
    player.keyboard.press("Enter")  # the ante and the deal
    expect(player.locator("#result")).to_have_text("Your decision", timeout=30_000)
    expect(box).to_contain_text("deciding")
    expect(box.locator("svg.card.back")).to_have_count(5)
    up = owner.t.view(seat).dealer
    expect(watcher.locator("#dealer svg.card:not(.back)")).to_have_count(1)
    expect(watcher.locator("#dealer svg.card.back")).to_have_count(4)
    expect(watcher.locator("#dealer")).to_have_attribute("aria-label", re.compile(_name(up[0])))
    expect(watcher.locator("#timer")).to_contain_text("Decide in")
    expect(line).to_contain_text("the seats decide")
    player.keyboard.press("Enter")
    expect(box).to_contain_text("settled")
    dealer = owner.t.view(seat).dealer
    expect(watcher.locator("#dealer svg.card:not(.back)")).to_have_count(5)
    expect(player.locator("#dealer-hand")).not_to_be_empty()  # the player's page settled too
    expect(watcher.locator("#dealer-hand")).to_have_text(player.locator("#dealer-hand").inner_text())
    assert len(dealer) == 5
    for card in owner.t.view(seat).cards:  # the seat's cards nowhere on the watcher's page
        expect(watcher.locator(f"svg.card[aria-label='{_name(card)}']")).to_have_count(1 if card in dealer else 0)
    expect(watcher.locator("#others svg.card:not(.back)")).to_have_count(0)
    expect(watcher.locator("#cards svg.card")).to_have_count(0)
    player.keyboard.press("Enter")  # the next round, live on the watcher's page
    expect(line).to_contain_text(f"round {owner.t.view(seat).round}")
    watcher.context.close()
    expect(player.locator("#result")).to_have_text("Your decision", timeout=30_000)  # dealt once its seed is in
    player.keyboard.press("-")
    expect(player.locator("#result")).not_to_have_text("Your decision")
    _leave(player)
