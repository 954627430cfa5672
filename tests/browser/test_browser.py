"""The table page in a real browser: Playwright driving Debian's Chromium headless against a live
`caribbean-fast serve` (uvicorn on loopback). Each test plays as a player does (mouse, keys or
taps) and asserts on what the page shows and on the server's books. Under CI (CI=true) a missing
Chromium fails these tests; elsewhere it skips them."""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    PortServer,
    account_of,
    browser_settings,
    money,
    net_line,
    seat_at,
    sit,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from live_server import Client, LiveServer, query, recorded
from playwright.sync_api import Browser, Page, ViewportSize, expect

from caribbean_fast.analysis import analyze
from caribbean_fast.cards import card_text
from caribbean_fast.engine import deck_from_seed
from caribbean_fast.engine.fairness import leaves, positions
from caribbean_fast.engine.showdown import _all_words
from caribbean_fast.hands import evaluate
from caribbean_fast.server.config import default_own, default_tables
from caribbean_fast.server.tables.owner import Owner
from caribbean_fast.variants import PRESETS, Family
from caribbean_fast.words.rules import suggested_buy_in
from caribbean_fast.words.views import view_to_json

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(browser_settings(str(tmp_path_factory.mktemp("browser") / "tables.db"))) as live:
        yield live


def new_page(browser: Browser, viewport: ViewportSize = DESKTOP, **options: Any) -> Page:
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def settle_check(page: Page, owner: Owner, seat: int, start: int) -> int:
    """The round is settled: the page shows the net the server settled, and the seat's balance at
    the table moved by exactly that net."""
    expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Net)"))
    results = owner.t.state.seats[seat].results
    assert results is not None
    net = int(results["net"]["total"])
    assert owner.t.balance(seat) == start + net
    code = owner.spec.variant.currency.code
    expect(page.locator("#result")).to_have_text(net_line(owner.t.view(seat).result or {}, code))
    expect(page.locator("#balance")).to_have_text(money(start + net, code))
    return net


@pytest.mark.parametrize("game", PRESETS)
def test_a_full_round_of_every_game_by_mouse(server: LiveServer, browser: Browser, game: str) -> None:
    page = new_page(browser)
    buy_in = sit(page, server, game)
    owner, seat = seat_at(server, account_of(page))
    variant = owner.spec.variant
    code = variant.currency.code
    start = owner.t.balance(seat)
    assert start == buy_in
    assert (
        page.evaluate("fetch('/api/me').then((r) => r.json())")["wallets"][code]
        == server.settings.demo_balance - buy_in
    )
    # the extra bets first: game 3 deals once every seated player has an ante
    if variant.progressive:
        page.locator("#b-progressive").click()
        expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "true")
    if variant.side_bets:
        page.locator("#b-side").click()
        expect(page.locator("#b-side")).to_have_attribute("aria-pressed", "true")
        assert owner.t.state.seats[seat].bets.side(variant.side_bets[0].name) > 0
    page.locator(".chip-button").nth(1).click()
    chip = int(page.locator(".chip-button").nth(1).get_attribute("data-chip") or 0)
    page.locator("#spot-ante").click()
    expect(page.locator("#spot-ante .spot-amount")).to_have_text(money(chip, code))
    expect(page.locator("#spot-ante .stack .chip")).not_to_have_count(0)
    assert owner.t.state.seats[seat].bets.ante == chip
    if page.locator("#b-deal").is_enabled():
        page.locator("#b-deal").click()
    dealt = 5 if variant.family is Family.STUD else 2
    expect(page.locator("#cards svg.card")).to_have_count(dealt)
    assert page.locator("#cards svg.card").first.get_attribute("aria-label") in _names(owner, seat)
    if variant.family is Family.HOLDEM:
        expect(page.locator("#board svg.card:not(.back)")).to_have_count(3)
    else:
        expect(page.locator("#dealer svg.card:not(.back)")).to_have_count(1)
    if variant.exchanges:
        before = list(owner.t.view(seat).cards)
        page.locator("#b-exchange").click()
        expect(page.locator("#b-exchange")).to_have_text("Exchange (1/3)")
        assert owner.t.view(seat).cards != tuple(before)
    expect(page.locator("#b-raise")).to_have_text(variant.bet_words.title)  # game 4 and hold'em: Call
    expect(page.locator("#raise-name")).to_have_text(variant.bet_words.title)
    page.locator("#b-raise").click()
    settle_check(page, owner, seat, start)
    shown = owner.t.view(seat)
    expect(page.locator("#dealer-hand")).to_contain_text(evaluate([*shown.dealer, *shown.board]).describe())
    expect(page.locator("#recall li")).to_have_count(1)
    page.context.close()


