"""The table engine on named deals: each game's flow, limits, the meter, time, faults and views."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tables import Clock, rig, stacked_deck

from caribbean_fast import IllegalActionError, InsufficientFundsError, load_variant
from caribbean_fast.cards import card_text
from caribbean_fast.engine import (
    MemoryAccountBook,
    MemoryStore,
    Phase,
    SecureSeeds,
    SeededSeeds,
    SqliteAccountBook,
    Table,
    audit,
    commitment,
    deck_from_seed,
    next_week_start,
    restore,
)
from caribbean_fast.engine.limits import EASTERN

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def table(name: str, balance: int = 100_000, **kw: object) -> Table:
    t = Table(load_variant(name), seed=1, clock=kw.pop("clock", Clock()), **kw)  # type: ignore[arg-type]
    for seat in range(t.seats):
        t.deposit(seat, balance)
    return t


def net(t: Table, seat: int) -> int:
    result = t.state.seats[seat].results
    assert result is not None
    return int(result["net"]["total"])


def test_game4_worked_examples(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 003: ante 10, call 20, a full house against a qualifying dealer wins 150; a royal 2010
    (dollars: amounts are in cents)."""
    rig(
        monkeypatch,
        stacked_deck(["Kh Kd Ks 4c 4d"], "Ac Kc 9d 5h 2s"),
        stacked_deck(["Ah Kh Qh Jh Th"], "Ac Kc 9d 5h 2s"),
    )
    t = table("caribbean-poker", balance=100_000)
    for expected in (15_000, 201_000):
        t.ante(0, 1000)
        t.deal()
        t.call(0)
        assert net(t, 0) == expected
    assert t.balance(0) == 100_000 + 15_000 + 201_000


