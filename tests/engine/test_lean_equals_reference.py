"""The engine's lean paths against the reference they stand for, over random command sequences on
a table of every game (the table machine's rules): after every step, every seat's `actions` are
those the commands' own checks allow (`Table.reference_actions`); every seat's and an onlooker's
view, with the table's cache of the round, is the view worked out afresh from the state; every
event the table wrote is the event its fields make (`Event.made` against `Event(...)`) and reads
back from its JSON; and each settled event's bets are the results the settlement gives its
outcome settled again (an earlier edition's path, `results.bet_results`), so no view settles; every
pay the table remembers is what the settlement gives its key afresh, and each settled event's net
is what `settle_money` gives the seat's whole outcome and stakes."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, rule, run_state_machine_as_test
from test_table_machine import TableMachine

from caribbean_fast.engine import Event
from caribbean_fast.engine.events import _body, canonical_json, event_from_json, event_to_json
from caribbean_fast.engine.results import bet_results
from caribbean_fast.engine.showdown import _net, paid
from caribbean_fast.engine.state import Bets
from caribbean_fast.engine.views import OtherSeat, SeatView, ViewCache, seat_view
from caribbean_fast.hands import HandClass
from caribbean_fast.settlement import Decision, Outcome, Showdown, Stakes, settle_money

pytestmark = pytest.mark.slow

GAMES = ["atlantic-city", "cyberstud", "network-24h", "caribbean-poker", "casino-holdem"]


class LeanMachine(TableMachine):
    @rule(data=st.data(), antes=st.integers(0, 5))
    def leave_little(self, data: st.DataObject, antes: int) -> None:
        """Withdraws all but a few antes' worth, where the wallet's limits decide the actions."""
        seat = self.seat(data)
        left = antes * self.table.limits.minimum + data.draw(st.sampled_from([0, 1, -1]))
        self.attempt(lambda: self.table.withdraw(seat, self.table.balance(seat) - left))

    @invariant()
    def actions_are_the_checks(self) -> None:
        if not hasattr(self, "table"):
            return
        for k in range(self.table.seats):
            assert self.table.actions(k) == self.table.reference_actions(k), (k, self.table.phase)

    @invariant()
    def views_are_worked_out_afresh(self) -> None:
        if not hasattr(self, "table"):
            return
        t = self.table
        for k in [None, *range(t.seats)]:
            actions = () if k is None else t.reference_actions(k)
            limit = None if k is None else t.personal_limit(k)
            most = None if k is None else t.ante_most(k, limit)
            fresh = seat_view(
                t.state, t.variant, k, actions, limit, ViewCache(), k is not None and t.seeds_open(), most
            )
            shown = t.view(k)
            assert shown == fresh, k
            for made, kind in ((shown, SeatView), *((o, OtherSeat) for o in shown.others), (shown.bets, Bets)):
                fields = {f.name: getattr(made, f.name) for f in dataclasses.fields(kind)}
                assert made == kind(**fields) and set(fields) <= set(vars(made)), kind

    @invariant()
    def events_are_their_fields(self) -> None:
        if not hasattr(self, "table"):
            return
        row = self.store.rows()[-1]  # the last command's, as the store keeps it
        made = [e for e in self.table.events if e.seq >= row.events[0].seq]
        if len(made) == len(row.events):  # (memory lets a row's command go where it opened a round)
            assert (
                row.text == "[" + ",".join(canonical_json(_body(e) | {"time": e.time.isoformat()}) for e in made) + "]"
            )
        for e in self.table.events[-12:]:
            fields = {f.name: getattr(e, f.name) for f in dataclasses.fields(Event)}
            assert vars(e) == fields and e == Event(**fields)
            assert event_from_json(event_to_json(e)) == e
            assert event_to_json(e) == canonical_json(_body(e) | {"time": e.time.isoformat()})  # the standard library's
            if e.kind == "settled":
                again = {k: v for k, v in e.public.items() if k != "bets"}  # as an earlier edition wrote it
                staked = self.table.state.seats[e.seat or 0].staked.to_dict()
                v = self.table.variant
                assert bet_results(v, again, staked) == bet_results(v, dict(e.public), staked)
                if not staked["progressive"]:  # the meter as the round found it is not in the record
                    stakes = Stakes(staked["ante"], staked["side_bets"])
                    assert _net(settle_money(v, _outcome(e.public["outcome"]), stakes)) == e.public["net"]

    @invariant()
    def remembered_pays_are_paid_afresh(self) -> None:
        if not hasattr(self, "table"):
            return
        for key, was in self.table._pays.items():
            assert paid(self.table.variant, key) == was, key


def _outcome(o: dict[str, Any]) -> Outcome:
    """A settled event's outcome, as the settlement takes it."""
    hand_class = HandClass[str(o["hand_class"]).upper()]
    showdown, qualifies = Showdown(o["showdown"]), bool(o["dealer_qualifies"])
    return Outcome(Decision(o["decision"]), hand_class, qualifies, showdown, int(o["exchanges"]), o["first_five"])


@pytest.mark.parametrize("name", GAMES)
def test_lean_paths_equal_the_reference(name: str) -> None:
    machine: type[LeanMachine] = type(f"Lean_{name}", (LeanMachine,), {"name": name})
    run_state_machine_as_test(machine, settings=settings(max_examples=25, stateful_step_count=50, deadline=None))