def _names(owner: Owner, seat: int) -> list[str]:
    from caribbean_fast.cards import RANKS

    names = {"T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
    numbers = dict(zip(RANKS[:8], ["Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"], strict=True))
    suits = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    return [f"{names.get(c[0]) or numbers[c[0]]} of {suits[c[1]]}" for c in owner.t.view(seat).cards]


def test_seed_000s_keys_play_game_1_without_a_mouse(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(f"{server.http}/play/atlantic-city")
    page.locator("input[name=name]").focus()
    for _ in range(4):
        page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Play as guest")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#buy-in")).to_be_focused()
    expect(page.locator("#buy-in")).not_to_have_value("")
    buy_in = round(float(page.locator("#buy-in").input_value()) * 100)
    page.keyboard.press("Enter")  # sits down with the buy-in offered
    expect(page.locator("#balance")).to_have_text(money(buy_in, "USD"))
    owner, seat = seat_at(server, account_of(page))
    start = owner.t.balance(seat)
    expect(page.locator("#stake")).to_have_text("$5.00")  # the minimum
    page.keyboard.press("-")  # nothing dealt: refused, in words
    expect(page.locator("#message")).to_have_text("there is no dealt round to decide")
    page.keyboard.press("ArrowUp")  # the seed: Up/Down by 1, Shift by 10 (the rules' stake unit)
    page.keyboard.press("Shift+ArrowUp")
    page.keyboard.press("ArrowDown")
    expect(page.locator("#stake")).to_have_text("$15.00")
    page.keyboard.press("Enter")  # places the stake as the ante and deals
    expect(page.locator("#cards svg.card")).to_have_count(5)
    assert owner.t.state.seats[seat].bets.ante == 1500
    page.keyboard.press("Enter")  # raises
    start += settle_check(page, owner, seat, start)
    page.keyboard.press("0")  # repeats the last bet
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$15.00")
    page.keyboard.press(".")  # clears it
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("")
    assert owner.t.state.seats[seat].bets.ante == 0
    page.keyboard.press("Insert")
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("$15.00")
    page.keyboard.press("Delete")
    expect(page.locator("#spot-ante .spot-amount")).to_have_text("")
    page.keyboard.press("Enter")
    expect(page.locator("#result")).to_have_text("Your decision")
    page.keyboard.press("-")  # folds: the ante is lost
    net = settle_check(page, owner, seat, start)
    assert net == -1500
    page.reload()  # back at the seat: the last rounds come from the server's history
    expect(page.locator("#recall li")).to_have_count(2)
    expect(page.locator("#recall li").last).to_contain_text("Round 1: ")
    expect(page.locator("#recall li").first).to_contain_text(f"Round 2: {' '.join(owner.t.view(seat).cards)}")
    expect(page.locator("#recall li").first).to_contain_text("lost $15.00")
    page.context.close()


