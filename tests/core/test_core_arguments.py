"""No argument reaches a Rust panic: `_core` refuses what its pure Rust cannot take, with the
package's `ArgumentError` naming the argument."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from caribbean_fast import ArgumentError, _core, class_floor, evaluate
from caribbean_fast.hands import HandClass

AK = evaluate("Ac Kd 4h 3s 2c").strength
CLASS_CUTS = [class_floor(c) if c is not HandClass.ACE_KING else 0 for c in HandClass]
ROW = np.array([[0, 5, 10, 14, 48]], dtype=np.uint8)  # 2c 3d 4h 5h Ac, canonical against a 5c up card
UP = np.array([3], dtype=np.uint8)
RAISE = np.array([True])


def stud(**changes: Any) -> _core.Simulator:
    args: dict[str, Any] = {
        "seats": 1,
        "qualifier": AK,
        "first_cuts": [1],
        "class_cuts": CLASS_CUTS,
        "up_rank": UP,
        "hands": ROW,
        "raises": RAISE,
    }
    return _core.Simulator.stud(**{**args, **changes})


def test_a_well_formed_table_is_taken() -> None:
    sim = stud()
    assert sim.shape == [1, 1, len(HandClass), 1, len(_core.SIM_OUTCOMES)]
    assert stud(seats=_core.MAX_SEATS).shape[0] == _core.MAX_SEATS


BAD: dict[str, tuple[Callable[[], object], str]] = {
    "lengths disagree (up ranks)": (lambda: stud(up_rank=np.array([3, 4], dtype=np.uint8)), "up ranks"),
    "lengths disagree (decisions)": (lambda: stud(raises=np.array([True, False])), "decisions"),
    "not sorted": (lambda: stud(hands=np.array([[5, 0, 10, 14, 48]], dtype=np.uint8)), "row 0"),
    "not least under renaming": (lambda: stud(hands=np.array([[0, 6, 9, 13, 48]], dtype=np.uint8)), "row 0"),
    "holds the up card": (lambda: stud(up_rank=np.array([0], dtype=np.uint8)), "row 0"),
    "up rank": (lambda: stud(up_rank=np.array([13], dtype=np.uint8)), "up rank 13"),
    "card id": (lambda: stud(hands=np.array([[0, 5, 10, 14, 60]], dtype=np.uint8)), "row 0"),
    "row width": (lambda: stud(hands=np.zeros((1, 4), dtype=np.uint8)), r"\(n, 5\)"),
    "no seats": (lambda: stud(seats=0), "seats"),
    "too many seats": (lambda: stud(seats=_core.MAX_SEATS + 1), "seats"),
    "empty cuts": (lambda: stud(first_cuts=[]), "first_cuts"),
    "oversized cuts": (lambda: stud(first_cuts=list(range(1, 300))), "first_cuts"),
    "cuts not rising": (lambda: stud(first_cuts=[1, 50, 20]), "first_cuts"),
    "cut beyond the strengths": (lambda: stud(first_cuts=[1, 9000]), "first_cuts"),
    "a class cut short": (lambda: stud(class_cuts=CLASS_CUTS[:-1]), "class_cuts"),
    "qualifier": (lambda: stud(qualifier=0), "qualifier"),
    "exchanges": (lambda: stud(exchange=("nothing", AK, _core.MAX_EXCHANGES + 1)), "exchange"),
    "keep rule": (lambda: stud(exchange=("psychic", AK, 3)), "keep rule"),
    "neither decisions": (lambda: stud(up_rank=None, hands=None, raises=None), "threshold"),
    "hold'em row": (
        lambda: _core.Simulator.holdem(
            AK, [1], CLASS_CUTS, cards=np.array([[0, 4, 9, 13, 17]], dtype=np.uint8), calls=RAISE
        ),
        "row 0",
    ),
    "chunks beyond the run": (lambda: stud().run(1, 0, 5, 10), "chunks"),
    "chunks backwards": (lambda: stud().run(1, 1, 0, 10), "chunks"),
    "session nets": (lambda: stud().sessions(1, 0, 10, 10, [0.0], 10.0, 3.0), "nets"),
    "session money": (
        lambda: stud().sessions(1, 0, 10, 10, [0.0] * 55, float("nan"), 3.0),
        "finite",
    ),
    "sessions of several seats": (
        lambda: stud(seats=2).sessions(1, 0, 10, 10, [0.0] * 110, 10.0, 3.0),
        "one seat",
    ),
    "strength": (lambda: _core.class_of(7463), "strength"),
    "histogram size": (lambda: _core.strength_histogram_all(6), "size"),
    "exact qualifier": (lambda: _core.stud_situations(0), "qualifier"),
    "evaluate width": (lambda: _core.evaluate_many(np.zeros((1, 4), dtype=np.uint8)), "5 to 7"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_arguments_raise_the_package_error(case: str) -> None:
    call, message = BAD[case]
    with pytest.raises(ArgumentError, match=message):
        call()
