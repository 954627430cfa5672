"""Random legal and illegal actions through a table of every game (a hypothesis state machine).

After every step: the ledger reconciles, and no seat's view (nor any event's repr) shows a card it
should not. An action that raises changes nothing. Every settled round moves exactly what
`settle_money` says its outcome is worth into each wallet, the outcome being worked out here from
the revealed cards; a void round moves nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test
from tables import Clock

from caribbean_fast import CaribbeanFastError, Decision, Outcome, Showdown, Stakes, evaluate, settle_money
from caribbean_fast.engine import Event, MemoryStore, Phase, Table, restore
from caribbean_fast.engine.fairness import seed_commitment
from caribbean_fast.variants import Family, Variant, load_variant

pytestmark = pytest.mark.slow

CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
SEATS = {"network-24h": 3}


def _strength(cards: str | list[Any]) -> int:
    return evaluate(cards).strength


def expected_outcome(v: Variant, round_events: list[Event], seat: int) -> Outcome:
    """The outcome of `seat`'s round from the cards and decisions in its events alone."""
    shown = next(e for e in round_events if e.kind == "revealed").public
    dealt = next(e for e in round_events if e.kind == "dealt" and e.seat == seat).private["cards"]
    decision = next(e for e in round_events if e.kind == "decided" and e.seat == seat).public["decision"]
    exchanges = sum(1 for e in round_events if e.kind == "exchanged" and e.seat == seat)
    final, board, dealer = shown["seats"][str(seat)], shown["board"], shown["dealer"]
    if v.family is Family.HOLDEM:
        mine, first, theirs = f"{final} {board}", [*dealt, *_ids(board)[:3]], f"{dealer} {board}"
    else:
        mine, first, theirs = final, dealt, dealer
    first_five = _strength(first)
    if decision == "fold":
        return Outcome(Decision.FOLD, v.classify(_strength(mine)), exchanges=exchanges, first_five=first_five)
    m, d = _strength(mine), _strength(theirs)
    showdown = Showdown.WIN if m > d else Showdown.PUSH if m == d else Showdown.LOSE
    return Outcome(Decision.RAISE, v.classify(m), v.qualifier.admits(d), showdown, exchanges, first_five)


def _ids(text: str) -> list[int]:
    from caribbean_fast.cards import parse_cards

    return parse_cards(text)