def test_game_5_at_phone_size_by_taps(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser, PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{server.http}/play/casino-holdem")
    page.get_by_role("button", name="Play as guest").tap()
    expect(page.locator("#buy-in")).not_to_have_value("")
    buy_in = round(float(page.locator("#buy-in").input_value()) * 100)
    page.get_by_role("button", name="Sit down").tap()
    expect(page.locator("#balance")).to_have_text(money(buy_in, "EUR"))
    owner, seat = seat_at(server, account_of(page))
    start = owner.t.balance(seat)
    page.locator(".chip-button").nth(2).tap()
    page.locator("#spot-ante").tap()
    page.locator("#spot-ante").tap()
    chip = int(page.locator(".chip-button").nth(2).get_attribute("data-chip") or 0)
    expect(page.locator("#spot-ante .spot-amount")).to_have_text(money(2 * chip, "EUR"))
    page.locator("#b-side").tap()
    page.locator("#b-deal").tap()
    expect(page.locator("#cards svg.card")).to_have_count(2)
    _fits_a_phone(page)
    page.locator("#b-raise").tap()
    settle_check(page, owner, seat, start)
    page.context.close()


def _fits_a_phone(page: Page) -> None:
    """Nothing wider than the screen; every control a finger taps is at least 44 px each way."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    controls = page.locator(".controls button:visible, .spot:visible, .panel summary")
    assert controls.count() >= 12
    for k in range(controls.count()):
        box = controls.nth(k).bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, controls.nth(k).inner_text()


def test_game_3_a_closed_page_takes_the_automatic_decision_when_time_runs_out(
    server: LiveServer, browser: Browser
) -> None:
    alice, bob = new_page(browser), new_page(browser)
    a_buy_in = sit(alice, server, "network-24h")
    sit(bob, server, "network-24h")
    owner, a_seat = seat_at(server, account_of(alice))
    _, b_seat = seat_at(server, account_of(bob))
    assert owner.spec.id == seat_at(server, account_of(bob))[0].spec.id
    starts = {a_seat: owner.t.balance(a_seat), b_seat: owner.t.balance(b_seat)}
    for page in (alice, bob):
        page.locator("#spot-ante").click()
        expect(page.locator("#spot-ante .spot-amount")).not_to_have_text("")
    expect(alice.locator(f"#others li[data-seat='{b_seat}']")).to_contain_text(account_of(bob))
    alice.locator("#b-deal").click()  # it deals now, or at the bet time if an earlier test's seat has not bet
    expect(bob.locator("#timer")).to_have_text(re.compile(r"Decide in \d+ s"), timeout=30_000)
    bob.context.close()  # bob's page is gone before he decides
    alice.locator("#b-raise").click()
    expect(alice.locator(f"#others li[data-seat='{b_seat}']")).to_contain_text("settled", timeout=20_000)
    expect(alice.locator(f"#others li[data-seat='{b_seat}'] svg.card.back")).to_have_count(5)  # never his cards
    events = recorded(server.settings.database, owner.spec.id)  # the table keeps only its last event
    decided = [e for e in events if e.kind == "decided" and e.seat == b_seat]
    assert decided[-1].public["auto"] is True
    settle_check(alice, owner, a_seat, starts[a_seat])
    b_results = owner.t.state.seats[b_seat].results
    assert b_results is not None
    assert owner.t.balance(b_seat) == starts[b_seat] + int(b_results["net"]["total"])
    left = owner.t.balance(a_seat)  # alice leaves: her whole balance goes back to her wallet
    alice.locator("summary", has_text="Seat").click()
    alice.get_by_role("button", name="Leave the table").click()
    expect(alice.locator("#message")).to_contain_text(f"You left the table with {money(left, 'EUR')}")
    assert owner.seat_of(account_of(alice)) is None
    wallet = alice.evaluate("fetch('/api/me').then((r) => r.json())")["wallets"]["EUR"]
    assert wallet == server.settings.demo_balance - a_buy_in + left
    alice.context.close()


def test_the_page_returns_to_its_seat_and_round_after_the_server_restarts(browser: Browser, tmp_path: Path) -> None:
    database = str(tmp_path / "restart.db")
    with PortServer(browser_settings(database), 0) as first:
        port = first.port
        page = new_page(browser)
        buy_in = sit(page, first, "cyberstud")
        page.locator("#spot-ante").click()
        page.locator("#b-deal").click()
        expect(page.locator("#cards svg.card")).to_have_count(5)
        cards = [page.locator("#cards svg.card").nth(k).get_attribute("aria-label") for k in range(5)]
        round_before = page.locator("#fair-panel code").inner_text()
    expect(page.locator("#link")).to_have_text(re.compile("connection lost"))
    with PortServer(browser_settings(database), port) as second:
        expect(page.locator("#link")).to_have_text("online", timeout=20_000)
        expect(page.locator("#cards svg.card")).to_have_count(5)
        assert [page.locator("#cards svg.card").nth(k).get_attribute("aria-label") for k in range(5)] == cards
        assert page.locator("#fair-panel code").first.inner_text() == round_before
        owner, seat = seat_at(second, account_of(page))
        if owner.t.state.seats[seat].results is None:  # still undecided after the restart
            page.locator("#b-raise").click()
        settle_check(page, owner, seat, buy_in)
        page.context.close()


def test_a_tab_closed_at_the_decision_finds_its_hand_on_return(browser: Browser, tmp_path: Path) -> None:
    """Issue 42: a lost connection never decides a one-seat round. The tab is closed at the
    decision, long past the grace period; the player comes back to the same cards and decides."""
    with LiveServer(replace(browser_settings(str(tmp_path / "drop.db")), grace=0.3)) as live:
        page = new_page(browser)
        buy_in = sit(page, live, "atlantic-city")
        owner, seat = seat_at(live, account_of(page))
        page.locator("#spot-ante").click()
        page.locator("#b-deal").click()
        expect(page.locator("#cards svg.card")).to_have_count(5)
        cards = [page.locator("#cards svg.card").nth(k).get_attribute("aria-label") for k in range(5)]
        context = page.context
        page.close()  # the tab is gone at the decision
        deadline = time.monotonic() + 10
        while owner.t.state.seats[seat].away is None and time.monotonic() < deadline:
            time.sleep(0.05)  # the grace period ran out: the seat is away
        assert owner.t.state.seats[seat].away is not None and owner.t.undecided() == [seat]
        back = context.new_page()
        back.goto(f"{live.http}/play/atlantic-city")
        expect(back.locator("#cards svg.card")).to_have_count(5)
        assert [back.locator("#cards svg.card").nth(k).get_attribute("aria-label") for k in range(5)] == cards
        back.locator("#b-raise").click()
        settle_check(back, owner, seat, buy_in)
        assert owner.t.state.seats[seat].auto is False
        context.close()


def test_the_page_checks_each_rounds_proof(server: LiveServer, browser: Browser) -> None:
    """Game 4 with an exchange: the page checks the openings of its cards, its draws and the
    dealer's against the commitment it saw before the deal; a proof with one card changed fails."""
    page = new_page(browser)
    sit(page, server, "caribbean-poker")
    page.locator("#spot-ante").click()
    expect(page.locator("#commitment")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    commitment = page.locator("#commitment").inner_text()
    page.locator("#b-deal").click()
    page.locator("#b-exchange").click()
    page.locator("#b-raise").click()
    expect(page.locator("#fairness .fair-ok")).to_contain_text("verified")
    owner, seat = seat_at(server, account_of(page))
    view = owner.t.view(seat)
    assert view.commitment == commitment and view.proof is not None
    assert len([o for o in view.proof["openings"] if o["of"] == "you"]) == 10  # five dealt, five drawn
    checked = page.evaluate(
        "async ([v, c]) => { const f = await import('/static/js/fair.js'); const good = (await f.verifyProof(v, c)).ok;"
        " const w = structuredClone(v); const o = w.proof.openings[0]; o.card = o.card === 'Kd' ? 'Qd' : 'Kd';"
        " const x = structuredClone(v); x.proof.openings[0].position = 51;"
        " return [good, (await f.verifyProof(w, c)).ok, (await f.verifyProof(x, c)).ok]; }",
        [view_to_json(view), commitment],
    )
    assert checked == [True, False, False]  # a changed card; a card where the deal does not put it
    assert view.proof["seed"] == owner.t.state.round.seed.hex()  # the only seat dealt: the shuffle's own proof
    expect(page.locator("#fairness")).to_contain_text("shuffles into the committed deck: yes")
    wrong_seed = page.evaluate(
        "async ([v, c]) => { const f = await import('/static/js/fair.js'); v.proof.seed = '00'.repeat(32);"
        " return (await f.verifyProof(v, c)).ok; }",
        [view_to_json(view), commitment],
    )
    assert wrong_seed is False
    page.context.close()


def test_a_new_seat_is_offered_no_check_of_a_round_it_did_not_play(browser: Browser, tmp_path: Path) -> None:
    """Game 3: another account plays a round at a seat and leaves; the page that sits there next
    shows neither that round's cards nor a check of it (no MISMATCH for a round it never played)."""
    with LiveServer(browser_settings(str(tmp_path / "seats.db"))) as server:
        other = Client(server.ws, server.guest())
        taken = other.ok("sit", table="network-24h-1", buy_in=5_000)["seat"]
        other.ok("ante", table="network-24h-1", amount=100)
        other.ok("deal", table="network-24h-1")
        other.ok("fold", table="network-24h-1")
        other.ok("leave", table="network-24h-1")
        other.close()
        page = new_page(browser)
        sit(page, server, "network-24h")
        owner, seat = seat_at(server, account_of(page))
        assert (owner.spec.id, seat) == ("network-24h-1", taken) and owner.t.view(seat).proof is None
        expect(page.locator("#cards svg.card")).to_have_count(0)
        page.locator("#spot-ante").click()  # a round of its own: that one is checked
        page.locator("#b-deal").click()
        page.locator("#b-fold").click()
        expect(page.locator("#fairness .fair-ok")).to_have_count(1)
        expect(page.locator("#fairness .fair-bad")).to_have_count(0)
        page.context.close()


def test_the_trainer_gives_the_par_sheets_best_decision(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser)
    sit(page, server, "cyberstud")
    page.locator("#trainer-panel summary").click()
    page.locator("#trainer-on").check()
    owner, seat = seat_at(server, account_of(page))
    strategy = analyze(owner.spec.variant).table
    for _ in range(2):
        page.locator("#b-deal").click()
        expect(page.locator("#result")).to_have_text("Your decision")
        view = owner.t.view(seat)
        best = strategy.decide(list(view.cards), list(view.dealer[-1:]))
        shown = page.locator("[data-testid=best]")
        expect(shown).to_have_text("raise" if best.value == "raise" else "fold", ignore_case=True, timeout=90_000)
        wrong = "#b-fold" if best.value == "raise" else "#b-raise"
        page.locator(wrong).click()
        expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Net)"))
    expect(page.locator("#mistakes")).to_have_text("2 mistakes in 2 decisions so far.")
    page.locator("#b-end").click()
    expect(page.locator("#mistakes")).to_have_text(
        re.compile(r"^Trainer: 2 mistakes in 2 decisions, costing \d+\.\d{2} antes")
    )
    page.context.close()


def test_the_lobby_lists_every_game_and_links_its_table(server: LiveServer, browser: Browser) -> None:
    page = new_page(browser)
    page.goto(server.http)
    page.get_by_role("button", name="Play as guest").click()
    expect(page.locator(".game-card")).to_have_count(len(PRESETS))
    page.get_by_role("link", name=re.compile("Play Casino Hold'em")).click()
    expect(page).to_have_url(f"{server.http}/play/casino-holdem")
    expect(page.get_by_role("button", name="Sit down")).to_be_visible()
    page.context.close()


@pytest.fixture(scope="module")
def blank_page(server: LiveServer, browser: Browser) -> Iterator[Page]:
    """A page of the server's (for its modules), with nobody seated."""
    page = new_page(browser)
    page.goto(f"{server.http}/")
    yield page
    page.context.close()


@settings(max_examples=25, deadline=None)
@given(
    seats=st.lists(st.integers(0, 6), min_size=1, max_size=7, unique=True),
    hand=st.sampled_from([2, 5]),
    board=st.sampled_from([0, 5]),
    draws=st.lists(st.tuples(st.integers(0, 6), st.integers(1, 5)), max_size=4),
)
def test_the_browsers_deal_positions_are_the_engines(
    blank_page: Page, seats: list[int], hand: int, board: int, draws: list[tuple[int, int]]
) -> None:
    deal = {"seats": seats, "hand": hand, "board": board, "draws": [[s, n] for s, n in draws if s in seats]}
    found = blank_page.evaluate("(deal) => import('/static/js/fair.js').then((f) => f.positions(deal))", deal)
    assert found == positions(deal)


@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32))
def test_the_browsers_shuffle_and_leaves_are_the_engines(blank_page: Page, seed: bytes) -> None:
    derive = (
        "(seed) => import('/static/js/fair.js')"
        ".then(async (f) => [await f.deckFromSeed(seed), await f.leavesFromSeed(seed)])"
    )
    deck, found = blank_page.evaluate(derive, seed.hex())
    assert deck == deck_from_seed(seed) and found == list(leaves(seed, tuple(deck)))


