"""A past round's proof (`history.round_proof`), made again from the round's recorded seed and deal,
is the proof the seat's view gave once the round was over, and it verifies."""

from __future__ import annotations

import pytest

from caribbean_fast import load_variant
from caribbean_fast.engine import Table
from caribbean_fast.engine.fairness import verify
from caribbean_fast.engine.history import round_proof


def _round(t: Table) -> list:  # type: ignore[type-arg]
    events = list(t.events)
    start = max(k for k, e in enumerate(events) if e.kind == "round_opened")
    return events[start:]


@pytest.mark.parametrize("seed", range(4))
def test_two_seats_with_exchanges_each_get_their_views_proof(seed: int) -> None:
    variant = load_variant("caribbean-poker").replace(seats=2)
    t = Table(variant, seats=2, seed=seed)
    for k in range(2):
        t.sit(k, f"p{k}", 100_000)
        t.ante(k, 1_000)
    t.deal()
    t.exchange(0)
    t.exchange(1)
    t.raise_(0)
    t.fold(1)
    for k in range(2):
        view = t.view(k)
        made = round_proof(_round(t), k, variant)
        assert made is not None
        assert made["proof"] == view.proof
        assert made["commitment"] == view.commitment
        assert (made["cards"], made["dealer"], made["board"]) == (list(view.cards), list(view.dealer), list(view.board))
        assert verify(made["commitment"], made["proof"], made["cards"], made["dealer"], made["board"]) == []
        assert "seed" not in made["proof"]  # two seats were dealt: the seed stays in the record


@pytest.mark.parametrize("decision", ["raise", "fold"])
def test_a_lone_seat_gets_the_seed_as_its_view_did(decision: str) -> None:
    variant = load_variant("casino-holdem")
    t = Table(variant, seats=1, seed=11)
    t.sit(0, "p0", 100_000)
    t.ante(0, 500)
    t.deal()
    t.raise_(0) if decision == "raise" else t.fold(0)
    view = t.view(0)
    made = round_proof(_round(t), 0, variant)
    assert made is not None and made["proof"] == view.proof and "seed" in made["proof"]
    assert made["board"] == list(view.board) and made["dealer"] == list(view.dealer)


def test_no_proof_for_a_seat_not_dealt_or_a_round_not_over() -> None:
    variant = load_variant("network-24h")
    t = Table(variant, seats=2, seed=5)
    t.sit(0, "p0", 100_000)
    t.ante(0, 100)
    t.deal()
    assert round_proof(_round(t), 1, variant) is None  # not dealt
    assert round_proof(_round(t), 0, variant) is None  # still deciding
