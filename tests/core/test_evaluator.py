"""The Rust evaluator through the Python API, held to the pure-Python reference."""

from __future__ import annotations

import tracemalloc
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from caribbean_fast import (
    DISTINCT_STRENGTHS,
    ArgumentError,
    HandClass,
    InvalidCardsError,
    class_floor,
    evaluate,
    evaluate_many,
    parse_cards,
)
from caribbean_fast.hands import strength_of_ids
from caribbean_fast.reference import reference_value

from golden import golden_cases
from strategies import hands

CLASS_CASES, COMPARE_CASES = golden_cases()


@pytest.mark.parametrize("case", CLASS_CASES, ids=lambda c: c.cards)
def test_golden_classes(case: object) -> None:
    cards, hand_class = case.cards, case.hand_class  # type: ignore[attr-defined]
    assert evaluate(cards).hand_class is HandClass.parse(hand_class)
    assert strength_of_ids(parse_cards(cards)) == evaluate(cards).strength  # the engine's strength alone
    assert reference_value(parse_cards(cards))[0] is HandClass.parse(hand_class)


@pytest.mark.parametrize("case", COMPARE_CASES, ids=lambda c: f"{c.left} {c.op} {c.right}")
def test_golden_comparisons(case: object) -> None:
    left, op, right = case.left, case.op, case.right  # type: ignore[attr-defined]
    a, b = evaluate(left).strength, evaluate(right).strength
    assert {"<": a < b, ">": a > b, "=": a == b}[op]
    ra, rb = reference_value(parse_cards(left)), reference_value(parse_cards(right))
    assert {"<": ra < rb, ">": ra > rb, "=": ra == rb}[op]


@pytest.mark.parametrize(
    ("cards", "words", "best"),
    [
        ("As Kd Qh Jc Th 9s 2d", "Straight, Ace high", "As Kd Qh Jc Th"),
        ("Kh Kd 5c 5s 6h 2c 3d", "Two pair, Kings and Fives", "Kh Kd 5s 5c 6h"),
        ("Ah 2d 3c 4s 5h", "Straight, Five high", None),
        ("7c 7d 7h 2s 2c 2d", "Full house, Sevens full of Twos", None),
        ("6c 6d 6h 6s Ac", "Four of a kind, Sixes", None),
        ("Ts Js Qs Ks As 2d", "Royal flush", None),
        ("Qh Qd 4c 5s 6h", "Pair of Queens", None),
        ("Ah Kd 4c 3s 2h", "High card, Ace high", None),
        ("9h 8h 5h 3h 2h", "Flush, Nine high", None),
    ],
)
def test_describe_and_best_five(cards: str, words: str, best: str | None) -> None:
    value = evaluate(cards)
    assert value.describe() == words
    if best is not None:
        assert value.text == best
    assert evaluate(value.best_five).strength == value.strength
    assert set(value.best_five) <= set(parse_cards(cards))


def test_strengths_span_and_class_floors() -> None:
    assert evaluate("7c 5d 4h 3s 2c").strength == 1
    assert evaluate("As Ks Qs Js Ts").strength == DISTINCT_STRENGTHS == 7462
    assert class_floor(HandClass.ROYAL_FLUSH) == 7462
    assert evaluate("Ac Kd 4h 3s 2c").strength < class_floor(HandClass.ONE_PAIR)
    floors = [class_floor(c) for c in HandClass if c is not HandClass.ACE_KING]
    assert floors == sorted(floors)


@given(hands())
def test_class_and_best_five_match_reference(hand: list[int]) -> None:
    value = evaluate(hand)
    ref_class, _ = reference_value(hand)
    assert value.hand_class is ref_class
    assert reference_value(list(value.best_five)) == reference_value(hand)


@pytest.mark.slow
@given(hands(), hands())
def test_pairs_order_as_reference(a: list[int], b: list[int]) -> None:
    sa, sb = evaluate(a).strength, evaluate(b).strength
    ra, rb = reference_value(a), reference_value(b)
    assert (sa > sb) == (ra > rb)
    assert (sa == sb) == (ra == rb)


@pytest.mark.slow
@given(st.lists(hands(sizes=(7,)), min_size=1, max_size=40))
def test_many_equals_one_by_one(batch: list[list[int]]) -> None:
    array = np.array(batch, dtype=np.uint8)
    assert evaluate_many(array).tolist() == [evaluate(h).strength for h in batch]


