"""Game 4 by a seat that sees its discards: it plays the table's first decision, parts from it only
after an exchange, and a paired run settles its difference exactly."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from caribbean_fast import _core
from caribbean_fast.analysis import analyze
from caribbean_fast.analysis.seen import main_nets, seen_values, settle_paired
from caribbean_fast.analysis.simulator import build_simulator
from caribbean_fast.errors import ArgumentError
from caribbean_fast.simulation import simulate, simulate_paired
from caribbean_fast.variants import load_variant

ROUNDS = 20_000


@pytest.fixture(scope="module")
def joint() -> np.ndarray:
    """Joint main cells of the same deals, the table's by row, sees-discards' by column."""
    v = load_variant("caribbean-poker")
    sheet = analyze(v)
    table = build_simulator(v, sheet.table, 1, "table", sheet.exchanges)
    seer = build_simulator(v, sheet.table, 1, "sees-discards", sheet.exchanges)
    return table.paired(seer, 3, 0, 1, ROUNDS)


def _made(cells: np.ndarray) -> np.ndarray:
    """Exchanges made in each main cell (class, exchanges, outcome)."""
    return cells // len(_core.SIM_OUTCOMES) % 4


def test_the_seat_parts_from_the_table_only_after_an_exchange(joint: np.ndarray) -> None:
    assert joint.shape == (len(main_nets(load_variant("caribbean-poker"), 4)),) * 2
    assert int(joint.sum()) == ROUNDS
    rows, cols = np.nonzero(joint)
    parted = rows != cols
    # Both saw no discard at the first decision and decided alike: a round that parts has
    # exchanged at least once both ways.
    assert parted.any()
    assert (_made(rows[parted]) >= 1).all() and (_made(cols[parted]) >= 1).all()
    # Every round the table ended without exchanging, the seat ended in the same cell.
    never = _made(np.arange(joint.shape[0])) == 0
    assert joint[never].sum() == np.trace(joint[np.ix_(never, never)])


def test_a_paired_run_settles_exactly(joint: np.ndarray) -> None:
    v = load_variant("caribbean-poker")
    r = settle_paired(v, joint, 4, 3, 1.0)
    nets = main_nets(v, 4)
    a = sum(int(joint[i, j]) * nets[i] for i, j in zip(*np.nonzero(joint), strict=True))
    b = sum(int(joint[i, j]) * nets[j] for i, j in zip(*np.nonzero(joint), strict=True))
    assert r.rounds == ROUNDS and r.mean_a == float(Fraction(a, ROUNDS)) and r.mean_b == float(Fraction(b, ROUNDS))
    assert r.difference == pytest.approx(r.mean_b - r.mean_a, abs=1e-15)
    assert 0 < r.parted < 0.1 and r.stderr > 0
    # The package's paired run of the same seed and rounds (one chunk) is this one.
    whole = simulate_paired(v, ROUNDS, seed=3)
    assert (whole.difference, whole.stderr, whole.parted) == (r.difference, r.stderr, r.parted)


def test_sees_discards_runs_and_needs_the_best_plan() -> None:
    v = load_variant("caribbean-poker")
    r = simulate(v, ROUNDS, seed=5, exchange="sees-discards")
    assert r.rounds == ROUNDS and len(r.exchanged) == 3 and r.exchanged[0] > 0.05
    exchange, raised, fold = seen_values(v, analyze(v).exchanges or pytest.fail("game 4 has a plan"))
    assert fold == -1 and len(exchange) == 3 and len(raised) == len(main_nets(v, 1)) // len(_core.SIM_OUTCOMES)
    with pytest.raises(ArgumentError, match="sees-discards plays the best strategy"):
        simulate(v, 1000, exchange="sees-discards", strategy=analyze(v).table)
    with pytest.raises(ArgumentError, match="a paired run sets an exchanging strategy against the table"):
        simulate_paired(v, 1000, exchange="never")
