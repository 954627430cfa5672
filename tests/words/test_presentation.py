"""One presentation of a variant (words/rules.py) for every client: the bet's word agrees
across the page's rules JSON, the terminal's screen and the trainer's report; the paytable rows
carry every column the variant pays; labels, card layout, chips and stakes come from it; and the
page's scripts keep no limit, chip value, label or card count of their own (issue 32)."""

from __future__ import annotations

import io
import re
from fractions import Fraction
from importlib.resources import files
from pathlib import Path

import pytest
from pilot import new_table, play
from rich.console import Console

from caribbean_fast.cards import parse_cards
from caribbean_fast.engine.results import bet_results
from caribbean_fast.hands import HandClass, evaluate
from caribbean_fast.play import PlaySession
from caribbean_fast.play.app import PlayApp
from caribbean_fast.play.keys import Mistake
from caribbean_fast.server.rules import rules_json
from caribbean_fast.settlement import Decision, Outcome, Showdown, Stakes, settle_money
from caribbean_fast.variants import BetLimits, Currency, list_variants, load_variant
from caribbean_fast.variants.shape import bet_title
from caribbean_fast.words.describe import render_variant
from caribbean_fast.words.history import describe_step
from caribbean_fast.words.rules import (
    chip_values,
    paytable_columns,
    qualifier_words,
    rules_document,
    stake_step,
    stake_unit,
    suggested_buy_in,
    summary,
)

WORDS = {
    "atlantic-city": "raise",
    "cyberstud": "raise",
    "network-24h": "raise",
    "caribbean-poker": "call",  # seed 003 names it the Call
    "casino-holdem": "call",
}


