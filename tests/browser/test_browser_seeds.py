"""The player's own seed on the page (issue 46), in a real browser: the page adds one to every
round (the player's, when typed), the deal is the committed deck cut by it, the page's check (Web
Crypto) and the engine's give the same verdicts on a proof and on every tamper of it, and the
history page checks a round against the commitment this browser saw before the deal, saying so
when it saw none (issue 47)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import account_of, browser_settings, seat_at, sit
from hypothesis import given, settings
from hypothesis import strategies as st
from live_server import LiveServer
from playwright.sync_api import Browser, Page, expect

from caribbean_fast.cards import card_text, parse_cards
from caribbean_fast.engine.fairness import cut, verify
from caribbean_fast.words.views import view_to_json

TYPED = "my lucky seed"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(browser_settings(str(tmp_path_factory.mktemp("seeds") / "tables.db"))) as live:
        yield live


@pytest.fixture(scope="module")
def played(server: LiveServer, browser: Browser) -> Iterator[tuple[Page, dict[str, Any], str]]:
    """Game 4 played on the page with the player's own seed: the page, the settled view's JSON and
    the commitment the page showed before the deal."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(15_000)
    sit(page, server, "caribbean-poker")
    page.locator("#my-seed").fill(TYPED)
    page.locator("#spot-ante").click()
    expect(page.locator("#seed-note")).to_contain_text(TYPED.encode().hex())
    commitment = page.locator("#commitment").inner_text()
    page.locator("#b-deal").click()
    page.locator("#b-exchange").click()
    page.locator("#b-fold").click()
    expect(page.locator("#fairness .fair-ok")).to_contain_text("verified")
    owner, seat = seat_at(server, account_of(page))
    view = owner.t.view(seat)
    assert owner.t.state.round.order == cut(commitment, [(seat, TYPED.encode().hex())])
    yield page, view_to_json(view), commitment
    page.context.close()


def test_the_players_seed_cuts_the_deck_and_the_page_says_it_was_used(played: tuple[Page, Any, str]) -> None:
    page, view, commitment = played
    expect(page.locator("#fairness")).to_contain_text("your seed was used: yes")
    said = "1 seat seed cut the deck, each opening its seat's commitment: yes"
    expect(page.locator("#fairness")).to_contain_text(said)
    proof = view["proof"]
    assert [s["seed"] for s in proof["seeds"]] == [TYPED.encode().hex()]
    assert verify(commitment, proof, view["cards"], view["dealer"], view["board"], TYPED.encode().hex()) == []


def _flip(text: str, at: int) -> str:
    at %= len(text)
    return text[:at] + ("1" if text[at] == "0" else "0") + text[at + 1 :]


def _tampered(view: dict[str, Any], what: str, at: int) -> dict[str, Any]:
    bad = {**view, "proof": {**view["proof"]}}
    proof = bad["proof"]
    proof["seeds"] = [dict(s) for s in proof["seeds"]]
    proof["openings"] = [dict(o) for o in proof["openings"]]
    proof["leaves"] = list(proof["leaves"])
    opening = proof["openings"][at % len(proof["openings"])]
    if what == "seed":
        proof["seeds"][0]["seed"] = _flip(proof["seeds"][0]["seed"], at)
    elif what == "leaf":
        proof["leaves"][at % 52] = _flip(proof["leaves"][at % 52], at // 52)
    elif what == "salt":
        opening["salt"] = _flip(opening["salt"], at)
    elif what == "position":
        opening["position"] = (opening["position"] + 1 + at % 51) % 52
    elif what == "card":
        (card,) = parse_cards(opening["card"])
        opening["card"] = card_text((card + 1 + at % 51) % 52)
    return bad


@settings(max_examples=20, deadline=None)
@given(what=st.sampled_from(["none", "seed", "leaf", "salt", "position", "card"]), at=st.integers(0, 10**6))
def test_the_pages_check_and_the_engines_give_the_same_verdict(
    played: tuple[Page, Any, str], what: str, at: int
) -> None:
    page, view, commitment = played
    bad = _tampered(view, what, at)
    mine = TYPED.encode().hex()
    ok = page.evaluate(
        "async ([v, c, m]) => (await (await import('/static/js/fair.js')).verifyProof(v, c, m)).ok",
        [bad, commitment, mine],
    )
    engine = verify(commitment, bad["proof"], bad["cards"], bad["dealer"], bad["board"], mine) == []
    assert ok == engine == (what == "none")


@settings(max_examples=15, deadline=None)
@given(
    commitment=st.binary(min_size=32, max_size=32),
    seeds=st.lists(st.tuples(st.integers(0, 6), st.binary(max_size=64)), min_size=1, max_size=4),
)
def test_the_pages_cut_is_the_engines(played: tuple[Page, Any, str], commitment: bytes, seeds: list[Any]) -> None:
    page = played[0]
    given_seeds = [[seat, seed.hex()] for seat, seed in seeds]
    found = page.evaluate(
        "async ([c, s]) => (await import('/static/js/fair.js')).cutOf(c, s)", [commitment.hex(), given_seeds]
    )
    expected = cut(commitment.hex(), [(seat, seed) for seat, seed in given_seeds])
    assert tuple(found or ()) == expected  # null: no seed at all, the deck dealt as committed


def test_the_history_checks_against_the_commitment_this_browser_saw(
    server: LiveServer, played: tuple[Page, Any, str]
) -> None:
    page, view, _ = played
    owner, _ = seat_at(server, account_of(page))
    page.goto(f"{server.http}/history/{owner.spec.id}")
    article = page.locator(f'article.round[data-round="{view["round"]}"]')
    article.get_by_role("button", name="Check this round's fairness").click()
    expect(article.locator(".fair-result")).to_contain_text(f"Round {view['round']}: verified")
    expect(article.locator(".fair-result")).to_contain_text("your seed was used: yes")
    page.evaluate("localStorage.clear()")  # a browser that never saw the round before its deal
    page.reload()
    article = page.locator(f'article.round[data-round="{view["round"]}"]')
    article.get_by_role("button", name="Check this round's fairness").click()
    expect(article.locator(".fair-result")).to_contain_text(
        re.compile(f"Round {view['round']}: not verified: this browser did not see its commitment")
    )