@settings(max_examples=25, deadline=None)
@given(salt=st.binary(min_size=32, max_size=32), card=st.integers(0, 51))
def test_the_browsers_leaf_is_the_engines(blank_page: Page, salt: bytes, card: int) -> None:
    leaf = blank_page.evaluate(
        "([salt, card]) => import('/static/js/fair.js').then((f) => f.leafOf(salt, card))",
        [salt.hex(), card_text(card)],
    )
    assert leaf == hashlib.sha256(salt + bytes([card])).hexdigest()


# ---- issue 33: the table page itself ----------------------------------------------------------------

SIZES: dict[str, ViewportSize] = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "390x844": {"width": 390, "height": 844},
}
FELT_LIGHTEST = (0x17, 0x92, 0x4F)  # the felt's gradient at its brightest (casino.css)


def _leave(page: Page) -> None:
    """Frees the seat (the module's server has three tables of each one-seat game)."""
    page.locator("summary", has_text="Seat").click()
    page.get_by_role("button", name="Leave the table").click()
    expect(page.locator("#message")).to_contain_text("You left the table")
    page.context.close()


def test_space_presses_the_focused_button_and_enter_with_none_focused_is_the_games_key(
    server: LiveServer, browser: Browser
) -> None:
    """Game 4 by keyboard: Tab to Exchange and Space exchanges; Enter with no button focused then
    calls (never a second exchange); X exchanges; the key help names the game's keys in its words;
    a fold is "folded"."""
    page = new_page(browser)
    sit(page, server, "caribbean-poker")
    owner, seat = seat_at(server, account_of(page))
    start = owner.t.balance(seat)
    expect(page.locator("#keys")).to_contain_text("Enter deal / call")
    expect(page.locator("#keys")).to_contain_text("X exchange")
    expect(page.locator("#keys")).not_to_contain_text("Progressive")
    page.keyboard.press("Enter")  # deals
    expect(page.locator("#result")).to_have_text("Your decision")
    page.locator("#b-exchange").focus()
    page.keyboard.press("Space")  # presses the focused button: one exchange
    expect(page.locator("#b-exchange")).to_have_text("Exchange (1/3)")
    expect(page.locator("#b-exchange")).to_be_focused()
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Enter")  # the game's key: calls, not a second exchange
    start += settle_check(page, owner, seat, start)
    settled = owner.t.state.seats[seat].results
    assert settled is not None and settled["outcome"]["exchanges"] == 1 and settled["outcome"]["decision"] == "raise"
    page.keyboard.press("Enter")
    expect(page.locator("#result")).to_have_text("Your decision")
    page.keyboard.press("x")
    expect(page.locator("#b-exchange")).to_have_text("Exchange (1/3)")
    page.keyboard.press("-")
    settle_check(page, owner, seat, start)
    expect(page.locator("#recall li").first).to_contain_text("folded, lost")
    _leave(page)


