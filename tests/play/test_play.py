"""The terminal client driven headless by key presses through a round of every game; the trainer
against the par sheet; a recorded session restored; bad keys and refused actions on screen."""

from __future__ import annotations

import random
import re
from argparse import Namespace
from pathlib import Path

import pytest
from pilot import new_table, play
from tables import Clock, rig, stacked_deck

from caribbean_fast import analyze, load_variant
from caribbean_fast.analysis.advice import Advisor
from caribbean_fast.cli.play import open_table
from caribbean_fast.engine import Phase, SqliteStore
from caribbean_fast.play import PlaySession
from caribbean_fast.play.app import PlayApp
from caribbean_fast.play.render import chips
from caribbean_fast.settlement import Decision
from caribbean_fast.variants import Currency


def test_game1_keys_stake_progressive_deal_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc"], "Ac Kh 8s 5h Qs"))
    table = new_table("atlantic-city")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("shift+up", "down", "p")  # type: ignore[attr-defined]
        assert "stake 14.00 USD" in app.screen_text() and "progressive 1.00 USD" in app.screen_text()  # 5 + 10 - 1
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert "[9c] [9d] [2h] [5s] [Kc]" in app.screen_text() and "[##] [##] [##] [##] [Qs]" in app.screen_text()
        assert "[Ac]" not in app.screen_text()
        await pilot.press("enter")  # type: ignore[attr-defined]
        text = app.screen_text()
        assert "[Ac] [Kh] [8s] [5h] [Qs]" in text and "Pair of Nines, beats the dealer; net 41.00 USD" in text

    play(table, script)
    assert table.phase is Phase.SETTLED
    assert table.balance(0) == 100_000 + 1400 + 2 * 1400 - 100  # ante and raise win, progressive lost


def test_game2_repeat_and_clear_keys() -> None:
    table = new_table("cyberstud")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("0")  # type: ignore[attr-defined]
        assert "Not allowed: seat 1 has no last round to repeat" in app.message
        await pilot.press("up", "enter", "minus")  # type: ignore[attr-defined]
        await pilot.press("insert")  # type: ignore[attr-defined]
        assert table.state.seats[0].bets.ante == 200
        await pilot.press("full_stop")  # type: ignore[attr-defined]
        assert table.state.seats[0].bets.ante == 0 and app.message == "bets cleared"
        await pilot.press("z")  # type: ignore[attr-defined]
        assert "The key 'z' does nothing here" in app.screen_text()

    play(table, script)


def test_game3_other_seats_and_the_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc", "2c 7d 9h Jc As", "3c 4d 8h Qd Ks"], "Ac Kh 8s 5h Qs"))
    clock = Clock()
    table = new_table("network-24h", seats=3, clock=clock)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert "time left 20 s" in app.screen_text()
        text = app.screen_text()
        assert text.count("[##] [##] [##] [##] [##]   decided") == 2  # their cards and decisions hidden
        clock.advance(20)
        app.tick()
        assert "time ran out: Pair of Nines" in app.message

    play(table, script)
    assert table.state.seats[0].auto and table.state.seats[0].decision is Decision.RAISE


def test_game4_one_key_exchanges_the_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc 4s"], "Ac Kc 9d 5h 2s", rest="Ad Ah As 3d 8c"))
    table = new_table("caribbean-poker")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("shift+up", "down", "enter", "1")  # type: ignore[attr-defined]
        assert "The key '1' does nothing here" in app.message  # no picking: all five go
        await pilot.press("x")  # type: ignore[attr-defined]
        assert "[Ad] [Ah] [As] [3d] [8c]" in app.screen_text()
        await pilot.press("c")  # type: ignore[attr-defined]
        assert app.message == "Three of a kind, Aces, beats the dealer; net 60.00 USD (exchange fees 10.00 USD)"

    play(table, script)
    assert table.balance(0) == 100_000 + 1000 + 6000 - 1000


