"""`Table.actions` against its definition: an action is listed exactly when the command, run with
its usual arguments, would be taken. The definition runs each command for real on a copy of the
table (the oracle); `actions` only runs the commands' checks. Random command sequences on a table
of every game (the table machine's rules) compare the two for every seat after every step."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest
from hypothesis import settings
from hypothesis.stateful import invariant, run_state_machine_as_test
from tables import Clock
from test_table_machine import TableMachine

from caribbean_fast import CaribbeanFastError
from caribbean_fast.engine import Phase, Table
from caribbean_fast.variants import ExchangeCards, load_variant

pytestmark = pytest.mark.slow

ACTIONS = ("reveal_seed", "ante", "progressive", "rebet", "clear", "deal", "raise", "fold", "exchange")


def detached(table: Table) -> Table:
    """A copy of the table to run a command on: its own state, no store, no events (a command's
    rules read only the state)."""
    twin = copy.copy(table)
    twin.state, twin.events, twin.store = copy.deepcopy(table.state), [], None
    return twin


def usual_command(table: Table, seat: int, action: str, seed: str) -> Callable[[], list[object]]:
    """The command `action` stands for in `actions`, with its usual arguments (`seed`: the one the
    seat committed to)."""
    s = table.state.seats[seat]
    ante = s.bets.ante or (s.last_bets.ante if s.last_bets else table.limits.minimum)
    x = table.variant.exchanges
    first_card = s.cards[:1] if x is not None and x.cards is ExchangeCards.CHOOSE else None
    commands: dict[str, Callable[[], list[object]]] = {
        "reveal_seed": lambda: list(table.reveal_seed(seat, seed)),
        "ante": lambda: list(table.ante(seat, ante)),
        "progressive": lambda: list(table.progressive(seat)),
        "rebet": lambda: list(table.rebet(seat)),
        "clear": lambda: list(table.clear(seat)),
        "deal": lambda: list(table.deal()),
        "raise": lambda: list(table.raise_(seat)),
        "fold": lambda: list(table.fold(seat)),
        "exchange": lambda: list(table.exchange(seat, first_card)),
    }
    return commands[action]


def taken(table: Table, seat: int, action: str, seed: str) -> bool:
    """Whether the command is taken (it emits events) when run on a copy of the table."""
    twin = detached(table)
    try:
        return bool(usual_command(twin, seat, action, seed)())
    except CaribbeanFastError:
        return False


class ActionsMachine(TableMachine):
    @invariant()
    def actions_are_the_commands_taken(self) -> None:
        if not hasattr(self, "table"):
            return
        for seat in range(self.table.seats):
            before = (self.table.seq, self.table.state.ledger.balances.copy(), self.table.phase)
            seed = self.seeds.get(seat, "00")
            expected = [action for action in ACTIONS if taken(self.table, seat, action, seed)]
            assert self.table.actions(seat) == expected, (seat, self.table.phase)
            assert (self.table.seq, self.table.state.ledger.balances, self.table.phase) == before


@pytest.mark.parametrize("name", ["atlantic-city", "cyberstud", "network-24h", "caribbean-poker", "casino-holdem"])
def test_actions_are_the_commands_a_table_takes(name: str) -> None:
    machine: type[ActionsMachine] = type(f"Actions_{name}", (ActionsMachine,), {"name": name})
    run_state_machine_as_test(machine, settings=settings(max_examples=20, stateful_step_count=50, deadline=None))


def test_a_closed_session_lists_no_action() -> None:
    """Game 5's idle rule ends the session: nothing but `reopen` is taken until it opens again."""
    clock = Clock()
    t = Table(load_variant("casino-holdem"), seed=3, clock=clock)
    t.deposit(0, 10_000)
    t.ante(0, t.limits.minimum)
    assert t.actions(0) == ["ante", "clear", "deal"]
    clock.advance(900)
    t.tick()
    assert t.phase is Phase.CLOSED and t.actions(0) == []
    t.reopen()
    assert t.actions(0) == ["ante"]  # the voided round was never dealt: nothing to rebet