class TableMachine(RuleBasedStateMachine):
    name = "cyberstud"

    @initialize(seed=st.integers(0, 2**32))
    def open_table(self, seed: int) -> None:
        self.variant = load_variant(self.name)
        self.clock, self.store = Clock(), MemoryStore()
        self.table = Table(self.variant, seats=SEATS.get(self.name, 1), seed=seed, clock=self.clock, store=self.store)
        lim = self.table.limits
        self.amounts = [1, lim.minimum - 1, lim.minimum, 2 * lim.minimum, lim.maximum, lim.maximum + 1, 10**9]
        self.checked = self.table.seq
        self.seeds: dict[int, str] = {}  # each seat's last committed seed
        for k in range(self.table.seats):
            self.table.deposit(k, 50 * lim.maximum)

    def attempt(self, action: Any) -> None:
        before = (self.table.seq, dict(self.table.state.ledger.balances), self.table.phase)
        try:
            action()
        except CaribbeanFastError:
            after = (self.table.seq, dict(self.table.state.ledger.balances), self.table.phase)
            assert after == before, "a refused action changed the table"
        self.check_new_rounds()

    def seat(self, data: st.DataObject) -> int:
        return data.draw(st.integers(0, self.table.seats - 1))

    @rule(data=st.data(), amount=st.integers(-5, 10**7))
    def deposit(self, data: st.DataObject, amount: int) -> None:
        self.attempt(lambda: self.table.deposit(self.seat(data), amount))

    @rule(data=st.data(), amount=st.integers(1, 10**6))
    def withdraw(self, data: st.DataObject, amount: int) -> None:
        self.attempt(lambda: self.table.withdraw(self.seat(data), amount))

    @rule(data=st.data())
    def ante(self, data: st.DataObject) -> None:
        self.attempt(lambda: self.table.ante(self.seat(data), data.draw(st.sampled_from(self.amounts))))

    @rule(data=st.data(), on=st.booleans())
    def progressive(self, data: st.DataObject, on: bool) -> None:
        self.attempt(lambda: self.table.progressive(self.seat(data), on))

    @rule(data=st.data())
    def side_bet(self, data: st.DataObject) -> None:
        self.attempt(
            lambda: self.table.side_bet(self.seat(data), "aa-bonus", data.draw(st.sampled_from([0, *self.amounts])))
        )

    @rule(data=st.data(), kind=st.sampled_from(["clear", "rebet", "fold", "raise_", "disconnect"]))
    def seat_action(self, data: st.DataObject, kind: str) -> None:
        self.attempt(lambda: getattr(self.table, kind)(self.seat(data)))

    @rule(data=st.data(), seed=st.binary(min_size=1, max_size=4))
    def commit_seed(self, data: st.DataObject, seed: bytes) -> None:
        seat = self.seat(data)
        self.attempt(lambda: self.table.commit_seed(seat, seed_commitment(seed.hex())))
        if self.table.state.round.committed.get(seat) == seed_commitment(seed.hex()):  # taken
            self.seeds[seat] = seed.hex()

    @rule(data=st.data(), honest=st.booleans())
    def reveal_seed(self, data: st.DataObject, honest: bool) -> None:
        seat = self.seat(data)
        self.attempt(lambda: self.table.reveal_seed(seat, self.seeds.get(seat, "00") if honest else "ff"))

    @rule()
    def deal(self) -> None:
        self.attempt(self.table.deal)

    def next_step(self, data: st.DataObject) -> None:
        """The action that moves the round on (bet, deal, decide), so that rounds get settled."""
        t = self.table
        if t.phase is Phase.DECIDING:
            seat = data.draw(st.sampled_from(t.undecided()))
            choice = data.draw(st.sampled_from(["raise_", "fold", "exchange"]))
            if choice == "exchange" and data.draw(st.booleans()):
                self.attempt(lambda: t.exchange(seat))  # game 4: all five cards
            elif choice == "exchange":
                cards = t.view(seat).cards
                self.attempt(
                    lambda: t.exchange(seat, data.draw(st.lists(st.sampled_from(cards), min_size=1, unique=True)))
                )
            else:
                self.attempt(lambda: getattr(t, choice)(seat))
        elif t.can_deal() and data.draw(st.booleans()):
            self.attempt(t.deal)
        else:
            self.attempt(lambda: t.ante(self.seat(data), data.draw(st.sampled_from(self.amounts[2:5]))))

    @rule(data=st.data())
    def play_on(self, data: st.DataObject) -> None:
        self.next_step(data)

    @rule(data=st.data())
    def play_on_again(self, data: st.DataObject) -> None:
        self.next_step(data)

    @rule(data=st.data(), picks=st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True))
    def exchange(self, data: st.DataObject, picks: list[int]) -> None:
        seat = self.seat(data)
        cards = self.table.view(seat).cards
        mine = bool(cards) and data.draw(st.booleans())
        chosen: list[str | int] = [cards[i % len(cards)] for i in picks] if mine else list(picks)
        self.attempt(lambda: self.table.exchange(seat, list(dict.fromkeys(chosen))))

    @rule(seconds=st.sampled_from([1, 19, 20, 600, 900]))
    def time_passes(self, seconds: int) -> None:
        self.clock.advance(seconds)
        self.attempt(self.table.tick)

    @rule()
    def fault(self) -> None:
        self.attempt(lambda: self.table.fault("test fault"))

    @rule()
    def reopen(self) -> None:
        self.attempt(self.table.reopen)

    @rule(data=st.data(), days=st.sampled_from([0, 1, 7]))
    def personal_limit(self, data: st.DataObject, days: int) -> None:
        self.clock.advance(days * 86400)
        self.attempt(lambda: self.table.set_limit(self.seat(data), data.draw(st.sampled_from([None, *self.amounts]))))

    @rule()
    def crash_and_restore(self) -> None:
        self.check_new_rounds()
        before = self.table.seq
        self.table = restore(self.store, self.clock)
        assert [e.kind for e in self.table.recorded()[before:]][:1] == ["restore"]  # the record was whole
        self.check_new_rounds()  # a round the restore voided is checked like any other

    def check_new_rounds(self) -> None:
        events = self.table.recorded()  # the store's: memory holds only the latest round
        for i in range(self.checked, len(events)):
            if events[i].kind == "round_closed":
                start = max(j for j in range(i + 1) if events[j].kind == "round_opened")
                self.check_round(events[start : i + 1])
        self.checked = _last_open(events)

    def check_round(self, round_events: list[Event]) -> None:
        flows: dict[int, int] = {}
        for e in round_events:
            for source, target, amount in e.transfers:
                for account, sign in ((source, -1), (target, 1)):
                    if account.startswith("wallet:") and e.kind != "funds":
                        k = int(account.split(":")[1])
                        flows[k] = flows.get(k, 0) + sign * amount
        if round_events[-1].public["void"]:
            assert all(v == 0 for v in flows.values()), flows
            return
        for e in round_events:
            if e.kind != "settled":
                continue
            outcome = expected_outcome(self.variant, round_events, e.seat or 0)
            bets = next(x for x in round_events if x.kind == "decided" and x.seat == e.seat).public["bets"]
            stakes = Stakes(bets["ante"], bets["side_bets"], progressive=bets["progressive"] > 0)
            paid = settle_money(self.variant, outcome, stakes, meter=0)
            assert e.public["net"]["total"] - e.public["net"]["meter_paid"] == paid.total
            assert flows.get(e.seat or 0, 0) == e.public["net"]["total"]

    @invariant()
    def reconciles(self) -> None:
        if hasattr(self, "table"):
            self.table.state.ledger.reconcile()
            assert all(v >= 0 for k, v in self.table.state.ledger.balances.items() if k != "house")

    @invariant()
    def views_hide_cards(self) -> None:
        if not hasattr(self, "table") or self.table.phase is not Phase.DECIDING:
            return
        state = self.table.state
        hidden_dealer = set(
            _texts(state.round.dealer[:-1] if self.variant.family is Family.STUD else state.round.dealer)
        )
        hidden_dealer |= set(_texts(state.round.board[3:]))
        for k in range(self.table.seats):
            others = {c for j, s in enumerate(state.seats) if j != k for c in _texts(s.cards)}
            shown = set(CARD.findall(repr(self.table.view(k))))
            assert not shown & (hidden_dealer | others)
        this_round = self.table.events[_last_open(self.table.events) :]
        assert not set(CARD.findall(repr(this_round))) & hidden_dealer


def _texts(cards: list[int]) -> list[str]:
    from caribbean_fast.cards import card_text

    return [card_text(c) for c in cards]


def _last_open(events: list[Event]) -> int:
    """Where the check resumes: the last round opened and not yet checked."""
    opened = [i for i, e in enumerate(events) if e.kind == "round_opened"]
    closed = [i for i, e in enumerate(events) if e.kind == "round_closed"]
    if opened and (not closed or opened[-1] > closed[-1]):
        return opened[-1]
    return len(events)


@pytest.mark.parametrize("name", ["atlantic-city", "cyberstud", "network-24h", "caribbean-poker", "casino-holdem"])
def test_random_actions(name: str) -> None:
    machine: type[TableMachine] = type(f"Machine_{name}", (TableMachine,), {"name": name})
    run_state_machine_as_test(machine, settings=settings(max_examples=30, stateful_step_count=60, deadline=None))