def test_many_accepts_every_width_and_integer_dtype() -> None:
    rows = [parse_cards("As Ks Qs Js Ts 2c 3d")]
    for width in (5, 6, 7):
        for dtype in (np.uint8, np.int64, np.int16):
            out = evaluate_many(np.array([r[:width] for r in rows], dtype=dtype))
            assert out.dtype == np.uint16 and out.tolist() == [7462]
    two = np.array(parse_cards("As Ks Qs Js Ts 9s 8s 7s 6s 5s"), dtype=np.uint8).reshape(2, 5)
    fortran_order = np.asfortranarray(two)
    assert evaluate_many(fortran_order).tolist() == [7462, evaluate("9s 8s 7s 6s 5s").strength] == [7462, 7457]


def test_many_over_a_large_batch_uses_parallel_chunks() -> None:
    rng = np.random.default_rng(3)
    batch = np.argsort(rng.random((100_000, 52)), axis=1)[:, :7].astype(np.uint8)
    out = evaluate_many(batch)
    picks = rng.integers(0, len(batch), 200)
    assert [int(out[i]) for i in picks] == [evaluate(batch[i].tolist()).strength for i in picks]


def test_empty_batches() -> None:
    assert evaluate_many(np.empty((0, 7), dtype=np.uint8)).shape == (0,)
    assert evaluate_many(np.empty((0, 5), dtype=np.int32)).shape == (0,)


def test_bad_batches_name_the_row() -> None:
    good = parse_cards("As Ks Qs Js Ts 2c 3d")
    with pytest.raises(InvalidCardsError, match="row 2: card id 52 at position 6"):
        evaluate_many(np.array([good, good, [*good[:6], 52]], dtype=np.uint8))
    with pytest.raises(InvalidCardsError, match="row 1: card As appears twice"):
        evaluate_many(np.array([good, [51, *good[:6]]], dtype=np.uint8))
    with pytest.raises(InvalidCardsError, match=r"row 0: card ids must be in 0\.\.51"):
        evaluate_many(np.array([[-1, 1, 2, 3, 4]]))
    with pytest.raises(InvalidCardsError, match=r"row 1: card ids must be in 0\.\.51"):
        evaluate_many(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 300]]))
    big = np.tile(np.array(good, dtype=np.uint8), (50_000, 1))
    big[40_000, 0] = 200
    big[45_000, 0] = 201
    with pytest.raises(InvalidCardsError, match="row 40000: card id 200"):
        evaluate_many(big)


# Every integer dtype numpy has, under its sized names and its C names (on Linux `long long` is a
# dtype of its own beside `long`, both 64 bits), and in the other byte order.
INTEGER_DTYPES = [
    *(np.dtype(f"{sign}int{bits}") for sign in ("", "u") for bits in (8, 16, 32, 64)),
    *(np.dtype(t) for t in (np.intc, np.uintc, np.longlong, np.ulonglong, np.intp, np.uintp)),
    *(np.dtype(t).newbyteorder("S") for t in ("int16", "uint32", "int64", "uint64")),
]


@pytest.mark.parametrize("width", [5, 6, 7])
def test_every_integer_dtype_gives_uint8s_strengths(width: int) -> None:
    rng = np.random.default_rng(width)
    # 40,000 rows: several parallel tasks (16,384 rows each) and many conversion blocks in each
    batch = np.argsort(rng.random((40_000, 52)), axis=1)[:, :width].astype(np.uint8)
    expected = evaluate_many(batch)
    for dtype in INTEGER_DTYPES:
        assert np.array_equal(evaluate_many(batch.astype(dtype)), expected), dtype
    assert np.array_equal(evaluate_many(np.asfortranarray(batch.astype(np.int64))), expected)
    assert np.array_equal(evaluate_many(batch.astype(np.int32)[::-1])[::-1], expected)


@pytest.mark.slow
@given(
    st.integers(5, 7).flatmap(lambda w: st.lists(hands(sizes=(w,)), min_size=1, max_size=30)),
    st.sampled_from(INTEGER_DTYPES),
)
def test_many_of_any_integer_dtype_equals_one_by_one(batch: list[list[int]], dtype: np.dtype[np.integer]) -> None:
    assert evaluate_many(np.array(batch, dtype=dtype)).tolist() == [evaluate(h).strength for h in batch]


