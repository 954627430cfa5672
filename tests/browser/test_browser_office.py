"""The operator's office in a real browser (Playwright, Debian's Chromium): the login with its
second factor, each screen (disputes, a round, players, a player, the office's log, figures,
reports), an export and the reports downloaded, an answer recorded, and an auditor's page that
offers no action. Each asserts on what the page shows against the server's own data (its record,
its wallets, its log)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from live_server import Client, LiveServer, query, recorded, settings
from office_helpers import PASSWORD, add_operator, code
from playwright.sync_api import Browser, Page, expect

from caribbean_fast.server.office.paytables import figures
from caribbean_fast.variants import load_variant

SCREENS = os.environ.get("CF_SCREENS")  # a folder: the tests save the office's screenshots there
TABLE = "cyberstud-1"
BUSY, BUSY_ROUNDS = "casino-holdem-1", 160  # a table with rounds enough for its chart's points (every 50)
ANALYSES = 300_000  # ms: a process's first figures wait for its games' exact analyses (an empty cache here)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path_factory.mktemp("office") / "tables.db"), rate=10_000.0)) as live:
        c = Client(live.ws, live.guest())
        c.ok("sit", table=TABLE, buy_in=10_000)
        for k in range(4):
            c.ok("ante", table=TABLE, amount=100 * (k + 1))
            c.ok("deal", table=TABLE)
            c.ok("raise" if k % 2 else "fold", table=TABLE)
        c.close()
        busy = Client(live.ws, live.guest())
        busy.ok("sit", table=BUSY, buy_in=100_000)
        for k in range(BUSY_ROUNDS):
            busy.ok("ante", table=BUSY, amount=100 * (1 + k % 3))
            busy.ok("deal", table=BUSY)
            busy.ok("call" if k % 4 else "fold", table=BUSY)
        busy.close()
        yield live


def shot(page: Page, name: str) -> None:
    if SCREENS:
        page.screenshot(path=str(Path(SCREENS) / f"office-{name}.png"), full_page=True)


def logged_in(browser: Browser, server: LiveServer, role: str = "operator") -> Page:
    name, secret = add_operator(server.settings.database, role)
    page = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.http}/office/")
    expect(page).to_have_url(f"{server.http}/office/login")
    page.get_by_label("Operator").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Code from the authenticator app").fill(code(secret))
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{server.http}/office/rounds")
    expect(page.locator("#who")).to_contain_text(name)
    return page


def test_the_login_asks_the_second_factor(server: LiveServer, browser: Browser) -> None:
    name, _ = add_operator(server.settings.database, "operator")
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{server.http}/office/login")
    shot(page, "login")
    page.get_by_label("Operator").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Code from the authenticator app").fill("000000")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#error")).to_have_text("the name, the password or the code is wrong")
    expect(page).to_have_url(f"{server.http}/office/login")


def test_disputes_lists_the_tables_rounds(server: LiveServer, browser: Browser) -> None:
    page = logged_in(browser, server)
    numbers = sorted({e.round for e in recorded(server.settings.database, TABLE) if e.kind == "round_closed"})
    page.get_by_label("Table").select_option(TABLE)
    page.get_by_role("button", name="Find").click()
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(len(numbers))
    expect(rows.first.locator("td").first).to_have_text(f"{TABLE}:{numbers[-1]}")
    expect(page.get_by_role("link", name="Disputes")).to_have_attribute("aria-current", "page")
    shot(page, "disputes")


def test_a_round_replays_proves_and_exports(server: LiveServer, browser: Browser, tmp_path: Path) -> None:
    page = logged_in(browser, server)
    page.goto(f"{server.http}/office/round/{TABLE}/2")
    every = recorded(server.settings.database, TABLE)
    after, close = (next(e.seq for e in every if e.kind == "round_closed" and e.round == r) for r in (1, 2))
    events = [e for e in every if after < e.seq <= close]  # round 2's place: from round 1's close
    expect(page.locator("#replay")).to_have_text("same result")
    expect(page.locator("#chain")).to_have_text("chain holds")
    expect(page.locator("#events tbody tr")).to_have_count(len(events))
    expect(page.locator("#proofs .proof[data-seat='0'] .badge")).to_have_text("verifies in this page")
    settled = next(e for e in events if e.kind == "settled")
    expect(page.locator("#events tbody tr").filter(has_text="settled")).to_contain_text(
        json.dumps(settled.public["net"]["total"])
    )
    shot(page, "round")
    page.locator("#export select").select_option("0")
    page.locator("#export input").fill("the player asked for round 2")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export JSON").click()
    path = tmp_path / "round.json"
    download.value.save_as(path)
    file = json.loads(path.read_text())
    assert (file["id"], file["for"], file["replay"]["same"]) == (f"{TABLE}:2", "seat 0", True)
    assert [e["seq"] for e in file["events"]] == [e.seq for e in events if not e.hidden_from(0)]
    page.locator("#answer textarea").fill("the round paid as its paytable says")
    page.get_by_role("button", name="Record the answer").click()
    expect(page.locator("#answered")).to_be_visible()
    actions = [json.loads(b)["action"] for (b,) in query(server.settings.database, "SELECT body FROM office_log")]
    assert actions.count("export") >= 1 and actions.count("answer_dispute") >= 1


def test_players_shows_an_accounts_wallets_and_rounds(server: LiveServer, browser: Browser) -> None:
    page = logged_in(browser, server)
    ((account,),) = query(server.settings.database, "SELECT account FROM holds WHERE table_id = ?", (TABLE,))
    page.get_by_role("link", name="Players").click()
    page.get_by_label("Account name starts with").fill(account[:8])
    page.get_by_role("button", name="Find").click()
    page.get_by_role("link", name=account).click()
    expect(page.get_by_role("heading", name=f"Player {account}")).to_be_visible()
    wallets = query(
        server.settings.database, "SELECT currency, amount FROM wallets WHERE account = ? ORDER BY currency", (account,)
    )
    expect(page.locator("#wallets tbody tr")).to_have_count(len(wallets))
    played = {e.round for e in recorded(server.settings.database, TABLE) if e.kind == "dealt" and e.seat == 0}
    expect(page.locator("#rounds tbody tr")).to_have_count(len(played))
    shot(page, "player")
    page.goto(f"{server.http}/office/players?q=guest")
    shot(page, "players")


def test_the_log_shows_its_chain(server: LiveServer, browser: Browser) -> None:
    page = logged_in(browser, server)
    page.get_by_role("link", name="Office log").click()
    total = len(query(server.settings.database, "SELECT seq FROM office_log"))
    expect(page.locator("#chain")).to_have_text("chain holds")
    expect(page.locator("#entries tbody tr")).to_have_count(min(total, 200))
    expect(page.locator("#entries tbody tr").first).to_contain_text("login")
    shot(page, "log")


def _closed(server: LiveServer, table: str) -> int:
    return sum(e.kind == "round_closed" for e in recorded(server.settings.database, table))


def test_figures_show_each_table_against_its_theoretical_with_its_chart(server: LiveServer, browser: Browser) -> None:
    page = logged_in(browser, server)
    page.get_by_role("link", name="Figures").click()
    heading = page.get_by_role("heading", name="Figures: actual against theoretical")
    expect(heading).to_be_visible(timeout=ANALYSES)
    rows = page.locator("#tables tbody tr")
    expect(rows).to_have_count(len(server.settings.tables))  # a row per table, played or not
    for table in (TABLE, BUSY):
        row = rows.filter(has=page.locator("td", has_text=re.compile(f"^{table}$")))
        expect(row.locator("td").nth(2)).to_have_text(str(_closed(server, table)))
    chart = page.locator(f"#charts figure[data-table='{BUSY}'] svg")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)  # the theoretical and the running hold
    expect(chart.locator("polygon")).to_have_count(2)  # the 99% and 99.9% bands
    assert chart.bounding_box()["width"] > 400  # type: ignore[index]
    expect(page.locator("#alarms")).to_be_visible()
    expect(page.locator("#notes")).to_contain_text("break-even meter")  # cyberstud's progressive
    expect(page.locator("#games tbody tr")).to_have_count(2)  # the two games played
    shot(page, "figures")


def test_reports_show_the_day_and_download_csv_and_xlsx(server: LiveServer, browser: Browser, tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    page = logged_in(browser, server, role="auditor")  # an auditor may read and download reports
    page.get_by_role("link", name="Reports").click()
    expect(page.get_by_role("heading", name="Reports")).to_be_visible(timeout=ANALYSES)
    lines = page.locator("#days tbody tr")
    expect(lines).to_have_count(2)  # today, the two tables played
    expect(lines.filter(has_text=BUSY).locator("td").nth(3)).to_have_text(str(_closed(server, BUSY)))
    page.get_by_label("Why").fill("the day's figures for the auditor")
    files = {}
    for kind in ("csv", "xlsx"):
        with page.expect_download() as download:
            page.get_by_role("button", name=f"Download {kind.upper()}").click()
        files[kind] = tmp_path / download.value.suggested_filename
        download.value.save_as(files[kind])
        expect(page.locator("#downloaded")).to_contain_text(f".{kind}")
    rows = list(csv.reader(io.StringIO(files["csv"].read_text())))
    days = openpyxl.load_workbook(files["xlsx"])["Days"]
    book = [[c.value for c in r] for r in days.iter_rows()]
    assert len(book) == 3 and rows[0] == book[0]  # the header and the two lines
    for text, cells in zip(rows[1:3], book[1:], strict=True):  # the same numbers in both (a float's digits aside)
        for t, c in zip(text, cells, strict=True):
            assert (float(t) == pytest.approx(c, rel=1e-12)) if isinstance(c, int | float) else (t == c), (t, c)
    assert int(next(r for r in book if r[2] == BUSY)[4]) == _closed(server, BUSY)
    actions = [json.loads(b)["action"] for (b,) in query(server.settings.database, "SELECT body FROM office_log")]
    assert actions.count("export_report") >= 2
    shot(page, "reports")


def test_an_auditor_is_offered_no_action(server: LiveServer, browser: Browser) -> None:
    page = logged_in(browser, server, role="auditor")
    page.goto(f"{server.http}/office/round/{TABLE}/1")
    expect(page.locator(".role")).to_have_text("auditor")
    expect(page.get_by_role("button", name="Record the answer")).to_be_disabled()
    expect(page.get_by_text("An auditor reads only: answers are an operator's.")).to_be_visible()
    page.get_by_role("button", name="Log out").click()
    expect(page).to_have_url(f"{server.http}/office/login")
    page.goto(f"{server.http}/office/rounds")
    expect(page).to_have_url(f"{server.http}/office/login")


def test_a_paytable_is_proposed_shown_and_approved_by_another(server: LiveServer, browser: Browser) -> None:
    first = logged_in(browser, server)
    first.get_by_role("link", name="Paytables").click()
    first.locator("select[name=game]").select_option("cyberstud")
    first.locator("select[name=source]").select_option("preset")
    first.locator("select[name=preset]").select_option("atlantic-city")
    first.get_by_label("New variant name").fill("cyberstud-ac")
    first.locator("#propose").get_by_label("Why").fill("the royal flush pays 200")
    first.get_by_role("button", name="Analyse and propose").click()
    change = first.locator("section.change").first
    analysis = 180_000  # ms: the proposal waits for two exact analyses
    expect(change.get_by_role("heading")).to_contain_text("cyberstud → cyberstud-ac", timeout=analysis)
    proposed = figures(replace(load_variant("atlantic-city"), name="cyberstud-ac"))
    row = change.locator("tr", has_text="Return per amount wagered")
    expect(row).to_contain_text(proposed["rtp"])
    expect(change.locator("tr", has_text="royal flush")).to_contain_text("200")
    expect(change.get_by_role("button", name="Approve")).to_be_disabled()  # not by its proposer
    second = logged_in(browser, server)
    second.goto(f"{server.http}/office/paytables")
    change = second.locator("section.change").first
    expect(change.get_by_role("button", name="Approve")).to_be_enabled()
    shot(second, "paytables")
    change.get_by_label("Why").fill("checked the par sheet")
    change.get_by_role("button", name="Approve").click()
    expect(second.locator("section.change").first.locator(".badge")).to_have_text(re.compile("approved by olga-"))
