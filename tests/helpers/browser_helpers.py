"""What the browser tests share: the server's tables for them (one of each game, game 3 with a
short decision timer), a server on a chosen port (to restart it where the page reconnects),
sitting down through the page, and amounts as the page writes them."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Protocol

from live_server import LiveServer, settings
from playwright.sync_api import Page, expect

from caribbean_fast.engine import state
from caribbean_fast.server import Settings
from caribbean_fast.server.tables.owner import Owner, TableSpec
from caribbean_fast.variants import PRESETS, load_variant

CHROMIUM = "/usr/bin/chromium"  # Debian's chromium package; Playwright downloads no browser
DECISION_SECONDS = 4.0  # game 3's decision timer in these tests (the preset's is 20 s)
SYMBOLS = {"USD": "$", "EUR": "\u20ac", "JPY": "\u00a5", "KWD": "KWD\u00a0"}


def browser_tables() -> list[TableSpec]:
    """Three tables of every game (each test's guest takes the first free seat)."""
    specs = []
    for name in PRESETS:
        variant = load_variant(name)
        if variant.timing.decision_seconds:
            variant = replace(variant, timing=replace(variant.timing, decision_seconds=DECISION_SECONDS))
        specs += [TableSpec(f"{name}-{k}", variant, variant.seats) for k in (1, 2, 3)]
    return specs


def browser_settings(database: str) -> Settings:
    """The grace period outlasts the decision timer, so a closed page's hand is decided by the timer."""
    return replace(settings(database), tables=browser_tables(), grace=30.0, tick=0.1)


class PortServer(LiveServer):
    """A live server on a given port (0: a free one), so a second one can take the first's place."""

    def __init__(self, config: Settings, port: int) -> None:
        super().__init__(config)
        self.sock.close()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.port = self.sock.getsockname()[1]


def money(amount: int, code: str, per_major: int = 100) -> str:
    """An amount in minor units as the page writes it (Intl.NumberFormat, English), every decimal
    of the currency: $1,234.50, \u00a51,250, KWD 12.500."""
    digits = len(str(per_major)) - 1
    major, minor = divmod(abs(amount), per_major)
    return f"{'-' if amount < 0 else ''}{SYMBOLS[code]}{major:,}" + (f".{minor:0{digits}d}" if digits else "")


def net_line(results: dict[str, Any], code: str) -> str:
    """The round's net as the page says it: "Won $5.00", "Lost $15.00 after $20.00 in exchange
    fees", "Push" when every bet pushed, and "Net $0.00: Ante +$10.00, exchange fees \u2212$10.00"
    when wins and losses come to nothing."""
    net, fees = int(results["net"]["total"]), abs(int(results["net"]["exchange_fees"]))
    moved = [b for b in results.get("bets", []) if b["net"]]

    def signed(amount: int) -> str:
        return f"+{money(amount, code)}" if amount >= 0 else f"\u2212{money(-amount, code)}"

    if not net and (moved or fees):
        parts = [f"{b['title']} {signed(b['net'])}" for b in moved]
        parts += [f"exchange fees {signed(-fees)}"] if fees else []
        return f"Net {money(0, code)}: {', '.join(parts)}"
    word = "Won" if net > 0 else "Lost" if net < 0 else "Push"
    text = f"{word} {money(abs(net), code)}" if net else word
    return f"{text} after {money(fees, code)} in exchange fees" if fees else text


class Served(Protocol):
    """Where the page is served: a live server, or a proxy in front of several."""

    @property
    def http(self) -> str: ...


def sit(page: Page, server: Served, game: str) -> int:
    """Opens /play/<game> as a new guest and sits down with the buy-in the page offers; returns it."""
    page.goto(f"{server.http}/play/{game}")
    page.get_by_role("button", name="Play as guest").click()
    expect(page.locator("#buy-in")).not_to_have_value("")
    buy_in = round(float(page.locator("#buy-in").input_value()) * 100)
    page.get_by_role("button", name="Sit down").click()
    expect(page.locator("#sit")).to_be_hidden()
    expect(page.locator("#balance")).not_to_have_text("\u2013")
    return buy_in


def account_of(page: Page) -> str:
    me = page.evaluate("fetch('/api/me').then((r) => r.json())")
    return str(me["account"])


def seat_at(server: LiveServer, account: str) -> tuple[Owner, int]:
    """The table and seat the account holds, from the server itself."""
    for owner in server.app.state.server.owners.values():
        seat = owner.seat_of(account)
        if seat is not None:
            return owner, seat
    raise AssertionError(f"{account} holds no seat")


@contextmanager
def house_deals(table: Any, seed: bytes) -> Iterator[None]:
    """The table's next rounds dealt from the house's `seed` as committed, whatever seed the page
    adds (which would cut the deck): for the tests that name a deal by the house's seed and do not
    read the page's fairness check (it would say "mismatch"). The table's own seeds after."""
    kept_cut: Callable[..., tuple[int, ...]] = getattr(state, "cut")  # noqa: B009 (not exported: the rig)
    kept_seeds = table._seeds
    setattr(state, "cut", lambda commitment, seeds: ())  # noqa: B010 (the tests' rig)
    table._seeds = lambda number: seed
    try:
        yield
    finally:
        setattr(state, "cut", kept_cut)  # noqa: B010
        table._seeds = kept_seeds
