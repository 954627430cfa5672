"""The table page in a real browser: Playwright driving Debian's Chromium headless against a live
`caribbean-fast serve` (uvicorn on loopback). Each test plays as a player does (mouse, keys or
taps) and asserts on what the page shows and on the server's books. Under CI (CI=true) a missing
Chromium fails these tests; elsewhere it skips them."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    CHROMIUM,
    PortServer,
    account_of,
    browser_settings,
    money,
    seat_at,
    sit,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from live_server import Client, LiveServer
from playwright.sync_api import Browser, Page, ViewportSize, expect, sync_playwright

from caribbean_fast.analysis import analyze
from caribbean_fast.cards import card_text
from caribbean_fast.engine import deck_from_seed
from caribbean_fast.engine.fairness import leaves, positions
from caribbean_fast.engine.views import view_to_json
from caribbean_fast.hands import evaluate
from caribbean_fast.server.tables import Owner
from caribbean_fast.variants import PRESETS, Family
from caribbean_fast.variants.presentation import bet_words

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM)
        yield launched
        launched.close()


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
    expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Even)"))
    results = owner.t.state.seats[seat].results
    assert results is not None
    net, fees = int(results["net"]["total"]), abs(int(results["net"]["exchange_fees"]))
    assert owner.t.balance(seat) == start + net
    code = owner.spec.variant.currency.code
    word = "Won" if net > 0 else "Lost" if net < 0 else "Even" if fees else "Push"
    text = f"{word} {money(abs(net), code)}" if net else word
    expect(page.locator("#result")).to_have_text(f"{text} after {money(fees, code)} in exchange fees" if fees else text)
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
    assert page.evaluate("fetch('/api/me').then((r) => r.json())")["wallet"] == server.settings.demo_balance - buy_in
    page.locator(".chip-button").nth(1).click()
    chip = int(page.locator(".chip-button").nth(1).get_attribute("data-chip") or 0)
    page.locator("#spot-ante").click()
    expect(page.locator("#spot-ante .spot-amount")).to_have_text(money(chip, code))
    expect(page.locator("#spot-ante .stack .chip")).not_to_have_count(0)
    assert owner.t.state.seats[seat].bets.ante == chip
    if variant.progressive:
        page.locator("#b-progressive").click()
        expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "true")
    if variant.side_bets:
        page.locator("#b-side").click()
        expect(page.locator("#b-side")).to_have_attribute("aria-pressed", "true")
        assert owner.t.state.seats[seat].bets.side(variant.side_bets[0].name) > 0
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
    expect(page.locator("#b-raise")).to_have_text(bet_words(variant).title)  # game 4 and hold'em: Call
    expect(page.locator("#raise-name")).to_have_text(bet_words(variant).title)
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
    decided = [e for e in owner.t.events if e.kind == "decided" and e.seat == b_seat]
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
    wallet = alice.evaluate("fetch('/api/me').then((r) => r.json())")["wallet"]
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
        expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Even)"))
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