def test_game4_choose_example_picks_then_exchanges(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc As"], "Ac Kc 9d 5h 2s", rest="Ad Ah"))
    table = new_table("caribbean-poker-choose")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("shift+up", "down", "enter", "x")  # type: ignore[attr-defined]
        assert "Not allowed: pick the cards to exchange with 1-5 first" in app.message
        await pilot.press("1", "2", "x")  # type: ignore[attr-defined]
        assert "[Ad] [Ah] [9h] [Jc] [As]" in app.screen_text()
        await pilot.press("c")  # type: ignore[attr-defined]
        assert app.message == "Three of a kind, Aces, beats the dealer; net 60.00 USD (exchange fees 10.00 USD)"

    play(table, script)
    assert table.balance(0) == 100_000 + 1000 + 6000 - 1000


def test_game5_bonus_call_rebet_idle() -> None:
    clock = Clock()
    table = new_table("casino-holdem", clock=clock)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("b", "enter")  # type: ignore[attr-defined]
        assert "Board  [" in app.screen_text() and "[##] [##]" in app.screen_text()
        await pilot.press("c", "r")  # type: ignore[attr-defined]
        assert table.state.seats[0].bets.side("aa-bonus") == 100 and table.state.seats[0].bets.ante == 100
        balance = table.balance(0) + 200
        await pilot.press("t")  # type: ignore[attr-defined]
        assert "royal flush" in app.screen_text().lower()
        clock.advance(900)  # idle for the preset's 15 minutes: the round is void, the session ends
        app.tick()
        assert table.phase is Phase.CLOSED and table.balance(0) == balance
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert table.view(0).phase is Phase.SETTLED and "open again" in app.message

    play(table, script)


@pytest.mark.parametrize("name", ["cyberstud", "casino-holdem", "caribbean-poker"])
def test_trainer_advice_is_the_par_sheet_best(name: str) -> None:
    variant = load_variant(name)
    advisor, best = Advisor(variant), analyze(variant).table
    deals = random.Random(3)
    for i in range(300):
        cards = deals.sample(range(52), 6 if variant.family == "stud" else 5)
        hand, board = (cards[:5], cards[5:]) if variant.family == "stud" else (cards[:2], cards[2:])
        left = i % 4 if variant.exchanges else 0
        expected = "exchange" if best.exchange_from is not None and best.exchanges(hand, board, left) else None
        assert advisor.advise(hand, board, left).best == (expected or str(best.decide(hand, board)))


def test_trainer_advises_exchanges_with_their_value(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc 4s"], "Ac Kc 9d 5h 3s", rest="Ad Ah As 3d 8c"))
    table = new_table("caribbean-poker")
    advisor = Advisor(table.variant)
    plan = analyze(table.variant).exchanges
    assert plan is not None
    worth = plan.exchange_value(3, 1)  # against a 3 up card, three exchanges left

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert "Trainer: best is exchange: call" in app.screen_text()  # game 4 names its bet the Call
        assert f"exchange {float(worth):+.2f} antes" in app.screen_text()
        await pilot.press("minus", "q")  # type: ignore[attr-defined]

    app = play(table, script, advisor)
    assert app.return_value is not None and "1 mistakes in 1 decisions" in app.return_value
    assert f"fold where exchange is best (-{float(worth + 1):.2f} antes)" in app.return_value


def test_trainer_reports_mistakes(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc"], "Ac Kh 8s 5h Qs"))
    table = new_table("cyberstud")
    advisor = Advisor(table.variant)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        assert "Trainer: best is raise" in app.screen_text()
        await pilot.press("minus", "q")  # type: ignore[attr-defined]

    app = play(table, script, advisor)
    assert app.return_value is not None and "1 mistakes in 1 decisions" in app.return_value
    assert "9c 9d 2h 5s Kc against Qs: fold where raise is best" in app.return_value


def test_a_recorded_session_restores(tmp_path: Path) -> None:
    args = Namespace(variant="cyberstud", store=tmp_path / "me.db", seats=1, seed=3, balance=50.0, limits=None)
    table = open_table(args)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("up", "enter", "q")  # type: ignore[attr-defined]

    play(table, script)
    table.store.close()  # type: ignore[union-attr]
    again = open_table(args)
    assert again.phase is Phase.DECIDING and again.balance(0) == 5000 - 200
    assert again.view(0).cards == table.view(0).cards
    assert isinstance(again.store, SqliteStore)


def test_bets_are_shown_as_the_fewest_chips() -> None:
    usd, yen = Currency("USD", 100), Currency("JPY", 1)
    assert chips(1400, usd) == "(10) (1)x4"
    assert chips(12_345, usd) == "(100) (10)x2 (1)x3 (0.25) (0.1)x2"
    assert chips(50, usd) == "(0.5)"
    assert chips(7, yen) == "(5) (1)x2"  # a currency without minor units has no fractional chips


@pytest.mark.parametrize(
    ("name", "bet", "shown", "hidden"),
    [
        ("cyberstud", "raise", ["p progressive"], ["AA Bonus", "x exchange"]),
        ("caribbean-poker", "call", ["x exchange"], ["AA Bonus", "progressive", "1 pick"]),
        ("caribbean-poker-choose", "call", ["1 pick", "x exchange"], ["AA Bonus", "progressive"]),
        ("casino-holdem", "call", ["b AA Bonus"], ["progressive", "x exchange"]),
    ],
)
def test_the_footer_shows_this_games_keys(name: str, bet: str, shown: list[str], hidden: list[str]) -> None:
    """The keys in the game's own words: game 4 and hold'em call, the other stud games raise."""
    footer: list[str] = []

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.pause()  # type: ignore[attr-defined]
        text = re.sub(r"<[^>]*>", "", app.export_screenshot()).replace("&#160;", " ")
        footer.append(next(line for line in text.splitlines() if "q quit" in line))

    play(new_table(name), script)
    for key in [
        f"⏎ deal/{bet}",
        "- fold",
        "0 rebet",
        "del clear",
        f"c {bet}",
        "t paytable",
        "h history",
        "? help",
        *shown,
    ]:
        assert key in footer[0], key
    assert not any(key in footer[0] for key in hidden)


def test_a_crash_in_the_client_exits_non_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: a crash must not look like a session that ended well (exit status 0)."""
    from caribbean_fast.cli import main
    from caribbean_fast.play.app import PlayApp

    def crash(self: PlayApp) -> None:
        raise RuntimeError("a fault in drawing the table")

    run = PlayApp.run
    monkeypatch.setattr(PlayApp, "renderables", crash)
    monkeypatch.setattr(PlayApp, "run", lambda self: run(self, headless=True))
    assert main(["play", "cyberstud"]) == 1


def test_a_recorded_session_counts_every_round(tmp_path: Path) -> None:
    """The table keeps only its latest round in memory when it records to a store: the session's
    result reads the record, so every round and the money brought still count."""
    args = Namespace(variant="cyberstud", store=tmp_path / "me.db", seats=1, seed=3, balance=50.0, limits=None)
    session = PlaySession(open_table(args))
    for _ in range(3):
        session.enter()
        session.decide(Decision.FOLD)
    balance = session.table.balance(0)
    assert balance == 5000 - 3 * session.stake
    assert session.session_result() == (
        f"Session: 3 rounds played; balance {session._fmt(balance)}, "
        f"net {session._fmt(balance - 5000)} on the {session._fmt(5000)} brought"
    )
