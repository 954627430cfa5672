"""Money on every page in a real browser (Playwright, Debian's Chromium), in a currency of three
decimals (KWD, 1000 fils a dinar) and one of none (JPY): the table page, its session reminder, the
rules, the progressive, the history, the lobby and the personal limit write each amount in the
currency's own minor unit, and read what a player types in it (the page's money.js). Every figure
expected is the server's own (the rules document, the engine's seat, the book)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from browser_helpers import account_of, browser_settings, money
from live_server import LiveServer
from playwright.sync_api import Browser, Page, expect

from caribbean_fast.server.rules import rules_json
from caribbean_fast.server.tables.owner import Owner, TableSpec
from caribbean_fast.variants import load_variant
from caribbean_fast.variants.model import Currency

CURRENCIES = (Currency("KWD", 1000), Currency("JPY", 1))
TYPED = {"KWD": ("1.2345", "90.125", "1.5", "12.5"), "JPY": ("12.5", "90,125", "1,500", "12,500")}
"""What the player types in each currency: a buy-in with more decimals than the currency has,
then the buy-in, a top-up and a personal limit, which read as the same minor units in both."""
BUY_IN, TOP_UP, LIMIT = 90_125, 1_500, 12_500
SCREENS = os.environ.get("CF_SCREENS")  # a folder: the test saves its pages' screenshots there


def money_tables() -> list[TableSpec]:
    """Game 2 (one seat, a progressive) in each currency, its amounts read in that currency's unit."""
    base = load_variant("cyberstud")
    variants = [replace(base, name=f"cyberstud-{c.code.lower()}", currency=c) for c in CURRENCIES]
    return [TableSpec(f"{v.name}-1", v, 1) for v in variants]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    config = browser_settings(str(tmp_path_factory.mktemp("money") / "tables.db"))
    with LiveServer(replace(config, tables=money_tables())) as live:
        yield live


def shot(page: Page, name: str) -> None:
    if SCREENS:
        page.screenshot(path=str(Path(SCREENS) / f"money-{name}.png"), full_page=True)


def face(amount: int, currency: Currency) -> str:
    """A chip's face: its value in units, in thousands ("k") from a thousand."""
    units = Decimal(amount).scaleb(-(len(str(currency.minor_per_major)) - 1))
    text = format((units.scaleb(-3) if units >= 1000 else units).normalize(), "f")
    return f"{text}k" if units >= 1000 else text


def cash_of(currency: Currency) -> Callable[[int], str]:
    """How the page writes an amount of the currency."""
    return lambda amount: money(amount, currency.code, currency.minor_per_major)


def hint(currency: Currency) -> str:
    """The example the page gives of an amount of the currency: every decimal it has, or none."""
    digits = len(str(currency.minor_per_major)) - 1
    return f"an amount in {currency.code}, such as 50" + (f" or 12.{'5'.ljust(digits, '0')}" if digits else "")


def said(net: int, write: Callable[[int], str]) -> str:
    return f"won {write(net)}" if net > 0 else f"lost {write(-net)}" if net < 0 else f"net {write(0)}"


def sit_typing(page: Page, server: LiveServer, currency: Currency, owner: Owner) -> int:
    """Sits at the table and tops up, typing amounts in its currency (one it refuses first); the seat."""
    cash = cash_of(currency)
    wrong, buy_in, top_up, _ = TYPED[currency.code]
    page.goto(f"{server.http}/play/{owner.spec.variant.name}")
    page.get_by_role("button", name="Play as guest").click()
    expect(page.locator("#buy-in")).not_to_have_value("")
    page.locator("#buy-in").fill(wrong)
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator("#message")).to_have_text(f"The buy-in is {hint(currency)}")
    me = account_of(page)
    assert owner.seat_of(me) is None  # nothing sent
    page.locator("#buy-in").fill(buy_in)
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator("#balance")).to_have_text(cash(BUY_IN))
    seat = owner.seat_of(me)
    assert seat is not None and owner.t.balance(seat) == BUY_IN
    page.get_by_text("Seat", exact=True).click()
    page.locator("#topup").fill(top_up)
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#balance")).to_have_text(cash(BUY_IN + TOP_UP))
    assert owner.t.balance(seat) == BUY_IN + TOP_UP
    return seat


def play_round(page: Page, currency: Currency, owner: Owner, seat: int) -> int:
    """A round with the progressive, in chips of the currency; the table page's figures, its
    paytables and the session reminder in it. The seat's net."""
    rules = rules_json(owner.spec.id, owner.spec.variant, owner.spec.limits)
    cash = cash_of(currency)
    chips = rules["stakes"]["chips"]
    expect(page.locator(".chip-button")).to_have_text([face(c, currency) for c in chips])
    expect(page.locator(".chip-button").nth(1)).to_have_attribute("aria-label", f"{cash(chips[1])} chip")
    page.locator(".chip-button").nth(1).click()
    page.locator("#spot-ante").click()
    expect(page.locator("#spot-ante .spot-amount")).to_have_text(cash(chips[1]))
    page.locator("#b-progressive").click()
    expect(page.locator("#b-progressive")).to_have_attribute("aria-pressed", "true")
    page.locator("#b-deal").click()
    page.locator("#b-raise").click()
    expect(page.locator("#result")).to_have_text(re.compile(r"^(Won|Lost|Push|Net)"))
    results = owner.t.state.seats[seat].results
    assert results is not None
    net = int(results["net"]["total"])
    word = "Won" if net > 0 else "Lost" if net < 0 else "Push"
    if net or not any(b["net"] for b in results["bets"]):  # a net of nothing from a win and a loss says so
        expect(page.locator("#result")).to_have_text(f"{word} {cash(abs(net))}" if net else word)
    else:
        expect(page.locator("#result")).to_have_text(re.compile(rf"^Net {re.escape(cash(0))}: "))
    expect(page.locator("#balance")).to_have_text(cash(BUY_IN + TOP_UP + net))
    expect(page.locator("#recall li").first).to_contain_text(said(net, cash))
    progressive = rules["progressive"]
    page.get_by_text("Paytables", exact=True).click()
    expect(page.locator("#paytables")).to_contain_text(f"stake {cash(progressive['stake'])}")
    page.locator("#session-slot .reminder-button").click()
    session = page.get_by_role("dialog", name="Your session")
    money_said = said(net, cash) if net else f"neither won nor lost in {currency.code}"
    expect(session).to_contain_text(f"1 round, and {money_said}.")
    shot(page, f"{currency.code}-table")
    session.get_by_role("button", name="Keep playing").click()
    return net