def test_the_progressive_toggles_by_its_key_and_button_and_is_drawn_as_its_own_chip(
    server: LiveServer, browser: Browser
) -> None:
    """Game 1: P ticks and unticks the $1 progressive (no Clear needed), drawn as a "1" chip,
    never as the table's smallest chip ("5")."""
    page = new_page(browser)
    sit(page, server, "atlantic-city")
    owner, seat = seat_at(server, account_of(page))
    expect(page.locator("#keys")).to_contain_text("P Progressive on / off")
    page.keyboard.press("p")
    expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#spot-progressive .chip-text")).to_have_text("1")
    assert owner.t.state.seats[seat].bets.progressive == 100
    page.keyboard.press("p")
    expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#spot-progressive .chip")).to_have_count(0)
    page.locator("#b-progressive").click()
    expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "true")
    page.locator("#b-progressive").click()  # the button unticks it too
    expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "false")
    assert owner.t.state.seats[seat].bets.progressive == 0
    _leave(page)


def _within_the_window(page: Page, size: str) -> None:
    """Nothing scrolled, and the cards, board, dealer, balance and the buttons of the moment (the
    decision's while deciding, the deal's once settled) inside the window."""
    page.set_viewport_size(SIZES[size])
    page.evaluate("window.scrollTo(0, 0)")
    height, width = SIZES[size]["height"], SIZES[size]["width"]
    buttons = ("#b-raise", "#b-fold") if page.locator("#b-raise").is_visible() else ("#b-deal",)
    for part in ("#dealer", "#board", "#cards", "#balance", *buttons, "#result"):
        box = page.locator(part).bounding_box()
        assert box is not None, part
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (size, part, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (size, part, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_a_round_fits_the_window_and_each_bet_spot_shows_its_own_result(server: LiveServer, browser: Browser) -> None:
    """Hold'em (the tallest table: dealer, board and hand) at 1280x800, 1366x768 and 390x844: the
    round is in the window at the decision and at settlement; each spot says won (at N to 1),
    lost or push, from the server's `result.bets`; the chips move unless the player asks for
    reduced motion; no internal name shows."""
    page = new_page(browser, SIZES["1280x800"])
    sit(page, server, "casino-holdem")
    owner, seat = seat_at(server, account_of(page))
    start = owner.t.balance(seat)
    expect(page.locator("#keys")).to_contain_text("B AA Bonus on / off")
    page.keyboard.press("b")
    expect(page.locator("#b-side")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")
    expect(page.locator("#result")).to_have_text("Your decision")
    for size in SIZES:
        _within_the_window(page, size)
    page.set_viewport_size(SIZES["1280x800"])
    page.keyboard.press("Enter")  # calls
    settle_check(page, owner, seat, start)
    bets = owner.t.view(seat).result["bets"]  # type: ignore[index]
    assert [b["spot"] for b in bets] == ["ante", "raise", "side:aa-bonus"]
    spot_of = {"ante": "#spot-ante", "raise": "#spot-raise", "side:aa-bonus": "#spot-side"}
    for bet in bets:
        amount = money(abs(bet["net"]), "EUR")
        words = {"won": f"Won {amount}", "lost": f"Lost {amount}", "push": "Push"}[bet["result"]]
        if bet["pays"]:
            words += f"\nat {bet['pays']}"
        expect(page.locator(f"{spot_of[bet['spot']]} .spot-result")).to_have_text(words)
        expect(page.locator(spot_of[bet["spot"]])).to_have_class(re.compile(rf"\b{bet['result']}\b"))
    assert sum(b["net"] for b in bets) == owner.t.state.seats[seat].results["net"]["total"]  # type: ignore[index]
    moving = "document.querySelector('.spot.paid .stack .chip, .spot.taken .stack')"
    assert page.evaluate(f"getComputedStyle({moving}).animationName") in ("chip-in", "chips-out")
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(f"getComputedStyle({moving}).animationName") == "none"
    text = page.locator("body").inner_text()
    for internal in ("aa-bonus", "lowest:", "OF-FOURS", "pair-of"):
        assert internal not in text, internal
    for size in SIZES:
        _within_the_window(page, size)
    _longest_words(page)
    for size in SIZES:
        _within_the_window(page, size)
    _leave(page)


def _longest_words(page: Page) -> None:
    """The settled felt with the longest words a round can show (the deal decides which show, so a
    layout that fits only the words of this deal fails elsewhere): the longest hand name, the
    dealer's with the longer qualifier word, and a result decided for the player on three bets."""
    longest = max(_all_words(), key=len)
    result = "Decided for you (Call) \u00b7 Net \u20ac0.00: Ante +\u20ac1,000.00, AA Bonus \u2212\u20ac1,000.00"
    page.evaluate(
        "([hand, dealer, result]) => { document.getElementById('hand').textContent = hand;"
        " document.getElementById('dealer-hand').textContent = dealer;"
        " document.getElementById('result').textContent = result; }",
        [longest, f"{longest} \u00b7 does not qualify", result],
    )


def _contrast(page: Page, selector: str) -> float:
    """The WCAG contrast of the element's text on its background laid over the brightest felt."""
    fg, bg = page.evaluate(
        "(s) => { const e = document.querySelector(s); const c = getComputedStyle(e);"
        " return [c.color, c.backgroundColor]; }",
        selector,
    )

    def rgba(text: str) -> tuple[float, ...]:
        parts = [float(x) for x in re.findall(r"[\d.]+", text)]
        return tuple(parts + [1.0] * (4 - len(parts)))

    def over(colour: tuple[float, ...], under: tuple[float, ...]) -> tuple[float, ...]:
        a = colour[3]
        return tuple(colour[k] * a + under[k] * (1 - a) for k in range(3))

    def luminance(rgb: tuple[float, ...]) -> float:
        lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    back = over(rgba(bg), FELT_LIGHTEST)
    front = over(rgba(fg), back)
    high, low = sorted((luminance(front), luminance(back)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_before_sitting_nothing_acts_no_seat_free_shows_and_the_console_is_clean(
    browser: Browser, tmp_path: Path
) -> None:
    """Every seat of game 1 taken: the page says so before Sit down, and disables it and every
    button of the table; loading the page logs no error (no 401 from /api/me, no 404 favicon);
    the rule line and "Lost" read at 4.5:1 or more on the felt."""
    with LiveServer(browser_settings(str(tmp_path / "full.db"))) as server:
        holders = [Client(server.ws, server.guest()) for _ in range(3)]
        for k, holder in enumerate(holders, start=1):
            holder.ok("sit", table=f"atlantic-city-{k}", buy_in=10_000)
        page = new_page(browser)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        page.goto(f"{server.http}/play/atlantic-city")
        page.get_by_role("button", name="Play as guest").click()
        expect(page.locator("#sit-full")).to_have_text(re.compile("^No seat is free"))
        expect(page.get_by_role("button", name="Sit down")).to_be_disabled()
        buttons = page.locator("#actions .btn:visible, #spots button.spot:visible")
        assert buttons.count() >= 7
        for k in range(buttons.count()):
            expect(buttons.nth(k)).to_be_disabled()
        assert errors == [], errors
        assert _contrast(page, "#rule-line") >= 4.5
        page.evaluate("document.querySelector('#result').className = 'result lost'; result.textContent = 'Lost $5.00'")
        assert _contrast(page, "#result") >= 4.5
        page.goto(f"{server.http}/play/cyberstud")  # a free seat: the offer, the buttons still off
        expect(page.locator("#sit-full")).to_be_hidden()
        expect(page.get_by_role("button", name="Sit down")).to_be_enabled()
        expect(page.locator("#b-deal")).to_be_disabled()
        assert errors == [], errors
        page.context.close()
        for holder in holders:
            holder.close()


def test_game_3_offers_twenty_rounds_and_refuses_an_ante_it_cannot_raise(server: LiveServer, browser: Browser) -> None:
    """The buy-in offered covers twenty minimum rounds (ante and raise); a seat that could not
    cover its raise is refused the ante before any deal, in the engine's words."""
    page = new_page(browser)
    page.goto(f"{server.http}/play/network-24h")
    page.get_by_role("button", name="Play as guest").click()
    expect(page.locator("#buy-in")).not_to_have_value("")
    offered = round(float(page.locator("#buy-in").input_value()) * 100)
    owner = next(o for o in server.app.state.server.owners.values() if o.spec.variant.name == "network-24h")
    variant, limits = owner.spec.variant, owner.spec.limits
    minimum = variant.limits[limits].minimum
    assert offered == suggested_buy_in(variant, variant.limits[limits])
    assert offered >= 20 * (minimum + minimum * 2)
    page.locator("#buy-in").fill("2")
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator("#balance")).to_have_text("\u20ac2.00")
    owner, seat = seat_at(server, account_of(page))
    page.locator("body").press("ArrowUp")  # €1.50: with its raise of €3.00, more than the seat holds
    expect(page.locator("#stake")).to_have_text("\u20ac1.50")
    page.keyboard.press("Enter")
    f = variant.currency.format  # the engine's words (engine/core.py, `_covers_the_raise`)
    expect(page.locator("#message")).to_have_text(
        f"seat {seat + 1} holds {f(200)}: bets of {f(150)} and the raise of {f(300)} they may need come to {f(450)}"
    )
    expect(page.locator("#cards svg.card")).to_have_count(0)
    assert owner.t.state.seats[seat].bets.ante == 0 and owner.t.view(seat).cards == ()
    page.context.close()


def test_the_lobby_shows_each_wallet_in_its_currency_and_game_3_by_limits(tmp_path: Path, browser: Browser) -> None:
    """The default tables: game 3's two tables by limits (RULES.md: 0.50 to 10 and 10 to 100
    euros); a guest's dollar and euro wallets, each with its currency."""
    config = replace(browser_settings(str(tmp_path / "casino.db")), tables=default_tables(), own=default_own())
    with LiveServer(config) as live:
        page = new_page(browser)
        page.goto(f"{live.http}/")
        page.get_by_role("button", name="Play as guest").click()
        for code, cash in (("USD", "$1,000.00"), ("EUR", "€1,000.00")):
            expect(page.locator(f'#who .wallet[data-currency="{code}"]')).to_have_text(
                re.compile(rf"{code} {re.escape(cash)}$")
            )
        for table, limits in (("network-24h-1", "€0.50 to €10.00"), ("network-24h-high-1", "€10.00 to €100.00")):
            expect(page.locator(f'.table-row[data-table="{table}"] .table-facts')).to_contain_text(
                f"EUR · ante {limits}"
            )
        page.context.close()


def test_the_meter_moves_at_one_table_when_another_tables_player_bets(tmp_path: Path, browser: Browser) -> None:
    """Game 2's pool is shared: alice's page shows the meter bob's progressive stake at another
    table moved, within a second or so of its commit (a server of its own: two free tables)."""
    with LiveServer(browser_settings(str(tmp_path / "casino.db"))) as server:
        _meter_moves(server, browser)


def _meter_moves(server: LiveServer, browser: Browser) -> None:
    alice = new_page(browser)
    sit(alice, server, "cyberstud")
    owner, _ = seat_at(server, account_of(alice))
    host = server.app.state.server
    other = next(
        t
        for t, o in host.owners.items()
        if o.spec.variant.name == "cyberstud" and t != owner.spec.id and o.t.free_seats()
    )
    bob = Client(server.ws, server.guest())
    bob.ok("sit", table=other, buy_in=20_000)
    key = owner.pool.key
    assert key is not None
    shown = alice.locator("#meter").inner_text()
    bob.ok("ante", table=other, amount=500)
    bob.ok("progressive", table=other, on=True)
    bob.ok("deal", table=other)  # its commit puts the contribution into the pool
    pool = dict(query(server.settings.database, "SELECT pool, meter FROM pools"))[key]
    shards = query(server.settings.database, "SELECT SUM(amount) FROM pool_shards WHERE pool = ?", (key,))[0][0]
    grown = money(int(pool) + int(shards), "USD")
    assert grown != shown
    expect(alice.locator("#meter")).to_have_text(grown, timeout=3_000)
    bob.ok("fold", table=other)
    bob.ok("leave", table=other)
    bob.close()
    alice.context.close()