def _ids_not_cards(dtype: np.dtype[np.integer]) -> list[int]:
    """Values of `dtype` that are no card id; those past a byte would wrap around to a card (260 to
    4, -252 to 4) if the core narrowed them to uint8 without a check."""
    info = np.iinfo(dtype)
    values = [52, 63, 64, 255, 256, 260, -1, -252, 2**16 + 4, 2**32 + 4, 2**40, info.min, info.max]
    return sorted({v for v in values if info.min <= v <= info.max and not 0 <= v <= 51})


@pytest.mark.parametrize("dtype", INTEGER_DTYPES, ids=str)
def test_ids_out_of_range_are_refused_in_every_dtype(dtype: np.dtype[np.integer]) -> None:
    good = parse_cards("As Ks Qs Js Ts 2c 3d")
    for value in _ids_not_cards(dtype):
        batch = np.tile(np.array(good, dtype=dtype), (50_000, 1))
        batch[30_000, 4] = value
        batch[45_000, 0] = value  # a later bad row, in another parallel task
        if dtype == np.uint8:
            message = f"row 30000: card id {value} at position 4 is not in 0..51"
        else:
            message = rf"row 30000: card ids must be in 0\.\.51, got \[51, 47, 43, 39, {value}, 0, 5\]"
        with pytest.raises(InvalidCardsError, match=message):
            evaluate_many(batch)


def test_the_first_bad_row_is_named_whatever_its_fault() -> None:
    good = parse_cards("As Ks Qs Js Ts")
    batch = np.tile(np.array(good, dtype=np.int64), (20, 1))
    batch[9, 0] = -1
    batch[5, 1] = batch[5, 0]
    with pytest.raises(InvalidCardsError, match="row 5: card As appears twice"):
        evaluate_many(batch)
    batch[3, 2] = 2**40
    with pytest.raises(InvalidCardsError, match=r"row 3: card ids must be in 0\.\.51, got \[51, 47, 1099511627776, "):
        evaluate_many(batch)


def test_wide_dtypes_are_read_in_place_without_a_converted_copy() -> None:
    """The core reads int64 ids where they are: numpy allocates nothing near the size of even a
    uint8 copy of the batch (tracemalloc sees numpy's allocations; no timing here)."""
    batch = np.tile(np.array(parse_cards("As Ks Qs Js Ts 2c 3d"), dtype=np.int64), (1_000_000, 1))
    evaluate_many(batch[:10])  # whatever a first call caches
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        out = evaluate_many(batch)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert out.shape == (1_000_000,) and int(out[0]) == DISTINCT_STRENGTHS
    assert peak < batch.size // 4  # a uint8 copy alone is batch.size bytes


@pytest.mark.parametrize(
    ("array", "error", "message"),
    [
        (np.zeros((3, 4), dtype=np.uint8), ValueError, r"shape \(n, 5\), \(n, 6\) or \(n, 7\), not \(3, 4\)"),
        (np.zeros((3, 8), dtype=np.uint8), ValueError, "not"),
        (np.zeros(7, dtype=np.uint8), ValueError, r"not \(7,\)"),
        (np.zeros((2, 2, 5), dtype=np.uint8), ValueError, "shape"),
        (np.zeros((3, 5), dtype=np.float64), TypeError, "float64"),
        (np.array([["As"] * 5]), TypeError, "integer array"),
    ],
)
def test_wrong_dtype_or_shape(array: np.ndarray, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message) as caught:
        evaluate_many(array)
    assert isinstance(caught.value, ArgumentError)  # the package's class, whichever builtin it also is


@pytest.mark.parametrize("text", ["", "As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s", "Ah Ah Ks Qs Js", "1x 2c 3c 4c 5c"])
def test_evaluate_rejects_bad_hands(text: str) -> None:
    with pytest.raises(InvalidCardsError):
        evaluate(text)


def test_every_six_card_subset_of_a_seven_card_hand_is_no_stronger() -> None:
    hand = parse_cards("As Ad Kh Kc 7s 7d 2c")
    full = evaluate(hand).strength
    assert max(evaluate(list(six)).strength for six in combinations(hand, 6)) == full


def test_class_of_agrees_with_the_core_on_every_strength() -> None:
    from caribbean_fast import _core
    from caribbean_fast.hands import class_of

    assert [class_of(s) for s in range(1, DISTINCT_STRENGTHS + 1)] == [
        _core.class_of(s) for s in range(1, DISTINCT_STRENGTHS + 1)
    ]
    for bad in (0, DISTINCT_STRENGTHS + 1, True, 2.0):
        with pytest.raises(ArgumentError, match="strength must be 1 to 7462"):
            class_of(bad)  # type: ignore[arg-type]