def _text(renderable: object) -> str:
    console = Console(record=True, width=200, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("name", list_variants())
def test_the_bets_word_agrees_in_the_page_the_terminal_and_the_trainer(name: str) -> None:
    word = WORDS[name]
    variant = load_variant(name)
    rules = rules_json(f"{name}-1", variant, 0)  # what GET /api/rules/<table> sends the page
    assert rules["bet"] == word and rules["words"]["bet"] == word
    assert rules["words"]["decisions"] == {"raise": word, "fold": "fold", "exchange": "exchange"}
    assert rules["words"]["title"] == word.capitalize() and word.capitalize() in rules["rule_line"]
    assert rules["paytable_columns"][2]["title"].startswith(word.capitalize())
    assert variant.raise_word == word

    shown: list[str] = []

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        shown.append(app.screen_text())

    play(new_table(name), script)
    screen = shown[0]
    assert f"dealt: {word} (Enter), fold (-)" in screen
    assert f"deal/{word}" in screen and f"c {word}" in screen
    assert f"{word} -" in screen  # the bet spot, empty until the seat decides
    other = {"raise": "call", "call": "raise"}[word]
    assert f"deal/{other}" not in screen and f"dealt: {other}" not in screen

    session = PlaySession(new_table(name))
    session.trainer = True
    session.mistakes.append(Mistake(1, "2c 3d 5h 8s Jc", "Kd", "fold", "raise", Fraction(1, 10)))
    session.mistakes.append(Mistake(2, "Ac Ad 5h 8s Jc", "Kd", "raise", "fold", Fraction(1, 10)))
    report = session.report()
    assert f"fold where {word} is best" in report and f"{word} where fold is best" in report

    decided = {"kind": "decided", "seat": 0, "decision": "raise", "auto": False}
    assert describe_step(decided, variant) == f"seat 1 {word}s"  # seats in words count from 1
    bets = {"kind": "bets", "seat": 0, "bets": {"ante": 100, "raise": 200, "side_bets": {}, "progressive": 0}}
    assert f"{word} 2.00" in (describe_step(bets, variant) or "")
    assert f" {word} " in summary(variant) and f"{word.capitalize()}" in _text(render_variant(variant))


def test_the_ante_paid_when_the_dealer_does_not_qualify_is_in_every_paytable() -> None:
    base = load_variant("cyberstud")
    pays = {c: Fraction(2) for c in base.classes}
    variant = base.replace(ante_paytable_no_qualify=pays)
    keys = [c.key for c in paytable_columns(variant)]
    assert keys == ["hand", "ante", "raise", "ante_no_qualify"]
    rules = rules_json("t", variant, 0)
    assert [c["key"] for c in rules["paytable_columns"]] == keys
    assert all(row["ante_no_qualify"] == "2 to 1" for row in rules["paytable"])
    assert "Ante, dealer does not qualify" in _text(render_variant(variant))
    # Only the columns a game has: games 1, 2, 4 and 5 pay nothing apart when the dealer does not
    # qualify; game 3 pays its raise by a table of its own then.
    assert [c.key for c in paytable_columns(base)] == ["hand", "ante", "raise"]
    game3 = rules_json("t", load_variant("network-24h"), 0)
    full_house = next(row for row in game3["paytable"] if row["hand"] == HandClass.FULL_HOUSE.label)
    assert full_house["raise_no_qualify"] == "3 to 1"


def test_labels_in_words() -> None:
    assert bet_title("aa-bonus") == "AA Bonus"
    assert qualifier_words(load_variant("atlantic-city")) == "Ace-King or better"
    assert qualifier_words(load_variant("casino-holdem")) == "a pair of fours or better"
    assert qualifier_words(load_variant("network-24h-literal")) == "K 5 4 3 2 or better"  # written as ranks
    holdem = rules_document("t", load_variant("casino-holdem"))
    assert holdem["side_bets"][0]["title"] == "AA Bonus"
    assert [t["hand"] for t in holdem["side_bets"][0]["tiers"]] == ["Flush", "A pair of aces"]
    assert holdem["rule_line"] == "Dealer qualifies with a pair of fours · Call 2\u00d7 ante"


def test_the_card_layout_of_each_family() -> None:
    stud, holdem = load_variant("cyberstud").layout, load_variant("casino-holdem").layout
    assert (stud.hand, stud.dealer, stud.dealer_up, stud.board, stud.hidden_first) == (5, 5, 1, 0, True)
    assert (holdem.hand, holdem.dealer, holdem.dealer_up, holdem.board, holdem.flop) == (2, 2, 0, 5, 3)
    assert rules_document("t", load_variant("casino-holdem"))["layout"]["board"] == 5


def test_the_terminal_draws_the_dealers_hidden_cards_from_the_layout() -> None:
    shown: list[str] = []

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        shown.append(app.screen_text())

    play(new_table("cyberstud"), script)
    play(new_table("casino-holdem"), script)
    stud, holdem = (next(line for line in text.splitlines() if line.startswith("Dealer")) for text in shown)
    assert re.match(r"Dealer  (\[##\] ){4}\[\w\w\]", stud)  # four backs, then the up card
    assert re.match(r"Dealer  (\[##\] ){2}\s+Board  (\[\w\w\] ){3}", holdem)


def test_chips_and_stakes_come_from_the_presentation() -> None:
    usd = Currency("USD", 100)
    assert chip_values(usd, BetLimits(100, 10_000)) == [100, 500, 1000, 2500, 10_000]
    assert chip_values(Currency("EUR", 100), BetLimits(50, 1000)) == [50, 100, 500, 1000]
    assert chip_values(usd, BetLimits(7, 8)) == [7]  # no chip fits: the minimum alone
    limits = BetLimits(500, 30_000)
    assert stake_unit(usd) == 100 and stake_unit(Currency("JPY", 1)) == 1  # the seed's "by 1"
    assert stake_step(500, 100, limits, 1) == 600 and stake_step(500, 100, limits, 10) == 1500
    assert stake_step(600, 100, limits, -10) == 500 and stake_step(29_950, 100, limits, 1) == 30_000  # the limits
    for name in list_variants():
        variant = load_variant(name)
        lim = variant.limits[0]
        rules = rules_document("t", variant)
        offer = rules["stakes"]["buy_in"]
        assert offer >= 20 * (lim.minimum + lim.minimum * variant.raise_multiple)  # twenty minimum rounds
        assert suggested_buy_in(variant, lim, wallet=offer - 1) == offer - 1  # the wallet caps it
        assert rules["stakes"]["default"] == lim.minimum and rules["limits"]["minimum"] == lim.minimum
        assert rules["stakes"]["chips"] == chip_values(variant.currency, lim)
        assert variant.bet_words.bet == WORDS[name]


STATIC = Path(str(files("caribbean_fast.server") / "static" / "js"))
PAGE = ["table.js", "cards.js", "panels.js", "trainer.js"]
"""The page's scripts that draw the game (fair.js checks the deck and is another's to change)."""


def _code(name: str) -> str:
    """A script without its comments: what it does, not what it says."""
    text = (STATIC / name).read_text()
    return re.sub(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", "", text, flags=re.S)


@pytest.mark.parametrize("name", PAGE)
def test_the_page_keeps_no_rule_of_its_own(name: str) -> None:
    code = _code(name)
    assert not re.search(r"\[\s*0?\.5\s*,\s*1\s*,\s*5", code), "a list of chip values"
    for words in ("aa-bonus", "AA Bonus", '"holdem"', "'holdem'", "family", "minimum: 100", "maximum: 10000"):
        assert words not in code, words
    assert "chipValues" not in code and '.split(" (")' not in code
    assert not re.search(r'===\s*"call"|\?\s*"Call"\s*:\s*"Raise"', code), "a bet word decided in the page"
    if name == "table.js":
        assert not re.search(r"\b5\s*-\s*v\.(dealer|board)", code), "a card count"
        assert not re.search(r"\?\s*2\s*:", code), "a card count"
        assert "|| 100" not in code and "Math.max(1," not in code, "a guessed limit"


def test_the_page_reads_what_it_shows_from_the_rules() -> None:
    code = _code("table.js")
    for read in ("rules.layout", "rules.stakes.chips", "rules.stakes.buy_in", "rules.stakes.default", "rule_line"):
        assert read in code, read
    assert "paytable_columns" in _code("panels.js")


def test_the_remote_terminal_guesses_no_limits() -> None:
    """The terminal at a server takes its limits and stakes from the rules (no guessed limits)."""
    code = (Path(str(files("caribbean_fast.play"))) / "remote.py").read_text()
    assert "10**12" not in code and 'rules["stakes"]' in code


def _settled(name: str, outcome: Outcome, stakes: Stakes) -> dict[str, object]:
    """A seat's settled result as the engine writes it (`SeatSettlement.public`)."""
    m = settle_money(load_variant(name), outcome, stakes)
    net = {"ante": m.ante, "raise": m.raise_, "exchange_fees": m.exchange_fees, "side_bets": dict(m.side_bets)}
    o = {
        "decision": str(outcome.decision),
        "hand_class": outcome.hand_class.name.lower(),
        "dealer_qualifies": outcome.dealer_qualifies,
        "showdown": str(outcome.showdown),
        "exchanges": outcome.exchanges,
        "first_five": outcome.first_five,
    }
    return {"outcome": o, "net": net | {"progressive": m.progressive, "total": m.total}}


def test_each_bet_spot_has_its_own_result_and_odds() -> None:
    """Seed 003's worked example: ante 10, call 20, a full house against a qualifying dealer wins
    10 on the ante (1 to 1) and 140 on the call (7 to 1); a losing progressive is lost apart."""
    full = Outcome(Decision.RAISE, HandClass.FULL_HOUSE, True, Showdown.WIN, 0, 0)
    result = _settled("caribbean-poker", full, Stakes(10))
    staked = {"ante": 10, "raise": 20, "side_bets": {}, "progressive": False}
    assert bet_results(load_variant("caribbean-poker"), result, staked) == [
        {"spot": "ante", "title": "Ante", "stake": 10, "net": 10, "result": "won", "pays": "1 to 1"},
        {"spot": "raise", "title": "Call", "stake": 20, "net": 140, "result": "won", "pays": "7 to 1"},
    ]
    # Hold'em: a fold loses the ante and the AA Bonus; the bonus is named in words, never "aa-bonus"
    hand = evaluate(parse_cards("As Ad 7c 8d 2h")).strength
    fold = Outcome(Decision.FOLD, HandClass.ONE_PAIR, True, Showdown.LOSE, 0, hand)
    result = _settled("casino-holdem", fold, Stakes(100, {"aa-bonus": 100}))
    staked = {"ante": 100, "raise": 0, "side_bets": {"aa-bonus": 100}, "progressive": False}
    spots = bet_results(load_variant("casino-holdem"), result, staked)
    assert [(s["title"], s["result"], s["net"]) for s in spots] == [("Ante", "lost", -100), ("AA Bonus", "lost", -100)]
    # Game 3, the dealer does not qualify: the ante wins 1 to 1, the raise pushes, the progressive loses
    flush = evaluate(parse_cards("2h 5h 9h Jh Kh")).strength
    noq = Outcome(Decision.RAISE, HandClass.FLUSH, False, Showdown.WIN, 0, flush)
    result = _settled("network-24h", noq, Stakes(50, progressive=True))
    staked = {"ante": 50, "raise": 100, "side_bets": {}, "progressive": True}
    spots = bet_results(load_variant("network-24h"), result, staked)
    assert [(s["spot"], s["result"], s["net"], s["pays"]) for s in spots] == [
        ("ante", "won", 50, "1 to 1"),
        ("raise", "push", 0, None),
        ("progressive", "won", 1500 - 50, None),
    ]
