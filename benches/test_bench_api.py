"""pytest-benchmark figures for the Python API.

Run: ``pytest benches/test_bench_api.py --benchmark-enable`` (pytest-benchmark prints the table;
the batch tests also print hands per second)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

from caribbean_fast import evaluate, evaluate_many, parse_cards

N = 1_000_000


def _hands(width: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(11)
    return np.argsort(rng.random((N, 52), dtype=np.float32), axis=1)[:, :width].astype(np.uint8)


@pytest.mark.parametrize("width", [5, 7])
def test_evaluate_many(benchmark: BenchmarkFixture, width: int) -> None:
    hands = _hands(width)
    out = benchmark(evaluate_many, hands)
    assert out.shape == (N,)
    if benchmark.stats:
        print(f"\nevaluate_many, {width} cards: {N / benchmark.stats['min'] / 1e6:.1f} M hands/s")


def test_evaluate_one_hand(benchmark: BenchmarkFixture) -> None:
    value = benchmark(evaluate, "As Kd Qh Jc Th 9s 2d")
    assert value.describe() == "Straight, Ace high"


def test_parse_cards(benchmark: BenchmarkFixture) -> None:
    assert len(benchmark(parse_cards, "As Kd Qh Jc Th 9s 2d")) == 7
