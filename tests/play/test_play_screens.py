"""The terminal client at the sizes people use (120x40, 80x24), its outcome texts in the game's
words, the stake by chip values, a second table of limits, and quitting (issue 12)."""

from __future__ import annotations

import io
import re
from argparse import Namespace
from pathlib import Path

import pytest
from pilot import new_table, play
from rich.console import Console
from tables import Clock, rig, stacked_deck

from caribbean_fast import load_variant
from caribbean_fast.cli.play import open_table
from caribbean_fast.engine import StoreError
from caribbean_fast.play.app import PlayApp
from caribbean_fast.play.render import help_text


def screen(app: PlayApp) -> str:
    """What the terminal shows, as text."""
    return re.sub(r"<[^>]*>", "", app.export_screenshot()).replace("&#160;", " ").replace("&amp;", "&")


@pytest.mark.parametrize("size", [(120, 40), (80, 24)])
def test_every_size_shows_what_a_player_needs(size: tuple[int, int]) -> None:
    shown: list[str] = []

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        shown.append(screen(app))

    play(new_table("network-24h", seats=3), script, size=size)
    text = shown[0]
    for needed in ("(deciding)", "time left 20 s", "meter 25000.00 EUR", "balance", "stake 0.50 EUR"):
        assert needed in text, needed
    for key in ("⏎ deal/raise", "- fold", "↑↓ stake", "p progressive", "t paytable", "h history", "? help", "q quit"):
        assert key in text, key


def test_the_dealer_not_qualifying_is_never_a_loss(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc"], "Qc Jh 8s 5h 3s"))
    table = new_table("cyberstud")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter", "enter")  # type: ignore[attr-defined]
        assert app.message == "Pair of Nines, the dealer does not qualify; net 1.00 USD"
        text = app.screen_text()
        assert "High card, Queen high, does not qualify" in text and "lose" not in text

    play(table, script)


def test_a_fold_says_folded_and_holdem_says_call(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d"], "Ac Ad", board="Kh 9s 4c Jd 3h"))
    table = new_table("casino-holdem")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter", "minus")  # type: ignore[attr-defined]
        assert app.message.startswith("High card, King high, folded; net -1.00 EUR")
        await pilot.press("h")  # type: ignore[attr-defined]
        assert "seat 1 folds" in app.screen_text() and "Pair of Aces, qualifies" in app.screen_text()

    play(table, script)


def test_other_seats_show_that_they_decided_never_what(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc", "Ac Kd 9h Jc 8s", "3c 4d 8h Qd Ks"], "As Kh 8d 5c Qs"))
    table = new_table("network-24h", seats=3)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        text = app.screen_text()  # seat 2 raised A-K-J-9-8, seat 3 folded: RULES.md, game 3, hides which
        assert text.count("[##] [##] [##] [##] [##]   decided") == 2 and "raises" not in text and "folds" not in text
        await pilot.press("enter")  # type: ignore[attr-defined]
        text = app.screen_text()  # after the showdown too, nothing of the others' hands (RULES.md, game 3)
        assert "Seat 3  [##] [##] [##] [##] [##]   settled" in text  # seats count from 1 for people
        assert "Seat 2  [##] [##] [##] [##] [##]   settled" in text
        assert not {"3c", "4d", "Qd", "Ac", "Kd", "Jc"} & set(re.findall(r"\[(..)\]", text))

    play(table, script)


def test_a_void_round_is_said_to_be_void() -> None:
    clock = Clock()
    table = new_table("casino-holdem", clock=clock)

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter")  # type: ignore[attr-defined]
        clock.advance(86_400)  # a dealt round waits a day for its player, then Casino Hold'em voids it
        app.tick()
        assert app.message == (
            "time ran out: the round is void (the round waited for its player past its limit), every bet refunded"
        )

    play(table, script)


def test_help_lists_only_this_games_keys() -> None:
    for name, absent in (("cyberstud", ["exchange", "AA Bonus"]), ("casino-holdem", ["exchange", "progressive"])):
        console = Console(record=True, width=120, file=io.StringIO())
        console.print(help_text(load_variant(name)))
        text = console.export_text()
        assert "q" in text and all(word not in text for word in absent), (name, text)


def test_the_stake_moves_by_one_unit_of_the_currency() -> None:
    """The seed's keys: Up/Down change the bet by 1 (from game 3's minimum of 0.50 euro)."""
    seen: list[str] = []

    async def script(app: PlayApp, pilot: object) -> None:
        for _ in range(6):
            await pilot.press("up")  # type: ignore[attr-defined]
            seen.append(app.message)
        await pilot.press("down")  # type: ignore[attr-defined]
        seen.append(app.message)

    play(new_table("network-24h"), script)
    assert seen == [f"stake {s} EUR" for s in ("1.50", "2.50", "3.50", "4.50", "5.50", "6.50", "5.50")]


def test_q_in_a_dealt_round_asks_first_and_says_the_result() -> None:
    table = new_table("cyberstud")

    async def script(app: PlayApp, pilot: object) -> None:
        await pilot.press("enter", "q")  # type: ignore[attr-defined]
        assert "press q again to quit" in app.message and app.is_running
        await pilot.press("q")  # type: ignore[attr-defined]

    app = play(table, script)
    assert app.return_value == (
        "Session: 0 rounds played; balance 1000.00 USD, net 0.00 USD on the 1000.00 USD brought; "
        "round 1 left undecided, 1.00 USD on the table"
    )


def test_play_chooses_the_second_table_of_limits(tmp_path: Path) -> None:
    args = Namespace(variant="network-24h", store=tmp_path / "t.db", seats=None, seed=1, balance=None, limits=1)
    table = open_table(args)
    assert table.limits.minimum == 1000 and table.config["limits"] == 1
    assert table.store is not None
    table.store.close()
    with pytest.raises(StoreError, match=r"--limits 1 \(asked 0\)"):
        open_table(Namespace(**{**vars(args), "limits": 0}))
    with pytest.raises(Exception, match="limit tables 0 to 1, not 2"):
        open_table(Namespace(**{**vars(args), "store": None, "limits": 2}))
