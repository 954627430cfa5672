"""Rust and the reference agree on all 2,598,960 five-card hands: the same weak order, with the
same ties and the same comparisons; and both reproduce DESIGN.md's class counts."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from caribbean_fast import HandClass, evaluate_many
from caribbean_fast._core import class_of, strength_histogram_all
from caribbean_fast.reference import reference_key

pytestmark = pytest.mark.slow

FIVE_CARD_CLASSES = {
    HandClass.ROYAL_FLUSH: 4,
    HandClass.STRAIGHT_FLUSH: 36,
    HandClass.FOUR_OF_A_KIND: 624,
    HandClass.FULL_HOUSE: 3744,
    HandClass.FLUSH: 5108,
    HandClass.STRAIGHT: 10200,
    HandClass.THREE_OF_A_KIND: 54912,
    HandClass.TWO_PAIR: 123552,
    HandClass.ONE_PAIR: 1098240,
    HandClass.HIGH_CARD: 1302540,
}


def test_every_five_card_hand_orders_as_the_reference() -> None:
    hands = np.array(list(combinations(range(52), 5)), dtype=np.uint8)
    assert len(hands) == 2_598_960
    strengths = evaluate_many(hands).astype(np.int64)
    keys = np.fromiter((reference_key(h) for h in hands.tolist()), dtype=np.int64, count=len(hands))
    order = np.argsort(keys, kind="stable")
    k, s = keys[order], strengths[order]
    # Sorted by the reference, Rust's strengths rise exactly where the reference's keys do.
    assert np.array_equal(np.diff(k) > 0, np.diff(s) > 0)
    assert np.all(np.diff(s) >= 0)
    assert len(np.unique(s)) == len(np.unique(k)) == 7462
    classes = np.array([class_of(int(v)) for v in range(1, 7463)])[strengths - 1]
    assert {HandClass(c): int(n) for c, n in zip(*np.unique(classes, return_counts=True), strict=True)} == (
        FIVE_CARD_CLASSES
    )


def test_seven_card_walk_matches_design_counts() -> None:
    hist = strength_histogram_all(7)
    assert int(hist.sum()) == 133_784_560
    assert int(np.count_nonzero(hist)) == 4824
    by_class = np.zeros(11, dtype=np.int64)
    for strength in np.flatnonzero(hist):
        by_class[class_of(int(strength))] += int(hist[strength])
    assert by_class[HandClass.STRAIGHT_FLUSH] + by_class[HandClass.ROYAL_FLUSH] == 41_584
    assert by_class[HandClass.FOUR_OF_A_KIND] == 224_848
    assert by_class[HandClass.FULL_HOUSE] == 3_473_184
    assert by_class[HandClass.FLUSH] == 4_047_644
    assert by_class[HandClass.STRAIGHT] == 6_180_020
    assert by_class[HandClass.THREE_OF_A_KIND] == 6_461_620
    assert by_class[HandClass.TWO_PAIR] == 31_433_400
    assert by_class[HandClass.ONE_PAIR] == 58_627_800
    assert by_class[HandClass.HIGH_CARD] == 23_294_460