def test_game4_exchange_gives_up_all_five_for_the_undealt_cards_and_a_fee(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc 4s"], "Ac Kc 9d 5h 2s", rest="Ad Ah As 3d 8c"))
    t = table("caribbean-poker", balance=10_000)
    t.ante(0, 1000)
    t.deal()
    t.exchange(0)
    assert t.view(0).cards == ("Ad", "Ah", "As", "3d", "8c")
    assert t.view(0).exchanges == 1
    assert t.balance(0) == 10_000 - 1000 - 1000  # the ante and one fee, not returned
    t.call(0)  # three aces beat the dealer's Ace-King: ante +10, call +60, the fee lost
    assert net(t, 0) == 1000 + 6000 - 1000
    assert t.balance(0) == 10_000 + 6000
    assert sorted(t.view(0).dealer) == sorted(["Ac", "Kc", "9d", "5h", "2s"])  # dealt before the exchange


def test_game4_an_exchange_names_all_five_cards_or_none(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc 4s"], "Ac Kc 9d 5h 2s", rest="Ad Ah As 3d 8c"))
    t = table("caribbean-poker", balance=10_000)
    t.ante(0, 1000)
    t.deal()
    before = len(t.events)
    with pytest.raises(IllegalActionError, match="gives up all five cards, not 2"):
        t.exchange(0, "2c 7d")
    assert len(t.events) == before and not t.can_exchange(0, "2c 7d")
    t.exchange(0, "2c 7d 9h Jc 4s")
    assert t.view(0).cards == ("Ad", "Ah", "As", "3d", "8c")


def test_game4_discarded_cards_are_out_of_play(monkeypatch: pytest.MonkeyPatch) -> None:
    first, second, third = "2c 7d 9h Jc 4s", "Ad Ah As 3d 8c", "Kd Kh 5c 6c Td"
    rig(monkeypatch, stacked_deck([first], "Ac Kc 9d 5h 2s", rest=f"{second} {third} Qs Qh 3h 3s 6h"))
    t = table("caribbean-poker", balance=100_000)
    t.ante(0, 1000)
    t.deal()
    seen = set(t.view(0).cards)
    for expected in (second, third, "Qs Qh 3h 3s 6h"):
        t.exchange(0)
        cards = t.view(0).cards
        assert cards == tuple(expected.split()) and not seen & set(cards)  # never a discarded card
        seen |= set(cards)
    with pytest.raises(IllegalActionError, match="at most 3 exchanges"):
        t.exchange(0)
    assert "exchange" not in t.actions(0)
    t.fold(0)  # the ante and three fees lost
    assert net(t, 0) == -4000 and t.balance(0) == 100_000 - 4000


def test_game4_exchange_only_while_the_balance_covers_the_fee_and_the_call() -> None:
    t = table("caribbean-poker", balance=5000)
    t.ante(0, 1000)
    t.deal()
    for _ in range(2):  # 40 left: each exchange needs its fee 10 and the call 20 still covered
        t.exchange(0)
    before = len(t.events)
    with pytest.raises(InsufficientFundsError, match="the fee and the call"):
        t.exchange(0)
    assert len(t.events) == before and t.balance(0) == 2000
    assert "exchange" not in t.actions(0) and "raise" in t.actions(0)
    t.call(0)
    assert t.balance(0) == 5000 + net(t, 0)


def test_game4_choose_example_exchanges_the_cards_picked(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2c 7d 9h Jc As"], "Ac Kc 9d 5h 2s", rest="Ad Ah"))
    t = table("caribbean-poker-choose", balance=10_000)
    t.ante(0, 1000)
    t.deal()
    with pytest.raises(IllegalActionError, match="choose 1 to 5 cards"):
        t.exchange(0)
    assert t.can_exchange(0)
    t.exchange(0, "2c 7d")
    assert t.view(0).cards == ("Ad", "Ah", "9h", "Jc", "As")
    t.call(0)
    assert net(t, 0) == 1000 + 6000 - 1000


def test_game1_third_of_the_balance_and_minimum() -> None:
    t = table("atlantic-city", balance=6000)
    t.ante(0, 300)  # below the 5.00 minimum: raised to it
    assert t.state.seats[0].bets.ante == 500
    with pytest.raises(InsufficientFundsError, match="1/3 of the balance"):
        t.ante(0, 30000)  # over a third of 60.00: refused, the 5.00 stands
    assert t.state.seats[0].bets.ante == 500
    t.ante(0, 2000)
    assert t.state.seats[0].bets.ante == 2000 and t.balance(0) == 4000


def test_game1_personal_limit_is_lowered_at_once_and_raised_once_a_week() -> None:
    friday_night = datetime(2026, 12, 4, 23, 59, tzinfo=EASTERN)
    clock = Clock(friday_night.astimezone(UTC))
    t = table("atlantic-city", clock=clock)
    t.set_limit(0, 1000)
    with pytest.raises(IllegalActionError, match="over the personal limit"):
        t.ante(0, 1500)
    clock.advance(90)  # Saturday 00:00:30 in New York: a new week
    t.set_limit(0, 2000)
    clock.advance(6 * 86400)
    t.ante(0, 1500)
    t.clear(0)
    t.set_limit(0, 500)  # lowering holds at once, whatever the week
    with pytest.raises(IllegalActionError, match="over the personal limit"):
        t.ante(0, 1000)
    t.set_limit(0, 400)  # and again
    for higher in (3000, 500, None):  # raising or removing waits for the week after the last change
        with pytest.raises(IllegalActionError, match="raised or removed at most once a week: next from Sat 2026-12-12"):
            t.set_limit(0, higher)
    assert t.personal_limit(0) == 400
    clock.advance(86400)  # Saturday 00:00:30 in New York
    t.set_limit(0, None)
    t.ante(0, 1500)


def test_the_week_turns_at_saturday_midnight_new_york_across_dst() -> None:
    # 2027-03-14 the US moves to EDT: the week start stays midnight local time
    turn = next_week_start(datetime(2027, 3, 10, 12, tzinfo=UTC))
    assert turn == datetime(2027, 3, 13, 5, tzinfo=UTC)  # EST: UTC-5
    assert next_week_start(turn) == datetime(2027, 3, 20, 4, tzinfo=UTC)  # EDT: UTC-4


def test_two_royals_share_the_meter(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["Ah Kh Qh Jh Th", "As Ks Qs Js Ts", "2c 3d 5h 7s 9c"], "Ac Kc 9d 5d 2s"))
    t = table("network-24h", seats=3)
    meter = t.meter
    for seat in range(3):
        t.ante(seat, 100)
        t.progressive(seat)
    t.deal()
    grown = meter + 3 * 10  # each 0.50 stake puts 0.10 into the meter
    assert t.meter == grown
    for seat in range(3):
        t.raise_(seat)
    paid = [t.state.seats[k].results["net"]["meter_paid"] for k in range(3)]  # type: ignore[index]
    assert paid == [grown // 2, grown // 2, 0]
    assert t.meter == load_variant("network-24h").progressive.reset  # type: ignore[union-attr]
    assert audit_ok(t)


def audit_ok(t: Table) -> bool:
    return t.store is None or audit(t.store).ok


def test_game3_progressive_box_stays_ticked() -> None:
    t = table("network-24h", seats=1)
    t.ante(0, 100)
    t.progressive(0)
    t.deal()
    t.fold(0)
    t.ante(0, 100)
    assert t.state.seats[0].bets.progressive == 50


def test_game3_timeout_raises_a_pair_and_folds_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc", "2c 7d 9h Jc As", "3c 4d 8h Qd Ks"], "Ac Kh 9s 5h 2s"))
    clock = Clock()
    t = table("network-24h", seats=3, clock=clock)
    for seat in range(3):
        t.ante(seat, 100)
    t.deal()
    t.fold(2)
    t.disconnect(1)  # high card: folds at once
    assert t.state.seats[1].decision == "fold" and t.state.seats[1].auto
    clock.advance(19)
    assert t.tick() == []
    clock.advance(1)
    t.tick()  # seat 0's 20 seconds are up: a pair raises
    assert t.state.seats[0].decision == "raise" and t.state.seats[0].auto
    assert t.phase is Phase.SETTLED


def test_bet_time_runs_out_deals_the_antes() -> None:
    clock = Clock()
    t = table("network-24h", seats=2, clock=clock)
    t.ante(0, 100)
    clock.advance(20)
    t.tick()
    assert t.phase is Phase.DECIDING and t.state.seats[0].dealt and not t.state.seats[1].dealt


def test_game5_fault_voids_and_refunds() -> None:
    t = table("casino-holdem", balance=10_000)
    t.ante(0, 500)
    t.side_bet(0, "aa-bonus", 100)
    t.deal()
    assert t.balance(0) == 9_400
    t.fault("dealing shoe error")
    assert t.balance(0) == 10_000 and t.phase is Phase.SETTLED and t.state.round.void


def test_game5_limits_adjust_down_and_rebet() -> None:
    t = table("casino-holdem", balance=100_000)
    t.ante(0, 20_000)
    t.side_bet(0, "aa-bonus", 9_000)
    assert t.state.seats[0].bets.ante == 10_000 and t.state.seats[0].bets.side("aa-bonus") == 5_000
    # the refusal names the bet by its title, never "aa-bonus"
    with pytest.raises(IllegalActionError, match=r"^the AA Bonus bet is 1\.00 EUR to 50\.00 EUR$"):
        t.side_bet(0, "aa-bonus", 50)
    t.deal()
    t.fold(0)
    t.rebet(0)
    assert t.state.seats[0].bets.ante == 10_000 and t.state.seats[0].bets.side("aa-bonus") == 5_000


def test_idle_session_ends_and_returns_the_bets_not_yet_dealt() -> None:
    clock = Clock()
    t = table("casino-holdem", balance=10_000, clock=clock)
    t.ante(0, 500)
    clock.advance(900)
    t.tick()
    assert t.phase is Phase.CLOSED and t.balance(0) == 10_000
    with pytest.raises(IllegalActionError, match="session has ended"):
        t.ante(0, 500)
    t.reopen()
    t.ante(0, 500)


def test_restore_keeps_a_dealt_one_seat_round_for_its_player() -> None:
    for name in ("cyberstud", "casino-holdem"):
        store = MemoryStore()
        t = table(name, balance=10_000, store=store)
        t.ante(0, 500)
        t.deal()
        again = restore(store)
        assert again.phase is Phase.DECIDING and again.balance(0) == 9_500
        assert again.view(0).cards == t.view(0).cards and again.view(0).result is None
        assert audit(store).ok


def test_views_and_reprs_hide_cards_until_the_showdown(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["9c 9d 2h 5s Kc", "2c 7d 9h Jc As"], "Ac Kh 8s 5h Qs"))
    t = table("network-24h", seats=2)
    t.ante(0, 100)
    t.ante(1, 100)
    events = t.deal()
    hidden = {"Ac", "Kh", "8s", "5h", "2c", "7d", "9h", "Jc", "As"}
    shown = set(CARD.findall(repr(t.view(0)))) | set(CARD.findall(repr(events)))
    assert shown & hidden == set() and {"9c", "Qs"} <= shown
    t.fold(0)
    t.fold(1)
    after = set(CARD.findall(repr(t.view(0))))
    assert {"Ac", "Kh", "8s", "5h"} <= after  # the dealer's, revealed
    assert after & {"2c", "7d", "9h", "Jc", "As"} == set()  # seat 1's: never (RULES.md, game 3)


def test_illegal_actions_change_nothing() -> None:
    t = table("cyberstud", balance=1000)
    cases: list[Callable[[], object]] = [
        lambda: t.raise_(0),
        lambda: t.deal(),
        lambda: t.ante(0, 2000),  # cannot cover it
        lambda: t.ante(0, -5),
        lambda: t.ante(3, 100),
        lambda: t.withdraw(0, 5000),
        lambda: t.side_bet(0, "aa-bonus", 100),
        lambda: t.exchange(0, "As"),
        lambda: t.rebet(0),
    ]
    for case in cases:
        before = (len(t.events), t.balance(0), t.phase)
        with pytest.raises(Exception) as err:
            case()
        assert isinstance(err.value, IllegalActionError | ValueError), err.value
        assert (len(t.events), t.balance(0), t.phase) == before


def test_history_recalls_a_seats_rounds() -> None:
    t = table("cyberstud")
    for _ in range(3):
        t.ante(0, 100)
        t.deal()
        t.fold(0)
    rounds = t.history(0, last=2)
    assert [r[0]["round"] for r in rounds] == [2, 3]
    assert [s["kind"] for s in rounds[-1]][-3:] == ["revealed", "settled", "round_closed"]
    assert "cards" in next(s for s in rounds[-1] if s["kind"] == "dealt" and s["seat"] == 0)


def test_anyone_can_rederive_the_deck_from_the_revealed_seed() -> None:
    t = table("network-24h", seats=2)
    t.ante(0, 100)
    t.ante(1, 100)
    opened = t.events[-4]
    assert opened.kind == "round_opened"
    t.deal()
    t.raise_(0)
    t.fold(1)
    shown = next(e for e in reversed(t.events) if e.kind == "revealed").public
    seed = bytes.fromhex(shown["seed"])
    assert commitment(seed) == opened.public["commitment"]
    deck = [card_text(c) for c in deck_from_seed(seed)]
    assert shown["seats"]["0"].split() == deck[0:15:3] and shown["dealer"].split() == deck[2:15:3]


def test_decks_are_permutations_and_unbiased() -> None:
    decks = [deck_from_seed(SeededSeeds(7)(n)) for n in range(13_000)]
    assert all(sorted(d) == list(range(52)) for d in decks[:100])
    first = Counter(d[0] for d in decks)
    chi2 = sum((first[c] - 250) ** 2 / 250 for c in range(52))
    assert chi2 < 90  # 51 degrees of freedom: p < 0.001 above 90
    assert len({SecureSeeds()(1) for _ in range(10)}) == 10


def test_progressive_flush_pays_its_fixed_prize(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, stacked_deck(["2h 7h 9h Jh Ah"], "Ac Kc 9d 5d 2s"))
    t = table("cyberstud", balance=10_000)
    meter, house = t.meter, t.house
    t.ante(0, 100)
    t.progressive(0)
    t.deal()
    t.fold(0)  # paid on a fold too
    assert net(t, 0) == -100 + 5000 - 100
    assert t.meter == meter + 25 and t.house == house + 100 + 75 - 5000


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_personal_limit_holds_for_every_game_on_the_account(kind: str, tmp_path: Path) -> None:
    book = MemoryAccountBook() if kind == "memory" else SqliteAccountBook(tmp_path / "accounts.db")
    clock = Clock(datetime(2026, 12, 2, 12, tzinfo=EASTERN).astimezone(UTC))
    store = MemoryStore()
    first = table("atlantic-city", clock=clock, book=book, accounts=["ann"])
    second = table("cyberstud", clock=clock, book=book, accounts=["ann"], store=store)
    first.set_limit(0, 1000)
    with pytest.raises(IllegalActionError, match=r"over the personal limit 10\.00 USD"):
        second.ante(0, 1500)
    with pytest.raises(IllegalActionError, match="once a week: next from Sat 2026-12-05"):
        second.set_limit(0, 2000)
    clock.advance(3 * 86400)  # Saturday noon in New York
    second.set_limit(0, 2000)
    second.ante(0, 1500)
    assert first.personal_limit(0) == 2000 and first.view(0).limit == 2000
    second.deal()
    second.fold(0)
    assert audit(store).ok  # the limit read from the book is part of the record
    again = restore(store, clock, book)
    assert again.accounts == ["ann"] and again.personal_limit(0) == 2000


def test_game4_two_seats_exchanging_three_times_never_share_a_card() -> None:
    t = Table(load_variant("caribbean-poker").replace(seats=2), seats=2, seed=9, clock=Clock())
    for seat in (0, 1):
        t.deposit(seat, 100_000)
        t.ante(seat, 1000)
    t.deal()
    seen = [c for seat in (0, 1) for c in t.view(seat).cards] + [t.view(0).dealer[-1]]
    for seat in (0, 1):
        for _ in range(3):
            t.exchange(seat)
            seen += t.view(seat).cards
        t.fold(seat)
    seen += t.view(0).dealer[:-1]
    assert len(seen) == 45 == len(set(seen))  # 15 dealt and 30 drawn: every one a different card