def info_pages(page: Page, server: LiveServer, currency: Currency, owner: Owner, net: int) -> None:
    """The rules, the progressive and the history of the table the round was played at."""
    cash, table = cash_of(currency), owner.spec.id
    rules = rules_json(table, owner.spec.variant, owner.spec.limits)
    least, most = rules["limits"]["minimum"], rules["limits"]["maximum"]
    page.goto(f"{server.http}/rules/{table}")
    expect(page.get_by_text(f"Ante at this table: {cash(least)} to {cash(most)}.", exact=True)).to_be_visible()
    chips = ", ".join(cash(c) for c in rules["stakes"]["chips"])
    expect(page.get_by_text(f"Suggested buy-in: {cash(rules['stakes']['buy_in'])}. Chips: {chips}.")).to_be_visible()
    stake, share = cash(rules["progressive"]["stake"]), cash(rules["progressive"]["contribution"])
    expect(page.get_by_text(f"Stake {stake}; {share} of each goes to the meter.")).to_be_visible()
    shot(page, f"{currency.code}-rules")
    page.goto(f"{server.http}/progressive/{table}")
    expect(page.get_by_test_id("meter-now")).to_have_text(f"The meter now: {cash(owner.t.meter)}")
    expect(page.get_by_text(f"Stake {stake}, of which {share} goes to the meter.")).to_be_visible()
    page.goto(f"{server.http}/history/{table}")
    summary = f"1 round at {table}, newest first: {said(net, cash)} in all."
    expect(page.locator("#history-summary")).to_have_text(summary)
    ante = rules["stakes"]["chips"][1]
    expect(page.locator('article.round [data-spot="ante"]')).to_contain_text(f"Ante {cash(ante)}: ")
    shot(page, f"{currency.code}-history")


def account_pages(page: Page, server: LiveServer, currency: Currency, owner: Owner) -> None:
    """The lobby (each table in its currency; a wallet per currency, each read in its own) and
    the personal limit, typed in the currency of the table it is sent to."""
    host = server.app.state.server
    wallets = page.evaluate("fetch('/api/me').then((r) => r.json())")["wallets"]
    assert sorted(wallets) == sorted(c.code for c in CURRENCIES)
    page.goto(f"{server.http}/")
    for spec in host.specs.values():
        cash, limits = cash_of(spec.variant.currency), spec.variant.limits[spec.limits]
        row = page.locator(f'.table-row[data-table="{spec.id}"] .table-facts')
        expect(row).to_contain_text(f"ante {cash(limits.minimum)} to {cash(limits.maximum)}")
    for c in CURRENCIES:
        expect(page.locator(f'#who .wallet[data-currency="{c.code}"]')).to_contain_text(
            f"{c.code} {cash_of(c)(wallets[c.code])}"
        )
        expect(page.locator(f'.table-row[data-table="cyberstud-{c.code.lower()}-1"] .table-facts')).to_contain_text(
            c.code
        )
    shot(page, f"{currency.code}-lobby")
    me = account_of(page)
    page.goto(f"{server.http}/limit")
    expect(page.locator("#limit-table")).to_have_value(owner.spec.id)
    page.locator("#limit-amount").fill(TYPED[currency.code][0])
    page.get_by_role("button", name="Set the limit").click()
    expect(page.locator("#limit-message")).to_have_text(f"The limit is {hint(currency)}")
    assert host.book.limit(me)[0] is None  # nothing sent
    page.locator("#limit-amount").fill(TYPED[currency.code][3])
    page.get_by_role("button", name="Set the limit").click()
    limit = " or ".join(cash_of(c)(LIMIT) for c in CURRENCIES)
    expect(page.locator("#limit-message")).to_have_text(f"Your limit is now {limit}.")
    expect(page.get_by_test_id("limit-now")).to_have_text(
        f"Your ante is limited to {limit} (in each table's currency)."
    )
    assert host.book.limit(me)[0] == LIMIT
    shot(page, f"{currency.code}-limit")


@pytest.mark.parametrize("currency", CURRENCIES, ids=lambda c: c.code)
def test_every_page_writes_and_reads_money_in_the_currencys_own_unit(
    server: LiveServer, browser: Browser, currency: Currency
) -> None:
    owner = server.app.state.server.owners[f"cyberstud-{currency.code.lower()}-1"]
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(15_000)
    net = play_round(page, currency, owner, sit_typing(page, server, currency, owner))
    info_pages(page, server, currency, owner, net)
    account_pages(page, server, currency, owner)
    page.context.close()
